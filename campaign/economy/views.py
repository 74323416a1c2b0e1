"""Pages of the campaign's economy: Karma, adventures and their close-out, MacGuffin pools.

Thin views: access helper → form → ``campaign.economy`` service → message and redirect, or the
page again with the service's message next to the field it concerns (400 / 409), the input kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, Sum
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters import sheet as sheet_rules
from characters.models import Character
from characters.permissions import access_character
from characters.selectors import SHEET_PREFETCH, character_with_sheet
from rulebook import RulesError
from rulebook.karma import karmic_starvation
from zenergate_site.errors import DomainError

from . import services as economy
from .forms import (
    AdventureStartForm,
    AwardForm,
    CloseForm,
    ComplicationForm,
    ContributionForm,
    MacGuffinForm,
    SpendForm,
    TokenForm,
)
from characters.ledger import karma_ledger
from ..models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from ..permissions import access_campaign

Active = Character.State.ACTIVE


def _attach(form, exc: DomainError, aliases: dict | None = None, shown: set | None = None) -> int:
    """Put a service's message next to its field (or above the form); return the HTTP status.

    ``shown`` names the fields on screen when some are hidden (the spend form shows only the
    chosen kind's): a message for a hidden field goes above the form instead.
    """
    field = (aliases or {}).get(exc.field, exc.field)
    visible = field in form.fields and field != "idempotency_key" and (shown is None or field in shown)
    form.add_error(field if visible else None, exc.message)
    return exc.status_code


def _active_characters(campaign):
    return list(campaign.characters.filter(state=Active).select_related("owner").order_by("name", "id"))


# --- Dashboard -----------------------------------------------------------------------------
def _percent(part: int, whole: int) -> int:
    return max(0, min(100, round(100 * part / whole))) if whole else 0


def _party_row(character: Character) -> dict:
    """Return what the party overview shows of one character (no queries: its sheet is loaded)."""
    hp, shk, end = character.hit_points, character.shock_threshold, character.endurance_max
    if hp is None:  # not approved yet: the values the sheet would freeze now
        try:
            d = sheet_rules.derived(character)
            hp, shk, end = d.hit_points.total, d.shock_threshold.total, d.endurance.total
        except RulesError:
            hp = shk = end = 0
    hp_now = max(hp - character.trauma, 0)
    end_now = max(end - character.endurance_spent, 0)
    return {
        "character": character, "hp": hp, "hp_now": hp_now, "hp_pct": _percent(hp_now, hp),
        "shk": shk, "shock_over": character.shock > shk, "shock_pct": _percent(character.shock, shk),
        "end": end, "end_now": end_now, "end_pct": _percent(end_now, end),
        "flags": economy.karma_flags(character),
    }


def dashboard_context(*, campaign) -> dict:
    """Return the economy half of the campaign dashboard in a fixed number of queries."""
    characters = (campaign.characters.select_related("owner", "campaign").prefetch_related(*SHEET_PREFETCH)
                  .order_by("name", "id"))
    adventure = economy.current_adventure(campaign)
    tokens = list(adventure.tokens.all()) if adventure else []
    return {
        # Characters in play first, then drafts, the dead and the retired (each by name).
        "party": sorted((_party_row(c) for c in characters), key=lambda row: row["character"].state != Active),
        "pools": list(economy.macguffin_summary(campaign)),
        "adventure": adventure,
        "adventure_tokens": sum(1 for t in tokens if not t.voided),
        "adventure_voided": sum(1 for t in tokens if t.voided),
        "ledger_recent": list(KarmaEntry.objects.filter(campaign=campaign)
                              .select_related("character", "by", "macguffin")[:10]),
    }


# --- Karma page ----------------------------------------------------------------------------
def _spend_form(character, data=None) -> SpendForm:
    others = [c for c in character.campaign.characters.filter(state=Active).order_by("name", "id")
              if c.pk != character.pk]
    return SpendForm(data, character=character, others=others, disadvantages=list(character.disadvantages.all()))


def _complication_defaults(character) -> dict:
    """Suggest the Complication the flags call for: its cause and its ranks."""
    computed = sheet_rules.compute_sheet(character)
    budget = computed.budget
    if budget is not None and budget.overspent:
        return {"cause": Complication.Cause.STARVATION, "form": Complication.Form.WORSEN,
                "ranks": karmic_starvation(budget.spent, budget.available).complication_ranks}
    return {"cause": Complication.Cause.DEBT, "form": Complication.Form.WORSEN, "ranks": 1}


def _karma_page(request, access, *, spend_form=None, complication_form=None, status=200):
    character = character_with_sheet(character_id=access.character.pk)
    flags = economy.karma_flags(character)
    if access.can_write and spend_form is None:
        spend_form = _spend_form(character)
    if access.is_gm and complication_form is None:
        complication_form = ComplicationForm(initial=_complication_defaults(character),
                                             disadvantages=list(character.disadvantages.all()))
    context = {
        "character": character,
        "campaign": character.campaign,
        "access": access,
        "flags": flags,
        "ledger": karma_ledger(character=character),
        "spend_form": spend_form,
        "complication_form": complication_form,
        "preview": _spend_preview(character, access.is_gm, spend_form) if spend_form is not None else None,
        "complications": character.complications.select_related("by")[:5],
    }
    return render(request, "campaign/karma.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_karma(request, character_id: int):
    """The Karma page: balance, ledger and (for the owner and the GM) the spend form."""
    if request.method == "GET":
        return _karma_page(request, access_character(user=request.user, character_id=character_id))
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = character_with_sheet(character_id=access.character.pk)
    form = _spend_form(character, request.POST)
    if not form.is_valid():
        return _karma_page(request, access, spend_form=form, status=400)
    try:
        entry, created = economy.karma_spend(
            character=character, kind=form.cleaned_data["kind"], idempotency_key=form.cleaned_data["idempotency_key"],
            by=request.user, is_gm=access.is_gm, params=form.spend_params())
    except DomainError as exc:
        kind = form.cleaned_data["kind"]
        aliases = {"character": "helped"} if kind == "assist" and exc.status_code == 400 else None
        shown = {"kind", "reason", "override", SpendForm.NEEDS.get(kind, ("kind",))[0]}
        return _karma_page(request, access, spend_form=form, status=_attach(form, exc, aliases, shown))
    if created:
        messages.success(request, f"{character.name} spent {-entry.amount} Karma: {entry.reason}. "
                                  f"Balance {entry.balance_after}.")
    else:
        messages.info(request, "That spend was already posted (the form was sent twice); nothing more was spent.")
    return redirect("character-karma", character_id=character.pk)


def _spend_preview(character, is_gm: bool, form: SpendForm) -> dict:
    """Price the spend the form describes without posting anything: cost, balance after, or why not."""
    if not form.is_bound:
        form = _spend_form(character, {"kind": form.initial.get("kind", form.fields["kind"].initial),
                                       "idempotency_key": "preview"})
    result = {"balance": character.karma}
    if character.state != Active:
        return {**result, "refused": f"{character.name} is {character.get_state_display().lower()}: "
                                     "Karma moves only once the GM has approved the sheet."}
    if not form.is_valid():
        errors = [e for name, errs in form.errors.items() if name != "idempotency_key" for e in errs]
        return {**result, "refused": errors[0] if errors else "Fill in the form."}
    data, kind = form.cleaned_data, form.cleaned_data["kind"]
    params = {name: data.get(name) for name in ("amount", "stat", "disadvantage", "override", "cost", "time_index")
              if data.get(name) not in (None, "")}
    try:
        spend = economy.spend_quote(character=character, kind=kind, params=params, is_gm=is_gm)
    except DomainError as exc:
        return {**result, "refused": exc.message}
    return {**result, "spend": spend, "after": character.karma - spend.cost}


@login_required
@require_GET
def karma_preview(request, character_id: int):
    """The htmx fragment under the spend form: what the spend would cost, or the rule's refusal."""
    access = access_character(user=request.user, character_id=character_id)
    character = character_with_sheet(character_id=access.character.pk)
    data = request.GET.copy()
    data.setdefault("idempotency_key", "preview")  # the preview posts nothing: no key needed
    preview = _spend_preview(character, access.is_gm, _spend_form(character, data))
    return render(request, "campaign/_spend_preview.html", {"preview": preview, "character": character})


@login_required
@require_POST
def character_complication(request, character_id: int):
    """The GM records a Complication that settles Karmic Debt or Starvation."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    if not access.is_gm:
        raise PermissionDenied("Only the GM records Complications.")
    character = character_with_sheet(character_id=access.character.pk)
    form = ComplicationForm(request.POST, disadvantages=list(character.disadvantages.all()))
    if not form.is_valid():
        return _karma_page(request, access, complication_form=form, status=400)
    data = form.cleaned_data
    try:
        economy.complication_record(
            character=character, cause=data["cause"], form=data["form"], ranks=data["ranks"],
            description=data["description"], by=request.user, nullify=data["nullify"],
            worsen=data["worsen"], stat=data["stat"] or None)
    except DomainError as exc:
        return _karma_page(request, access, complication_form=form, status=_attach(form, exc))
    messages.success(request, f"Complication recorded for {character.name}.")
    return redirect("character-karma", character_id=character.pk)


# --- Adventures and awards -----------------------------------------------------------------
def _adventures_page(request, access, *, start_form=None, token_form=None, award_form=None, status=200):
    campaign = access.campaign
    adventure = economy.current_adventure(campaign)
    characters = _active_characters(campaign)
    if access.is_gm:
        start_form = start_form or AdventureStartForm()
        token_form = token_form or TokenForm()
        award_form = award_form or AwardForm(characters=characters)
    past = list(campaign.adventures.filter(closed_at__isnull=False)
                .annotate(counted=Count("tokens", filter=Q(tokens__voided=False)))[:20])
    paid = dict(KarmaEntry.objects.filter(adventure__in=past, kind=KarmaEntry.Kind.PAYOUT)
                .values("adventure_id").annotate(total=Sum("amount")).values_list("adventure_id", "total"))
    for old in past:
        old.paid = paid.get(old.pk, 0)
    context = {
        "campaign": campaign, "access": access, "adventure": adventure,
        "tokens": list(adventure.tokens.all()) if adventure else [],
        "past": past, "start_form": start_form, "token_form": token_form, "award_form": award_form,
    }
    return render(request, "campaign/adventures.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def adventures(request, campaign_id: int):
    """The current adventure with its bad-news tokens, past adventures, and the GM's forms."""
    if request.method == "GET":
        return _adventures_page(request, access_campaign(user=request.user, campaign_id=campaign_id))
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = AdventureStartForm(request.POST)
    if not form.is_valid():
        return _adventures_page(request, access, start_form=form, status=400)
    try:
        adventure = economy.adventure_start(campaign=access.campaign, by=request.user, **form.cleaned_data)
    except DomainError as exc:
        return _adventures_page(request, access, start_form=form, status=_attach(form, exc))
    messages.success(request, f"“{adventure.name}” has begun (base XP {adventure.base_xp}).")
    return redirect("campaign-adventures", campaign_id=campaign_id)


def _gm_adventure(request, adventure_id: int):
    adventure = get_object_or_404(Adventure.objects.select_related("campaign"), pk=adventure_id)
    return adventure, access_campaign(user=request.user, campaign_id=adventure.campaign_id, write=True)


@login_required
@require_POST
def token_add(request, adventure_id: int):
    adventure, access = _gm_adventure(request, adventure_id)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _adventures_page(request, access, token_form=form, status=400)
    try:
        economy.token_add(adventure=adventure, note=form.cleaned_data["note"], by=request.user)
    except DomainError as exc:
        return _adventures_page(request, access, token_form=form, status=_attach(form, exc))
    messages.success(request, "Bad-news token added: +1 XP for everyone at the close-out.")
    return redirect("campaign-adventures", campaign_id=adventure.campaign_id)


@login_required
@require_POST
def token_void(request, adventure_id: int, token_id: int):
    adventure, access = _gm_adventure(request, adventure_id)
    token = get_object_or_404(BadNewsToken, pk=token_id, adventure=adventure)
    try:
        economy.token_void(token=token, by=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
        return _adventures_page(request, access, status=exc.status_code)
    messages.success(request, f"Token voided: {token.note or 'bad news'} no longer counts.")
    return redirect("campaign-adventures", campaign_id=adventure.campaign_id)


@login_required
@require_POST
def campaign_awards(request, campaign_id: int):
    """GM awards, paid at once: complication +2, NPC boost +1, or a manual correction."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = AwardForm(request.POST, characters=_active_characters(access.campaign))
    if not form.is_valid():
        return _adventures_page(request, access, award_form=form, status=400)
    data = form.cleaned_data
    try:
        entries = economy.award(campaign=access.campaign, kind=data["kind"], character_ids=data["characters"],
                                by=request.user, reason=data["reason"],
                                amount=data["amount"] if data["kind"] == "manual" else None,
                                idempotency_key=data["idempotency_key"])
    except DomainError as exc:
        return _adventures_page(request, access, award_form=form, status=_attach(form, exc))
    names = ", ".join(f"{e.character.name} {e.amount:+d}" for e in entries)
    messages.success(request, f"Karma awarded: {names}.")
    return redirect("campaign-adventures", campaign_id=campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def adventure_close(request, adventure_id: int):
    """The close-out: choose the outcome, preview every payout, then close and pay once."""
    adventure, access = _gm_adventure(request, adventure_id)
    characters = _active_characters(access.campaign)
    data = request.POST if request.method == "POST" else (request.GET if "outcome" in request.GET else None)
    form = CloseForm(data, characters=characters)
    rows, status = None, 200
    if not form.is_bound and adventure.is_open:  # show the plainest outcome's payout at once
        rows = economy.payout_preview(adventure=adventure, outcome="none", permanent=False, selfish=[])
    elif form.is_bound and not form.is_valid():
        status = 400
    elif form.is_bound and (adventure.is_open or request.method == "POST"):
        clean = form.cleaned_data
        args = {"outcome": clean["outcome"], "permanent": clean["permanent"], "selfish": clean["selfish"]}
        try:
            if request.method == "POST":
                paid = economy.adventure_close(adventure=adventure, by=request.user, **args)
                names = ", ".join(f"{r['name']} +{r['karma']}" for r in paid)
                messages.success(request, f"“{adventure.name}” is closed and paid: {names or 'nobody to pay'}.")
                return redirect("campaign-adventures", campaign_id=adventure.campaign_id)
            rows = economy.payout_preview(adventure=adventure, **args)
        except DomainError as exc:
            adventure.refresh_from_db()  # closed meanwhile: the message goes above the payouts
            status = _attach(form, exc, shown=None if adventure.is_open else set())
    context = {"adventure": adventure, "campaign": access.campaign, "access": access, "form": form,
               "rows": rows, "characters": characters,
               "tokens": adventure.tokens.filter(voided=False).count(),
               "paid": (adventure.karma_entries.filter(kind=KarmaEntry.Kind.PAYOUT).select_related("character")
                        .order_by("character__name", "id")
                        if not adventure.is_open else None)}
    template = "campaign/_payout_preview.html" if request.htmx and request.method == "GET" else "campaign/close.html"
    return render(request, template, context, status=status)


# --- MacGuffin pools -----------------------------------------------------------------------
def _pools(campaign) -> list[MacGuffin]:
    """Return the campaign's pools, each with its contributors and what they gave (two queries)."""
    pools = list(economy.macguffin_summary(campaign))
    given: dict[int, list] = {}
    rows = (KarmaEntry.objects.filter(macguffin__campaign=campaign, kind=KarmaEntry.Kind.MACGUFFIN)
            .values("macguffin_id", "character__name").annotate(total=Sum("amount"))
            .order_by("macguffin_id", "total", "character__name"))
    for row in rows:
        given.setdefault(row["macguffin_id"], []).append((row["character__name"], -row["total"]))
    for pool in pools:
        pool.givers = given.get(pool.pk, [])
    return pools


def _pool_ids(pool_id: int) -> str:
    """Each pool's form gets its own element ids: several sit on one page."""
    return f"id_pool{pool_id}_%s"


def _contributors_for(user, access) -> list[Character]:
    qs = access.campaign.characters.filter(state=Active)
    if not access.is_gm:
        qs = qs.filter(owner=user)
    return list(qs.order_by("name", "id"))


def _macguffins_page(request, access, *, create_form=None, bound=None, status=200):
    mine = _contributors_for(request.user, access)
    pools = _pools(access.campaign)
    for pool in pools:
        if bound is not None and bound[0] == pool.pk:
            pool.form = bound[1]
        elif mine and pool.status == MacGuffin.Status.FUNDING:
            pool.form = ContributionForm(characters=mine, auto_id=_pool_ids(pool.pk))
        else:
            pool.form = None
    if access.is_gm and create_form is None:
        create_form = MacGuffinForm()
    context = {"campaign": access.campaign, "access": access, "pools": pools, "create_form": create_form,
               "mine": mine}
    return render(request, "campaign/macguffins.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def macguffins(request, campaign_id: int):
    """Every MacGuffin pool, live; the GM opens new ones here."""
    if request.method == "GET":
        return _macguffins_page(request, access_campaign(user=request.user, campaign_id=campaign_id))
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = MacGuffinForm(request.POST)
    if not form.is_valid():
        return _macguffins_page(request, access, create_form=form, status=400)
    data = form.cleaned_data
    try:
        pool = economy.macguffin_create(campaign=access.campaign, name=data["name"], limitation=data["limitation"],
                                        target=data["target"], upgrade=data["upgrade"], by=request.user)
    except DomainError as exc:
        return _macguffins_page(request, access, create_form=form, status=_attach(form, exc))
    messages.success(request, f"Pool “{pool.name}” opened: target {pool.target} Karma.")
    return redirect("campaign-macguffins", campaign_id=campaign_id)


@login_required
@require_GET
def macguffins_live(request, campaign_id: int):
    """The polled fragment: each pool's progress, status and contributors, swapped out of band."""
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    return render(request, "campaign/_pools_live.html", {"pools": _pools(access.campaign), "oob": True})


@login_required
@require_POST
def macguffin_contribute(request, macguffin_id: int):
    """A player pays Karma from their own character into a pool (the GM from any)."""
    pool = get_object_or_404(MacGuffin.objects.select_related("campaign"), pk=macguffin_id)
    access = access_campaign(user=request.user, campaign_id=pool.campaign_id)
    raw = request.POST.get("character", "")
    if raw.isdigit():  # someone else's character: 403 (or 404 outside its campaign), before anything else
        access_character(user=request.user, character_id=raw, write=True)
    elif not _contributors_for(request.user, access):
        raise PermissionDenied("Only players with an approved character (and the GM) can contribute.")
    form = ContributionForm(request.POST, characters=_contributors_for(request.user, access),
                            auto_id=_pool_ids(pool.pk))
    if not form.is_valid():
        return _macguffins_page(request, access, bound=(pool.pk, form), status=400)
    data = form.cleaned_data
    character = Character.objects.get(pk=data["character"])
    try:
        entry, created = economy.macguffin_contribute(macguffin=pool, character=character, amount=data["amount"],
                                                      idempotency_key=data["idempotency_key"], by=request.user)
    except DomainError as exc:
        return _macguffins_page(request, access, bound=(pool.pk, form), status=_attach(form, exc))
    if created:
        messages.success(request, f"{character.name} gave {-entry.amount} Karma to {pool.name}.")
    else:
        messages.info(request, "That contribution was already posted; nothing more was given.")
    return redirect("campaign-macguffins", campaign_id=pool.campaign_id)

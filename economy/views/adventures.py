"""Adventures: start, bad-news tokens, GM awards, and the close-out with its payout preview."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, Sum
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.permissions import access_campaign
from characters.models import Character
from economy.models import Adventure, BadNewsToken, KarmaEntry
from zenergate_site.errors import DomainError

from .. import services as economy
from ..forms import (
    AdventureStartForm,
    AwardForm,
    CloseForm,
    TokenForm,
)
from .common import active_characters, attach_error

Active = Character.State.ACTIVE


# --- Adventures and awards -----------------------------------------------------------------
def _adventures_page(request, access, *, start_form=None, token_form=None, award_form=None, status=200):
    campaign = access.campaign
    adventure = economy.current_adventure(campaign)
    characters = active_characters(campaign)
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
        return _adventures_page(request, access, start_form=form, status=attach_error(form, exc))
    messages.success(request, _("“%(name)s” has begun (base XP %(xp)s).")
                     % {"name": adventure.name, "xp": adventure.base_xp})
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
        return _adventures_page(request, access, token_form=form, status=attach_error(form, exc))
    messages.success(request, _("Bad-news token added: +1 XP for everyone at the close-out."))
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
    messages.success(request, _("Token voided: %(note)s no longer counts.") % {"note": token.note or _("bad news")})
    return redirect("campaign-adventures", campaign_id=adventure.campaign_id)


@login_required
@require_POST
def campaign_awards(request, campaign_id: int):
    """GM awards, paid at once: complication +2, NPC boost +1, or a manual correction."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = AwardForm(request.POST, characters=active_characters(access.campaign))
    if not form.is_valid():
        return _adventures_page(request, access, award_form=form, status=400)
    data = form.cleaned_data
    try:
        entries = economy.award(campaign=access.campaign, kind=data["kind"], character_ids=data["characters"],
                                by=request.user, reason=data["reason"],
                                amount=data["amount"] if data["kind"] == "manual" else None,
                                idempotency_key=data["idempotency_key"])
    except DomainError as exc:
        return _adventures_page(request, access, award_form=form, status=attach_error(form, exc))
    names = ", ".join(f"{e.character.name} {e.amount:+d}" for e in entries)
    messages.success(request, _("Karma awarded: %(names)s.") % {"names": names})
    return redirect("campaign-adventures", campaign_id=campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def adventure_close(request, adventure_id: int):
    """The close-out: choose the outcome, preview every payout, then close and pay once."""
    adventure, access = _gm_adventure(request, adventure_id)
    characters = active_characters(access.campaign)
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
                messages.success(request, _("“%(name)s” is closed and paid: %(paid)s.")
                                 % {"name": adventure.name, "paid": names or _("nobody to pay")})
                return redirect("campaign-adventures", campaign_id=adventure.campaign_id)
            rows = economy.payout_preview(adventure=adventure, **args)
        except DomainError as exc:
            adventure.refresh_from_db()  # closed meanwhile: the message goes above the payouts
            status = attach_error(form, exc, shown=None if adventure.is_open else set())
    context = {"adventure": adventure, "campaign": access.campaign, "access": access, "form": form,
               "rows": rows, "characters": characters,
               "tokens": adventure.tokens.filter(voided=False).count(),
               "paid": (adventure.karma_entries.filter(kind=KarmaEntry.Kind.PAYOUT).select_related("character")
                        .order_by("character__name", "id")
                        if not adventure.is_open else None)}
    template = "campaign/_payout_preview.html" if request.htmx and request.method == "GET" else "campaign/close.html"
    return render(request, template, context, status=status)

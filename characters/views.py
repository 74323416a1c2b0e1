"""Character pages: party list, builder, sheet, GM flow, history and the printable sheet.

Thin views: the access helper decides who may look or write (404 / 403), the services decide
what may change (CharacterError 400, CharacterConflict 409), and every refusal is shown next
to the field it is about with what the user typed still in the form. Writes made with htmx get
back the section they changed plus the budget and problems out of band; without JavaScript the
same forms post and redirect (or re-render the page with the errors).

``sheet_data`` is the one place that turns a loaded sheet into what the pages and the printable
sheet show; it stays here, beside the pages, so the module runs long rather than scattering
the presentation of a sheet over several files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from campaign.models import Campaign, Membership
from campaign.permissions import access_campaign
from rulebook import RulesError
from rulebook.equipment import weapon_cost
from rulebook.karma import disadvantage_check_modifier, disadvantage_points
from rulebook.skills import skill_cost
from rulebook.stats import PRIMARY_STATS
from zenergate_site.errors import DomainError

from . import items, lifecycle, pdf, selectors, services, services_rolls
from . import sheet as sheet_rules
from .errors import CharacterError
from .forms import (
    CLASSIFY_CHOICES,
    ClassifyForm,
    NewCharacterForm,
    NotesForm,
    ReturnForm,
    RevertForm,
    StateForm,
    StatsForm,
    line_form,
)
from .models import Breadth, Character
from .permissions import CharacterAccess, access_character
from .views_wounds import live_context, panel_context

State = Character.State
SECTIONS = {  # kind → (title, one line)
    "skills": ("Skills", "skill"),
    "disadvantages": ("Disadvantages", "disadvantage"),
    "equipment": ("Equipment", "equipment"),
    "weapons": ("Weapons", "weapon"),
    "armour": ("Armour", "armour"),
    "languages": ("Languages", "language"),
}
BREADTH_LABELS = dict(Breadth.choices)
VALUE_LABELS = {1: "Specific (1)", 2: "Narrow (2)", 4: "Broad (4)"}


# --- What the pages show ------------------------------------------------------------------
@dataclass
class Line:
    """One line of a sheet section, ready for a template (and for the printable sheet)."""

    item: object
    facts: list[tuple[str, object]]
    cost: int | None = None
    check: object = None  # sheet.CheckLine for skills
    exact: str = ""
    pending: bool = False
    edit_form: object = None
    classify_form: object = None
    errors: list[str] = field(default_factory=list)
    open: bool = False


def _try(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except RulesError:
        return None


def exact_odds(check) -> str:
    """Spell a check's chance out exactly: how many of the equally likely rolls succeed."""
    return f"{check.successes:,} of {6 ** check.rolled_dice:,} rolls of {check.rolled_dice}d6 succeed"


def _facts(kind: str, item, character: Character, computed) -> tuple[list, int | None]:
    """Return the (label, value) pairs a line shows and its cost in skill points."""
    cap = character.campaign.max_skill_ranks
    if kind == "skills":
        cost = _try(skill_cost, item.breadth, item.ranks, max_ranks=cap)
        facts = [("Breadth", BREADTH_LABELS.get(item.breadth, item.breadth)), ("Ranks", item.ranks),
                 ("Stat", item.stat)]
        if item.weapon_category:
            facts.append(("Weapons", item.weapon_category))
        return facts, cost
    if kind == "disadvantages":
        points = _try(disadvantage_points, item.value, item.ranks)
        facts = [("Breadth", VALUE_LABELS.get(item.value, item.value)), ("Ranks", item.ranks),
                 ("Checks", f"{disadvantage_check_modifier(item.ranks):+d}"), ("Points", points)]
        if item.affects:
            facts.append(("Affects", item.affects))
        return facts, None
    if kind == "equipment":
        facts = [("Breadth", BREADTH_LABELS.get(item.breadth, item.breadth)), ("Ranks", item.ranks)]
        if item.notes:
            facts.append(("Notes", item.notes))
        return facts, _try(skill_cost, item.breadth, item.ranks, max_ranks=cap)
    if kind == "weapons":
        priced = _try(weapon_cost, item.damage_points, item.rate_of_fire, item.extra_damage,
                      item.range_reduction_steps, item.skilled, melee=item.melee, reach_steps=item.reach_steps)
        facts = [("Damage", priced.damage_description if priced else "—")]
        if item.melee:
            facts.append(("Melee", f"reach {item.reach_steps} step{'s' if item.reach_steps != 1 else ''}"))
        elif priced:
            facts.append(("Range index", f"{priced.effective_range_index}"
                          + (f" (base {priced.base_range_index})" if item.range_reduction_steps else "")))
        if item.skilled:
            facts.append(("Skilled", "cost halved"))
        return facts, computed.weapon_costs.get(item.pk)
    if kind == "armour":
        view = computed.armour.get(item.pk)
        effects = ", ".join(f"{k} {v:+d}" for k, v in view.effects.items() if v) if view else ""
        facts = [("Hardness × cover", f"{item.hardness} × {item.coverage}/4"),
                 ("Rating", view.rating if view else "—"), ("Stat effects", effects or "none")]
        if item.tech_shift:
            facts.append(("Tech", f"{item.tech_shift:+d}"))
        facts.append(("Worn", "yes" if item.worn else "no"))
        return facts, view.cost if view else None
    facts = [("Spoken", item.spoken), ("Heard", item.heard), ("Written", item.written), ("Read", item.read)]
    if item.native:
        facts.insert(0, ("Native", "yes"))
    if item.era:
        facts.insert(0, ("Era", item.era))
    return facts, None


def _section(kind: str, character: Character, computed, *, is_gm: bool, can_edit: bool, page: str,
             override: dict | None = None) -> dict:
    """Build one section; ``override`` carries bound forms and errors from a refused write."""
    override = override or {}
    lines = []
    for item in getattr(character, kind).all():
        facts, cost = _facts(kind, item, character, computed)
        check = computed.skill_checks.get(item.pk) if kind == "skills" else None
        line = Line(item=item, facts=facts, cost=cost, check=check, exact=exact_odds(check) if check else "",
                    pending=kind != "languages" and not item.classified)
        if can_edit:
            line.edit_form = line_form(kind, instance=item, prefix_id=item.pk)
            if is_gm and line.pending:
                name = CLASSIFY_CHOICES.get(kind, (None,))[0]
                line.classify_form = ClassifyForm(kind=kind, prefix=f"classify-{kind}-{item.pk}",
                                                  initial={name: getattr(item, name)} if name else None)
        if override.get("item_id") == item.pk:
            line.errors, line.open = override.get("errors", []), True
            line.edit_form = override.get("edit_form") or line.edit_form
            line.classify_form = override.get("classify_form") or line.classify_form
        lines.append(line)
    title, singular = SECTIONS[kind]
    return {
        "kind": kind, "title": title, "singular": singular, "lines": lines, "character": character,
        "can_edit": can_edit, "is_gm": is_gm, "page": page,
        "add_form": override.get("add_form") or (line_form(kind) if can_edit else None),
        "add_open": "add_form" in override,
    }


def _wounds(character: Character, hp: int, shk: int, end: int) -> dict:
    """Return what the wound bars show: HP less trauma, shock against SHK, END less what is spent."""
    return {
        "hp": max(hp - character.trauma, 0), "hp_max": hp, "trauma": character.trauma,
        "shock": character.shock, "shk": shk, "shock_over": character.shock > shk,
        "end": max(end - character.endurance_spent, 0), "end_max": end,
    }


def _vitals(character: Character, computed) -> dict | None:
    if not computed.derived:
        return None
    return _wounds(character, *(computed.derived[code][0] for code in ("HP", "SHK", "END")))


def _checklist(character: Character, computed) -> list[tuple[bool, str]]:
    """Return what the review shows as done or to do before submission and approval."""
    rows = [(bool(character.skills.all()), "A profession: the first skill on the sheet")]
    budget = computed.budget
    if budget is not None:
        rows.append((not budget.overspent, f"Skill points: {budget.spent} spent of {budget.available}"))
        pending = budget.pending
        rows.append((not pending, f"{pending} line{'s' if pending != 1 else ''} awaiting the GM's classification"
                     if pending else "Every line classified by the GM"))
    return rows


def sheet_data(access: CharacterAccess, *, page: str = "sheet", overrides: dict | None = None) -> dict:
    """Everything the sheet, the builder and the printable sheet show, in a fixed number of queries."""
    overrides = overrides or {}
    character = selectors.character_with_sheet(character_id=access.character.pk)
    computed = sheet_rules.compute_sheet(character)
    can_build = access.can_write and (character.state == State.DRAFT or access.is_gm)
    current = _try(sheet_rules.current_stats, character) or {}
    stat_rows = [{
        "code": code, "rolled": (character.rolled_stats or {}).get(code),
        "trade": (character.stat_trades or {}).get(code, 0), "value": getattr(character, code.lower()),
        "current": current.get(code), "check": computed.stat_checks.get(code),
        "exact": exact_odds(computed.stat_checks[code]) if code in computed.stat_checks else "",
    } for code in PRIMARY_STATS]
    derived_rows = [{"code": code, "value": value, "breakdown": breakdown, "frozen": frozen}
                    for code, (value, breakdown, frozen) in computed.derived.items()]
    return {
        "character": character, "campaign": character.campaign, "access": access, "sheet": computed,
        "is_gm": access.is_gm, "is_owner": access.is_owner, "can_write": access.can_write, "can_build": can_build,
        "page": page, "stat_rows": stat_rows, "derived_rows": derived_rows, "vitals": _vitals(character, computed),
        "sections": [_section(kind, character, computed, is_gm=access.is_gm, can_edit=can_build, page=page,
                              override=overrides.get(kind)) for kind in SECTIONS],
        "roll_mode": character.campaign.stat_entry == Campaign.StatEntry.ROLL,
        "show_gm_notes": access.is_gm,
        "checklist": _checklist(character, computed),
        "budget_over": -computed.budget.remaining if computed.budget and computed.budget.overspent else 0,
    }


def _page_context(access: CharacterAccess, *, page: str, overrides: dict | None = None) -> dict:
    overrides = overrides or {}
    context = sheet_data(access, page=page, overrides=overrides)
    character = context["character"]
    if page == "build":
        context["stats_form"] = overrides.get("stats_form") or StatsForm(
            character=character, rolled_locked=context["roll_mode"] and not access.is_gm)
        context["stats_error"] = overrides.get("stats_error")
        for row in context["stat_rows"]:
            row["rolled_field"] = context["stats_form"][f"rolled_{row['code']}"]
            row["trade_field"] = context["stats_form"][f"trade_{row['code']}"]
    context["review"] = overrides.get("review") or _review(character)
    if access.is_gm:
        context["notes_form"] = overrides.get("notes_form") or NotesForm(initial={"gm_notes": character.gm_notes})
    return context


def _review(character: Character, *, errors: dict | None = None, **forms) -> dict:
    return {
        "errors": errors or {},
        "return_form": forms.get("return_form") or ReturnForm(),
        "state_form": forms.get("state_form") or StateForm(initial={"state": character.state}),
    }


def _render_page(request, access: CharacterAccess, *, page: str, overrides: dict | None = None, status: int = 200):
    template = "characters/build.html" if page == "build" else "characters/sheet.html"
    context = _page_context(access, page=page, overrides=overrides)
    if page == "sheet":
        context["wound_panel"] = panel_context(context["character"], is_gm=access.is_gm)
        context.update(live_context(context["character"]))
    return render(request, template, context, status=status)


def _page_of(request) -> str:
    return "build" if request.POST.get("next") == "build" else "sheet"


def _page_url(page: str, character_id: int, anchor: str = "") -> str:
    name = "character-build" if page == "build" else "character-sheet"
    return reverse(name, args=[character_id]) + (f"#{anchor}" if anchor else "")


def _is_gm_or_403(access: CharacterAccess) -> None:
    if not access.is_gm:
        raise PermissionDenied("Only the GM may do that.")


def _error_status(exc: Exception) -> int:
    return getattr(exc, "status_code", 400)


def _add_form_error(form, exc, fallback=None) -> None:
    """Put a service's refusal next to the field it names (or at the top of the form)."""
    name = getattr(exc, "field", None)
    form.add_error(name if name in form.fields else fallback, getattr(exc, "message", str(exc)))


# --- Party list and new characters --------------------------------------------------------
def party_characters(*, viewer, campaign: Campaign) -> list[Character]:
    """Return the campaign's characters with ``.vitals`` (HP/SHK/END) for ``_party.html``."""
    characters = list(selectors.character_list(viewer=viewer, campaign_id=campaign.pk))
    for character in characters:
        derived = _try(sheet_rules.derived, character)  # frozen values win once approved
        character.vitals = derived and _wounds(
            character,
            character.hit_points if character.hit_points is not None else derived.hit_points.total,
            character.shock_threshold if character.shock_threshold is not None else derived.shock_threshold.total,
            character.endurance_max if character.endurance_max is not None else derived.endurance.total)
    return characters


@login_required
@require_GET
def party(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    context = {"campaign": access.campaign, "access": access,
               "characters": party_characters(viewer=request.user, campaign=access.campaign)}
    template = "characters/_party.html" if request.htmx else "characters/party.html"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def character_new(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    if access.role not in (Membership.Role.GM, Membership.Role.PLAYER):
        raise PermissionDenied("Viewers do not build characters.")
    campaign = access.campaign
    roll_mode = campaign.stat_entry == Campaign.StatEntry.ROLL
    status = 200
    if request.method == "GET":
        form = NewCharacterForm(rolled_in_app=roll_mode)
    elif request.POST.get("action") == "roll":
        try:
            rolled = services_rolls.stats_roll(campaign=campaign, by=request.user)
        except DomainError as exc:
            form = NewCharacterForm(initial={"name": request.POST.get("name", "")}, rolled_in_app=roll_mode)
            form.roll_error, status = exc.message, _error_status(exc)
        else:
            # Unbound, so the name the player has not typed yet is not flagged as missing.
            form = NewCharacterForm(rolled_in_app=True, initial={
                **rolled.stats, "name": request.POST.get("name", ""), "roll": rolled.log_entry_id,
                "int_plus": rolled.int_dice[0], "int_minus": rolled.int_dice[1]})
            form.rolled = rolled
    else:
        form = NewCharacterForm(request.POST, rolled_in_app=roll_mode)
        if form.is_valid():
            data = form.cleaned_data
            try:
                if roll_mode:
                    character = services_rolls.character_create_from_roll(
                        campaign=campaign, owner=request.user, name=data["name"], roll_id=data["roll"],
                        by=request.user)
                else:
                    character = services.character_create(
                        campaign=campaign, owner=request.user, name=data["name"],
                        stats={c: data[c] for c in PRIMARY_STATS}, int_dice=[data["int_plus"], data["int_minus"]],
                        by=request.user)
            except DomainError as exc:
                _add_form_error(form, exc)
                status = _error_status(exc)
            else:
                messages.success(request, f"{character.name} is a draft. Buy skills, then submit to the GM.")
                return redirect("character-build", character_id=character.pk)
        else:
            status = 400
    if request.htmx and request.POST.get("action") == "roll":
        return render(request, "characters/_new_stats.html", {"form": form, "campaign": campaign}, status=status)
    return render(request, "characters/new.html", {"form": form, "campaign": campaign, "roll_mode": roll_mode},
                  status=status)


# --- The sheet and the builder ------------------------------------------------------------
@login_required
@require_GET
def character_sheet(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id)
    return _render_page(request, access, page="sheet")


@login_required
@require_GET
def character_build(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    if access.character.state != State.DRAFT and not access.is_gm:
        messages.info(request, f"{access.character.name} is {access.character.get_state_display().lower()}: "
                               "the sheet changes through Karma spends or the GM now.")
        return redirect("character-sheet", character_id=character_id)
    return _render_page(request, access, page="build")


def _partial(request, access: CharacterAccess, *, page: str, main: str, also=(), status: int = 200,
             overrides: dict | None = None) -> HttpResponse:
    """Answer an htmx write: the changed section, then the others it moves, budget and problems out of band."""
    context = _page_context(access, page=page, overrides=overrides)
    context.update({"main": main, "also": also})
    return render(request, "characters/_write_response.html", context, status=status)


@login_required
@require_POST
def stats_save(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = access.character
    form = StatsForm(request.POST, character=character,
                     rolled_locked=character.campaign.stat_entry == Campaign.StatEntry.ROLL and not access.is_gm)
    status, error = 400, None
    if form.is_valid():
        try:
            services.character_update(character=character, by=request.user, is_gm=access.is_gm,
                                      data=form.service_data())
        except DomainError as exc:
            status, error = _error_status(exc), {"field": exc.field, "message": exc.message}
            if exc.field == "name":
                form.add_error("name", exc.message)
        else:
            if not request.htmx:
                messages.success(request, "Stats saved.")
                return redirect(_page_url("build", character_id, "sec-stats"))
            return _partial(request, access, page="build", main="stats", also=("skills",))
    overrides = {"stats_form": form, "stats_error": error}
    if request.htmx:
        return _partial(request, access, page="build", main="stats", status=status, overrides=overrides)
    return _render_page(request, access, page="build", overrides=overrides, status=status)


@login_required
@require_POST
def stats_roll(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = access.character
    try:
        services_rolls.stats_roll(campaign=character.campaign, by=request.user, character=character,
                                  is_gm=access.is_gm)
    except DomainError as exc:
        overrides, status = {"stats_error": {"field": "roll", "message": exc.message}}, _error_status(exc)
        if request.htmx:
            return _partial(request, access, page="build", main="stats", status=status, overrides=overrides)
        return _render_page(request, access, page="build", overrides=overrides, status=status)
    if not request.htmx:
        messages.success(request, "Stats rolled; the roll is in the campaign log.")
        return redirect(_page_url("build", character_id, "sec-stats"))
    return _partial(request, access, page="build", main="stats", also=("skills",))


# --- Sheet lines ---------------------------------------------------------------------------
def _line_access(request, character_id: int, kind: str, item_id: int | None = None):
    if kind not in SECTIONS:
        raise Http404("No such kind of line.")
    access = access_character(user=request.user, character_id=character_id, write=True)
    item = None
    if item_id is not None:
        item = items.ITEM_KINDS[kind].model.objects.filter(pk=item_id, character_id=access.character.pk).first()
        if item is None:
            raise Http404("No such line on this sheet.")
        item.character = access.character
    return access, item


def _line_answer(request, access, kind: str, *, override: dict | None = None, status: int = 200):
    page = _page_of(request)
    if override is None and not request.htmx:
        return redirect(_page_url(page, access.character.pk, f"sec-{kind}"))
    overrides = {kind: override} if override else None
    if request.htmx:
        return _partial(request, access, page=page, main=kind, status=status, overrides=overrides)
    return _render_page(request, access, page=page, overrides=overrides, status=status)


@login_required
@require_POST
def line_add(request, character_id: int, kind: str):
    access, _ = _line_access(request, character_id, kind)
    form = line_form(kind, request.POST)
    status = 400
    if form.is_valid():
        try:
            items.item_create(character=access.character, kind_name=kind, data=form.cleaned_data,
                              by=request.user, is_gm=access.is_gm)
        except DomainError as exc:
            _add_form_error(form, exc)
            status = _error_status(exc)
        else:
            return _line_answer(request, access, kind)
    return _line_answer(request, access, kind, override={"add_form": form}, status=status)


@login_required
@require_POST
def line_update(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    form = line_form(kind, request.POST, prefix_id=item.pk)
    status = 400
    if form.is_valid():
        try:
            items.item_update(item=item, kind_name=kind, data=form.cleaned_data, by=request.user, is_gm=access.is_gm)
        except DomainError as exc:
            _add_form_error(form, exc)
            status = _error_status(exc)
        else:
            return _line_answer(request, access, kind)
    return _line_answer(request, access, kind, override={"item_id": item.pk, "edit_form": form}, status=status)


@login_required
@require_POST
def line_delete(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    try:
        items.item_delete(item=item, kind_name=kind, by=request.user, is_gm=access.is_gm)
    except DomainError as exc:
        return _line_answer(request, access, kind, override={"item_id": item.pk, "errors": [exc.message]},
                            status=_error_status(exc))
    return _line_answer(request, access, kind)


@login_required
@require_POST
def line_classify(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    _is_gm_or_403(access)
    if kind == "languages":
        raise Http404("Languages are not classified.")
    form = ClassifyForm(request.POST, kind=kind, prefix=f"classify-{kind}-{item.pk}")
    errors, status = [], 400
    if form.is_valid():
        try:
            items.item_update(item=item, kind_name=kind, data=form.service_data(), by=request.user, is_gm=True)
        except DomainError as exc:
            errors, status = [exc.message], _error_status(exc)
        else:
            return _line_answer(request, access, kind)
    else:
        errors = [e for errs in form.errors.values() for e in errs]
    return _line_answer(request, access, kind, override={"item_id": item.pk, "classify_form": form,
                                                         "errors": errors}, status=status)


# --- The GM flow and the player's submission -----------------------------------------------
def _lifecycle_refused(request, access, *, action: str, exc, status: int, **forms):
    page = _page_of(request)
    review = _review(access.character, errors={action: exc.message if hasattr(exc, "message") else exc},
                     **forms)
    if request.htmx:
        context = _page_context(access, page=page, overrides={"review": review})
        return render(request, "characters/_review.html", context, status=status)
    return _render_page(request, access, page=page, overrides={"review": review}, status=status)


def _lifecycle_done(request, character_id: int, message: str, page: str = "sheet"):
    messages.success(request, message)
    url = _page_url(page, character_id)
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def character_submit(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    try:
        character = lifecycle.character_submit(character=access.character, by=request.user)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action="submit", exc=exc, status=_error_status(exc))
    return _lifecycle_done(request, character_id, f"{character.name} is with the GM for approval.")


@login_required
@require_POST
def character_approve(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    _is_gm_or_403(access)
    try:
        character = lifecycle.character_approve(character=access.character, by=request.user)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action="approve", exc=exc, status=_error_status(exc))
    return _lifecycle_done(request, character_id, f"{character.name} is approved and in play.")


def _gm_form_action(request, character_id: int, *, action: str, form_class, invalid: str, act, done):
    """Run a GM lifecycle action that takes a form: validate, act, then land or show why not."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    _is_gm_or_403(access)
    form = form_class(request.POST)
    form_key = f"{action}_form"
    if not form.is_valid():
        return _lifecycle_refused(request, access, action=action, exc=invalid, status=400, **{form_key: form})
    try:
        character = act(access.character, form.cleaned_data)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action=action, exc=exc, status=_error_status(exc),
                                  **{form_key: form})
    return _lifecycle_done(request, character_id, done(character))


@login_required
@require_POST
def character_return(request, character_id: int):
    return _gm_form_action(
        request, character_id, action="return", form_class=ReturnForm, invalid="Say what the player should change.",
        act=lambda character, data: lifecycle.character_return(character=character, by=request.user,
                                                               comment=data["comment"]),
        done=lambda character: f"{character.name} went back to its player with your comment.")


@login_required
@require_POST
def character_state(request, character_id: int):
    return _gm_form_action(
        request, character_id, action="state", form_class=StateForm, invalid="Pick active, dead or retired.",
        act=lambda character, data: lifecycle.character_set_state(character=character, state=data["state"],
                                                                  by=request.user),
        done=lambda character: f"{character.name} is now {character.get_state_display().lower()}.")


@login_required
@require_POST
def character_notes(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    _is_gm_or_403(access)
    form = NotesForm(request.POST)
    status, saved = 400, False
    if form.is_valid():
        try:
            services.character_update(character=access.character, by=request.user, is_gm=True,
                                      data={"gm_notes": form.cleaned_data["gm_notes"]})
        except DomainError as exc:
            _add_form_error(form, exc, fallback="gm_notes")
            status = _error_status(exc)
        else:
            if not request.htmx:
                messages.success(request, "GM notes saved.")
                return redirect(_page_url(_page_of(request), character_id, "gm-notes"))
            status, saved = 200, True
    if request.htmx:
        return render(request, "characters/_gm_notes.html",
                      {"character": access.character, "notes_form": form, "saved": saved, "page": _page_of(request)},
                      status=status)
    return _render_page(request, access, page=_page_of(request), overrides={"notes_form": form}, status=status)


def _history_page(request, access: CharacterAccess, *, error: str = "", status: int = 200):
    return render(request, "characters/history.html",
                  {"character": access.character, "access": access, "rows": lifecycle.history(access.character),
                   "is_gm": access.is_gm, "error": error}, status=status)


@login_required
@require_GET
def character_history(request, character_id: int):
    return _history_page(request, access_character(user=request.user, character_id=character_id))


@login_required
@require_POST
def character_revert(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    _is_gm_or_403(access)
    form = RevertForm(request.POST)
    try:
        if not form.is_valid():
            raise CharacterError("Pick a point in the sheet's history.", field="history_id")
        lifecycle.character_revert(character=access.character, by=request.user, **form.service_data())
    except DomainError as exc:
        return _history_page(request, access, error=exc.message, status=_error_status(exc))
    messages.success(request, f"{access.character.name} is back as it was at that point. Karma was not touched.")
    return redirect("character-sheet", character_id=character_id)


# --- The printable sheet ----------------------------------------------------------------------
def _pdf_response(access: CharacterAccess) -> HttpResponse:
    data = sheet_data(access, page="print")
    try:
        body = pdf.sheet_pdf(data)
    except pdf.PdfUnavailable as exc:
        return HttpResponse(str(exc), status=503, content_type="text/plain; charset=utf-8")
    response = HttpResponse(body, content_type="application/pdf")
    slug = "".join(ch if ch.isalnum() else "-" for ch in data["character"].name).strip("-") or "character"
    response["Content-Disposition"] = f'inline; filename="{slug}-sheet.pdf"'
    return response


@login_required
@require_GET
def character_pdf(request, character_id: int):
    return _pdf_response(access_character(user=request.user, character_id=character_id))


class PdfRenderer(BaseRenderer):
    """Let API clients ask for application/pdf; errors still go out as JSON."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else JSONRenderer().render(data)


class CharacterSheetPdfApi(APIView):
    """GET /api/v1/characters/{id}/sheet.pdf: the printable sheet (token or session auth)."""

    renderer_classes = [JSONRenderer, PdfRenderer]

    def finalize_response(self, request, response, *args, **kwargs):
        # An error is JSON whatever the client asked for: never a JSON body labelled PDF.
        if response.status_code >= 400 and getattr(request, "accepted_renderer", None) is not None:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(operation_id="characters_sheet_pdf", responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request, character_id: int):
        return _pdf_response(access_character(user=request.user, character_id=character_id))

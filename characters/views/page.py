"""What the sheet, the builder and the printable sheet show: the page data, in a fixed
number of queries, and the small helpers every character page shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaign.models import Campaign
from rulebook import RulesError
from rulebook.budget import FATE_NOTES, adventure_cost
from rulebook.equipment import weapon_cost
from rulebook.karma import disadvantage_check_modifier, disadvantage_points
from rulebook.languages import ASPECTS, effective_ranks, language_check_modifier
from rulebook.situation import carrying_capacity_kg
from rulebook.skills import SKILL_STANDARDS, skill_cost
from rulebook.stats import PRIMARY_STATS

from .. import selectors, services
from .. import sheet as sheet_rules
from ..forms import (
    CLASSIFY_CHOICES,
    ClassifyForm,
    NotesForm,
    ReturnForm,
    StateForm,
    StatsForm,
    line_form,
)
from ..items import ADVANCEMENT_KINDS
from ..models import Breadth, Character
from ..permissions import CharacterAccess
from .wounds import live_context, panel_context, wound_bars

State = Character.State
SECTIONS = {  # kind → (title, one line)
    "skills": (gettext_lazy("Skills"), gettext_lazy("skill")),
    "disadvantages": (gettext_lazy("Disadvantages"), gettext_lazy("disadvantage")),
    "equipment": (gettext_lazy("Equipment"), gettext_lazy("equipment")),
    "weapons": (gettext_lazy("Weapons"), gettext_lazy("weapon")),
    "armour": (gettext_lazy("Armour"), gettext_lazy("armour")),
    "languages": (gettext_lazy("Languages"), gettext_lazy("language")),
}
BREADTH_LABELS = dict(Breadth.choices)
VALUE_LABELS = {1: gettext_lazy("Specific (1)"), 2: gettext_lazy("Narrow (2)"), 4: gettext_lazy("Broad (4)")}
#: A language's aspects as the line's facts label them.
ASPECT_LABELS = {"spoken": gettext_lazy("Spoken"), "heard": gettext_lazy("Heard"), "written": gettext_lazy("Written"),
                 "read": gettext_lazy("Read")}


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
    can_edit: bool = False
    edit_form: object = None  # built only for the line open for editing
    classify_form: object = None
    errors: list[str] = field(default_factory=list)
    open: bool = False
    roll_line: str = ""  # what its Roll form names it by ("skill:12"); empty: no Roll here
    roll_aspects: list = field(default_factory=list)  # a language's (aspect, line) pairs: a LAN roll each
    url: str = ""  # its address: + "edit/", "delete/", "classify/" (``line_address``)


def line_address(character_id: int, kind: str) -> str:
    """A section's address; a line's is this + its id + ``/``, and its actions that + ``edit/``,
    ``delete/``, ``classify/`` (characters/urls.py). Reversed once per section and extended per
    line: a sheet of fifty lines would otherwise reverse some two hundred addresses each render."""
    return reverse("character-line-add", args=[character_id, kind])


def try_rules(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except RulesError:
        return None


def exact_odds(check) -> str:
    """Spell a check's chance out exactly: how many of the equally likely rolls succeed."""
    return _("%(successes)s of %(rolls)s rolls of %(dice)sd6 succeed") % {
        "successes": number_format(check.successes, force_grouping=True),
        "rolls": number_format(6 ** check.rolled_dice, force_grouping=True), "dice": check.rolled_dice}


def _with_fate(item, facts: list, cost: int | None) -> tuple[list, int | None]:
    """What the adventure did to a piece of equipment, and the cost that leaves on the sheet."""
    if not item.fate or cost is None:
        return facts, cost
    return [*facts, (_("After the adventure"), _(FATE_NOTES[item.fate]))], adventure_cost(cost, item.fate)


def _facts(kind: str, item, character: Character, computed) -> tuple[list, int | None]:
    """Return the (label, value) pairs a line shows and its cost in skill points."""
    cap = character.campaign.max_skill_ranks
    if kind == "skills":
        cost = try_rules(skill_cost, item.breadth, item.ranks, max_ranks=cap)
        # "Skill Standards": what the ranks make the character at the table (and as an assistant).
        standard = SKILL_STANDARDS[min(max(item.ranks, 0), 3)]
        said = _(standard)
        said = said.lower() if said == standard else said  # English in running text; German keeps its nouns
        facts = [(_("Breadth"), BREADTH_LABELS.get(item.breadth, item.breadth)),
                 (_("Ranks"), f"{item.ranks} ({said})"),
                 (_("Stat"), item.stat)]
        if item.weapon_category:
            facts.append((_("Weapons"), item.weapon_category))
        return facts, cost
    if kind == "disadvantages":
        points = try_rules(disadvantage_points, item.value, item.ranks)
        facts = [(_("Breadth"), VALUE_LABELS.get(item.value, item.value)), (_("Ranks"), item.ranks),
                 (_("Checks"), f"{disadvantage_check_modifier(item.ranks):+d}"), (_("Points"), points)]
        if item.affects:
            facts.append((_("Affects"), item.affects))
        return facts, None
    if kind == "equipment":
        facts = [(_("Breadth"), BREADTH_LABELS.get(item.breadth, item.breadth)), (_("Ranks"), item.ranks)]
        if item.notes:
            facts.append((_("Notes"), item.notes))
        return _with_fate(item, facts, try_rules(skill_cost, item.breadth, item.ranks, max_ranks=cap))
    if kind == "weapons":
        priced = try_rules(weapon_cost, item.damage_points, item.rate_of_fire, item.extra_damage,
                      item.range_reduction_steps, item.skilled, melee=item.melee, reach_steps=item.reach_steps)
        facts = [(_("Damage"), priced.damage_description if priced else "—")]
        if item.melee:
            facts.append((_("Melee"), ngettext("reach %(n)s step", "reach %(n)s steps", item.reach_steps)
                          % {"n": item.reach_steps}))
        elif priced:
            facts.append((_("Range index"), _("%(index)s (base %(base)s)") % {
                "index": priced.effective_range_index, "base": priced.base_range_index}
                if item.range_reduction_steps else f"{priced.effective_range_index}"))
        skill = next((s for s in character.skills.all() if s.pk == item.skill_id), None)
        facts.append((_("Skill"), f"{skill.name} ({skill.ranks})" if skill else _("none: unproficient")))
        if not item.melee:
            facts.append((_("Aiming"), item.get_aiming_display()))
        if item.skilled or skill is not None:  # the tick, or the linked skill: both halve the cost
            facts.append((_("Skilled"), _("cost halved")))
        return _with_fate(item, facts, computed.weapon_costs.get(item.pk))
    if kind == "armour":
        view = computed.armour.get(item.pk)
        effects = ", ".join(f"{k} {v:+d}" for k, v in view.effects.items() if v) if view else ""
        facts = [(_("Hardness × cover"), f"{item.hardness} × {item.coverage}/4"),
                 (_("Rating"), view.rating if view else "—"), (_("Stat effects"), effects or _("none"))]
        if item.tech_shift:
            facts.append((_("Tech"), f"{item.tech_shift:+d}"))
        facts.append((_("Worn"), _("yes") if item.worn else _("no")))
        return _with_fate(item, facts, view.cost if view else None)
    # Each aspect with the target modifier a language roll at that rank takes (0 → −15 … 3 → ±0),
    # after the era distance the GM set: ranks as bought → ranks in this era.
    held = {aspect: getattr(item, aspect) for aspect in ASPECTS}
    here = held
    if item.era_steps and item.era_step_loss:
        here = try_rules(lambda: effective_ranks(held, [str(item.era_step_loss)] * item.era_steps).ranks) or held
    facts = [(ASPECT_LABELS.get(aspect, aspect.capitalize()), (f"{held[aspect]} → {here[aspect]}" if here[aspect] != held[aspect]
                                    else f"{held[aspect]}") + f" ({language_check_modifier(here[aspect]):+d})")
             for aspect in ASPECTS]
    if item.era_steps:
        facts.append((_("Era distance"), ngettext("%(n)s step × %(loss)s", "%(n)s steps × %(loss)s", item.era_steps)
                      % {"n": item.era_steps, "loss": f"{item.era_step_loss:g}"}))
    if computed.languages is not None and item.pk in computed.languages.costs:
        facts.append((_("Language points"), computed.languages.costs[item.pk]))
    immersion = try_rules(sheet_rules.immersion_view, item)
    if immersion is not None:
        facts.append((_("Immersion"), _("%(progress)s; era gap %(gap)s") % {"progress": immersion.text(),
                                                                              "gap": immersion.era_gap}
                      if immersion.era_gap else immersion.text()))
    if item.native:
        facts.insert(0, (_("Native"), _("yes")))
    if item.era:
        facts.insert(0, (_("Era"), item.era))
    return facts, None


#: What the Roll form names a line of each kind by ("skill:12"): see characters.sheet.line_check.
ROLL_KINDS = {"skills": "skill", "weapons": "weapon"}


def _section(kind: str, character: Character, computed, *, is_gm: bool, can_edit: bool, page: str,
             override: dict | None = None, can_roll: bool = False) -> dict:
    """Build one section; ``override`` carries bound forms and errors from a refused write."""
    override = override or {}
    lines = []
    section_url = line_address(character.pk, kind)
    for item in getattr(character, kind).all():
        facts, cost = _facts(kind, item, character, computed)
        check = {"skills": computed.skill_checks, "weapons": computed.weapon_checks}.get(kind, {}).get(item.pk)
        line = Line(item=item, facts=facts, cost=cost, check=check, exact=exact_odds(check) if check else "",
                    pending=kind != "languages" and not item.classified,
                    roll_line=f"{ROLL_KINDS[kind]}:{item.pk}" if can_roll and check and kind in ROLL_KINDS else "",
                    roll_aspects=[(a, f"language:{item.pk}:{a}") for a in ASPECTS]
                    if can_roll and kind == "languages" else [], url=f"{section_url}{item.pk}/")
        if can_edit:
            line.can_edit = True
            # Edit forms are built only for the line being edited: a sheet of 30 skills would
            # otherwise render some 200 form fields nobody opened. The rest load on demand.
            if override.get("open_id") == item.pk:
                line.edit_form, line.open = line_form(kind, instance=item, prefix_id=item.pk, character=character), True
            if is_gm and line.pending:
                name = CLASSIFY_CHOICES.get(kind, (None,))[0]
                prefix = f"classify-{kind}-{item.pk}"
                # A choice made on this line but not saved yet survives another line's save.
                chosen = (override.get("choices") or {}).get(f"{prefix}-{name}")
                line.classify_form = ClassifyForm(kind=kind, prefix=prefix,
                                                  initial={name: chosen or getattr(item, name)} if name else None)
        if override.get("item_id") == item.pk:
            line.errors, line.open = override.get("errors", []), True
            line.edit_form = override.get("edit_form") or line.edit_form or (
                line_form(kind, instance=item, prefix_id=item.pk, character=character) if can_edit else None)
            line.classify_form = override.get("classify_form") or line.classify_form
        lines.append(line)
    title, singular = SECTIONS[kind]
    return {
        "kind": kind, "title": title, "singular": singular, "lines": lines, "character": character,
        "url": section_url, "roll_url": reverse("sheet-roll-form", args=[character.pk]) if can_roll else "",
        "to_classify": sum(1 for line in lines if line.classify_form is not None),
        "can_edit": can_edit, "is_gm": is_gm, "page": page, "can_roll": can_roll,
        "language_points": computed.languages if kind == "languages" else None,
        "capacity": _capacity(character) if kind == "equipment" else None,
        # Built only when asked for (``?add=``) or refused with its values: the rest load on demand.
        "add_form": override.get("add_form") or (
            line_form(kind, character=character) if can_edit and override.get("add_requested") else None),
    }


def _capacity(character: Character) -> dict:
    """What the character carries at no cost: STR read as a weight-table row ("Loads")."""
    strength = sheet_rules.current_stats(character)["STR"]
    return {"str": strength, "kg": f"{float(carrying_capacity_kg(strength)):g}"}


def _vitals(character: Character, computed) -> dict | None:
    if not computed.derived:
        return None
    return wound_bars(character, *(computed.derived[code][0] for code in ("HP", "SHK", "END")),
                      game_hours=character.campaign.game_hours)


def _checklist(character: Character, computed) -> list[tuple[bool, str]]:
    """Return what the review shows as done or to do before submission and approval."""
    rows = [(bool(character.skills.all()), _("A profession: the first skill on the sheet"))]
    budget = computed.budget
    if budget is not None:
        rows.append((not budget.overspent, _("Skill points: %(spent)s spent of %(available)s")
                     % {"spent": budget.spent, "available": budget.available}))
        pending = budget.pending
        rows.append((not pending, ngettext("%(n)s line awaiting the GM's classification",
                                           "%(n)s lines awaiting the GM's classification", pending) % {"n": pending}
                     if pending else _("Every line classified by the GM")))
    return rows


def sheet_data(access: CharacterAccess, *, page: str = "sheet", overrides: dict | None = None) -> dict:
    """Everything the sheet, the builder and the printable sheet show, in a fixed number of queries."""
    overrides = overrides or {}
    character = selectors.character_with_sheet(character_id=access.character.pk)
    if overrides.get("generation"):  # the builder's preview: unsaved trades, through the same rules
        services.apply_generation(character, overrides["generation"])
    computed = sheet_rules.compute_sheet(character)
    can_build = access.can_write and (character.state == State.DRAFT or access.is_gm)
    # An active character's player advances it: new skills and raised ranks, paid with earned points.
    advancing = access.is_owner and not access.is_gm and character.state == State.ACTIVE
    # Its player and the GM roll its checks from the sheet; the builder is for building.
    can_roll = access.can_write and page == "sheet"
    current = try_rules(sheet_rules.current_stats, character) or {}
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
        "sections": [_section(kind, character, computed, is_gm=access.is_gm,
                              can_edit=can_build or (advancing and kind in ADVANCEMENT_KINDS), page=page,
                              override=overrides.get(kind), can_roll=can_roll) for kind in SECTIONS],
        "can_roll": can_roll,
        "advancing": advancing,
        "roll_mode": character.campaign.stat_entry == Campaign.StatEntry.ROLL,
        "show_gm_notes": access.is_gm,
        "checklist": _checklist(character, computed),
        "budget_over": -computed.budget.remaining if computed.budget and computed.budget.overspent else 0,
    }


def page_context(access: CharacterAccess, *, page: str, overrides: dict | None = None) -> dict:
    overrides = overrides or {}
    context = sheet_data(access, page=page, overrides=overrides)
    character = context["character"]
    if page == "build":
        context["stats_form"] = overrides.get("stats_form") or StatsForm(
            character=character, rolled_locked=context["roll_mode"] and not access.is_gm)
        context["stats_error"] = overrides.get("stats_error")
        context["stats_preview"] = overrides.get("stats_preview", False)
        for row in context["stat_rows"]:
            row["rolled_field"] = context["stats_form"][f"rolled_{row['code']}"]
            row["trade_field"] = context["stats_form"][f"trade_{row['code']}"]
    context["review"] = overrides.get("review") or review_forms(character)
    if access.is_gm:
        context["notes_form"] = overrides.get("notes_form") or NotesForm(initial={"gm_notes": character.gm_notes})
    return context


def review_forms(character: Character, *, errors: dict | None = None, **forms) -> dict:
    return {
        "errors": errors or {},
        "return_form": forms.get("return_form") or ReturnForm(),
        "state_form": forms.get("state_form") or StateForm(initial={"state": character.state}),
    }


def open_line(request) -> dict:
    """Read ``?edit=skills-12`` and ``?add=skills``: the form the page opens (the links behind
    "Edit" and "+ Add" where forms do not load on demand)."""
    opened: dict = {}
    kind, _, item_id = request.GET.get("edit", "").partition("-")
    if kind in SECTIONS and item_id.isdigit():
        opened[kind] = {"open_id": int(item_id)}
    kind = request.GET.get("add", "")
    if kind in SECTIONS:
        opened.setdefault(kind, {})["add_requested"] = True
    return opened


def render_page(request, access: CharacterAccess, *, page: str, overrides: dict | None = None, status: int = 200):
    template = "characters/build.html" if page == "build" else "characters/sheet.html"
    if overrides is None and request.method == "GET":
        overrides = open_line(request)
    context = page_context(access, page=page, overrides=overrides)
    if page == "sheet":
        context["wound_panel"] = panel_context(context["character"], is_gm=access.is_gm)
        context.update(live_context(context["character"]))
    return render(request, template, context, status=status)


def page_of(request) -> str:
    return "build" if request.POST.get("next") == "build" else "sheet"


def page_url(page: str, character_id: int, anchor: str = "") -> str:
    name = "character-build" if page == "build" else "character-sheet"
    return reverse(name, args=[character_id]) + (f"#{anchor}" if anchor else "")


def require_gm(access: CharacterAccess) -> None:
    if not access.is_gm:
        raise PermissionDenied(_("Only the GM may do that."))


def error_status(exc: Exception) -> int:
    return getattr(exc, "status_code", 400)


def add_form_error(form, exc, fallback=None) -> None:
    """Put a service's refusal next to the field it names (or at the top of the form)."""
    name = getattr(exc, "field", None)
    form.add_error(name if name in form.fields else fallback, getattr(exc, "message", str(exc)))

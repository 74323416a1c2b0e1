"""Writes to the lines of a sheet: skills, disadvantages, equipment, weapons, armour, languages.

One set of services serves all six kinds; each kind names its model, the fields that are the
GM's classification, and the rule checks its values must pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaign.changes import change_set
from rulebook.equipment import armour_cost, weapon_cost
from rulebook.karma import max_disadvantage_ranks
from rulebook.languages import ASPECTS, aspect_distance
from rulebook.skills import skill_cost
from rulebook.tables import AIMING_CAPS_SECONDS
from rulebook.words import said

from . import selectors
from . import sheet as sheet_rules
from .errors import CharacterConflict, CharacterError
from .models import Armour, Character, Disadvantage, Equipment, Language, Skill, Weapon
from .services import _locked, _rules
from .weapons import WEAPON_BREADTHS, aiming_class_for, covering_skill

State = Character.State


def _check_skill(character: Character, values: dict, instance) -> None:
    cap = character.campaign.max_skill_ranks
    if values["ranks"] > cap:
        raise CharacterError(_("Ranks are capped at %(cap)s in this campaign.") % {"cap": cap}, field="ranks")
    _rules(skill_cost, values["breadth"], values["ranks"], max_ranks=cap, field="breadth")


def _check_equipment(character: Character, values: dict, instance) -> None:
    _check_skill(character, values, instance)


def _check_disadvantage(character: Character, values: dict, instance) -> None:
    current, start = sheet_rules.karma_for_limits(character)
    limit = max_disadvantage_ranks(start)
    if values["ranks"] > limit:
        raise CharacterError(
            _("A disadvantage may have at most %(limit)s ranks (starting Karma %(start)s ÷ 3, rounded up).")
            % {"limit": limit, "start": start}, field="ranks")
    if instance is None and character.disadvantages.count() + 1 > current:
        raise CharacterError(
            _("Only as many disadvantages as the character's Karma (%(karma)s) can earn points; raise an existing "
              "one instead.") % {"karma": current}, field="name")


def _check_weapon(character: Character, values: dict, instance) -> None:
    if values["aiming"] not in AIMING_CAPS_SECONDS:
        raise CharacterError(_("Pick an aiming class: %(classes)s.") % {"classes": ", ".join(AIMING_CAPS_SECONDS)},
                             field="aiming")
    _rules(weapon_cost, values["damage_points"], values["rate_of_fire"], values["extra_damage"],
           values["range_reduction_steps"], values["skilled"], melee=values["melee"],
           reach_steps=values["reach_steps"], field="damage_points")


def _weapon_skill(character: Character, data: Mapping, instance) -> dict:
    """Name the weapon's skill by one of the character's weapon skills (an id, a skill, or none);
    a new weapon that names none gets the weapon skill its name matches, and an aiming class
    from its name, when the client leaves them out."""
    data = dict(data)
    if "skill" in data:
        chosen = data["skill"]
        chosen = chosen.pk if isinstance(chosen, Skill) else chosen
        if chosen in (None, ""):
            data["skill"] = None
        else:
            found = (Skill.objects.filter(character=character, pk=chosen, breadth__in=WEAPON_BREADTHS).first()
                     if isinstance(chosen, int) and not isinstance(chosen, bool) else None)
            if found is None:
                raise CharacterError(_("Pick one of %(name)s's weapon skills, or none.") % {"name": character.name},
                                     field="skill")
            data["skill"] = found
    elif instance is None:
        data["skill"] = covering_skill(str(data.get("name", "")), character.skills.all())
    if instance is None and "aiming" not in data:
        data["aiming"] = aiming_class_for(str(data.get("name", "")))
    return data


def _check_armour(character: Character, values: dict, instance) -> None:
    _rules(armour_cost, values["hardness"], values["coverage"], values["nim_penalty"], values["skilled"],
           field="hardness")


def _check_language(character: Character, values: dict, instance) -> None:
    """Ranks 0–3, and the pairs the rules make: an aspect's partner (spoken–heard,
    written–read) at most one rank below it, the other pair at most two (RULINGS 7)."""
    for aspect in ASPECTS:
        if not 0 <= values[aspect] <= 3:
            raise CharacterError(_("Language ranks run from 0 to 3."), field=aspect)
    for best in ASPECTS:
        for other in ASPECTS:
            floor = values[best] - aspect_distance(best, other)
            if values[other] < floor:
                raise CharacterError(
                    _("With %(best)s at %(rank)s, %(other)s must be at least %(floor)s: a language's pair partner "
                      "(spoken–heard, written–read) is at most one rank lower and the other pair at most two.")
                    % {"best": ASPECT_WORDS.get(best, best), "rank": values[best],
                       "other": ASPECT_WORDS.get(other, other), "floor": floor}, field=other)


@dataclass(frozen=True)
class ItemKind:
    model: type
    label: str
    # Fields whose value is the GM's call: a GM edit classifies, a player's edit asks again.
    classification: tuple[str, ...]
    check: Callable[[Character, dict, object], None]
    needs_classification: bool = True
    #: Turns what a client sent into field values (a line it names by id becomes the line).
    prepare: Callable[[Character, Mapping, object], dict] | None = None


#: Each kind of line as a sentence names one, in the reader's language (``ItemKind.label`` is a code).
KIND_WORDS = {
    "skills": gettext_lazy("skill"), "disadvantages": gettext_lazy("disadvantage"),
    "equipment": gettext_lazy("equipment"), "weapons": gettext_lazy("weapon"), "armour": gettext_lazy("armour"),
    "languages": gettext_lazy("language"),
}
#: Each kind of line as a log line names it (in English ``ItemKind.label``).
KIND_SAID = {
    "skills": said("skill"), "disadvantages": said("disadvantage"), "equipment": said("equipment"),
    "weapons": said("weapon"), "armour": said("armour"), "languages": said("language"),
}
#: "Give the … a name", for each kind.
_NAME_MISSING = {
    "skills": gettext_lazy("Give the skill a name."), "disadvantages": gettext_lazy("Give the disadvantage a name."),
    "equipment": gettext_lazy("Give the equipment a name."), "weapons": gettext_lazy("Give the weapon a name."),
    "armour": gettext_lazy("Give the armour a name."), "languages": gettext_lazy("Give the language a name."),
}
#: A language's aspects, as a sentence names them.
ASPECT_WORDS = sheet_rules.ASPECT_WORDS

ITEM_KINDS: dict[str, ItemKind] = {
    "skills": ItemKind(Skill, "skill", ("breadth",), _check_skill),
    "disadvantages": ItemKind(Disadvantage, "disadvantage", ("value",), _check_disadvantage),
    "equipment": ItemKind(Equipment, "equipment", ("breadth",), _check_equipment),
    # "skilled" and the weapon skill it is linked to halve the price: whether that skill is an
    # appropriate one is the GM's judgement, so changing either asks the GM again like any
    # other price term.
    "weapons": ItemKind(Weapon, "weapon", ("damage_points", "rate_of_fire", "extra_damage",
                                           "range_reduction_steps", "melee", "reach_steps", "skilled", "skill"),
                        _check_weapon,
                         prepare=_weapon_skill),
    "armour": ItemKind(Armour, "armour", ("hardness", "coverage", "nim_penalty", "tech_shift", "skilled"),
                       _check_armour),
    "languages": ItemKind(Language, "language", (), _check_language, needs_classification=False),
}
#: Fields only the GM sets, whatever the state of the sheet: era distance is the GM's ruling, and
#: so is what an adventure did to equipment (used up, or found and left behind), since it moves points.
GM_FIELDS = {"languages": ("era_steps", "era_step_loss"), "equipment": ("fate",), "weapons": ("fate",),
             "armour": ("fate",)}
_GM_FIELD_REASONS = {"fate": gettext_lazy("Whether equipment was used up or found in an adventure is the GM's ruling."),
                     "era_steps": gettext_lazy("Era distance is the GM's ruling."),
                     "era_step_loss": gettext_lazy("Era distance is the GM's ruling.")}


def _refuse_gm_fields(kind_name: str, data: Mapping, instance, *, is_gm: bool) -> None:
    if is_gm:
        return
    for name in GM_FIELDS.get(kind_name, ()):
        if name in data and (instance is None and data[name] not in (0, None, "0", "")
                             or instance is not None and data[name] != getattr(instance, name)):
            raise PermissionDenied(str(_GM_FIELD_REASONS[name]))


def _editable_fields(kind: ItemKind) -> list[str]:
    skip = {"id", "character", "position", "classified"}
    return [f.name for f in kind.model._meta.concrete_fields if f.name not in skip]


#: What a player may add or raise on an approved sheet, paying with earned skill points.
ADVANCEMENT_KINDS = ("skills", "languages")
#: The fields an advancement may raise (never lower: points are not refunded).
ADVANCEMENT_FIELDS = {"skills": ("ranks",), "languages": ("spoken", "heard", "written", "read")}


def _require_build_rights(character: Character, *, is_gm: bool, kind_name: str | None = None) -> bool:
    """Refuse a player's change to a sheet past the draft; return True for an advancement.

    An active character's player may add skills and raise skill or language ranks with skill
    points earned since approval (Karma converted); anything else is a GM edit.
    """
    if is_gm or character.state == State.DRAFT:
        return False
    if character.state == State.ACTIVE and kind_name in ADVANCEMENT_KINDS:
        return True
    if character.state == State.ACTIVE:
        raise CharacterConflict(_("%(name)s is active: its player adds skills and raises skill or language ranks "
                                  "with earned skill points; other changes are the GM's.") % {"name": character.name})
    raise CharacterConflict(_("%(name)s is %(state)s: the sheet changes only through the GM now.")
                            % {"name": character.name, "state": character.state_word()})


def _within_earned_points(character: Character, *, field: str) -> None:
    """Refuse an advancement the earned skill points do not cover, naming the shortfall."""
    loaded = selectors.character_with_sheet(character_id=character.pk)
    budget = sheet_rules.budget(loaded)
    if budget.overspent:
        raise CharacterError(
            ngettext("That needs %(n)s more skill point than %(name)s has earned. Convert Karma on the Karma page "
                     "(1 Karma = 2 skill points) first.",
                     "That needs %(n)s more skill points than %(name)s has earned. Convert Karma on the Karma page "
                     "(1 Karma = 2 skill points) first.", -budget.remaining)
            % {"n": -budget.remaining, "name": character.name}, field=field)


def _classified_after(kind: ItemKind, *, instance, values: Mapping, is_gm: bool, requested) -> bool:
    if not kind.needs_classification:
        return True
    if is_gm:
        # A GM's edit is a classification unless they explicitly mark it pending again.
        return True if requested is None else bool(requested)
    if instance is None:
        return False
    touched = any(getattr(instance, f) != values[f] for f in kind.classification)
    return instance.classified and not touched


@transaction.atomic
def item_create(*, character: Character, kind_name: str, data: Mapping, by, is_gm: bool):
    """Add a line to a sheet after the rules accept it."""
    change_set(campaign=character.campaign_id, by=by)
    kind = ITEM_KINDS[kind_name]
    character = _locked(character)
    advancing = _require_build_rights(character, is_gm=is_gm, kind_name=kind_name)
    if kind.prepare is not None:
        data = kind.prepare(character, data, None)
    if "classified" in data and not is_gm:
        raise PermissionDenied(_("Only the GM classifies."))
    _refuse_gm_fields(kind_name, data, None, is_gm=is_gm)
    fields = _editable_fields(kind)
    instance = kind.model(character=character, **{k: v for k, v in data.items() if k in fields})
    values = {f: getattr(instance, f) for f in fields}
    if not str(values.get("name", "")).strip():
        raise CharacterError(str(_NAME_MISSING[kind_name]), field="name")
    kind.check(character, values, None)
    top = kind.model.objects.filter(character=character).aggregate(top=Max("position"))["top"]
    instance.position = 0 if top is None else top + 1
    instance.classified = _classified_after(kind, instance=None, values=values, is_gm=is_gm,
                                            requested=data.get("classified"))
    instance.save()
    if advancing:
        _within_earned_points(character, field="name")
    change_set(campaign=character.campaign, by=by).audit(
        f"{kind.label}.create", said("%(by)s added the %(kind)s %(line)s to %(name)s", by=str(by),
                                     kind=KIND_SAID[kind_name], line=instance.name, name=character.name),
        data={"character": character.pk, "id": instance.pk})
    return instance



@transaction.atomic
def lines_classify(*, character, kind_name: str, rulings: Mapping[int, Mapping], by) -> list:
    """Classify several lines of one kind at once (GM): ``{line id: classification fields}``.
    All or nothing: a line that cannot be classified leaves every line as it was."""
    model = ITEM_KINDS[kind_name].model
    lines = {line.pk: line for line in model.objects.filter(character_id=character.pk, pk__in=list(rulings))}
    done = []
    for line_id, data in rulings.items():
        line = lines[line_id]
        line.character = character
        done.append(item_update(item=line, kind_name=kind_name, data={**data, "classified": True}, by=by, is_gm=True))
    return done

@transaction.atomic
def item_update(*, item, kind_name: str, data: Mapping, by, is_gm: bool):
    """Change a line of a sheet; a GM's change to its classification fields classifies it."""
    change_set(campaign=item.character.campaign_id, by=by)
    kind = ITEM_KINDS[kind_name]
    character = _locked(item.character)
    advancing = _require_build_rights(character, is_gm=is_gm, kind_name=kind_name)
    item = kind.model.objects.select_for_update(no_key=True).get(pk=item.pk)
    if kind.prepare is not None:
        data = kind.prepare(character, data, item)
    _refuse_gm_fields(kind_name, data, item, is_gm=is_gm)
    fields = _editable_fields(kind)
    values = {f: data.get(f, getattr(item, f)) for f in fields}
    if advancing:
        raised = ADVANCEMENT_FIELDS[kind_name]
        other = [f for f in fields if f not in raised and values[f] != getattr(item, f)]
        lowered = [f for f in raised if values[f] < getattr(item, f)]
        if other or lowered:
            why = (_("On an approved sheet its player only raises %(fields)s; lowering %(field)s is the GM's call.")
                   if lowered else
                   _("On an approved sheet its player only raises %(fields)s; changing %(field)s is the GM's call."))
            raise CharacterConflict(why % {"fields": _(" and ").join(raised), "field": (lowered or other)[0]},
                                    field=(lowered or other)[0])
    if not str(values.get("name", "")).strip():
        raise CharacterError(str(_NAME_MISSING[kind_name]), field="name")
    kind.check(character, values, item)
    if "classified" in data and not is_gm:
        raise PermissionDenied(_("Only the GM classifies."))
    classified = _classified_after(kind, instance=item, values=values, is_gm=is_gm, requested=data.get("classified"))
    changed = [f for f in fields if getattr(item, f) != values[f]]
    for f in changed:
        setattr(item, f, values[f])
    if classified != item.classified:
        item.classified = classified
        changed.append("classified")
    if changed:
        item.save(update_fields=changed)
        if advancing:
            _within_earned_points(character, field=changed[0])
        line = dict(by=str(by), kind=KIND_SAID[kind_name], line=item.name, name=character.name)
        change_set(campaign=character.campaign, by=by).audit(
            f"{kind.label}.update",
            said("%(by)s classified the %(kind)s %(line)s on %(name)s", **line)
            if is_gm and set(changed) & {*kind.classification, "classified"} else
            said("%(by)s edited the %(kind)s %(line)s on %(name)s", **line),
            data={"character": character.pk, "id": item.pk, "fields": changed})
    return item


@transaction.atomic
def item_delete(*, item, kind_name: str, by, is_gm: bool) -> None:
    change_set(campaign=item.character.campaign_id, by=by)
    kind = ITEM_KINDS[kind_name]
    character = _locked(item.character)
    _require_build_rights(character, is_gm=is_gm)
    change_set(campaign=character.campaign, by=by).audit(
        f"{kind.label}.delete", said("%(by)s removed the %(kind)s %(line)s from %(name)s", by=str(by),
                                     kind=KIND_SAID[kind_name], line=item.name, name=character.name),
        data={"character": character.pk, "id": item.pk})
    item.delete()

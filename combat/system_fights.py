"""Fights of the other rule sets: the turn order, run by the GM at the table.

The rulebook does the rules: ``TurnOrder`` for ZeroSpace (holding, forcing, newcomers), and for
Success Check and Rocket House, whose texts give no order of their own (the tracker goes round
by a number the table rolls, highest first: a ruling, docs/rules.md); ``DeclarationTurns`` for
Core Rules (declarations from the lowest State of Mind, reaction checks that cost the turn).
This module keeps the order on a ``SystemFight`` row and says who may move it: the GM moves
everything; a player holds, takes a held turn or forces an action (ZeroSpace), or rolls a
reaction check (Core Rules), for their own character. Blows are ``system_blows``.

Only sheets of the campaign's rule set fight; a Zener Gate character is refused with its name.
An NPC brings its sheet numbers (Toughness, Health, Brawn…) in the start form; the fight keeps
its condition. A new Rocket House fight fills every sheet's Strength Effect pool.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from characters.events import SystemSheetChanged
from characters.models import Character, SystemSheet
from characters.system_sheets import move_pool
from rulebook import RulesError
from rulebook.systems import core_rules, exchanges, get_system
from rulebook.systems.base import ParamError
from rulebook.systems.core_turns import DeclarationTurns
from rulebook.systems.sheets import NEW_FIGHT, spec_for
from rulebook.systems.zerospace_turns import Contender, TurnOrder, initiative_order
from rulebook.words import Said, listed, said
from zenergate_site import limits

from .events import SystemFightChanged
from .models import SystemFight

#: The rule sets whose fights the tracker runs.
FIGHT_SYSTEMS = ("zerospace", "success_check", "rocket_house", "core_rules")
#: What each action does, for the buttons and the log.
ACTIONS = {
    "next": gettext_lazy("Next turn"),
    "hold": gettext_lazy("Hold the turn"),
    "take_held": gettext_lazy("Take the held turn"),
    "force": gettext_lazy("Force a defensive action"),
    "reaction": gettext_lazy("Reaction check"),
    "first_aid": gettext_lazy("First aid"),
    "insert": gettext_lazy("Join the fight"),
    "remove": gettext_lazy("Leave the fight"),
    "end": gettext_lazy("End the fight"),
}
#: The actions of each system's order (ZeroSpace's holds and forced actions are its own).
SYSTEM_ACTIONS = {
    "zerospace": ("next", "hold", "take_held", "force", "insert", "remove", "end"),
    "success_check": ("next", "insert", "remove", "end"),
    "rocket_house": ("next", "first_aid", "insert", "remove", "end"),
    "core_rules": ("next", "reaction", "insert", "remove", "end"),
}
#: What a player may do with their own character.
PLAYER_ACTIONS = ("hold", "take_held", "force", "reaction", "first_aid")
#: What a Core Rules fighter brings besides a name: the scores the declaration order reads.
CORE_SCORES = ("som", "empathy", "perception")
MAX_FIGHTERS = 40


def _whole(value, label: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CampaignError(_("%(label)s must be a whole number.") % {"label": label}, field=field)
    if not -100 <= value <= 100:
        raise CampaignError(_("%(label)s must be between −100 and 100.") % {"label": label}, field=field)
    return value


def _fighter(campaign, entry, sheets: dict[int, SystemSheet], index: int) -> tuple[str, int | None, dict]:
    """One entry of a new fight: a sheet of the campaign or a named NPC, with what orders it.

    Returns (name, sheet id or None, what orders it: ``total`` and ``action_value``, or the
    Core Rules scores and ``aware``, and an NPC's ``numbers``).
    """
    field = f"fighters.{index}"
    system = campaign.rule_set
    if not isinstance(entry, dict):
        raise CampaignError(_("Each fighter is {sheet or name, and what orders it}."), field=field)
    allowed = {"sheet", "character", "name", "numbers"} | (
        {*CORE_SCORES, "aware"} if system == "core_rules" else {"total", "action_value"})
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise CampaignError(_("Unknown field %(name)s.") % {"name": repr(unknown[0])}, field=field)
    if "character" in entry:
        character = Character.objects.filter(pk=entry["character"], campaign=campaign).first() \
            if isinstance(entry["character"], int) and not isinstance(entry["character"], bool) else None
        who = character.name if character is not None else _("That character")
        raise CampaignError(_("%(name)s is a Zener Gate character; this fight plays %(system)s. Give them a sheet of "
                              "that system to bring them in.") % {"name": who, "system": _(get_system(system).name)},
                            field=field)
    numbers: dict = {}
    if "sheet" in entry:
        sheet = sheets.get(entry["sheet"]) if isinstance(entry["sheet"], int) else None
        if sheet is None:
            raise CampaignError(_("No such sheet in this campaign."), field=field)
        if sheet.system != system:
            raise CampaignError(_("%(name)s is a %(sheet_system)s sheet; this fight plays %(system)s.")
                                % {"name": sheet.name, "sheet_system": _(get_system(sheet.system).name),
                                   "system": _(get_system(system).name)}, field=field)
        name, pk, numbers = sheet.name, sheet.pk, sheet.numbers
        if "numbers" in entry:
            raise CampaignError(_("%(name)s's numbers are on their sheet.") % {"name": name}, field=field)
    else:
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.NPC_NAME:
            raise CampaignError(_("An NPC needs a name of 1–%(most)s characters.") % {"most": limits.NPC_NAME},
                                field=field)
        name, pk = name.strip(), None
        try:
            numbers = spec_for(system).clean_numbers(entry.get("numbers") or {})
        except ParamError as exc:
            raise CampaignError(f"{name}: {exc}", field=field) from None
    if system == "core_rules":
        scores = {key: entry.get(key, numbers.get(key, 5)) for key in CORE_SCORES}
        for key, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10:
                raise CampaignError(_("%(name)s: %(key)s is a score from 1 to 10.") % {"name": name, "key": key},
                                    field=field)
        aware = entry.get("aware", True)
        if not isinstance(aware, bool):
            raise CampaignError(_("%(name)s: aware is true or false.") % {"name": name}, field=field)
        ordering = {**scores, "aware": aware}
        numbers = {**numbers, **scores}  # an NPC's scores are its numbers (the reaction check reads SOM)
    else:
        ordering = {"total": _whole(entry.get("total"), _("The order roll"), field),
                    "action_value": _whole(entry.get("action_value", 0), _("The Intelligence AV"), field)}
    return name, pk, {**ordering, "numbers": numbers if pk is None else None}


@transaction.atomic
def system_fight_start(*, campaign, by, name: object, fighters: Sequence, tie_dice: object = None,
                       rng: random.Random | None = None) -> SystemFight:
    """Start a fight: the order by everyone's roll (ZeroSpace's perception, the table's roll in
    Success Check and Rocket House), or Core Rules' declaration order (ties by d10, ``tie_dice``)."""
    changes = change_set(campaign=campaign.pk, by=by)
    if campaign.rule_set not in FIGHT_SYSTEMS:
        raise CampaignConflict(_("Zener Gate fights are Encounters."), field="campaign")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.ENCOUNTER_NAME:
        raise CampaignError(_("Name the fight (1–%(most)s characters).") % {"most": limits.ENCOUNTER_NAME},
                            field="name")
    if not isinstance(fighters, list) or not 1 <= len(fighters) <= MAX_FIGHTERS:
        raise CampaignError(_("List 1–%(most)s fighters.") % {"most": MAX_FIGHTERS}, field="fighters")
    if tie_dice and campaign.rule_set != "core_rules":
        raise CampaignError(_("Only a Core Rules fight breaks ties with typed d10s."), field="tie_dice")
    sheets = {sheet.pk: sheet for sheet in changes.lock(SystemSheet.objects.filter(campaign=campaign))}
    entries = [_fighter(campaign, entry, sheets, index) for index, entry in enumerate(fighters)]
    try:
        if campaign.rule_set == "core_rules":
            turns, found = DeclarationTurns.start(
                [core_rules.Declarant(n, o["som"], o["empathy"], o["perception"], o["aware"]) for n, _, o in entries],
                rng, _faces(tie_dice))
            state, order_names = turns.to_state(), list(found.order)
        else:
            order = TurnOrder.start(initiative_order([Contender(n, o["total"], o["action_value"])
                                                      for n, _, o in entries]))
            state, order_names = order.to_state(), list(order.order)
    except RulesError as exc:
        raise CampaignError(str(exc), field="fighters") from None
    npcs = {n: {"numbers": o["numbers"], "condition": {}} for n, pk, o in entries if pk is None}
    fight = SystemFight.objects.create(campaign=campaign, name=name.strip(), system=campaign.rule_set,
                                       state=state, fighters={n: pk for n, pk, _ in entries}, npcs=npcs)
    refilled = _new_fight_pools(fight, [sheets[pk] for _, pk, _ in entries if pk], by)
    changes.audit("fight.start", said("%(fight)s: %(order)s", fight=fight.name, order=listed(order_names)),
                  data={"fight": fight.pk})
    changes.publish(SystemFightChanged(fight=fight.pk), *([SystemSheetChanged(sheets=refilled)] if refilled else []))
    return fight


def _faces(value: object) -> list[int] | None:
    if value is None or value == []:
        return None
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise CampaignError(_("Typed dice are a list of whole numbers."), field="dice")
    return value


def _new_fight_pools(fight: SystemFight, sheets: list[SystemSheet], by) -> list[int]:
    """Fill each pool a new fight fills (Rocket House's Strength Effect) on the fighters' sheets."""
    refilled = []
    spec = spec_for(fight.system)
    for pool in (p for p in spec.pools if NEW_FIGHT in p.refills):
        for sheet in sheets:
            current = int(sheet.pools.get(pool.key, 0))
            full = spec.refill(pool.key, NEW_FIGHT, current, sheet.numbers)
            sheet._change_reason = f"{fight.name} begins"
            if move_pool(sheet, pool=pool.key, to=full, action=NEW_FIGHT, by=by):
                refilled.append(sheet.pk)
    return refilled


@transaction.atomic
def system_fight_act(*, fight: SystemFight, by, is_gm: bool, action: object, name: object = None,
                     after: object = None, sheet: object = None, dice: object = None, scores: object = None,
                     skill: object = None, rng: random.Random | None = None) -> SystemFight:
    """Move the fight on: the next turn, a hold, a held turn taken, a forced action, a reaction
    check (``dice``: the d10 typed at the table), a newcomer (Core Rules: with ``scores``)…"""
    changes = change_set(campaign=fight.campaign_id, by=by)
    fight = changes.lock(SystemFight.objects.filter(pk=fight.pk))[0]
    allowed = SYSTEM_ACTIONS[fight.system]
    if not isinstance(action, str) or action not in allowed:
        raise CampaignError(_("Choose an action: %(actions)s.") % {"actions": ", ".join(allowed)}, field="action")
    if fight.ended:
        raise CampaignConflict(_("This fight is over."))
    if not is_gm:
        if action not in PLAYER_ACTIONS or name not in own_fighters(fight, by):
            raise PermissionDenied(_("Players hold, take a held turn, force an action or roll a reaction check for "
                                     "their own character; the GM runs the rest."))
    if dice and action not in ("reaction", "first_aid"):
        raise CampaignError(_("Only a reaction check or first aid takes a typed die."), field="dice")
    if skill is not None and action != "first_aid":
        raise CampaignError(_("Only first aid takes a skill."), field="skill")
    if scores and action != "insert":
        raise CampaignError(_("Only a newcomer brings scores."), field="scores")
    if action in ("hold", "take_held", "force", "reaction", "first_aid", "remove") and (
            not isinstance(name, str) or not name):
        raise CampaignError(_("Say who."), field="name")
    core = fight.system == "core_rules"
    order = DeclarationTurns.from_state(fight.state) if core else TurnOrder.from_state(fight.state)
    try:
        if action == "next":
            if core:
                turn = order.turn  # the declaration moves the turn on: its number first
                summary = said("turn %(turn)s: %(name)s declares", turn=turn, name=order.next_declaration())
            else:
                started, round_before = order.position >= 0, order.round
                round_now = order.round if order.position >= 0 else 1
                summary = said("round %(round)s: %(name)s acts", round=round_now, name=order.next_turn())
                if fight.system == "rocket_house" and started and order.round > round_before:
                    summary += _bleed_all(fight, changes)
        elif action == "first_aid":
            summary = _first_aid(fight, changes, name, skill, dice, rng)
        elif action == "end":
            fight.ended = True
            summary = said("the fight ends")
        elif action == "insert":
            newcomer, pk, numbers = _newcomer(fight, name, sheet)
            if core:
                som, empathy, perception = _scores(scores, numbers)
                order.insert(newcomer, som, empathy, perception)
                summary = said("%(name)s joins the declarations", name=newcomer)
            else:
                order.insert(newcomer, after=after if isinstance(after, str) and after else None)
                summary = (said("%(name)s joins after %(after)s", name=newcomer, after=after) if after else
                           said("%(name)s joins first", name=newcomer))
            fight.fighters = {**fight.fighters, newcomer: pk}
            if pk is None:
                fight.npcs = {**fight.npcs, newcomer: {"numbers": numbers, "condition": {}}}
        elif action == "reaction":
            (side,) = Side.of(fight, [name])
            som = side.numbers["som"]
            roll = order.reaction(name, som, rng, _faces(dice))
            # Not the SOM: an NPC's is the GM's.
            summary = (said("%(name)s's reaction check: %(total)s, acts normally", name=name, total=roll.total)
                       if roll.success else
                       said("%(name)s's reaction check: %(total)s, loses the turn", name=name, total=roll.total))
        else:
            getattr(order, action)(name)
            if action == "remove":
                fight.fighters = {k: v for k, v in fight.fighters.items() if k != name}
            summary = {"hold": said("%(name)s holds the turn", name=name),
                       "take_held": said("%(name)s takes the held turn", name=name),
                       "force": said("%(name)s forces a defensive action (the next turn is given up)", name=name),
                       "remove": said("%(name)s leaves the fight", name=name)}[action]
    except (RulesError, ParamError) as exc:
        raise CampaignConflict(str(exc), field="action") from None
    fight.state = order.to_state()
    fight.save(update_fields=["state", "fighters", "npcs", "ended"])
    changes.audit("fight.act", said("%(fight)s: %(summary)s", fight=fight.name, summary=summary), data={"fight": fight.pk, "action": action})
    changes.publish(SystemFightChanged(fight=fight.pk))
    return fight


class Side:
    """A fighter as the rules see it: a sheet of the campaign or an NPC of the fight, with its
    numbers (the defaults for those not given) and its condition."""

    def __init__(self, fight: SystemFight, name: str, sheet: SystemSheet | None) -> None:
        self.name, self.sheet = name, sheet
        defaults = {p.name: p.default for p in spec_for(fight.system).numbers}
        if sheet is not None:
            self.numbers, condition = {**defaults, **sheet.numbers}, sheet.condition
        else:
            npc = fight.npcs.get(name, {})
            self.numbers, condition = {**defaults, **npc.get("numbers", {})}, npc.get("condition")
        self.condition = exchanges.condition_of(fight.system, condition, self.numbers)

    def line_inputs(self, name: object, field: str) -> dict:
        """All the values of a line of the sheet, by its name (a Core Rules line: KS, US, ES)."""
        for line in self.sheet.lines if self.sheet is not None else []:
            if line["name"] == name:
                return dict(line["inputs"])
        raise CampaignError(_("%(name)s has no line %(line)s on their sheet.")
                            % {"name": self.name, "line": repr(name)}, field=field)

    def line(self, name: object, field: str) -> int:
        """The value of a line of the sheet, by its name (an NPC has none)."""
        for line in self.sheet.lines if self.sheet is not None else []:
            if line["name"] == name:
                return next(iter(line["inputs"].values()))
        raise CampaignError(_("%(name)s has no line %(line)s on their sheet.")
                            % {"name": self.name, "line": repr(name)}, field=field)

    @classmethod
    def of(cls, fight: SystemFight, names, changes=None, fields: tuple[str, ...] = ()) -> list[Side]:
        """The fighters ``names`` of the fight (each checked), their sheets locked in ``changes``
        when given. ``fields`` names the input each name came from, for the error."""
        for index, name in enumerate(names):
            if not isinstance(name, str) or name not in fight.fighters:
                field = fields[index] if index < len(fields) else "name"
                raise CampaignError(_("%(name)s is not in this fight.") % {"name": name} if isinstance(name, str) else
                                    _("Name a fighter of this fight as the %(field)s.") % {"field": field}, field=field)
        ids = [fight.fighters[n] for n in names if fight.fighters.get(n)]
        rows = SystemSheet.objects.filter(pk__in=ids)
        sheets = {s.pk: s for s in (changes.lock(rows) if changes is not None else rows)} if ids else {}
        return [cls(fight, name, sheets.get(fight.fighters.get(name))) for name in names]


def _land(fight: SystemFight, changes, name: str, sheet: SystemSheet | None, condition: dict, why: str) -> None:
    if sheet is not None:
        changes.watch(sheet, ("condition",))
        sheet.condition = condition
        sheet._change_reason = why
        sheet.save(update_fields=["condition", "updated_at"])
        changes.publish(SystemSheetChanged(sheets=[sheet.pk]))
    else:
        fight.npcs = {**fight.npcs, name: {**fight.npcs.get(name, {}), "condition": condition}}


def _bleed_all(fight: SystemFight, changes) -> Said:
    """Rocket House: a round has passed; every wound nobody has seen to bleeds (003, "Wounds")."""
    mode = fight.rulings().get("damage_mode", 0)
    bleeding = []
    for side in Side.of(fight, list(fight.fighters), changes):
        bled, what = exchanges.bleed(side.condition, side.numbers, seconds=exchanges.ROUND_SECONDS, damage_mode=mode)
        if bled != side.condition:
            _land(fight, changes, side.name, side.sheet, bled, f"{fight.name}: bleeding")
        if what:
            bleeding.append(listed([side.name, what], separator=" "))
    return listed(["", *bleeding], separator="; ") if bleeding else listed([])


def _first_aid(fight: SystemFight, changes, name: str, skill: object, dice: object, rng) -> Said:
    (side,) = Side.of(fight, [name], changes)
    if isinstance(skill, bool) or not isinstance(skill, int):
        raise CampaignError(_("Give the helper's First Aid, in percent."), field="skill")
    try:
        seen, roll = exchanges.first_aid(side.condition, side.numbers, skill=skill,
                                         damage_mode=fight.rulings().get("damage_mode", 0), rng=rng,
                                         dice=_faces(dice))
    except (RulesError, ParamError) as exc:
        raise CampaignError(str(exc), field="dice") from None
    if roll.success:
        _land(fight, changes, name, side.sheet, seen, f"{fight.name}: first aid")
    target = roll.details.get("target", skill)  # by key: the breakdown's labels are in the reader's language
    values = {"name": name, "total": roll.total, "target": target}
    return (said("first aid for %(name)s: %(total)s against %(target)s, the bleeding stops", **values)
            if roll.success else
            said("first aid for %(name)s: %(total)s against %(target)s, the bleeding goes on", **values))


def _scores(scores: object, numbers: dict) -> tuple[int, int, int]:
    scores = scores if isinstance(scores, dict) else {}
    values = tuple(scores.get(key, numbers.get(key, 5)) for key in CORE_SCORES)
    if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 10 for v in values):
        raise CampaignError(_("SOM, Empathy and Perception are scores from 1 to 10."), field="scores")
    return values  # type: ignore[return-value]


def own_fighters(fight: SystemFight, user) -> set[str]:
    """The names in the fight whose sheets ``user`` plays."""
    ids = [pk for pk in fight.fighters.values() if pk]
    mine = set(SystemSheet.objects.filter(pk__in=ids, owner=user).values_list("pk", flat=True))
    return {name for name, pk in fight.fighters.items() if pk in mine}


def _newcomer(fight: SystemFight, name: object, sheet: object) -> tuple[str, int | None, dict]:
    if sheet is not None:
        found = SystemSheet.objects.filter(pk=sheet, campaign_id=fight.campaign_id, system=fight.system).first() \
            if isinstance(sheet, int) and not isinstance(sheet, bool) else None
        if found is None:
            raise CampaignError(_("No such sheet of this fight's rule set in the campaign."), field="sheet")
        return found.name, found.pk, found.numbers
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.NPC_NAME:
        raise CampaignError(_("A newcomer needs a name of 1–%(most)s characters.") % {"most": limits.NPC_NAME},
                            field="name")
    return name.strip(), None, spec_for(fight.system).clean_numbers({})

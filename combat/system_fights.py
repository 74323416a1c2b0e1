"""Fights of the other rule sets: a ZeroSpace fight's turn order, run by the GM at the table.

The rulebook's ``TurnOrder`` does the rules (holding, forcing, newcomers); this module keeps it
on a ``SystemFight`` row and says who may move it: the GM moves everything, a player holds,
takes a held turn or forces an action for their own character. Only sheets of the campaign's
rule set fight; a Zener Gate character is refused with its name.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction

from campaign.changes import change_set
from campaign.errors import CampaignConflict, CampaignError
from characters.models import Character, SystemSheet
from rulebook import RulesError
from rulebook.systems import get_system
from rulebook.systems.zerospace_turns import Contender, TurnOrder, initiative_order
from zenergate_site import limits

from .models import SystemFight

#: The rule sets whose fights the tracker runs.
FIGHT_SYSTEMS = ("zerospace",)
#: What each action does, for the buttons and the log.
ACTIONS = {
    "next": "Next turn",
    "hold": "Hold the turn",
    "take_held": "Take the held turn",
    "force": "Force a defensive action",
    "insert": "Join the fight",
    "remove": "Leave the fight",
    "end": "End the fight",
}
#: What a player may do with their own character.
PLAYER_ACTIONS = ("hold", "take_held", "force")
MAX_FIGHTERS = 40


def _whole(value, label: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CampaignError(f"{label} must be a whole number.", field=field)
    if not -100 <= value <= 100:
        raise CampaignError(f"{label} must be between −100 and 100.", field=field)
    return value


def _fighter(campaign, entry, sheets: dict[int, SystemSheet], index: int) -> tuple[str, int | None, Contender]:
    """One entry of a new fight: a sheet of the campaign or a named NPC, with its perception roll."""
    field = f"fighters.{index}"
    if not isinstance(entry, dict):
        raise CampaignError("Each fighter is {sheet or name, total, action_value}.", field=field)
    unknown = sorted(set(entry) - {"sheet", "character", "name", "total", "action_value"})
    if unknown:
        raise CampaignError(f"Unknown field {unknown[0]!r}.", field=field)
    total = _whole(entry.get("total"), "The perception total", field)
    action_value = _whole(entry.get("action_value", 0), "The Intelligence AV", field)
    if "character" in entry:
        character = Character.objects.filter(pk=entry["character"], campaign=campaign).first() \
            if isinstance(entry["character"], int) and not isinstance(entry["character"], bool) else None
        who = character.name if character is not None else "That character"
        raise CampaignError(f"{who} is a Zener Gate character; this fight plays {get_system(campaign.rule_set).name}. "
                            "Give them a sheet of that system to bring them in.", field=field)
    if "sheet" in entry:
        sheet = sheets.get(entry["sheet"]) if isinstance(entry["sheet"], int) else None
        if sheet is None:
            raise CampaignError("No such sheet in this campaign.", field=field)
        if sheet.system != campaign.rule_set:
            raise CampaignError(f"{sheet.name} is a {get_system(sheet.system).name} sheet; this fight plays "
                                f"{get_system(campaign.rule_set).name}.", field=field)
        return sheet.name, sheet.pk, Contender(sheet.name, total, action_value)
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.NPC_NAME:
        raise CampaignError(f"An NPC needs a name of 1–{limits.NPC_NAME} characters.", field=field)
    return name.strip(), None, Contender(name.strip(), total, action_value)


@transaction.atomic
def system_fight_start(*, campaign, by, name: object, fighters: Sequence) -> SystemFight:
    """Start a fight: everyone's perception total sets the order, highest first."""
    changes = change_set(campaign=campaign.pk, by=by)
    if campaign.rule_set not in FIGHT_SYSTEMS:
        system = get_system(campaign.rule_set).name
        raise CampaignConflict(f"The tracker does not run {system} fights yet; "
                               + ("Zener Gate fights are Encounters." if campaign.rule_set == "zener" else
                                  "roll them in the roller."), field="campaign")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.ENCOUNTER_NAME:
        raise CampaignError(f"Name the fight (1–{limits.ENCOUNTER_NAME} characters).", field="name")
    if not isinstance(fighters, list) or not 1 <= len(fighters) <= MAX_FIGHTERS:
        raise CampaignError(f"List 1–{MAX_FIGHTERS} fighters.", field="fighters")
    sheets = {sheet.pk: sheet for sheet in SystemSheet.objects.filter(campaign=campaign)}
    entries = [_fighter(campaign, entry, sheets, index) for index, entry in enumerate(fighters)]
    try:
        order = TurnOrder.start(initiative_order([contender for _, _, contender in entries]))
    except RulesError as exc:
        raise CampaignError(str(exc), field="fighters") from None
    fight = SystemFight.objects.create(campaign=campaign, name=name.strip(), system=campaign.rule_set,
                                       state=order.to_state(), fighters={n: pk for n, pk, _ in entries})
    changes.audit("fight.start", f"{fight.name}: {', '.join(order.order)}", data={"fight": fight.pk})
    return fight


@transaction.atomic
def system_fight_act(*, fight: SystemFight, by, is_gm: bool, action: object, name: object = None,
                     after: object = None, sheet: object = None) -> SystemFight:
    """Move the fight on: the next turn, a hold, a held turn taken, a forced action, a newcomer…"""
    changes = change_set(campaign=fight.campaign_id, by=by)
    fight = changes.lock(SystemFight.objects.filter(pk=fight.pk))[0]
    if not isinstance(action, str) or action not in ACTIONS:
        raise CampaignError(f"Choose an action: {', '.join(ACTIONS)}.", field="action")
    if fight.ended:
        raise CampaignConflict("This fight is over.")
    if not is_gm:
        if action not in PLAYER_ACTIONS or name not in own_fighters(fight, by):
            raise PermissionDenied("Players hold, take a held turn or force an action for their own character; "
                                   "the GM runs the rest.")
    order = TurnOrder.from_state(fight.state)
    try:
        if action == "next":
            summary = f"round {order.round if order.position >= 0 else 1}: {order.next_turn()} acts"
        elif action == "end":
            fight.ended = True
            summary = "the fight ends"
        elif action == "insert":
            newcomer, pk = _newcomer(fight, name, sheet)
            order.insert(newcomer, after=after if isinstance(after, str) and after else None)
            fight.fighters = {**fight.fighters, newcomer: pk}
            summary = f"{newcomer} joins" + (f" after {after}" if after else " first")
        else:
            if not isinstance(name, str) or not name:
                raise CampaignError("Say who.", field="name")
            getattr(order, action)(name)
            if action == "remove":
                fight.fighters = {k: v for k, v in fight.fighters.items() if k != name}
            summary = {"hold": f"{name} holds the turn", "take_held": f"{name} takes the held turn",
                       "force": f"{name} forces a defensive action (the next turn is given up)",
                       "remove": f"{name} leaves the fight"}[action]
    except RulesError as exc:
        raise CampaignConflict(str(exc), field="action") from None
    fight.state = order.to_state()
    fight.save(update_fields=["state", "fighters", "ended"])
    changes.audit("fight.act", f"{fight.name}: {summary}", data={"fight": fight.pk, "action": action})
    return fight


def own_fighters(fight: SystemFight, user) -> set[str]:
    """The names in the fight whose sheets ``user`` plays."""
    ids = [pk for pk in fight.fighters.values() if pk]
    mine = set(SystemSheet.objects.filter(pk__in=ids, owner=user).values_list("pk", flat=True))
    return {name for name, pk in fight.fighters.items() if pk in mine}


def _newcomer(fight: SystemFight, name: object, sheet: object) -> tuple[str, int | None]:
    if sheet is not None:
        found = SystemSheet.objects.filter(pk=sheet, campaign_id=fight.campaign_id, system=fight.system).first() \
            if isinstance(sheet, int) and not isinstance(sheet, bool) else None
        if found is None:
            raise CampaignError("No such sheet of this fight's rule set in the campaign.", field="sheet")
        return found.name, found.pk
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > limits.NPC_NAME:
        raise CampaignError(f"A newcomer needs a name of 1–{limits.NPC_NAME} characters.", field="name")
    return name.strip(), None


def fight_view(fight: SystemFight) -> dict:
    """What the fight page and the API show: the order with each fighter's standing, the record."""
    order = TurnOrder.from_state(fight.state)
    rounds: dict[int, list[str]] = {}
    for turn in order.record:
        rounds.setdefault(turn.round, []).append(str(turn))
    return {
        "round": order.round if order.position >= 0 else 0,
        "acting": order.acting,
        "order": [{"name": n, "sheet": fight.fighters.get(n), "acting": n == order.acting, "held": n in order.held,
                   "gives_up_next": n in order.sacrificed} for n in order.order],
        "rounds": [{"round": number, "turns": turns} for number, turns in sorted(rounds.items(), reverse=True)],
        "ended": fight.ended,
    }

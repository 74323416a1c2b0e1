"""The combat log: every change an event makes is recorded, so undo can take it back exactly."""

from __future__ import annotations

from django.utils import timezone

from campaign import pagecache
from campaign.events import event_publish
from campaign.services import log_action
from characters.models import Character
from characters.wounds import WOUND_COLUMNS

from .errors import CombatConflict
from .models import Combatant, CombatEvent, Encounter

ENCOUNTER_FIELDS = ("state", "round", "turn", "order")
COMBATANT_FIELDS = ("revealed", "trauma", "shock", "end_spent", "stat_damage", "initiative", "initiative_breakdown",
                    "surprised", "prone", "cant_move", "shock_this_round", "out_cold_turns", "skipped_rounds", "held",
                    "dying_modifier", "dying", "dead", "follow_up")


def _values(obj, names) -> dict:
    return {name: getattr(obj, name) for name in names}


class Changes:
    """Record what an event is about to change, then what it changed it to."""

    def __init__(self, encounter: Encounter) -> None:
        self.encounter = encounter
        self.before = {"encounter": _values(encounter, ENCOUNTER_FIELDS), "combatants": {}, "characters": {}}
        self.combatants: dict[int, Combatant] = {}
        self.characters: dict[int, Character] = {}

    def watch(self, combatant: Combatant) -> None:
        """Note a combatant (and its character's wounds) before they change."""
        # The first look is the "before"; the latest object (a row re-read under its lock) is
        # the one whose values are read as "after".
        if combatant.pk not in self.combatants:
            self.before["combatants"][str(combatant.pk)] = _values(combatant, COMBATANT_FIELDS)
        self.combatants[combatant.pk] = combatant
        character = combatant.character
        if character is not None:
            if character.pk not in self.characters:
                self.before["characters"][str(character.pk)] = _values(character, WOUND_COLUMNS)
            self.characters[character.pk] = character

    def after(self) -> dict:
        return {
            "encounter": _values(self.encounter, ENCOUNTER_FIELDS),
            "combatants": {str(pk): _values(c, COMBATANT_FIELDS) for pk, c in self.combatants.items()},
            "characters": {str(pk): _values(c, WOUND_COLUMNS) for pk, c in self.characters.items()},
        }

    def save(self) -> None:
        """Store the encounter and every watched combatant (characters' wounds are stored by the
        wounds service as they change)."""
        Encounter.objects.filter(pk=self.encounter.pk).update(**_values(self.encounter, ENCOUNTER_FIELDS))
        for combatant in self.combatants.values():
            Combatant.objects.filter(pk=combatant.pk).update(**_values(combatant, COMBATANT_FIELDS))
        pagecache.touch(self.encounter.campaign_id)  # an UPDATE sends no signal


def record(*, changes: Changes, kind: str, by, summary: str, data: dict, gm_data: dict | None = None,
           gm_only: bool = False, undoes: CombatEvent | None = None, idempotency_key: str | None = None,
           answers: CombatEvent | None = None) -> CombatEvent:
    """Save what changed and append the event to the log, the campaign's audit trail and live stream."""
    changes.save()
    encounter = changes.encounter
    event = CombatEvent.objects.create(encounter=encounter, kind=kind, summary=summary[:300], data=data,
                                       gm_data=gm_data or {}, gm_only=gm_only, before=changes.before,
                                       after=changes.after(), undoes=undoes, by=by,
                                       idempotency_key=idempotency_key or None, answers=answers)
    log_action(campaign=encounter.campaign, actor=by, action=f"combat.{kind}", summary=f"{encounter.name}: {summary}",
               data={"encounter": encounter.pk, "event": event.pk})
    event_publish(campaign=encounter.campaign_id, kind="combat", gm_only=gm_only,
                  data={"encounter": encounter.pk, "event": event.pk,
                        "characters": [int(pk) for pk in changes.before["characters"]]})
    if changes.characters:
        event_publish(campaign=encounter.campaign_id, kind="wounds",
                      data={"characters": [int(pk) for pk in changes.before["characters"]]})
    return event


def restore(*, encounter: Encounter, event: CombatEvent) -> None:
    """Put back everything ``event`` changed; refuse if anything changed it since."""
    combatants = Combatant.objects.select_for_update(no_key=True).filter(
        pk__in=[int(pk) for pk in event.after.get("combatants", {})])
    characters = Character.objects.select_for_update(no_key=True).filter(
        pk__in=[int(pk) for pk in event.after.get("characters", {})])
    changed = [c.name for c in combatants if _values(c, COMBATANT_FIELDS) != event.after["combatants"][str(c.pk)]]
    changed += [c.name for c in characters if _values(c, WOUND_COLUMNS) != event.after["characters"][str(c.pk)]]
    if _values(encounter, ENCOUNTER_FIELDS) != event.after["encounter"]:
        changed.append("the turn order")
    if changed:
        raise CombatConflict(f"Cannot undo: {', '.join(changed)} changed since (a later event, a downtime, "
                             "recorded wounds). Undo those first or correct it by hand.")
    Encounter.objects.filter(pk=encounter.pk).update(**event.before["encounter"])
    for key, value in event.before["encounter"].items():
        setattr(encounter, key, value)
    for pk, values in event.before["combatants"].items():
        Combatant.objects.filter(pk=int(pk)).update(**values)
    for pk, values in event.before["characters"].items():
        Character.objects.filter(pk=int(pk)).update(**values, updated_at=timezone.now())
    pagecache.touch(encounter.campaign_id)

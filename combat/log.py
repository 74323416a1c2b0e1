"""The combat log: every change an event makes is recorded, so undo can take it back exactly."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaign.audience import EVERYONE, Seen
from campaign.changes import Recorded, change_set, undo
from characters.events import WoundsChanged
from characters.models import Character
from characters.wounds import WOUND_COLUMNS
from rulebook.words import Said, said

from .errors import CombatConflict
from .events import CombatChanged
from .models import Combatant, CombatEvent, Encounter

ENCOUNTER_FIELDS = ("state", "round", "turn", "order")
COMBATANT_FIELDS = ("revealed", "trauma", "shock", "end_spent", "stat_damage", "initiative", "initiative_breakdown",
                    "surprised", "prone", "cant_move", "shock_this_round", "out_cold_until", "skipped_rounds", "held",
                    "dying_modifier", "dead", "follow_up")


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
        """Store the encounter and every watched combatant that changed (characters' wounds are
        stored by the wounds service as they change)."""
        changes = change_set(campaign=self.encounter.campaign_id)  # joins the caller's: an UPDATE is a write too
        encounter = _values(self.encounter, ENCOUNTER_FIELDS)
        if encounter != self.before["encounter"]:
            Encounter.objects.filter(pk=self.encounter.pk).update(**encounter)
            changes.changed(self.encounter, fields=[k for k, v in encounter.items() if v != self.before["encounter"][k]])
        for combatant in self.combatants.values():
            values = _values(combatant, COMBATANT_FIELDS)
            if values != self.before["combatants"][str(combatant.pk)]:
                Combatant.objects.filter(pk=combatant.pk).update(**values)
                changes.changed(combatant)


#: Where an event's data names combatants (combat.services, combat.attacks; transfer.document's EVENT_DATA).
_NAMING = ("attacker", "target", "combatant", "acting")


def characters_named(data: dict, changes: Changes, undoes: CombatEvent | None = None) -> list[int]:
    """The characters an event is about, for the log's filter by character: whose wounds it
    changed, and the characters behind every combatant it names (an attacker who missed, the
    target of a refused request, the one acting), or those of the event it undoes."""
    ids = {int(pk) for pk in changes.before["characters"]}
    request = data.get("request")  # a waiting attack's own; an answer names its request by id
    combatants = [data.get(key) for key in _NAMING] + ([request.get(key) for key in ("attacker", "target")]
                                                       if isinstance(request, dict) else [])
    combatants = [pk for pk in combatants if isinstance(pk, int) and not isinstance(pk, bool)]
    loaded = changes.combatants  # those the event changed are in hand: no query for them
    ids.update(loaded[pk].character_id for pk in combatants if pk in loaded and loaded[pk].character_id)
    unread = [pk for pk in combatants if pk not in loaded]
    if unread:
        ids.update(Combatant.objects.filter(pk__in=unread, character__isnull=False)
                   .values_list("character_id", flat=True))
    if undoes is not None:
        ids.update(undoes_characters(undoes))
    return sorted(ids)


def undoes_characters(event: CombatEvent) -> list[int]:
    entry = event.encounter.campaign.log_entries.filter(action=f"combat.{event.kind}", data__event=event.pk).first()
    return list((entry.data.get("characters") if entry else None) or [])


def record(*, changes: Changes, kind: str, by, summary: Said, data: dict, gm_data: dict | None = None,
           gm_summary: Said | None = None, seen: Seen = EVERYONE, undoes: CombatEvent | None = None,
           idempotency_key: str | None = None, answers: CombatEvent | None = None) -> CombatEvent:
    """Save what changed and append the event to the log, the campaign's audit trail and live stream,
    each for ``seen`` (an unrevealed NPC's deeds: the GM alone).

    ``summary`` is what everyone who may read the event reads, ``gm_summary`` the GM's wording
    where it differs (a hidden NPC's numbers): Saids, each read in its reader's language."""
    encounter = changes.encounter
    write = change_set(campaign=encounter.campaign_id, by=by)
    changes.save()
    event = CombatEvent.objects.create(encounter=encounter, kind=kind, summary=summary.english()[:300],
                                       said=summary.as_data(), gm_said=gm_summary.as_data() if gm_summary else {},
                                       data=data, gm_data=gm_data or {}, before=changes.before, after=changes.after(),
                                       undoes=undoes, by=by, idempotency_key=idempotency_key or None,
                                       answers=answers, **seen.columns())
    write.audit(f"combat.{kind}", said("%(fight)s: %(summary)s", fight=encounter.name, summary=summary),
                data={"encounter": encounter.pk, "event": event.pk,
                      "characters": characters_named(data, changes, undoes)}, seen=seen)
    event._state.fields_cache["undone_by"] = None  # a new entry is undone by nothing: no query to ask
    characters = [int(pk) for pk in changes.before["characters"]]
    # Whose wounds changed is no secret (the victim's sheet must follow even a hidden NPC's hit).
    write.publish(CombatChanged(encounter=encounter.pk, event=event.pk, characters=characters, seen=seen),
                  *([WoundsChanged(characters=characters)] if characters else []))
    return event


def _kept(values: dict) -> dict:
    """A combatant's recorded values that are still columns (an older event also recorded its
    ``dying`` flag, which is now read from the wounds)."""
    return {name: value for name, value in values.items() if name in COMBATANT_FIELDS}


def restore(*, encounter: Encounter, event: CombatEvent) -> None:
    """Put back everything ``event`` changed (``campaign.changes.undo``); refuse if anything
    changed it since."""
    change_set(campaign=encounter.campaign_id)  # joins the undo's
    recorded = [Recorded(Encounter, encounter.pk, event.before["encounter"], event.after["encounter"])]
    recorded += [Recorded(Combatant, int(pk), _kept(values), _kept(event.after["combatants"][pk]))
                 for pk, values in event.before["combatants"].items()]
    recorded += [Recorded(Character, int(pk), values, event.after["characters"][pk])
                 for pk, values in event.before["characters"].items()]

    def refuse(names):
        return CombatConflict(_("Cannot undo: %(names)s changed since (a later event, a downtime, recorded wounds). "
                                "Undo those first or correct it by hand.") % {"names": ", ".join(names)})

    undo(recorded, refuse=refuse, name=lambda row: _("the turn order") if isinstance(row, Encounter) else row.name)
    for key, value in event.before["encounter"].items():
        setattr(encounter, key, value)


def let_go_of_campaign(sender, campaign, **_) -> None:
    """Before a campaign is deleted (campaign.signals.campaign_unlinking): an undo or an answer
    protects the event it names; in a fight that goes whole, they let go first."""
    CombatEvent.objects.filter(encounter__campaign=campaign).update(undoes=None, answers=None)

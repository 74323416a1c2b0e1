"""Every write of the tracker: encounters, combatants, initiative, turns and undo.

Each runs in one transaction with the encounter row locked, so two clicks never interleave;
each appends one event to the combat log holding what it changed. Attacks and dying rounds,
which roll for wounds, are in combat.attacks.
"""

from __future__ import annotations

import random
from math import ceil

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaign.audience import EVERYONE, GM_ONLY, Seen, gm_only_if
from campaign.changes import change_set
from characters.models import Character
from characters.selectors import character_for_combat
from characters.wounds import (
    apply_damage,
    healing_state,
    out_cold_carry,
    out_cold_left,
    save_wounds,
)
from rulebook import RulesError, game_time
from rulebook.dice import DiceSlots, EnteredDice, default_rng
from rulebook.initiative import Combatant as Initiative
from rulebook.initiative import initiative_order, reaction_save
from rulebook.recovery import (
    end_after_skipped_rounds,
    shock_after_combat,
    shock_after_skipped_action,
)
from rulebook.words import Said, kept, listed, said
from zenergate_site.shapes import path_of as shapes_path

from . import shapes
from .errors import CombatConflict, CombatError
from .fighters import combatants_loaded, fighter
from .log import Changes, record, restore
from .models import Combatant, CombatEvent, Encounter

#: An encounter's settings as the log names them.
SETTING_WORDS = {"name": said("name"), "gm_notes": said("gm_notes"), "require_approval": said("require_approval"),
                 "round_seconds": said("round_seconds"), "initiative_stat": said("initiative_stat")}
#: A combatant's conditions as the log names them turned on and off.
FLAG_ON = {"revealed": said("revealed on"), "surprised": said("surprised on"), "prone": said("prone on"),
           "cant_move": said("cant move on")}
FLAG_OFF = {"revealed": said("revealed off"), "surprised": said("surprised off"), "prone": said("prone off"),
            "cant_move": said("cant move off")}

NPC_FIELDS = ("name", "stats", "hit_points", "shock_threshold", "endurance_max", "armour_rating", "armour_type",
              "weapons", "revealed")


def locked(encounter_id: int) -> Encounter:
    return Encounter.objects.select_for_update(no_key=True).select_related("campaign").get(pk=encounter_id)


def hidden(combatant: Combatant) -> bool:
    """An NPC the GM has not revealed: players never see it named, counted or ordered."""
    return combatant.is_npc and not combatant.revealed


def out_cold_now(encounter: Encounter, combatant: Combatant) -> bool:
    """Whether a combatant is still out cold in this round (its time is on the fight's clock)."""
    return game_time.misses_action(until=combatant.out_cold_until, round_number=encounter.round,
                                   round_seconds=encounter.round_seconds)


def seen_by(*combatants: Combatant) -> Seen:
    """Who may read what these combatants did: the GM alone while any of them is hidden."""
    return gm_only_if(any(hidden(c) for c in combatants))


def _running(encounter: Encounter) -> None:
    if encounter.state != Encounter.State.RUNNING:
        raise CombatConflict(_("Roll initiative first: the encounter is not running.") if encounter.state == "setup"
                             else _("The encounter has ended."))


@transaction.atomic
def encounter_create(*, campaign, by, name: str, gm_notes: str = "", initiative_stat: str = "MEL",
                     round_seconds: int = 10) -> Encounter:
    change_set(campaign=campaign.pk, by=by)
    name = (name or "").strip()
    if not name:
        raise CombatError(_("Give the encounter a name."), field="name")
    encounter = Encounter.objects.create(campaign=campaign, name=name, gm_notes=gm_notes,
                                         initiative_stat=initiative_stat, round_seconds=round_seconds)
    changes = Changes(encounter)
    record(changes=changes, kind="create", by=by, summary=said("%(by)s set up the encounter", by=str(by)), data={})
    return encounter


@transaction.atomic
def encounter_update(*, encounter: Encounter, by, **changes) -> Encounter:
    """Rename, change the GM notes or whether players' attacks wait for approval (GM)."""
    write = change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if "name" in changes and not (changes["name"] or "").strip():
        raise CombatError(_("Give the encounter a name."), field="name")
    changed = [k for k, v in changes.items() if getattr(encounter, k) != v]
    for key in changed:
        setattr(encounter, key, changes[key])
    if changed:
        encounter.save(update_fields=changed)
        write.audit("combat.settings", said("%(by)s changed %(fight)s: %(fields)s", by=str(by), fight=encounter.name,
                                            fields=listed(SETTING_WORDS.get(k, k) for k in changed)),
                    data={"encounter": encounter.pk}, seen=GM_ONLY if changed == ["gm_notes"] else EVERYONE)
    return encounter


def _check_npc(npc: dict) -> dict:
    """An NPC's stat block as the rules take it (combat/shapes.py, the one definition), with the
    HP, shock threshold and END the rules derive where the GM left them out."""
    try:
        shapes.SETUP_NPCS([npc])
    except ValidationError as exc:
        where = shapes_path(exc).removeprefix("[0]").lstrip(".")
        label = where or _("NPC")
        raise CombatError(f"{label}: {exc.messages[0]}", field=where.split(".")[0].split("[")[0] or "npc") from None
    stats = npc.get("stats") or {}
    con = int(stats.get("CON", 14))
    res, nim = int(stats.get("RES", 14)), int(stats.get("NIM", 14))
    hp = npc.get("hit_points") or 2 * con + res + nim  # the rules' HP from the stat block
    return {**npc, "hit_points": hp, "shock_threshold": npc.get("shock_threshold") or ceil(hp / 5),
            "endurance_max": npc.get("endurance_max") or con}


@transaction.atomic
def combatant_add(*, encounter: Encounter, by, character_id: int | None = None, npc: dict | None = None) -> Combatant:
    """Add a campaign character in play, or an NPC (hidden from players until revealed)."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if encounter.state == Encounter.State.ENDED:
        raise CombatConflict(_("The encounter has ended."))
    position = encounter.combatants.count()
    if character_id is not None:
        character = Character.objects.filter(campaign=encounter.campaign, pk=character_id).first()
        if character is None:
            raise CombatError(_("That character is not in this campaign."), field="character")
        if character.state != Character.State.ACTIVE:
            raise CombatConflict(_("%(name)s is not in play.") % {"name": character.name}, field="character")
        if encounter.combatants.filter(character=character).exists():
            raise CombatConflict(_("%(name)s is already in this encounter.") % {"name": character.name},
                                 field="character")
        # Still out cold from a fight before: the knock-out goes on from now on this fight's clock.
        character = Character.objects.select_for_update(no_key=True).get(pk=character.pk)
        left = out_cold_left(character, encounter.campaign.game_hours)
        now = max(encounter.round - 1, 0) * encounter.round_seconds
        combatant = Combatant.objects.create(encounter=encounter, character=character, name=character.name,
                                             position=position, out_cold_until=now + left if left else None)
        if left:
            joined = Changes(encounter)
            joined.watch(combatant)  # the character's wounds, so that undo carries the knock-out back
            out_cold_carry(character, seconds=0, game_hours=encounter.campaign.game_hours)
            record(changes=joined, kind="join", by=by, data={"combatant": combatant.pk}, seen=seen_by(combatant),
                   summary=said("%(name)s joins the fight, out cold for %(time)s more", name=character.name,
                                time=game_time.duration_said(left)))
            return combatant
    else:
        values = _check_npc(npc or {})
        combatant = Combatant.objects.create(encounter=encounter, position=position, revealed=bool(
            values.get("revealed", False)), **{k: values[k] for k in NPC_FIELDS if k in values and k != "revealed"})
    changes = Changes(encounter)
    record(changes=changes, kind="join", by=by, summary=said("%(name)s joins the fight", name=combatant.name),
           data={"combatant": combatant.pk}, seen=seen_by(combatant))
    return combatant


@transaction.atomic
def combatant_update(*, combatant: Combatant, by, **flags) -> Combatant:
    """Reveal an NPC, or set the conditions initiative reads (surprised, prone, can't move)."""
    encounter = locked(combatant.encounter_id)
    change_set(campaign=encounter.campaign_id, by=by)
    combatant = Combatant.objects.select_related("character").get(pk=combatant.pk)
    changes = Changes(encounter)
    changes.watch(combatant)
    for name, value in flags.items():
        setattr(combatant, name, value)
    flagged = listed((FLAG_ON if v else FLAG_OFF)[k] for k, v in flags.items())
    # A reveal is told to everyone: from now on the NPC is in the players' view.
    record(changes=changes, kind="update", by=by, summary=said("%(name)s: %(flags)s", name=combatant.name,
                                                                 flags=flagged),
           data={"combatant": combatant.pk, **flags}, seen=seen_by(combatant))
    return combatant


class _InitiativeDice:
    """One d6 per combatant who rolls, each from the faces entered for that combatant."""

    def __init__(self, queue: list[tuple[int, list[int]]], fallback: random.Random | None) -> None:
        self.queue, self.fallback, self.rolls = list(queue), fallback, {}

    def randint(self, low: int, high: int) -> int:
        combatant_id, faces = self.queue.pop(0)
        roller = EnteredDice(faces, self.fallback,
                             label=_("initiative dice for combatant %(id)s") % {"id": combatant_id})
        face = roller.randint(low, high)
        roller.check_all_used()
        self.rolls[combatant_id] = roller.record()
        return face


@transaction.atomic
def initiative_roll(*, encounter: Encounter, by, dice: dict | None = None,
                    rng: random.Random | None = None) -> Encounter:
    """Roll initiative for everyone (RULINGS 6) and start the round: the highest acts first.

    ``dice`` maps a combatant id to the one d6 rolled at the table for it.
    """
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if encounter.state == Encounter.State.ENDED:
        raise CombatConflict(_("The encounter has ended."))
    combatants = [c for c in combatants_loaded(encounter.pk) if not c.dead]
    if not combatants:
        raise CombatConflict(_("Add combatants first."))
    dice = dict(dice or {})
    stray = [k for k in dice if k not in {c.pk for c in combatants}]
    if stray:
        raise CombatError(_("Combatant %(id)s is not in this encounter.") % {"id": stray[0]}, field="dice")
    fighters = {c.pk: fighter(c) for c in combatants}
    people = [Initiative(c.pk, fighters[c.pk].stats["AWA"], fighters[c.pk].stats["RES"],
                         mel=fighters[c.pk].stats["MEL"], acc=fighters[c.pk].stats["ACC"], can_move=not c.cant_move,
                         surprised=c.surprised, prone=c.prone) for c in combatants]
    rollers = _InitiativeDice([(c.pk, dice.get(c.pk, [])) for c in combatants if not c.surprised and not c.cant_move],
                              rng)
    try:
        order = initiative_order(people, rollers, combat_stat=encounter.initiative_stat)
    except RulesError as exc:
        raise CombatError(str(exc), field="dice") from None
    changes = Changes(encounter)
    by_id = {c.pk: c for c in combatants}
    for entry in order.entries:
        combatant = by_id[entry.id]
        changes.watch(combatant)
        combatant.initiative, combatant.initiative_breakdown = entry.initiative, [list(t) for t in entry.breakdown]
        combatant.shock_this_round = 0
    encounter.order = [entry.id for entry in order.entries]
    encounter.state, encounter.turn = Encounter.State.RUNNING, 0
    encounter.round = max(encounter.round, 0) + 1
    ties = [[e.id for e in g.entries] for g in order.groups if g.micro_time]
    full = {"order": [{"combatant": e.id, "initiative": e.initiative, "breakdown": [list(t) for t in e.breakdown]}
                      for e in order.entries], "micro_time": ties, "dice": rollers.rolls}
    first = by_id[encounter.order[0]]
    # Players read the order without the hidden NPCs, and an NPC's initiative without its terms.
    shown = {pk for pk, c in by_id.items() if not hidden(c)}
    public = {"order": [{k: v for k, v in entry.items() if k != "breakdown" or not by_id[entry["combatant"]].is_npc}
                        for entry in full["order"] if entry["combatant"] in shown],
              "micro_time": [kept for tie in ties if len(kept := [pk for pk in tie if pk in shown]) > 1],
              "dice": {pk: roll for pk, roll in rollers.rolls.items() if pk in shown}}
    rolled = said("Round %(round)s: initiative rolled", round=encounter.round)
    first_acts = said("%(rolled)s; %(name)s acts first", rolled=rolled, name=first.name)
    record(changes=changes, kind="initiative", by=by, summary=first_acts if first.pk in shown else rolled,
           data=public, gm_data=full, gm_summary=first_acts)
    return encounter


def _skip_action(combatant: Combatant, changes: Changes, rng) -> list[tuple[str, Combatant]]:
    """A combatant lets its action pass (out cold, or resting): a third of its shock comes back,
    and every second round skipped in a row recovers the quick d6 END ("Damage & Recovery")."""
    changes.watch(combatant)
    combatant.skipped_rounds += 1
    healed_end = 0
    if combatant.character is not None:
        character = combatant.character
        state, report = shock_after_skipped_action(healing_state(character))
        if combatant.skipped_rounds % 2 == 0:
            state, end_report = end_after_skipped_rounds(state, rng=rng)
            healed_end = end_report.total("END")
        save_wounds(character, state)
        healed = report.total("shock")
    else:
        healed = ceil(combatant.shock / 3)
        combatant.shock -= healed
        if combatant.skipped_rounds % 2 == 0 and combatant.end_spent:
            healed_end = min((rng or default_rng).randint(1, 6), combatant.end_spent)
            combatant.end_spent -= healed_end
    notes = []
    if healed:
        notes.append((said("%(name)s gets %(shock)s shock back for the skipped action", name=combatant.name,
                           shock=healed), combatant))
    if healed_end:
        notes.append((said("%(name)s recovers %(end)s END after two skipped rounds", name=combatant.name,
                           end=healed_end), combatant))
    return notes


def _told(notes: list[tuple[Said, Combatant | None]], *, data: dict, gm_data: dict | None = None) -> dict:
    """Record arguments for notes about several combatants: players read the notes about those
    they can see (and the dice only when no hidden NPC rolled); the GM reads them all. The
    notes in the event's data are in English, as kept (the summary is what readers read)."""
    public = [text for text, about in notes if about is None or not hidden(about)]
    complete = [text for text, _ in notes]
    secret = len(public) != len(complete)
    gm_data = {**(gm_data or {}), "notes": [n.english() for n in complete]} if secret else gm_data or {}
    if secret:
        data = {k: v for k, v in data.items() if k != "dice"}
        gm_data.setdefault("dice", data.get("dice"))
    return {"summary": listed(public, separator="; ") if public else said("The turn passes"),
            "data": {**data, "notes": [n.english() for n in public]}, "gm_data": gm_data,
            "gm_summary": listed(complete, separator="; ") if secret else None}


def _lock_characters(combatants) -> None:
    """Lock the characters behind the combatants and read their wounds afresh."""
    ids = [c.character_id for c in combatants if c.character_id]
    fresh = {c.pk: c for c in Character.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")}
    for combatant in combatants:
        if combatant.character_id:
            combatant.character = fresh[combatant.character_id]


@transaction.atomic
def turn_next(*, encounter: Encounter, by, skip: bool = False, hold: bool = False, dice: dict | None = None,
              rng: random.Random | None = None) -> Encounter:
    """Pass the turn (GM). With ``skip`` the acting combatant let its action pass. Whoever is out
    cold misses its action; each missed or skipped action gives a third of the shock back, every
    second one in a row the quick d6 END ("end" dice). A new round starts after the last one."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    _running(encounter)
    combatants = {c.pk: c for c in Combatant.objects.select_for_update(of=("self",), no_key=True)
                  .select_related("character").filter(encounter=encounter)}
    _lock_characters(combatants.values())
    try:
        end_dice = EnteredDice((dice or {}).get("end", []), rng, label="dice end")
    except RulesError as exc:
        raise CombatError(str(exc), field="dice") from None
    changes, notes = Changes(encounter), []
    acting = combatants.get(encounter.order[encounter.turn])
    if acting is not None:
        changes.watch(acting)
        if hold:
            acting.held = True
            notes.append((said("%(name)s holds its action", name=acting.name), acting))
        elif skip:
            notes += _skip_action(acting, changes, end_dice)
        else:
            acting.skipped_rounds = 0
    for _ in range(2 * len(encounter.order) + 1):
        encounter.turn += 1
        if encounter.turn >= len(encounter.order):
            encounter.round, encounter.turn = encounter.round + 1, 0
            for combatant in combatants.values():
                changes.watch(combatant)
                combatant.shock_this_round, combatant.held = 0, False
            notes.append((said("Round %(round)s begins", round=encounter.round), None))
        current = combatants.get(encounter.order[encounter.turn])
        if current is None or current.dead or current.held:
            continue
        if out_cold_now(encounter, current):
            changes.watch(current)
            notes.append((said("%(name)s is out cold and misses the action", name=current.name), current))
            notes += _skip_action(current, changes, end_dice)
            continue
        if current.out_cold_until is not None:
            changes.watch(current)
            current.out_cold_until = None
            notes.append((said("%(name)s comes round", name=current.name), current))
        break
    try:
        end_dice.check_all_used()
    except RulesError as exc:
        raise CombatError(str(exc), field="dice") from None
    acting = combatants[encounter.order[encounter.turn]]
    notes.append((said("%(name)s acts", name=acting.name), acting))
    dice = end_dice.record()
    record(changes=changes, kind="turn", by=by,
           **_told(notes, data={"round": encounter.round, "acting": None if hidden(acting) else acting.pk,
                                "dice": dice},
                   gm_data={"acting": acting.pk} if hidden(acting) else None))
    return encounter


def hold(*, encounter: Encounter, by) -> Encounter:
    """The acting combatant holds its action and the turn passes on (GM); it may come back
    before someone else this round (``act_now``)."""
    return turn_next(encounter=encounter, by=by, hold=True)


@transaction.atomic
def act_now(*, encounter: Encounter, by, combatant_id: int) -> Encounter:
    """A combatant who held its action comes back before the one acting now (GM)."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    _running(encounter)
    combatant = Combatant.objects.select_for_update(of=("self",), no_key=True).select_related("character").filter(
        encounter=encounter, pk=combatant_id).first()
    if combatant is None or not combatant.held:
        raise CombatConflict(_("Only a combatant holding its action this round can come back now."), field="combatant")
    changes = Changes(encounter)
    changes.watch(combatant)
    if encounter.order[encounter.turn] != combatant.pk:  # the turn came back to it when no one else could act
        order = [pk for pk in encounter.order if pk != combatant.pk]
        position = order.index(encounter.order[encounter.turn])
        encounter.order, encounter.turn = order[:position] + [combatant.pk] + order[position:], position
    combatant.held = False
    record(changes=changes, kind="act_now", by=by, summary=said("%(name)s comes back and acts now", name=combatant.name),
           data={"combatant": combatant.pk}, seen=seen_by(combatant))
    return encounter


@transaction.atomic
def encounter_end(*, encounter: Encounter, by) -> Encounter:
    """End the fight: everyone gets the end-of-combat third of their shock back ("Damage & Recovery")."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if encounter.state == Encounter.State.ENDED:
        raise CombatConflict(_("The encounter has already ended."))
    combatants = list(Combatant.objects.select_for_update(of=("self",), no_key=True).select_related("character")
                      .filter(encounter=encounter))
    _lock_characters(combatants)
    changes, notes, still = Changes(encounter), [], []
    for combatant in combatants:
        changes.watch(combatant)
        if combatant.character is not None:
            state, report = shock_after_combat(healing_state(combatant.character))
            save_wounds(combatant.character, state)
            healed = report.total("shock")
        else:
            healed = ceil(combatant.shock / 3)
            combatant.shock -= healed
        if healed:
            notes.append((listed([f"{combatant.name} {healed}"]), combatant))
        # The fight's clock stops at the end of this round; a knock-out runs on past it, on the
        # campaign clock for a character (the next fight or the sheet reads it from there).
        left = max((combatant.out_cold_until or 0) - encounter.round * encounter.round_seconds, 0)
        if game_time.open_ended(left):  # the table's "10,000+": that long at least, then the GM says
            left = game_time.OPEN_ENDED_SECONDS
            still.append((said("%(name)s for %(seconds)s s or more (the GM says when they wake)",
                                name=combatant.name, seconds=f"{left:,}"), combatant))
        elif left > 0:
            still.append((said("%(name)s for %(time)s", name=combatant.name, time=game_time.duration_said(left)),
                          combatant))
        if combatant.character is not None:
            out_cold_carry(combatant.character, seconds=left, game_hours=encounter.campaign.game_hours)
    encounter.state = Encounter.State.ENDED
    public = [text for text, about in notes if not hidden(about)]
    complete = [text for text, _ in notes]
    out_public = [text for text, about in still if not hidden(about)]
    out_complete = [text for text, _ in still]

    def ends(parts, out) -> Said:
        return listed([said("The encounter ends"),
                       *([said("; shock back at the end of combat: %(who)s", who=listed(parts))] if parts else []),
                       *([said("; still out cold: %(who)s", who=listed(out))] if out else [])], separator="")

    def english(parts):
        return [part.english() for part in parts]

    secret = public != complete or out_public != out_complete
    record(changes=changes, kind="end", by=by, summary=ends(public, out_public),
           data={"shock_back": english(public), "out_cold": english(out_public)},
           gm_data={"shock_back": english(complete), "out_cold": english(out_complete)} if secret else None,
           gm_summary=ends(complete, out_complete) if secret else None)
    return encounter


@transaction.atomic
def reaction(*, encounter: Encounter, by, combatant_id: int, milliseconds, has_next_initiative: bool = False,
             dice: dict | None = None, rng: random.Random | None = None) -> CombatEvent:
    """A reaction inside micro-time: automatic with the next initiative, else a NIM save on 4d6
    at the time chart's modifier for the milliseconds ("Time", Micro-Time; RULINGS 5)."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    _running(encounter)
    combatant = Combatant.objects.filter(encounter=encounter, pk=combatant_id).first()
    if combatant is None:
        raise CombatError(_("Combatant %(id)s is not in this encounter.") % {"id": combatant_id}, field="combatant")
    if combatant.character_id:
        combatant.character = character_for_combat(character_id=combatant.character_id)
    try:
        slots = DiceSlots(dice, ("save",), rng)
        result = reaction_save(nim=fighter(combatant).stats["NIM"], milliseconds=milliseconds,
                               has_next_initiative=has_next_initiative, rng=slots["save"])
        slots.check_all_used()
    except RulesError as exc:
        raise CombatError(str(exc), field="dice" if "dice" in str(exc) else "milliseconds") from None
    # One target and one dice count, the ones rolled (the miracle rule's, when the save escalated).
    data = {"combatant": combatant.pk, "milliseconds": float(milliseconds), "automatic": result.automatic,
            "modifier": result.modifier, "success": result.success,
            "target": result.target if result.check is None else result.check.effective_target,
            "dice_count": None if result.check is None else result.check.dice,
            "faces": None if result.check is None else list(result.check.faces),
            "breakdown": [list(t) for t in result.breakdown], "dice": slots.record()}
    summary = (said("%(name)s reacts in time", name=combatant.name) if result.success else
               said("%(name)s is too slow to react", name=combatant.name))
    return record(changes=Changes(encounter), kind="reaction", by=by, summary=summary, data=data,
                  seen=seen_by(combatant))


@transaction.atomic
def undo_last(*, encounter: Encounter, by) -> CombatEvent:
    """Take back the last event that is not an undo, and everything it changed (GM)."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    last = (encounter.events.filter(undone_by__isnull=True).exclude(kind__in=("undo", "create"))
            .order_by("-id").first())
    if last is None:
        raise CombatConflict(_("Nothing to undo."))
    restore(encounter=encounter, event=last)
    changes = Changes(encounter)
    return record(changes=changes, kind="undo", by=by, summary=said("Undone: %(event)s", event=kept(last.summary, last.said)),
                  data={"undone": last.pk}, seen=last.seen, undoes=last)


def pay_and_wound(*, combatant: Combatant, changes: Changes, trauma: int = 0, shock: int = 0, end: int = 0,
                  stat_damage: dict | None = None) -> None:
    """Land END spent and wounds on a combatant: a character through the wounds service."""
    changes.watch(combatant)
    if combatant.character is not None:
        character = combatant.character
        state = apply_damage(healing_state(character), trauma=trauma, shock=shock, end=end,
                             stat_damage=stat_damage)
        save_wounds(character, state)
        return
    combatant.trauma += trauma
    combatant.shock += shock
    combatant.end_spent += end
    damage = dict(combatant.stat_damage or {})
    for stat, points in (stat_damage or {}).items():
        damage[stat] = damage.get(stat, 0) + points
    combatant.stat_damage = damage

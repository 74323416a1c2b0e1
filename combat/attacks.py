"""Attacks and dying rounds: the target number and its odds before the roll, then every
consequence applied in one transaction (END, hit location, trauma, shock and its save, stat
damage, out cold, dying), each with its terms.

Article: "Combat", "Hit Location", "Damage & Recovery", "Death"; RULINGS.md section 6.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import ceil

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.changes import change_set
from campaign.permissions import OWN_ATTACK_SLOTS, typed_dice_check
from characters.selectors import character_for_combat
from rolls.services import record_roll
from rulebook import RulesError, game_time
from rulebook.combat import ATTACK_DICE_SLOTS, LOCATION_DIE, attack_odds, attack_with_damage
from rulebook.damage import dying_round, restore_from_dying
from rulebook.hit_locations import LOCATION_NAMES, stat_risks
from rulebook.dice import DiceSlots, check_odds, roll_check
from rulebook.tables import aiming_bonus
from rulebook.words import Said, kept, listed, said

from .errors import CombatConflict, CombatError
from .fighters import Fighter, fighter
from .log import Changes, record
from .models import Combatant, CombatEvent, Encounter
from .services import _running, hidden, locked, out_cold_now, pay_and_wound, seen_by


@dataclass(frozen=True)
class AttackRequest:
    attacker: int
    target: int
    weapon: int | str | None = None
    stat: str = "ACC"
    aimed_area: str = "whole_body"
    range_m: float | None = None
    aim_seconds: float = 0
    cover: int = 0  # size-index steps the target's cover hides (0: none)
    modifier: int = 0
    chosen_location: str | None = None
    suppression: bool = False  # pointed roughly and fired: −5 in place of any aiming
    location_die: int = 100  # the GM may mandate a smaller hit-location die than d%

    @classmethod
    def stored(cls, values: dict) -> AttackRequest:
        """A request kept in the log: what a waiting attack asked, read with today's fields (a
        request stored before a field went away, such as the old weapon class, still reads)."""
        return cls(**{name: value for name, value in values.items() if name in cls.__dataclass_fields__})


def _fraction(p) -> dict:
    return {"probability": f"{p.numerator}/{p.denominator}", "percent": round(float(p) * 100, 2)}


def _pair(encounter: Encounter, request: AttackRequest, *, lock: bool, is_gm: bool) -> tuple[Fighter, Fighter]:
    if request.modifier and not is_gm:  # the situational modifier is the GM's call, not the attacker's
        raise CombatError(_("Only the GM gives a situational modifier; leave it at 0."), field="modifier")
    if request.location_die != LOCATION_DIE and not is_gm:
        raise CombatError(_("Only the GM mandates a smaller hit-location die; leave it at d100."), field="location_die")
    query = Combatant.objects.filter(encounter=encounter, pk__in=[request.attacker, request.target])
    if lock:
        query = query.select_for_update(of=("self",), no_key=True)
    # For players an unrevealed NPC does not exist: same answer as an id never used.
    found = {c.pk: c for c in query if is_gm or not hidden(c)}
    for name, pk in (("attacker", request.attacker), ("target", request.target)):
        if pk not in found:
            raise CombatError(_("Combatant %(id)s is not in this encounter.") % {"id": pk}, field=name)
    if request.attacker == request.target:
        raise CombatError(_("A combatant does not attack itself."), field="target")
    for combatant in found.values():
        if combatant.character_id:
            combatant.character = character_for_combat(character_id=combatant.character_id, lock=lock)
    return fighter(found[request.attacker]), fighter(found[request.target])


def _weapon(attacker: Fighter, choice) -> dict:
    if not attacker.weapons:
        raise CombatError(_("%(name)s has no weapon.") % {"name": attacker.combatant.name}, field="weapon")
    if choice is None:
        return attacker.weapons[0]
    for weapon in attacker.weapons:
        if weapon["id"] == choice or weapon["name"] == choice:
            return weapon
    raise CombatError(_("%(name)s has no weapon %(weapon)s.")
                      % {"name": attacker.combatant.name, "weapon": repr(choice)}, field="weapon")


def _terms(encounter: Encounter, attacker: Fighter, target: Fighter, request: AttackRequest, weapon: dict) -> dict:
    if request.stat not in ("ACC", "MEL"):
        raise CombatError(_("Attack with ACC or MEL."), field="stat")
    bonus = attacker.combatant.follow_up.get(str(target.combatant.pk), 0)
    try:  # the weapon's class caps the aim: a pistol's at 2 s; suppression fire takes no aim
        aimed = request.aim_seconds and not request.suppression
        aim = aiming_bonus(request.aim_seconds, weapon["aiming"]) if aimed else 0
    except RulesError as exc:
        raise CombatError(str(exc), field="aim_seconds") from None
    return {"attack_stat": attacker.stats[request.stat], "weapon_ranks": weapon["ranks"],
            "defense": target.defense().total, "range_m": request.range_m, "target_size": -request.cover,
            "aiming_bonus": aim, "gm_modifier": request.modifier + bonus, "aimed_area": request.aimed_area,
            "suppression": request.suppression}


def _ranks_label(weapon: dict) -> str:
    """Say whose ranks an attack adds: the weapon skill's, an NPC weapon's, or none (unproficient)."""
    if weapon.get("skill"):
        return _("weapon skill ranks (%(skill)s)") % {"skill": weapon["skill"]}
    if weapon["ranks"]:
        return _("weapon skill ranks (%(weapon)s)") % {"weapon": weapon["name"]}
    return _("unproficient: no weapon skill covers the %(weapon)s") % {"weapon": weapon["name"]}


def attack_preview(*, encounter: Encounter, request: AttackRequest, is_gm: bool = True) -> dict:
    """Return the target number, its terms and the exact odds, changing nothing."""
    attacker, target = _pair(encounter, request, lock=False, is_gm=is_gm)
    weapon = _weapon(attacker, request.weapon)
    terms = _terms(encounter, attacker, target, request, weapon)
    try:
        odds = attack_odds(**terms, cover=bool(request.cover))
    except RulesError as exc:
        raise CombatError(str(exc)) from None
    # The rulebook's label is in the reader's language, as gettext gives it here.
    ranks_label = _("weapon skill ranks")
    breakdown = [[_ranks_label(weapon) if label in ("weapon skill ranks", ranks_label) else label, value]
                 for label, value in odds.target.breakdown]
    if attacker.combatant.follow_up.get(str(target.combatant.pk)):
        breakdown.append([_("after last round's critical hit (inside the GM modifier)"), 2])
    preview = {"target_number": odds.target.total, "breakdown": breakdown, "dice": odds.odds.dice,
               "effective_target": odds.odds.effective_target, **_fraction(odds.hit),
               "critical": _fraction(odds.critical),
               "near_miss": _fraction(odds.near_miss_one_up + odds.near_miss_two_up), "weapon": weapon["name"],
               # Which stats a hit at the aimed area damages, per 100 hits: what a called shot weighs.
               "stat_risks": [[stat, round(float(share) * 100)]
                              for stat, share in stat_risks(request.aimed_area).items()][:6]}
    if is_gm or not target.combatant.is_npc:  # an NPC's Defense terms (RES, armour) stay behind the screen
        preview["defense"] = target.defense().breakdown
    return preview


def _check_turn(encounter: Encounter, attacker: Fighter, *, is_gm: bool) -> None:
    if attacker.combatant.dead or attacker.dying or out_cold_now(encounter, attacker.combatant):
        raise CombatConflict(_("%(name)s cannot act now.") % {"name": attacker.combatant.name}, field="attacker")
    if not is_gm and encounter.order[encounter.turn] != attacker.combatant.pk:
        raise CombatConflict(_("It is not %(name)s's turn.") % {"name": attacker.combatant.name}, field="attacker")


@transaction.atomic
def attack_make(*, encounter: Encounter, by, request: AttackRequest, dice: dict | None = None, is_gm: bool = True,
                idempotency_key: str | None = None, rng: random.Random | None = None,
                answers: CombatEvent | None = None) -> CombatEvent:
    """Roll an attack and apply everything it does (see the module docstring).

    With an ``idempotency_key`` seen before, return that attack's event and roll nothing.
    """
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if idempotency_key:
        done = CombatEvent.objects.filter(encounter=encounter, idempotency_key=idempotency_key).first()
        if done is not None:
            if done.kind != "attack" or done.gm_data.get("attacker") != request.attacker:
                raise CombatConflict(_("This idempotency key was already used for another action."),
                                     field="idempotency_key")
            return done
    _running(encounter)
    typed_dice_check(encounter.campaign_id, is_gm=is_gm, dice=dice, own_slots=OWN_ATTACK_SLOTS)
    attacker, target = _pair(encounter, request, lock=True, is_gm=is_gm)
    _check_turn(encounter, attacker, is_gm=is_gm)
    weapon = _weapon(attacker, request.weapon)
    terms = _terms(encounter, attacker, target, request, weapon)
    try:
        slots = DiceSlots(dice, ATTACK_DICE_SLOTS, rng)
        outcome = attack_with_damage(**terms, target_wounds=target.wound_state(),
                                     target_armour_rating=target.armour_rating,
                                     damage_points=weapon["damage_points"], rate_of_fire=weapon.get("rate_of_fire", 1),
                                     extra_damage=weapon.get("extra_damage", 0),
                                     attack_kind="physical" if weapon.get("melee") else "trigger",
                                     endurance=attacker.endurance, dice=slots, cover=bool(request.cover),
                                     chosen_location=request.chosen_location, location_sides=request.location_die)
        slots.check_all_used()
    except RulesError as exc:
        raise CombatError(str(exc), field="dice" if "dice" in str(exc) else "detail") from None
    changes = Changes(encounter)
    attack, hit = outcome.attack, outcome.hit
    pay_and_wound(combatant=attacker.combatant, changes=changes, end=attack.endurance_cost)
    attacker.combatant.follow_up = {k: v for k, v in attacker.combatant.follow_up.items()
                                    if k != str(target.combatant.pk)}
    attacker.combatant.skipped_rounds = 0
    result = {"attacker": attacker.combatant.pk, "target": target.combatant.pk, "weapon": weapon["name"],
              "target_number": attack.target.total, "breakdown": [list(t) for t in attack.target.breakdown],
              "roll": {"faces": list(attack.check.faces), "total": attack.check.total, "margin": attack.check.margin},
              "outcome": attack.outcome, "critical": attack.critical, "area_hit": attack.area_hit,
              "end_paid": attack.endurance_cost, "dice": slots.record()}
    attempt = said("%(attacker)s attacks %(target)s with %(weapon)s", attacker=attacker.combatant.name,
                   target=target.combatant.name, weapon=weapon["name"])
    summary = said("%(attempt)s: %(outcome)s", attempt=attempt,
                   outcome=outcome_words(attack.outcome, critical=attack.critical))
    if hit is not None:
        location = attack.location
        result["location"] = {"location": location.location, "part": location.part,
                              "critical_location": location.critical_location,
                              "breakdown": [list(t) for t in location.breakdown]}
        result["damage"] = {"rolled": outcome.damage.total, "breakdown": [list(t) for t in outcome.damage.breakdown]}
        stat_damage: dict[str, int] = {}
        for stat, points in hit.stat_damage:
            stat_damage[stat] = stat_damage.get(stat, 0) + points
        pay_and_wound(combatant=target.combatant, changes=changes, trauma=hit.trauma, shock=hit.shock_taken,
                      stat_damage=stat_damage)
        victim = target.combatant
        victim.shock_this_round = hit.round_shock
        out = hit.unconscious_seconds if hit.unconscious_seconds is not None else (
            hit.unconscious_minutes * 60 if hit.unconscious_minutes is not None else None)
        if out:
            until = game_time.ends_at(round_number=encounter.round, round_seconds=encounter.round_seconds,
                                      seconds=out, acts_later=victim.pk in encounter.order[encounter.turn + 1:])
            victim.out_cold_until = max(victim.out_cold_until or 0, until)
        dying = fighter(victim).dying  # from the wounds as now stored: the one rule the sheet reads
        if dying and not target.dying:  # newly dying: its rounds start again at the first
            victim.dying_modifier = None
        if location.next_attack_bonus:
            attacker.combatant.follow_up = {**attacker.combatant.follow_up,
                                            str(victim.pk): location.next_attack_bonus}
        result.update({
            "trauma": hit.trauma, "shock": hit.shock_taken, "shock_rolled": hit.full_shock,
            "shock_this_round": hit.round_shock, "shock_threshold": target.shock_threshold,
            "save": None if hit.save is None else {
                # The target and dice it was rolled at (the miracle rule's, when it escalated).
                "target": hit.save.check.effective_target, "faces": list(hit.save.check.faces),
                "total": hit.save.check.total, "dice": hit.save.check.dice, "saved": hit.save.saved,
                "breakdown": [list(t) for t in hit.save.breakdown]},
            "unconscious_seconds": None if hit.unconscious_seconds is None else float(hit.unconscious_seconds),
            "unconscious_minutes": None if hit.unconscious_minutes is None else float(hit.unconscious_minutes),
            # The time chart's last row is "10,000+": the rest of the fight, not a count of actions.
            "out_cold_seconds": None if not out else min(ceil(out), game_time.OPEN_ENDED_SECONDS),
            "out_cold_rest_of_fight": bool(out) and game_time.open_ended(out),
            "actions_missed": None if not out or game_time.open_ended(out) else
            game_time.actions_missed(out, encounter.round_seconds),
            "stat_damage": stat_damage, "dying": dying,
            "hit_breakdown": [list(t) for t in hit.breakdown],
        })
    told = what_it_did(result, round_seconds=encounter.round_seconds)
    hidden_target = target.combatant.is_npc
    public = result if not hidden_target else {k: v for k, v in result.items()
                                               if k not in ("trauma", "shock", "shock_rolled", "shock_this_round",
                                                            "shock_threshold", "hit_breakdown", "save", "stat_damage")}
    gm_data, gm_summary = result, None
    if hidden_target:  # players read what a hit did to an NPC as its place and how hurt it looks
        public["band"] = fighter(target.combatant).band()
        gm_summary = summary + told
        summary += what_it_did(public, round_seconds=encounter.round_seconds)
    else:
        summary += told
    seen = seen_by(attacker.combatant, target.combatant)
    # The feed tells the attack roll in its own words (what it hit, what the wound did is the log's).
    record_roll(campaign=encounter.campaign_id, by=by, kind="combat",
                label=said("%(attempt)s: %(outcome)s", attempt=attempt,
                           outcome=outcome_words(attack.outcome, critical=attack.critical)),
                faces=result["dice"].get("attack", []), total=attack.check.total, success=attack.check.success,
                probability=check_odds(attack.target.total, 3).probability, seen=seen,
                detail={"critical": True} if attack.critical else None)
    return record(changes=changes, kind="attack", by=by, summary=summary, data=public, gm_data=gm_data,
                  gm_summary=gm_summary, idempotency_key=idempotency_key, answers=answers, seen=seen)


def outcome_words(outcome: str, *, critical: bool = False) -> Said:
    """An attack roll's result in words: "critical hit" (3d6 showing 1-1-1), "hit", "near miss", "miss"."""
    if critical and outcome == "hit":
        return said("critical hit")
    return {"hit": said("hit"), "near_miss": said("near miss"), "miss": said("miss")}[outcome]


def what_it_did(result: dict, *, round_seconds: int) -> Said:
    """The rest of an attack's log line after its outcome: where the hit landed and everything it
    did, from what its reader may see (an NPC's numbers only behind the screen, its look else)."""
    if "location" not in result:
        return listed([])
    location = result["location"]["location"]
    where = said(" at the %(location)s", location=Said(LOCATION_NAMES[location]) if location in LOCATION_NAMES
                 else location.replace("_", " "))
    did: list[Said | str] = []
    if "trauma" in result:
        did.append(said("%(trauma)s trauma, %(shock)s shock", trauma=result["trauma"], shock=result["shock"]))
        save = result.get("save")
        if save is not None:
            values = {"target": save["target"], "dice": save.get("dice", 4),
                      "rolled": save.get("total", sum(save["faces"]))}
            did.append(said("shock save made (needs ≤ %(target)s on %(dice)sd6, rolled %(rolled)s)", **values)
                       if save["saved"] else
                       said("shock save failed (needs ≤ %(target)s on %(dice)sd6, rolled %(rolled)s)", **values))
        did += [f"{stat} −{points}" for stat, points in sorted(result.get("stat_damage", {}).items()) if points]
    elif result.get("band"):
        did.append(said("looks %(band)s", band=Said(result["band"])))
    if result.get("out_cold_seconds"):
        did.append(said("out cold %(time)s", time=game_time.out_cold_said(result["out_cold_seconds"], round_seconds)))
    if result.get("dying"):
        did.append(said("dying"))
    return where + said(": %(did)s", did=listed(did)) if did else where


@transaction.atomic
def dying_check(*, encounter: Encounter, by, combatant_id: int, medical_target: int | None = None,
                medical_help: bool = False, dice: dict | None = None, rng: random.Random | None = None) -> CombatEvent:
    """Roll one round of dying ("Death"): a CON check at the running modifier.

    A medic's check that round (``medical_target`` on 3d6, the "medical" dice) or the GM's word
    (``medical_help``) turns the round's −1 into +1. Dice: "medical" (3d6), then "save" (4d6).
    """
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    _running(encounter)
    combatant = (Combatant.objects.select_for_update(of=("self",), no_key=True).select_related("character")
                 .filter(encounter=encounter, pk=combatant_id).first())
    if combatant is None:
        raise CombatError(_("Combatant %(id)s is not in this encounter.") % {"id": combatant_id}, field="combatant")
    if combatant.character_id:
        combatant.character = character_for_combat(character_id=combatant.character_id, lock=True)
    me = fighter(combatant)
    if not me.dying:
        raise CombatConflict(_("%(name)s is not dying.") % {"name": combatant.name}, field="combatant")
    try:
        slots = DiceSlots(dice, ("medical", "save"), rng)
        medic = None
        if medical_target is not None:
            medic = roll_check(medical_target, 3, slots["medical"])
            medical_help = medic.success
        round_ = dying_round(con=me.stats["CON"], previous_modifier=combatant.dying_modifier,
                             medical_help=medical_help, rng=slots["save"])
        slots.check_all_used()
    except RulesError as exc:
        raise CombatError(str(exc), field="dice") from None
    changes = Changes(encounter)
    changes.watch(combatant)
    combatant.dying_modifier = round_.modifier
    result = {"combatant": combatant.pk, "modifier": round_.modifier, "target": round_.check.effective_target,
              "dice": round_.check.dice,
              "breakdown": [list(t) for t in round_.breakdown], "faces": list(round_.check.faces),
              "survived": round_.survived, "restored": round_.restored, "medical_help": round_.medical_help,
              "medical": None if medic is None else {"target": medic.target, "faces": list(medic.faces),
                                                    "success": medic.success}, "dice": slots.record()}
    if not round_.survived:
        combatant.dead, combatant.dying_modifier = True, None
        summary = said("%(name)s fails the CON check and dies", name=combatant.name)
    elif round_.restored:
        restored = restore_from_dying(me.wound_state())
        healed = {s: me.stat_damage.get(s, 0) - restored.stat_damage.get(s, 0) for s in me.stat_damage}
        pay_and_wound(combatant=combatant, changes=changes, trauma=restored.trauma - me.trauma,
                      stat_damage={s: -p for s, p in healed.items() if p})
        combatant.dying_modifier = None
        summary = said("%(name)s is saved: back to 1 HP", name=combatant.name)
    else:
        summary = said("%(name)s holds on (CON check at %(modifier)s)", name=combatant.name,
                       modifier=f"{round_.modifier:+d}")
    record_roll(campaign=encounter.campaign_id, by=by, kind="combat", label=summary,
                faces=result["dice"].get("save", []), total=round_.check.total, success=round_.survived,
                probability=check_odds(round_.check.target, 4).probability, seen=seen_by(combatant))
    return record(changes=changes, kind="dying", by=by, summary=summary, data=result, seen=seen_by(combatant))


@transaction.atomic
def attack_request(*, encounter: Encounter, by, request: AttackRequest, dice: dict | None = None,
                   idempotency_key: str | None = None) -> CombatEvent:
    """A player's attack when the GM approves attacks first: checked now, rolled on approval.

    With an ``idempotency_key`` seen before, return that request and add none."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    if idempotency_key:
        done = CombatEvent.objects.filter(encounter=encounter, idempotency_key=idempotency_key).first()
        if done is not None:
            if done.kind != "request" or done.data["request"].get("attacker") != request.attacker:
                raise CombatConflict(_("This idempotency key was already used for another action."),
                                     field="idempotency_key")
            return done
    _running(encounter)
    typed_dice_check(encounter.campaign_id, is_gm=False, dice=dice, own_slots=OWN_ATTACK_SLOTS)
    attacker, target = _pair(encounter, request, lock=False, is_gm=False)
    _check_turn(encounter, attacker, is_gm=False)
    _weapon(attacker, request.weapon)
    data = {"request": {**request.__dict__}, "dice": dice or {}, "status": "waiting for the GM"}
    return record(changes=Changes(encounter), kind="request", by=by, idempotency_key=idempotency_key,
                  summary=said("%(attacker)s wants to attack %(target)s", attacker=attacker.combatant.name,
                               target=target.combatant.name), data=data)


@transaction.atomic
def request_answer(*, encounter: Encounter, by, request_id: int, approve: bool) -> CombatEvent:
    """The GM approves a player's attack (it is rolled now) or refuses it."""
    change_set(campaign=encounter.campaign_id, by=by)
    encounter = locked(encounter.pk)
    pending = CombatEvent.objects.filter(encounter=encounter, pk=request_id, kind="request").first()
    if pending is None:
        raise CombatError(_("No such attack request in this encounter."), field="request")
    if CombatEvent.objects.filter(answers=pending).exists() or hasattr(pending, "undone_by"):
        raise CombatConflict(_("That request was already answered."), field="request")
    if approve:
        return attack_make(encounter=encounter, by=by, request=AttackRequest.stored(pending.data["request"]),
                           dice=pending.data.get("dice"), is_gm=True, answers=pending)
    return record(changes=Changes(encounter), kind="refused", by=by, summary=said("The GM refuses: %(request)s",
                                                                                  request=kept(pending.summary, pending.said)),
                  data={"request": pending.pk}, answers=pending)

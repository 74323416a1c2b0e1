"""Reads for the tracker, scoped by who is looking: players never see GM-only details."""

from __future__ import annotations

from django.utils.translation import gettext as _

from campaign.audience import visible
from rulebook import game_time
from rulebook.words import told

from .fighters import combatants_loaded, fighter
from .models import CombatEvent, Encounter, SystemFight
from .permissions import EncounterAccess


def _out_cold(combatant, encounter: Encounter) -> dict:
    """How long a combatant stays out cold, from the start of this round: seconds, and the words
    of its card ("until round 4", "30 min, until round 182")."""
    left = game_time.seconds_left(until=combatant.out_cold_until, round_number=encounter.round,
                                  round_seconds=encounter.round_seconds)
    if not left:
        return {"out_cold_seconds": 0, "out_cold": ""}
    if game_time.open_ended(left):
        return {"out_cold_seconds": left, "out_cold": game_time.REST_OF_FIGHT}
    back = _("until round %(round)s") % {
        "round": f"{game_time.back_in_round(combatant.out_cold_until, encounter.round_seconds):,}"}
    return {"out_cold_seconds": left,
            "out_cold": back if left < game_time.MINUTE else f"{game_time.duration(left)}, {back}"}


def _combatant_view(combatant, encounter: Encounter, *, is_gm: bool, acting: int | None) -> dict | None:
    if combatant.is_npc and not combatant.revealed and not is_gm:
        return None
    me = fighter(combatant)
    view = {"id": combatant.pk, "name": combatant.name, "npc": combatant.is_npc, "revealed": combatant.revealed,
            "character": combatant.character_id, "initiative": combatant.initiative,
            "acting": combatant.pk == acting, **_out_cold(combatant, encounter),
            "dying": me.dying, "dead": combatant.dead, "surprised": combatant.surprised,
            "prone": combatant.prone, "cant_move": combatant.cant_move, "held": combatant.held, "band": me.band()}
    if is_gm or not combatant.is_npc:
        view.update({"hp": me.hit_points - me.trauma, "hp_max": me.hit_points, "trauma": me.trauma,
                     "shock": me.shock, "shock_threshold": me.shock_threshold, "end": me.endurance,
                     "end_max": me.endurance_max, "stat_damage": me.stat_damage,
                     "defense": me.defense().total,
                     "weapons": [{"id": w["id"], "name": w["name"], "damage": w["damage"], "melee": bool(w.get("melee"))}
                                 for w in me.weapons],
                     "initiative_breakdown": combatant.initiative_breakdown, "dying_modifier": combatant.dying_modifier})
    return view


def event_view(event: CombatEvent, *, is_gm: bool) -> dict:
    """An entry of the log as its reader may see it (``gm_data`` adds the GM's numbers and, where
    hidden NPCs were left out of the public wording, the GM's ``summary``)."""
    data = {**event.data, **event.gm_data} if is_gm else event.data
    data.pop("summary", None)  # an older event kept the GM's wording here: gm_told reads it
    return {"id": event.id, "kind": event.kind, "summary": event.gm_told if is_gm else event.told,
            "at": event.created_at, "data": data, "undone": hasattr(event, "undone_by")}


def log_after(*, access: EncounterAccess, after: int = 0, limit: int = 200) -> list[dict]:
    """Return the log's events after ``after`` that the viewer may see, oldest first."""
    events = visible(CombatEvent.objects.filter(encounter=access.encounter, id__gt=after).select_related("undone_by"),
                     user=access.user, is_gm=access.is_gm)
    return [event_view(e, is_gm=access.is_gm) for e in events.order_by("id")[:limit]]


def tracker(*, access: EncounterAccess) -> dict:
    """Return the whole tracker as the viewer may see it, in a fixed number of queries."""
    encounter: Encounter = access.encounter
    acting = encounter.order[encounter.turn] if encounter.order and encounter.state == "running" else None
    combatants = combatants_loaded(encounter.pk)
    views = {c.pk: _combatant_view(c, encounter, is_gm=access.is_gm, acting=acting) for c in combatants}
    ordered = [views[pk] for pk in encounter.order if views.get(pk)]
    ordered += [v for pk, v in views.items() if v and pk not in encounter.order]
    last = CombatEvent.objects.filter(encounter=encounter).order_by("-id").values_list("id", flat=True).first()
    out = {"id": encounter.pk, "name": encounter.name, "state": encounter.state, "round": encounter.round,
           "acting": acting if views.get(acting) else None, "initiative_stat": encounter.initiative_stat,
           "round_seconds": encounter.round_seconds, "combatants": ordered, "last_event": last or 0}
    if access.is_gm:
        out["gm_notes"] = encounter.gm_notes
    return out


def requests_pending(*, encounter: Encounter) -> list[CombatEvent]:
    """Return players' attacks waiting for the GM, oldest first."""
    return list(encounter.events.filter(kind="request", answer__isnull=True, undone_by__isnull=True).order_by("id"))


def system_fight_list(*, campaign_id: int):
    """The campaign's fights of other rule sets, newest first (the caller has checked membership)."""
    return SystemFight.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-id")


def blow_view(blow: dict, fight=None, *, is_gm: bool = True) -> dict:
    """What the page and the API show of a blow of another rule set (not what it kept for its
    undo). Players get no terms of a blow an NPC took part in: they hold the NPC's numbers."""
    view = {**{key: blow.get(key) for key in ("n", "attacker", "target", "breakdown", "dice", "probability",
                                              "undone")},
            "summary": told(blow.get("summary") or "", blow.get("said")), "by": blow.get("struck_by") or ""}
    if not is_gm and fight is not None and any(not fight.fighters.get(name) for name in (view["attacker"],
                                                                                          view["target"])):
        # Nor the words that carry them (an NPC's Endurance left, a margin that gives its DV away).
        view["breakdown"] = []
        if blow.get("public"):
            view["summary"] = told(blow["public"], blow.get("public_said"))
    return view


#: What players see of an NPC's condition: its state and the wounds anyone could see, no numbers.
NPC_LINES_SEEN = ("Wounds",)


def system_fight_view(*, fight, is_gm: bool = True) -> dict:
    """What a fight of another rule set shows: the order with each fighter's standing (their
    condition as the rulebook reads it), the record by round or turn, and the blows, newest first.

    Players see no NPC's numbers (its Fatigue, Endurance or damage against its Health, the terms
    of a blow it took part in), as in a Zener Gate encounter; the GM sees everything. One query
    for the sheets however many fight."""
    from characters.models import SystemSheet
    from rulebook.systems import exchanges
    from rulebook.systems.core_turns import DeclarationTurns
    from rulebook.systems.sheets import spec_for
    from rulebook.systems.zerospace_turns import TurnOrder

    defaults = {p.name: p.default for p in spec_for(fight.system).numbers}
    mode = fight.rulings().get("damage_mode", 0)
    ids = [pk for pk in fight.fighters.values() if pk]
    sheets = {s.pk: s for s in SystemSheet.objects.filter(pk__in=ids).only("pk", "numbers", "condition", "pools",
                                                                           "owner_id")}

    def standing(name: str) -> dict:
        sheet = sheets.get(fight.fighters.get(name))
        if sheet is not None:
            numbers, condition = {**defaults, **sheet.numbers}, sheet.condition
        else:
            npc = fight.npcs.get(name, {})
            numbers, condition = {**defaults, **npc.get("numbers", {})}, npc.get("condition")
            if not is_gm:
                shown = exchanges.standing(fight.system, condition, numbers, damage_mode=mode)
                return {"lines": [line for line in shown["lines"] if line[0] in NPC_LINES_SEEN],
                        "state": shown["state"], "penalty": ""}
        return exchanges.standing(fight.system, condition, numbers, damage_mode=mode)

    if fight.system == "core_rules":
        turns = DeclarationTurns.from_state(fight.state)
        record: dict[int, list[str]] = {}
        for turn, name, what in turns.record:
            record.setdefault(turn, []).append(f"{name} {what}")
        def reaction(name: str) -> str:
            """SOM and the reaction check's chance (V.5: a d10 at or under SOM); an NPC's for the GM."""
            if not is_gm and not fight.fighters.get(name):
                return ""
            som = turns.scores[name][0]
            return _("SOM %(som)s: a reaction check succeeds %(percent)s %% of the time") % {"som": som,
                                                                                          "percent": som * 10}

        order = [{"name": n, "sheet": fight.fighters.get(n), "acting": n == turns.declaring, "held": False,
                  "gives_up_next": False, "sits_out": n in turns.sitting_out, "standing": standing(n),
                  "reaction": reaction(n)} for n in turns.order]
        head = {"round": turns.turn, "acting": turns.declaring, "unit": "Turn"}
    else:
        turn_order = TurnOrder.from_state(fight.state)
        record = {}
        for turn in turn_order.record:
            record.setdefault(turn.round, []).append(str(turn))
        order = [{"name": n, "sheet": fight.fighters.get(n), "acting": n == turn_order.acting,
                  "held": n in turn_order.held, "gives_up_next": n in turn_order.sacrificed, "sits_out": False,
                  "standing": standing(n), "reaction": ""} for n in turn_order.order]
        head = {"round": turn_order.round if turn_order.position >= 0 else 0, "acting": turn_order.acting,
                "unit": "Round"}
    blows = [blow_view(blow, fight, is_gm=is_gm) for blow in reversed(fight.blows)]
    return {**head, "order": order, "ended": fight.ended, "blows": blows,
            "rounds": [{"round": number, "turns": turns} for number, turns in sorted(record.items(), reverse=True)]}

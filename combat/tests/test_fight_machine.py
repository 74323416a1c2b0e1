"""Long random fights over the API: never a server error, undo puts back exactly what was there,
and no number leaves its column's range (a hypothesis state machine).

Each fight is a GM running a player's character and two NPCs (one hidden, one frail enough for
the time chart to run off its end) through attacks with any dice, turns, skips, holds, reveals,
dying rounds, undos and the end, for up to ``STEPS`` steps. The server's own dice come from a
``random.Random`` seeded by the fight, so a failure replays exactly. Each fight runs in a
savepoint rolled back after it.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from django.db import connection, models, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from characters import items
from characters.models import Character
from combat.models import Combatant, CombatEvent, Encounter
from rulebook import dice as rulebook_dice

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

FIGHTS = int(os.environ.get("FIGHTS", 100))  # FIGHTS=1000 explores further by hand
STEPS = 20

TOUGH = {"name": "Syndicate Heavy", "revealed": True, "stats": {"CON": 16, "MEL": 14, "ACC": 13, "NIM": 12},
         "armour_rating": 3, "armour_type": 2,
         "weapons": [{"name": "Shotgun", "damage_points": 12, "rate_of_fire": 2, "ranks": 2},
                     {"name": "Machete", "damage_points": 6, "melee": True, "ranks": 1}]}
HIDDEN = {"name": "Rooftop Sniper", "revealed": False, "stats": {"CON": 11, "ACC": 17},
          "weapons": [{"name": "Long rifle", "damage_points": 9, "ranks": 3}]}
#: SHK 1: any shock runs far past the threshold, and the time chart off its end.
FRAIL = {"name": "Frail Mook", "revealed": True, "hit_points": 30, "shock_threshold": 1,
         "weapons": [{"name": "Sling", "damage_points": 30, "rate_of_fire": 3, "ranks": 0}]}

d6 = st.integers(1, 6)
AIMED = ["whole_body", "head_torso", "head_neck", "eye"]
#: Dice for an attack's slots, each left to the server's seeded dice about half the time.
ATTACK_DICE = st.fixed_dictionaries({}, optional={
    "attack": st.lists(d6, min_size=3, max_size=3),
    "location": st.lists(st.integers(1, 100), min_size=1, max_size=1),
    "shock": st.lists(d6, min_size=1, max_size=1),
    "unconscious": st.lists(st.integers(1, 10), min_size=1, max_size=1),
})


#: The character's columns a fight may change and undo must restore: all but its bookkeeping.
CHARACTER_COLUMNS = tuple(f.attname for f in Character._meta.concrete_fields
                          if f.attname != "updated_at")


def _ranges() -> dict:
    """Every integer column of the rows a fight writes, with the range PostgreSQL holds."""
    return {(model, field.attname): connection.ops.integer_field_range(field.get_internal_type())
            for model in (Encounter, Combatant, Character) for field in model._meta.concrete_fields
            if isinstance(field, models.IntegerField) and not field.is_relation}


class Fight(RuleBasedStateMachine):
    """One fight; ``setup`` (from the test) gives the GM's client and the character to bring."""

    setup: dict = {}
    seen: Counter = Counter()  # (action, status) over every fight: what the run reached

    def __init__(self):
        super().__init__()
        self.savepoint = transaction.atomic()
        self.savepoint.__enter__()
        self.gm, self.character = self.setup["gm"], self.setup["character"]
        self.ranges = self.setup["ranges"]
        self.undoable: list[dict] = []  # the fight's state before each event still standing
        self.steps = 0
        self.state = self.last_event = None  # the fight as read after the last step
        self.e = None

    def teardown(self):
        transaction.set_rollback(True)
        self.savepoint.__exit__(None, None, None)

    # --- the fight as the database holds it ----------------------------------------------------
    def snapshot(self) -> dict:
        """Every column of the encounter, its combatants and the character (not only those the log
        records, so a column the log forgets shows up as an undo that does not restore)."""
        combatants = {c["id"]: c for c in Combatant.objects.filter(encounter_id=self.e).values()}
        return {"encounter": Encounter.objects.filter(pk=self.e).values().get(), "combatants": combatants,
                "character": Character.objects.filter(pk=self.character.pk).values(*CHARACTER_COLUMNS).get()}

    def events(self) -> int:
        return CombatEvent.objects.filter(encounter_id=self.e).order_by("-id").values_list("id", flat=True).first()

    def send(self, path: str, body: dict | None = None, method: str = "post"):
        """Send one action; remember the state before it when it added an event that undo takes."""
        self.steps += 1
        before, count = self.state, self.last_event
        response = getattr(self.gm, method)(f"/api/v1/encounters/{self.e}/{path}", body or {}, format="json")
        self.state, self.last_event = self.snapshot(), self.events()
        assert response.status_code < 500, (path, body, response.status_code, response.content[:400])
        assert response.status_code in (200, 201, 400, 409), (path, body, response.status_code, response.content)
        self.seen[path.split("/")[0] or "patch", response.status_code] += 1
        if self.last_event != count and response.status_code in (200, 201):
            self.undoable.append(before)
        return response

    def _any(self, **state) -> bool:
        return Combatant.objects.filter(encounter_id=self.e, **state).exists()

    def _dying(self) -> list[int]:
        """The fighters dying, as the tracker reads it from their wounds."""
        tracker = self.gm.get(f"/api/v1/encounters/{self.e}/").json()
        return [c["id"] for c in tracker["combatants"] if c["dying"]]

    def combatants(self) -> list[int]:
        return list(Combatant.objects.filter(encounter_id=self.e).order_by("pk").values_list("pk", flat=True))

    # --- the fight ----------------------------------------------------------------------------
    @initialize(seed=st.integers(0, 2**32 - 1), initiative=st.lists(d6, min_size=4, max_size=4))
    def start(self, seed, initiative):
        rulebook_dice.default_rng.seed(seed)
        campaign = self.character.campaign_id
        self.e = self.gm.post(f"/api/v1/campaigns/{campaign}/encounters/", {"name": "Random fight"},
                              format="json").json()["id"]
        for body in ({"character": self.character.pk}, TOUGH, HIDDEN, FRAIL):
            added = self.gm.post(f"/api/v1/encounters/{self.e}/combatants/", body, format="json")
            assert added.status_code == 201, added.content
        self.state, self.last_event = self.snapshot(), self.events()
        self.roll_initiative(initiative)
        assert Encounter.objects.get(pk=self.e).state == "running"

    @rule(initiative=st.lists(d6, min_size=4, max_size=4))
    def roll_initiative(self, initiative):
        """The GM rolls initiative again (or again after undoing the first roll)."""
        ids = self.combatants()
        self.send("initiative/", {"dice": {str(pk): [face] for pk, face in zip(ids, initiative)}})

    @rule(attacker=st.integers(0, 3), victim=st.integers(0, 3), weapon=st.integers(0, 1),
          stat=st.sampled_from(["MEL", "ACC"]), dice=ATTACK_DICE, range_m=st.none() | st.integers(1, 400),
          aim=st.none() | st.integers(0, 20), area=st.none() | st.sampled_from(AIMED))
    def attack(self, attacker, victim, weapon, stat, dice, range_m=None, aim=None, area=None):
        ids = self.combatants()
        if victim == attacker:
            victim = (victim + 1) % len(ids)
        body = {"attacker": ids[attacker], "target": ids[victim], "stat": stat, "dice": dice}
        fighter = Combatant.objects.get(pk=ids[attacker])
        if fighter.weapons:
            body["weapon"] = fighter.weapons[weapon % len(fighter.weapons)]["name"]
        for key, value in (("range_m", range_m), ("aim_seconds", aim), ("aimed_area", area)):
            if value is not None:
                body[key] = value
        self.send("attacks/", body)

    @rule(attacker=st.integers(0, 3), victim=st.integers(0, 3), weapon=st.integers(0, 1))
    def strike(self, attacker, victim, weapon):
        """An attack with the server's (seeded) dice and nothing special: the common case."""
        self.attack(attacker, victim, weapon, "ACC", {})

    @rule(how=st.sampled_from(["next", "next", "skip", "hold"]),
          end=st.one_of(st.just([]), st.just([]), st.lists(d6, min_size=1, max_size=1)))
    def turn(self, how, end):
        if how == "hold":
            self.send("hold/")
        else:
            self.send("next-turn/", {"skip": how == "skip", "dice": {"end": end} if end and how == "skip" else {}})

    @precondition(lambda self: self._any(held=True))
    @rule(who=st.integers(0, 3))
    def act_now(self, who):
        self.send("act-now/", {"combatant": self.combatants()[who]})

    @rule(who=st.integers(1, 3), revealed=st.booleans())
    def reveal(self, who, revealed):
        self.send(f"combatants/{self.combatants()[who]}/", {"revealed": revealed}, method="patch")

    @precondition(lambda self: self._dying())
    @rule(who=st.integers(0, 3), help=st.booleans(), save=st.none() | st.lists(d6, min_size=4, max_size=4))
    def dying(self, who, help, save):
        dying = self._dying()
        body = {"combatant": dying[who % len(dying)], "medical_help": help}
        if save is not None:
            body["dice"] = {"save": save}
        self.send("dying/", body)

    @rule(ms=st.integers(1, 2000))
    def react(self, ms):
        self.send("reactions/", {"combatant": self.combatants()[0], "milliseconds": ms})

    @precondition(lambda self: self.undoable)
    @rule()
    def undo(self):
        expected = self.undoable[-1]
        response = self.gm.post(f"/api/v1/encounters/{self.e}/undo/", {}, format="json")
        assert response.status_code == 201, response.content
        self.undoable.pop()
        self.state, self.last_event = self.snapshot(), self.events()
        assert self.state == expected
        self.seen["undo", 201] += 1

    @rule(player=st.booleans())
    def look(self, player):
        """The GM or the player reads the tracker and the log, whatever state the fight is in."""
        client = self.setup["player"] if player else self.gm
        for path in ("", "log/"):
            assert client.get(f"/api/v1/encounters/{self.e}/{path}").status_code == 200

    @precondition(lambda self: self.steps >= 15)  # a fight that ends at once tests little
    @rule()
    def end(self):
        self.send("end/")

    # --- what must always hold -------------------------------------------------------------
    @invariant()
    def every_number_fits_its_column(self):
        """Checked on the state read after the last step (only the steps write)."""
        if self.state is None:
            return
        rows = [(Encounter, self.state["encounter"]), (Character, self.state["character"])]
        rows += [(Combatant, row) for row in self.state["combatants"].values()]
        for model, row in rows:
            for name, value in row.items():
                low, high = self.ranges.get((model, name), (None, None))
                if value is not None and (low is not None or high is not None):
                    assert (low is None or value >= low) and (high is None or value <= high), (model, name, value)



def test_random_fights_never_fail_and_undo_restores_exactly(personas, api_as, make_character):
    character = make_character("player")
    items.item_create(character=character, kind_name="weapons", by=personas["gm"], is_gm=True,
                      data={"name": "Pistol", "damage_points": 7})
    items.item_create(character=character, kind_name="armour", by=personas["gm"], is_gm=True,
                      data={"name": "Ballistic vest", "hardness": 4, "coverage": 4, "nim_penalty": 0})
    Fight.setup = {"gm": api_as("gm"), "player": api_as("player"), "character": character, "ranges": _ranges()}
    state = random.getstate()
    try:
        run_state_machine_as_test(Fight, settings=settings(
            max_examples=FIGHTS, stateful_step_count=STEPS, deadline=None, derandomize=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    finally:
        random.setstate(state)
        rulebook_dice.default_rng.seed()
    # The fights reached what they are for: hits that landed, knock-outs, dying rounds and undos.
    reached = Fight.seen
    assert reached["attacks", 201] > FIGHTS // 2 and reached["undo", 201] > FIGHTS // 4, reached
    assert reached["dying", 201] > 0 and reached["next-turn", 200] > FIGHTS // 4, reached

"""The wounds endpoint for every persona: reading the state, recording damage and healing, refusals.

Article: "Damage & Recovery" (trauma, shock, END, stat damage, Death) and "Radiation Damage".
RULINGS sections 2 (HP = 2·CON + RES + NIM, END maximum = CON), 6 (dying) and 7 (recovery).
"""

import pytest

from campaign.models import Event, LogEntry
from characters.models import Character
from characters.wounds import WOUND_COLUMNS
from economy.tests.conftest import make_character  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

KEYS = {"trauma", "shock", "end_spent", "stat_damage", "long_term_con", "transitions", "radiation", "dying", "next"}
#: The test characters' stats (economy.tests.conftest.BASE_STATS): CON 14, RES 13, NIM 15, STR 12.
HP = 2 * 14 + 13 + 15  # RULINGS 2: 56
END_MAX = 14  # RULINGS 2: END maximum = CON at generation


def _url(character) -> str:
    return f"/api/v1/characters/{character.pk}/wounds/"


def _record(api, character, **body):
    return api.post(_url(character), body, format="json")


def _everything() -> dict:
    """What recording wounds can change, to show that a refused request changed none of it."""
    return {
        "wounds": {c.pk: {name: getattr(c, name) for name in WOUND_COLUMNS} for c in Character.objects.all()},
        "log": LogEntry.objects.count(),
        "events": Event.objects.count(),
    }


@pytest.fixture
def alice(make_character):
    return make_character("player", name="Alice")


# --- Reading --------------------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["gm", "player", "other_player", "viewer"])
def test_every_member_reads_the_wounds(api_as, alice, persona):
    response = api_as(persona).get(_url(alice))
    assert response.status_code == 200, response.content
    body = response.json()
    assert KEYS <= set(body)
    assert (body["trauma"], body["shock"], body["end_spent"], body["stat_damage"], body["long_term_con"],
            body["transitions"], body["dying"], body["next"]) == (0, 0, 0, {}, 0, 0, False, [])
    assert body["radiation"]["step"] == 0 and body["radiation"]["damage"] == {}


@pytest.mark.parametrize("persona, status", [("outsider", 404), (None, 401)])
def test_strangers_do_not_read_the_wounds(api_as, alice, persona, status):
    assert api_as(persona).get(_url(alice)).status_code == status


def test_an_unknown_character_is_404(api_as, personas):
    assert api_as("gm").get("/api/v1/characters/987654/wounds/").status_code == 404


# --- Recording ------------------------------------------------------------------------------
def test_the_gm_records_damage_and_it_shows(api_as, alice, personas):
    gm = api_as("gm")
    response = _record(gm, alice, trauma=3, shock=2, end=4, stat_damage={"RES": 1}, reason="a sabre cut")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["trauma"], body["shock"], body["end_spent"], body["stat_damage"]) == (3, 2, 4, {"RES": 1})
    assert body["dying"] is False
    assert gm.get(_url(alice)).json() == body
    row = Character.objects.get(pk=alice.pk)
    assert (row.trauma, row.shock, row.endurance_spent, row.stat_damage) == (3, 2, 4, {"RES": 1})
    (entry,) = LogEntry.objects.filter(action="wounds.record")
    assert entry.actor == personas["gm"] and entry.campaign == personas["campaign"]
    assert entry.data["character"] == alice.pk and entry.data["reason"] == "a sabre cut"
    assert entry.data["changes"] == {"trauma": 3, "shock": 2, "end": 4, "stat_damage": {"RES": 1}}
    assert entry.data["before"] == {"trauma": 0, "shock": 0, "end_spent": 0, "stat_damage": {}}

    more = _record(gm, alice, trauma=2, stat_damage={"RES": 1, "STR": 2}, reason="the second cut")
    assert more.status_code == 201, more.content
    assert (more.json()["trauma"], more.json()["stat_damage"]) == (5, {"RES": 2, "STR": 2})
    assert LogEntry.objects.filter(action="wounds.record").count() == 2


def test_negative_numbers_heal(api_as, alice):
    gm = api_as("gm")
    _record(gm, alice, trauma=5, shock=4, end=6, stat_damage={"DEX": 3}, reason="an explosion")

    response = _record(gm, alice, trauma=-2, shock=-4, end=-1, stat_damage={"DEX": -3}, reason="field dressing")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["trauma"], body["shock"], body["end_spent"], body["stat_damage"]) == (3, 0, 5, {})


@pytest.mark.parametrize("body, field", [
    ({"trauma": -3}, "trauma"), ({"shock": -1}, "shock"), ({"end": -3}, "end"),
    ({"stat_damage": {"DEX": -2}}, "stat_damage"), ({"stat_damage": {"STR": -1}}, "stat_damage"),
])
def test_healing_more_than_there_is_is_400_and_changes_nothing(api_as, alice, body, field):
    gm = api_as("gm")
    _record(gm, alice, trauma=2, end=2, stat_damage={"DEX": 1}, reason="a fall")
    before = _everything()
    response = _record(gm, alice, **body, reason="too much")
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()
    assert _everything() == before


@pytest.mark.parametrize("body, field", [
    ({"stat_damage": {"LUCK": 1}, "reason": "r"}, "stat_damage"),
    ({"stat_damage": {"STR": "x"}, "reason": "r"}, "stat_damage"),
    ({"trauma": 2}, "reason"),
    ({"trauma": 2, "reason": "   "}, "reason"),
    ({"reason": "nothing happened"}, "trauma"),
    ({"trauma": 0, "shock": 0, "end": 0, "stat_damage": {"STR": 0}, "reason": "all zero"}, "trauma"),
    ({"trauma": 2.5, "reason": "r"}, "trauma"),
    ({"trauma": "2", "reason": "r"}, "trauma"),
    ({"trauma": 10_000, "reason": "r"}, "trauma"),
    ({"end": END_MAX + 1, "reason": "a forced march"}, "end"),
    ({"trauma": 1, "reason": "r", "armour": 2}, "armour"),
])
def test_bad_input_is_400_naming_the_field(api_as, alice, body, field):
    before = _everything()
    response = _record(api_as("gm"), alice, **body)
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()
    assert _everything() == before


def test_a_draft_takes_no_wounds(api_as, make_character):
    draft = make_character("player", approve=False)
    before = _everything()
    response = _record(api_as("gm"), draft, trauma=2, reason="too early")
    assert response.status_code == 409
    assert "not in play" in response.json()["errors"]["character"][0]
    assert _everything() == before


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_records_wounds(api_as, alice, persona, status):
    before = _everything()
    response = _record(api_as(persona), alice, trauma=2, reason="I hurt myself")
    assert response.status_code == status
    assert _everything() == before


# --- What heals next, and dying -------------------------------------------------------------
def test_next_says_when_a_fresh_wound_heals(api_as, alice):
    """RULINGS 7: after 1 day of rest, ⌈trauma / 3⌉ heals: 4 trauma → 2 after 24 h."""
    body = _record(api_as("gm"), alice, trauma=4, reason="a club").json()
    (line,) = [n for n in body["next"] if n.startswith("trauma")]
    assert "trauma: 2" in line and "24 h" in line
    assert not [n for n in body["next"] if n.startswith("shock")]


def test_next_names_shock_and_end(api_as, alice):
    """RULINGS 7: a third of the shock at the end of combat (⌈6 / 3⌉ = 2, first); END a d6 after 30 min."""
    body = _record(api_as("gm"), alice, shock=6, end=3, reason="a sprint under fire").json()
    (shock,) = [n for n in body["next"] if n.startswith("shock")]
    assert shock.startswith("shock: 2 ") and "a third of the shock" in shock
    (end,) = [n for n in body["next"] if n.startswith("END")]
    assert "d6" in end and "30 min" in end


def test_a_stat_at_zero_is_dying(api_as, alice):
    """RULINGS 6: "Dying: any stat other than shock ≤ 0"; STR 12 with 12 damage is 0."""
    gm = api_as("gm")
    nearly = _record(gm, alice, stat_damage={"STR": 11}, reason="crushed").json()
    assert nearly["dying"] is False and nearly["dying_causes"] == []
    body = _record(gm, alice, stat_damage={"STR": 1}, reason="crushed again").json()
    assert body["dying"] is True and body["dying_causes"] == ["STR"]
    assert gm.get(_url(alice)).json()["dying"] is True


def test_trauma_reaching_hp_is_dying(api_as, alice):
    """"Damage & Recovery" with RULINGS 2: HP = 2·CON + RES + NIM = 56; trauma 56 leaves none."""
    assert Character.objects.get(pk=alice.pk).hit_points == HP
    gm = api_as("gm")
    below = _record(gm, alice, trauma=HP - 1, reason="a grenade").json()
    assert below["dying"] is False
    body = _record(gm, alice, trauma=1, reason="one more").json()
    assert body["dying"] is True and body["dying_causes"] == ["HP"]


def test_long_term_radiation_loss_counts_towards_dying(api_as, alice, personas):
    """"Radiation Damage" with RULINGS 6: CON 14 less 4 long-term loss and 10 CON damage is 0.

    The transition is category 2 with a failed save (a miracle roll of 9d6 against target 9 for
    CON 14: nine sixes) and a d6 of 4: 4 long-term CON, 4 + 6 = 10 shock and trauma.
    """
    gm = api_as("gm")
    response = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/transitions/",
                       {"category": "2", "characters": [alice.pk], "idempotency_key": "jump",
                        "dice": {str(alice.pk): [6] * 9 + [4]}}, format="json")
    assert response.status_code == 201, response.content
    wounds = gm.get(_url(alice)).json()
    assert (wounds["long_term_con"], wounds["shock"], wounds["trauma"], wounds["transitions"]) == (4, 10, 10, 1)
    assert wounds["dying"] is False
    assert any(n.startswith("long-term CON loss") for n in wounds["next"]), wounds["next"]

    body = _record(gm, alice, stat_damage={"CON": 10}, reason="fever").json()

    assert body["dying"] is True and body["dying_causes"] == ["CON"]

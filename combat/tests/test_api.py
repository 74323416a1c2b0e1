"""The tracker's API: who may do what, bad input, what players see, and query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.models import Combatant, CombatEvent, Encounter

pytestmark = pytest.mark.django_db

GOON = {"name": "Goon", "weapons": [{"name": "Club", "damage_points": 3, "melee": True, "ranks": 1}]}


@pytest.fixture
def setup(personas, api_as, make_character):
    alice = make_character("player")
    bob = make_character("other_player")
    gm = api_as("gm")
    encounter = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/",
                        {"name": "Bar fight", "gm_notes": "The goon is a plant"}, format="json").json()["id"]
    ids = {}
    for key, body in (("alice", {"character": alice.pk}), ("bob", {"character": bob.pk}), ("goon", GOON)):
        ids[key] = gm.post(f"/api/v1/encounters/{encounter}/combatants/", body, format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{encounter}/initiative/",
            {"dice": {str(ids["alice"]): [6], str(ids["bob"]): [1], str(ids["goon"]): [1]}}, format="json")
    return {"encounter": encounter, **ids, "alice_pc": alice, "bob_pc": bob}


def _snapshot():
    return (list(Encounter.objects.values()), list(Combatant.objects.order_by("pk").values()),
            CombatEvent.objects.count())


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_runs_the_encounter(personas, api_as, setup, persona, status):
    client, e = api_as(persona), setup["encounter"]
    before = _snapshot()
    for method, url, body in (
        ("post", f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "x"}),
        ("post", f"/api/v1/encounters/{e}/combatants/", GOON),
        ("patch", f"/api/v1/encounters/{e}/combatants/{setup['goon']}/", {"revealed": True}),
        ("post", f"/api/v1/encounters/{e}/initiative/", {}),
        ("post", f"/api/v1/encounters/{e}/next-turn/", {}),
        ("post", f"/api/v1/encounters/{e}/dying/", {"combatant": setup["alice"]}),
        ("post", f"/api/v1/encounters/{e}/undo/", {}),
        ("post", f"/api/v1/encounters/{e}/end/", {}),
    ):
        assert getattr(client, method)(url, body, format="json").status_code == status, url
    assert _snapshot() == before


@pytest.mark.parametrize("persona, status", [("gm", 200), ("player", 200), ("viewer", 200), ("outsider", 404),
                                             (None, 401)])
def test_members_read_the_tracker_and_players_never_see_gm_details(api_as, setup, persona, status):
    response = api_as(persona).get(f"/api/v1/encounters/{setup['encounter']}/")
    assert response.status_code == status
    if status != 200:
        return
    body = response.json()
    names = [c["name"] for c in body["combatants"]]
    assert ("Goon" in names) == (persona == "gm")  # an NPC stays hidden until revealed
    assert ("gm_notes" in body) == (persona == "gm")
    log = api_as(persona).get(f"/api/v1/encounters/{setup['encounter']}/log/").json()["events"]
    assert any("Goon" in e["summary"] for e in log) == (persona == "gm")


def test_players_see_a_revealed_npc_as_a_band_never_numbers(api_as, setup):
    gm = api_as("gm")
    gm.patch(f"/api/v1/encounters/{setup['encounter']}/combatants/{setup['goon']}/", {"revealed": True},
             format="json")
    Combatant.objects.filter(pk=setup["goon"]).update(trauma=15)
    goon = next(c for c in api_as("player").get(f"/api/v1/encounters/{setup['encounter']}/").json()["combatants"]
                if c["name"] == "Goon")
    assert goon["band"] in ("hurt", "badly hurt") and "trauma" not in goon and "hp" not in goon
    gm_goon = next(c for c in gm.get(f"/api/v1/encounters/{setup['encounter']}/").json()["combatants"]
                   if c["name"] == "Goon")
    assert gm_goon["trauma"] == 15


def test_a_player_attacks_with_their_own_character_on_its_turn_only(api_as, setup):
    url = f"/api/v1/encounters/{setup['encounter']}/attacks/"
    # Bob's character as the target: the goon is hidden, and players cannot aim at what they cannot see.
    attack = {"attacker": setup["alice"], "target": setup["bob"], "stat": "MEL",
              "dice": {"attack": [6, 6, 6]}}  # a plain miss
    alice_has_no_weapon = api_as("player").post(url, attack, format="json")
    assert alice_has_no_weapon.status_code == 400 and "weapon" in alice_has_no_weapon.json()["errors"]
    # bob may not act with alice's character, however he words it
    assert api_as("other_player").post(url, attack, format="json").status_code == 403
    assert api_as("other_player").post(url, {**attack, "preview": True}, format="json").status_code == 403
    assert api_as("viewer").post(url, attack, format="json").status_code == 403
    # bob's character is not the one acting
    bob = {**attack, "attacker": setup["bob"], "target": setup["alice"]}
    assert api_as("other_player").post(url, bob, format="json").status_code in (400, 409)


@pytest.mark.parametrize("body, field", [
    ({"attacker": 999999}, "attacker"), ({"stat": "STR"}, "stat"), ({"aimed_area": "kneecap"}, "aimed_area"),
    ({"dice": {"attack": [7, 1, 1]}}, "dice"), ({"dice": {"luck": [1]}}, "dice"), ({"range_m": "far"}, "range_m"),
    ({"weapon": "Bazooka"}, "weapon"), ({"surprise": True}, "surprise"), ({"target": "goon"}, "target"),
])
def test_bad_attacks_name_the_field_and_change_nothing(api_as, setup, body, field):
    Combatant.objects.filter(pk=setup["goon"]).update(revealed=True)
    before = _snapshot()
    attack = {"attacker": setup["goon"], "target": setup["alice"], **body}
    response = api_as("gm").post(f"/api/v1/encounters/{setup['encounter']}/attacks/", attack, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"] or (field == "dice" and "detail" in response.json()["errors"])
    assert _snapshot() == before


def test_an_encounter_of_another_campaign_is_404(api_as, setup, personas, make_user):
    from campaign import services

    stranger = make_user("gm3")
    other = services.campaign_create(name="Elsewhere", by=stranger)
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(stranger)
    assert client.get(f"/api/v1/encounters/{setup['encounter']}/").status_code == 404
    assert other.pk != personas["campaign"].pk


def test_the_log_resumes_after_the_last_event_seen(api_as, setup):
    gm, e = api_as("gm"), setup["encounter"]
    first = gm.get(f"/api/v1/encounters/{e}/log/").json()
    gm.post(f"/api/v1/encounters/{e}/next-turn/")
    later = gm.get(f"/api/v1/encounters/{e}/log/?after={first['last']}").json()
    assert [ev["kind"] for ev in later["events"]] == ["turn"]
    assert gm.get(f"/api/v1/encounters/{e}/log/?after={later['last']}").json()["events"] == []
    assert gm.get(f"/api/v1/encounters/{e}/log/?after=x").status_code == 400


def test_queries_per_tracker_refresh_do_not_grow_with_the_combatants(personas, api_as, make_character):
    """Issue 9: the same number of queries for 2 and 20 combatants."""
    gm = api_as("gm")
    counts = []
    for size in (2, 20):
        encounter = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": f"n{size}"},
                            format="json").json()["id"]
        pcs = [make_character("player", name=f"PC {size}-{n}") for n in range(2)]
        for pc in pcs:
            gm.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": pc.pk}, format="json")
        for n in range(size - 2):
            gm.post(f"/api/v1/encounters/{encounter}/combatants/", {**GOON, "name": f"Goon {n}", "revealed": True},
                    format="json")
        gm.post(f"/api/v1/encounters/{encounter}/initiative/", {}, format="json")
        with CaptureQueriesContext(connection) as queries:
            assert gm.get(f"/api/v1/encounters/{encounter}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts

"""The check builder: any check that is not an attack, term by term, through the API and the GM's page.

Article: "Spot/Listen Checks", "Additional Rules" (Loads, Target Size Adjustment, Assistants),
"Skill Standards", "Eventual Success", "Impossible Chances" (extra benefits), "In-game language
usage", "Initiative & Surprise" (the GM's secret AWA check, the party's collective AWA by the
assistance rules). Readings: docs/rules.md, "The check builder".
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters import items
from rolls.models import Roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def crew(personas, make_character):
    """Three characters in play: the player's (AWA 14, STR 5, Repair 3 ranks on PRAC 12, French),
    the other player's (AWA 13) and a third (AWA 12)."""
    gm = personas["gm"]
    mara = make_character("player", name="Mara", stats={"AWA": 14, "STR": 5, "PRAC": 12})
    repair = items.item_create(character=mara, kind_name="skills", by=gm, is_gm=True,
                               data={"name": "Repair", "breadth": "narrow", "ranks": 3, "stat": "PRAC"})
    climb = items.item_create(character=mara, kind_name="skills", by=gm, is_gm=True,
                              data={"name": "Climbing", "breadth": "narrow", "ranks": 1, "stat": "PRAC"})
    french = items.item_create(character=mara, kind_name="languages", by=gm, is_gm=True,
                               data={"name": "French", "spoken": 2, "heard": 2})
    jon = make_character("other_player", name="Jon", stats={"AWA": 13})
    kit = make_character("other_player", name="Kit", stats={"AWA": 12})
    return {"mara": mara, "repair": repair, "climb": climb, "french": french, "jon": jon, "kit": kit,
            "checks": f"/api/v1/campaigns/{personas['campaign'].pk}/checks/",
            "sheet": f"/api/v1/characters/{mara.pk}/rolls/"}


def _preview(client, crew, **body):
    return client.post(crew["checks"] + "preview/", body, format="json")


def test_a_spot_check_at_40_m_on_a_1_m2_target_while_actively_looking(crew, api_as):
    """AWA 14 on 4d6; 40 m against a 1 m² target (size 0) is −4; looking hard +5: ≤ 15."""
    gm = api_as("gm")
    answer = _preview(gm, crew, subject=f"{crew['mara'].pk}/stat:AWA", range_m=40, size_index=0, looking=5)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["target"] == 15 and body["dice"] == 4
    assert ["range 40 m against size index +0", -4] in body["breakdown"]
    assert ["actively looking out for it", 5] in body["breakdown"]
    assert body["probability"] == "287/432"  # 861 of the 1,296 rolls of 4d6 total 15 or less
    rolled = gm.post(crew["checks"], {"subject": f"{crew['mara'].pk}/stat:AWA", "range_m": 40, "looking": 5,
                                      "dice": [6, 5, 3, 2]}, format="json").json()
    assert rolled["params"]["target"] == 15 and rolled["total"] == 16 and rolled["success"] is False
    assert rolled["character"] == crew["mara"].pk and rolled["params"]["range_m"] == "40"


def test_an_assisted_repair_with_two_assistants_one_and_two_ranks_below(crew, api_as):
    """Repair 3 ranks + PRAC 12's foundation 8 = 11; assistants with 2 and 1 ranks: +1 ("Assistants")."""
    response = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['repair'].pk}", "assistants": [2, 1],
                                                     "dice": [4, 4, 4]}, format="json")
    assert response.status_code == 201, response.json()
    roll = response.json()
    assert roll["params"]["target"] == 12 and roll["success"] is True and roll["params"]["assistants"] == [2, 1]
    assert any(label.startswith("1 assistant(s)") or label.startswith("2 assistant(s)")
               for label, _ in roll["detail"]["breakdown"])


def test_a_climb_with_a_balanced_45_kg_load(crew, api_as):
    """Climbing 1 + 8 = 9; 45 kg balanced counts 22.5 kg (weight row 7), two rows over STR 5: 7."""
    body = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['climb'].pk}", "load_kg": 45,
                                                 "load_kind": "balanced", "dice": [1, 2, 3]}, format="json").json()
    assert body["params"]["target"] == 7
    assert ["45 kg balanced load: counts 22.5 kg (weight row 7) against STR 5", -2] in body["detail"]["breakdown"]


def test_the_partys_collective_awa_and_the_secret_surprise_check(crew, api_as):
    """"Initiative & Surprise": the GM knows the party's collective AWA by the assistance rules and makes
    a secret AWA check. Mara's 14 leads; Jon (1 below) and Kit (2 below) assist: +1 (row 1 either way)."""
    gm = api_as("gm")
    preview = _preview(gm, crew, subject="party:AWA").json()
    assert preview["target"] == 15 and preview["dice"] == 4
    assert preview["breakdown"][0] == ["Mara's AWA, the party's best", 14]
    secret = gm.post(crew["checks"], {"subject": "party:AWA", "private": True, "idempotency_key": "s1"}, format="json")
    assert secret.status_code == 201 and secret.json()["private"] is True and secret.json()["character"] is None
    again = gm.post(crew["checks"], {"subject": "party:AWA", "private": True, "idempotency_key": "s1"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == secret.json()["id"]
    feed_url = f"/api/v1/campaigns/{crew['mara'].campaign_id}/rolls/"
    players_feed = api_as("player").get(feed_url).json()
    assert secret.json()["id"] not in [r["id"] for r in players_feed["rolls"]]
    assert secret.json()["id"] in [r["id"] for r in gm.get(feed_url).json()["rolls"]]


def test_a_party_march_with_a_shared_load_goes_at_the_pace_of_the_most_burdened(crew, api_as):
    """"Loads": the party shares 90 kg unbalanced, 30 kg each (weight row 10); the group moves only
    as fast as its most heavily burdened member: Mara's STR 5, five rows under, sets it (−5)."""
    body = _preview(api_as("gm"), crew, subject="party:CON", load_kg=90).json()
    (term,) = [t for t in body["breakdown"] if "load" in t[0]]
    assert term == ["90 kg unbalanced load, shared by 3: counts 30 kg (weight row 10) against STR 5; Mara, "
                    "the most burdened, sets the group's pace", -5]


@pytest.mark.parametrize("persona, status", [("player", 403), ("viewer", 403), ("outsider", 404), (None, 401)])
def test_only_the_gm_uses_the_campaigns_builder(crew, api_as, persona, status):
    assert api_as(persona).post(crew["checks"], {"subject": "party:AWA"}, format="json").status_code == status
    assert not Roll.objects.exists()


def test_eventual_success_turns_the_margin_into_the_time_taken(crew, api_as):
    """"Eventual Success": Repair ≤ 11 rolled 5 is a margin of 6; wanting a margin of 3, the adjusted
    margin 3 reads index −3 on the time chart: ×0.4 of a 10-hour job, 4 hours."""
    roll = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['repair'].pk}", "dice": [1, 2, 2],
                                                 "eventual": True, "desired_margin": 3, "normal_time": 10},
                                 format="json").json()
    assert roll["detail"]["margin"] == 6
    assert roll["detail"]["eventual"]["index"] == -3 and roll["detail"]["eventual"]["text"].startswith("4 hours")


def test_eventual_success_refuses_extra_time_as_well(crew, api_as):
    response = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['repair'].pk}", "eventual": True,
                                                     "time_taken": 2}, format="json")
    assert response.status_code == 400 and "time_taken" in response.json()["errors"]
    assert not Roll.objects.exists()


def test_extra_benefits_on_a_check_that_cannot_fail(crew, api_as):
    """"Impossible Chances": a target of 18 on 3d6 allows one extra die; 4d6, the lowest three count,
    against 16: only 6-6-6-6 and the four orders of 5-6-6-6 fail (1291/1296)."""
    gm = api_as("gm")
    body = _preview(gm, crew, subject="bare", target=18, dice_count=3, extra=1).json()
    assert body["extra_limit"] == 1 and body["dice"] == 4 and body["counted"] == 3
    assert body["probability"] == "1291/1296"
    too_many = _preview(gm, crew, subject="bare", target=18, extra=2)
    assert too_many.status_code == 400 and "extra" in too_many.json()["errors"]
    rolled = gm.post(crew["checks"], {"subject": "bare", "target": 18, "extra": 1, "label": "Guard's patience",
                                      "dice": [6, 6, 5, 1]}, format="json").json()
    assert rolled["total"] == 12 and rolled["success"] is True and rolled["label"] == "Guard's patience"


def test_a_language_line_rolls_lan_at_the_ranks_modifier(crew, api_as):
    """"In-game language usage": LAN on 4d6 at the rank's modifier (functional, rank 2: −5); a related
    language +2. Mara's LAN 12: 12 − 5 + 2 = 9."""
    line = f"language:{crew['french'].pk}:spoken"
    body = api_as("player").post(crew["sheet"], {"line": line, "relevant": 1, "dice": [1, 1, 1, 1]},
                                 format="json").json()
    assert body["params"]["target"] == 9 and body["params"]["dice"] == 4


@pytest.mark.parametrize("body, field", [
    ({"looking": 3}, "looking"),  # not an AWA line
    ({"scaling": 10}, "delicacy_m"),
    ({"size_index": 2}, "range_m"),
    ({"aim_seconds": 2}, "aim_seconds"),  # not a weapon
    ({"assistants": [-1]}, "assistants"),
    ({"load_kind": "heavy", "load_kg": 5}, "load_kind"),
    ({"range_m": 0}, "range_m"),
])
def test_a_term_that_does_not_fit_is_400_and_rolls_nothing(crew, api_as, body, field):
    response = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['repair'].pk}", **body}, format="json")
    assert response.status_code == 400 and field in response.json()["errors"], response.json()
    assert not Roll.objects.exists()


def test_the_builder_page_offers_every_line_and_its_queries_do_not_grow_with_the_party(
        crew, client, personas, make_character):
    client.force_login(personas["gm"])
    url = reverse("check-builder", args=[crew["mara"].campaign_id])
    page = client.get(url, {"subject": f"{crew['mara'].pk}/stat:AWA", "range_m": "40", "looking": "5"})
    text = page.content.decode()
    assert page.status_code == 200 and "Secret surprise check" in text
    assert "≤ <strong class=\"big\">15</strong> on 4d6" in text and "French (spoken)" in text
    with CaptureQueriesContext(connection) as few:
        client.get(url, {"subject": "party:AWA"})
    for n in range(3):
        make_character("other_player", name=f"Extra {n}")
    with CaptureQueriesContext(connection) as many:
        client.get(url, {"subject": "party:AWA"})
    assert len(many) == len(few)


def test_the_builder_page_rolls_into_the_feed(crew, client, personas):
    client.force_login(personas["gm"])
    campaign_id = crew["mara"].campaign_id
    response = client.post(reverse("check-builder-roll", args=[campaign_id]),
                           {"subject": f"{crew['mara'].pk}/skill:{crew['repair'].pk}", "assistants": "2, 1",
                            "dice": ["3", "3", "3"], "idempotency_key": "page-1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "success" in response.content.decode()
    roll = Roll.objects.get()
    assert roll.params["target"] == 12 and roll.character_id == crew["mara"].pk
    bad = client.post(reverse("check-builder-roll", args=[campaign_id]),
                      {"subject": "party:AWA", "assistants": "two"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
    assert Roll.objects.count() == 1


def test_a_vehicles_str_is_its_carrying_capacity(crew, api_as):
    """"Loads": vehicle STR defines carrying capacity for fuel, passengers and luggage, all balanced.
    A truck of STR 30 (220 kg on the weight table) with 600 kg counts 300 kg (row 33): 3 rows over."""
    body = _preview(api_as("gm"), crew, subject="bare", target=12, label="Truck up the pass", strength=30,
                    load_kg=600, load_kind="balanced").json()
    assert body["target"] == 9
    without = _preview(api_as("gm"), crew, subject="bare", target=12, load_kg=600)
    assert without.status_code == 400 and "load_kg" in without.json()["errors"]


def test_delicate_repair_under_a_loupe(crew, api_as):
    """"Tables", Delicacy and Scaling: a hair-fine job (0.1 mm, row 3) is −3; a jeweller's loupe (×10,
    scaling row 1) gives back two rows: −1. Repair's 11 becomes 10."""
    body = api_as("player").post(crew["sheet"], {"line": f"skill:{crew['repair'].pk}", "delicacy_mm": 0.1,
                                                 "scaling": 10, "dice": [1, 1, 1]}, format="json").json()
    assert body["params"]["target"] == 10
    assert ["delicacy: 100 µm tolerance (row 3)", -3] in body["detail"]["breakdown"]

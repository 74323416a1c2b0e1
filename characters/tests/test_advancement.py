"""Advancement on an active sheet: earned skill points buy new skills and ranks (issue flows)."""

import pytest

from characters.models import Skill
from economy import services as economy
from economy.tests.conftest import make_character  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _earn(character, by, karma: int):
    economy.karma_spend(character=character, kind="skill_points", idempotency_key=f"earn-{karma}", by=by,
                        is_gm=False, params={"amount": karma})


def test_the_owner_adds_a_skill_with_earned_points_and_the_gm_rules_on_it(personas, api_as, make_character):
    alice = make_character("player", karma=10)
    url = f"/api/v1/characters/{alice.pk}/skills/"
    budget = api_as("player").get(f"/api/v1/characters/{alice.pk}/budget/").json()
    _earn(alice, personas["player"], 2)  # 2 Karma → 4 skill points
    after = api_as("player").get(f"/api/v1/characters/{alice.pk}/budget/").json()
    assert after["available"] == budget["available"] + 4
    skill = {"name": "Lock picking", "breadth": "narrow", "ranks": 1, "stat": "DEX"}
    response = api_as("player").post(url, skill, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["classified"] is False  # the GM rules on the breadth
    spent = api_as("player").get(f"/api/v1/characters/{alice.pk}/budget/").json()
    assert spent["spent"] == after["spent"] + 2  # a narrow skill costs 2
    classified = api_as("gm").patch(f"{url}{response.json()['id']}/", {"breadth": "narrow"}, format="json")
    assert classified.status_code == 200 and classified.json()["classified"] is True
    raised = api_as("player").patch(f"{url}{response.json()['id']}/", {"ranks": 2}, format="json")
    assert raised.status_code == 200 and raised.json()["classified"] is True  # no ruling needed


def test_a_skill_beyond_the_earned_points_is_refused_with_the_shortfall(personas, api_as, make_character):
    alice = make_character("player", karma=10)
    budget = api_as("player").get(f"/api/v1/characters/{alice.pk}/budget/").json()
    left = budget["available"] - budget["spent"]
    # Broad skills at the rank cap (4 + 2 = 6 points each) until the next one does not fit.
    for n in range(left // 6):
        api_as("player").post(f"/api/v1/characters/{alice.pk}/skills/",
                              {"name": f"Filler {n}", "breadth": "broad", "ranks": 3, "stat": "THEO"}, format="json")
    too_dear = {"name": "Astrophysics", "breadth": "broad", "ranks": 3, "stat": "THEO"}
    response = api_as("player").post(f"/api/v1/characters/{alice.pk}/skills/", too_dear, format="json")
    assert response.status_code == 400
    message = response.json()["errors"]["name"][0]
    assert "more skill point" in message and "Karma page" in message
    assert not Skill.objects.filter(character=alice, name="Astrophysics").exists()


def test_on_an_active_sheet_ranks_only_go_up_and_other_lines_stay_the_gms(personas, api_as, make_character):
    alice = make_character("player", karma=10)
    _earn(alice, personas["player"], 3)
    skill = Skill.objects.filter(character=alice).first()
    url = f"/api/v1/characters/{alice.pk}/skills/{skill.pk}/"
    assert api_as("player").patch(url, {"name": "Something else"}, format="json").status_code == 409
    assert api_as("player").delete(url).status_code == 409
    equipment = {"name": "Crowbar", "breadth": "specific", "ranks": 1}
    assert api_as("player").post(f"/api/v1/characters/{alice.pk}/equipment/", equipment,
                                 format="json").status_code == 409
    assert api_as("other_player").post(f"/api/v1/characters/{alice.pk}/skills/",
                                       {"name": "x", "breadth": "specific", "ranks": 1, "stat": "DEX"},
                                       format="json").status_code == 403

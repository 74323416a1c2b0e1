"""Using Stimutabs' boosted STR costs 1 more END each time.

Article, "Other Drugs and Medications": Stimutabs give +1d3 STR; "using the enhanced STR costs 1
additional END".
"""

import pytest

from characters.models import Character
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db

#: d3 STR 2, d3 hours 1, d6 wear-off damage 3, d6 shakes 2 (the rulebook's order).
DOSE = [2, 1, 3, 2]


@pytest.fixture
def dosed(make_character, api_as):  # noqa: F811
    character = make_character("player", name="Brawn")
    given = api_as("gm").post(f"/api/v1/characters/{character.pk}/treatments/",
                              {"kind": "stimutabs", "dice": DOSE, "idempotency_key": "dose"}, format="json")
    assert given.status_code == 201, given.content
    return character


def _roll(api, character, line, **body):
    return api.post(f"/api/v1/characters/{character.pk}/rolls/", {"line": line, **body}, format="json")


def test_a_str_check_on_boosted_str_costs_one_end_and_an_awa_check_none(dosed, api_as):
    player = api_as("player")
    spent = Character.objects.get(pk=dosed.pk).endurance_spent
    strong = _roll(player, dosed, "stat:STR", dice=[1, 1, 1, 1])
    assert strong.status_code == 201, strong.json()
    assert strong.json()["detail"]["boost_end"] == 1
    assert Character.objects.get(pk=dosed.pk).endurance_spent == spent + 1
    assert "boost_end" not in _roll(player, dosed, "stat:AWA", dice=[1, 1, 1, 1]).json()["detail"]
    assert Character.objects.get(pk=dosed.pk).endurance_spent == spent + 1


def test_without_end_left_the_boosted_str_is_refused_and_nothing_is_rolled(dosed, api_as):
    from rolls.models import Roll

    character = Character.objects.get(pk=dosed.pk)
    left = character.endurance_max - character.endurance_spent
    api_as("gm").post(f"/api/v1/characters/{dosed.pk}/wounds/", {"end": left, "reason": "Exhausted"}, format="json")
    response = _roll(api_as("player"), dosed, "stat:STR")
    assert response.status_code == 409 and "END" in str(response.json()), response.json()
    assert not Roll.objects.filter(character=dosed).exists()


def test_no_boost_no_extra_end(make_character, api_as):  # noqa: F811
    plain = make_character("player", name="Plain")
    body = _roll(api_as("player"), plain, "stat:STR", dice=[1, 1, 1, 1]).json()
    assert "boost_end" not in body["detail"]
    assert Character.objects.get(pk=plain.pk).endurance_spent == 0

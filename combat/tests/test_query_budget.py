"""Query budgets of the busiest writes: an attack costs at most 20 SQL statements (the refusal of a
write to an archived campaign and the savepoint around the write included), whatever the sheets
hold and however many fight; counted as Zulip counts them."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.tests.factories import SkillFactory, WeaponFactory

from .test_api import setup  # noqa: F401  (fixture: Alice, Bob and a hidden goon, initiative rolled)

pytestmark = pytest.mark.django_db

ATTACK_BUDGET = 20


def _attack(api_as, setup, target: str) -> list[str]:
    url = f"/api/v1/encounters/{setup['encounter']}/attacks/"
    body = {"attacker": setup["goon"], "target": setup[target], "stat": "MEL", "dice": {"attack": [1, 2, 2]}}
    with CaptureQueriesContext(connection) as queries:
        response = api_as("gm").post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["data"]["outcome"] == "hit"
    return [q["sql"] for q in queries.captured_queries]


def test_an_attack_that_wounds_a_character_stays_within_its_budget(api_as, setup):
    statements = _attack(api_as, setup, "alice")
    assert len(statements) <= ATTACK_BUDGET, "\n".join(s[:120] for s in statements)


def test_an_attacks_cost_does_not_grow_with_the_sheet_or_the_fight(api_as, setup, make_character):
    small = len(_attack(api_as, setup, "alice"))
    bob = setup["bob_pc"]
    SkillFactory.create_batch(20, character=bob)
    WeaponFactory.create_batch(10, character=bob)
    for name in ("Carla", "Dmitri"):  # more characters in the campaign, and in the fight
        other = make_character("player", name=name)
        api_as("gm").post(f"/api/v1/encounters/{setup['encounter']}/combatants/", {"character": other.pk},
                          format="json")
    assert len(_attack(api_as, setup, "bob")) == small

"""The downtime start's query budget (issue "one write path"): at most 11 SQL statements (10, and
one for refusing a write to an archived campaign), however many characters it will advance; the
work itself is the worker's."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

DOWNTIME_START_BUDGET = 11


def _start(api_as, campaign, key: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/",
                                     {"hours": 24, "rest": "comfortable", "idempotency_key": key}, format="json")
    assert response.status_code == 202, response.content
    return len(queries.captured_queries)


def test_starting_a_downtime_stays_within_its_budget_and_does_not_grow(personas, api_as, make_character):
    make_character("player", name="Alice")
    one = _start(api_as, personas["campaign"], "one")
    for n in range(5):
        make_character("other_player", name=f"Extra {n}")
    six = _start(api_as, personas["campaign"], "six")
    assert one <= DOWNTIME_START_BUDGET
    assert six == one

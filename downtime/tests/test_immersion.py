"""Picking up a language by immersion: the clock kept on the language line, across sessions and
Zener Transitions, each interval ending in a LAN check (rolled by the app or typed from the table).

Article, "In-game language acquisition & improvement": 3 h for a language not held, then 6, 12 and
24 h a rank, each ending in a LAN check on 4d6; an era gap is paid off first, 6 h and a LAN check
at +15 (−15 on the target) a rank. The French example: 1 rank of 16th-century French among 18th-
century speakers: 6 h and a LAN check at −15 adjust the ear, then 12 h and a LAN check add the
second rank.
"""

import pytest
from django.urls import reverse

from characters import items
from characters.models import Language
from downtime import transitions
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from rolls.models import Roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def linguist(make_character, personas):  # noqa: F811
    character = make_character("player", name="Polyglot", stats={"LAN": 20})
    gm = personas["gm"]
    french = items.item_create(character=character, kind_name="languages", by=gm, is_gm=True,
                               data={"name": "French (16th c.)", "spoken": 1})
    latin = items.item_create(character=character, kind_name="languages", by=gm, is_gm=True,
                              data={"name": "Latin"})
    return {"character": character, "french": french, "latin": latin}


def _url(linguist, language):
    return f"/api/v1/characters/{linguist['character'].pk}/languages/{linguist[language].pk}/immersion/"


def test_the_french_example_era_gap_then_the_second_rank(linguist, api_as):
    """LAN 20: the era check is ≤ 5 on 4d6, the rank check ≤ 20. 18 h: 6 + 12."""
    answer = api_as("gm").post(_url(linguist, "french"), {"hours": 18, "era_gap": 1, "dice": [1, 1, 1, 1, 2, 2, 2, 2]},
                               format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert [(c["purpose"], c["target"], c["success"]) for c in body["checks"]] == [
        ("era adjustment", 5, True), ("spoken rank 2", 20, True)]
    assert body["ranks"]["spoken"] == 2 and body["immersion"]["era_gap"] == 0
    assert Roll.objects.filter(kind="downtime", label__contains="immersion in French").count() == 2


def test_an_immersion_that_spans_a_zener_transition(linguist, api_as, personas):
    """2 h of Latin's 3, then a transition, then the last hour: the clock kept its 2 h."""
    gm = api_as("gm")
    first = gm.post(_url(linguist, "latin"), {"hours": 2, "new_language": True}, format="json").json()
    assert first["checks"] == [] and first["immersion"]["next"] == "2 of 3 h toward the language at 0 ranks"
    transitions.transition_make(campaign=personas["campaign"], by=personas["gm"], category="1",
                                character_ids=[linguist["character"].pk], idempotency_key="gate")
    after = gm.post(_url(linguist, "latin"), {"hours": 1, "dice": [3, 3, 3, 3]}, format="json").json()
    assert [c["success"] for c in after["checks"]] == [True]
    assert after["immersion"]["held"] is True and after["immersion"]["next"] == "0 of 6 h toward spoken rank 1"


def test_a_failed_check_starts_the_interval_again(linguist, api_as):
    gm = api_as("gm")
    body = gm.post(_url(linguist, "latin"), {"hours": 3, "new_language": True, "modifier": -30,
                                             "dice": [6, 6, 6, 6]}, format="json").json()
    assert body["checks"][0]["success"] is False and body["immersion"]["held"] is False
    assert body["immersion"]["next"] == "0 of 3 h toward the language at 0 ranks"


def test_a_replayed_key_logs_once(linguist, api_as):
    gm = api_as("gm")
    one = gm.post(_url(linguist, "latin"), {"hours": 2, "new_language": True, "idempotency_key": "k"}, format="json")
    two = gm.post(_url(linguist, "latin"), {"hours": 2, "new_language": True, "idempotency_key": "k"}, format="json")
    assert one.status_code == 201 and two.status_code == 200 and two.json() == one.json()
    assert Language.objects.get(pk=linguist["latin"].pk).immersion["hours"] == "2"


@pytest.mark.parametrize("body, field", [({"hours": 0}, "hours"), ({"hours": 3, "dice": [7]}, "dice"),
                                         ({"hours": 1, "dice": [1, 1, 1, 1]}, "dice")])
def test_bad_input_changes_nothing(linguist, api_as, body, field):
    response = api_as("gm").post(_url(linguist, "latin"), {**body}, format="json")
    assert response.status_code == 400 and field in response.json()["errors"], response.json()
    assert Language.objects.get(pk=linguist["latin"].pk).immersion == {}


def test_players_do_not_log_their_own_immersion(linguist, api_as):
    assert api_as("player").post(_url(linguist, "latin"), {"hours": 3}, format="json").status_code == 403


def test_the_downtime_page_logs_it_and_the_sheet_shows_the_clock(linguist, client, personas):
    client.force_login(personas["gm"])
    url = reverse("campaign-downtime", args=[personas["campaign"].pk])
    target = f"{linguist['character'].pk}:{linguist['latin'].pk}"
    page = client.post(url, {"action": "immersion", "language": target, "hours": "2", "new_language": "on",
                             "idempotency_key": "page"})
    assert page.status_code == 200 and "2 of 3 h toward the language at 0 ranks" in page.content.decode()
    sheet = client.get(reverse("character-sheet", args=[linguist["character"].pk])).content.decode()
    assert "Immersion" in sheet and "2 of 3 h toward the language at 0 ranks" in sheet


def test_a_language_at_the_top_rank_has_nothing_more_to_learn(linguist, api_as, personas):
    """Found by the API fuzz sweep: a spoken rank of 3 has no next interval (it answered 500)."""
    native = items.item_create(character=linguist["character"], kind_name="languages", by=personas["gm"],
                               is_gm=True, data={"name": "Portuguese", "spoken": 3, "heard": 3, "written": 2,
                                                 "read": 2})
    url = f"/api/v1/characters/{linguist['character'].pk}/languages/{native.pk}/immersion/"
    body = api_as("gm").post(url, {"hours": 5}, format="json")
    assert body.status_code == 201, body.content
    assert body.json()["checks"] == [] and "nothing more to learn" in body.json()["immersion"]["next"]

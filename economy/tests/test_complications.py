"""A Complication of the form "other disadvantages worsened", through the service, the API and the page.

Article, "Karmic Debt": a Complication worsens other disadvantages one rank per rank, up to the
rank limit of ⌈starting Karma / 3⌉ ("Karma Limits"); what does not fit is a stat loss instead.
The characters here start with 10 Karma: the limit is 4 ranks.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.errors import CampaignError
from campaign.models import LogEntry
from characters.models import Character, Disadvantage
from economy import services as economy
from economy.models import Complication

pytestmark = pytest.mark.django_db

SHEET = [{"name": "Greed", "value": 2, "ranks": 1}, {"name": "Vertigo", "value": 1, "ranks": 3},
         {"name": "Phobia: water", "value": 2, "ranks": 4}]


@pytest.fixture
def hero(make_character):
    return make_character("player", name="Hero", disadvantages=SHEET)


def ranks(character) -> dict[str, int]:
    return dict(Disadvantage.objects.filter(character=character).values_list("name", "ranks"))


def ids(character, *names) -> list[int]:
    return [character.disadvantages.get(name=name).pk for name in names]


def state(character) -> tuple:
    """What a refused Complication must leave alone."""
    fresh = Character.objects.get(pk=character.pk)
    return (ranks(character), fresh.starvation_relief, fresh.stat_setbacks, Complication.objects.count(),
            LogEntry.objects.count())


def test_worsening_fills_each_named_disadvantage_up_to_the_limit_in_sheet_order(personas, hero):
    """4 ranks: Greed (1) takes 3 to reach the limit of 4, Vertigo (3) the last one; Phobia is
    at the limit already and takes none."""
    complication = economy.complication_record(
        character=hero, cause="debt", form="worsen", ranks=4, description="The gold fever spreads",
        worsen=ids(hero, "Greed", "Vertigo", "Phobia: water"), by=personas["gm"])
    assert complication.form == Complication.Form.WORSEN and complication.ranks == 4
    assert complication.effects == {"worsened": [{"name": "Greed", "ranks": 3}, {"name": "Vertigo", "ranks": 1}]}
    assert ranks(hero) == {"Greed": 4, "Vertigo": 4, "Phobia: water": 4}
    log = LogEntry.objects.filter(action="complication.record").latest("id")
    assert log.data == {"character": hero.pk, "complication": complication.pk}


def test_a_single_rank_worsens_only_the_first_disadvantage_with_room(personas, hero):
    complication = economy.complication_record(
        character=hero, cause="debt", form="worsen", ranks=1, description="Greedier still",
        worsen=ids(hero, "Phobia: water", "Vertigo"), by=personas["gm"])
    assert complication.effects == {"worsened": [{"name": "Vertigo", "ranks": 1}]}
    assert ranks(hero) == {"Greed": 1, "Vertigo": 4, "Phobia: water": 4}


def test_more_ranks_than_the_named_disadvantages_can_take_is_refused(personas, hero):
    before = state(hero)
    with pytest.raises(CampaignError, match=r"only 3 more rank\(s\) \(limit 4\); make the rest a stat loss") as exc:
        economy.complication_record(character=hero, cause="debt", form="worsen", ranks=4, description="Too much",
                                    worsen=ids(hero, "Greed", "Phobia: water"), by=personas["gm"])
    assert exc.value.field == "worsen"
    assert state(hero) == before


def test_worsening_names_only_this_characters_disadvantages(personas, hero, make_character):
    other = make_character("other_player", name="Other", disadvantages=[{"name": "Greed", "value": 2, "ranks": 1}])
    before = state(hero)
    for worsen in ([], [other.disadvantages.get().pk], [*ids(hero, "Greed"), 987654]):
        with pytest.raises(CampaignError, match="Name the disadvantages to worsen") as exc:
            economy.complication_record(character=hero, cause="debt", form="worsen", ranks=1, description="x",
                                        worsen=worsen, by=personas["gm"])
        assert exc.value.field == "worsen"
    assert state(hero) == before and ranks(other) == {"Greed": 1}


def test_a_starvation_complication_worsens_and_relieves_two_skill_points_a_rank(personas, hero):
    complication = economy.complication_record(
        character=hero, cause="starvation", form="worsen", ranks=2, description="Stretched too thin",
        worsen=ids(hero, "Greed"), by=personas["gm"])
    assert complication.effects == {"worsened": [{"name": "Greed", "ranks": 2}], "skill_points_relieved": 4}
    assert ranks(hero)["Greed"] == 3
    assert Character.objects.get(pk=hero.pk).starvation_relief == 4


def test_a_debt_complication_can_nullify_one_disadvantage_and_worsen_another(personas, hero):
    complication = economy.complication_record(
        character=hero, cause="debt", form="worsen", ranks=1, description="Vertigo gives way to greed",
        nullify=ids(hero, "Vertigo")[0], worsen=ids(hero, "Greed"), by=personas["gm"])
    assert complication.effects == {"nullified": {"name": "Vertigo", "ranks": 3},
                                    "worsened": [{"name": "Greed", "ranks": 1}]}
    assert ranks(hero) == {"Greed": 2, "Phobia: water": 4}


# --- Through the API and the page ----------------------------------------------------------
def test_the_gm_records_a_worsening_complication_through_the_api(personas, api_as, hero):
    url = f"/api/v1/characters/{hero.pk}/complications/"
    body = {"cause": "debt", "form": "worsen", "ranks": 4, "description": "The gold fever spreads",
            "worsen": ids(hero, "Greed", "Vertigo")}
    before = state(hero)
    assert api_as("player").post(url, body, format="json").status_code == 403
    assert state(hero) == before

    response = api_as("gm").post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["form"] == "worsen" and response.json()["by"] == "gm"
    assert response.json()["effects"] == {"worsened": [{"name": "Greed", "ranks": 3},
                                                       {"name": "Vertigo", "ranks": 1}]}
    assert ranks(hero) == {"Greed": 4, "Vertigo": 4, "Phobia: water": 4}
    listed = api_as("player").get(url).json()
    assert [(c["form"], c["effects"]) for c in listed] == [("worsen", response.json()["effects"])]


def test_the_api_refuses_a_worsening_that_does_not_fit_and_changes_nothing(api_as, hero):
    before = state(hero)
    response = api_as("gm").post(f"/api/v1/characters/{hero.pk}/complications/",
                                 {"cause": "debt", "form": "worsen", "ranks": 2, "description": "x",
                                  "worsen": ids(hero, "Phobia: water")}, format="json")
    assert response.status_code == 400
    assert "only 0 more rank(s)" in response.json()["errors"]["worsen"][0]
    assert state(hero) == before


def test_the_gm_worsens_disadvantages_from_the_karma_page(personas, client, hero):
    client.force_login(personas["gm"])
    url = reverse("character-complication", args=[hero.pk])
    response = client.post(url, {"cause": "debt", "form": "worsen", "ranks": 2, "description": "Greedier",
                                 "worsen": ids(hero, "Greed", "Vertigo")}, follow=True)
    assert response.status_code == 200
    assert "Complication recorded for Hero." in response.content.decode()
    assert ranks(hero) == {"Greed": 3, "Vertigo": 3, "Phobia: water": 4}
    refused = client.post(url, {"cause": "debt", "form": "worsen", "ranks": 1, "description": "x",
                                "worsen": ids(hero, "Phobia: water")})
    assert refused.status_code == 400 and "only 0 more rank(s)" in refused.content.decode()
    assert ranks(hero) == {"Greed": 3, "Vertigo": 3, "Phobia: water": 4}

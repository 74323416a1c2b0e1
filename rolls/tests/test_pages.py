"""The roller page, the feed fragment, the tables page, the rule-set setting, and the rolls that
combat and downtime put in the feed."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from campaign import services as campaign_services
from rolls import services
from rolls.models import Roll

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize("persona, code", [("gm", 200), ("player", 200), ("viewer", 200), ("outsider", 404)])
def test_the_roller_page_is_for_members(client, personas, persona, code):
    client.force_login(personas[persona])
    response = client.get(reverse("campaign-roller", args=[personas["campaign"].pk]))
    assert response.status_code == code
    if code == 200:
        html = response.content.decode()
        assert ("Roll the check" in html) == (persona != "viewer")
        assert ("GM only" in html) == (persona == "gm")


def test_a_fresh_roller_asks_for_the_target_instead_of_showing_an_error(client, personas):
    client.force_login(personas["player"])
    url = reverse("campaign-roller", args=[personas["campaign"].pk])
    html = client.get(url).content.decode()
    assert "Give the target to see the odds of the check." in html
    assert "is required" not in html and 'role="alert"' not in html
    # A target typed, then cleared, is an error the player made: it is said as one.
    cleared = client.get(url, {"part": "odds", "target": "", "dice": 3}, **HTMX).content.decode()
    assert 'role="alert"' in cleared and "required" in cleared.lower()


def test_anonymous_visitors_are_sent_to_log_in(client, personas):
    response = client.get(reverse("campaign-roller", args=[personas["campaign"].pk]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_odds_fragment_shows_the_chance_and_marks_the_succeeding_bars(client, personas):
    client.force_login(personas["player"])
    url = reverse("campaign-roller", args=[personas["campaign"].pk])
    html = client.get(url, {"part": "odds", "target": 10, "dice": 3}, **HTMX).content.decode()
    assert "50.00%" in html and "exactly 1/2" in html
    assert html.count('class="bar-success"') == 8 and html.count('class="bar-fail"') == 8  # 3…10 and 11…18
    bad = client.get(url, {"part": "odds", "target": "ten"}, **HTMX).content.decode()
    assert 'role="alert"' in bad and "whole number" in bad


def test_rolling_on_the_page_lands_in_the_feed(client, personas):
    client.force_login(personas["player"])
    campaign = personas["campaign"]
    response = client.post(reverse("campaign-roller-roll", args=[campaign.pk]),
                           {"what": "check", "target": "12", "label": "Climb the wall"}, **HTMX)
    assert response.status_code == 200 and "Climb the wall" in response.content.decode()
    roll = Roll.objects.get()
    assert (roll.by, roll.kind, roll.system, roll.probability) == (personas["player"], "check", "zener", "20/27")
    plain = client.post(reverse("campaign-roller-roll", args=[campaign.pk]), {"what": "notation", "notation": "2d6"})
    assert plain.status_code == 302 and Roll.objects.count() == 2
    bad = client.post(reverse("campaign-roller-roll", args=[campaign.pk]), {"what": "notation", "notation": "2q6"},
                      **HTMX)
    assert bad.status_code == 400 and "not dice notation" in bad.content.decode() and Roll.objects.count() == 2


@pytest.mark.parametrize("persona, private, code", [("viewer", "", 403), ("player", "on", 403), ("outsider", "", 404)])
def test_who_may_not_roll_on_the_page(client, personas, persona, private, code):
    client.force_login(personas[persona])
    response = client.post(reverse("campaign-roller-roll", args=[personas["campaign"].pk]),
                           {"what": "notation", "notation": "1d6", "private": private})
    assert response.status_code == code and not Roll.objects.exists()


def test_the_feed_fragment_hides_private_rolls_from_players(client, personas):
    campaign = personas["campaign"]
    services.roll_notation(campaign=campaign, by=personas["gm"], text="1d20", label="Hidden sniper", private=True,
                           rng=random.Random(1))
    services.roll_notation(campaign=campaign, by=personas["player"], text="1d6", label="Open door",
                           rng=random.Random(2))
    for persona, sees in (("gm", True), ("player", False), ("viewer", False)):
        client.force_login(personas[persona])
        html = client.get(reverse("campaign-rolls-feed", args=[campaign.pk])).content.decode()
        assert "Open door" in html and ("Hidden sniper" in html) == sees
        dashboard = client.get(reverse("campaign-dashboard", args=[campaign.pk])).content.decode()
        assert "Open door" in dashboard and ("Hidden sniper" in dashboard) == sees


def test_seeded_rolls_repeat(personas):
    campaign = personas["campaign"]
    first = services.roll_notation(campaign=campaign, by=None, text="4d6kh3", rng=random.Random(7))
    second = services.roll_notation(campaign=campaign, by=None, text="4d6kh3", rng=random.Random(7))
    assert first.dice == second.dice and first.total == second.total


# --- The campaign's rule set ---------------------------------------------------------------
def test_the_gm_picks_the_rule_set_and_its_rulings(client, personas):
    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    url = reverse("campaign-settings", args=[campaign.pk])
    form = {"action": "settings", "name": campaign.name, "description": "", "stat_entry": "enter", "stat_dice": "4d6",
            "max_skill_ranks": 3, "rule_set": "success_check"}
    assert client.post(url, form).status_code == 302
    campaign.refresh_from_db()
    assert (campaign.rule_set, campaign.rulings) == ("success_check", {})
    html = client.get(url).content.decode()
    assert 'name="ruling_advantage_drop"' in html  # the new rule set's rulings, one field each
    assert client.post(url, {**form, "ruling_advantage_drop": 1}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.rulings == {"advantage_drop": 1}
    roller = client.get(reverse("campaign-roller", args=[campaign.pk])).content.decode()
    assert 'name="tn"' in roller and 'name="bonus"' in roller and 'name="target"' not in roller


def test_bad_rule_sets_and_rulings_are_refused_by_the_service(personas):
    from campaign.errors import CampaignError

    campaign, gm = personas["campaign"], personas["gm"]
    with pytest.raises(CampaignError) as bad_key:
        campaign_services.campaign_update(campaign=campaign, by=gm, rule_set="chess")
    assert bad_key.value.field == "rule_set"
    with pytest.raises(CampaignError) as unknown:
        campaign_services.campaign_update(campaign=campaign, by=gm, rule_set="core_rules", rulings={"colour": 1})
    assert unknown.value.field == "rulings.colour"
    with pytest.raises(CampaignError) as out_of_range:
        campaign_services.campaign_update(campaign=campaign, by=gm, rule_set="core_rules", rulings={"es_dice": 9})
    assert out_of_range.value.field == "rulings.es_dice"
    campaign.refresh_from_db()
    assert (campaign.rule_set, campaign.rulings) == ("zener", {})


# --- Combat and downtime dice in the feed ---------------------------------------------------
def test_an_attack_puts_its_dice_and_odds_in_the_feed(personas, api_as, make_character):
    alice = make_character("player")
    gm = api_as("gm")
    encounter = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Docks"},
                        format="json").json()["id"]
    me = gm.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    goon = gm.post(f"/api/v1/encounters/{encounter}/combatants/", {
        "name": "Goon", "revealed": True, "weapons": [{"name": "Club", "damage_points": 3, "melee": True, "ranks": 1}]},
        format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{encounter}/initiative/", {"dice": {str(goon): [6], str(me): [1]}}, format="json")
    response = gm.post(f"/api/v1/encounters/{encounter}/attacks/", {
        "attacker": goon, "target": me, "stat": "MEL", "dice": {"attack": [6, 6, 6]}}, format="json")
    assert response.status_code == 201, response.content
    roll = Roll.objects.get(kind="combat")
    assert [d["face"] for d in roll.dice] == [6, 6, 6] and all(d["entered"] for d in roll.dice)
    assert roll.total == 18 and roll.success is False and "/" in roll.probability and not roll.private
    feed = api_as("player").get(f"/api/v1/campaigns/{personas['campaign'].pk}/rolls/").json()["rolls"]
    assert [r["id"] for r in feed] == [roll.pk]


def test_downtime_dice_land_in_the_feed(personas, make_character):
    from characters.models import Character
    from downtime import services as downtime

    alice = make_character("player")
    Character.objects.filter(pk=alice.pk).update(endurance_spent=6)
    job, _ = downtime.downtime_start(campaign=personas["campaign"], by=personas["gm"],
                                     request={"hours": 1, "rest": "comfortable", "idempotency_key": "feed-dt"})
    downtime.downtime_run(job_id=job.pk)
    rolls = list(Roll.objects.filter(kind="downtime"))
    report = job.downtime_claims.get().report
    assert report["dice"]  # quick END recovery rolls a d6 per half hour of rest after END was spent
    assert len(rolls) == 1 and [d["face"] for d in rolls[0].dice] == [d["face"] for d in report["dice"]]
    assert rolls[0].total == sum(d["face"] for d in report["dice"]) and not rolls[0].private


# --- The universal tables --------------------------------------------------------------------
@pytest.mark.parametrize("query, shown", [
    ({"table": "distance", "by": "value", "q": "250"}, "Index <strong class=\"big\">24</strong>"),
    ({"table": "distance", "by": "index", "q": "20"}, "100 m"),
    ({"table": "weight", "by": "index", "q": "10"}, "30 kg"),
    ({"table": "weight", "by": "value", "q": "16"}, "Index <strong class=\"big\">3</strong>"),  # 15 kg reached
])
def test_the_tables_calculator_reads_both_ways(client, personas, query, shown):
    client.force_login(personas["viewer"])
    html = client.get(reverse("tables"), query).content.decode()
    assert shown in html


def test_the_tables_calculator_explains_bad_input(client, personas):
    client.force_login(personas["viewer"])
    html = client.get(reverse("tables"), {"table": "distance", "by": "index", "q": "ten"}).content.decode()
    assert 'role="alert"' in html and "whole number" in html
    html = client.get(reverse("tables"), {"table": "distance", "by": "value", "q": "-3"}).content.decode()
    assert 'role="alert"' in html


@pytest.mark.django_db(transaction=True)
def test_saving_settings_commits_for_real(client, api_as, personas):
    """Outside a test's own transaction, as in production: the settings write runs atomically."""
    campaign = personas["campaign"]
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-settings", args=[campaign.pk]), {
        "action": "settings", "name": "Renamed", "description": "", "stat_entry": "enter", "stat_dice": "4d6",
        "max_skill_ranks": 3, "rule_set": "rocket_house"})
    assert response.status_code == 302
    patched = api_as("gm").patch(f"/api/v1/campaigns/{campaign.pk}/", {"rulings": {"stalemate": 1}}, format="json")
    assert patched.status_code == 200, patched.content
    campaign.refresh_from_db()
    assert (campaign.name, campaign.rule_set, campaign.rulings) == ("Renamed", "rocket_house", {"stalemate": 1})

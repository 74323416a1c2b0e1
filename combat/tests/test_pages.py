"""Tracker pages: who sees what, what the buttons do, and what they refuse on the server."""

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils.html import escape

from characters.models import Character
from combat import services
from combat.models import Combatant, CombatEvent, Encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def encounter(personas, make_character):
    gm = personas["gm"]
    alice = make_character("player")
    encounter = services.encounter_create(campaign=personas["campaign"], by=gm, name="Depot",
                                          gm_notes="The crates are empty")
    services.combatant_add(encounter=encounter, by=gm, character_id=alice.pk)
    services.combatant_add(encounter=encounter, by=gm, npc={"name": "Hidden sniper", "weapons": [
        {"name": "Rifle", "damage_points": 5}]})
    return encounter


@pytest.mark.parametrize("persona, status", [("gm", 200), ("player", 200), ("viewer", 200), ("outsider", 404)])
def test_members_see_the_tracker_and_only_the_gm_sees_secrets(client, personas, encounter, persona, status):
    client.force_login(personas[persona])
    response = client.get(reverse("encounter", args=[encounter.pk]))
    assert response.status_code == status
    if status == 200:
        page = response.content
        assert (b"Hidden sniper" in page) == (persona == "gm")
        assert (b"The crates are empty" in page) == (persona == "gm")
        assert (b"Roll initiative" in page) == (persona == "gm")


def test_anonymous_is_sent_to_log_in(client, encounter):
    response = client.get(reverse("encounter", args=[encounter.pk]))
    assert response.status_code == 302 and reverse("login") in response.url


@pytest.mark.parametrize("persona, status", [("player", 403), ("viewer", 403), ("outsider", 404)])
def test_gm_buttons_are_refused_on_the_server(client, personas, encounter, persona, status):
    client.force_login(personas[persona])
    before = (Encounter.objects.get(pk=encounter.pk).state, CombatEvent.objects.count())
    for action in ("initiative", "next", "undo", "end", "reveal"):
        response = client.post(reverse("encounter-act", args=[encounter.pk]), {"action": action, "combatant": 1})
        assert response.status_code == status, action
    assert (Encounter.objects.get(pk=encounter.pk).state, CombatEvent.objects.count()) == before


def test_the_gm_runs_a_round_from_the_console(client, personas, encounter):
    client.force_login(personas["gm"])
    url = reverse("encounter-act", args=[encounter.pk])
    assert client.post(url, {"action": "initiative"}).status_code == 302
    encounter.refresh_from_db()
    assert encounter.state == "running" and encounter.round == 1
    sniper = Combatant.objects.get(name="Hidden sniper")
    client.post(url, {"action": "reveal", "combatant": sniper.pk})
    assert Combatant.objects.get(pk=sniper.pk).revealed
    client.post(url, {"action": "next"})
    client.post(url, {"action": "undo"})
    encounter.refresh_from_db()
    assert encounter.turn == 0


def _sniper_preview(client, personas, encounter, area: str):
    """The GM's attack preview of the hidden sniper on alice's character, aimed at ``area``."""
    client.force_login(personas["gm"])
    services.initiative_roll(encounter=encounter, by=personas["gm"])
    sniper = Combatant.objects.get(name="Hidden sniper")
    alice = Combatant.objects.exclude(pk=sniper.pk).get()
    return client.get(reverse("encounter-preview", args=[encounter.pk]),
                      {"attacker": sniper.pk, "target": alice.pk, "stat": "ACC", "aimed_area": area})


def test_the_attack_preview_shows_the_odds(client, personas, encounter):
    response = _sniper_preview(client, personas, encounter, "whole_body")
    assert response.status_code == 200 and b"to hit" in response.content and b"/" in response.content


def test_the_attack_preview_says_which_stats_a_called_shot_risks(client, personas, encounter):
    """"Hit Location": aimed at a hand, stat damage falls most on MEL and DEX, 20 in 100 hits each
    (the hand's d10 names DEX three times in ten and is rolled twice); the preview says so where
    the GM chooses the aim."""
    page = _sniper_preview(client, personas, encounter, "right_hand")
    text = page.content.decode()
    assert page.status_code == 200 and "Per 100 hits aimed here, stat damage falls on: MEL 20 · DEX 20 · " in text


def test_a_player_cannot_attack_with_a_character_that_is_not_theirs(client, personas, encounter):
    services.initiative_roll(encounter=encounter, by=personas["gm"])
    sniper = Combatant.objects.get(name="Hidden sniper")
    services.combatant_update(combatant=sniper, by=personas["gm"], revealed=True)
    alice = Combatant.objects.exclude(pk=sniper.pk).get()
    client.force_login(personas["other_player"])
    response = client.post(reverse("encounter-act", args=[encounter.pk]),
                           {"action": "attack", "attacker": alice.pk, "target": sniper.pk, "stat": "MEL",
                            "aimed_area": "whole_body"})
    assert response.status_code == 403
    assert not CombatEvent.objects.filter(kind="attack").exists()


def test_the_gm_page_offers_the_dying_check_and_players_see_only_the_badge(client, personas, encounter):
    services.initiative_roll(encounter=encounter, by=personas["gm"])
    alice = Combatant.objects.exclude(name="Hidden sniper").get()
    Character.objects.filter(pk=alice.character_id).update(trauma=F("hit_points"))  # HP left 0: dying
    for persona, shown in (("gm", True), ("player", False)):
        client.force_login(personas[persona])
        page = client.get(reverse("encounter", args=[encounter.pk])).content.decode()
        assert (f"{escape(alice.name)} is dying" in page) == shown, persona
        assert ("Roll the CON check" in page) == shown, persona
        assert 'class="badge bad">dying' in page


def test_the_page_puts_the_viewers_own_attack_form_in_the_shared_tracker(client, personas, encounter):
    """The tracker is the audience's shared copy; the form in its slot is the viewer's, with their token."""
    from campaign import parts as campaign_parts

    services.initiative_roll(encounter=encounter, by=personas["gm"])
    client.force_login(personas["gm"])
    campaign_parts.RENDERS.clear()
    for _ in range(2):
        page = client.get(reverse("encounter", args=[encounter.pk])).content.decode()
        assert page.count('class="attack-form"') == 1 and "data-live-slot" not in page
        assert "zg-csrf-token-here" not in page and 'name="csrfmiddlewaretoken" value="' in page
    assert campaign_parts.RENDERS[("encounter", "gm")] == 1  # the second page read the first one's copy
    fragment = client.get(reverse("encounter-live", args=[encounter.pk])).content.decode()
    assert fragment.count('class="attack-form"') == 1 and "Hidden sniper" in fragment
    assert campaign_parts.RENDERS[("encounter", "gm")] == 1


def test_the_gm_sets_the_round_length_on_the_page_as_through_the_api(client, personas):
    """"Combat Time": a turn is typically 10 seconds, more or less at the GM's discretion; the page
    takes the same bounds as the API (1 to 3,600 s), refusing the rest with a word."""
    client.force_login(personas["gm"])
    url = reverse("campaign-encounters", args=[personas["campaign"].pk])
    client.post(url, {"name": "Siege", "initiative_stat": "MEL", "round_seconds": "60"})
    assert Encounter.objects.get(name="Siege").round_seconds == 60
    refused = client.post(url, {"name": "Blink", "initiative_stat": "MEL", "round_seconds": "0"})
    assert refused.status_code == 400 and not Encounter.objects.filter(name="Blink").exists()
    client.post(url, {"name": "Usual", "initiative_stat": "MEL"})
    assert Encounter.objects.get(name="Usual").round_seconds == 10

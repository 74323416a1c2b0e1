"""Text written once and read by many (campaign log lines, a fight's events, roll labels) reads in
each reader's language, whoever wrote it and in whatever language they played: it is kept as a
Said (rulebook.words) and written out when read."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from campaign.models import LogEntry
from campaign.services import membership_add
from combat import attacks
from combat.tests.test_your_turn import _warehouse
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from rolls.models import Roll

pytestmark = pytest.mark.django_db

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def _attack(personas, make_character):
    """The GM, playing in German, rolls Alice's attack on the thug."""
    encounter = _warehouse(personas, make_character, alice_first=True)
    alice, thug = (encounter.combatants.get(character__isnull=False), encounter.combatants.get(name="Thug"))
    with translation.override("de"):
        event = attacks.attack_make(encounter=encounter, by=personas["gm"], rng=random.Random(4),
                                    request=attacks.AttackRequest(attacker=alice.pk, target=thug.pk))
    return encounter, event


def test_a_fights_event_reads_in_each_readers_language(client, personas, make_character):
    encounter, event = _attack(personas, make_character)
    # Kept in English, whatever language the GM played in.
    assert event.summary.startswith("Alice attacks Thug with Service pistol: ")
    client.force_login(personas["player"])
    german = client.get(f"/encounters/{encounter.pk}/", **GERMAN).content.decode()
    english = client.get(f"/encounters/{encounter.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Alice greift Thug mit Service pistol an: " in german and "attacks Thug" not in german
    assert "Alice attacks Thug with Service pistol: " in english and "greift" not in english
    # The API's log follows Accept-Language too; its data stay as they were.
    log = client.get(f"/api/v1/encounters/{encounter.pk}/log/", **GERMAN).json()
    told = [entry["summary"] for entry in log["events"]]
    assert any(text.startswith("Alice greift Thug") for text in told)


def test_the_roll_feed_tells_an_attack_roll_in_the_readers_language(client, personas, make_character):
    _attack(personas, make_character)
    roll = Roll.objects.get(kind="combat")
    assert roll.label.startswith("Alice attacks Thug")
    client.force_login(personas["player"])
    feed = client.get(f"/campaigns/{personas['campaign'].pk}/roller/", **GERMAN).content.decode()
    assert "Alice greift Thug mit Service pistol an: " in feed


def test_a_log_line_reads_in_each_readers_language(client, personas, make_user):
    newcomer = make_user("dora")
    with translation.override("de"):  # written by a GM who plays in German
        membership_add(campaign=personas["campaign"], username=newcomer.username, role="player", by=personas["gm"])
    entry = LogEntry.objects.filter(action="membership.add").latest("id")
    assert entry.summary == f"{personas['gm']} added dora as Player"
    client.force_login(personas["player"])
    campaign = personas["campaign"].pk
    assert f"{personas['gm']} hat dora als Spieler" in client.get(f"/campaigns/{campaign}/log/", **GERMAN).content.decode()
    assert f"{personas['gm']} added dora as Player" in client.get(f"/campaigns/{campaign}/log/").content.decode()
    api = client.get(f"/api/v1/campaigns/{campaign}/log/", **GERMAN).json()
    assert any(e["summary"].startswith(f"{personas['gm']} hat dora als Spieler") for e in api["entries"])


def test_a_line_kept_before_saids_reads_as_written(client, personas):
    from campaign.testing import arranged

    campaign = personas["campaign"]
    with arranged():
        LogEntry.objects.create(campaign=campaign, action="campaign.update", summary="an old line, kept as it was")
    client.force_login(personas["gm"])
    assert "an old line, kept as it was" in client.get(f"/campaigns/{campaign.pk}/log/", **GERMAN).content.decode()

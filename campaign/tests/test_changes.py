"""The one write path (campaign.changes): writes outside a change set are refused, a change set
is joined by the services it calls, its audit lines and events carry their audience, the page
cache moves once the write commits, and a lock held too long is a 409 that changed nothing."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign import pagecache, services
from campaign.audience import GM_ONLY
from campaign.changes import NoChangeSet, change_set, current
from campaign.models import Campaign, Event, LogEntry, Membership
from campaign.testing import arranged
from characters.models import Character
from rolls.events import RollMade
from rulebook.words import said

pytestmark = pytest.mark.django_db


def test_a_model_of_the_campaign_saved_outside_a_change_set_is_refused(personas):
    campaign = personas["campaign"]
    with pytest.raises(NoChangeSet, match="campaign.Membership was written outside a change set"):
        with transaction.atomic():
            Membership.objects.create(campaign=campaign, user=personas["outsider"], role="viewer")
    with pytest.raises(NoChangeSet), transaction.atomic():
        campaign.name = "Renamed behind the GM's back"
        campaign.save()
    with pytest.raises(NoChangeSet), transaction.atomic():
        Campaign.objects.get(pk=campaign.pk).delete()
    assert Campaign.objects.get(pk=campaign.pk).name == "Test campaign"
    assert not Membership.objects.filter(user=personas["outsider"]).exists()


def test_a_change_set_ends_with_its_block(personas):
    """A service's change set is gone once the service returns: the next write needs its own."""
    services.campaign_update(campaign=personas["campaign"], by=personas["gm"], name="Vienna")
    assert current() is None
    with pytest.raises(NoChangeSet), transaction.atomic():
        Membership.objects.create(campaign=personas["campaign"], user=personas["outsider"], role="viewer")


def test_a_service_called_by_another_joins_its_change_set(personas, make_character):
    alice = make_character("player", karma=3)
    with transaction.atomic():
        outer = change_set(campaign=personas["campaign"], by=personas["gm"])
        services.membership_add(campaign=personas["campaign"], username="outsider", role="viewer",
                                by=personas["gm"])
        assert current() is outer
        assert change_set(campaign=alice.campaign_id, by=personas["gm"]) is outer
    assert LogEntry.objects.filter(action="membership.add", data__user=personas["outsider"].pk).count() == 1


def test_audit_lines_and_events_carry_their_audience(personas):
    campaign = personas["campaign"]
    with arranged(campaign) as write:
        write.audit("test.secret", said("The GM's plan"), seen=GM_ONLY)
        write.publish(RollMade(roll=1, seen=GM_ONLY))
    line = LogEntry.objects.get(action="test.secret")
    event = Event.objects.filter(campaign=campaign, kind="roll").latest("id")
    assert (line.audience, line.audience_user_id) == ("gm", None)
    assert (event.audience, event.data) == ("gm", {"roll": 1, "rolls": None})


@pytest.mark.django_db(transaction=True)
def test_the_page_cache_moves_once_the_write_commits_and_not_before(personas):
    campaign = personas["campaign"]
    before = pagecache.version(campaign.pk)
    with transaction.atomic():
        services.campaign_update(campaign=campaign, by=personas["gm"], name="Prague")
        assert pagecache.version(campaign.pk) == before  # not yet: a reader could cache the old page
    after = pagecache.version(campaign.pk)
    assert after != before
    with pytest.raises(RuntimeError), transaction.atomic():
        services.campaign_update(campaign=campaign, by=personas["gm"], name="Rolled back")
        raise RuntimeError("the write fails after the change")
    assert pagecache.version(campaign.pk) == after  # a write that rolled back moved nothing
    assert Campaign.objects.get(pk=campaign.pk).name == "Prague"


@pytest.mark.django_db(transaction=True)
def test_a_write_stuck_behind_a_lock_is_a_409_that_changed_nothing(personas, api_as, make_character, settings):
    """Locks wait at most DB_LOCK_TIMEOUT_MS (set on every connection), then: busy, try again."""
    from campaign.tests.test_locks import held_open

    alice = make_character("player", karma=5)
    with held_open(lambda: Character.objects.select_for_update().get(pk=alice.pk)):
        response = api_as("gm").post(f"/api/v1/characters/{alice.pk}/wounds/", {"trauma": 2, "reason": "a fall"},
                                     format="json")
    assert response.status_code == 409, response.content
    assert "Try again" in response.json()["errors"]["detail"][0]
    assert Character.objects.get(pk=alice.pk).trauma == 0


@pytest.mark.django_db(transaction=True)
def test_a_page_write_stuck_behind_a_lock_is_a_busy_page_not_a_500(personas, make_character):
    from django.test import Client
    from django.urls import reverse

    from campaign.tests.test_locks import held_open

    alice = make_character("player", karma=5)
    client = Client()
    client.force_login(personas["gm"])
    with held_open(lambda: Character.objects.select_for_update().get(pk=alice.pk)):
        response = client.post(reverse("character-wounds-record", args=[alice.pk]),
                               {"trauma": 2, "shock": 0, "end": 0, "reason": "a fall"})
    assert response.status_code == 409
    assert "Busy: try again" in response.content.decode() and "nothing was changed" in response.content.decode()
    assert Character.objects.get(pk=alice.pk).trauma == 0

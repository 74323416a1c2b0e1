"""Writers lock the rows they check FOR NO KEY UPDATE: other writers of the same row wait, but
adding a row that refers to it (a log entry, a Karma entry) does not.

Two real connections on PostgreSQL: a thread runs a real service inside a transaction it keeps
open, so the service's locks stay held; meanwhile the test's own connection inserts, with a
short ``lock_timeout`` so that waiting on the lock fails loudly instead of passing slowly.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction

from campaign import services
from campaign.changes import change_set
from campaign.models import Campaign, LogEntry
from characters import services as character_services
from characters.models import Character
from economy.models import KarmaEntry

pytestmark = pytest.mark.django_db(transaction=True)

LOCK_TIMEOUT = "500ms"


@contextmanager
def held_open(write):
    """Run ``write`` in another thread and connection, in a transaction kept open until the block ends."""
    ready, release, failure = threading.Event(), threading.Event(), []

    def run():
        try:
            with transaction.atomic():
                write()
                ready.set()
                release.wait(30)
        except Exception as exc:  # reported by the test thread
            failure.append(exc)
            ready.set()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert ready.wait(30), "the writer never got its lock"
        assert not failure, failure
        yield
    finally:
        release.set()
        thread.join(30)
    assert not failure, failure


@contextmanager
def impatient():
    """A transaction that gives up on any lock it would wait for longer than LOCK_TIMEOUT."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
        yield


def assert_locked_against_writers(model, pk: int) -> None:
    """The row is really locked: another writer's NOWAIT lock on it fails at once."""
    with pytest.raises(OperationalError), transaction.atomic():
        model.objects.select_for_update(no_key=True, nowait=True).get(pk=pk)


def test_while_a_writer_holds_the_campaign_a_row_referring_to_it_is_added_without_waiting(personas):
    campaign, gm = personas["campaign"], personas["gm"]
    with held_open(lambda: services.campaign_update(campaign=campaign, by=gm, name="Renamed")):
        assert_locked_against_writers(Campaign, campaign.pk)
        started = time.monotonic()
        with impatient():
            entry = LogEntry.objects.create(campaign=campaign, actor=gm, action="test", summary="added meanwhile")
        assert time.monotonic() - started < 0.5
    assert LogEntry.objects.filter(pk=entry.pk).exists()
    assert Campaign.objects.get(pk=campaign.pk).name == "Renamed"


def test_while_a_writer_holds_a_character_its_ledger_and_its_campaigns_log_grow_without_waiting(personas):
    campaign, gm = personas["campaign"], personas["gm"]
    character = character_services.character_create(
        campaign=campaign, owner=personas["player"], name="Mara", by=gm, is_gm=True,
        stats={"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10, "PRAC": 15,
               "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}, int_dice=[4, 2])
    # A writer in the middle of a sheet's write holds the character and, through its join, the
    # campaign row too (as character_update does, before its end).
    with held_open(lambda: list(Character.objects.select_related("campaign").select_for_update(no_key=True)
                                .filter(pk=character.pk))):
        assert_locked_against_writers(Character, character.pk)
        assert_locked_against_writers(Campaign, campaign.pk)
        with impatient():
            change_set(campaign=campaign)
            LogEntry.objects.create(campaign=campaign, action="test", summary="added meanwhile")
            KarmaEntry.objects.create(campaign=campaign, character=character, kind="manual", amount=0,
                                      balance_after=0, reason="added meanwhile")


def test_the_check_above_would_catch_a_full_lock(personas):
    """The control: under a plain FOR UPDATE the same insert waits, and the timeout says so."""
    campaign = personas["campaign"]
    with held_open(lambda: Campaign.objects.select_for_update().get(pk=campaign.pk)):
        with pytest.raises(OperationalError, match="lock timeout"), impatient():
            LogEntry.objects.create(campaign=campaign, action="test", summary="waits")

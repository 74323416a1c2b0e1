"""`manage.py backup` and `manage.py restore` (make backup / make restore): a round trip brings
the data back, empties the page cache and leaves the broker's queue alone."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign import services
from campaign.models import Campaign
from campaign.testing import arranged
from zenergate_site import backups

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]  # stack: pg_dump and pg_restore


def test_backup_then_restore_brings_the_data_back(tmp_path):
    User = get_user_model()
    gm = User.objects.create_user(username="keeper", password="x")
    campaign = services.campaign_create(name="Before the fall", by=gm)

    file = tmp_path / "zenergate.dump"
    call_command("backup", output=file)
    assert file.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert not list(tmp_path.glob("*.partial"))

    # What happens after the backup: a campaign deleted, a user renamed, a new one.
    with arranged(campaign):
        Campaign.objects.filter(pk=campaign.pk).delete()
    User.objects.filter(pk=gm.pk).update(username="renamed")
    User.objects.create_user(username="latecomer", password="x")
    cache.set("page:sheet", "rendered from newer data")
    broker = cache._cache.get_client(write=True)
    broker.set("celery-test-queue", "a waiting job")  # not Django's: the broker's, in the same Redis

    call_command("restore", str(file), interactive=False)

    assert Campaign.objects.get(pk=campaign.pk).name == "Before the fall"
    assert User.objects.get(pk=gm.pk).username == "keeper"
    assert not User.objects.filter(username="latecomer").exists()
    assert cache.get("page:sheet") is None
    assert broker.get("celery-test-queue") == b"a waiting job"
    broker.delete("celery-test-queue")


def test_backup_writes_a_timestamped_file_by_default(tmp_path, settings):
    settings.BASE_DIR = tmp_path
    call_command("backup")
    [file] = (tmp_path / "backups").glob("zenergate-*.dump")
    assert file.stat().st_size > 0


def test_restore_refuses_a_file_that_is_not_there(tmp_path):
    with pytest.raises(CommandError, match="is not a file"):
        call_command("restore", str(tmp_path / "missing.dump"), interactive=False)


def test_a_broken_backup_changes_nothing(tmp_path):
    User = get_user_model()
    User.objects.create_user(username="still-here", password="x")
    broken = tmp_path / "broken.dump"
    broken.write_bytes(b"PGDMP not really")
    with pytest.raises(CommandError, match="pg_restore failed"):
        call_command("restore", str(broken), interactive=False)
    assert User.objects.filter(username="still-here").exists()


def test_the_newest_tool_is_used(monkeypatch, tmp_path):
    assert backups.pg_tool("pg_dump").name == "pg_dump"
    monkeypatch.setenv("PG_BIN_DIR", str(tmp_path))
    with pytest.raises(backups.BackupError, match="does not exist"):
        backups.pg_tool("pg_dump")


def test_clear_cache_empties_djangos_keys_only():
    cache.set("page:dashboard", "old")
    broker = cache._cache.get_client(write=True)
    broker.set("celery-test-queue", "a waiting job")
    call_command("clear_cache")
    assert cache.get("page:dashboard") is None
    assert broker.get("celery-test-queue") == b"a waiting job"
    broker.delete("celery-test-queue")

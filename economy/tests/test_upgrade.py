"""A database made before the economy's models left the campaign app upgrades without loss.

``data/before_economy_app.sql.gz`` is a plain dump of such a database: the migrations of that
time, the demo campaign, a closed adventure with its payouts, a MacGuffin with contributions, a
Complication and an NPC boost. It is restored into a new database and migrated; the result must
hold every row it held and have exactly the schema a new database gets from today's migrations.
"""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

ROOT = Path(__file__).resolve().parents[2]
DUMP = Path(__file__).with_name("data") / "before_economy_app.sql.gz"
MOVED_TABLES = ("campaign_adventure", "campaign_badnewstoken", "campaign_macguffin", "campaign_karmaentry",
                "campaign_complication")


def _url(name: str) -> str:
    """DATABASE_URL with its database swapped for ``name`` (a TCP address or a socket directory)."""
    base = os.environ["DATABASE_URL"]
    return base.rsplit("/", 1)[0] + "/" + name


def _conninfo(name: str) -> dict:
    db = settings.DATABASES["default"]
    return {"dbname": name, "user": db.get("USER") or None, "host": db.get("HOST") or None,
            "port": db.get("PORT") or None, "password": db.get("PASSWORD") or None}


@pytest.fixture
def scratch_databases():
    """Make databases of our own beside the test database, and drop them afterwards."""
    made = []

    def make(name: str) -> str:
        name = f"{connection.settings_dict['NAME']}_{name}"
        with psycopg.connect(**_conninfo("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return name

    yield make
    with psycopg.connect(**_conninfo("postgres"), autocommit=True) as admin:
        for name in made:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _restore(name: str) -> None:
    # psql's own commands (\connect, \restrict…) are not SQL; the rest runs as one script.
    script = "\n".join(line for line in gzip.decompress(DUMP.read_bytes()).decode().splitlines()
                       if not line.startswith("\\"))
    with psycopg.connect(**_conninfo(name), autocommit=True) as db:
        db.execute(script)


def _migrate(name: str) -> None:
    env = {**os.environ, "DATABASE_URL": _url(name), "DEBUG": "1", "LOG_FORMAT": "plain"}
    done = subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


def _rows(name: str, query: str) -> list[tuple]:
    with psycopg.connect(**_conninfo(name)) as db:
        return db.execute(query).fetchall()


def _columns(name: str, table: str) -> str:
    """The table's columns, in order, as a select list (a later migration may add more)."""
    with psycopg.connect(**_conninfo(name)) as db:
        cursor = db.execute(f"SELECT * FROM {table} LIMIT 0")
        return ", ".join(column.name for column in cursor.description)


def _plain(definition: str) -> str:
    """A CHECK as PostgreSQL prints it, without casts and brackets: a dump and a restore re-parse
    "state IN ('draft', …)" into a spelling with other casts that means the same."""
    return re.sub(r"::[a-z ]+(\[\])?|[() ]", "", definition)


def _schema(name: str) -> dict[str, set]:
    """Columns, constraints and indexes of the public schema, by name and definition."""
    return {
        "columns": set(_rows(name, """
            SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
            FROM information_schema.columns WHERE table_schema = 'public'""")),
        "constraints": {(table, constraint, _plain(definition)) for table, constraint, definition in _rows(name, """
            SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
            FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
            WHERE n.nspname = 'public'""")},
        "indexes": set(_rows(name, "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'")),
    }


def test_a_database_from_before_the_move_keeps_every_row_and_ends_with_todays_schema(scratch_databases):
    old, new = scratch_databases("before_move"), scratch_databases("fresh")
    _restore(old)
    columns = {table: _columns(old, table) for table in MOVED_TABLES}
    before = {table: _rows(old, f"SELECT {columns[table]} FROM {table} ORDER BY id") for table in MOVED_TABLES}
    before_types = _rows(old, "SELECT id, model FROM django_content_type WHERE app_label = 'campaign' "
                              "AND model IN ('adventure', 'macguffin', 'karmaentry') ORDER BY id")
    assert len(before["campaign_karmaentry"]) >= 5 and before["campaign_complication"], "the dump holds a ledger"

    _migrate(old)
    _migrate(new)

    # Every row as it was, in the columns it had (columns added since, such as a ledger entry's
    # kept words, are new and empty).
    after = {table: _rows(old, f"SELECT {columns[table]} FROM {table} ORDER BY id") for table in MOVED_TABLES}
    assert after == before
    # The models kept their content types (ids, so permissions and admin history stay attached).
    assert _rows(old, "SELECT id, model FROM django_content_type WHERE app_label = 'economy' "
                      "AND model IN ('adventure', 'macguffin', 'karmaentry') ORDER BY id") == before_types
    upgraded, fresh = _schema(old), _schema(new)
    for part in fresh:
        assert (upgraded[part] - fresh[part], fresh[part] - upgraded[part]) == (set(), set()), part
    # The balances the ledger caches still agree with it.
    assert _rows(old, """SELECT c.id, c.karma FROM characters_character c ORDER BY c.id""") == _rows(old, """
        SELECT c.id, COALESCE(SUM(k.amount), 0) FROM characters_character c
        LEFT JOIN campaign_karmaentry k ON k.character_id = c.id GROUP BY c.id ORDER BY c.id""")


def test_the_upgraded_database_takes_new_karma(scratch_databases):
    """After the upgrade the ledger is written through the moved models, constraints and all."""
    old = scratch_databases("before_move_write")
    _restore(old)
    _migrate(old)
    script = (
        "from django.contrib.auth import get_user_model\n"
        "from characters.models import Character\n"
        "from economy.ledger import KarmaShort, karma_post\n"
        "gm = get_user_model().objects.get(username='gm')\n"
        "c = Character.objects.filter(state='active').order_by('id').first()\n"
        "entry, made = karma_post(character=c, amount=2, kind='npc_boost', by=gm, reason='after the upgrade')\n"
        "try:\n"
        "    karma_post(character=c, amount=-(entry.balance_after + 1), kind='manual', by=gm, reason='too much')\n"
        "except KarmaShort:\n"
        "    print('refused')\n"
        "print(made, entry.balance_after, c.karma_entries.count())\n"
    )
    env = {**os.environ, "DATABASE_URL": _url(old), "DEBUG": "1", "LOG_FORMAT": "plain"}
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    refused, summary = done.stdout.strip().splitlines()[-2:]  # after Django's shell's own banner
    made, balance, count = summary.split()
    assert refused == "refused" and made == "True"
    first = _rows(old, "SELECT karma FROM characters_character WHERE state = 'active' ORDER BY id LIMIT 1")[0][0]
    assert int(balance) == first
    assert int(count) >= 2

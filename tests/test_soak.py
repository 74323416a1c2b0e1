"""The short night of faults (bench/soak/bench_soak.py): two tables play for two minutes under
`make run`'s own supervisor while each fault comes once (the worker, Redis killed and stopped,
PostgreSQL stopped, a stream and a web process killed, a backup mid-play); afterwards every
acknowledged write is in the database once, no answer was a 5xx but a 503 with Retry-After,
every page caught up, and the backup restores to the campaign as it was exported then."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.stack

ROOT = Path(__file__).resolve().parent.parent
FAULTS = {"worker", "redis-kill", "redis-stop", "postgres", "stream", "web", "backup"}


def test_a_short_night_of_faults_loses_nothing_acknowledged(tmp_path):
    out = tmp_path / "soak.json"
    done = subprocess.run([sys.executable, "bench/soak/bench_soak.py", "--tables", "2", "--minutes", "2",
                           "--rounds", "1", "--gap", "8", "--downtime-every", "20", "--json-out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    told = done.stdout[-5000:] + done.stderr[-3000:]
    assert out.exists(), told
    result = json.loads(out.read_text())
    assert {row["fault"] for row in result["faults"]} == FAULTS, told
    checked = result["writes"]["checked"]
    assert all(checked.get(kind, 0) > 0 for kind in ("roll", "attack", "award", "contribute", "downtime")), told
    assert result["writes"]["problems"] == [] and result["bad"] == [] and result["lost"] == [], told
    assert result["unseen"] == 0 and result["backups"] == [""], told
    assert all(row["max"] <= 5 for row in result["faults"]), told
    assert result["passed"] and done.returncode == 0, told

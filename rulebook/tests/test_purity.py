"""The rulebook is pure Python: nothing under rulebook/ may import Django or the project's apps."""

import ast
import subprocess
import sys
from pathlib import Path

RULEBOOK = Path(__file__).resolve().parent.parent
FORBIDDEN = {"django", "rest_framework", "drf_spectacular", "celery", "campaign", "characters", "economy",
             "downtime", "combat", "rolls", "dashboard", "transfer", "zenergate_site", "simple_history", "django_htmx"}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_module_under_rulebook_imports_django_or_an_app():
    offenders = {
        str(path.relative_to(RULEBOOK)): sorted(imported_roots(path) & FORBIDDEN)
        for path in RULEBOOK.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_scan_would_catch_an_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from django.db import models\nimport characters.models\n")
    assert imported_roots(sample) & FORBIDDEN == {"django", "characters"}


def test_importing_every_rulebook_module_loads_no_django():
    modules = sorted(
        ".".join(p.relative_to(RULEBOOK.parent).with_suffix("").parts)
        for p in RULEBOOK.rglob("*.py") if "tests" not in p.parts
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'campaign', 'characters', 'combat'})\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=RULEBOOK.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

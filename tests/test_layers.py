"""The layers of DESIGN.md hold: every import points down (or sideways), never up.

1 rulebook (pure: no Django) · 2 the table (campaign: campaigns, members, access, audit, jobs,
the live stream) · 3 characters · 4 the economy, downtime and combat · 5 the pages that compose
them (the dashboard, the demo data, the URLconf). The site's infrastructure (settings, errors,
API fields, the Celery app) sits under the apps and imports none of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Module prefixes and their layer; the longest matching prefix wins.
LAYERS = {
    "rulebook": 1,
    "zenergate_site": 1,
    "campaign": 2,
    "characters": 3,
    "economy": 4,
    "downtime": 4,
    "combat": 4,
    "rolls": 4,
    "dashboard": 5,
    "demo": 5,
    "transfer": 5,
    "zenergate_site.urls": 5,
    "zenergate_site.wsgi": 5,
    "zenergate_site.asgi": 5,
}
PACKAGES = ("rulebook", "zenergate_site", "campaign", "characters", "economy", "downtime", "combat", "rolls",
            "dashboard", "transfer", "demo")


def layer_of(module: str) -> int | None:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len, default=None)
    return LAYERS.get(best)


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "tests" in parts or "migrations" in parts:
                continue
            yield ".".join(p for p in parts if p != "__init__"), path, path.name == "__init__.py"


def _imports(module: str, path: Path, is_package: bool):
    tree = ast.parse(path.read_text(), filename=str(path))
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                yield f"{base}.{alias.name}" if layer_of(f"{base}.{alias.name}") is not None else base, node.lineno


def test_every_import_points_down():
    wrong = []
    for module, path, is_package in _modules():
        mine = layer_of(module)
        for target, line in _imports(module, path, is_package):
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({module}, layer {mine}) imports {target} "
                             f"(layer {theirs})")
    assert not wrong, "imports that point up:\n" + "\n".join(wrong)


def test_the_rulebook_imports_no_django_and_no_app():
    for module, path, is_package in _modules():
        if layer_of(module) == 1 and module.startswith("rulebook"):
            for target, line in _imports(module, path, is_package):
                assert not target.startswith(("django", "rest_framework", "celery")), f"{path}:{line} {target}"
                assert target.split(".")[0] not in PACKAGES[1:], \
                    f"{path}:{line} {target}"


def test_the_walker_sees_an_import_that_points_up(tmp_path):
    """The check itself can fail: a table module importing characters is caught. The probe is
    written to a temporary folder, never into the source tree."""
    assert layer_of("campaign.models") == 2 and layer_of("characters.models") == 3
    assert layer_of("economy.services") == 4 and layer_of("dashboard.views") == 5
    path = tmp_path / "__layers_probe__.py"
    path.write_text("from characters.models import Character\nfrom economy import services\n")
    imports = list(_imports("campaign.__layers_probe__", path, False))
    assert ("characters.models.Character", 1) in imports or ("characters.models", 1) in imports
    assert any(layer_of(target) == 4 for target, _ in imports)
    # ... and both point up from the probe's layer, as test_every_import_points_down would report.
    assert all(layer_of(target) > layer_of("campaign.__layers_probe__") for target, _ in imports)


# --- Foreign keys and migrations ------------------------------------------------------------
#: The apps that have models, by label (foreign keys and migrations name apps by label).
APP_LAYERS = {"campaign": 2, "characters": 3, "economy": 4, "downtime": 4, "combat": 4, "rolls": 4, "transfer": 5}


def upward_foreign_keys(models) -> set[str]:
    """Every foreign key of ``models`` to a model of a higher layer, as "app.Model.field"."""
    found = set()
    for model in models:
        mine = APP_LAYERS.get(model._meta.app_label)
        for field in model._meta.concrete_fields:
            target = getattr(field, "related_model", None)
            theirs = APP_LAYERS.get(target._meta.app_label) if target is not None else None
            if mine is not None and theirs is not None and theirs > mine:
                found.add(f"{model._meta.label}.{field.name}")
    return found


def upward_migrations(migrations) -> set[str]:
    """Every migration dependency on an app of a higher layer, as "app.migration -> app"."""
    found = set()
    for (app, name), migration in migrations.items():
        for dependency in migration.dependencies:
            mine, theirs = APP_LAYERS.get(app), APP_LAYERS.get(dependency[0])
            if mine is not None and theirs is not None and theirs > mine:
                found.add(f"{app}.{name} -> {dependency[0]}")
    return found


def test_every_foreign_key_points_down():
    from django.apps import apps

    assert set(APP_LAYERS) >= {m._meta.app_label for m in apps.get_models()
                               if m.__module__.split(".")[0] in PACKAGES}, "an app with models has no layer"
    assert upward_foreign_keys(apps.get_models()) == set()


def test_every_migration_dependency_points_down():
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    assert upward_migrations(loader.disk_migrations) == set()


def test_a_planted_upward_foreign_key_is_caught():
    """The check itself can fail: a table model referring to a combat row is reported."""
    from django.db import models
    from django.test.utils import isolate_apps

    from combat.models import Encounter

    with isolate_apps("campaign"):
        class Probe(models.Model):
            encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE)

            class Meta:
                app_label = "campaign"

        assert upward_foreign_keys([Probe]) == {"campaign.Probe.encounter"}


def test_a_planted_upward_migration_is_caught():
    from types import SimpleNamespace

    probe = {("characters", "9999_probe"): SimpleNamespace(dependencies=[("combat", "0001_initial")])}
    assert upward_migrations(probe) == {"characters.9999_probe -> combat"}

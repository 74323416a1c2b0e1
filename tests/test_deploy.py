"""Production hygiene: check --deploy is silent with the documented variables, the app refuses
to start without a SECRET_KEY, every response carries a Content-Security-Policy, error pages
are the site's own, and nothing is loaded from another site."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import path

from zenergate_site import urls as site_urls

ROOT = Path(__file__).resolve().parent.parent
#: What docs/operations.md says to turn on when the site is served over HTTPS.
TLS_ON = {
    "SECURE_SSL_REDIRECT": "1",
    "SESSION_COOKIE_SECURE": "1",
    "CSRF_COOKIE_SECURE": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def env_example() -> dict[str, str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def manage(*args, extra_env=None, drop=()):
    """Run manage.py as production would: without the test run's variables unless given."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "PYTEST_VERSION", "SECRET_KEY", "DEBUG", *drop)}
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.stack  # starts manage.py in a process of its own
def test_check_deploy_reports_nothing_with_the_documented_variables(tmp_path):
    production = {**env_example(), **TLS_ON, "SECRET_KEY": secrets.token_urlsafe(50),
                  "DEVSTACK_DIR": str(tmp_path)}  # no running `make run` stack's settings
    for name in ("DATABASE_URL", "REDIS_URL"):  # this test's servers, not the compose stack's names
        if name in os.environ:
            production[name] = os.environ[name]
    operations = (ROOT / "docs" / "operations.md").read_text()
    for name in TLS_ON:
        assert name in env_example() and f"`{name}`" in operations, name
    result = manage("check", "--deploy", "--fail-level", "WARNING", extra_env=production)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.stack  # starts manage.py in a process of its own
def test_check_deploy_complains_with_development_defaults(tmp_path):
    """The check is real: the development defaults do fail it."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", extra_env={"DEBUG": "1", "DEVSTACK_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr  # DEBUG on


@pytest.mark.stack  # starts manage.py in a process of its own
def test_debug_off_without_a_secret_key_refuses_to_start(tmp_path):
    result = manage("check", extra_env={"DEVSTACK_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in result.stderr


@pytest.mark.stack  # starts manage.py in a process of its own
def test_debug_on_runs_without_a_secret_key(tmp_path):
    result = manage("check", extra_env={"DEBUG": "1", "DEVSTACK_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr


def _settings(code: str, **env) -> object:
    script = f"import json, django; django.setup(); from django.conf import settings; print(json.dumps({code}))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            env={**{k: v for k, v in os.environ.items() if k not in ("PYTEST_VERSION", "DEBUG")},
                                 "DJANGO_SETTINGS_MODULE": "zenergate_site.settings", "SECRET_KEY": "k" * 50, **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.stack  # starts manage.py in a process of its own
def test_the_browsable_api_and_source_static_files_only_with_debug_on(tmp_path):
    production = _settings("[settings.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES'], "
                           "settings.STORAGES['staticfiles']['BACKEND']]", DEVSTACK_DIR=str(tmp_path))
    assert production == [["rest_framework.renderers.JSONRenderer"], "zenergate_site.storage.StaticFilesStorage"]
    development = _settings("settings.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']", DEBUG="1", DEVSTACK_DIR=str(tmp_path))
    assert "rest_framework.renderers.BrowsableAPIRenderer" in development


@pytest.mark.stack  # starts manage.py in a process of its own
def test_logs_are_json_lines():
    code = "import logging, django; django.setup(); logging.getLogger('zener').warning('hello %s', 'gate')"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "zenergate_site.settings", "LOG_FORMAT": "json"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["message"] == "hello gate" and line["level"] == "WARNING" and line["logger"] == "zener"


def test_whitenoise_serves_static(client, settings):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert b"--accent" in b"".join(response.streaming_content)


# --- Headers and error pages ----------------------------------------------------------------
def _boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", _boom), path("api/v1/boom/", _boom), *site_urls.urlpatterns]
handler404 = site_urls.handler404
handler500 = site_urls.handler500


@pytest.mark.parametrize("url", ["/accounts/login/", "/api/v1/campaigns/", "/no-such-page/", "/static/css/app.css",
                                 "/healthz", "/api/docs/"])
def test_every_response_has_a_content_security_policy(client, db, url):
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict((d.split(" ", 1) + [""])[:2] for d in policy.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["form-action"] == "'self'"


def test_the_health_check_answers_probes_by_any_address_over_plain_http(client, db, settings):
    """Compose and load balancers ask by the container's address, over HTTP, whatever the site's
    public name and its HTTPS redirect."""
    settings.ALLOWED_HOSTS = ["zener.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz", HTTP_HOST="172.18.0.5:8000").status_code == 200
    assert client.get("/accounts/login/", HTTP_HOST="172.18.0.5:8000").status_code == 400
    assert client.get("/accounts/login/", HTTP_HOST="zener.example.org").status_code == 301  # to HTTPS


@pytest.mark.urls(__name__)
def test_a_server_error_is_the_sites_own_page_and_needs_no_database(client):
    client.raise_request_exception = False
    response = client.get("/boom/")  # no `db` fixture: a query would fail the test
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and 'class="topbar"' in page and "/static/css/app" in page
    assert "a bug" not in page  # nothing of the error itself


@pytest.mark.urls(__name__)
def test_a_server_error_under_the_api_is_json(client):
    client.raise_request_exception = False
    response = client.get("/api/v1/boom/")
    assert response.status_code == 500
    assert response.json() == {"errors": {"detail": ["Server error."]}}


def test_not_found_is_the_sites_own_page(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "There is nothing here" in page and 'class="topbar"' in page


def test_no_template_or_script_loads_anything_from_another_site():
    """Every script, style, font and image comes from this site (CSP says so too)."""
    remote = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:https?:)?//""")
    for folder, pattern in ((ROOT / "templates", "*.html"), (ROOT / "static", "*.css"), (ROOT / "static", "*.js")):
        for file in folder.rglob(pattern):
            if file.name.endswith(".min.js"):
                continue  # htmx, vendored as is
            found = remote.findall(file.read_text())
            assert not found, f"{file.relative_to(ROOT)} loads from another site: {found}"


def test_no_inline_script_or_event_handler_in_templates():
    """The Content-Security-Policy would block them: scripts live in static/js."""
    for file in (ROOT / "templates").rglob("*.html"):
        text = file.read_text()
        inline = [tag for tag in re.findall(r"<script\b[^>]*>", text) if "src=" not in tag]
        handlers = re.findall(r"\son[a-z]+\s*=", text)
        if file.name == "print.html":  # laid out by WeasyPrint, never served as a page
            continue
        assert not inline and not handlers, f"{file.relative_to(ROOT)}: {inline or handlers}"
        assert "<style" not in text, f"{file.relative_to(ROOT)}: a <style> element (style-src 'self')"


@pytest.mark.stack  # starts manage.py in a process of its own
def test_check_deploy_refuses_the_placeholder_secret_key(tmp_path):
    production = {**env_example(), **TLS_ON, "DEVSTACK_DIR": str(tmp_path)}
    assert production["SECRET_KEY"].startswith("change-me")  # the file's placeholder, as copied
    for name in ("DATABASE_URL", "REDIS_URL"):
        if name in os.environ:
            production[name] = os.environ[name]
    result = manage("check", "--deploy", "--fail-level", "WARNING", extra_env=production)
    assert result.returncode != 0
    assert "zenergate.E001" in result.stdout + result.stderr
    assert "SECRET_KEY is the placeholder from .env.example." in result.stdout + result.stderr

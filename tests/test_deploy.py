"""Production hygiene: with DEBUG off and the documented variables set, check --deploy is silent."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "a-production-secret-" + "k3y" * 20,
    "ALLOWED_HOSTS": "zener.example.org",
    "SECURE_SSL_REDIRECT": "1",
    "SESSION_COOKIE_SECURE": "1",
    "CSRF_COOKIE_SECURE": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def manage(*args, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}  # set by browser tests
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def test_check_deploy_reports_nothing():
    result = manage("check", "--deploy", "--fail-level", "WARNING", extra_env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_complains_with_development_defaults():
    """The check is real: the development defaults do fail it."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", extra_env={"DEBUG": "1"})
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr  # DEBUG on


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

"""docker-compose.yml describes the full stack. No Docker engine runs here, so the file is parsed
and checked (and handed to `docker compose config` where that plugin exists), and the proxy's
deploy/nginx.conf goes through `nginx -t` where nginx is installed."""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_services_and_images(compose):
    services = compose["services"]
    assert {"postgres", "redis", "web", "proxy", "worker", "beat"} <= set(services)
    assert services["postgres"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    for name in ("web", "worker", "beat"):
        assert services[name]["build"] == "."
    assert "gunicorn" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "zenergate_site", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "zenergate_site", "beat"]


def test_the_proxy_owns_the_port_and_web_replicas_publish_none(compose):
    """`docker compose up --scale web=3` works: only the proxy publishes a host port."""
    services = compose["services"]
    assert services["proxy"]["ports"] == ["${PORT:-8000}:8000"]
    published = [name for name, service in services.items() if service.get("ports") and name != "proxy"]
    assert published == []
    assert services["web"]["expose"] == ["8000"]
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in services["proxy"]["volumes"]
    assert services["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"
    # gunicorn with the project's settings, listening where the proxy sends requests
    assert services["web"]["command"] == ["gunicorn", "--config", "zenergate_site/gunicorn.conf.py",
                                          "zenergate_site.wsgi"]
    assert services["web"]["environment"]["HOST"] == "0.0.0.0" and services["web"]["environment"]["PORT"] == "8000"


def test_the_proxy_sends_every_request_to_the_web_service():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "listen 8000;" in conf
    assert "set $web http://web:8000;" in conf and "proxy_pass $web;" in conf  # resolved per request
    assert "resolver 127.0.0.11" in conf  # Docker's DNS: every replica
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in conf  # overwritten, so trustworthy


@pytest.mark.stack
def test_nginx_accepts_the_proxy_config():
    nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if not nginx:
        pytest.skip("nginx is not installed; the config was checked by reading it")
    result = subprocess.run([nginx, "-t", "-c", str(ROOT / "deploy" / "nginx.conf")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_the_proxy_sends_the_event_stream_to_uvicorn_unbuffered(compose):
    stream = compose["services"]["stream"]
    assert stream["command"][:2] == ["uvicorn", "zenergate_site.asgi:application"]
    assert stream["expose"] == ["8001"] and "ports" not in stream
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    block = conf[conf.index("location ~ ^/campaigns/[0-9]+/stream/$"):conf.index("location / {")]
    assert "set $stream http://stream:8001;" in block and "proxy_pass $stream;" in block
    assert "proxy_buffering off;" in block and "proxy_read_timeout 1h;" in block


def test_health_checks_volumes_and_env(compose):
    services = compose["services"]
    for name in ("postgres", "redis", "web", "proxy", "worker", "beat"):
        assert services[name]["healthcheck"]["test"], name
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    assert set(compose["volumes"]) == {"pgdata", "redisdata"}
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("${DATABASE_URL:-postgres://")
        assert env["REDIS_URL"].startswith("${REDIS_URL:-redis://redis:6379")
        assert env["SECURE_PROXY_SSL_HEADER"] == "${SECURE_PROXY_SSL_HEADER:-X-Forwarded-Proto}"
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_env_example_names_every_variable_settings_needs_in_production():
    text = (ROOT / ".env.example").read_text()
    for name in ("SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "CSRF_TRUSTED_ORIGINS"):
        assert f"\n{name}=" in "\n" + text, name


def test_docker_compose_config_when_available(tmp_path):
    docker = shutil.which("docker")
    probe = docker and subprocess.run([docker, "compose", "version"], capture_output=True)
    if not probe or probe.returncode != 0:
        pytest.skip("the docker compose plugin is not installed; the file was checked by parsing")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copytree(ROOT / "deploy", tmp_path / "deploy")
    result = subprocess.run([docker, "compose", "config", "--quiet"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_what_even_the_proxy_refuses_is_answered_as_json(tmp_path):
    """Past nginx's own buffers (above the app's limits), nginx answers 414 and 431 itself, in
    the API's error shape. The config runs as shipped but for its port and log paths."""
    import socket
    import time
    import urllib.error
    import urllib.request

    nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if not nginx:
        pytest.skip("nginx is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    conf = (conf.replace("listen 8000;", f"listen 127.0.0.1:{port};")
            .replace("error_log /dev/stderr warn;", f"error_log {tmp_path}/error.log warn; pid {tmp_path}/nginx.pid;")
            .replace("access_log /dev/stdout;", "access_log off;"))
    (tmp_path / "nginx.conf").write_text(conf)
    process = subprocess.Popen([nginx, "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        def refusal(url: str, headers: dict) -> tuple[int, str, bytes]:
            for _ in range(100):
                try:
                    urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5)
                except urllib.error.HTTPError as error:
                    return error.code, error.headers.get("Content-Type"), error.read()
                except urllib.error.URLError:  # not listening yet
                    time.sleep(0.05)
            raise AssertionError("nginx did not answer")

        base = f"http://127.0.0.1:{port}"
        assert refusal(f"{base}/api/v1/campaigns/?q={'a' * 40000}", {}) == (
            414, "application/json", b'{"errors": {"detail": ["The address is too long."]}}')
        assert refusal(f"{base}/api/v1/campaigns/", {"X-Padding": "p" * 40000}) == (
            431, "application/json", b'{"errors": {"detail": ["The request headers are too large."]}}')
    finally:
        process.terminate()
        process.wait(timeout=10)

"""Settings for every environment, driven by environment variables (django-environ).

Without DATABASE_URL / REDIS_URL the embedded development stack is used: the addresses
that `python -m zenergate_site.devstack` wrote to `.devstack/env` while it runs.
See docs/operations.md for every variable.
"""

import os
from datetime import timedelta
from pathlib import Path

import django
import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
DEVSTACK_DIR = Path(env("DEVSTACK_DIR", default=str(BASE_DIR / ".devstack")))
# The embedded stack publishes its addresses here, so a second shell's manage.py reaches the
# same servers. Variables already set in the environment win (read_env never overrides).
if (DEVSTACK_DIR / "env").exists():
    environ.Env.read_env(DEVSTACK_DIR / "env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
# pytest sets PYTEST_VERSION for its run and the processes it starts (workers, manage.py).
TESTING = "PYTEST_VERSION" in os.environ
SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    if not (DEBUG or TESTING):
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the app needs a long random SECRET_KEY in the "
            "environment (python -c 'import secrets; print(secrets.token_urlsafe(50))'); `make run` "
            "makes one for you, and DEBUG=1 uses a development key. See docs/operations.md.")
    SECRET_KEY = "insecure-development-key-set-SECRET_KEY-in-production"
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here rather than a CDN
    "django_htmx",
    "simple_history",
    "campaign",
    "characters",
    "economy",
    "downtime",
    "combat",
    "rolls",
    "transfer",
    "demo",
    "zenergate_site.apps.SiteConfig",  # its deploy checks
]

MIDDLEWARE = [
    # Django has its own CSP middleware from 6.0 on; ours reads the same SECURE_CSP setting.
    "django.middleware.csp.ContentSecurityPolicyMiddleware" if django.VERSION >= (6, 0)
    else "zenergate_site.csp.ContentSecurityPolicyMiddleware",
    "zenergate_site.health.HealthCheckMiddleware",  # before the Host check and the HTTPS redirect
    "zenergate_site.request_limits.RequestLimitsMiddleware",  # 414 and 431, JSON under /api/
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "zenergate_site.language.LanguageMiddleware",  # after the user is known: their choice comes first
    "zenergate_site.private_responses.PrivateResponsesMiddleware",  # Cache-Control, Vary
    "django.contrib.messages.middleware.MessageMiddleware",
    "zenergate_site.accounts.OneTimePasswordMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "zenergate_site.busy.BusyMiddleware",
]

ROOT_URLCONF = "zenergate_site.urls"
WSGI_APPLICATION = "zenergate_site.wsgi.application"
ASGI_APPLICATION = "zenergate_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # After Django's own csrf processor: shared renders get a placeholder token.
                "zenergate_site.csrf.csrf",
            ],
        },
    },
]

# Longest address (path and query) and largest headers (all together) the app takes; the
# servers in front let a little more through so that these answer (zenergate_site/request_limits.py).
MAX_URL_LENGTH = env.int("MAX_URL_LENGTH", default=4096)
MAX_HEADER_BYTES = env.int("MAX_HEADER_BYTES", default=16384)

# --- Data stores -------------------------------------------------------------------------
# PostgreSQL only: row locks, constraints and advisory locks are used freely.
DATABASES = {"default": env.db_url("DATABASE_URL", default="postgres:///zenergate")}
# PostgreSQL with a hook before each commit, where a write's change set publishes the data keys
# it changed (zenergate_site/db/base.py).
DATABASES["default"]["ENGINE"] = "zenergate_site.db"
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # a reused connection is tested before a request uses it
# A pool of at most DB_POOL_SIZE connections in this process (psycopg's, through Django), where the
# server process sets it: gunicorn's threads, the stream's readers (docs/operations.md, "Database
# connections"). A request that waits DB_POOL_TIMEOUT seconds for one answers 503 with Retry-After
# (zenergate_site/errors.py). Without a pool, a thread keeps its connection CONN_MAX_AGE seconds.
DB_POOL_SIZE = env.int("DB_POOL_SIZE", default=0)
DB_POOL_TIMEOUT = env.float("DB_POOL_TIMEOUT", default=3)
if DB_POOL_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them instead
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_SIZE), "max_size": DB_POOL_SIZE, "timeout": DB_POOL_TIMEOUT,
        # An idle connection above min_size is closed after ten minutes; any is renewed hourly.
        "max_idle": 600, "max_lifetime": 3600, "name": "zenergate",
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A row lock waits at most this long, then the write answers 409 "busy, try again" with nothing
# changed (campaign.changes.Busy): a write stuck behind another never hangs a request.
DB_LOCK_TIMEOUT_MS = env.int("DB_LOCK_TIMEOUT_MS", default=3000)
if DB_LOCK_TIMEOUT_MS:
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = (_options.get("options", "") + f" -c lock_timeout={DB_LOCK_TIMEOUT_MS}").strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")


def _broker_url(redis_url: str) -> str:
    # kombu spells a Unix-socket Redis "redis+socket://"; redis-py spells it "unix://".
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url[len("unix://"):]
    return redis_url


CACHES = {
    "default": {
        "BACKEND": "zenergate_site.cache.SharedClientRedisCache",
        "LOCATION": REDIS_URL,
        # A Redis that hangs must not hang a request: pages render uncached, logins go unthrottled.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}
# After a cache command times out, the cache is skipped this long (zenergate_site/cache.py).
CACHE_RETRY_SECONDS = env.float("CACHE_RETRY_SECONDS", default=5)

# --- Celery ------------------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=_broker_url(REDIS_URL))
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True  # results live in our own Job rows
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_IMPORTS = ("dashboard.tasks",)  # the dashboard is no Django app; its task is found here
# A worker killed mid-task leaves its message unacknowledged; the broker hands it out again after
# this many seconds. Jobs are safe to run twice (each character is claimed once), so it can be short.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A hung broker must not hang a request: connecting and each command give up after two seconds,
# and a downtime start then answers 503 with nothing written.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
                                   "socket_timeout": 2, "socket_connect_timeout": 2}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Rendered pages and API reads are cached per viewer under a version every write moves on
# (campaign/pagecache.py); entries also expire after this long. 0 turns the cache off.
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=600)
# The sweep re-sends jobs the broker lost (queued too long) or whose worker died (no heartbeat).
# A running job's worker beats every JOB_HEARTBEAT_SECONDS; silent for JOB_STALE_SECONDS, the job
# is sent again by the next sweep, so a dead worker's job is back in a queue within about 30 s.
JOB_SWEEP_SECONDS = env.float("JOB_SWEEP_SECONDS", default=10)
JOB_HEARTBEAT_SECONDS = env.float("JOB_HEARTBEAT_SECONDS", default=5)
JOB_STALE_SECONDS = env.float("JOB_STALE_SECONDS", default=15)
JOB_QUEUED_SECONDS = env.float("JOB_QUEUED_SECONDS", default=120)
# Characters advanced per transaction by a downtime job.
DOWNTIME_BATCH = env.int("DOWNTIME_BATCH", default=200)
# A pause between batches, to leave the database room for pages while a large job runs.
DOWNTIME_BATCH_PAUSE_SECONDS = env.float("DOWNTIME_BATCH_PAUSE_SECONDS", default=0)
# A game session with nothing new for this long is ended by the app, its recap drafted.
SESSION_QUIET_HOURS = env.float("SESSION_QUIET_HOURS", default=6)
CELERY_BEAT_SCHEDULE = {
    "sweep-orphaned-jobs": {"task": "campaign.downtime.tasks.sweep_jobs", "schedule": JOB_SWEEP_SECONDS},
    "close-quiet-sessions": {"task": "dashboard.tasks.close_quiet_sessions", "schedule": 600},
}

# --- Auth --------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# Log-in lockout (zenergate_site/login_guard.py, docs/operations.md): after this many wrong
# passwords for one username, or from one client address, within LOGIN_LOCKOUT_SECONDS, log-ins
# are refused for LOGIN_LOCKOUT_SECONDS. 0 turns a limit off.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
LOGIN_LOCKOUT_SECONDS = env.int("LOGIN_LOCKOUT_SECONDS", default=15 * 60)
# Password-reset mails (zenergate_site/tasks.py): at most this many an hour to one account, and
# requests from one client address; joining through an invitation link: sign-up attempts an
# hour from one address (zenergate_site/rate.py). 0 turns a limit off.
PASSWORD_RESET_ACCOUNT_LIMIT = env.int("PASSWORD_RESET_ACCOUNT_LIMIT", default=3)
PASSWORD_RESET_ADDRESS_LIMIT = env.int("PASSWORD_RESET_ADDRESS_LIMIT", default=10)
JOIN_ADDRESS_LIMIT = env.int("JOIN_ADDRESS_LIMIT", default=10)
# Importing a campaign document (transfer/importing.py): at most this many rows, checked in at
# most this much CPU time; its size is bounded by DATA_UPLOAD_MAX_MEMORY_SIZE.
IMPORT_MAX_ROWS = env.int("IMPORT_MAX_ROWS", default=200_000)
IMPORT_CHECK_SECONDS = env.float("IMPORT_CHECK_SECONDS", default=5.0)
# Reverse proxies in front of the app that append the client's address to X-Forwarded-For
# (0: the client is REMOTE_ADDR).
LOGIN_TRUSTED_PROXIES = env.int("LOGIN_TRUSTED_PROXIES", default=0)
# An API token is refused this long after it was issued.
TOKEN_TTL = timedelta(days=env.float("TOKEN_TTL_DAYS", default=30))

# --- I18N / static -----------------------------------------------------------------------
LANGUAGE_CODE = "en"
#: The interface's languages (docs/translation.md): the account page and the top bar's switch
#: offer them; otherwise the browser's Accept-Language picks (zenergate_site/language.py).
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
#: One catalogue for the whole site, compiled where it runs (zenergate_site/catalogues.py).
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "zg_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# With DEBUG off, hashed and compressed files from `collectstatic` (the Docker image and
# `make run` run it), served by WhiteNoise with far-future cache headers. With DEBUG on, and in
# tests, WhiteNoise serves the source files straight from the finders instead.
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=not (DEBUG or TESTING))
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
# Serving source files from the finders (DEBUG, tests): look each one up when it is asked for
# instead of scanning every static file whenever the middleware is built (every test client).
WHITENOISE_AUTOREFRESH = not STATIC_MANIFEST
WHITENOISE_KEEP_ONLY_HASHED_FILES = True  # half the files to compress; pages name the hashed ones
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "zenergate_site.storage.StaticFilesStorage" if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- API ---------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request then gets 401 with a WWW-Authenticate header.
        "zenergate_site.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["zenergate_site.api_parsers.SafeJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "zenergate_site.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # JSON only; the browsable API (HTML forms for every endpoint) only while developing.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Zener Gate campaign manager API",
    "DESCRIPTION": "Campaigns, characters, Karma, combat and odds for the Zener Gate RPG.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI's scripts, styles and icon come from drf-spectacular-sidecar, served by us.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No validator badge: it would send the schema's address to validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # Every operation's errors, with the one error body (zenergate_site/api_schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "zenergate_site.api_schema.add_error_responses"],
    # One name per choice set, so the schema does not guess (and warn) about enums.
    "ENUM_NAME_OVERRIDES": {
        "StatEnum": "characters.models.STAT_CHOICES",
        "SkillBreadthEnum": "characters.models.Breadth.choices",
        "EquipmentBreadthEnum": "characters.models.GENERAL_BREADTH_CHOICES",
        "TreatmentKindEnum": "downtime.models.TREATMENT_KINDS",
        "GivenTreatmentKindEnum": "downtime.serializers.GIVEN_AT_ONCE",
        "CombatStatEnum": "combat.serializers.COMBAT_STATS",
        "JobKindEnum": "downtime.serializers.JOB_KINDS",
        "JobStatusEnum": "downtime.serializers.JOB_STATUSES",
    },
}

# --- Security (production values come from the environment) -------------------------------
# Behind a reverse proxy that states the client's scheme in a header, name it (X-Forwarded-Proto):
# a request is then HTTPS when the header says "https". Only behind a proxy that overwrites the
# header clients send; otherwise a client could claim HTTPS over plain HTTP.
_PROXY_SSL_HEADER = env("SECURE_PROXY_SSL_HEADER", default="")
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"), "https") if _PROXY_SSL_HEADER else None
)
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy: scripts, styles, fonts and requests only from this site (no inline
# script, no eval), images also as data: URLs. Inline style *attributes* are allowed: the
# progress and odds bars set their width with style="width: …%".
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "style-src-attr": ["'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}

# --- The pushed event stream (campaign/stream.py), served by the ASGI process -----------------
#: Where pages open the stream: on this site by default (nginx sends /campaigns/<id>/stream/ to
#: the ASGI process); on another origin with LIVE_STREAM_URL; or, with LIVE_STREAM_PORT, on that
#: port of whatever host the page was opened on (`make run`, reached from phones on the LAN too).
LIVE_STREAM_URL = env("LIVE_STREAM_URL", default="").rstrip("/")
LIVE_STREAM_PORT = env.int("LIVE_STREAM_PORT", default=None)
#: With LIVE_STREAM_PORT, the web server's port whose pages may read the stream (default: the
#: port below the stream's, as `make run` starts them).
LIVE_STREAM_PAGE_PORT = env.int("LIVE_STREAM_PAGE_PORT", default=None)
#: Page origins that may read a stream served from another origin, with their cookies. With
#: LIVE_STREAM_PORT, the web server's pages on the stream's own host name and scheme may too.
LIVE_STREAM_ALLOWED_ORIGINS = env.list("LIVE_STREAM_ALLOWED_ORIGINS", default=[])
LIVE_STREAM_PING = env.float("LIVE_STREAM_PING", default=15.0)  # under every common proxy's idle timeout
LIVE_STREAM_SECONDS = env.float("LIVE_STREAM_SECONDS", default=300.0)  # then the browser reconnects
LIVE_STREAM_RETRY_MS = env.int("LIVE_STREAM_RETRY_MS", default=1000)
# The stream processes answer the stream at this module's door, past Django's handler (asgi.py).
LIVE_STREAM_DOOR = "campaign.stream"
LIVE_STREAM_READERS = env.int("LIVE_STREAM_READERS", default=4)  # threads (and connections) per stream process
LIVE_STREAM_POLL_MS = env.int("LIVE_STREAM_POLL_MS", default=1500)  # where a WSGI server answers the stream
if LIVE_STREAM_URL:
    SECURE_CSP["connect-src"] = ["'self'", LIVE_STREAM_URL]
elif LIVE_STREAM_PORT:
    SECURE_CSP["connect-src"] = ["'self'", f"http://*:{LIVE_STREAM_PORT}", f"https://*:{LIVE_STREAM_PORT}"]

# --- Logging: one JSON object per line, ready for any log shipper -------------------------
# --- Accounts ---------------------------------------------------------------------------------
#: Who makes accounts for other people: "gm" (the GMs of a campaign, for its players) or "staff".
ACCOUNT_CREATION = env("ACCOUNT_CREATION", default="gm")
if ACCOUNT_CREATION not in ("gm", "staff"):
    raise ImproperlyConfigured(f"ACCOUNT_CREATION is 'gm' or 'staff', not {ACCOUNT_CREATION!r}.")
#: The most accounts one GM (not staff) makes in 24 hours.
ACCOUNT_CREATION_DAILY_LIMIT = env.int("ACCOUNT_CREATION_DAILY_LIMIT", default=20)
#: Who may make an account for themselves: "closed" (no one: accounts come from the staff or a
#: GM), "invite" (through a GM's invitation link; the default, for a group's own server) or "open"
#: (also on the sign-up page, with an e-mail to confirm before the account may make campaigns).
SIGNUP = env("SIGNUP", default="invite")
if SIGNUP not in ("closed", "invite", "open"):
    raise ImproperlyConfigured(f"SIGNUP is 'closed', 'invite' or 'open', not {SIGNUP!r}.")
#: The most sign-ups from one address in an hour (a table on one network signs up together), and
#: on the whole site in 24 hours (0: no limit).
SIGNUP_ADDRESS_LIMIT = env.int("SIGNUP_ADDRESS_LIMIT", default=10)
SIGNUP_DAILY_LIMIT = env.int("SIGNUP_DAILY_LIMIT", default=50)
# Password reset links go by email: printed on the console by default, to files with
# EMAIL_BACKEND=django.core.mail.backends.filebased.EmailBackend and EMAIL_FILE_PATH, or by SMTP
# with the smtp backend and EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS.
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", default=str(DEVSTACK_DIR / "mail"))
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="zener-gate@localhost")

LOG_LEVEL = env("LOG_LEVEL", default="INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "plain": {"format": "%(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": env("LOG_FORMAT", default="json"),
            # A refused request (4xx) is one line at INFO, not a warning with a traceback.
            "filters": ["refused"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "filters": {"refused": {"()": "zenergate_site.logs.RefusedRequestFilter"}},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
    },
}

# --- Game settings -----------------------------------------------------------------------
ZENER_MAX_SKILL_RANKS = env.int("ZENER_MAX_SKILL_RANKS", default=3)

# Form widgets: the common ones written out in Python, the rest through Django's templates
# (zenergate_site/form_renderer.py).
FORM_RENDERER = "zenergate_site.form_renderer.Renderer"

"""Settings for every environment, driven by environment variables (django-environ).

Without DATABASE_URL / REDIS_URL the embedded development stack is used: the addresses
that `python -m zenergate_site.devstack` wrote to `.devstack/env` while it runs.
See docs/operations.md for every variable.
"""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
DEVSTACK_DIR = Path(env("DEVSTACK_DIR", default=str(BASE_DIR / ".devstack")))
# The embedded stack publishes its addresses here, so a second shell's manage.py reaches the
# same servers. Variables already set in the environment win (read_env never overrides).
if (DEVSTACK_DIR / "env").exists():
    environ.Env.read_env(DEVSTACK_DIR / "env", overwrite=False)

DEBUG = env.bool("DEBUG", default=False)
SECRET_KEY = env("SECRET_KEY", default="insecure-development-key-set-SECRET_KEY-in-production")
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
    "django_htmx",
    "simple_history",
    "campaign",
    "characters",
    "campaign.downtime",
    "combat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
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
            ],
        },
    },
]

# --- Data stores -------------------------------------------------------------------------
# PostgreSQL only: row locks, constraints and advisory locks are used freely.
DATABASES = {"default": env.db_url("DATABASE_URL", default="postgres:///zenergate")}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # a reused connection is tested before a request uses it
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")


def _broker_url(redis_url: str) -> str:
    # kombu spells a Unix-socket Redis "redis+socket://"; redis-py spells it "unix://".
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url[len("unix://"):]
    return redis_url


CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
    }
}

# --- Celery ------------------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=_broker_url(REDIS_URL))
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True  # results live in our own Job rows
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# A worker killed mid-task leaves its message unacknowledged; the broker hands it out again after
# this many seconds. Jobs are safe to run twice (each character is claimed once), so it can be short.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600)}
# Rendered pages and API reads are cached per viewer under a version every write moves on
# (campaign/pagecache.py); entries also expire after this long. 0 turns the cache off.
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=600)
# The sweep re-sends jobs the broker lost (queued too long) or whose worker died (no heartbeat).
JOB_SWEEP_SECONDS = env.float("JOB_SWEEP_SECONDS", default=30)
JOB_STALE_SECONDS = env.float("JOB_STALE_SECONDS", default=120)
# Characters advanced per transaction by a downtime job.
DOWNTIME_BATCH = env.int("DOWNTIME_BATCH", default=200)
# A pause between batches, to leave the database room for pages while a large job runs.
DOWNTIME_BATCH_PAUSE_SECONDS = env.float("DOWNTIME_BATCH_PAUSE_SECONDS", default=0)
CELERY_BEAT_SCHEDULE = {
    "sweep-orphaned-jobs": {"task": "campaign.downtime.tasks.sweep_jobs", "schedule": JOB_SWEEP_SECONDS},
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

# --- I18N / static -----------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed files once `collectstatic` has run (the Docker image does); before that
# (development, tests) WhiteNoise serves the source files straight from the finders.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env.bool("STATIC_MANIFEST", default=(Path(STATIC_ROOT) / "staticfiles.json").exists())
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- API ---------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request then gets 401 with a WWW-Authenticate header.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["zenergate_site.api_parsers.SafeJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "zenergate_site.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Zener Gate campaign manager API",
    "DESCRIPTION": "Campaigns, characters, Karma, combat and odds for the Zener Gate RPG.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One name per choice set, so the schema does not guess (and warn) about enums.
    "ENUM_NAME_OVERRIDES": {
        "StatEnum": "characters.models.STAT_CHOICES",
        "SkillBreadthEnum": "characters.models.Breadth.choices",
        "EquipmentBreadthEnum": "characters.models.GENERAL_BREADTH_CHOICES",
        "TreatmentKindEnum": "campaign.downtime.models.TREATMENT_KINDS",
        "GivenTreatmentKindEnum": "campaign.downtime.serializers.GIVEN_AT_ONCE",
        "CombatStatEnum": "combat.serializers.COMBAT_STATS",
    },
}

# --- Security (production values come from the environment) -------------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=False)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=False)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# --- Logging: one JSON object per line, ready for any log shipper -------------------------
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
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
    },
}

# --- Game settings -----------------------------------------------------------------------
ZENER_MAX_SKILL_RANKS = env.int("ZENER_MAX_SKILL_RANKS", default=3)

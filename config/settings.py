"""Settings for the draughts tournament system, driven by environment variables.

One module for every environment. With nothing set it runs the embedded defaults that
``make run`` uses: SQLite under ``var/`` and a Celery broker on the file system. Production
sets ``DATABASE_URL`` (PostgreSQL), ``CELERY_BROKER_URL`` (Redis), ``DJANGO_SECRET_KEY`` and
``DJANGO_LOG_KEY`` (the record key: the logs' hash chains are HMACs under it).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Reads a boolean from the environment: 1/true/yes/on are true."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Reads a comma-separated list from the environment."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Where the embedded defaults keep their files (SQLite, broker queue, generated secret key).
VAR_DIR = Path(os.environ.get("DJANGO_VAR_DIR", BASE_DIR / "var")).resolve()

DEBUG = env_bool("DJANGO_DEBUG", False)


def _secret_key() -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    key_file = VAR_DIR / "secret_key"
    if key_file.is_file():
        return key_file.read_text().strip()
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set. Set it in the environment (production), or start the "
        "system once with `make run`, which generates one into var/secret_key."
    )


SECRET_KEY = _secret_key()


def _log_key() -> str:
    key = os.environ.get("DJANGO_LOG_KEY", "").strip()
    if key:
        return key
    key_file = VAR_DIR / "log_key"
    if key_file.is_file() and key_file.read_text().strip():
        return key_file.read_text().strip()
    raise ImproperlyConfigured(
        "DJANGO_LOG_KEY is not set. Set it in the environment (production; keep it outside the "
        "database and its backups), or start the system once with `make run`, which generates one "
        "into var/log_key."
    )


# The record key: every log entry's hash is an HMAC-SHA256 under it (core.chain), so that whoever
# writes the database without it cannot rewrite the record unseen. Old keys, after a rotation, stay
# in DJANGO_LOG_KEYS_OLD (comma-separated) so that the entries hashed under them still verify.
LOG_KEY = _log_key()
LOG_KEYS_OLD = env_list("DJANGO_LOG_KEYS_OLD")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "core",
    "axes",
    "accounts",
    "players",
    "games",
    "arbitration",
    "tournaments",
    "clubs",
    "leagues",
    "events",
    "notifications",
    "integrations",
]

# The largest request body read (bytes): a larger one is answered 413 payload_too_large
# (config.middleware.RequestBodyGuard) before anything reads it. 2.5 MB, Django's default, is
# far above any request of the API (a CSV import of a few thousand players).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

MIDDLEWARE = [
    # First: a request over its time limit is stopped and answered here (config.middleware).
    "config.middleware.RequestTimeLimit",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.RequestBodyGuard",
    "config.middleware.DatabaseBusy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: answers a locked-out sign-in (see AXES_* below).
    "axes.middleware.AxesMiddleware",
]

# Sign-in: django-axes counts failed sign-ins (the sign-in page, the admin's) and locks out.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.AxesBackend",  # first: refuses a locked-out sign-in before the password is checked
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

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
                "accounts.roles.roles_context",
                "config.views.live_context",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL (postgres://user:pass@host:5432/name), else SQLite under var/.
_database_url = os.environ.get("DATABASE_URL", "").strip()
if _database_url:
    DATABASES = {
        "default": dj_database_url.parse(
            _database_url, conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))
        )
    }
    # The hot statements of core.sqlrows are prepared on the server after this many runs on a
    # connection (the ORM's own statements never are). 0 turns it off, e.g. behind a pooler in
    # transaction mode that cannot keep prepared statements.
    _prepare_threshold = int(os.environ.get("DATABASE_PREPARE_THRESHOLD", "2"))
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and _prepare_threshold > 0:
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = _prepare_threshold
    # Test runs may name their own test database, so that two runs on one server don't collide.
    if os.environ.get("DJANGO_TEST_DATABASE_NAME"):
        DATABASES["default"]["TEST"] = {"NAME": os.environ["DJANGO_TEST_DATABASE_NAME"]}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {
                # Writers take the lock at BEGIN, so concurrent writes queue instead of failing;
                # one waits up to SQLITE_BUSY_TIMEOUT seconds (longer than the time limit of the
                # request that holds it, REQUEST_TIME_LIMIT), then gets 503 database_busy.
                "transaction_mode": "IMMEDIATE",
                "timeout": float(os.environ.get("SQLITE_BUSY_TIMEOUT", "20")),
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }

# Time limits of a request in a uWSGI worker (config.middleware.RequestTimeLimit): past
# REQUEST_TIME_LIMIT seconds it is stopped (503 timeout, its transaction rolled back); past
# REQUEST_HARD_TIME_LIMIT the uWSGI master kills the worker, however it is stuck. 0 turns one off.
REQUEST_TIME_LIMIT = float(os.environ.get("REQUEST_TIME_LIMIT", "10"))
REQUEST_HARD_TIME_LIMIT = float(os.environ.get("REQUEST_HARD_TIME_LIMIT", "") or (REQUEST_TIME_LIMIT + 5 if REQUEST_TIME_LIMIT else 0))

# Test servers only: routes that play hostile requests (config.views.hold_write_lock). Never in production.
TEST_ENDPOINTS = env_bool("DJANGO_TEST_ENDPOINTS", False)
if TEST_ENDPOINTS and env_bool("DJANGO_SECURE", False):
    raise ImproperlyConfigured("DJANGO_TEST_ENDPOINTS is for test servers only; it cannot be on with DJANGO_SECURE.")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", VAR_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "config.storage.ManifestStaticFilesStorage"
            if env_bool("DJANGO_MANIFEST_STATIC", False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing one
# Tests and `make run` may serve static files straight from the finders.
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)

# Security. Served over HTTPS (production), set DJANGO_SECURE=1: HTTP is redirected to HTTPS
# (except /healthz, for load balancers that check over HTTP), the session and CSRF cookies are
# sent over HTTPS only, and HSTS tells browsers to use HTTPS only (a year by default). Off by
# default, so that `make run` serves http://127.0.0.1. Each can be set on its own.
SECURE = env_bool("DJANGO_SECURE", False)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", SECURE)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", SECURE)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "").strip() or (31536000 if SECURE else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a proxy that terminates TLS and sets X-Forwarded-Proto (only then: the header is
# trusted, so the proxy must overwrite it).
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Content-Security-Policy (django-csp), always on, also in `make run`: the pages load scripts
# (ES modules), styles, images and data from this server only, and have no inline script or
# style. The API docs page has its own, wider policy (config/urls.py). DJANGO_CSP_REPORT_URI
# adds a report-uri; DJANGO_CSP_REPORT_ONLY=1 only reports violations (to try a change).
_CSP_DIRECTIVES: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
if os.environ.get("DJANGO_CSP_REPORT_URI", "").strip():
    _CSP_DIRECTIVES["report-uri"] = [os.environ["DJANGO_CSP_REPORT_URI"].strip()]
if env_bool("DJANGO_CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": _CSP_DIRECTIVES}
else:
    CONTENT_SECURITY_POLICY = {"DIRECTIVES": _CSP_DIRECTIVES}
# The cache holds the API throttles' counts. CACHE_URL (redis://host:6379/2) shares them among
# all web processes; without it each process counts for itself (in its memory).
_cache_url = os.environ.get("CACHE_URL", "").strip()
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}
        if _cache_url
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}


def _rate(name: str, default: str) -> str | None:
    """Reads a DRF throttle rate (N/s, N/min, N/hour, N/day); off (or none, 0) turns the throttle off."""
    value = os.environ.get(name, "").strip() or default
    return None if value.lower() in {"off", "none", "0"} else value


# REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so that an anonymous API call is answered 401 with WWW-Authenticate.
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.roles.ReadOnlyOrDirector"],
    "DEFAULT_PAGINATION_CLASS": "core.api.Pagination",
    # JSON nested deeper than core.parsers.MAX_JSON_DEPTH is refused 400 malformed_request.
    "DEFAULT_PARSER_CLASSES": ["core.parsers.BoundedJSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["accounts.throttling.AnonThrottle", "accounts.throttling.UserThrottle"],
    # Anonymous callers by address (a spectator's page polls up to twice a second), signed-in
    # ones by user (a referee's console polls twice a second and posts moves): well above what
    # a person does, far below what a script hammering the API does.
    "DEFAULT_THROTTLE_RATES": {"anon": _rate("API_THROTTLE_ANON", "1200/min"),
                               "user": _rate("API_THROTTLE_USER", "6000/min")},
    # The client's address: REMOTE_ADDR, or behind the TLS proxy the one it put in X-Forwarded-For.
    "NUM_PROXIES": 1 if env_bool("DJANGO_BEHIND_TLS_PROXY", False) else 0,
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.NamespaceVersioning",
    "DEFAULT_VERSION": "v1",
    "ALLOWED_VERSIONS": ["v1"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Draughts tournament and arbitration API",
    "DESCRIPTION": (
        "English draughts tournaments: players, games, moves checked by the rules engine, "
        "rulings on an append-only log, clocks, pairings and standings. Errors share one shape: "
        '{"error": {"code", "message", "details"}}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    # The error answers every operation can give, with the error body, in one place (config/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.error_responses"],
    # <id:...> (core.converters): 1 to 18 digits, shown as the integers they are.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    "ENUM_NAME_OVERRIDES": {  # leagues' choices named apart from the tournaments' and games' of the same field names
        "LeagueOpeningEnum": "leagues.models.League.Opening", "FixtureStatusEnum": "leagues.models.Fixture.Status",
        "PostponementStatusEnum": "leagues.models.Postponement.Status", "TeamSideEnum": "leagues.models.SheetLine.Side",
        "DefaultSideEnum": "leagues.serializers.DEFAULT_SIDES",
        "SideEnum": ["black", "white"], "OpeningEnum": "tournaments.models.Tournament.Opening",
    },
}

# Celery: Redis in production; the file-system transport (no server) by default.
_broker_dir = VAR_DIR / "broker"
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "").strip() or "filesystem://"
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = os.environ.get(
        "CELERY_RESULT_BACKEND", f"file://{(VAR_DIR / 'results').as_posix()}"
    )
    (VAR_DIR / "results").mkdir(parents=True, exist_ok=True)
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
# Limits: a task that hangs is stopped; tasks opt in to acks_late where they are idempotent.
CELERY_TASK_SOFT_TIME_LIMIT = 30
CELERY_TASK_TIME_LIMIT = 60
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_SEND_TASK_EVENTS = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Clocks (Laws 24-25): every worker process runs a sweeper that sleeps until the next deadline
# (arbitration.sweeper), woken on PostgreSQL by a notification when a nearer one is written.
# Turn it off only for a worker that must not enforce clocks. CLOCK_SWEEP_MAX_SLEEP: the longest
# it sleeps without reading the deadlines again (at most 30 s); CLOCK_SQLITE_POLL_INTERVAL: on
# SQLite, how often it reads the database's change counter while it sleeps.
CLOCK_SWEEPER_ENABLED = os.environ.get("CLOCK_SWEEPER_ENABLED", "true").lower() not in ("0", "false", "no", "off")
CLOCK_SWEEP_MAX_SLEEP = float(os.environ.get("CLOCK_SWEEP_MAX_SLEEP", "2"))
CLOCK_SQLITE_POLL_INTERVAL = float(os.environ.get("CLOCK_SQLITE_POLL_INTERVAL", "0.025"))

# Health: each worker writes a heartbeat row every HEALTH_HEARTBEAT_INTERVAL seconds
# (config.heartbeat); /healthz counts the workers whose beat is at most HEALTH_HEARTBEAT_STALE
# seconds old (default: 3 intervals).
HEALTH_HEARTBEAT_INTERVAL = float(os.environ.get("HEALTH_HEARTBEAT_INTERVAL", "5"))
HEALTH_HEARTBEAT_STALE = float(os.environ.get("HEALTH_HEARTBEAT_STALE", "0")) or 3 * HEALTH_HEARTBEAT_INTERVAL

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # The file-system transport has no host; kombu warns about it on every connection.
        "kombu.connection": {"level": "ERROR"},
        # django-axes: failures and lock-outs are warnings; its info lines come with every sign-in.
        "axes": {"level": "WARNING"},
    },
}

# API tokens (accounts.models.ApiToken): the lifetime of a new token in days, and the longest.
API_TOKEN_DAYS = int(os.environ.get("API_TOKEN_DAYS", "90"))
API_TOKEN_MAX_DAYS = int(os.environ.get("API_TOKEN_MAX_DAYS", "365"))

# Failed sign-ins (django-axes, database handler): after AXES_FAILURE_LIMIT failures in a row for
# one username from one address, that pair is locked out for AXES_COOLOFF_MINUTES (the answer
# is 429); a success resets the count. An administrator unlocks at once by deleting the
# "access attempts" in the admin, or with ``manage.py axes_reset``.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.backends.lockout_response"  # 429 with Retry-After
AXES_VERBOSE = False
# The client's address; behind the TLS proxy, the address it appended to X-Forwarded-For.
AXES_CLIENT_IP_CALLABLE = "accounts.backends.client_ip"
AXES_TRUST_X_FORWARDED_FOR = env_bool("DJANGO_BEHIND_TLS_PROXY", False)

# Live push (docs/architecture.md, "Live"): every committed log entry is published on Redis
# pub/sub (LIVE_REDIS_URL, default the broker's when it is Redis) for the live servers
# (config/live.py) to fan out; without Redis they read the log tables as a change feed.
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL", "").strip() or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
if LIVE_REDIS_URL.lower() == "off":
    LIVE_REDIS_URL = ""
# One channel per database, so that two deployments (or test runs) on one Redis never mix.
LIVE_CHANNEL = os.environ.get("LIVE_CHANNEL", "") or "draughts-live:" + str(
    DATABASES["default"].get("TEST", {}).get("NAME") or DATABASES["default"]["NAME"])
# Seconds between two reads of the change feed: the path itself without Redis, a safety net
# (a message lost while Redis was away) with it.
LIVE_FEED_INTERVAL = float(os.environ.get("LIVE_FEED_INTERVAL", "0.1" if not LIVE_REDIS_URL else "1.0"))
# Seconds between two keep-alive comments on an idle stream.
LIVE_KEEPALIVE = float(os.environ.get("LIVE_KEEPALIVE", "15"))
# Streams one live process holds at most, and from one client address (the peer's, or behind the
# TLS proxy the address it appended to X-Forwarded-For); past either: 503 live_full, Retry-After.
# Keep LIVE_MAX_CONNECTIONS under the process's open-file limit (ulimit -n), so that a flood is
# answered, not an accept() failing on EMFILE.
LIVE_MAX_CONNECTIONS = int(os.environ.get("LIVE_MAX_CONNECTIONS", "15000"))
# Whether this deployment serves /live/ (uvicorn, or the proxy's route to the live process). When it
# does not (a plain WSGI server alone), the pages do not try the streams and poll at their own pace,
# as before the live path; with it, they poll only while a stream cannot be held, backing off.
LIVE_PATH = env_bool("LIVE_PATH", True)
LIVE_MAX_PER_ADDRESS = int(os.environ.get("LIVE_MAX_PER_ADDRESS", "50"))

# Email (notifications: docs/integrations.md, "Notifications"). Production sets EMAIL_HOST (and
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS or EMAIL_USE_SSL): messages go out by
# SMTP. Without EMAIL_HOST (make run) each message is written to a file under var/mail/
# (EMAIL_FILE_PATH), and nothing leaves the machine. EMAIL_BACKEND names another backend outright.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not env_bool("EMAIL_USE_SSL", False))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "20"))
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "").strip() or str(VAR_DIR / "mail")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.filebased.EmailBackend"
)
# A message that fails for a transient reason (the mail server away, a 4xx answer) is tried again
# after NOTIFICATIONS_RETRY_SECONDS, doubled each time, up to 6 times (30 s .. 16 min by default).
NOTIFICATIONS_RETRY_SECONDS = float(os.environ.get("NOTIFICATIONS_RETRY_SECONDS", "30"))
# A message whose task was lost (a worker killed, the broker restarted empty) is sent by the beat's sweep
# (notifications.pending_sweep, every 5 minutes): one never tried this many minutes after it was recorded, one
# tried and still pending this long after its retries would have ended.
NOTIFICATIONS_SWEEP_MINUTES = float(os.environ.get("NOTIFICATIONS_SWEEP_MINUTES", "10"))
# A league match's players and captains are reminded this many days before its date, by a sweep that
# `celery -A config beat` runs hourly (notifications.fixture_reminders_sweep; once per match, date, person).
LEAGUE_REMINDER_DAYS = int(os.environ.get("LEAGUE_REMINDER_DAYS", "2"))
CELERY_BEAT_SCHEDULE = {
    "league-fixture-reminders": {"task": "notifications.fixture_reminders_sweep", "schedule": 3600.0},
    "league-postponements": {"task": "leagues.postponements_sweep", "schedule": 3600.0},
    # the webhook deliveries due whose task was lost (a retry is a task with a countdown)
    "webhook-deliveries": {"task": "integrations.deliveries_sweep", "schedule": 60.0},
    # the notifications whose sending task was lost
    "notifications-pending": {"task": "notifications.pending_sweep", "schedule": 300.0},
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Draughts tournaments <noreply@localhost>")
# The address of the site as people reach it, for the links in messages and the calendar feeds
# (a message has no request to take it from): scheme and host, no trailing slash.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# The domain part of the calendar feeds' event UIDs: set once, never changed, so that calendars
# recognise an event they hold (RFC 5545: UIDs are globally unique and stable).
CALENDAR_UID_DOMAIN = os.environ.get("CALENDAR_UID_DOMAIN", "draughts.invalid")
# Webhooks (integrations): a delivery's time limit, its back-off (the first retry after
# WEBHOOK_RETRY_BASE_SECONDS, doubling up to WEBHOOK_RETRY_MAX_DELAY) for WEBHOOK_RETRY_FOR
# seconds (a day) before it is given up; WEBHOOK_ALLOW_LOOPBACK lets receivers on 127.0.0.1 be
# registered (the tests' receivers; never in production: docs/integrations.md, "Webhooks").
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "10"))
WEBHOOK_RETRY_MAX_DELAY = float(os.environ.get("WEBHOOK_RETRY_MAX_DELAY", "3600"))
WEBHOOK_RETRY_FOR = float(os.environ.get("WEBHOOK_RETRY_FOR", str(24 * 3600)))
WEBHOOK_ALLOW_LOOPBACK = env_bool("WEBHOOK_ALLOW_LOOPBACK", False)
# The beat's sweep (integrations.deliveries_sweep, every minute) sends again the deliveries due for longer
# than this: their retry's task was lost (a worker killed, the broker restarted empty).
WEBHOOK_SWEEP_GRACE_SECONDS = float(os.environ.get("WEBHOOK_SWEEP_GRACE_SECONDS", "60"))
# WEBHOOK_QUEUE: the Celery queue of the webhooks' tasks (default: the default queue). A deployment with
# many webhooks gives them their own (WEBHOOK_QUEUE=webhooks, a worker started with -Q webhooks), so
# that a slow receiver holds none of the workers of the tournaments' tasks.
CELERY_TASK_ROUTES = {"integrations.*": {"queue": os.environ.get("WEBHOOK_QUEUE", "").strip()
                                         or CELERY_TASK_DEFAULT_QUEUE}}
# The sites allowed to show the /embed/ pages in a frame (CSP frame-ancestors); every other page refuses frames.
EMBED_FRAME_ANCESTORS = env_list("EMBED_FRAME_ANCESTORS", "*")

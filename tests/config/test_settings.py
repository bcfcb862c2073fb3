"""Settings come from the environment; the embedded SQLite default queues concurrent writers."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.smoke


def clean_env(env: dict[str, str]) -> dict[str, str]:
    """Returns the test process's environment without its Django settings, plus ``env``."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_"))}
    return {"DJANGO_LOG_KEY": "tests-only-log-key", **base, **env}


def django_script(code: str, *, setup: bool = True) -> list[str]:
    """Returns the command that runs ``code`` after django.setup(), or (``setup=False``: code that only reads
    settings) once the settings are configured (they are read on the first access: a quarter of the start)."""
    script = "import django, os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings')\n"
    return [sys.executable, "-c", script + ("django.setup()\n" if setup else "") + textwrap.dedent(code)]


def run_django(code: str, env: dict[str, str], *, setup: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(django_script(code, setup=setup), cwd=ROOT, env=clean_env(env), capture_output=True,
                          text=True, timeout=120)


def test_without_a_secret_key_the_system_refuses_to_start(tmp_path):
    result = run_django("print('started')", {"DJANGO_VAR_DIR": str(tmp_path)})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr
    assert "started" not in result.stdout


def test_without_a_log_key_the_system_refuses_to_start(tmp_path):
    env = clean_env({"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"})
    del env["DJANGO_LOG_KEY"]
    result = subprocess.run(django_script("print('started')"), cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode != 0
    assert "DJANGO_LOG_KEY is not set" in result.stderr
    assert "started" not in result.stdout


def test_the_log_keys_come_from_the_environment_or_var(tmp_path):
    code = "from django.conf import settings; print(settings.LOG_KEY, settings.LOG_KEYS_OLD)"
    result = run_django(code, {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k", "DJANGO_LOG_KEY": "new",
                               "DJANGO_LOG_KEYS_OLD": "old1, old2"}, setup=False)
    assert result.stdout.strip() == "new ['old1', 'old2']"
    (tmp_path / "log_key").write_text("from-var\n")
    env = clean_env({"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"})
    del env["DJANGO_LOG_KEY"]
    result = subprocess.run(django_script(code, setup=False), cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.stdout.strip() == "from-var []"


def test_the_secret_key_comes_from_the_environment(tmp_path):
    result = run_django(
        "from django.conf import settings; print(settings.SECRET_KEY, settings.DEBUG)",
        {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "from-the-environment"}, setup=False,
    )
    assert result.stdout.split() == ["from-the-environment", "False"]


def test_the_database_and_broker_come_from_the_environment(tmp_path):
    result = run_django(
        "from django.conf import settings; db = settings.DATABASES['default'];"
        "print(db['ENGINE'], db['NAME'], db['HOST'], settings.CELERY_BROKER_URL)",
        {
            "DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k",
            "DATABASE_URL": "postgres://u:p@db.example:5433/club", "CELERY_BROKER_URL": "redis://r:6379/2",
        },
        setup=False,
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "club", "db.example", "redis://r:6379/2"]


def test_sqlite_default_queues_concurrent_writers_instead_of_failing(tmp_path):
    """Four processes read-then-write the same row 25 times each; none gets 'database is locked'."""
    env = {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"}
    migrate = subprocess.run(  # the players' table and what it depends on: 3.5 s of CPU where all took 8.5 s
        [sys.executable, "manage.py", "migrate", "players", "-v0"], cwd=ROOT, env=clean_env(env),
        capture_output=True, text=True, timeout=120,
    )
    assert migrate.returncode == 0, migrate.stderr
    setup = run_django(
        "from players.models import Player; Player.objects.create(name='counter', rating=0)", env
    )
    assert setup.returncode == 0, setup.stderr
    writer = """
        from django.db import transaction
        from players.models import Player
        for _ in range(25):
            with transaction.atomic():
                player = Player.objects.get(name='counter')
                player.rating += 1
                player.save(update_fields=['rating'])
        print('ok')
    """
    processes = [
        subprocess.Popen(django_script(writer), cwd=ROOT, env=clean_env(env),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outcomes = [p.communicate(timeout=120) for p in processes]
    for out, err in outcomes:
        assert out.strip() == "ok", err
    total = run_django("from tournaments.models import Player; print(Player.objects.get(name='counter').rating)", env)
    assert total.stdout.strip() == "100"  # no lost update, no failed writer


SECURITY_PRINT = (
    "from django.conf import settings as s;"
    "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
    " getattr(s, 'SECURE_PROXY_SSL_HEADER', None) is not None,"
    " s.CONTENT_SECURITY_POLICY['DIRECTIVES']['script-src'])"
)


def test_https_settings_are_off_by_default_for_make_run(tmp_path):
    result = run_django(SECURITY_PRINT, {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"}, setup=False)
    assert result.stdout.split() == ["False", "False", "False", "0", "False", "[\"'self'\"]"], result.stderr


def test_django_secure_switches_on_redirect_secure_cookies_and_hsts(tmp_path):
    env = {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k", "DJANGO_SECURE": "1",
           "DJANGO_BEHIND_TLS_PROXY": "1"}
    result = run_django(SECURITY_PRINT, env, setup=False)
    assert result.stdout.split() == ["True", "True", "True", "31536000", "True", "[\"'self'\"]"], result.stderr
    result = run_django(SECURITY_PRINT, {**env, "DJANGO_HSTS_SECONDS": "60", "DJANGO_SSL_REDIRECT": "0"}, setup=False)
    assert result.stdout.split()[:4] == ["False", "True", "True", "60"]


def test_the_deploy_check_finds_no_https_setting_missing_when_secure(tmp_path):
    env = {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k" * 60 + "-not-a-real-secret-just-long",
           "DJANGO_SECURE": "1"}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=clean_env(env),
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    for warning in ("W004", "W008", "W012", "W016"):  # HSTS, SSL redirect, session and CSRF cookies
        assert f"security.{warning}" not in output, output
    insecure = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT,
                              env=clean_env({**env, "DJANGO_SECURE": ""}), capture_output=True, text=True, timeout=120)
    assert "security.W008" in insecure.stdout + insecure.stderr  # the check does see them off


@pytest.mark.django_db
def test_the_ssl_redirect_spares_the_health_check(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    response = client.get("/")
    assert response.status_code == 301 and response["Location"].startswith("https://")


@pytest.mark.django_db
def test_every_page_carries_the_csp_and_the_api_docs_their_own(client):
    policy = client.get("/")["Content-Security-Policy"]
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
                      "frame-ancestors 'none'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    assert "<script>" not in docs.content.decode()  # the start-up code is a script file (?script)
    assert "script-src 'self';" in docs["Content-Security-Policy"] + ";"
    assert "style-src 'self' 'unsafe-inline'" in docs["Content-Security-Policy"]
    assert client.get("/api/v1/docs/?script").status_code == 200


def test_the_test_only_routes_are_off_by_default_and_refused_in_production(tmp_path):
    code = "from django.conf import settings; from django.test import Client\n" \
           "print(settings.TEST_ENDPOINTS, Client().post('/api/test-only/hold-write-lock?seconds=0').status_code)"
    env = {"DJANGO_VAR_DIR": str(tmp_path), "DJANGO_SECRET_KEY": "k"}
    assert run_django(code, env).stdout.split() == ["False", "404"]
    refused = run_django("print('started')", {**env, "DJANGO_TEST_ENDPOINTS": "1", "DJANGO_SECURE": "1"})
    assert refused.returncode != 0 and "DJANGO_TEST_ENDPOINTS is for test servers only" in refused.stderr

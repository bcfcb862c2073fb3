"""Fixtures shared by the whole suite: users by role, API clients, a real Celery worker, a browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Settings come from the environment that `make test` sets (DATABASE_URL, CELERY_BROKER_URL,
# DJANGO_SECRET_KEY). Playwright's sync API runs an event loop in the test thread; the ORM
# calls the tests make around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
# The webhook tests' receivers listen on the loopback, and a failed delivery is tried again soon (the
# worker processes read these; the test process's settings are overridden where a test needs them).
os.environ.setdefault("WEBHOOK_ALLOW_LOOPBACK", "true")
os.environ.setdefault("WEBHOOK_RETRY_BASE_SECONDS", "0.5")


# The fixtures that start a server or a worker process: a test that uses one (directly or through
# another fixture) is marked ``server`` (make test-fast leaves them out). Tests that start one in their
# own module carry the mark themselves.
SERVER_FIXTURES = frozenset({"live_server", "browser", "celery_worker", "clock_workers"})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Under pytest-xdist each worker process starts with its own Redis databases, live channel and var
    folder (tests/support/xdist.py): its settings, and the servers and workers it starts, use them."""
    from tests.support.xdist import give_each_worker_its_own

    give_each_worker_its_own(specs, os.environ)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SERVER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.server)
    # the tests that restart a shared service last: they wait for the background part (below)
    items.sort(key=lambda item: item.get_closest_marker("exclusive") is not None)


@pytest.fixture(autouse=True)
def servers_only_where_marked(request):
    """A test may start a web server (tests/support/live.py) only if it is marked so (``server``, or another
    mark that keeps it out of ``make test-fast``): an unmarked one would slip into the edit-test loop."""
    from tests.support import live

    live.SERVER_ALLOWED = any(request.node.get_closest_marker(mark) for mark in live.SERVER_MARKS)
    yield
    live.SERVER_ALLOWED = None


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Before a test marked ``exclusive``, waits for the background part of ``make test-postgres`` (the
    fuzzing run, beside the other parts) to end: it holds the lock ``TEST_BACKGROUND_LOCK`` names while it
    runs. Outside pytest-timeout's wrapper, so the wait is not counted in the test's time limit."""
    path = os.environ.get("TEST_BACKGROUND_LOCK", "")
    if item.get_closest_marker("exclusive") and path:
        from tests.support.background import background_ended

        waited = background_ended(path)
        if waited > 0.5:
            reporter = item.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(f"(waited {waited:.0f} s for the background part to end before {item.nodeid})")
    yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, django_db_blocker):
    """Each test database on PostgreSQL is a copy of one migrated template (tests/support/template_db.py)
    instead of a database migrated from nothing in every process."""
    from tests.support.template_db import (
        clone_test_databases_from_a_template,
        drop_test_databases_whoever_is_connected,
    )

    drop_test_databases_whoever_is_connected()
    with django_db_blocker.unblock():
        clone_test_databases_from_a_template()


@pytest.fixture(autouse=True, scope="session")
def quick_flush():
    """Empties the tables after a transactional test with DELETE instead of TRUNCATE on PostgreSQL.

    Django's ``flush`` (after every transactional test: the browser, server and worker tests) truncates
    all ~70 tables in one statement, which makes new files for each table and its indexes and removes
    the old ones at commit: 0.3 s on a quiet machine and 1-2 s under the suite's load. The tables hold a
    few rows by then, which DELETE removes in a few milliseconds. The deletes run as a replica
    (``session_replication_role``), so that neither the foreign keys nor the append-only triggers of the
    logs fire; that needs a superuser (the test server's ``postgres``): for another user, TRUNCATE as
    before. The tables end as empty either way, and the sequences go on either way (neither restarts them)."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush
    KEPT = {"django_content_type", "auth_permission"}

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):  # noqa: ANN001, ANN202
        if not tables or reset_sequences or not is_superuser(self.connection):
            return original(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return ["SET LOCAL session_replication_role = replica;",
                *(f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in KEPT),
                "SET LOCAL session_replication_role = DEFAULT;"]

    def is_superuser(connection) -> bool:  # noqa: ANN001
        if not hasattr(connection, "_tests_superuser"):
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('is_superuser') = 'on'")
                connection._tests_superuser = cursor.fetchone()[0]
        return connection._tests_superuser

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = original


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashing():
    """Hashes the passwords the tests set with a quick work factor (tests/support/hashers.py)."""
    from django.conf import settings
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["tests.support.hashers.QuickPBKDF2PasswordHasher",
                                             *settings.PASSWORD_HASHERS]):
        yield


@pytest.fixture(autouse=True, scope="session")
def static_files_listed_once():
    """WhiteNoise's middleware lists and stats every static file through the finders when it is built, and
    Django's test client builds the middleware anew for each client: a few thousand files a test, 2-3 % of
    the CPU of ``make test-fast``. The files do not change during a run, so the list is made once for each
    configuration the middleware can have; what it serves and the headers it gives are the same."""
    from django.conf import settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    listed: dict[tuple, dict] = {}
    original = WhiteNoiseMiddleware.add_files_from_finders

    def add_files_from_finders(self) -> None:  # noqa: ANN001
        key = (self.static_prefix, self.max_age, self.allow_all_origins, self.charset, self.index_file,
               repr(settings.STATICFILES_DIRS), tuple(settings.STATICFILES_FINDERS), tuple(settings.INSTALLED_APPS))
        if key not in listed:
            before = dict(self.files)
            original(self)
            listed[key] = {url: found for url, found in self.files.items() if before.get(url) is not found}
        self.files.update(listed[key])

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders
    yield
    WhiteNoiseMiddleware.add_files_from_finders = original


@pytest.fixture(autouse=True)
def celery_tasks_in_process(request):
    """Runs the Celery tasks the code under test sends in the test's own process, at once.

    A test about the workers (marked ``celery``) sends them to the real broker instead, where
    a real worker process (``celery_worker``) takes them.
    """
    from config.celery import app

    if request.node.get_closest_marker("celery"):
        yield
        return
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def no_live_path_on_the_test_server(request):
    """Django's live server (a WSGI server in the test's process) serves no /live/ streams: the pages it
    serves are told so (``LIVE_PATH`` off) and poll at their own pace. The tests of the live path run
    real uvicorn processes (tests/support/live.py), which serve it."""
    if "live_server" not in request.fixturenames:
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.LIVE_PATH = False
    yield


@pytest.fixture(autouse=True)
def throttle_counts_cleared():
    """Starts each test with no API throttle counts (they live in the cache, across tests)."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def scratch_database(transactional_db):
    """Points the default connection, for one test, at an empty database of its own on the test database's
    server (PostgreSQL), dropped after: a migration test migrates it from nothing to the state it starts
    from, and the test database is neither migrated back nor forward again (which took most of the time)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.fail("scratch_database needs PostgreSQL (make test-postgres)")
    real = connection.settings_dict["NAME"]
    name = f"{real}_scratch"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield name
    finally:
        connection.close()
        connection.settings_dict["NAME"] = real
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE "{name}"')


@pytest.fixture
def make_user(db):
    """Returns a factory of users with a role and a known password."""
    from accounts.services import user_create_with_role

    def make(username: str, role: str, password: str = "a-long-test-password"):
        return user_create_with_role(username=username, password=password, role=role)

    return make


@pytest.fixture
def director(make_user):
    return make_user("dir", "director")


@pytest.fixture
def referee(make_user):
    return make_user("ref", "referee")


@pytest.fixture
def player_user(make_user):
    return make_user("pla", "player")


@pytest.fixture
def api_client():
    """Returns an anonymous DRF test client."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def client_as(api_client):
    """Returns a function that authenticates the API client as the given user."""

    def as_user(user):
        api_client.force_authenticate(user=user)
        return api_client

    return as_user


def _uses_server_broker() -> bool:
    from django.conf import settings

    return not settings.CELERY_BROKER_URL.startswith("filesystem://")


def worker_env() -> dict[str, str]:
    """Returns the environment a worker process needs to use the test database."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    env = {}
    if db["ENGINE"].endswith("postgresql"):
        env["DATABASE_URL"] = (
            f"postgres://{db.get('USER') or ''}{':' + db['PASSWORD'] if db.get('PASSWORD') else ''}"
            f"@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
        )
    return env


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """Starts a real Celery worker process against the real broker and the test database.

    The worker is a separate process (it may be killed with SIGKILL by a test); it reads the
    test database, so tests that hand it work must commit (``transactional_db``). Its clock
    sweeper is off, so that the clock tests decide which workers enforce clocks
    (``clock_workers``).
    """
    from tests.support.celery_worker import WorkerProcess

    if not _uses_server_broker():
        pytest.fail("the Celery tests need CELERY_BROKER_URL to point at the real Redis (make test sets it)")
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    worker = WorkerProcess(env={**worker_env(), "CLOCK_SWEEPER_ENABLED": "false", "HEALTH_HEARTBEAT_INTERVAL": "1"},
                           log_path=log)
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def clock_workers(transactional_db, tmp_path):
    """Returns a function that starts a real worker process with its clock sweeper on.

    ``start(prefix=[...])`` runs the worker under a command prefix (e.g. faketime). Every
    worker started is stopped (or killed) when the test ends. Each writes its log under tmp.
    """
    from tests.support.celery_worker import WorkerProcess

    if not _uses_server_broker():
        pytest.fail("the clock tests need CELERY_BROKER_URL to point at the real Redis (make test sets it)")
    started: list[WorkerProcess] = []

    def start(*, prefix: list[str] | None = None, env: dict[str, str] | None = None) -> WorkerProcess:
        log = tmp_path / f"worker{len(started) + 1}.log"
        worker = WorkerProcess(env={**worker_env(), "CLOCK_SWEEPER_ENABLED": "true", **(env or {})},
                               log_path=log, prefix=prefix)
        started.append(worker)
        return worker.start()

    yield start
    for worker in started:
        worker.stop(timeout=10)


@pytest.fixture(scope="session")
def browser():
    """Launches Debian's Chromium headless through Playwright, once per session."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM_ARGS, chromium_path

    executable = chromium_path()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server, tmp_path: Path):
    """Opens a fresh browser context on Django's live server; screenshots on failure go to tmp."""
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()

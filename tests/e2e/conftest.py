"""Fixtures of the browser tests that need the live path: a real uvicorn process (pages, API and
/live/ streams on one port, as ``make run`` serves them) with a real worker's settings, and a page on it."""

import pytest


@pytest.fixture
def server(transactional_db, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    web = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    yield web
    web.stop()


@pytest.fixture
def live_page(browser, server):
    context = browser.new_context(base_url=server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def demo_logins(transactional_db):
    """The demo in the test's database (seeded once a process, then copied back: tests/support/demo_snapshot.py);
    returns each login's password by username."""
    from tests.support.demo_snapshot import seeded_demo

    return {login.username: login.password for login in seeded_demo()}

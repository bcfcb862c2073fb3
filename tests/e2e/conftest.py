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

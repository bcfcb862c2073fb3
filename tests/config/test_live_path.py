"""Pages are told whether the deployment serves the live streams (LIVE_PATH)."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_pages_say_when_there_is_no_live_path(client, settings):
    assert 'data-live-path="off"' not in client.get("/").content.decode()
    settings.LIVE_PATH = False
    assert '<html lang="en" data-live-path="off">' in client.get("/").content.decode()

"""A test that starts a web server carries a mark that keeps it out of ``make test-fast`` (tests/conftest.py,
``servers_only_where_marked``): an unmarked one is refused the server, not let into the edit-test loop."""

from __future__ import annotations

import pytest

from tests.support import live


def test_an_unmarked_test_is_refused_a_web_server():
    assert live.SERVER_ALLOWED is False
    with pytest.raises(RuntimeError, match="marked one of"):
        live.WebProcess().start()


@pytest.mark.serial
def test_a_marked_test_may_start_one():
    assert live.SERVER_ALLOWED is True

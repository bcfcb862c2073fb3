"""SQLite's "database is locked" (a write that waited its whole busy timeout) is a 503 with Retry-After, not a 500."""

import pytest
from django.db import OperationalError
from django.test import RequestFactory

from config.middleware import DatabaseBusy
from core.api import exception_handler

pytestmark = pytest.mark.smoke


def test_an_api_write_that_found_the_database_locked_is_answered_503_database_busy():
    response = exception_handler(OperationalError("database is locked"), {})
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert response.data["error"]["code"] == "database_busy"


def test_another_operational_error_is_still_a_bug_for_the_500_handler():
    assert exception_handler(OperationalError("no such table: x"), {}) is None


def test_a_page_that_found_the_database_locked_is_answered_503_in_plain_text():
    guard = DatabaseBusy(lambda request: None)
    response = guard.process_exception(RequestFactory().post("/games/1/console/"),
                                       OperationalError("database is locked"))
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert response["Content-Type"].startswith("text/plain")
    assert guard.process_exception(RequestFactory().get("/"), ValueError("x")) is None

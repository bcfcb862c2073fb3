"""Exceptions the API answers in the error shape, not with a 500 or a logged traceback: SQLite busy, form bombs."""

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


def test_a_form_body_of_too_many_fields_is_a_400_in_the_error_shape_not_a_logged_traceback(caplog):
    from django.core.exceptions import TooManyFieldsSent

    response = exception_handler(TooManyFieldsSent("too many"), {})
    assert response.status_code == 400
    assert response.data["error"]["code"] == "malformed_request"
    assert response.data["error"]["details"] == {"limit": 1000}
    assert not [record for record in caplog.records if record.exc_info]


@pytest.mark.django_db
def test_a_form_bomb_sent_to_the_api_is_answered_400_and_logged_without_a_traceback(client_as, director, caplog):
    body = "&".join(f"f{i}=1" for i in range(1001))
    response = client_as(director).generic("POST", "/api/v1/players/", body,
                                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"
    assert not [record for record in caplog.records if record.exc_info]

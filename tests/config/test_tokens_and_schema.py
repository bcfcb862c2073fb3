"""API tokens from the command line, the OpenAPI schema and its interactive docs."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]


def test_issue_token_prints_a_token_that_authenticates(director, api_client):
    out = StringIO()
    call_command("issue_token", "dir", stdout=out)
    key = out.getvalue().strip()
    assert len(key) == 40
    response = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 200
    assert response.json() == {"username": "dir", "roles": ["director"]}


def test_issue_token_gives_a_new_token_each_time_and_both_work(director, api_client):
    first, second = StringIO(), StringIO()
    call_command("issue_token", "dir", stdout=first)
    call_command("issue_token", "dir", "--days", "3", stdout=second)
    assert first.getvalue() != second.getvalue()
    for out in (first, second):
        response = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {out.getvalue().strip()}")
        assert response.status_code == 200


def test_issue_token_refuses_a_lifetime_beyond_the_maximum(director):
    with pytest.raises(CommandError, match="1 to 365 days"):
        call_command("issue_token", "dir", "--days", "366")


def test_issue_token_for_an_unknown_user_is_a_clear_error(db):
    with pytest.raises(CommandError, match="no user named 'ghost'"):
        call_command("issue_token", "ghost")


def test_a_wrong_token_is_refused_in_the_error_shape(api_client):
    response = api_client.get("/api/v1/me/", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_the_schema_is_valid_openapi_3(tmp_path):
    target = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--api-version", "v1", "--file", str(target))
    text = target.read_text()
    assert text.startswith("openapi: 3.")
    assert "/api/v1/players/" in text


def test_the_schema_is_served_as_json(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/games/" in schema["paths"]


def test_the_interactive_docs_are_served_without_outside_assets(client):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "cdn.jsdelivr.net" not in html and "unpkg.com" not in html

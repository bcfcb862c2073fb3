"""Every API error has the project's JSON shape, whatever went wrong."""

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]


def assert_error_shape(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert set(error) == {"code", "message", "details"}
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return error


def test_unknown_api_url_is_a_json_404(client):
    error = assert_error_shape(client.get("/api/v1/nope/"), 404, "not_found")
    assert error["details"]["path"] == "/api/v1/nope/"


def test_unknown_api_version_is_a_json_404(client):
    assert_error_shape(client.get("/api/v2/players/"), 404, "not_found")


def test_missing_object_is_a_json_404(api_client):
    assert_error_shape(api_client.get("/api/v1/players/999999/"), 404, "not_found")


def test_wrong_method_is_a_json_405_naming_the_allowed_ones(client_as, director):
    error = assert_error_shape(client_as(director).delete("/api/v1/me/"), 405, "method_not_allowed")
    assert "GET" in error["details"]["allowed_methods"]


def test_anonymous_write_is_a_json_401_with_a_challenge(api_client):
    response = api_client.post("/api/v1/players/", {"name": "A. Player"}, format="json")
    assert_error_shape(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


def test_write_without_the_role_is_a_json_403(client_as, player_user):
    response = client_as(player_user).post("/api/v1/players/", {"name": "A. Player"}, format="json")
    assert_error_shape(response, 403, "permission_denied")


def test_invalid_fields_are_a_json_400_listing_them(client_as, director):
    response = client_as(director).post("/api/v1/players/", {"name": "  ", "rating": "high"}, format="json")
    error = assert_error_shape(response, 400, "validation_error")
    assert set(error["details"]["fields"]) == {"name", "rating"}
    assert "name" in error["message"] and "rating" in error["message"]


def test_malformed_json_is_a_json_400(client_as, director):
    response = client_as(director).post(
        "/api/v1/players/", data="{not json", content_type="application/json"
    )
    assert_error_shape(response, 400, "malformed_request")


def test_a_director_registers_a_player(client_as, director, api_client):
    response = client_as(director).post(
        "/api/v1/players/", {"name": "Agnes Calder", "club": "Edinburgh DC"}, format="json"
    )
    assert response.status_code == 201
    player_id = response.json()["id"]
    api_client.force_authenticate(user=None)
    listed = api_client.get("/api/v1/players/").json()
    assert listed["count"] == 1
    assert listed["results"][0] == {
        "id": player_id, "name": "Agnes Calder", "club": "Edinburgh DC",
        "federation": "", "federation_id": "", "rating": None, "rating_deviation": None,
    }


def test_a_chunked_body_is_refused_411_not_read_as_empty(client, director):
    # the test client sends no Content-Length when it sends no data: as a chunked body arrives
    api = client.generic("POST", "/api/v1/players/", "", content_type="application/json",
                         HTTP_TRANSFER_ENCODING="chunked")
    assert "chunked" in assert_error_shape(api, 411, "length_required")["message"]
    page = client.generic("POST", "/accounts/login/", "", content_type="application/x-www-form-urlencoded",
                          HTTP_TRANSFER_ENCODING="chunked")
    assert page.status_code == 411 and page["Content-Type"].startswith("text/plain")
    sized = client.generic("POST", "/api/v1/players/", '{"name": "X"}', content_type="application/json",
                           HTTP_TRANSFER_ENCODING="chunked")  # a Content-Length as well: read by it
    assert_error_shape(sized, 401, "not_authenticated")


def test_a_body_that_stops_short_is_a_400_in_the_error_shape_not_a_500(client_as, director, monkeypatch):
    from django.core.handlers.wsgi import LimitedStream
    from django.http import UnreadablePostError

    def stalls(self, size=-1):
        raise UnreadablePostError("error during read(20) on wsgi.input")

    monkeypatch.setattr(LimitedStream, "read", stalls)
    api = client_as(director)
    response = api.post("/api/v1/players/", {"name": "Never Sent"}, format="json")
    assert "stopped sending" in assert_error_shape(response, 400, "malformed_request")["message"]

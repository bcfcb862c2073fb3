"""Bad input of every kind gets a 4xx in the error shape, never a 500 (issue 15, item 1)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db]

HUGE = 2**63  # one more than the largest bigint


def assert_error_shape(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]


@pytest.fixture
def game(director, referee):
    from arbitration.services import game_create
    from players.models import Player

    black, white = Player.objects.create(name="Agnes Calder"), Player.objects.create(name="Bram Okafor")
    return game_create(acting_user=director, black=black, white=white, referees=[referee.username])


# --- URLs -------------------------------------------------------------------------------------

@pytest.mark.smoke
@pytest.mark.parametrize("path", [
    "/api/v1/games/abc/", "/api/v1/games/abc/moves/", "/api/v1/games/1.5/log/", "/api/v1/players/-1/",
    f"/api/v1/games/{HUGE}/", f"/api/v1/games/{HUGE}/log/", f"/api/v1/games/{HUGE}/pdn",
    f"/api/v1/players/{HUGE}/", f"/api/v1/players/{10**30}/ratings/", f"/api/v1/me/tokens/{HUGE}/",
    f"/api/v1/tournaments/open/rounds/{HUGE}/", f"/api/v1/tournaments/open/players/{HUGE}/",
    f"/api/v1/tournaments/open/entries/{HUGE}/",
])
def test_an_id_that_is_not_a_number_a_row_can_have_is_a_json_404(api_client, path):
    assert_error_shape(api_client.get(path), 404, "not_found")


@pytest.mark.parametrize("path", [
    f"/api/v1/games/{HUGE}/moves/", f"/api/v1/games/{HUGE}/rulings/", f"/api/v1/games/{HUGE}/referees/",
    "/api/v1/games/abc/rulings/",
])
def test_a_write_to_an_impossible_id_is_a_json_404(client_as, director, path):
    response = client_as(director).post(path, {"move": "11-15"}, format="json")
    assert_error_shape(response, 404, "not_found")


def test_the_largest_id_a_url_may_name_reaches_the_view_and_is_not_found(api_client):
    assert_error_shape(api_client.get(f"/api/v1/games/{10**18 - 1}/"), 404, "not_found")


@pytest.mark.parametrize("path", [f"/games/{HUGE}", f"/games/{HUGE}/console", "/games/abc",
                                  f"/tournaments/players/{HUGE}/"])
def test_a_page_at_an_impossible_id_is_an_html_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.smoke
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_a_write_to_an_unknown_api_url_is_a_json_404_not_a_csrf_page(method):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)("/api/v1/nonexistent/", data="{}", content_type="application/json")
    assert_error_shape(response, 404, "not_found")


def test_an_unknown_page_url_is_still_an_html_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_long_unknown_api_path_is_not_echoed_whole(api_client):
    error = assert_error_shape(api_client.get("/api/v1/" + "a" * 5000), 404, "not_found")
    assert len(error["message"]) < 1100 and len(error["details"]["path"]) < 1100


# --- bodies -----------------------------------------------------------------------------------

@pytest.mark.smoke
def test_json_nested_a_thousand_deep_is_a_400_not_a_recursion_error(client_as, director, game):
    deep = "[" * 1000 + "]" * 1000
    for path in ("/api/v1/players/", f"/api/v1/games/{game.pk}/rulings/", f"/api/v1/games/{game.pk}/moves/"):
        response = client_as(director).post(path, data=deep, content_type="application/json")
        assert "deep" in assert_error_shape(response, 400, "malformed_request")["message"]
    objects = '{"a":' * 100_000 + "1" + "}" * 100_000
    response = client_as(director).post("/api/v1/players/", data=objects, content_type="application/json")
    assert_error_shape(response, 400, "malformed_request")


def test_json_nested_within_the_limit_is_read(client_as, director):
    nested = {"name": "Agnes Calder", "club": "Edinburgh DC"}
    response = client_as(director).post("/api/v1/players/", nested, format="json")
    assert response.status_code == 201


def test_a_json_value_nested_past_the_limit_inside_a_field_is_refused(client_as, director):
    clock = {"control": "none"}
    for _ in range(40):
        clock = {"x": clock}
    response = client_as(director).post("/api/v1/games/", {"black": 1, "white": 2, "clock": clock}, format="json")
    assert_error_shape(response, 400, "malformed_request")


@pytest.mark.smoke
def test_a_body_over_the_limit_is_a_413_in_the_error_shape(client_as, director, settings):
    body = '{"name": "' + "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10) + '"}'
    response = client_as(director).post("/api/v1/players/", data=body, content_type="application/json")
    error = assert_error_shape(response, 413, "payload_too_large")
    assert error["details"]["limit"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def test_a_form_body_over_the_limit_is_a_413_too(client_as, director, settings):
    body = "name=" + "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    response = client_as(director).post("/api/v1/players/", data=body,
                                        content_type="application/x-www-form-urlencoded")
    assert_error_shape(response, 413, "payload_too_large")


# --- echoes -----------------------------------------------------------------------------------

def test_an_error_does_not_echo_a_huge_value_back(client_as, director, game):
    huge = "Z" * 100_000
    api = client_as(director)
    answers = [
        api.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": huge}, format="json"),
        api.post(f"/api/v1/games/{game.pk}/moves/", {"move": huge}, format="json"),
        api.post("/api/v1/games/", {"black": 1, "white": 2, "rule_set": huge}, format="json"),
        api.post("/api/v1/games/", {"black": 1, "white": 2, "start_fen": huge}, format="json"),
        api.post("/api/v1/tournaments/", {"name": "T", "slug": "t", "format": huge}, format="json"),
    ]
    for response in answers:
        assert 400 <= response.status_code < 500, response.content[:300]
        assert len(response.content) < 5000, response.content[:300]

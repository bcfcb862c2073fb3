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


# --- integers in bodies -----------------------------------------------------------------------

TOURNAMENT = {"name": "Spring Open", "slug": "spring", "format": "swiss", "rounds": 3, "games_per_match": 2,
              "opening": "go-as-you-please", "rule_set": "standard"}


@pytest.mark.smoke
@pytest.mark.parametrize(("changes", "field"), [
    ({"games_per_match": HUGE}, "games_per_match"), ({"games_per_match": 2**62}, "games_per_match"),
    ({"rounds": HUGE}, "rounds"), ({"rounds": 40_000}, "rounds"),
    ({"scoring": {"win": HUGE, "draw": 1, "loss": 0}}, "scoring"),
    ({"scoring": {"win": 40_000, "draw": 1, "loss": 0}}, "scoring"),
    ({"knockout_extra_blocks": HUGE}, "knockout_extra_blocks"),
    ({"appeal_window_minutes": HUGE}, "appeal_window_minutes"),
    ({"name": "N" * 201}, "name"), ({"venue": "V" * 201}, "venue"),
    ({"referees": ["r" * 151]}, "referees"), ({"referees": ["ref"] * 51}, "referees"),
])
def test_a_tournament_with_a_number_or_text_out_of_range_is_a_400_naming_the_field(client_as, director, changes,
                                                                                   field):
    response = client_as(director).post("/api/v1/tournaments/", {**TOURNAMENT, **changes}, format="json")
    assert field in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


@pytest.fixture
def swiss(client_as, director):
    from players.models import Player

    api = client_as(director)
    assert api.post("/api/v1/tournaments/", TOURNAMENT, format="json").status_code == 201
    assert api.post("/api/v1/tournaments/spring/status/", {"status": "registration"}, format="json").status_code == 200
    players = [Player.objects.create(name=f"P{i}", rating=1500 + i) for i in range(4)]
    for player in players:
        assert api.post("/api/v1/tournaments/spring/entries/", {"player": player.pk},
                        format="json").status_code == 201
    assert api.post("/api/v1/tournaments/spring/status/", {"status": "running"}, format="json").status_code == 200
    assert api.post("/api/v1/tournaments/spring/rounds/", format="json").status_code == 201
    return api, players


@pytest.mark.parametrize(("path", "body", "field"), [
    ("entries/", {"player": HUGE}, "player"),
    ("entries/", {"player": -HUGE}, "player"),
    ("rounds/1/pairings/", {"pairings": [[HUGE, None]], "reason": "x"}, "pairings"),
    ("rounds/1/pairings/", {"pairings": [[1, 2]] * 1001, "reason": "x"}, "pairings"),
    ("rounds/1/pairings/", {"pairings": [[1, 2]], "reason": "r" * 2001}, "reason"),
    ("rounds/1/forfeits/", {"board": HUGE, "winner": None, "reason": "x"}, "board"),
    ("rounds/1/forfeits/", {"board": 1, "winner": HUGE, "reason": "x"}, "winner"),
    ("results/", {"game": HUGE, "result": "1-0", "reason": "x"}, "game"),
    ("status/", {"status": "finished", "reason": "r" * 2001}, "reason"),
    ("referees/", {"referees": ["r" * 151]}, "referees"),
    ("arbiters/", {"arbiters": ["a"] * 51}, "arbiters"),
])
def test_a_tournament_write_with_a_number_or_text_out_of_range_is_a_400(swiss, path, body, field):
    api, _ = swiss
    method = api.put if path.endswith("pairings/") else api.post
    response = method(f"/api/v1/tournaments/spring/{path}", body, format="json")
    assert field in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


def test_a_withdrawal_reason_past_the_limit_is_a_400(swiss):
    api, players = swiss
    response = api.delete(f"/api/v1/tournaments/spring/entries/{players[0].pk}/", {"reason": "r" * 2001},
                          format="json")
    assert "reason" in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


@pytest.mark.smoke
@pytest.mark.parametrize("rating", [2**63 - 1, -(2**63), 2**31, 4001, -1])
def test_a_player_with_a_rating_out_of_range_is_refused(client_as, director, rating):
    response = client_as(director).post("/api/v1/players/", {"name": "A. Player", "rating": rating}, format="json")
    error = assert_error_shape(response, 400, "validation_error")
    assert set(error["details"]["fields"]) == {"rating"}


def test_the_rating_bounds_are_those_of_the_csv_import(client_as, director):
    api = client_as(director)
    assert api.post("/api/v1/players/", {"name": "Lowest", "rating": 0}, format="json").status_code == 201
    assert api.post("/api/v1/players/", {"name": "Highest", "rating": 4000}, format="json").status_code == 201
    report = api.post("/api/v1/players/import/", {"csv": "name,rating\nOver,4001\n"}, format="json").json()
    assert "out of range (0 to 4000)" in report["refused"][0]["reason"]


def test_a_player_with_a_name_over_its_column_is_refused_by_the_api_and_the_import(client_as, director):
    api = client_as(director)
    response = api.post("/api/v1/players/", {"name": "N" * 121}, format="json")
    assert "name" in assert_error_shape(response, 400, "validation_error")["details"]["fields"]
    report = api.post("/api/v1/players/import/", {"csv": "name,club\n" + "N" * 121 + ",C\nOk,C\n"},
                      format="json").json()
    assert "longer than 120" in report["refused"][0]["reason"] and len(report["created"]) == 1


@pytest.mark.parametrize(("body", "field"), [
    ({"black": HUGE, "white": 2}, "black"), ({"black": 1, "white": -HUGE}, "white"),
    ({"black": 1, "white": 2, "start_fen": "B:W" + "21," * 100}, "start_fen"),
    ({"black": 1, "white": 2, "referees": ["r" * 151]}, "referees"),
])
def test_a_game_with_a_number_or_text_out_of_range_is_a_400(client_as, director, body, field):
    response = client_as(director).post("/api/v1/games/", body, format="json")
    assert field in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


# --- rulings and moves: lengths and ranges checked before the game is locked --------------------

ADVERSARIAL_MOVE = "1-2" + " " * 2_000_000 + "a"


@pytest.mark.smoke
@pytest.mark.parametrize("kind", ["false_move", "repetition_claim"])
def test_a_ruling_with_a_two_megabyte_move_is_refused_before_the_game_is_locked(client_as, referee, game, kind,
                                                                              monkeypatch):
    from arbitration import rulings

    def locked(*args, **kwargs):
        raise AssertionError("the game was locked for a request that is refused")

    monkeypatch.setattr(rulings, "game_lock", locked)
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/rulings/",
                                       {"kind": kind, "side": "black", "move": ADVERSARIAL_MOVE}, format="json")
    error = assert_error_shape(response, 400, "validation_error")
    assert "move" in error["details"]["fields"]
    assert len(response.content) < 5000


def test_a_move_of_two_megabytes_is_refused_with_a_400(client_as, referee, game):
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": ADVERSARIAL_MOVE}, format="json")
    assert "move" in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


@pytest.mark.parametrize(("payload", "field"), [
    ({"kind": "touched_piece_not_played", "side": "black", "square": HUGE}, "square"),
    ({"kind": "over_the_angle", "side": "black", "square": 9, "toward": 33}, "toward"),
    ({"kind": "huff", "side": "black", "square": 0}, "square"),
    ({"kind": "not_crowned", "side": "black", "ply": HUGE}, "ply"),
    ({"kind": "correction", "entry": HUGE, "reason": "x"}, "entry"),
    ({"kind": "correction", "entry": 1, "reason": "r" * 2001}, "reason"),
    ({"kind": "appeal", "entry": 1, "statement": "s" * 10_001}, "statement"),
    ({"kind": "appeal_decision", "appeal": HUGE, "decision": "upheld", "reason": "x"}, "appeal"),
    ({"kind": "adjudicate", "result": "1-0", "reason": "r" * 2001}, "reason"),
    ({"kind": "clock_adjust", "side": "black", "seconds": 1e300, "reason": "x"}, "seconds"),
    ({"kind": "conduct", "side": "black", "note": "n" * 2001}, "note"),
    ({"kind": "spectator", "note": "n" * 2001}, "note"),
])
def test_a_ruling_field_out_of_range_is_a_400_naming_it(client_as, director, game, payload, field):
    response = client_as(director).post(f"/api/v1/games/{game.pk}/rulings/", payload, format="json")
    assert field in assert_error_shape(response, 400, "validation_error")["details"]["fields"]


def test_a_move_note_past_the_limit_or_a_ply_past_any_game_is_a_400(client_as, referee, game):
    api = client_as(referee)
    response = api.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "note": "n" * 2001}, format="json")
    assert "note" in assert_error_shape(response, 400, "validation_error")["details"]["fields"]
    response = api.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "ply": HUGE}, format="json")
    assert "ply" in assert_error_shape(response, 400, "validation_error")["details"]["fields"]
    assert api.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "ply": 1}, format="json").status_code == 201

"""The games API: creating games, recording moves, permissions, retries, the PDN, query counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitration.models import LogEntry
from games.models import INITIAL_FEN, Game, Move
from games.rules.pdn import read_games, replay
from tests.arbitration.conftest import Desk, new_game, players  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"


def _create(client, players, **extra):  # noqa: F811
    body = {"black": players[0].pk, "white": players[1].pk, "rule_set": "standard", "referees": ["ref"], **extra}
    return client.post("/api/v1/games/", body, format="json")


def test_a_director_creates_a_game_and_gets_its_state(client_as, director, referee, players):  # noqa: F811
    response = _create(client_as(director), players, progress_rule="forty-move-automatic", repetition_threshold=3)
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "in_progress" and body["ply"] == 0 and body["fen"] == INITIAL_FEN
    assert body["start_fen"] == INITIAL_FEN and body["side_to_move"] == "black"
    assert body["black"] == {"id": players[0].pk, "name": "Agnes Calder"} and body["referees"] == ["ref"]
    assert body["repetition_threshold"] == 3 and body["forty_move"]["mode"] == "automatic"
    assert "9-13" in body["legal_moves"] and body["log_length"] == 1 and body["can_write"] is True
    assert LogEntry.objects.get(game_id=body["id"]).kind == "game_created"


@pytest.mark.parametrize(("extra", "field"), [
    ({"start_fen": "B:W99:B1"}, "start_fen"),
    ({"referees": ["nobody"]}, "referees"),
    ({"referees": ["pla"]}, "referees"),
    ({"white": "same"}, "white"),
])
def test_a_bad_game_is_refused_naming_the_field(client_as, director, referee, player_user, players, extra, field):  # noqa: F811
    if extra.get("white") == "same":
        extra = {"white": players[0].pk}
    response = _create(client_as(director), players, **extra)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "validation_error"
    assert field in response.json()["error"]["details"]["fields"]


def test_only_a_director_creates_games(client_as, referee, players):  # noqa: F811
    response = _create(client_as(referee), players)
    assert (response.status_code, response.json()["error"]["code"]) == (403, "permission_denied")


def test_writes_need_an_assigned_referee_or_a_director_and_reads_are_public(
    api_client, client_as, make_user, new_game, director,  # noqa: F811
):
    game = new_game()
    response = api_client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (401, "not_authenticated")
    response = api_client.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "draw_agreed"}, format="json")
    assert response.status_code == 401
    other_referee = make_user("ref2", "referee")
    response = client_as(other_referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "permission_denied")
    assert client_as(other_referee).get(f"/api/v1/games/{game.pk}/").json()["can_write"] is False
    response = client_as(director).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json")
    assert response.status_code == 201
    from django.contrib.auth.models import User

    response = client_as(User.objects.get(username="ref")).post(
        f"/api/v1/games/{game.pk}/moves/", {"move": "22-18"}, format="json")
    assert response.status_code == 201 and response.json()["ply"] == 2
    api_client.force_authenticate(user=None)
    assert api_client.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert api_client.get("/api/v1/games/").json()["count"] == 1


def test_a_move_for_a_ply_already_taken_is_a_ply_conflict_and_a_retry_of_the_same_move_too(client_as, referee, new_game):  # noqa: F811
    game = new_game()
    client = client_as(referee)
    assert client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "ply": 1}, format="json").status_code == 201
    response = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "ply": 1}, format="json")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "ply_conflict" and error["details"]["expected"] == 2 and error["details"]["current"] == 1
    assert Move.objects.filter(game=game).count() == 1


def test_an_unknown_game_is_404(client_as, referee):
    response = client_as(referee).post("/api/v1/games/999999/moves/", {"move": "11-15"}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")
    assert client_as(referee).get("/api/v1/games/999999/").status_code == 404


def test_the_pdn_export_has_the_tags_moves_termination_and_rulings_and_reads_back(client_as, referee, new_game):  # noqa: F811
    game = new_game(start_fen="B:W18,30:B14,1")
    desk = Desk("api", referee, client_as(referee))
    desk.play(game.pk, "14x23")
    desk.rule(game.pk, "touch_offence", "white")
    desk.play(game.pk, "30-26")
    desk.rule(game.pk, "resign", "white")
    response = client_as(referee).get(f"/api/v1/games/{game.pk}/pdn")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    text = response.content.decode()
    assert '[GameType "21"]' in text and '[Termination "resignation"]' in text and '[Setup "1"]' in text
    (read,) = read_games(text)
    assert read.result == "1-0" and read.tags["Black"] == "Agnes Calder" and read.start_fen == "B:W18,30:B1,14"
    assert [m.text for m in read.moves] == ["14x23", "30-26"]
    assert "touch offence (white) Law 18" in read.moves[0].comment
    assert replay(read).ok


def test_a_real_game_replayed_through_the_api_reaches_the_same_position(client_as, referee, director, new_game):  # noqa: F811
    source = read_games((DATA / "london1992_game17.pdn").read_text())[0]
    expected = replay(source)
    game = new_game()
    client = client_as(referee)
    # The file writes a plain move with x once (29x25); the engine's reading of each move is posted.
    for ply, move in enumerate(expected.state.moves, start=1):
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": move.pdn(), "ply": ply}, format="json")
        assert response.status_code == 201, (ply, move.pdn(), response.json())
    response = client.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "draw_agreed"}, format="json")
    body = response.json()
    assert body["fen"] == expected.state.position.fen() and body["ply"] == len(source.moves)
    assert body["result"] == source.result == "1/2-1/2" and body["termination"] == "draw_agreement"
    assert client.get(f"/api/v1/games/{game.pk}/log/verify").json()["valid"] is True


def test_a_move_costs_a_small_fixed_number_of_queries(client_as, referee, new_game, django_assert_max_num_queries):  # noqa: F811
    game = new_game()
    client = client_as(referee)
    moves = ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13", "15-18", "24-20"]
    for text in moves[:4]:
        assert client.post(f"/api/v1/games/{game.pk}/moves/", {"move": text}, format="json").status_code == 201
    for text in moves[4:]:
        with django_assert_max_num_queries(10):
            response = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": text}, format="json")
        assert response.status_code == 201
    with django_assert_max_num_queries(4):
        client.get(f"/api/v1/games/{game.pk}/")
    assert Game.objects.get(pk=game.pk).ply == 8


def test_a_player_may_not_record_moves_even_on_his_own_game(client_as, make_user, new_game, players):  # noqa: F811
    player = make_user("agnes", "player")
    players[0].user = player
    players[0].save()
    game = new_game()
    response = client_as(player).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json")
    assert (response.status_code, response.json()["error"]["code"]) == (403, "permission_denied")
    response = client_as(player).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "resign", "side": "black"},
                                      format="json")
    assert response.status_code == 403


def test_a_move_through_the_service_costs_six_queries_with_the_lock(referee, new_game, django_assert_num_queries):  # noqa: F811
    from arbitration.services import game_move_record

    game = new_game()
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    # savepoint, lock (with the players and the referees), log entry, move, game update, release
    with django_assert_num_queries(6):
        game_move_record(acting_user=referee, game_id=game.pk, move="22-18")


def test_a_clocked_game_reads_its_clock_after_the_lock(referee, director, django_assert_num_queries):  # noqa: F811
    from arbitration.services import game_create, game_move_record
    from players.models import Player

    game = game_create(acting_user=director, black=Player.objects.create(name="B"),
                       white=Player.objects.create(name="W"), referees=[referee.username],
                       clock={"control": "per-move"})
    assert Game.objects.get(pk=game.pk).has_clock
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    # the six, plus the clock row and the database's time
    with django_assert_num_queries(8):
        game_move_record(acting_user=referee, game_id=game.pk, move="22-18")


def test_a_move_request_costs_seven_queries_and_answers_the_move_not_the_whole_list(
    referee, new_game, django_assert_num_queries,  # noqa: F811
):
    from django.test import Client

    from accounts.services import token_issue

    game = new_game()
    token = token_issue(user=referee)
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, content_type="application/json").status_code == 201
    # the token with its user and roles, then the six of the service; the answer reads nothing more
    with django_assert_num_queries(7):
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": "22-18", "ply": 2},
                               content_type="application/json")
    body = response.json()
    assert response.status_code == 201 and "moves" not in body
    assert body["last_move"]["ply"] == 2 and body["last_move"]["move"] == "22-18"
    assert body["last_move"]["recorded_by"] == referee.username and body["ply"] == 2
    full = client.get(f"/api/v1/games/{game.pk}/").json()
    assert [m["move"] for m in full["moves"]] == ["11-15", "22-18"]
    assert full["moves"][-1] == body["last_move"]


def test_an_over_the_angle_constraint_admits_the_capture_in_that_direction(client_as, referee, new_game):  # noqa: F811
    game = new_game()
    desk = Desk("api", referee, client_as(referee))
    desk.play(game.pk, "11-15", "22-18")
    status, body = desk.rule(game.pk, "over_the_angle", "black", square=15, toward=18)
    assert status == 201
    status, body = desk.move(game.pk, "15x22")
    assert status == 201 and body["constraints"] == []

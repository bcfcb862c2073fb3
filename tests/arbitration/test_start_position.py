"""A game starts only from a position a board can hold, and ends at once when the side to move cannot move
(issue 15, item 4; Law 23)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

SIXTEEN_A_SIDE = "B:W17-32:B1-16"
THIRTEEN_BLACK = "B:W21-32:B1-13"
NO_BLACK_PIECES = "B:W21,22:B"


@pytest.fixture
def api(client_as, director, referee):
    return client_as(director)


@pytest.fixture
def two_players(db):
    from players.models import Player

    return Player.objects.create(name="Agnes Calder"), Player.objects.create(name="Bram Okafor")


def _create(api, players, fen):
    return api.post("/api/v1/games/", {"black": players[0].pk, "white": players[1].pk, "start_fen": fen,
                                       "referees": ["ref"]}, format="json")


@pytest.mark.smoke
@pytest.mark.parametrize(("fen", "reason"), [
    (SIXTEEN_A_SIDE, "Black has 16 pieces"),
    (THIRTEEN_BLACK, "Black has 13 pieces"),
    ("W:W5-17:BK30", "White has 13 pieces"),
    ("B:W21-28:B1-11,29", "crowning row"),
    ("B:W21-32:B1-11,33", "outside 1-32"),
])
def test_a_start_position_a_board_cannot_hold_is_a_400_naming_start_fen(api, two_players, fen, reason):
    from games.models import Game

    response = _create(api, two_players, fen)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and reason in error["details"]["fields"]["start_fen"][0]
    assert not Game.objects.exists()


def test_twelve_pieces_a_side_with_kings_is_accepted(api, two_players):
    response = _create(api, two_players, "W:WK1,K2,K3,21-29:B4-12,K30,K31,K32")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "in_progress"


@pytest.mark.smoke
def test_a_game_whose_side_to_move_has_no_piece_ends_at_once_under_law_23(api, two_players):
    response = _create(api, two_players, NO_BLACK_PIECES)
    assert response.status_code == 201, response.content
    state = response.json()
    assert state["status"] == "finished"
    assert state["result"] == "0-1" and state["termination"] == "no_legal_move"
    assert state["legal_moves"] == []
    log = api.get(f"/api/v1/games/{state['id']}/log/").json()
    assert [entry["kind"] for entry in log] == ["game_created", "game_end"]
    end = log[1]
    assert end["law"] == "23" and end["side"] == "black"
    assert end["data"]["result"] == "0-1" and end["data"]["termination"] == "no_legal_move"
    assert api.get(f"/api/v1/games/{state['id']}/log/verify").json()["valid"] is True
    refused = api.post(f"/api/v1/games/{state['id']}/moves/", {"move": "21-17"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_over"


def test_a_game_whose_side_to_move_is_blocked_ends_at_once_for_the_other_side(api, two_players):
    # White to move: his man on 32 is blocked by Black's men on 27 and 28, which he cannot jump
    # (23 and 24 are held by Black as well).
    fen = "W:W32:B23,24,27,28"
    from games.rules import Position

    assert Position.from_fen(fen).is_game_over()
    state = _create(api, two_players, fen).json()
    assert state["status"] == "finished" and state["result"] == "1-0" and state["termination"] == "no_legal_move"


def test_a_game_with_a_move_to_make_starts_in_progress(api, two_players):
    state = _create(api, two_players, "B:W21,22:B9").json()
    assert state["status"] == "in_progress" and state["result"] is None

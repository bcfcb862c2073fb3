"""The request bodies: a move for ply 0 is a ply conflict (409), a ruling's side may be null."""

from __future__ import annotations

import pytest

from arbitration.models import LogEntry

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ply", [0, 1, 3])
def test_a_move_for_a_ply_that_is_not_the_next_is_a_ply_conflict(desk, new_game, ply):
    game = new_game()
    desk.play(game.pk, "11-15")
    status, body = desk.move(game.pk, "22-18", ply=ply)
    assert (status, body["error"]["code"]) == (409, "ply_conflict")
    assert body["error"]["details"]["expected"] == 2
    assert desk.move(game.pk, "22-18", ply=2)[0] == 201


def test_a_negative_ply_is_a_validation_error(referee, new_game, client_as):
    game = new_game()
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15", "ply": -1}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "validation_error"


def test_a_ruling_with_a_null_side_concerns_no_side(referee, new_game, client_as):
    game = new_game()
    client = client_as(referee)
    response = client.post(f"/api/v1/games/{game.pk}/rulings/",
                           {"kind": "spectator", "side": None, "note": "a phone rang"}, format="json")
    assert response.status_code == 201, response.json()
    assert LogEntry.objects.filter(game=game).last().side == ""
    response = client.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "draw_agreed", "side": None}, format="json")
    assert response.status_code == 201 and response.json()["termination"] == "draw_agreement"


def test_a_ruling_that_needs_a_side_refuses_a_null_one(referee, new_game, client_as):
    game = new_game()
    response = client_as(referee).post(f"/api/v1/games/{game.pk}/rulings/",
                                       {"kind": "touch_offence", "side": None}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["fields"] == {"side": ["This field is required."]}

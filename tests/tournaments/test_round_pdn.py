"""A round's live PDN broadcast: complete, growing with every move, and 304 for a relay that has it."""

from __future__ import annotations

import pytest

from arbitration.moves import game_move_record
from games.models import Game
from games.rules.pdn import read_games, replay
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def _round_one(director):
    tournament = running_tournament(director, make_players(4), opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    return tournament, round_


def test_a_round_is_broadcast_as_pdn_that_grows_and_answers_304_when_nothing_changed(director, api_client):
    tournament, round_ = _round_one(director)
    url = "/api/v1/tournaments/club/rounds/1/pdn"
    assert api_client.get(url).status_code == 404  # a preview is not broadcast
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    games = list(Game.objects.filter(round=round_).order_by("id"))

    first = api_client.get(url)
    assert first.status_code == 200 and first["Content-Type"].startswith("text/plain")
    assert first["Cache-Control"] == "no-cache"
    tag = first["ETag"]
    read = read_games(first.content.decode())
    assert len(read) == len(games) and all(not g.moves for g in read)

    again = api_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag

    game_move_record(acting_user=director, game_id=games[0].pk, move="11-15")
    game_move_record(acting_user=director, game_id=games[0].pk, move="23-19")
    moved = api_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    read = read_games(moved.content.decode())
    played = [g for g in read if g.moves]
    assert len(played) == 1 and [m.text for m in played[0].moves] == ["11-15", "23-19"]
    assert replay(played[0]).ok

    # pydraughts (pinned in requirements-dev.txt) reads it too, once every board has begun (its
    # reader takes a game with no moves yet for part of the next one).
    for game in games[1:]:
        game_move_record(acting_user=director, game_id=game.pk, move="9-14")
    from draughts.PDN import PDNReader

    theirs = PDNReader(pdn_text=api_client.get(url).content.decode())
    assert len(theirs.games) == len(games)
    assert [g.moves for g in theirs.games] == [["11-15", "23-19"]] + [["9-14"]] * (len(games) - 1)


def test_an_unknown_round_is_404_in_the_error_shape(director, api_client):
    _round_one(director)
    response = api_client.get("/api/v1/tournaments/club/rounds/9/pdn")
    assert response.status_code == 404 and response.json()["error"]["code"]

"""The round's live PDN as a push stream (``/live/tournaments/{id}/rounds/{n}/pdn``, served by a real
uvicorn process): the whole round at once, again after each move with a new tag, read back by the
project's PDN reader and by pydraughts; a client that has the tag is sent nothing until a change."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]  # a real uvicorn (``web``)


@pytest.fixture
def web(transactional_db, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    server = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    yield server
    server.stop()


def test_the_round_is_pushed_as_pdn_after_each_move(world, web):
    from draughts.PDN import PDNReader

    from arbitration.services import game_move_record
    from games.rules.pdn import read_games, replay
    from tests.support.live import EventStream

    tournament, games, referee = world["tournament"], world["games"], world["referee"]
    stream = EventStream(web.port, f"/live/tournaments/{tournament.pk}/rounds/1/pdn")
    assert stream.status == 200
    first = stream.wait_for(lambda e: e["type"] == "pdn", timeout=20)
    assert first["round"] == 1 and len(read_games(first["pdn"])) == len(games)
    assert all(not game.moves for game in read_games(first["pdn"]))
    answer = world_client_get("/api/v1/tournaments/spring/rounds/1/pdn")
    assert first["etag"] == answer["ETag"] and first["pdn"] == answer.content.decode()

    game_move_record(acting_user=referee, game_id=games[0].pk, move="11-15")
    game_move_record(acting_user=referee, game_id=games[0].pk, move="23-19")
    moved = stream.wait_for(lambda e: e["type"] == "pdn" and "23-19" in e["pdn"], timeout=20)
    assert moved["etag"] != first["etag"]
    played = [game for game in read_games(moved["pdn"]) if game.moves]
    assert len(played) == 1 and [m.text for m in played[0].moves] == ["11-15", "23-19"] and replay(played[0]).ok

    for game in games[1:]:  # pydraughts reads a round once every board has begun
        game_move_record(acting_user=referee, game_id=game.pk, move="9-14")
    last = stream.wait_for(lambda e: e["type"] == "pdn" and e["pdn"].count("9-14") == len(games) - 1, timeout=20)
    theirs = PDNReader(pdn_text=last["pdn"])
    assert [g.moves for g in theirs.games] == [["11-15", "23-19"]] + [["9-14"]] * (len(games) - 1)
    tags = [e["etag"] for _, e in stream.events if e["type"] == "pdn"]
    assert len(tags) == len(set(tags))  # each push is a change
    stream.close()


def world_client_get(path):
    from rest_framework.test import APIClient

    return APIClient().get(path)


def test_a_client_with_the_tag_is_sent_nothing_until_a_change(world, web):
    from arbitration.services import game_move_record
    from tests.support.live import EventStream

    tournament, games = world["tournament"], world["games"]
    tag = world_client_get("/api/v1/tournaments/spring/rounds/1/pdn")["ETag"]
    stream = EventStream(web.port, f"/live/tournaments/{tournament.pk}/rounds/1/pdn", headers={"Last-Event-ID": tag})
    assert stream.status == 200
    game_move_record(acting_user=world["referee"], game_id=games[0].pk, move="11-15")
    event = stream.wait_for(lambda e: e["type"] == "pdn", timeout=20)
    assert "11-15" in event["pdn"] and event["etag"] != tag
    assert [e["type"] for _, e in stream.events] == ["pdn"]
    stream.close()


@pytest.mark.parametrize("path", ["/live/tournaments/{t}/rounds/9/pdn", "/live/tournaments/999999/rounds/1/pdn"])
def test_a_round_not_published_has_no_stream(world, web, path):
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=20)
    connection.request("GET", path.format(t=world["tournament"].pk))
    answer = connection.getresponse()
    assert answer.status == 404 and json.loads(answer.read())["error"]["code"] == "not_found"

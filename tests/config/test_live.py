"""Live push across processes: two web processes (uvicorn), a Celery worker, PostgreSQL and Redis.

A move recorded through one web process reaches a client of the other; a loss by delay that the
worker's clock sweeper adjudicates reaches the clients of both; a client that resumes with the
last seq it saw gets what it missed, in order, once.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytestmark = [pytest.mark.celery, pytest.mark.server, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def staff(db):
    from accounts.services import token_issue, user_create_with_role
    from players.models import Player

    director = user_create_with_role(username="td", password="a-long-test-password", role="director")
    referee = user_create_with_role(username="rf", password="a-long-test-password", role="referee")
    players = [Player.objects.create(name=f"Player {n}") for n in range(2)]
    return director, referee, players, token_issue(user=referee)


@pytest.fixture
def web_processes(transactional_db, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    servers = [WebProcess(env=worker_env(), log_path=tmp_path / f"web{n}.log") for n in range(2)]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


def new_game(staff, clock=None):
    from arbitration.services import game_create

    director, referee, players, _ = staff
    return game_create(acting_user=director, black=players[0], white=players[1], referees=[referee.username],
                       clock=clock)


def post_move(server, token, game_id, move):
    request = urllib.request.Request(
        f"{server.url}/api/v1/games/{game_id}/moves/", data=json.dumps({"move": move}).encode(), method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


@pytest.mark.serial  # timed: within a second, across two real web processes
def test_a_move_through_one_web_process_reaches_a_client_of_the_other(staff, web_processes):
    from tests.support.live import EventStream

    first, second = web_processes
    game = new_game(staff)
    stream = EventStream(second.port, f"/live/games/{game.pk}?since={game.log_seq}")
    assert stream.status == 200
    started = time.monotonic()
    status, _ = post_move(first, staff[3], game.pk, "11-15")
    assert status == 201
    event = stream.wait_for(lambda e: e.get("kind") == "move", timeout=2)
    assert time.monotonic() - started < 1.0
    assert (event["game"], event["seq"], event["move"], event["ply"]) == (game.pk, game.log_seq + 1, "11-15", 1)
    assert event["state"]["ply"] == 1 and event["state"]["status"] == "in_progress"
    stream.close()


def test_a_client_that_resumes_gets_what_it_missed_in_order_once(staff, web_processes):
    from tests.support.live import EventStream

    first, second = web_processes
    game = new_game(staff)
    seen = game.log_seq
    for move in ("11-15", "23-19", "8-11"):
        post_move(first, staff[3], game.pk, move)
    stream = EventStream(second.port, f"/live/games/{game.pk}", headers={"Last-Event-ID": str(seen)})
    stream.wait_for(lambda e: e.get("move") == "8-11")
    post_move(first, staff[3], game.pk, "22-17")
    stream.wait_for(lambda e: e.get("move") == "22-17")
    time.sleep(1.5)  # the change feed's second look (1 s with Redis) must not bring any again
    moves = [e["move"] for e in stream.entries() if e["kind"] == "move"]
    seqs = [e["seq"] for e in stream.entries()]
    assert moves == ["11-15", "23-19", "8-11", "22-17"]
    assert seqs == list(range(seen + 1, seen + 1 + len(seqs)))
    stream.close()


def test_two_live_processes_behind_one_address_deliver_each_entry_once_to_each_viewer(staff, tmp_path):
    """LIVE_CONCURRENCY=2 (uvicorn --workers 2, the Procfile's live): each process subscribes on its own and
    serves its own viewers; every viewer gets every entry once, in order, whichever process holds it."""
    from arbitration.services import game_move_record
    from tests.conftest import worker_env
    from tests.support.live import EventStream, WebProcess

    server = WebProcess(env=worker_env(), log_path=tmp_path / "live.log", processes=2).start()
    try:
        game = new_game(staff)
        streams = []
        deadline = time.monotonic() + 60
        while True:  # the kernel hands each connection to either process: open until both hold some
            stream = EventStream(server.port, f"/live/games/{game.pk}")
            assert stream.status == 200
            stream.wait_for(lambda e: e.get("type") == "hello", timeout=10)
            streams.append(stream)
            held = server.connections_by_process()
            if (len(streams) >= 6 and sum(1 for count in held.values() if count) == 2) or time.monotonic() > deadline:
                break
        assert sum(1 for count in held.values() if count) == 2, held  # both processes hold viewers (the supervisor none)
        moves = ["11-15", "23-19", "8-11", "22-17"]
        for move in moves:
            game_move_record(acting_user=staff[1], game_id=game.pk, move=move)
        for stream in streams:
            stream.wait_for(lambda e: e.get("move") == moves[-1], timeout=10)
        time.sleep(1.5)  # each process's change feed looks again (1 s with Redis): it must bring none twice
        for stream in streams:
            entries = stream.entries()
            assert [e["move"] for e in entries] == moves
            assert [e["seq"] for e in entries] == list(range(game.log_seq + 1, game.log_seq + 1 + len(moves)))
            stream.close()
    finally:
        server.stop()


def test_bad_resume_points_and_unknown_games_are_refused_in_the_error_shape(staff, web_processes):
    from tests.support.live import EventStream

    game = new_game(staff)
    bad = EventStream(web_processes[0].port, f"/live/games/{game.pk}?since=x")
    assert bad.status == 400
    assert json.loads(bad.response.read())["error"]["code"] == "validation_error"
    missing = EventStream(web_processes[0].port, "/live/games/999999")
    assert missing.status == 404
    assert json.loads(missing.response.read())["error"]["code"] == "not_found"


def test_ids_no_column_holds_are_refused_in_the_error_shape_not_a_server_error(staff, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import EventStream, WebProcess

    log_path = tmp_path / "web.log"
    server = WebProcess(env=worker_env(), log_path=log_path).start()
    try:
        game = new_game(staff)
        answers = {}
        for path in ("/live/games/%C2%B2",  # a superscript two: str.isdigit() says yes, int() says no
                     "/live/games/%D9%A3",  # an Arabic-Indic three: int() takes it
                     "/live/games/" + "9" * 5000, "/live/tournaments/" + "9" * 19,
                     f"/live/games?ids={game.pk},99999999999999999999999", f"/live/games?ids={game.pk},%C2%B2",
                     f"/live/games/{game.pk}?since=99999999999999999999",
                     f"/live/games?ids={game.pk}&since=99999999999999999999.1",
                     "/live/tournaments/1?since=t.99999999999999999999"):
            stream = EventStream(server.port, path)
            answers[path[:60]] = (stream.status, json.loads(stream.response.read())["error"]["code"])
            stream.close()
        assert answers == {
            "/live/games/%C2%B2": (404, "not_found"), "/live/games/%D9%A3": (404, "not_found"),
            "/live/games/" + "9" * 48: (404, "not_found"), "/live/tournaments/" + "9" * 19: (404, "not_found"),
            f"/live/games?ids={game.pk},99999999999999999999999": (400, "validation_error"),
            f"/live/games?ids={game.pk},%C2%B2": (400, "validation_error"),
            f"/live/games/{game.pk}?since=99999999999999999999": (400, "validation_error"),
            f"/live/games?ids={game.pk}&since=99999999999999999999.1": (400, "validation_error"),
            "/live/tournaments/1?since=t.99999999999999999999": (400, "validation_error"),
        }
    finally:
        server.stop()
    log = log_path.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-4000:]


def test_a_loss_by_delay_from_the_worker_reaches_the_clients_of_both(staff, web_processes, clock_workers):
    from arbitration.services import ruling_issue
    from tests.support.live import EventStream

    game = new_game(staff, clock={"control": "per-move", "move_seconds": 1.0, "grace_seconds": 0.5})
    clock_workers()
    streams = [EventStream(server.port, f"/live/games/{game.pk}?since={game.log_seq}") for server in web_processes]
    ruling_issue(acting_user=staff[1], game_id=game.pk, kind="clock_start")
    for stream in streams:
        called = stream.wait_for(lambda e: e.get("kind") == "time_call", timeout=10)
        assert called["state"]["clocks"]["time_called"]
        ended = stream.wait_for(lambda e: e.get("state", {}).get("status") == "finished", timeout=10)
        assert ended["state"]["termination"] == "loss_by_delay"
        stream.close()


def test_streams_past_the_limits_per_address_and_per_process_are_refused_with_503(staff, tmp_path):
    from tests.conftest import worker_env
    from tests.support.live import EventStream, WebProcess

    server = WebProcess(env={**worker_env(), "LIVE_MAX_PER_ADDRESS": "2", "LIVE_MAX_CONNECTIONS": "3",
                             "DJANGO_BEHIND_TLS_PROXY": "true"}, log_path=tmp_path / "web.log").start()
    try:
        game = new_game(staff)
        path = f"/live/games/{game.pk}"

        def open_from(address):
            return EventStream(server.port, path, headers={"X-Forwarded-For": f"203.0.113.9, {address}"})

        first, second = open_from("10.0.0.1"), open_from("10.0.0.1")
        for stream in (first, second):
            assert stream.status == 200
            stream.wait_for(lambda e: e.get("type") == "hello")
        third = open_from("10.0.0.1")
        assert third.status == 503
        assert third.response.getheader("Retry-After") == "30"
        assert json.loads(third.response.read())["error"]["code"] == "live_full"
        other = open_from("10.0.0.2")  # another address: admitted, and the process now holds its 3
        assert other.status == 200
        other.wait_for(lambda e: e.get("type") == "hello")
        full = open_from("10.0.0.3")
        assert full.status == 503
        assert "as many live streams as it can" in json.loads(full.response.read())["error"]["message"]
        first.close()  # a stream that ends frees its place
        deadline = time.monotonic() + 5
        while True:
            again = open_from("10.0.0.1")
            if again.status == 200 or time.monotonic() > deadline:
                break
            again.close()
            time.sleep(0.1)
        assert again.status == 200
        for stream in (second, other, again):
            stream.close()
    finally:
        server.stop()


def test_one_stream_follows_several_games_and_resumes_each_in_order(staff, tmp_path):
    from arbitration.services import game_move_record
    from tests.conftest import worker_env
    from tests.support.live import EventStream, WebProcess

    server = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    try:
        first, second = new_game(staff), new_game(staff)
        referee = staff[1]
        stream = EventStream(server.port, f"/live/games?ids={first.pk},{second.pk}")
        assert stream.status == 200
        hello = stream.wait_for(lambda e: e.get("type") == "hello")
        assert hello["games"] == [first.pk, second.pk]
        assert {e["game"] for _id, e in stream.events if e.get("type") == "game"} == {first.pk, second.pk}
        game_move_record(acting_user=referee, game_id=first.pk, move="11-15")
        game_move_record(acting_user=referee, game_id=second.pk, move="9-13")
        stream.wait_for(lambda e: e.get("game") == second.pk and e.get("kind") == "move")
        ids = [event_id for event_id, e in stream.events if e.get("type") == "entry"]
        assert ids == [f"{first.pk}.{first.log_seq + 1}", f"{second.pk}.{second.log_seq + 1}"]
        stream.close()
        game_move_record(acting_user=referee, game_id=first.pk, move="23-19")
        game_move_record(acting_user=referee, game_id=first.pk, move="8-11")
        resumed = EventStream(server.port, f"/live/games?ids={first.pk},{second.pk}"
                                           f"&since={first.pk}.{first.log_seq + 1},{second.pk}.{second.log_seq + 1}")
        resumed.wait_for(lambda e: e.get("type") == "hello")
        assert [(e["game"], e["seq"], e["move"]) for e in resumed.entries()] == [
            (first.pk, first.log_seq + 2, "23-19"), (first.pk, first.log_seq + 3, "8-11")]
        resumed.close()
        for query in ("ids=", "ids=x", "ids=" + ",".join(str(n) for n in range(1, 102))):
            bad = EventStream(server.port, f"/live/games?{query}")
            assert bad.status == 400
            assert json.loads(bad.response.read())["error"]["code"] == "validation_error"
        assert EventStream(server.port, "/live/games?ids=999999").status == 404
    finally:
        server.stop()


def test_one_stream_carries_every_games_entries_live_in_order_without_ids(staff, tmp_path):
    from arbitration.services import game_move_record, ruling_issue
    from tests.conftest import worker_env
    from tests.support.live import EventStream, WebProcess

    server = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    try:
        first = new_game(staff)
        game_move_record(acting_user=staff[1], game_id=first.pk, move="11-15")  # before the stream: seq 2
        stream = EventStream(server.port, "/live/games?all=1")
        assert stream.status == 200
        assert stream.wait_for(lambda e: e.get("type") == "hello") == {"type": "hello", "games": "all"}
        second = new_game(staff)  # a game made after the stream opened comes too, from its creation
        game_move_record(acting_user=staff[1], game_id=first.pk, move="23-19")
        game_move_record(acting_user=staff[1], game_id=second.pk, move="9-13")
        ruling_issue(acting_user=staff[1], game_id=first.pk, kind="resign", side="white")
        stream.wait_for(lambda e: e.get("game") == first.pk and e.get("kind") == "game_end")
        stream.wait_for(lambda e: e.get("game") == second.pk and e.get("kind") == "move")
        # A process's first stream may also get the last entries written before it (no replay is promised):
        # the client compares seqs. What comes after is every entry, once, in order.
        after = [e for e in stream.entries(first.pk) if e["seq"] > 2]
        assert [(e["seq"], e["kind"], e.get("move")) for e in after] == [
            (3, "move", "23-19"), (4, "resign", None), (5, "game_end", None)]
        assert [e["seq"] for e in stream.entries(first.pk)] == sorted({e["seq"] for e in stream.entries(first.pk)})
        assert [e["kind"] for e in stream.entries(second.pk)] == ["game_created", "move"]
        assert all(e["state"]["ply"] == e["ply"] for e in after if "state" in e)  # the game's state when pushed
        assert {event_id for event_id, _e in stream.events} == {None}  # live only: nothing to resume from
        stream.close()
    finally:
        server.stop()

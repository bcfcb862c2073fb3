"""The live process's fan-out, in one event loop: each event encoded once, the same bytes to every viewer,
in order and once, several events of one turn in one write, a keep-alive only to a quiet stream.

The streams here run ``config.live.Stream.run`` on a hub of their own with an ASGI ``send`` that
records what it is given (no server, no database: the events need no replay).
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from config import live


def entry(game: int, seq: int, move: str = "11-15") -> dict:
    return {"type": "entry", "game": game, "round": None, "seq": seq, "kind": "move", "move": move,
            "at": "2026-11-26T10:00:00+00:00", "state": {"status": "in_progress", "ply": seq}}


class Client:
    """An ASGI connection that records each body written and never disconnects (until told to)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.gone = asyncio.Event()

    async def send(self, message: dict) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            self.writes.append(message["body"])

    async def receive(self) -> dict:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    def events(self) -> list[tuple[str | None, dict]]:
        found = []
        for frame in b"".join(self.writes).decode().split("\n\n"):
            lines = frame.split("\n")
            data = [line[6:] for line in lines if line.startswith("data: ")]
            if data:
                ids = [line[4:] for line in lines if line.startswith("id: ")]
                found.append((ids[0] if ids else None, json.loads("\n".join(data))))
        return found


def open_game_stream(game: int, seq: int) -> tuple[Client, live.Stream, asyncio.Task]:
    client = Client()
    stream = live.Stream(client.send, client.receive)
    last = {game: seq}

    async def start() -> None:
        stream.body(live._frame({"type": "hello", "game": game, "seq": seq}, str(seq)))

    task = asyncio.ensure_future(stream.run(f"game:{game}", start, lambda frames: stream.game_entry(frames, last, "game")))
    return client, stream, task


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def run(scenario):
    """Runs the coroutine function in an event loop of its own thread (the browser tests' loop may hold this one)."""
    outcome = {}

    def target():
        try:
            outcome["value"] = asyncio.run(scenario())
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


@pytest.fixture
def hub(monkeypatch):
    fresh = live.Hub()
    monkeypatch.setattr(live, "hub", fresh)
    return fresh


def test_an_event_is_encoded_once_and_every_viewer_gets_the_same_bytes(hub, monkeypatch):
    encoded = []

    def counting_frame(event, event_id):
        encoded.append(event["seq"])
        return frame(event, event_id)

    frame = live._frame
    async def scenario():
        streams = [open_game_stream(7, 0) for _ in range(50)]
        others = [open_game_stream(8, 0) for _ in range(5)]
        await settle()
        monkeypatch.setattr(live, "_frame", counting_frame)
        await hub._dispatch(entry(7, 1))
        await settle()
        for client, _stream, task in (*streams, *others):
            client.gone.set()
            await task
        return streams, others

    streams, others = run(scenario)
    assert encoded == [1]  # once for the 50 viewers, not once per viewer
    expected = ('id: 1\ndata: ' + json.dumps(entry(7, 1), separators=(",", ":")) + "\n\n").encode()
    got = [client.writes[-1] for client, _stream, _task in streams]
    assert got == [expected] * 50
    assert all(frame is got[0] for frame in got)  # the one object, shared
    assert all(client.events() == [("0", {"type": "hello", "game": 8, "seq": 0})] for client, _s, _t in others)
    assert hub.delivered == 50


def test_each_viewer_gets_each_entry_once_in_order_and_what_one_turn_brings_in_one_write(hub):
    async def scenario():
        client, stream, task = open_game_stream(3, 4)
        await settle()
        writes_before = len(client.writes)
        for seq in (5, 6, 7):  # three entries in one turn of the loop, then one seen twice and one it has
            await hub._dispatch(entry(3, seq, f"m{seq}"))
        await hub._dispatch(entry(3, 7))
        stream.push(live.Frames(entry(3, 4)))
        await settle()
        batched = len(client.writes) - writes_before
        await hub._dispatch(entry(3, 8, "m8"))
        await settle()
        client.gone.set()
        await task
        return client, batched

    client, batched = run(scenario)
    assert batched == 1
    assert [(event_id, event.get("move")) for event_id, event in client.events()] == [
        ("4", None), ("5", "m5"), ("6", "m6"), ("7", "m7"), ("8", "m8")]


def test_a_state_after_its_entry_goes_to_the_viewers_that_have_that_entry_without_an_id(hub):
    async def scenario():
        client, _stream, task = open_game_stream(2, 0)
        await settle()
        await hub._dispatch(entry(2, 1))
        newer = {**entry(2, 1), "state": {"status": "finished", "ply": 1}}
        await hub._dispatch(newer)  # the change feed's later state of the same entry
        await settle()
        client.gone.set()
        await task
        return client

    client = run(scenario)
    assert [(event_id, event["type"], event.get("state", {}).get("status")) for event_id, event in client.events()] == [
        ("0", "hello", None), ("1", "entry", "in_progress"), (None, "state", "finished")]


def test_a_viewer_that_falls_too_far_behind_is_let_go_and_the_others_are_served(hub, monkeypatch):
    monkeypatch.setattr(live, "QUEUE_SIZE", 3)

    async def scenario():
        slow_client, slow, slow_task = open_game_stream(4, 0)
        client, fast, task = open_game_stream(4, 0)
        await settle()
        unstuck = asyncio.Event()
        recorded = slow_client.send

        async def stuck(message):  # a client that reads nothing more: the write waits for its socket
            await recorded(message)
            await unstuck.wait()

        slow.send = stuck
        for seq in range(1, 7):
            await hub._dispatch(entry(4, seq))
            await settle()
        assert not slow_task.done() and slow.ended  # 4 waiting past the 3 it may: let go ...
        unstuck.set()
        await settle()
        assert slow_task.done()  # ... once its write returns; its client resumes by seq
        assert hub.topics["game:4"] == {fast}
        client.gone.set()
        await task
        return slow_client, client

    slow_client, client = run(scenario)
    assert [event["seq"] for _id, event in client.events()] == [0, 1, 2, 3, 4, 5, 6]
    assert [event["seq"] for _id, event in slow_client.events()] == [0, 1]


def test_only_a_quiet_stream_gets_a_keep_alive_comment(hub, monkeypatch, settings):
    settings.LIVE_KEEPALIVE = 0.05

    async def scenario():
        quiet, _q, quiet_task = open_game_stream(5, 0)
        busy, _b, busy_task = open_game_stream(6, 0)
        await settle()
        keepalive = asyncio.ensure_future(hub._keepalive_loop())
        for seq in range(1, 13):  # 0.24 s: the busy game gets an entry every 0.02 s
            await hub._dispatch(entry(6, seq))
            await asyncio.sleep(0.02)
        keepalive.cancel()
        for client, task in ((quiet, quiet_task), (busy, busy_task)):
            client.gone.set()
            await task
        return quiet, busy

    quiet, busy = run(scenario)
    assert b": keep-alive\n\n" in quiet.writes
    assert b": keep-alive" not in b"".join(busy.writes)
    assert [event["seq"] for _id, event in busy.events()] == list(range(13))


@pytest.mark.django_db(transaction=True)
def test_a_game_first_seen_after_a_later_entry_gets_what_was_written_since_the_start_first(hub):
    """Redis may bring a game's entry before an earlier one written after the feed started (its subscription
    not yet listening when the earlier was published): the hub, which has seen nothing of the game, reads
    those from the log first, so an all-games stream still gets every entry after its hello, in order."""
    from accounts.services import user_create_with_role
    from arbitration.models import LogEntry
    from arbitration.services import game_create, game_move_record
    from players.models import Player

    director = user_create_with_role(username="td", password="a-long-test-password", role="director")
    referee = user_create_with_role(username="rf", password="a-long-test-password", role="referee")
    black, white = (Player.objects.create(name=f"Player {n}") for n in range(2))
    game = game_create(acting_user=director, black=black, white=white, referees=[referee.username])
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")  # seq 2, before the feed's start
    start = LogEntry.objects.order_by("-id").values_list("id", flat=True).first()
    game_move_record(acting_user=referee, game_id=game.pk, move="23-19")  # seq 3: its publish missed
    game_move_record(acting_user=referee, game_id=game.pk, move="9-13")  # seq 4: Redis brings it first
    fourth = next(e for e in live.entries_after(game.pk, 3))
    feed = live.entries_after(game.pk, 2)  # the change feed's look, a second later

    async def scenario():
        hub.start_ids = (start, 0)
        client = Client()
        stream = live.Stream(client.send, client.receive)

        async def start_stream() -> None:
            stream.body(live._frame({"type": "hello", "games": "all"}, None))

        async def on_event(frames: live.Frames) -> None:
            stream.body(frames.frame(None))

        task = asyncio.ensure_future(stream.run(live.ALL_GAMES, start_stream, on_event))
        await settle()
        await hub._dispatch(fourth)
        for event in feed:  # nothing twice
            await hub._dispatch(event)
        await settle()
        client.gone.set()
        await task
        return client

    client = run(scenario)
    seen = [(e["seq"], e.get("move")) for _id, e in client.events() if e.get("game") == game.pk]
    assert seen == [(3, "23-19"), (4, "9-13")]

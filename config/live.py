"""The live path: server-sent event streams of games and tournaments, served under ASGI.

``/live/games/{id}`` streams a game's log entries as they are committed; ``/live/tournaments/{id}``
streams the tournament's own log and the entries of every game of its rounds; ``/live/games?ids=``
several games' entries, ``/live/games?all=1`` every game's (docs/api.md, "Live events"). Each web
process that serves them (uvicorn, ``config/asgi.py``) has one ``Hub``: ONE source of events for
all its connections, fanned out in memory:

- with Redis (``LIVE_REDIS_URL``), one pub/sub subscription to the channel the writers publish
  on after their commit (``core.live``), plus the change feed below every ``LIVE_FEED_INTERVAL``
  (1 s) as a safety net;
- without Redis (``make run``: SQLite), the change feed alone, every 0.1 s: one query per
  process for the log rows written since the last read (by id), never one per viewer. The
  Celery worker's sweeper writes log entries like any web process, so a loss by delay arrives
  the same way.

The hub passes each game's entries on in seq order, once: an entry already passed on is
dropped (Redis and the feed both bring it), a gap is filled from the log table first (one query
per gap and process), and so is, for a game the hub sees for the first time, what was written
since the feed started and before that entry (one query per game and process). Each connection then keeps the last seq its client has and replays from
the log table what the client missed (on resume: ``Last-Event-ID`` or ``?since=``). The fan-out
is cheap per viewer (``Frames``, ``Hub._fan_out``, ``Stream.run``): each event is encoded once and
each connection woken once per turn of the event loop, so that one process serves 10,000 viewers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from arbitration.live import ENTRY_FIELDS, entries_after, event_of_row, game_live_state
from arbitration.models import LogEntry
from core.converters import ID_REGEX
from core.limits import MAX_INT_COLUMN
from games.models import Game
from tournaments.models import Round, Tournament, TournamentLog

logger = logging.getLogger(__name__)

ALL_GAMES = "games:all"  # the topic of every game's entries (the "Live games" page: /live/games?all=1)
FEED_WINDOW = 64  # log rows re-read behind the newest id seen: a transaction that commits late is not skipped
FEED_BATCH = 1000
QUEUE_SIZE = 1000  # events waiting for one slow client; past it the client is dropped (it resumes by seq)


def _db(function: Any) -> Any:
    """Runs a database read in a worker thread (its own connection), not on the event loop."""
    def run(*args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        return function(*args, **kwargs)
    return sync_to_async(run, thread_sensitive=False)


# --- reads ----------------------------------------------------------------------------------------

def _feed_read(entry_after: int | None, tournament_after: int | None) -> tuple[list[dict], list[dict], int, int]:
    """Reads the log rows written since the last read, with the state of each game they touch. Three queries."""
    if entry_after is None:
        entry_after = (LogEntry.objects.order_by("-id").values_list("id", flat=True).first() or 0)
        tournament_after = (TournamentLog.objects.order_by("-id").values_list("id", flat=True).first() or 0)
        return [], [], entry_after, tournament_after
    rows = list(LogEntry.objects.filter(id__gt=max(0, entry_after - FEED_WINDOW)).order_by("id")
                .values_list(*ENTRY_FIELDS)[:FEED_BATCH])
    events = [event_of_row(row) for row in rows]
    if events:
        games = {game.pk: game for game in Game.objects.filter(pk__in={e["game"] for e in events})
                 .select_related("clock")}
        from arbitration.clocks import db_now

        now = db_now()
        last_of_game = {event["game"]: event for event in events}
        for game_id, event in last_of_game.items():
            game = games.get(game_id)
            if game is not None and game.log_seq == event["seq"]:
                event["state"] = game_live_state(game, now)
        entry_after = max(entry_after, rows[-1][0])
    trows = list(TournamentLog.objects.filter(id__gt=max(0, tournament_after - FEED_WINDOW)).order_by("id")
                 .values_list("id", "tournament_id", "seq", "kind", "created_at")[:FEED_BATCH])
    tevents = [{"type": "tournament", "tournament": t, "seq": seq, "kind": kind, "at": at.isoformat()}
               for (_id, t, seq, kind, at) in trows]
    if trows:
        tournament_after = max(tournament_after, trows[-1][0])
    return events, tevents, entry_after, tournament_after


def _tournament_of_round(round_id: int) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()


def _tournament_events(tournament_id: int, rows: Any) -> list[dict]:
    return [{"type": "tournament", "tournament": tournament_id, "seq": s, "kind": kind, "at": at.isoformat()}
            for (s, kind, at) in rows.order_by("seq").values_list("seq", "kind", "created_at")]


def _tournament_after(tournament_id: int, seq: int, up_to: int | None = None) -> list[dict]:
    rows = TournamentLog.objects.filter(tournament_id=tournament_id, seq__gt=seq)
    if up_to is not None:
        rows = rows.filter(seq__lte=up_to)
    return _tournament_events(tournament_id, rows)


def _entries_since(game_id: int, since_id: int, up_to: int) -> list[dict]:
    """The game's entries written since the change feed started (log id past ``since_id``), before seq ``up_to``."""
    rows = LogEntry.objects.filter(game_id=game_id, id__gt=since_id, seq__lt=up_to)
    return [event_of_row(row) for row in rows.order_by("seq").values_list(*ENTRY_FIELDS)]


def _tournament_since(tournament_id: int, since_id: int, up_to: int) -> list[dict]:
    """The tournament's log rows written since the change feed started (id past ``since_id``), before seq ``up_to``."""
    return _tournament_events(tournament_id, TournamentLog.objects.filter(tournament_id=tournament_id,
                                                                          id__gt=since_id, seq__lt=up_to))


def _game_seq(game_id: int) -> int | None:
    return Game.objects.filter(pk=game_id).values_list("log_seq", flat=True).first()


def _tournament_snapshot(tournament_id: int) -> tuple[int, list[dict]] | None:
    """Returns the tournament's log seq and a ``game`` event per game of its current round (None: no tournament)."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return None
    seq = (TournamentLog.objects.filter(tournament_id=tournament_id).order_by("-seq")
           .values_list("seq", flat=True).first() or 0)
    current = (Round.objects.filter(tournament_id=tournament_id).exclude(status=Round.Status.PREVIEW)
               .order_by("-number").first())
    games = []
    if current is not None:
        for game in Game.objects.filter(round=current).select_related("black", "white").order_by("id"):
            games.append({"type": "game", "game": game.pk, "round": current.pk, "round_number": current.number,
                          "seq": game.log_seq, "black": game.black.name, "white": game.white.name,
                          "status": game.status, "result": game.result, "termination": game.termination,
                          "ply": game.ply, "fen": game.fen})
    return seq, games


# --- the hub --------------------------------------------------------------------------------------

class Frames:
    """One event as the hub passes it on: its dict, and its SSE frame, encoded once for every connection.

    The JSON is encoded on the first connection that needs it and shared by all the others; so is
    the frame with each style of id (a game stream's ``12``, a multi-game stream's ``5.12``, a
    tournament event's ``t.3``, none for the all-games stream and the state events).
    """

    __slots__ = ("event", "_data", "_frames")

    def __init__(self, event: dict) -> None:
        self.event = event
        self._data: bytes | None = None
        self._frames: dict[str | None, bytes] = {}

    def frame(self, ids: str | None) -> bytes:
        frame = self._frames.get(ids)
        if frame is None:
            if self._data is None:
                self._data = _frame(self.event, None)
            frame = self._data if ids is None else f"id: {_event_id(self.event, ids)}\n".encode() + self._data
            self._frames[ids] = frame
        return frame


class Hub:
    """One process's source of events: subscribes to Redis and/or reads the change feed, fans out by topic.

    The fan-out is a plain loop over the topic's streams: each event is encoded once (``Frames``)
    and appended to each stream's pending list; a stream's own task wakes once for whatever came
    in the same turn of the event loop and writes it in one piece. No task, timer or queue per
    event and viewer; one keep-alive task for all the streams.
    """

    def __init__(self) -> None:
        self.topics: dict[str, set[Stream]] = {}
        self.streams: set[Stream] = set()
        self.last: dict[tuple[str, int], int] = {}  # ("game" | "tournament", id) -> last seq passed on
        self.states: dict[tuple[str, int], dict] = {}  # the last state passed on per game
        self.round_tournament: dict[int, int | None] = {}
        self.inbox: asyncio.Queue | None = None
        self.tasks: list[asyncio.Task] = []
        # Set once the change feed knows where it starts: a stream says hello only after it, so that an
        # entry committed after the hello is never behind the feed's starting point (the first stream of
        # a process would otherwise miss what was written while the feed took its first look).
        self.feed_ready: asyncio.Event | None = None
        # The newest log ids (games', tournaments') when the feed started: the first event the hub sees of a
        # game may come before an earlier one committed after that point (Redis brought the later one, or
        # its subscription was not yet listening for the earlier): those are read from the log first.
        self.start_ids: tuple[int, int] | None = None
        self.delivered = 0
        self.admitted = 0  # streams open now (or being opened), against LIVE_MAX_CONNECTIONS
        self.per_address: dict[str, int] = {}  # ... and per client address, against LIVE_MAX_PER_ADDRESS

    def admit(self, address: str) -> str | None:
        """Counts a new stream in, or returns why not (the process or the address holds its limit)."""
        if self.admitted >= settings.LIVE_MAX_CONNECTIONS:
            return "process"
        if self.per_address.get(address, 0) >= settings.LIVE_MAX_PER_ADDRESS:
            return "address"
        self.admitted += 1
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        self.admitted -= 1
        left = self.per_address.get(address, 1) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    def start(self) -> None:
        if self.inbox is not None:
            return
        self.inbox = asyncio.Queue()
        self.feed_ready = asyncio.Event()
        self.tasks.append(asyncio.ensure_future(self._dispatch_loop()))
        self.tasks.append(asyncio.ensure_future(self._feed_loop()))
        self.tasks.append(asyncio.ensure_future(self._keepalive_loop()))
        if settings.LIVE_REDIS_URL:
            self.tasks.append(asyncio.ensure_future(self._redis_loop()))

    def subscribe(self, topic: str, stream: Stream) -> None:
        self.topics.setdefault(topic, set()).add(stream)
        self.streams.add(stream)

    def unsubscribe(self, topic: str, stream: Stream) -> None:
        streams = self.topics.get(topic)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.topics[topic]
        self.streams.discard(stream)

    def connections(self) -> int:
        return len(self.streams)

    async def _keepalive_loop(self) -> None:
        """Every LIVE_KEEPALIVE seconds, a keep-alive comment to each stream that sent nothing since the last time."""
        while True:
            await asyncio.sleep(settings.LIVE_KEEPALIVE)
            for stream in self.streams:
                if stream.quiet:
                    stream.keep_alive()
                stream.quiet = True

    async def _redis_loop(self) -> None:
        import redis.asyncio as aioredis

        delay = 0.5
        while True:
            try:
                client = aioredis.Redis.from_url(settings.LIVE_REDIS_URL)
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(settings.LIVE_CHANNEL)
                    delay = 0.5
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            with contextlib.suppress(ValueError):
                                self.inbox.put_nowait(json.loads(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - Redis away: the change feed carries on meanwhile
                logger.warning("live: Redis subscription lost (%r); again in %.1f s", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)

    async def _feed_loop(self) -> None:
        read = _db(_feed_read)
        entry_after = tournament_after = None
        while True:
            try:
                events, tevents, entry_after, tournament_after = await read(entry_after, tournament_after)
                if self.start_ids is None:
                    self.start_ids = (entry_after, tournament_after)
                self.feed_ready.set()
                for event in (*events, *tevents):
                    self.inbox.put_nowait(event)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - the database away: try again
                logger.warning("live: change feed read failed: %r", error)
            await asyncio.sleep(settings.LIVE_FEED_INTERVAL)

    async def _dispatch_loop(self) -> None:
        while True:
            event = await self.inbox.get()
            try:
                await self._dispatch(event)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001
                logger.exception("live: event not dispatched: %r", event)

    async def _dispatch(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "entry":
            key, topic = ("game", event["game"]), f"game:{event['game']}"
            refill = _db(entries_after)
        elif kind == "tournament":
            key, topic = ("tournament", event["tournament"]), f"tournament:{event['tournament']}"
            refill = _db(_tournament_after)
        else:
            return
        seq = event["seq"]
        last = self.last.get(key)
        if last is not None and seq <= last:
            if seq == last and event.get("state") is not None and event["state"] != self.states.get(key):
                self.states[key] = event["state"]
                state = Frames({**event, "type": "state"})  # the feed's state of an entry Redis brought first
                self._fan_out(topic, state)
                if kind == "entry":
                    self._fan_out(ALL_GAMES, state)
            return
        if event.get("state") is not None:
            self.states[key] = event["state"]
        events = [event]
        if last is not None and seq > last + 1:
            events = [*await refill(key[1], last, seq - 1), event]
        elif last is None and seq > 1 and self.start_ids is not None:  # first seen: what came since the start first
            since = self.start_ids[0] if kind == "entry" else self.start_ids[1]
            earlier = _entries_since if kind == "entry" else _tournament_since
            events = [*await _db(earlier)(key[1], since, seq), event]
        self.last[key] = seq
        for item in events:
            frames = Frames(item)
            self._fan_out(topic, frames)
            if kind == "entry":
                self._fan_out(ALL_GAMES, frames)
            round_id = item.get("round")
            if kind == "entry" and round_id:
                if round_id not in self.round_tournament:
                    self.round_tournament[round_id] = await _db(_tournament_of_round)(round_id)
                tournament = self.round_tournament[round_id]
                if tournament is not None:
                    self._fan_out(f"tournament:{tournament}", frames)

    def _fan_out(self, topic: str, frames: Frames) -> None:
        streams = self.topics.get(topic)
        if streams:
            for stream in streams:  # push() never awaits nor (un)subscribes: the set holds still
                stream.push(frames)
            self.delivered += len(streams)


hub = Hub()


# --- the streams ----------------------------------------------------------------------------------

def _frame(event: dict, event_id: str | None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return (head + "data: " + json.dumps(event, separators=(",", ":"), default=str) + "\n\n").encode()


def _event_id(event: dict, ids: str) -> str:
    """An event's SSE id in one of the streams' styles: ``game`` (a game stream: the seq), ``games`` (a
    stream of several games: game.seq), ``t`` (a tournament's own log: t.seq)."""
    if ids == "game":
        return str(event["seq"])
    if ids == "games":
        return f"{event['game']}.{event['seq']}"
    return f"t.{event['seq']}"


def _error(status: int, code: str, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": {"code": code, "message": message, "details": {}}}).encode()


_ID = re.compile(ID_REGEX)
_SEQ = re.compile(f"[0-9]{{1,{len(str(MAX_INT_COLUMN))}}}")


def _parse_id(text: str) -> int:
    """Returns a row id written as 1 to 18 ASCII digits (``core.converters``); raises ValueError otherwise.

    ``str.isdigit()`` and ``int()`` take more: a superscript ``²`` passes the one and fails the
    other, ``٣`` passes both, and 5,000 digits exceed ``int()``'s limit or any column.
    """
    if not _ID.fullmatch(text):
        raise ValueError(text[:40])
    return int(text)


def _parse_seq(text: str) -> int:
    """Returns a log seq written as ASCII digits within its column; raises ValueError otherwise."""
    if not _SEQ.fullmatch(text) or int(text) > MAX_INT_COLUMN:
        raise ValueError(text[:40])
    return int(text)


def _parse_since(text: str) -> dict[str, int]:
    """Parses a resume point: ``12`` (a game stream's seq) or ``t.5,101.40`` (a tournament stream's)."""
    marks: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, seq = part.rpartition(".")
        value = _parse_seq(seq)
        if name and name != "t":
            name = str(_parse_id(name))
        marks[name or "-"] = value
    return marks


class Stream:
    """One client's connection: sends events in seq order per game, replays what it missed.

    The hub ``push``es each event's ``Frames`` onto ``pending``; the connection's task wakes (once
    for all that came meanwhile), decides per event what its client gets (``on_event``: nothing if
    it has it, the missed entries first from the log) and writes it all in one piece. More than
    ``QUEUE_SIZE`` events waiting (a client that does not read) end the stream: its client resumes
    by seq.
    """

    def __init__(self, send: Any, receive: Any) -> None:
        self.send = send
        self.receive = receive
        self.pending: list[Frames] = []
        self.out: list[bytes] = []
        self.waiter: asyncio.Future | None = None
        self.ended = False  # the client went away, or fell QUEUE_SIZE events behind
        self.quiet = False  # nothing sent since the hub's last keep-alive round
        self.ping = False

    def push(self, frames: Frames) -> None:
        """Takes an event for this client (the hub calls it, in the event loop's thread; never blocks)."""
        if len(self.pending) >= QUEUE_SIZE:
            self.ended = True  # the client resumes by seq
        else:
            self.pending.append(frames)
        self._wake()

    def keep_alive(self) -> None:
        self.ping = True
        self._wake()

    def _wake(self) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def body(self, data: bytes) -> None:
        """Adds bytes to what goes out at the next flush."""
        self.out.append(data)

    async def flush(self) -> None:
        if self.out:
            data = self.out[0] if len(self.out) == 1 else b"".join(self.out)
            self.out = []
            self.quiet = False
            await self.send({"type": "http.response.body", "body": data, "more_body": True})

    async def game_entry(self, frames: Frames, last: dict[int, int], ids: str) -> None:
        """Sends a game's entry after what its client has (the missed ones first), or nothing if it has it."""
        event = frames.event
        game = event["game"]
        have = last.get(game)
        seq = event["seq"]
        if event.get("type") == "state":
            if have is not None and seq == have:
                self.body(frames.frame(None))
            return
        if have is not None and seq <= have:
            return
        if have is not None and seq > have + 1:
            for missed in await _db(entries_after)(game, have, seq - 1):
                self.body(_frame(missed, _event_id(missed, ids)))
        last[game] = seq
        self.body(frames.frame(ids))

    async def run(self, topic: str | list[str], start: Any, on_event: Any) -> None:
        topics = [topic] if isinstance(topic, str) else topic
        for name in topics:  # before the replay: nothing falls between the two
            hub.subscribe(name, self)
        disconnected = asyncio.ensure_future(self._wait_disconnect())
        loop = asyncio.get_running_loop()
        try:
            await self.send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no")]})
            self.body(b"retry: 1000\n\n")
            await start()
            await self.flush()
            while not self.ended:
                if not self.pending and not self.ping:
                    self.waiter = loop.create_future()
                    await self.waiter
                    self.waiter = None
                    continue
                events, self.pending = self.pending, []
                for frames in events:
                    await on_event(frames)
                if self.ping and not self.out:
                    self.body(b": keep-alive\n\n")
                self.ping = False
                await self.flush()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for name in topics:
                hub.unsubscribe(name, self)
            disconnected.cancel()
        with contextlib.suppress(Exception):
            await self.send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _wait_disconnect(self) -> None:
        while True:
            message = await self.receive()
            if message["type"] == "http.disconnect":
                self.ended = True
                self._wake()
                return


async def _answer(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]] = ()) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), *headers]})
    await send({"type": "http.response.body", "body": body})


def _client_address(scope: dict) -> str:
    """The client's address: the peer's, or behind the TLS proxy (``DJANGO_BEHIND_TLS_PROXY``) the last
    address of X-Forwarded-For, the one that proxy appended (as ``accounts.backends.client_ip``)."""
    if getattr(settings, "AXES_TRUST_X_FORWARDED_FOR", False):
        forwarded = b",".join(value for name, value in scope.get("headers") or [] if name == b"x-forwarded-for")
        parts = [part.strip() for part in forwarded.decode("latin-1").split(",") if part.strip()]
        if parts:
            return parts[-1]
    return (scope.get("client") or ("?", 0))[0]


async def live_app(scope: dict, receive: Any, send: Any) -> None:
    """The ASGI application of ``/live/``: a game's or a tournament's event stream.

    A process holds at most ``LIVE_MAX_CONNECTIONS`` streams, at most ``LIVE_MAX_PER_ADDRESS`` of
    them from one client address; past either the answer is 503 ``live_full`` with Retry-After
    (the pages poll meanwhile and try the stream again), so that no client exhausts the process's
    files or memory.
    """
    hub.start()
    if not hub.feed_ready.is_set():  # the process's first streams wait for the feed's starting point
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(hub.feed_ready.wait(), timeout=5)
    address = _client_address(scope)
    refused = hub.admit(address)
    if refused is not None:
        message = ("This server holds as many live streams as it can; try again later." if refused == "process"
                   else "Your address holds as many live streams as one address may; close one first.")
        status, body = _error(503, "live_full", message)
        return await _answer(send, status, body, [(b"retry-after", b"30")])
    try:
        return await _live_stream(scope, receive, send)
    finally:
        hub.release(address)


async def _live_stream(scope: dict, receive: Any, send: Any) -> None:
    parts = scope["path"].strip("/").split("/")
    if parts == ["live", "games"] and scope["method"] in ("GET", "HEAD"):
        if "all" in parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True):
            return await _all_games_stream(send, receive)
        return await _games_stream(scope, receive, send)
    if scope["method"] not in ("GET", "HEAD"):
        return await _answer(send, *_error(405, "method_not_allowed", "Only GET is allowed here."))
    if (len(parts) == 6 and parts[1] == "tournaments" and parts[3] == "rounds" and parts[5] == "pdn"
            and _ID.fullmatch(parts[2]) and _ID.fullmatch(parts[4])):
        return await _round_pdn_stream(scope, receive, send, int(parts[2]), int(parts[4]))
    if len(parts) != 3 or parts[1] not in ("games", "tournaments") or not _ID.fullmatch(parts[2]):
        return await _answer(send, *_error(404, "not_found", "There is no such event stream."))
    object_id = int(parts[2])
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    # The browser's own reconnection sends Last-Event-ID, newer than the since of the URL it keeps.
    since_text = dict(scope.get("headers") or []).get(b"last-event-id", b"").decode("latin-1")
    if not since_text:
        since_text = (query.get("since") or [""])[0]
    try:
        marks = _parse_since(since_text)
    except ValueError:
        return await _answer(send, *_error(400, "validation_error",
                                           "since (or Last-Event-ID) is a seq, or a list like t.5,12.40."))
    stream = Stream(send, receive)
    if parts[1] == "games":
        seq = await _db(_game_seq)(object_id)
        if seq is None:
            return await _answer(send, *_error(404, "not_found", f"There is no game {object_id}."))
        last: dict[int, int] = {}

        async def start_game() -> None:
            since = marks.get("-", marks.get(str(object_id)))
            if since is None:
                last[object_id] = seq
                stream.body(_frame({"type": "hello", "game": object_id, "seq": seq}, str(seq)))
                return
            last[object_id] = min(since, seq)
            for event in await _db(entries_after)(object_id, last[object_id]):
                await stream.game_entry(Frames(event), last, "game")

        return await stream.run(f"game:{object_id}", start_game,
                                lambda frames: stream.game_entry(frames, last, "game"))

    snapshot = await _db(_tournament_snapshot)(object_id)
    if snapshot is None:
        return await _answer(send, *_error(404, "not_found", f"There is no tournament {object_id}."))
    tseq, games = snapshot
    last_games: dict[int, int] = {}
    tlast = {"seq": marks.get("t", tseq)}

    async def start_tournament() -> None:
        for event in await _db(_tournament_after)(object_id, tlast["seq"]):
            tlast["seq"] = event["seq"]
            stream.body(_frame(event, f"t.{event['seq']}"))
        stream.body(_frame({"type": "hello", "tournament": object_id, "seq": tlast["seq"]}, None))
        for game in games:
            since = marks.get(str(game["game"]))
            if since is None:
                last_games[game["game"]] = game["seq"]
                stream.body(_frame(game, None))
            else:
                last_games[game["game"]] = min(since, game["seq"])
                for event in await _db(entries_after)(game["game"], last_games[game["game"]]):
                    await stream.game_entry(Frames(event), last_games, "games")

    async def on_tournament_event(frames: Frames) -> None:
        event = frames.event
        if event.get("type") == "tournament":
            if event["seq"] > tlast["seq"]:
                for missed in await _db(_tournament_after)(object_id, tlast["seq"], event["seq"] - 1):
                    stream.body(_frame(missed, f"t.{missed['seq']}"))
                tlast["seq"] = event["seq"]
                stream.body(frames.frame("t"))
            return
        if event["game"] not in last_games and event.get("type") == "entry":
            last_games[event["game"]] = event["seq"] - 1  # a game of a round published since the start
        await stream.game_entry(frames, last_games, "games")

    return await stream.run(f"tournament:{object_id}", start_tournament, on_tournament_event)


MAX_GAMES_PER_STREAM = 100


def _games_snapshot(game_ids: list[int]) -> list[dict]:
    """Returns a ``game`` event per existing game of ``game_ids`` (its seq and state)."""
    return [{"type": "game", "game": game.pk, "round": game.round_id, "seq": game.log_seq,
             "black": game.black.name, "white": game.white.name, "status": game.status, "result": game.result,
             "termination": game.termination, "ply": game.ply, "fen": game.fen}
            for game in Game.objects.filter(pk__in=game_ids).select_related("black", "white").order_by("id")]


async def _games_stream(scope: dict, receive: Any, send: Any) -> None:
    """``/live/games?ids=1,2,3``: the entries of several games on one stream (a referee's boards).

    Ids and resume as a tournament stream's games: ``id: <game>.<seq>``; ``?since=1.12,2.40`` or
    Last-Event-ID; a game not named gets a ``game`` snapshot and then its entries.
    """
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    try:
        game_ids = sorted({_parse_id(part.strip()) for part in (query.get("ids") or [""])[0].split(",")
                           if part.strip()})
        if not game_ids or len(game_ids) > MAX_GAMES_PER_STREAM or min(game_ids) < 1:
            raise ValueError
    except ValueError:
        return await _answer(send, *_error(400, "validation_error",
                                           f"ids is a list of 1 to {MAX_GAMES_PER_STREAM} game ids, like 12,13."))
    since_text = dict(scope.get("headers") or []).get(b"last-event-id", b"").decode("latin-1")
    since_text = since_text or (query.get("since") or [""])[0]
    try:
        marks = _parse_since(since_text)
    except ValueError:
        return await _answer(send, *_error(400, "validation_error",
                                           "since (or Last-Event-ID) is a list like 12.40,13.7."))
    stream = Stream(send, receive)
    snapshot = await _db(_games_snapshot)(game_ids)
    if not snapshot:
        return await _answer(send, *_error(404, "not_found", "There is none of these games."))
    last: dict[int, int] = {}

    async def start_games() -> None:
        for game in snapshot:
            since = marks.get(str(game["game"]))
            if since is None:
                last[game["game"]] = game["seq"]
                stream.body(_frame(game, None))
            else:
                last[game["game"]] = min(since, game["seq"])
                for event in await _db(entries_after)(game["game"], last[game["game"]]):
                    await stream.game_entry(Frames(event), last, "games")
        stream.body(_frame({"type": "hello", "games": [game["game"] for game in snapshot]}, None))

    return await stream.run([f"game:{game['game']}" for game in snapshot], start_games,
                            lambda frames: stream.game_entry(frames, last, "games"))


async def _all_games_stream(send: Any, receive: Any) -> None:
    """``/live/games?all=1``: every game's entries as they are committed (the "Live games" page).

    Live only: no snapshot, no replay and no event ids (so no resume point); each game's entries
    still come in seq order, once. A client that loses the stream reads the games again itself.
    """
    stream = Stream(send, receive)

    async def start() -> None:
        stream.body(_frame({"type": "hello", "games": "all"}, None))

    async def on_event(frames: Frames) -> None:
        stream.body(frames.frame(None))

    return await stream.run(ALL_GAMES, start, on_event)


# --- the round's live PDN, pushed -----------------------------------------------------------------

def _round_pdn_read(tournament_id: int, number: int) -> tuple[str, str] | None:
    """Returns a published round's broadcast tag and PDN (``tournaments.selectors``), or None: no such round."""
    from tournaments.selectors import round_broadcast_tag, round_pdn

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or not Round.objects.filter(tournament=tournament, number=number).exclude(
            status=Round.Status.PREVIEW).exists():
        return None
    return round_broadcast_tag(tournament, number), round_pdn(tournament, number)


def _round_pdn_tag(tournament_id: int, number: int) -> str | None:
    from tournaments.selectors import round_broadcast_tag

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return None if tournament is None else round_broadcast_tag(tournament, number)


def _round_id(tournament_id: int, number: int) -> int | None:
    return Round.objects.filter(tournament_id=tournament_id, number=number).values_list("id", flat=True).first()


class RoundPDN:
    """A round's live PDN as this process last read it: shared by every connection that follows the round.

    On a tournament event or an entry of one of the round's games, the first connection to hear it
    reads the broadcast tag (one query) and, if it changed, the PDN; the others wait for that read
    (the same ``Frames`` of the hub is the same event), so that a process reads once per event, not
    once per viewer. The frame (``data`` the JSON ``{type: "pdn", ..., pdn}``, ``id`` the tag) is
    encoded once per tag.
    """

    def __init__(self, tournament_id: int, number: int) -> None:
        self.tournament_id, self.number = tournament_id, number
        self.tag: str | None = None
        self.frame = b""
        self.seen: Any = None
        self.reading: asyncio.Future | None = None
        self.lock = asyncio.Lock()  # one read at a time: a late read never puts an older round back

    async def refresh(self, cause: Any) -> None:
        """Reads the round again for the event ``cause`` (once per event for all the connections)."""
        if cause is not None and cause is self.seen and self.reading is not None:
            await asyncio.shield(self.reading)
            return
        self.seen = cause
        self.reading = asyncio.ensure_future(self._read())
        await asyncio.shield(self.reading)

    async def _read(self) -> None:
        async with self.lock:
            await self._read_locked()

    async def _read_locked(self) -> None:
        tag = await _db(_round_pdn_tag)(self.tournament_id, self.number)
        if tag is None or tag == self.tag:
            return
        read = await _db(_round_pdn_read)(self.tournament_id, self.number)
        if read is None:
            return
        self.tag, pdn = read
        self.frame = _frame({"type": "pdn", "tournament": self.tournament_id, "round": self.number,
                             "etag": self.tag, "pdn": pdn}, self.tag)


_round_pdns: dict[tuple[int, int], RoundPDN] = {}


async def _round_pdn_stream(scope: dict, receive: Any, send: Any, tournament_id: int, number: int) -> None:
    """``/live/tournaments/{id}/rounds/{n}/pdn``: a published round's games as PDN, pushed whole again after
    each change (docs/integrations.md, "The live PDN broadcast").

    Each event is ``{type: "pdn", tournament, round, etag, pdn}`` with the ``ETag`` of
    ``/api/v1/tournaments/<slug>/rounds/<n>/pdn`` as its id: a client that reconnects with that
    Last-Event-ID (or ``?since=<etag>``) is sent nothing until the round changes.
    """
    round_id = await _db(_round_id)(tournament_id, number)
    broadcast = _round_pdns.get((tournament_id, number))
    if broadcast is None:
        broadcast = _round_pdns.setdefault((tournament_id, number), RoundPDN(tournament_id, number))
    await broadcast.refresh(None)
    if round_id is None or broadcast.tag is None:
        return await _answer(send, *_error(404, "not_found", f"Round {number} of tournament {tournament_id} "
                                                              "does not exist or is not published yet."))
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    have = (dict(scope.get("headers") or []).get(b"last-event-id", b"").decode("latin-1")
            or (query.get("since") or [""])[0])[:80]
    stream = Stream(send, receive)
    sent = {"tag": have}

    def offer() -> None:
        if broadcast.tag is not None and broadcast.tag != sent["tag"]:
            sent["tag"] = broadcast.tag
            stream.body(broadcast.frame)

    async def start() -> None:
        offer()

    async def on_event(frames: Frames) -> None:
        event = frames.event
        if event.get("type") == "entry" and event.get("round") != round_id:
            return
        await broadcast.refresh(frames)
        offer()

    return await stream.run(f"tournament:{tournament_id}", start, on_event)

"""The live events of a game: what a committed log entry tells the pages that follow the game.

An event names the game and the entry's seq (the game's log sequence number: a client that
saw seq n and is given n + 1 next has missed nothing), says what the entry is (its kind, side,
law, the move in PDN for a move) and the position after it. Events published after the commit
(``core.live``) also carry ``state``: the game's status, result, termination, position and
clocks as the transaction left them, so that a page needs no request to show a move. Events
replayed from the log table carry no ``state`` (a page reads the game's state once after a
replay). Public: no usernames, no notes.
"""

from __future__ import annotations

from typing import Any

from arbitration.models import LogEntry
from core.live import publish_on_commit

__all__ = ["entry_event", "game_live_state", "publish_entry_on_commit", "entries_after"]


def entry_event(*, game_id: int, round_id: int | None, seq: int, kind: str, side: str, law: str, ply: int, fen: str,
                data: dict[str, Any] | None, created_at: Any, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Returns the event of one log entry (``state`` when the caller has it)."""
    event: dict[str, Any] = {
        "type": "entry", "game": game_id, "round": round_id, "seq": seq, "kind": kind, "side": side, "law": law,
        "ply": ply, "fen": fen, "move": (data or {}).get("move") if kind == LogEntry.Kind.MOVE else None,
        "at": created_at.isoformat() if hasattr(created_at, "isoformat") else created_at,
    }
    if state is not None:
        event["state"] = state
    return event


def game_live_state(game: Any, now: Any) -> dict[str, Any]:
    """Returns the part of the game's state a following page needs after a change (no query but the clock's once)."""
    from arbitration.clocks import clock_of, clock_view  # clocks -> persistence -> log -> here

    return {
        "status": game.status, "result": game.result, "termination": game.termination, "ply": game.ply,
        "fen": game.fen, "log_length": game.log_seq,
        "clocks": clock_view(game, now) if game.has_clock and clock_of(game) is not None else None,
    }


def publish_entry_on_commit(game: Any, entry: LogEntry) -> None:
    """Publishes the entry's event, with the game's state as the transaction leaves it, once it commits."""
    seq, kind, side, law, ply, fen, data, at = (entry.seq, entry.kind, entry.side, entry.law, entry.ply, entry.fen,
                                                entry.data, entry.created_at)
    publish_on_commit(lambda: entry_event(
        game_id=game.pk, round_id=game.round_id, seq=seq, kind=kind, side=side, law=law, ply=ply, fen=fen, data=data,
        created_at=at, state=game_live_state(game, at),
    ))


ENTRY_FIELDS = ("id", "game_id", "game__round_id", "seq", "kind", "side", "law", "ply", "fen", "data", "created_at")


def event_of_row(row: tuple) -> dict[str, Any]:
    """Returns the event of a log row read with ``ENTRY_FIELDS``."""
    _id, game_id, round_id, seq, kind, side, law, ply, fen, data, created_at = row
    return entry_event(game_id=game_id, round_id=round_id, seq=seq, kind=kind, side=side, law=law, ply=ply, fen=fen,
                       data=data, created_at=created_at)


def entries_after(game_id: int, seq: int, up_to: int | None = None) -> list[dict[str, Any]]:
    """Returns the events of the game's entries after ``seq`` (up to ``up_to``), in order: the replay. One query."""
    rows = LogEntry.objects.filter(game_id=game_id, seq__gt=seq)
    if up_to is not None:
        rows = rows.filter(seq__lte=up_to)
    return [event_of_row(row) for row in rows.order_by("seq").values_list(*ENTRY_FIELDS)]

"""Rulings: ``ruling_issue`` checks who may rule and dispatches to the handler of the kind.

One module per family (``penalties``, ``choices``, ``draws``, ``corrections``, ``appeals``,
``clocks``); ``RULINGS`` maps each kind to its handler. Each ruling runs in one transaction with
the game row locked, writes its log entry (and a ``game_end`` entry when it ends the game) and
saves the game's cached state. The laws cited are the Standard Laws of Draughts (RULES.md,
"Arbitration").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from rest_framework.serializers import Serializer

from arbitration.access import administrator_note, authorise_ruling, result_changed
from arbitration.clocks import clock_of, db_now
from arbitration.delay import clock_enforce
from arbitration.errors import InvalidRuling
from arbitration.lifecycle import (
    ensure_in_progress,
    game_over,
    save_game,
    start_if_scheduled,
)
from arbitration.models import LogEntry
from arbitration.persistence import game_lock
from arbitration.rulings import appeals, choices, clocks, corrections, draws, penalties
from arbitration.rulings.base import Ruling
from arbitration.rulings.requests import REQUESTS, RULING_REQUEST_SCHEMA, ruling_request_read
from arbitration.state import PendingState
from games.models import Game

Kind = LogEntry.Kind


#: Kinds that may be recorded on a finished game.
AFTER_THE_GAME = {Kind.APPEAL, Kind.APPEAL_DECISION, Kind.CORRECTION, Kind.SPECTATOR}


#: Kinds that name the side they concern.
NEEDS_SIDE = {
    Kind.FALSE_MOVE, Kind.TOUCH_OFFENCE, Kind.TOUCHED_PIECE_NOT_PLAYED, Kind.OVER_THE_ANGLE,
    Kind.OWN_PIECE_REMOVED, Kind.HUFF, Kind.COMPEL, Kind.LET_STAND, Kind.CONDUCT, Kind.LEFT_ROOM,
    Kind.FORTY_MOVE_NOTICE, Kind.REPETITION_CLAIM, Kind.RESIGN,
}


RULING_KINDS = [
    Kind.FALSE_MOVE, Kind.TOUCH_OFFENCE, Kind.TOUCHED_PIECE_NOT_PLAYED, Kind.OVER_THE_ANGLE,
    Kind.OWN_PIECE_REMOVED, Kind.NOT_CROWNED, Kind.HUFF, Kind.COMPEL, Kind.LET_STAND, Kind.CONDUCT,
    Kind.LEFT_ROOM, Kind.SPECTATOR, Kind.FORTY_MOVE_NOTICE, Kind.FORTY_MOVE_RULING, Kind.REPETITION_CLAIM,
    Kind.DRAW_AGREED, Kind.RESIGN, Kind.ADJUDICATE, Kind.APPEAL, Kind.APPEAL_DECISION, Kind.CORRECTION,
    Kind.CLOCK_START, Kind.CLOCK_PAUSE, Kind.CLOCK_RESUME, Kind.CLOCK_ADJUST,
]


@dataclass(frozen=True)
class RulingSpec:
    """A kind of ruling: the serializer of its request and the handler that applies it."""

    request: type[Serializer]
    handler: Callable[[Ruling], None]


_HANDLERS: dict[str, Callable[[Ruling], None]] = {
    Kind.FALSE_MOVE: penalties.false_move,
    Kind.TOUCH_OFFENCE: lambda r: penalties.offence(r, Kind.TOUCH_OFFENCE),
    Kind.TOUCHED_PIECE_NOT_PLAYED: penalties.touched_piece_not_played,
    Kind.OVER_THE_ANGLE: penalties.over_the_angle,
    Kind.OWN_PIECE_REMOVED: choices.own_piece_removed,
    Kind.NOT_CROWNED: corrections.not_crowned,
    Kind.HUFF: choices.huff,
    Kind.COMPEL: choices.compel,
    Kind.LET_STAND: choices.let_stand,
    Kind.CONDUCT: lambda r: penalties.offence(r, Kind.CONDUCT),
    Kind.LEFT_ROOM: lambda r: penalties.offence(r, Kind.LEFT_ROOM),
    Kind.SPECTATOR: penalties.spectator,
    Kind.FORTY_MOVE_NOTICE: draws.forty_move_notice,
    Kind.FORTY_MOVE_RULING: draws.forty_move_ruling,
    Kind.REPETITION_CLAIM: draws.repetition_claim,
    Kind.DRAW_AGREED: draws.draw_agreed,
    Kind.RESIGN: draws.resign,
    Kind.ADJUDICATE: draws.adjudicate,
    Kind.APPEAL: appeals.appeal_file,
    Kind.APPEAL_DECISION: appeals.appeal_decide,
    Kind.CORRECTION: corrections.correction,
    Kind.CLOCK_START: clocks.clock_start,
    Kind.CLOCK_PAUSE: clocks.clock_pause,
    Kind.CLOCK_RESUME: clocks.clock_resume,
    Kind.CLOCK_ADJUST: clocks.clock_adjust,
}

#: Every kind of ruling: what its request holds (``requests.FIELDS``) and what applies it.
RULINGS: dict[str, RulingSpec] = {kind: RulingSpec(REQUESTS[kind], handler) for kind, handler in _HANDLERS.items()}


def ruling_issue(*, acting_user: Any, game_id: int, kind: str, side: str | None = None, note: str = "",
                 payload: dict[str, Any] | None = None, termination: str | None = None) -> Game:
    """Records a ruling on a game and applies what the laws say it does; returns the game.

    Locks the game row, authorises (assigned referee or director; a player for an appeal on
    his own game; the named arbiter for a decision; a director to adjudicate), checks that the
    ruling applies now (422 ``invalid_ruling`` with the reason otherwise), writes the entry
    and saves the game's state. A ruling on a game whose loss by delay fell due first is
    refused with ``game_over``; the loss stays on the record. ``termination``: how an adjudicated
    game is said to have ended when it is not an adjudication (a result from the scoresheet);
    the code's own, never a request's.
    """
    if not kind:
        raise InvalidRuling("A ruling needs its kind.", code="validation_error", status_code=400,
                            details={"fields": {"kind": ["This field is required."]}})
    if not isinstance(kind, str) or kind not in RULINGS:
        raise InvalidRuling(f"Unknown ruling {kind!r}; one of {', '.join(RULINGS)}.", code="validation_error",
                            status_code=400, details={"fields": {"kind": [f"Unknown ruling {kind!r}."]}})
    fields = {**(payload or {}), "side": side or ""}
    if note or "note" not in fields:
        fields["note"] = note or ""
    request = ruling_request_read(kind, fields)
    side, note = request.pop("side", "") or "", request.pop("note", "") or ""
    if termination is not None and kind == LogEntry.Kind.ADJUDICATE:
        request["termination"] = termination
    game, refused = _ruling_issue(acting_user=acting_user, game_id=game_id, kind=kind, side=side, note=note,
                                  payload=request)
    if refused is not None:
        raise refused
    return game


@transaction.atomic
def _ruling_issue(*, acting_user: Any, game_id: int, kind: str, side: str | None, note: str,
                  payload: dict[str, Any]) -> tuple[Game, Exception | None]:
    game = game_lock(game_id)
    side = authorise_ruling(game, acting_user, kind, side)
    note, result_before = administrator_note(game, acting_user, note), game.result
    if kind in NEEDS_SIDE and not side:
        raise InvalidRuling(f"A {kind} ruling needs the side it concerns.", code="validation_error", status_code=400,
                            details={"fields": {"side": ["This field is required."]}})
    if kind not in AFTER_THE_GAME:
        start_if_scheduled(game, acting_user)
        ensure_in_progress(game)
        if clock_of(game) is not None and clock_enforce(game, db_now()) and game.is_finished:
            return game, game_over(game)  # the loss by delay fell due first: it is written, the ruling refused
    state = PendingState.from_json(game.arbitration, game.initial_fen)
    ruling = Ruling(game, state, acting_user, side, note, payload)
    RULINGS[kind].handler(ruling)
    if game.status == Game.Status.FINISHED:
        ruling.state = ruling.state.cleared()
    save_game(game, ruling.state)
    result_changed(game, actor=acting_user, kind=kind, entry_seq=game.log_seq, before=result_before,
                   after=game.result, note=note)
    return game, None


__all__ = ["RULINGS", "RULING_KINDS", "RULING_REQUEST_SCHEMA", "Ruling", "RulingSpec", "ruling_issue"]

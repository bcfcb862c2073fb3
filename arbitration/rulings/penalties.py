"""Penalties: false moves (Law 21), touch offences (18), touched piece not played (19), over the
angle (20), conduct (29), leaving the room (30), spectators (31)."""

from __future__ import annotations

from typing import Any

from arbitration.errors import (
    InvalidRuling,
)
from arbitration.lifecycle import (
    finish,
    opponent,
    win_for,
)
from arbitration.models import LogEntry
from arbitration.rulings.base import Ruling
from arbitration.state import OverTheAngle, over_the_angle_moves
from games.models import Termination

Kind = LogEntry.Kind

OFFENCES = {
    # kind: (law, first penalty, termination of the forfeit)
    Kind.TOUCH_OFFENCE: ("18", "caution", Termination.FORFEIT_TOUCH_OFFENCE),
    Kind.CONDUCT: ("29", "warning", Termination.FORFEIT_CONDUCT),
    Kind.LEFT_ROOM: ("30", "warning", Termination.FORFEIT_ABSENCE),
}


def false_move(r: Ruling) -> None:
    """Law 21: a false or improper move forfeits the game at once; the attempt is on record."""
    attempted = r.payload["move"]
    position = r.position()
    verdict = "not checked: not the side to move"
    if position.side_to_move.value == r.side:
        try:
            position.parse_move(attempted, r.game.engine_rules())
            verdict = "legal in the position"
        except ValueError as error:
            verdict = f"refused by the rules engine: {error}"
    r.log(Kind.FALSE_MOVE, law="21", data={"move": attempted, "engine": verdict})
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.FORFEIT_FALSE_MOVE, actor=r.actor,
           side=r.side, law="21", note=f"{r.side.capitalize()} forfeits: false or improper move {attempted} (Law 21).")


def offence(r: Ruling, kind: str) -> None:
    """Laws 18, 29, 30: the first offence is a caution or warning, the second a forfeit."""
    law, first, termination = OFFENCES[kind]
    r.state = r.state.with_offence(kind, r.side)
    count = r.state.offences.count(kind, r.side)
    penalty = first if count < 2 else "forfeit"
    r.log(kind, law=law, data={"count": count, "penalty": penalty})
    if penalty == "forfeit":
        finish(r.game, result=win_for(opponent(r.side)), termination=termination, actor=r.actor, side=r.side, law=law,
               note=f"{r.side.capitalize()} forfeits: second {kind.replace('_', ' ')} offence (Law {law}).")


def touched_piece_not_played(r: Ruling) -> None:
    """Law 19: a player who touched a playable piece and did not play it forfeits."""
    square = r.payload.get("square")
    data: dict[str, Any] = {}
    if square is not None:
        position = r.position()
        piece = position.piece_at(square) if 1 <= square <= 32 else None
        if piece is None or piece.lower() != r.side[0]:
            raise InvalidRuling(f"There is no {r.side} piece on {square}.")
        if position.side_to_move.value == r.side and not any(
            m.start == square for m in position.legal_moves(r.game.engine_rules())
        ):
            raise InvalidRuling(f"The piece on {square} is not playable: Law 19 does not apply.")
        data["square"] = square
    r.log(Kind.TOUCHED_PIECE_NOT_PLAYED, law="19", data=data)
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.FORFEIT_TOUCHED_PIECE_NOT_PLAYED,
           actor=r.actor, side=r.side, law="19", note=f"{r.side.capitalize()} forfeits: touched piece not played (Law 19).")


def over_the_angle(r: Ruling) -> None:
    """Law 20: the piece moved over the angle must complete its move that way."""
    square, toward = r.payload["square"], r.payload["toward"]
    position = r.position()
    if position.side_to_move.value != r.side:
        raise InvalidRuling(f"It is not {r.side}'s turn: Law 20 concerns the move being made.")
    piece = position.piece_at(square) if 1 <= square <= 32 else None
    if piece is None or piece.lower() != r.side[0]:
        raise InvalidRuling(f"There is no {r.side} piece on {square}.")
    moves = [m.pdn() for m in over_the_angle_moves(position, r.game.engine_rules(), square, toward)]
    if not moves:
        raise InvalidRuling(f"The piece on {square} has no legal move toward {toward}.",
                            details={"square": square, "toward": toward})
    r.state = r.state.with_constraint(OverTheAngle(side=r.side, square=square, toward=toward))
    r.log(Kind.OVER_THE_ANGLE, law="20", data={"square": square, "toward": toward, "moves": moves})


def spectator(r: Ruling) -> None:
    """Law 31: a spectator interfered; logged against the event, no effect on the game."""
    note = r.note
    r.log(Kind.SPECTATOR, law="31", side=r.side or "", note=note)

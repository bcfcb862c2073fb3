"""The huff and the other players' choices: Law 12 (own piece removed), Laws 16-17 (huff, compel,
let stand), and Law 23 after a piece comes off by a ruling."""

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
from arbitration.moves import (
    apply_put_back,
)
from arbitration.rulings.base import Ruling, remove_piece
from arbitration.state import CompelledCapture, HuffChoice, OwnPieceChoice
from games.models import Move, Termination

Kind = LogEntry.Kind


def law_23_after_removal(r: Ruling, offender: str) -> None:
    """Law 23 after a ruling took one of the offender's pieces off (huff, Law 12 play on).

    The offender loses if it was his last piece; otherwise the side to move loses if he has no
    legal move. A ruling is not a move, so the side to move is the one whose turn it was.
    """
    position = r.position()
    if not position.squares(offender):
        loser, note = offender, f"{offender.capitalize()} has no piece left and loses (Law 23)."
    elif position.is_game_over(r.game.engine_rules()):
        loser = position.side_to_move.value
        note = f"{loser.capitalize()} has no legal move and loses (Law 23)."
    else:
        return
    finish(r.game, result=win_for(opponent(loser)), termination=Termination.NO_LEGAL_MOVE, actor=None,
           side=loser, law="23", note=note)


def own_piece_removed(r: Ruling) -> None:
    """Law 12: the capturer removed his own piece; his opponent chooses play on or put back."""
    choice = r.payload.get("choice")
    open_choice = r.state.own_piece_choice_of(r.side)
    if open_choice is not None:
        square = open_choice.square
        if r.payload.get("square") not in (None, square):
            raise InvalidRuling(f"The open choice concerns the piece on {square}.")
        if not choice:
            raise InvalidRuling("The choice is already open: give choice play_on or put_back.")
        r.state = r.state.without_choice(open_choice)
    else:
        square = r.payload.get("square")
        if square is None:
            raise InvalidRuling("An own_piece_removed ruling needs 'square' (no choice is open).",
                                code="validation_error", status_code=400,
                                details={"fields": {"square": ["This field is required."]}})
        last = Move.objects.filter(game=r.game, superseded_by__isnull=True).order_by("-ply").first()
        if last is None or last.side != r.side or not last.captures:
            raise InvalidRuling(f"Law 12 applies to the capture just made: {r.side}'s last move must be the capture.")
        piece = r.position().piece_at(square) if 1 <= square <= 32 else None
        if piece is None or piece.lower() != r.side[0]:
            raise InvalidRuling(f"There is no {r.side} piece on {square}.")
        if not choice:
            r.state = r.state.with_choice(OwnPieceChoice.opened(offender=r.side, square=square))
            r.log(Kind.OWN_PIECE_REMOVED, law="12", data={"square": square, "choice": None})
            return
    data: dict[str, Any] = {"square": square, "choice": choice}
    if choice == "play_on":
        r.game.fen = remove_piece(r.game.fen, square)
        r.state = r.state.with_progress(r.game.ply, r.game.fen)
        data.update(removed=square, progress=r.state.progress.to_json())
    r.log(Kind.OWN_PIECE_REMOVED, law="12", data=data)
    if choice == "play_on":
        law_23_after_removal(r, r.side)


def _huff_choice(r: Ruling) -> HuffChoice:
    choice = r.state.huff_choice_of(r.side)
    if choice is None:
        raise InvalidRuling(f"{r.side.capitalize()} has no open huff choice: no failure to capture is pending.")
    return choice


def huff(r: Ruling) -> None:
    """Law 16: the chooser removes one of the pieces that should have captured; not a move."""
    choice = _huff_choice(r)
    square = r.payload["square"]
    if square not in choice.pieces:
        raise InvalidRuling(
            f"The piece on {square} is not one that could have captured: {', '.join(map(str, choice.pieces))}.",
            details={"pieces": list(choice.pieces)},
        )
    r.state = r.state.without_choice(choice)
    r.game.fen = remove_piece(r.game.fen, square)
    r.state = r.state.with_progress(r.game.ply, r.game.fen)
    r.log(Kind.HUFF, law="16", data={"square": square, "removed": square, "choice": choice.to_json(),
                                     "progress": r.state.progress.to_json()})
    law_23_after_removal(r, choice.offender)


def compel(r: Ruling) -> None:
    """Law 17: the failure to capture is taken back and the offender must capture."""
    choice = _huff_choice(r)
    _entry, r.state = apply_put_back(
        r.game, r.state, to_ply=choice.ply - 1, kind=Kind.COMPEL, side=r.side, law="17", note=r.note,
        data={"choice": choice.to_json()}, actor=r.actor,
        constraints=(CompelledCapture(side=choice.offender),),
    )


def let_stand(r: Ruling) -> None:
    """Law 17: the chooser lets the failure to capture stand."""
    choice = _huff_choice(r)
    r.state = r.state.without_choice(choice)
    r.log(Kind.LET_STAND, law="17", data={"choice": choice.to_json()})


def settle_huff_by_moving(r: Ruling) -> None:
    for choice in r.state.huff_choices_of(r.side):
        r.log(Kind.SYSTEM, law="17", data={"choice": "let_stand", "by_default": True, "move": choice.move},
              note=f"{r.side.capitalize()} moved without choosing: the failure to capture stands (Law 17).")
    r.state = r.state.without_huff_choices_of(r.side)

"""Draws, results and the progress rules: the 40-move notice and ruling (Law 22), repetition, agreement,
resignation, adjudication."""

from __future__ import annotations

from dataclasses import replace

from arbitration.errors import (
    InvalidRuling,
    RepetitionNotEstablished,
)
from arbitration.lifecycle import (
    finish,
    opponent,
    win_for,
)
from arbitration.models import LogEntry
from arbitration.moves import (
    check_constraints,
    ensure_play_may_go_on,
    parse_move_or_refuse,
    record_move,
)
from arbitration.rulings.base import Ruling, ordinal
from arbitration.rulings.choices import settle_huff_by_moving
from arbitration.state import FORTY_MOVE_LIMIT, FortyCount
from games.models import Game, Move, ProgressRule, Termination

Kind = LogEntry.Kind


def forty_move_notice(r: Ruling) -> None:
    """Law 22: the weaker side gives notice; the stronger side's own moves are counted from here."""
    if r.game.progress_rule != ProgressRule.FORTY_MOVE_NOTICE:
        raise InvalidRuling(f"This game's progress rule is {r.game.progress_rule}: there is no 40-move notice.")
    forty = r.state.forty
    if forty.active:
        raise InvalidRuling(f"A 40-move count is already running ({forty.count} of {FORTY_MOVE_LIMIT}).")
    entry = r.log(Kind.FORTY_MOVE_NOTICE, law="22", data={"stronger_side": opponent(r.side), "start_ply": r.game.ply})
    forty = FortyCount.on_notice(start_ply=r.game.ply, stronger_side=opponent(r.side), notice_seq=entry.seq)
    r.state = replace(r.state, forty=forty)


def forty_move_ruling(r: Ruling) -> None:
    """Law 22: at 40 moves the referee rules advantage shown (play on) or draw."""
    outcome = r.payload["outcome"]
    forty = r.state.forty
    if not forty.active:
        raise InvalidRuling("No 40-move count is running.")
    if outcome == "draw" and not forty.awaiting_ruling:
        raise InvalidRuling(f"The count is at {forty.count} of {FORTY_MOVE_LIMIT}: a draw cannot be ruled yet.")
    r.log(Kind.FORTY_MOVE_RULING, law="22", data={"outcome": outcome, "forty_before": forty.to_json()},
          side=r.side or "")
    r.state = replace(r.state, forty=FortyCount.inactive())
    if outcome == "draw":
        finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_FORTY_MOVE, actor=r.actor, law="22",
               note="No decided advantage shown within 40 moves: drawn (Law 22).")


def repetition_claim(r: Ruling) -> None:
    """Verifies a claim that the claimant's move repeats the position for the Nth time."""
    threshold = r.game.repetition_threshold
    if not threshold:
        raise InvalidRuling("Repetition is not a rule of this game (no threshold).")
    text = r.payload["move"]
    ensure_play_may_go_on(r.state)
    position = r.position()
    if position.side_to_move.value != r.side:
        raise InvalidRuling(f"The claim goes with the claimant's move: it is not {r.side}'s turn.")
    rules = r.game.engine_rules()
    move = parse_move_or_refuse(position, text, rules)
    check_constraints(r.state, r.side, move, position, rules)
    after = position.play(move)
    fen_after = after.fen()
    man_moved = position.piece_at(move.start) in ("b", "w")
    if move.captures or man_moved:
        seen = 0
    else:
        progress = r.state.progress
        history = [progress.fen, *Move.objects.filter(
            game=r.game, superseded_by__isnull=True, ply__gt=progress.ply).values_list("fen_after", flat=True)]
        seen = history.count(fen_after)
    occurrence = seen + 1
    if occurrence < threshold:
        raise RepetitionNotEstablished(
            f"the position would occur for the {ordinal(occurrence)} time; {threshold} are needed",
            details={"move": move.pdn(), "occurrence": occurrence, "threshold": threshold},
        )
    settle_huff_by_moving(r)
    *_, r.state = record_move(r.game, r.state, position, move, entered=text, actor=r.actor)
    r.log(Kind.REPETITION_CLAIM, data={"move": move.pdn(), "occurrence": occurrence, "threshold": threshold})
    finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_REPETITION, actor=r.actor, side=r.side,
           note=f"The position occurred for the {ordinal(occurrence)} time: drawn by repetition.")


def draw_agreed(r: Ruling) -> None:
    r.log(Kind.DRAW_AGREED, side=r.side or "")
    finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_AGREEMENT, actor=r.actor,
           note="Drawn by agreement.")


def resign(r: Ruling) -> None:
    r.log(Kind.RESIGN)
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.RESIGNATION, actor=r.actor, side=r.side,
           note=f"{r.side.capitalize()} resigns.")


def adjudicate(r: Ruling) -> None:
    """The director decides the result, with a reason."""
    result, reason = r.payload["result"], r.payload["reason"]
    r.log(Kind.ADJUDICATE, side=r.side or "", data={"result": result, "reason": reason})
    finish(r.game, result=result, termination=r.payload.get("termination") or Termination.ADJUDICATION,
           actor=r.actor, note=reason)

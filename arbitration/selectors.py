"""Reads of a game for the API and the pages: the state JSON of the contract, the log.

``game_state`` makes two queries whatever the length of the game (the game's referees, the
moves on the current line), plus one for the user's roles when the user object has not been
asked before and one for a clocked game's clock; as the answer to a move it reads no moves
(but the positions since the last capture or man move, when the move was neither).
"""

from __future__ import annotations

from typing import Any

from arbitration.access import can_write
from arbitration.clocks import clock_of, clock_view, db_now
from arbitration.lifecycle import AUTOMATIC_FORTY_PLIES, FIFTY_MOVE_PLIES, FORTY_MOVE_LIMIT, arbitration_state
from arbitration.models import LogEntry
from arbitration.moves import legal_pdn
from arbitration.persistence import game_referees, moves_fens_since
from games.models import Game, Move, ProgressRule
from games.rules import Position


def _progress_block(game: Game, state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    since = game.ply - state["progress"]["ply"]
    forty = state["forty"]
    if game.progress_rule == ProgressRule.FORTY_MOVE_NOTICE:
        forty_block = {
            "mode": "notice", "active": forty["active"], "count": forty["count"], "limit": FORTY_MOVE_LIMIT,
            "stronger_side": forty["stronger_side"], "awaiting_ruling": forty["awaiting_ruling"],
            "start_ply": forty["start_ply"],
        }
    elif game.progress_rule == ProgressRule.FORTY_MOVE_AUTOMATIC:
        forty_block = {
            "mode": "automatic", "active": True, "count": since // 2, "limit": FORTY_MOVE_LIMIT,
            "stronger_side": None, "awaiting_ruling": False, "plies": since, "plies_limit": AUTOMATIC_FORTY_PLIES,
        }
    else:
        forty_block = {"mode": None, "active": False, "count": 0, "limit": FORTY_MOVE_LIMIT, "stronger_side": None,
                       "awaiting_ruling": False}
    progress = {
        "rule": game.progress_rule, "plies_since_progress": since, "since_ply": state["progress"]["ply"],
    }
    if game.progress_rule == ProgressRule.FIFTY_MOVE:
        progress.update(count=since // 2, limit=FIFTY_MOVE_PLIES // 2)
    return forty_block, progress


def _legal_moves(position: Position, rules: Any, constraints: list[dict[str, Any]]) -> list[str]:
    """Returns the legal moves in PDN, narrowed by the constraints on the side to move (Laws 17, 20)."""
    side = position.side_to_move.value
    mine = [c for c in constraints if c["side"] == side]
    if not mine:
        return legal_pdn(position, rules)
    moves = position.legal_moves(rules)
    for constraint in mine:
        if constraint["kind"] == "over_the_angle":
            square, toward = constraint["square"], constraint["toward"]
            moves = [m for m in moves if m.start == square and (
                m.path[1] == toward or (m.captures and m.captures[0] == toward))]
        elif constraint["kind"] == "compelled_capture":
            moves = [m for m in moves if m.captures]
    return sorted(m.pdn() for m in moves)


def _move_dict(ply: int, side: str, pdn: str, fen: str, recorded_at: Any, by: str | None) -> dict[str, Any]:
    return {"ply": ply, "side": side, "move": pdn, "fen_after": fen,
            "recorded_at": recorded_at.isoformat() if recorded_at else None, "recorded_by": by}


def _repetitions(game: Game, progress: dict[str, Any], fens_since_progress: list[str] | None) -> int:
    """Returns how many times the current position has stood since the last point of no return.

    Positions before the last capture, man move or piece removed cannot recur. Right after one
    the count is 1 with no query; otherwise the positions since it are read (or taken from the
    moves the caller has already read).
    """
    if progress["ply"] == game.ply and progress["fen"] == game.fen:
        return 1
    if fens_since_progress is None:
        fens_since_progress = moves_fens_since(game.pk, progress["ply"])
    history = [progress["fen"], *fens_since_progress]
    if history[-1] != game.fen:
        history.append(game.fen)
    return history.count(game.fen)


def game_state(game: Game, user: Any = None, *, last_move: Move | None = None) -> dict[str, Any]:
    """Returns the game-state dict of the API contract for ``user`` (``can_write`` depends on him).

    With ``last_move`` (the answer to a recorded move) the state carries that move as
    ``last_move`` instead of the whole ``moves`` list, which ``GET /games/{id}/`` gives: a
    referee's console has the earlier moves, and the answer stays the same size all game long.
    """
    state = arbitration_state(game)
    referees = game_referees(game)
    finished = game.status == Game.Status.FINISHED
    position = getattr(game, "_position", None)
    if position is None or position.fen() != game.fen:
        position = Position.from_fen(game.fen)
    rules = game.engine_rules()
    progress_ply = state["progress"]["ply"]
    if last_move is None:
        moves = list(
            Move.objects.filter(game=game, superseded_by__isnull=True).order_by("ply")
            .values_list("ply", "side", "pdn", "fen_after", "recorded_at", "recorded_by__username")
        )
        moves_block = {"moves": [_move_dict(*row) for row in moves]}
        repetitions = _repetitions(game, state["progress"], [row[3] for row in moves if row[0] > progress_ply])
    else:
        recorded_by = last_move.recorded_by.get_username() if last_move.recorded_by_id is not None else None
        moves_block = {"last_move": _move_dict(
            last_move.ply, last_move.side, last_move.pdn, last_move.fen_after, last_move.recorded_at, recorded_by,
        )}
        repetitions = _repetitions(game, state["progress"], None)
    forty_block, progress = _progress_block(game, state)
    offences = state["offences"]
    return {
        "id": game.pk,
        "black": {"id": game.black_id, "name": game.black.name},
        "white": {"id": game.white_id, "name": game.white.name},
        "rule_set": game.rule_set,
        "progress_rule": game.progress_rule,
        "repetition_threshold": game.repetition_threshold,
        "start_fen": game.initial_fen,
        "status": game.status,
        "result": game.result,
        "termination": game.termination,
        "fen": game.fen,
        "side_to_move": position.side_to_move.value,
        "ply": game.ply,
        "legal_moves": [] if finished else _legal_moves(position, rules, state["constraints"]),
        **moves_block,
        "cautions": dict(offences["touch_offence"]),
        "warnings": {"conduct": dict(offences["conduct"]), "left_room": dict(offences["left_room"])},
        "open_choices": state["open_choices"],
        "constraints": state["constraints"],
        "forty_move": forty_block,
        "progress": progress,
        "repetition": {"threshold": game.repetition_threshold, "current": repetitions},
        "appeals": state["appeals"],
        "referees": [username for _, username in referees],
        "log_length": game.log_seq,
        "can_write": can_write(game, user),
        "round": game.round_id,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "clocks": clock_view(game, db_now()) if clock_of(game) is not None else None,
    }


def game_log(game: Game) -> list[dict[str, Any]]:
    """Returns the game's log entries, oldest first, with the actor's username. One query."""
    rows = LogEntry.objects.filter(game=game).order_by("seq").values(
        "seq", "kind", "side", "law", "note", "data", "actor__username", "created_at", "ply", "fen",
        "supersedes__seq", "prev_hash", "hash", "key_id",
    )
    return [
        {
            "seq": row["seq"], "kind": row["kind"], "side": row["side"], "law": row["law"], "note": row["note"],
            "data": row["data"], "actor": row["actor__username"], "created_at": row["created_at"].isoformat(),
            "ply": row["ply"], "fen": row["fen"], "supersedes": row["supersedes__seq"],
            "prev_hash": row["prev_hash"], "hash": row["hash"], "key_id": row["key_id"],
        }
        for row in rows
    ]

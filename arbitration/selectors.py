"""Reads of a game for the API and the pages: the state JSON of the contract, the log.

``game_state`` makes two queries whatever the length of the game (the game's referees, the
moves on the current line), plus one for the user's roles when the user object has not been
asked before and one for a clocked game's clock; as the answer to a move it reads no moves
(but the positions since the last capture or man move, when the move was neither).
"""

from __future__ import annotations

from typing import Any

from accounts.privacy import data_hidden, entry_hidden, name_hidden, names_hidden
from arbitration.access import can_write
from arbitration.clocks import clock_of, clock_view, db_now
from arbitration.confirmations import result_confirmations
from arbitration.models import LogEntry
from arbitration.persistence import game_referees, moves_fens_since
from arbitration.state import (
    AUTOMATIC_FORTY_PLIES,
    FIFTY_MOVE_PLIES,
    FORTY_MOVE_LIMIT,
    Constraint,
    PendingState,
    Progress,
    allowed_moves,
)
from games.models import Game, Move, ProgressRule
from games.rules import Position


def _progress_block(game: Game, state: PendingState) -> tuple[dict[str, Any], dict[str, Any]]:
    since = state.plies_since_progress(game.ply)
    forty = state.forty
    if game.progress_rule == ProgressRule.FORTY_MOVE_NOTICE:
        forty_block = {
            "mode": "notice", "active": forty.active, "count": forty.count, "limit": FORTY_MOVE_LIMIT,
            "stronger_side": forty.stronger_side, "awaiting_ruling": forty.awaiting_ruling,
            "start_ply": forty.start_ply,
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
        "rule": game.progress_rule, "plies_since_progress": since, "since_ply": state.progress.ply,
    }
    if game.progress_rule == ProgressRule.FIFTY_MOVE:
        progress.update(count=since // 2, limit=FIFTY_MOVE_PLIES // 2)
    return forty_block, progress


def _legal_moves(position: Position, rules: Any, constraints: tuple[Constraint, ...]) -> list[str]:
    """Returns the legal moves in PDN, sorted, narrowed by the constraints on the side to move (Laws 17, 20)."""
    return sorted(m.pdn() for m in allowed_moves(constraints, position.side_to_move.value, position, rules))


def _move_dict(ply: int, side: str, pdn: str, fen: str, recorded_at: Any, by: str | None) -> dict[str, Any]:
    return {"ply": ply, "side": side, "move": pdn, "fen_after": fen,
            "recorded_at": recorded_at.isoformat() if recorded_at else None, "recorded_by": by}


def _repetitions(game: Game, progress: Progress, fens_since_progress: list[str] | None) -> int:
    """Returns how many times the current position has stood since the last point of no return.

    Positions before the last capture, man move or piece removed cannot recur. Right after one
    the count is 1 with no query; otherwise the positions since it are read (or taken from the
    moves the caller has already read).
    """
    if progress.ply == game.ply and progress.fen == game.fen:
        return 1
    if fens_since_progress is None:
        fens_since_progress = moves_fens_since(game.pk, progress.ply)
    history = [progress.fen, *fens_since_progress]
    if history[-1] != game.fen:
        history.append(game.fen)
    return history.count(game.fen)


def game_state(game: Game, user: Any = None, *, last_move: Move | None = None) -> dict[str, Any]:
    """Returns the game-state dict of the API contract for ``user`` (``can_write`` depends on him).

    With ``last_move`` (the answer to a recorded move) the state carries that move as
    ``last_move`` instead of the whole ``moves`` list, which ``GET /games/{id}/`` gives: a
    referee's console has the earlier moves, and the answer stays the same size all game long.
    """
    state = PendingState.from_json(game.arbitration, game.initial_fen)
    referees = game_referees(game)
    finished = game.status == Game.Status.FINISHED
    position = getattr(game, "_position", None)
    if position is None or position.fen() != game.fen:
        position = Position.from_fen(game.fen)
    rules = game.engine_rules()
    progress_ply = state.progress.ply
    if last_move is None:
        moves = list(
            Move.objects.filter(game=game, superseded_by__isnull=True).order_by("ply")
            .values_list("ply", "side", "pdn", "fen_after", "recorded_at", "recorded_by__username")
        )
        moves_block = {"moves": [_move_dict(*row) for row in moves]}
        repetitions = _repetitions(game, state.progress, [row[3] for row in moves if row[0] > progress_ply])
    else:
        recorded_by = last_move.recorded_by.get_username() if last_move.recorded_by_id is not None else None
        moves_block = {"last_move": _move_dict(
            last_move.ply, last_move.side, last_move.pdn, last_move.fen_after, last_move.recorded_at, recorded_by,
        )}
        repetitions = _repetitions(game, state.progress, None)
    forty_block, progress = _progress_block(game, state)
    offences = state.offences
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
        "legal_moves": [] if finished else _legal_moves(position, rules, state.constraints),
        **moves_block,
        "cautions": offences.touch_offence.to_json(),
        "warnings": {"conduct": offences.conduct.to_json(), "left_room": offences.left_room.to_json()},
        "open_choices": [choice.to_json() for choice in state.open_choices],
        "constraints": [constraint.to_json() for constraint in state.constraints],
        "forty_move": forty_block,
        "progress": progress,
        "repetition": {"threshold": game.repetition_threshold, "current": repetitions},
        "appeals": [appeal.to_json() for appeal in state.appeals],
        "confirmations": result_confirmations(game),
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


def _move_without_name(move: dict[str, Any]) -> dict[str, Any]:
    return {**move, "recorded_by": name_hidden(move.get("recorded_by"))}


def state_without_names(state: dict[str, Any]) -> dict[str, Any]:
    """The game state as the public sees it: no usernames (``accounts.privacy``)."""
    hidden = {**state, "referees": names_hidden(state.get("referees") or [], "referee"),
              "appeals": [data_hidden(appeal) for appeal in state.get("appeals") or []]}
    if "moves" in state:
        hidden["moves"] = [_move_without_name(move) for move in state["moves"]]
    if "last_move" in state:
        hidden["last_move"] = _move_without_name(state["last_move"])
    return hidden


def log_without_names(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game log as the public sees it: no usernames, in ``actor``, ``data`` or ``note``."""
    return [entry_hidden(entry) for entry in entries]


# --- move numbers ------------------------------------------------------------------------------


def game_opening(game: Game) -> list[str]:
    """Returns the moves that led from the initial position to the game's start (a ballot), as its first log
    entry records them (``game_create``'s ``opening``); [] for a game from the initial position or a position
    set up without them. One query for a game with a start position, none otherwise."""
    if not game.start_fen:
        return []
    data = (LogEntry.objects.filter(game=game, kind=LogEntry.Kind.GAME_CREATED)
            .values_list("data", flat=True).first())
    opening = data.get("opening") if isinstance(data, dict) else None
    return opening.split() if isinstance(opening, str) else []


def plies_before(game: Game, opening: list[str]) -> int:
    """Returns how many plies stand before the game's first move in its numbering: the opening's, or one
    (Black's, unknown) when a set-up position has White to move. Black moves first in English draughts, so
    with it a game's ply ``p`` is move ``(plies_before + p + 1) // 2``, as the printed scoresheet writes it."""
    if opening:
        return len(opening)
    return 1 if game.initial_fen.startswith("W") else 0


def move_number(before: int, ply: int) -> int:
    """Returns the move number of the game's ply ``ply`` (1 is its first) with ``before`` plies before it."""
    return (before + ply + 1) // 2

"""Recording a move: checked against the clock, the open choices, the constraints (Laws 17, 20), the
rule set and the position, then written with its log entry; and putting play back to an earlier ply.

Every service here runs in one transaction, locks the game row first (``game_lock``), asks
``arbitration.access`` whether ``acting_user`` may write, checks the laws, writes the change and
its log entry, and saves the game once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from arbitration.access import administrator_note, authorise_write
from arbitration.clocks import clock_after_turn, clock_of, db_now
from arbitration.delay import clock_check_before_move
from arbitration.errors import (
    AmbiguousMove,
    ChoiceRequired,
    IllegalMove,
    MoveSyntax,
    PlyConflict,
    RulingRequired,
)
from arbitration.lifecycle import (
    ensure_in_progress,
    finish,
    game_over,
    opponent,
    save_game,
    start_if_scheduled,
    win_for,
)
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.persistence import game_lock, move_insert, move_transaction
from arbitration.state import (
    AUTOMATIC_FORTY_PLIES,
    FIFTY_MOVE_PLIES,
    Constraint,
    HuffChoice,
    PendingState,
    Progress,
    constraint_violation,
    play_blocked,
)
from games.models import Game, Move, ProgressRule, Termination
from games.rules import (
    AmbiguousMoveError,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
)
from games.rules import Move as EngineMove
from games.rules import RuleSet as EngineRuleSet


def parse_move_or_refuse(position: Position, text: str, rules: EngineRuleSet) -> EngineMove:
    """Reads a move with the engine and turns its errors into API errors (422)."""
    try:
        return position.parse_move(text, rules)
    except MoveSyntaxError as error:
        raise MoveSyntax(str(error), details={"move": text}) from error
    except AmbiguousMoveError as error:
        raise AmbiguousMove(str(error), details={"move": text, "candidates": error.candidates}) from error
    except IllegalMoveError as error:
        raise IllegalMove(
            error.reason, details={"move": text, "legal_moves": error.legal_moves or legal_pdn(position, rules)}
        ) from error


def legal_pdn(position: Position, rules: EngineRuleSet) -> list[str]:
    """Returns the legal moves in full-path PDN, sorted."""
    return sorted(move.pdn() for move in position.legal_moves(rules))


def check_constraints(state: PendingState, side: str, move: EngineMove, position: Position,
                      rules: EngineRuleSet) -> None:
    """Refuses (422) a move that breaks a constraint on the mover (Laws 17, 20)."""
    violation = constraint_violation(state.constraints, side, move, position, rules)
    if violation is not None:
        raise IllegalMove(violation.message(), details=violation.details())


def record_move(game: Game, state: PendingState, position: Position, move: EngineMove, *, entered: str,
                actor: Any, note: str = "") -> tuple[Move, LogEntry, Position, PendingState]:
    """Writes a checked move (log entry and Move row) and updates the game; returns them and the new state.

    In the new state the progress point moves on after a capture or a man move, and the
    constraints on the mover end: his move met them. Does not save the game: the caller saves
    it once, after ``after_move``.
    """
    side = position.side_to_move.value
    after = position.play(move)
    fen_after = after.fen()
    moved_man = position.piece_at(move.start) in ("b", "w")
    ply = game.ply + 1
    state = state.after_move(side=side, ply=ply, fen=fen_after, progress=bool(move.captures or moved_man))
    data = {"move": move.pdn(), "entered": entered.strip(), "path": list(move.path),
            "captures": list(move.captures), "crowns": move.crowns, "progress": state.progress.to_json()}
    game.ply = ply
    game.fen = fen_after
    game._position = after  # the state answered after the move needs not parse the FEN again
    # In the move's pipeline neither insert waits: the move refers to its entry by (game, seq)
    entry = log_append(game=game, kind=LogEntry.Kind.MOVE, side=side, note=note, data=data, actor=actor,
                       ply=ply, fen=fen_after, pk_later=True)
    record = move_insert(Move(
        game=game, ply=ply, side=side, pdn=move.pdn(), entered=entered.strip()[:80], path=list(move.path),
        captures=list(move.captures), crowns=move.crowns, moved_man=moved_man, fen_after=fen_after,
        recorded_by=actor if actor is not None and actor.is_authenticated else None,
        recorded_at=entry.created_at, log_entry=entry,
    ), entry)
    return record, entry, after, state


def after_move(game: Game, state: PendingState, after: Position, side: str, actor: Any) -> PendingState:
    """Applies what follows a move: loss by no legal move (Law 23), the progress rules; returns the new state.

    When the game goes on, the 40-move count on notice counts the move (``FortyCount.counted``).
    """
    if after.is_game_over(game.engine_rules()):
        loser = after.side_to_move.value
        state = state.cleared()
        finish(game, result=win_for(opponent(loser)), termination=Termination.NO_LEGAL_MOVE, actor=None,
               side=loser, law="23", note=f"{loser.capitalize()} has no legal move and loses (Law 23).")
        return state
    since = state.plies_since_progress(game.ply)
    if game.progress_rule == ProgressRule.FORTY_MOVE_AUTOMATIC and since >= AUTOMATIC_FORTY_PLIES:
        finish(game, result=Game.Result.DRAW, termination=Termination.DRAW_FORTY_MOVE, actor=None, law="22",
               note="40 moves by each side without a capture or a man move: drawn (automatic 40-move rule).",
               data={"plies": since})
        return state
    if game.progress_rule == ProgressRule.FIFTY_MOVE and since >= FIFTY_MOVE_PLIES:
        finish(game, result=Game.Result.DRAW, termination=Termination.DRAW_FIFTY_MOVE, actor=None,
               note="50 moves by each side without a man advanced or a piece removed: drawn (50-move rule).",
               data={"plies": since})
        return state
    return replace(state, forty=state.forty.counted(side))


@dataclass(frozen=True)
class MoveOutcome:
    game: Game
    move: Move | None
    refused: Exception | None = None


def ensure_play_may_go_on(state: PendingState) -> None:
    """Refuses a move (or a claim that goes with one) while a 40-move ruling is due or a Law 12 choice is open."""
    blocked = play_blocked(state)
    if blocked is None:
        return
    if blocked.ruling_required:
        raise RulingRequired(blocked.message, details=blocked.details)
    raise ChoiceRequired(blocked.message, details=blocked.details)


def game_move_record(*, acting_user: Any, game_id: int, move: str, ply: int | None = None,
                     note: str = "") -> MoveOutcome:
    """Records a move after checking it against the clock, the rule set, the position and the rulings.

    Locks the game row first: of two requests for the same ply, the second waits and then
    gets ``ply_conflict``. ``ply`` (optional) is the ply the move must be (current + 1). Under
    ``standard-huff`` a non-capture made while a capture existed is recorded and opens the
    opponent's choice (Laws 16-17); if the opponent moves without choosing, it stands. A move
    that arrives after the mover's loss by delay was due is refused with ``game_over``, and the
    loss (adjudicated here if no worker has yet) stays on the record.
    """
    outcome = _game_move_record(acting_user=acting_user, game_id=game_id, move=move, ply=ply, note=note)
    if outcome.refused is not None:
        raise outcome.refused
    return outcome


@transaction.atomic
def _game_move_record(*, acting_user: Any, game_id: int, move: str, ply: int | None, note: str) -> MoveOutcome:
    # BEGIN goes with the lock; the log entry, the move, the game update and the COMMIT go together
    with move_transaction():
        return _game_move_record_locked(acting_user=acting_user, game_id=game_id, move=move, ply=ply, note=note)


def _game_move_record_locked(*, acting_user: Any, game_id: int, move: str, ply: int | None, note: str) -> MoveOutcome:
    game = game_lock(game_id)
    authorise_write(game, acting_user)
    note = administrator_note(game, acting_user, note)
    start_if_scheduled(game, acting_user)
    ensure_in_progress(game)
    if ply is not None and ply != game.ply + 1:
        raise PlyConflict(
            f"Ply {ply} is not the next ply: {game.ply} plies are recorded, the next is {game.ply + 1}.",
            details={"expected": game.ply + 1, "current": game.ply, "given": ply},
        )
    state = PendingState.from_json(game.arbitration, game.initial_fen)
    now = db_now() if clock_of(game) is not None else timezone.now()
    if clock_check_before_move(game, now):
        # The loss by delay was due before the move arrived: it is written (commit), the move refused.
        return MoveOutcome(game=game, move=None, refused=game_over(game))
    ensure_play_may_go_on(state)
    position = Position.from_fen(game.fen)
    side = position.side_to_move.value
    rules = game.engine_rules()
    parsed = parse_move_or_refuse(position, move, rules)
    check_constraints(state, side, parsed, position, rules)
    for choice in state.huff_choices_of(side):
        log_append(
            game=game, kind=LogEntry.Kind.SYSTEM, side=side, law="17", actor=acting_user,
            note=f"{side.capitalize()} moved without choosing: the failure to capture stands (Law 17).",
            data={"choice": "let_stand", "by_default": True, "move": choice.move},
        )
    state = state.without_huff_choices_of(side)
    failed = []
    if rules is EngineRuleSet.STANDARD_HUFF and not parsed.captures:
        failed = sorted(parsed.end if sq == parsed.start else sq for sq in position.failed_capture(parsed, rules))
    record, _entry, after, state = record_move(game, state, position, parsed, entered=move, actor=acting_user,
                                               note=note)
    if failed:
        huff = HuffChoice.opened(offender=side, move=parsed.pdn(), pieces=failed, ply=game.ply)
        state = state.with_choice(huff)
    state = after_move(game, state, after, side, acting_user)
    if game.status == Game.Status.FINISHED:
        state = replace(state, open_choices=())
    else:
        clock_after_turn(game, now, moved=side)
    save_game(game, state)
    return MoveOutcome(game=game, move=record)


# --- putting play back ---------------------------------------------------------------------


def put_back(game: Game, *, to_ply: int, entry: LogEntry) -> int:
    """Puts play back to ``to_ply``: later live moves are superseded by ``entry``, not deleted.

    The position becomes the one recorded at that ply (after any ruling made there); the
    progress point and the 40-move count are restored; open choices and constraints end.
    Returns how many moves were superseded. ``entry`` must carry the new ply and fen: call
    ``position_at`` first.
    """
    count = Move.objects.filter(game=game, superseded_by__isnull=True, ply__gt=to_ply).update(superseded_by=entry)
    return count


def position_at(game: Game, to_ply: int) -> tuple[str, Progress]:
    """Returns the position and the progress point recorded at ``to_ply`` on the current line."""
    next_move = (
        Move.objects.filter(game=game, superseded_by__isnull=True, ply=to_ply + 1)
        .values_list("log_entry__seq", flat=True).first()
    )
    entries = LogEntry.objects.filter(game=game, ply=to_ply)
    if next_move is not None:
        entries = entries.filter(seq__lt=next_move)
    fen = None
    progress = None
    for entry_fen, data in entries.order_by("-seq").values_list("fen", "data")[:50]:
        if fen is None:
            fen = entry_fen
        if isinstance(data, dict) and "progress" in data:
            progress = Progress.from_json(data["progress"])
            break
    if fen is None:
        fen = game.fen if to_ply == game.ply else game.initial_fen
    if progress is None:
        progress = Progress(ply=0, fen=game.initial_fen)
    return fen, progress


def restore_forty(game: Game, state: PendingState, to_ply: int) -> PendingState:
    """Returns the state with the 40-move count on notice recounted after play was put back to ``to_ply``."""
    forty = state.forty
    if not forty.active:
        return state
    start_ply = forty.start_after_put_back(to_ply)
    count = Move.objects.filter(
        game=game, superseded_by__isnull=True, side=forty.stronger_side, ply__gt=start_ply, ply__lte=to_ply,
    ).count()
    return replace(state, forty=forty.recounted(start_ply, count))


def apply_put_back(game: Game, state: PendingState, *, to_ply: int, kind: str, side: str, law: str, note: str,
                   data: dict[str, Any], actor: Any, supersedes: LogEntry | None = None,
                   constraints: tuple[Constraint, ...] = ()) -> tuple[LogEntry, PendingState]:
    """Writes a ruling that puts play back to ``to_ply``; returns its entry and the state brought in line."""
    fen, progress = position_at(game, to_ply)
    state = state.put_back(progress, constraints)
    game.ply = to_ply
    game.fen = fen
    entry = log_append(game=game, kind=kind, side=side, law=law, note=note, actor=actor, supersedes=supersedes,
                       data={**data, "to_ply": to_ply, "progress": progress.to_json()})
    superseded = put_back(game, to_ply=to_ply, entry=entry)
    state = restore_forty(game, state, to_ply)
    if clock_of(game) is not None:
        clock_after_turn(game, db_now(), moved=None)
    entry.superseded_moves_count = superseded  # for the caller's information only
    return entry, state

"""Writes to games: creating a game and recording a move, on the rules engine and the log.

Every service here and in ``arbitration.services`` runs in one transaction, locks the game row
first (``select_for_update``), authorises ``acting_user``, checks the laws, writes the change
and its log entry, and saves the game with ``update_fields``.

``Game.arbitration`` caches what the log says is pending, so a move needs no replay:

- ``open_choices`` and ``constraints`` (the lists the state JSON shows);
- ``forty``: the Law 22 count on notice (``active``, ``start_ply``, ``stronger_side``, ``count``,
  ``awaiting_ruling``);
- ``progress``: the last point of no return (``ply`` and ``fen`` after the last capture, man
  move or piece removed by a ruling). Positions before it cannot recur, and the automatic
  40-move and the 50-move counts are the plies since it;
- ``offences``: the counts of Laws 18, 29 and 30 per side (recounted from the log on a
  correction);
- ``appeals``: the appeals filed, open or decided.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from accounts.roles import Role, is_director, user_roles
from arbitration.clocks import (
    clock_after_turn,
    clock_check_before_move,
    clock_create,
    clock_of,
    clock_reopen,
    clock_stop,
    db_now,
)
from arbitration.errors import (
    AmbiguousMove,
    ChoiceRequired,
    GameNotFound,
    GameNotStarted,
    GameOver,
    IllegalMove,
    InvalidGameSetup,
    MoveSyntax,
    NotAllowed,
    PlyConflict,
    RulingRequired,
)
from arbitration.log import entry_id_sql, log_append
from arbitration.models import LogEntry
from arbitration.timecontrol import ClockControl, ClockControlError
from config import sqlrows
from games.models import INITIAL_FEN, Game, Move, ProgressRule, RuleSet, Termination
from games.rules import (
    AmbiguousMoveError,
    FENError,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
)
from games.rules import Move as EngineMove
from games.rules import RuleSet as EngineRuleSet
from tournaments.models import Player

FORTY_MOVE_LIMIT = 40
AUTOMATIC_FORTY_PLIES = 80  # 40 moves by each side without a capture or a man move (WCDF)
FIFTY_MOVE_PLIES = 100  # 50 moves by each side without a man move or a piece removed (Pask)

OFFENCE_KINDS = ("touch_offence", "conduct", "left_room")

GAME_FIELDS = ["fen", "ply", "status", "result", "termination", "finished_at", "arbitration",
               "has_clock", "log_seq", "log_head", "updated_at"]


# --- the pending-state cache ---------------------------------------------------------------


def _json_copy(value: Any) -> Any:
    """Returns a deep copy of JSON data (dicts, lists and scalars), faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


def arbitration_state(game: Game) -> dict[str, Any]:
    """Returns a copy of the game's pending-state cache with every key filled in."""
    state = _json_copy(game.arbitration) if game.arbitration else {}
    state.setdefault("open_choices", [])
    state.setdefault("constraints", [])
    state.setdefault("forty", {"active": False, "start_ply": None, "stronger_side": None, "count": 0,
                               "awaiting_ruling": False})
    state.setdefault("progress", {"ply": 0, "fen": game.initial_fen})
    offences = state.setdefault("offences", {})
    for kind in OFFENCE_KINDS:
        offences.setdefault(kind, {"black": 0, "white": 0})
    state.setdefault("appeals", [])
    return state


def engine_rules(game: Game) -> EngineRuleSet:
    """Returns the engine's rule set for the game."""
    return EngineRuleSet(game.rule_set)


def opponent(side: str) -> str:
    """Returns the other side's name."""
    return "white" if side == "black" else "black"


def win_for(side: str) -> str:
    """Returns the result in which ``side`` won (1-0 is Black's win, as in PDN)."""
    return Game.Result.BLACK_WINS if side == "black" else Game.Result.WHITE_WINS


# --- locking and authorising -----------------------------------------------------------------


@lru_cache(maxsize=8)
def _game_lock_sql(alias: str, vendor: str) -> tuple[str, sqlrows.Columns, sqlrows.Columns, sqlrows.Columns]:
    connection = connections[alias]
    qn = connection.ops.quote_name
    game_columns = sqlrows.columns(Game, "g", connection)
    black, white = sqlrows.columns(Player, "b", connection), sqlrows.columns(Player, "w", connection)
    User = get_user_model()
    user_pk = qn(User._meta.pk.column)
    through = Game.referees.through._meta
    if vendor == "postgresql":
        referees = f"json_agg(json_build_array(u.{user_pk}, u.{qn('username')}) ORDER BY u.{qn('username')})"
    else:
        referees = f"json_group_array(json_array(u.{user_pk}, u.{qn('username')}))"
    sql = (
        f"SELECT {game_columns.sql}, {black.sql}, {white.sql}, "
        f"(SELECT {referees} FROM {qn(User._meta.db_table)} u JOIN {qn(through.db_table)} r "
        f"ON r.{qn('user_id')} = u.{user_pk} WHERE r.{qn('game_id')} = g.{qn('id')}) "
        f"FROM {qn(Game._meta.db_table)} g "
        f"JOIN {qn(Player._meta.db_table)} b ON b.{qn('id')} = g.{qn('black_id')} "
        f"JOIN {qn(Player._meta.db_table)} w ON w.{qn('id')} = g.{qn('white_id')} "
        f"WHERE g.{qn('id')} = %s{sqlrows.for_update_of('g', connection)}"
    )
    return sql, game_columns, black, white


def game_lock(game_id: int) -> Game:
    """Returns the game row locked for the rest of the transaction, with its players and referees (404 if none).

    One statement, built once. The clock is not joined here: a row read through a join while
    the lock was waited for may be the version from before the other transaction (PostgreSQL
    re-reads only the locked row), so ``arbitration.clocks.clock_of`` reads it after the lock
    is held. The referees, read the same way, change only by a director's assignment.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    sql, game_columns, black, white = _game_lock_sql(connection.alias, connection.vendor)
    try:
        key = int(game_id)
    except (TypeError, ValueError):
        key = None
    rows = [] if key is None else sqlrows.fetch(sql, [key], connection)
    if not rows:
        raise GameNotFound(f"There is no game {game_id}.")
    row = rows[0]
    game = game_columns.instance(row, 0, connection)
    game.black = black.instance(row, game_columns.width, connection)
    game.white = white.instance(row, game_columns.width + black.width, connection)
    referees = row[-1]
    if isinstance(referees, str | bytes):
        referees = json.loads(referees)
    game._referee_rows = sorted(((pk, username) for pk, username in referees or []), key=lambda r: r[1])
    return game


def game_referees(game: Game) -> list[tuple[int, str]]:
    """Returns the (id, username) of the game's referees, read once per game object."""
    cached = getattr(game, "_referee_rows", None)
    if cached is None:
        cached = list(game.referees.order_by("username").values_list("id", "username"))
        game._referee_rows = cached
    return cached


def is_staff_of(game: Game, user: Any) -> bool:
    """Tells whether the user may record on the game: a director or a referee assigned to it."""
    if user is None or not user.is_authenticated:
        return False
    return any(pk == user.pk for pk, _ in game_referees(game)) or is_director(user)


def authorise_staff(game: Game, user: Any) -> None:
    """Refuses (403) a user who is neither a director nor a referee assigned to the game."""
    if not is_staff_of(game, user):
        raise NotAllowed("Only a referee assigned to this game or a director may record on it.")


def game_over(game: Game) -> GameOver:
    """Returns the refusal (409 ``game_over``) for a request on a finished game."""
    return GameOver(
        f"The game is over ({game.result}, {game.termination}).",
        details={"result": game.result, "termination": game.termination},
    )


def ensure_in_progress(game: Game) -> None:
    """Refuses (409) when the game is finished or not started."""
    if game.status == Game.Status.FINISHED:
        raise game_over(game)
    if game.status == Game.Status.SCHEDULED:
        raise GameNotStarted("The game has not started.")


def start_if_scheduled(game: Game, actor: Any) -> None:
    """Starts a scheduled game (a tournament game made by pairing) at its first move or ruling."""
    if game.status == Game.Status.SCHEDULED:
        game.status = Game.Status.IN_PROGRESS
        log_append(game=game, kind=LogEntry.Kind.SYSTEM, actor=actor, note="The game started.",
                   data={"started": True})


def save_game(game: Game, state: dict[str, Any] | None = None) -> None:
    """Saves the game's cached fields (position, status, pending state, chain head)."""
    if state is not None:
        game.arbitration = state
    sqlrows.row_update(game, GAME_FIELDS)


def finish(
    game: Game, *, result: str, termination: str, actor: Any, side: str = "", law: str = "", note: str = "",
    data: dict | None = None, supersedes: LogEntry | None = None, at: Any = None,
) -> LogEntry:
    """Ends the game with a result and a termination, stops its clocks, and logs the end (``game_end``)."""
    if at is None and clock_of(game) is not None:
        at = db_now()
    game.status = Game.Status.FINISHED
    game.result = result
    game.termination = termination
    game.finished_at = at or timezone.now()
    if at is not None:
        clock_stop(game, at)
    if game.round_id is not None:
        transaction.on_commit(partial(_tournament_follow_up, game.pk), robust=True)
    return log_append(
        game=game, kind=LogEntry.Kind.GAME_END, side=side, law=law, note=note, actor=actor, at=at,
        data={"result": result, "termination": termination, **(data or {})}, supersedes=supersedes,
    )


def _tournament_follow_up(game_id: int) -> None:
    """Tells the tournament a game of its round has finished (a tied knockout match gets its next block)."""
    from tournaments.services.results import match_game_finished

    match_game_finished(game_id=game_id)


def resume(game: Game) -> None:
    """Puts a finished game back in progress (a ruling that ended it was overturned), its clocks paused."""
    game.status = Game.Status.IN_PROGRESS
    game.result = None
    game.termination = None
    game.finished_at = None
    clock_reopen(game)


# --- creating a game -----------------------------------------------------------------------


@transaction.atomic
def game_create(
    *, acting_user: Any, black: Player | int, white: Player | int, rule_set: str = RuleSet.STANDARD,
    referees: list[str] | tuple[str, ...] = (), start_fen: str = "",
    progress_rule: str = ProgressRule.FORTY_MOVE_NOTICE, repetition_threshold: int | None = 4,
    round: Any = None, clock: dict[str, Any] | None = None,
) -> Game:
    """Creates a game in progress and writes log entry #1 (``game_created``, with the settings).

    Only a director may create a game. Referees are named by username and must hold the
    referee or director role. A bad FEN, the same player twice or an unknown referee is a
    ``validation_error`` naming the field. ``clock`` is the time control
    (``arbitration.timecontrol.ClockControl`` as JSON; None or ``{"control": "none"}``: no clock);
    the clock starts with the ``clock_start`` ruling.
    """
    if not is_director(acting_user):
        raise NotAllowed("Only a tournament director may create a game.")
    fields: dict[str, list[str]] = {}
    black_player = black if isinstance(black, Player) else Player.objects.filter(pk=black).first()
    white_player = white if isinstance(white, Player) else Player.objects.filter(pk=white).first()
    if black_player is None:
        fields["black"] = [f"There is no player {black}."]
    if white_player is None:
        fields["white"] = [f"There is no player {white}."]
    if black_player is not None and white_player is not None and black_player.pk == white_player.pk:
        fields["white"] = ["A player cannot play himself: Black and White must differ."]
    if rule_set not in RuleSet.values:
        fields["rule_set"] = [f"Unknown rule set {rule_set!r}; one of {', '.join(RuleSet.values)}."]
    if progress_rule not in ProgressRule.values:
        fields["progress_rule"] = [f"Unknown progress rule {progress_rule!r}; one of {', '.join(ProgressRule.values)}."]
    if repetition_threshold not in (3, 4, None):
        fields["repetition_threshold"] = ["The repetition threshold is 3, 4 or null (off)."]
    fen = INITIAL_FEN
    if start_fen:
        try:
            position = Position.from_fen(start_fen.strip())
            fen = position.fen()
        except FENError as error:
            fields["start_fen"] = [f"Bad FEN: {error}"]
    User = get_user_model()
    referee_users = []
    wanted = list(dict.fromkeys(referees or []))
    if wanted:
        found = {u.username: u for u in User.objects.filter(username__in=wanted).prefetch_related("groups")}
        bad = []
        for username in wanted:
            user = found.get(username)
            if user is None or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(user)):
                bad.append(username)
            else:
                referee_users.append(user)
        if bad:
            fields["referees"] = [
                f"Not a referee or director: {', '.join(bad)}." if len(bad) > 1 else
                f"{bad[0]} is not a user with the referee or director role."
            ]
    try:
        control = ClockControl.from_dict(clock)
    except ClockControlError as error:
        fields.update({f"clock.{name}" if name != "clock" else name: msgs for name, msgs in error.fields.items()})
    if fields:
        raise InvalidGameSetup("Some fields are invalid: " + ", ".join(fields) + ".", details={"fields": fields})

    game = Game.objects.create(
        black=black_player, white=white_player, rule_set=rule_set, progress_rule=progress_rule,
        repetition_threshold=repetition_threshold, start_fen="" if fen == INITIAL_FEN else fen, fen=fen, ply=0,
        status=Game.Status.IN_PROGRESS, round=round,
    )
    if referee_users:
        game.referees.set(referee_users)
    game._referee_rows = sorted(((u.pk, u.username) for u in referee_users), key=lambda row: row[1])
    game.arbitration = arbitration_state(game)
    clock_create(game, control)
    log_append(
        game=game, kind=LogEntry.Kind.GAME_CREATED, actor=acting_user, data={
            "black": black_player.pk, "white": white_player.pk, "rule_set": rule_set,
            "progress_rule": progress_rule, "repetition_threshold": repetition_threshold,
            "start_fen": fen, "referees": [u.username for u in referee_users], "clock": control.as_dict(),
        },
    )
    save_game(game)
    return game


# --- recording a move ----------------------------------------------------------------------


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


def check_constraints(state: dict[str, Any], side: str, move: EngineMove, position: Position,
                      rules: EngineRuleSet) -> None:
    """Refuses (422) a move that breaks a constraint on the mover (Laws 17, 20)."""
    for constraint in state["constraints"]:
        if constraint["side"] != side:
            continue
        if constraint["kind"] == "over_the_angle":
            square, toward = constraint["square"], constraint["toward"]
            direction_ok = move.start == square and (
                move.path[1] == toward or (move.captures and move.captures[0] == toward)
            )
            if not direction_ok:
                allowed = [m.pdn() for m in position.legal_moves(rules) if m.start == square and (
                    m.path[1] == toward or (m.captures and m.captures[0] == toward))]
                raise IllegalMove(
                    f"the piece on {square} was moved over the angle toward {toward}: the move must be completed "
                    f"that way (Law 20): {', '.join(allowed) or 'no such move'}",
                    details={"move": move.pdn(), "legal_moves": allowed, "law": "20"},
                )
        elif constraint["kind"] == "compelled_capture" and not move.captures:
            captures = [m.pdn() for m in position.legal_moves(rules) if m.captures]
            raise IllegalMove(
                f"the capture was compelled (Law 17): {', '.join(captures)}",
                details={"move": move.pdn(), "legal_moves": captures, "law": "17"},
            )


def record_move(game: Game, state: dict[str, Any], position: Position, move: EngineMove, *, entered: str,
                actor: Any, note: str = "") -> tuple[Move, LogEntry, Position]:
    """Writes a checked move (log entry and Move row) and updates the game and the counts.

    Does not save the game: the caller saves it once, after ``after_move``.
    """
    side = position.side_to_move.value
    after = position.play(move)
    fen_after = after.fen()
    moved_man = position.piece_at(move.start) in ("b", "w")
    ply = game.ply + 1
    if move.captures or moved_man:
        state["progress"] = {"ply": ply, "fen": fen_after}
    data = {"move": move.pdn(), "entered": entered.strip(), "path": list(move.path),
            "captures": list(move.captures), "crowns": move.crowns, "progress": state["progress"]}
    game.ply = ply
    game.fen = fen_after
    game._position = after  # the state answered after the move needs not parse the FEN again
    # In the move's pipeline neither insert waits: the move refers to its entry by (game, seq)
    entry = log_append(game=game, kind=LogEntry.Kind.MOVE, side=side, note=note, data=data, actor=actor,
                       ply=ply, fen=fen_after, pk_later=True)
    record = sqlrows.row_insert(Move(
        game=game, ply=ply, side=side, pdn=move.pdn(), entered=entered.strip()[:80], path=list(move.path),
        captures=list(move.captures), crowns=move.crowns, moved_man=moved_man, fen_after=fen_after,
        recorded_by=actor if actor is not None and actor.is_authenticated else None,
        recorded_at=entry.created_at, log_entry=entry,
    ), pk_later=True, expressions={"log_entry_id": entry_id_sql(game.pk, entry.seq)})
    sqlrows.after_pipeline(lambda: setattr(record, "log_entry_id", entry.pk))
    # Constraints on the mover are met by this move; they end with it.
    state["constraints"] = [c for c in state["constraints"] if c["side"] != side]
    return record, entry, after


def after_move(game: Game, state: dict[str, Any], after: Position, side: str, actor: Any) -> None:
    """Applies what follows a move: loss by no legal move (Law 23), the progress rules."""
    if after.is_game_over(engine_rules(game)):
        loser = after.side_to_move.value
        state["open_choices"] = []
        state["constraints"] = []
        finish(game, result=win_for(opponent(loser)), termination=Termination.NO_LEGAL_MOVE, actor=None,
               side=loser, law="23", note=f"{loser.capitalize()} has no legal move and loses (Law 23).")
        return
    since = game.ply - state["progress"]["ply"]
    if game.progress_rule == ProgressRule.FORTY_MOVE_AUTOMATIC and since >= AUTOMATIC_FORTY_PLIES:
        finish(game, result=Game.Result.DRAW, termination=Termination.DRAW_FORTY_MOVE, actor=None, law="22",
               note="40 moves by each side without a capture or a man move: drawn (automatic 40-move rule).",
               data={"plies": since})
        return
    if game.progress_rule == ProgressRule.FIFTY_MOVE and since >= FIFTY_MOVE_PLIES:
        finish(game, result=Game.Result.DRAW, termination=Termination.DRAW_FIFTY_MOVE, actor=None,
               note="50 moves by each side without a man advanced or a piece removed: drawn (50-move rule).",
               data={"plies": since})
        return
    forty = state["forty"]
    if forty["active"] and side == forty["stronger_side"]:
        forty["count"] += 1
        if forty["count"] >= FORTY_MOVE_LIMIT:
            forty["awaiting_ruling"] = True


@dataclass(frozen=True)
class MoveOutcome:
    game: Game
    move: Move | None
    refused: Exception | None = None


def ensure_play_may_go_on(state: dict[str, Any]) -> None:
    """Refuses a move (or a claim that goes with one) while a 40-move ruling is due or a Law 12 choice is open."""
    if state["forty"]["awaiting_ruling"]:
        raise RulingRequired(
            f"The stronger side has made {state['forty']['count']} moves since the 40-move notice: "
            "the referee must rule advantage shown or draw (Law 22) before play goes on.",
            details={"kind": "forty_move_ruling"},
        )
    for choice in state["open_choices"]:
        if choice["kind"] == "own_piece_removed":
            raise ChoiceRequired(
                f"{choice['chooser'].capitalize()} must choose first: play on or have the piece on "
                f"{choice['square']} put back (Law 12).", details={"choice": choice},
            )


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
    with sqlrows.pipeline(commit=True):
        return _game_move_record_locked(acting_user=acting_user, game_id=game_id, move=move, ply=ply, note=note)


def _game_move_record_locked(*, acting_user: Any, game_id: int, move: str, ply: int | None, note: str) -> MoveOutcome:
    game = game_lock(game_id)
    authorise_staff(game, acting_user)
    start_if_scheduled(game, acting_user)
    ensure_in_progress(game)
    if ply is not None and ply != game.ply + 1:
        raise PlyConflict(
            f"Ply {ply} is not the next ply: {game.ply} plies are recorded, the next is {game.ply + 1}.",
            details={"expected": game.ply + 1, "current": game.ply, "given": ply},
        )
    state = arbitration_state(game)
    now = db_now() if clock_of(game) is not None else timezone.now()
    if clock_check_before_move(game, now):
        # The loss by delay was due before the move arrived: it is written (commit), the move refused.
        return MoveOutcome(game=game, move=None, refused=game_over(game))
    ensure_play_may_go_on(state)
    position = Position.from_fen(game.fen)
    side = position.side_to_move.value
    rules = engine_rules(game)
    parsed = parse_move_or_refuse(position, move, rules)
    check_constraints(state, side, parsed, position, rules)
    for choice in [c for c in state["open_choices"] if c["kind"] == "huff" and c["chooser"] == side]:
        log_append(
            game=game, kind=LogEntry.Kind.SYSTEM, side=side, law="17", actor=acting_user,
            note=f"{side.capitalize()} moved without choosing: the failure to capture stands (Law 17).",
            data={"choice": "let_stand", "by_default": True, "move": choice["move"]},
        )
        state["open_choices"].remove(choice)
    failed = []
    if rules is EngineRuleSet.STANDARD_HUFF and not parsed.captures:
        failed = sorted(parsed.end if sq == parsed.start else sq for sq in position.failed_capture(parsed, rules))
    record, _entry, after = record_move(game, state, position, parsed, entered=move, actor=acting_user, note=note)
    if failed:
        state["open_choices"].append({
            "kind": "huff", "law": "16", "chooser": opponent(side), "offender": side, "move": parsed.pdn(),
            "pieces": failed, "ply": game.ply,
        })
    after_move(game, state, after, side, acting_user)
    if game.status == Game.Status.FINISHED:
        state["open_choices"] = []
    else:
        clock_after_turn(game, now, moved=side)
    save_game(game, state)
    return MoveOutcome(game=game, move=record)


# --- putting play back ---------------------------------------------------------------------


def put_back(game: Game, state: dict[str, Any], *, to_ply: int, entry: LogEntry) -> int:
    """Puts play back to ``to_ply``: later live moves are superseded by ``entry``, not deleted.

    The position becomes the one recorded at that ply (after any ruling made there); the
    progress point and the 40-move count are restored; open choices and constraints end.
    Returns how many moves were superseded. ``entry`` must carry the new ply and fen: call
    ``position_at`` first.
    """
    count = Move.objects.filter(game=game, superseded_by__isnull=True, ply__gt=to_ply).update(superseded_by=entry)
    return count


def position_at(game: Game, to_ply: int) -> tuple[str, dict[str, Any]]:
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
            progress = data["progress"]
            break
    if fen is None:
        fen = game.fen if to_ply == game.ply else game.initial_fen
    if progress is None:
        progress = {"ply": 0, "fen": game.initial_fen}
    return fen, progress


def restore_forty(game: Game, state: dict[str, Any], to_ply: int) -> None:
    """Recounts the 40-move count on notice after play was put back to ``to_ply``."""
    forty = state["forty"]
    if not forty["active"]:
        return
    if forty["start_ply"] > to_ply:
        forty["start_ply"] = to_ply
    forty["count"] = Move.objects.filter(
        game=game, superseded_by__isnull=True, side=forty["stronger_side"],
        ply__gt=forty["start_ply"], ply__lte=to_ply,
    ).count()
    forty["awaiting_ruling"] = forty["count"] >= FORTY_MOVE_LIMIT


def apply_put_back(game: Game, state: dict[str, Any], *, to_ply: int, kind: str, side: str, law: str, note: str,
                   data: dict[str, Any], actor: Any, supersedes: LogEntry | None = None,
                   constraints: list[dict[str, Any]] | None = None) -> LogEntry:
    """Writes a ruling that puts play back to ``to_ply`` and brings the cache in line."""
    fen, progress = position_at(game, to_ply)
    state["progress"] = progress
    state["open_choices"] = []
    state["constraints"] = constraints or []
    game.ply = to_ply
    game.fen = fen
    entry = log_append(game=game, kind=kind, side=side, law=law, note=note, actor=actor, supersedes=supersedes,
                       data={**data, "to_ply": to_ply, "progress": progress})
    superseded = put_back(game, state, to_ply=to_ply, entry=entry)
    restore_forty(game, state, to_ply)
    if clock_of(game) is not None:
        clock_after_turn(game, db_now(), moved=None)
    entry.superseded_moves_count = superseded  # for the caller's information only
    return entry


__all__ = [
    "MoveOutcome", "arbitration_state", "authorise_staff", "finish", "game_create", "game_lock",
    "game_move_record", "resume", "save_game",
]

"""Rulings: ``ruling_issue`` checks who may rule and dispatches to one function per kind.

Each ruling runs in one transaction with the game row locked, writes its log entry (and a
``game_end`` entry when it ends the game) and saves the game's cached state. The laws cited
are the Standard Laws of Draughts (RULES.md, "Arbitration").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.roles import Role, is_director, user_roles
from arbitration.clocks import CLOCK_RULINGS, clock_enforce, clock_of, db_now
from arbitration.errors import (
    AlreadySuperseded,
    AppealDecided,
    InvalidRuling,
    NotAllowed,
    RepetitionNotEstablished,
)
from arbitration.log import log_append
from arbitration.models import LogEntry
from games.models import Game, Move, ProgressRule, Termination
from games.rules import Position
from games.services import (
    FORTY_MOVE_LIMIT,
    apply_put_back,
    arbitration_state,
    authorise_staff,
    check_constraints,
    engine_rules,
    ensure_in_progress,
    ensure_play_may_go_on,
    finish,
    game_lock,
    game_over,
    is_staff_of,
    opponent,
    parse_move_or_refuse,
    record_move,
    resume,
    save_game,
    start_if_scheduled,
    win_for,
)

Kind = LogEntry.Kind

#: Kinds that may be recorded on a finished game.
AFTER_THE_GAME = {Kind.APPEAL, Kind.APPEAL_DECISION, Kind.CORRECTION, Kind.SPECTATOR}

#: Kinds that name the side they concern.
NEEDS_SIDE = {
    Kind.FALSE_MOVE, Kind.TOUCH_OFFENCE, Kind.TOUCHED_PIECE_NOT_PLAYED, Kind.OVER_THE_ANGLE,
    Kind.OWN_PIECE_REMOVED, Kind.HUFF, Kind.COMPEL, Kind.LET_STAND, Kind.CONDUCT, Kind.LEFT_ROOM,
    Kind.FORTY_MOVE_NOTICE, Kind.REPETITION_CLAIM, Kind.RESIGN,
}

OFFENCES = {
    # kind: (law, first penalty, termination of the forfeit)
    Kind.TOUCH_OFFENCE: ("18", "caution", Termination.FORFEIT_TOUCH_OFFENCE),
    Kind.CONDUCT: ("29", "warning", Termination.FORFEIT_CONDUCT),
    Kind.LEFT_ROOM: ("30", "warning", Termination.FORFEIT_ABSENCE),
}

RULING_KINDS = [
    Kind.FALSE_MOVE, Kind.TOUCH_OFFENCE, Kind.TOUCHED_PIECE_NOT_PLAYED, Kind.OVER_THE_ANGLE,
    Kind.OWN_PIECE_REMOVED, Kind.NOT_CROWNED, Kind.HUFF, Kind.COMPEL, Kind.LET_STAND, Kind.CONDUCT,
    Kind.LEFT_ROOM, Kind.SPECTATOR, Kind.FORTY_MOVE_NOTICE, Kind.FORTY_MOVE_RULING, Kind.REPETITION_CLAIM,
    Kind.DRAW_AGREED, Kind.RESIGN, Kind.ADJUDICATE, Kind.APPEAL, Kind.APPEAL_DECISION, Kind.CORRECTION,
    Kind.CLOCK_START, Kind.CLOCK_PAUSE, Kind.CLOCK_RESUME, Kind.CLOCK_ADJUST,
]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _require(payload: dict[str, Any], name: str, kind: str) -> Any:
    value = payload.get(name)
    if value is None or value == "":
        raise InvalidRuling(f"A {kind} ruling needs {name!r}.", code="validation_error", status_code=400,
                            details={"fields": {name: ["This field is required."]}})
    return value


def _int(payload: dict[str, Any], name: str, kind: str) -> int:
    value = _require(payload, name, kind)
    try:
        return int(value)
    except (TypeError, ValueError) as error:
        raise InvalidRuling(f"{name} must be a number.", code="validation_error", status_code=400,
                            details={"fields": {name: ["A number is required."]}}) from error


def _remove_piece(fen: str, square: int) -> str:
    """Returns the position with the piece on ``square`` taken off, same side to move."""
    position = Position.from_fen(fen)
    black = [s for s in position.squares("black") if s != square]
    white = [s for s in position.squares("white") if s != square]
    kings = [s for s in position.squares("black", kings=True) + position.squares("white", kings=True) if s != square]
    return Position.from_squares(black, white, kings, position.side_to_move).fen()


class Ruling:
    """What a ruling function receives: the locked game, its cached state and the request."""

    def __init__(self, game: Game, state: dict[str, Any], actor: Any, side: str, note: str,
                 payload: dict[str, Any]) -> None:
        self.game = game
        self.state = state
        self.actor = actor
        self.side = side
        self.note = note
        self.payload = payload

    def log(self, kind: str, *, law: str = "", data: dict | None = None, side: str | None = None,
            supersedes: LogEntry | None = None, note: str | None = None, at: Any = None) -> LogEntry:
        return log_append(game=self.game, kind=kind, side=self.side if side is None else side, law=law,
                          note=self.note if note is None else note, data=data or {}, actor=self.actor,
                          supersedes=supersedes, at=at)

    def position(self) -> Position:
        return Position.from_fen(self.game.fen)


# --- penalties --------------------------------------------------------------------------------


def _false_move(r: Ruling) -> None:
    """Law 21: a false or improper move forfeits the game at once; the attempt is on record."""
    attempted = str(_require(r.payload, "move", "false_move"))
    position = r.position()
    verdict = "not checked: not the side to move"
    if position.side_to_move.value == r.side:
        try:
            position.parse_move(attempted, engine_rules(r.game))
            verdict = "legal in the position"
        except ValueError as error:
            verdict = f"refused by the rules engine: {error}"
    r.log(Kind.FALSE_MOVE, law="21", data={"move": attempted, "engine": verdict})
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.FORFEIT_FALSE_MOVE, actor=r.actor,
           side=r.side, law="21", note=f"{r.side.capitalize()} forfeits: false or improper move {attempted} (Law 21).")


def _offence(r: Ruling, kind: str) -> None:
    """Laws 18, 29, 30: the first offence is a caution or warning, the second a forfeit."""
    law, first, termination = OFFENCES[kind]
    counts = r.state["offences"][kind]
    counts[r.side] += 1
    count = counts[r.side]
    penalty = first if count < 2 else "forfeit"
    r.log(kind, law=law, data={"count": count, "penalty": penalty})
    if penalty == "forfeit":
        finish(r.game, result=win_for(opponent(r.side)), termination=termination, actor=r.actor, side=r.side, law=law,
               note=f"{r.side.capitalize()} forfeits: second {kind.replace('_', ' ')} offence (Law {law}).")


def _touched_piece_not_played(r: Ruling) -> None:
    """Law 19: a player who touched a playable piece and did not play it forfeits."""
    square = r.payload.get("square")
    data: dict[str, Any] = {}
    if square is not None:
        square = _int(r.payload, "square", "touched_piece_not_played")
        position = r.position()
        piece = position.piece_at(square) if 1 <= square <= 32 else None
        if piece is None or piece.lower() != r.side[0]:
            raise InvalidRuling(f"There is no {r.side} piece on {square}.")
        if position.side_to_move.value == r.side and not any(
            m.start == square for m in position.legal_moves(engine_rules(r.game))
        ):
            raise InvalidRuling(f"The piece on {square} is not playable: Law 19 does not apply.")
        data["square"] = square
    r.log(Kind.TOUCHED_PIECE_NOT_PLAYED, law="19", data=data)
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.FORFEIT_TOUCHED_PIECE_NOT_PLAYED,
           actor=r.actor, side=r.side, law="19", note=f"{r.side.capitalize()} forfeits: touched piece not played (Law 19).")


def _over_the_angle(r: Ruling) -> None:
    """Law 20: the piece moved over the angle must complete its move that way."""
    square = _int(r.payload, "square", "over_the_angle")
    toward = _int(r.payload, "toward", "over_the_angle")
    position = r.position()
    if position.side_to_move.value != r.side:
        raise InvalidRuling(f"It is not {r.side}'s turn: Law 20 concerns the move being made.")
    piece = position.piece_at(square) if 1 <= square <= 32 else None
    if piece is None or piece.lower() != r.side[0]:
        raise InvalidRuling(f"There is no {r.side} piece on {square}.")
    moves = [m.pdn() for m in position.legal_moves(engine_rules(r.game)) if m.start == square and (
        m.path[1] == toward or (m.captures and m.captures[0] == toward))]
    if not moves:
        raise InvalidRuling(f"The piece on {square} has no legal move toward {toward}.",
                            details={"square": square, "toward": toward})
    constraint = {"kind": "over_the_angle", "law": "20", "side": r.side, "square": square, "toward": toward}
    r.state["constraints"] = [
        c for c in r.state["constraints"] if not (c["kind"] == "over_the_angle" and c["side"] == r.side)
    ] + [constraint]
    r.log(Kind.OVER_THE_ANGLE, law="20", data={"square": square, "toward": toward, "moves": moves})


def _law_23_after_removal(r: Ruling, offender: str) -> None:
    """Law 23 after a ruling took one of the offender's pieces off (huff, Law 12 play on).

    The offender loses if it was his last piece; otherwise the side to move loses if he has no
    legal move. A ruling is not a move, so the side to move is the one whose turn it was.
    """
    position = r.position()
    if not position.squares(offender):
        loser, note = offender, f"{offender.capitalize()} has no piece left and loses (Law 23)."
    elif position.is_game_over(engine_rules(r.game)):
        loser = position.side_to_move.value
        note = f"{loser.capitalize()} has no legal move and loses (Law 23)."
    else:
        return
    finish(r.game, result=win_for(opponent(loser)), termination=Termination.NO_LEGAL_MOVE, actor=None,
           side=loser, law="23", note=note)


def _own_piece_removed(r: Ruling) -> None:
    """Law 12: the capturer removed his own piece; his opponent chooses play on or put back."""
    choice = r.payload.get("choice")
    if choice not in (None, "", "play_on", "put_back"):
        raise InvalidRuling("choice is play_on or put_back.", code="validation_error", status_code=400,
                            details={"fields": {"choice": ["play_on or put_back."]}})
    open_choice = next((c for c in r.state["open_choices"]
                        if c["kind"] == "own_piece_removed" and c["offender"] == r.side), None)
    if open_choice is not None:
        square = open_choice["square"]
        if r.payload.get("square") not in (None, "") and _int(r.payload, "square", "own_piece_removed") != square:
            raise InvalidRuling(f"The open choice concerns the piece on {square}.")
        if not choice:
            raise InvalidRuling("The choice is already open: give choice play_on or put_back.")
        r.state["open_choices"].remove(open_choice)
    else:
        square = _int(r.payload, "square", "own_piece_removed")
        last = Move.objects.filter(game=r.game, superseded_by__isnull=True).order_by("-ply").first()
        if last is None or last.side != r.side or not last.captures:
            raise InvalidRuling(f"Law 12 applies to the capture just made: {r.side}'s last move must be the capture.")
        piece = r.position().piece_at(square) if 1 <= square <= 32 else None
        if piece is None or piece.lower() != r.side[0]:
            raise InvalidRuling(f"There is no {r.side} piece on {square}.")
        if not choice:
            r.state["open_choices"].append({
                "kind": "own_piece_removed", "law": "12", "chooser": opponent(r.side), "offender": r.side,
                "square": square,
            })
            r.log(Kind.OWN_PIECE_REMOVED, law="12", data={"square": square, "choice": None})
            return
    data: dict[str, Any] = {"square": square, "choice": choice}
    if choice == "play_on":
        r.game.fen = _remove_piece(r.game.fen, square)
        r.state["progress"] = {"ply": r.game.ply, "fen": r.game.fen}
        data.update(removed=square, progress=r.state["progress"])
    r.log(Kind.OWN_PIECE_REMOVED, law="12", data=data)
    if choice == "play_on":
        _law_23_after_removal(r, r.side)


def _not_crowned(r: Ruling) -> None:
    """Law 15: play after a man reached the king row uncrowned is put back to the crowning."""
    ply = _int(r.payload, "ply", "not_crowned")
    move = Move.objects.filter(game=r.game, superseded_by__isnull=True, ply=ply).first()
    if move is None or ply >= r.game.ply:
        raise InvalidRuling(f"Ply {ply} is not a move followed by play on the current line.")
    if not move.crowns:
        raise InvalidRuling(f"The move at ply {ply} ({move.pdn}) does not reach the king row.")
    apply_put_back(r.game, r.state, to_ply=ply, kind=Kind.NOT_CROWNED, side=r.side, law="15", note=r.note,
                   data={"crowning_ply": ply, "square": move.path[-1]}, actor=r.actor)


# --- the huff (Laws 16-17) ---------------------------------------------------------------------


def _huff_choice(r: Ruling) -> dict[str, Any]:
    choice = next((c for c in r.state["open_choices"] if c["kind"] == "huff" and c["chooser"] == r.side), None)
    if choice is None:
        raise InvalidRuling(f"{r.side.capitalize()} has no open huff choice: no failure to capture is pending.")
    return choice


def _huff(r: Ruling) -> None:
    """Law 16: the chooser removes one of the pieces that should have captured; not a move."""
    choice = _huff_choice(r)
    square = _int(r.payload, "square", "huff")
    if square not in choice["pieces"]:
        raise InvalidRuling(
            f"The piece on {square} is not one that could have captured: {', '.join(map(str, choice['pieces']))}.",
            details={"pieces": choice["pieces"]},
        )
    r.state["open_choices"].remove(choice)
    r.game.fen = _remove_piece(r.game.fen, square)
    r.state["progress"] = {"ply": r.game.ply, "fen": r.game.fen}
    r.log(Kind.HUFF, law="16", data={"square": square, "removed": square, "choice": choice,
                                     "progress": r.state["progress"]})
    _law_23_after_removal(r, choice["offender"])


def _compel(r: Ruling) -> None:
    """Law 17: the failure to capture is taken back and the offender must capture."""
    choice = _huff_choice(r)
    offender = choice["offender"]
    apply_put_back(
        r.game, r.state, to_ply=choice["ply"] - 1, kind=Kind.COMPEL, side=r.side, law="17", note=r.note,
        data={"choice": choice}, actor=r.actor,
        constraints=[{"kind": "compelled_capture", "law": "17", "side": offender}],
    )


def _let_stand(r: Ruling) -> None:
    """Law 17: the chooser lets the failure to capture stand."""
    choice = _huff_choice(r)
    r.state["open_choices"].remove(choice)
    r.log(Kind.LET_STAND, law="17", data={"choice": choice})


# --- draws, results ------------------------------------------------------------------------


def _forty_move_notice(r: Ruling) -> None:
    """Law 22: the weaker side gives notice; the stronger side's own moves are counted from here."""
    if r.game.progress_rule != ProgressRule.FORTY_MOVE_NOTICE:
        raise InvalidRuling(f"This game's progress rule is {r.game.progress_rule}: there is no 40-move notice.")
    forty = r.state["forty"]
    if forty["active"]:
        raise InvalidRuling(f"A 40-move count is already running ({forty['count']} of {FORTY_MOVE_LIMIT}).")
    entry = r.log(Kind.FORTY_MOVE_NOTICE, law="22", data={"stronger_side": opponent(r.side), "start_ply": r.game.ply})
    r.state["forty"] = {"active": True, "start_ply": r.game.ply, "stronger_side": opponent(r.side), "count": 0,
                        "awaiting_ruling": False, "notice_seq": entry.seq}


def _forty_move_ruling(r: Ruling) -> None:
    """Law 22: at 40 moves the referee rules advantage shown (play on) or draw."""
    outcome = _require(r.payload, "outcome", "forty_move_ruling")
    forty = r.state["forty"]
    if outcome not in ("advantage_shown", "draw"):
        raise InvalidRuling("outcome is advantage_shown or draw.", code="validation_error", status_code=400,
                            details={"fields": {"outcome": ["advantage_shown or draw."]}})
    if not forty["active"]:
        raise InvalidRuling("No 40-move count is running.")
    if outcome == "draw" and not forty["awaiting_ruling"]:
        raise InvalidRuling(f"The count is at {forty['count']} of {FORTY_MOVE_LIMIT}: a draw cannot be ruled yet.")
    r.log(Kind.FORTY_MOVE_RULING, law="22", data={"outcome": outcome, "forty_before": dict(forty)},
          side=r.side or "")
    r.state["forty"] = {"active": False, "start_ply": None, "stronger_side": None, "count": 0, "awaiting_ruling": False}
    if outcome == "draw":
        finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_FORTY_MOVE, actor=r.actor, law="22",
               note="No decided advantage shown within 40 moves: drawn (Law 22).")


def _repetition_claim(r: Ruling) -> None:
    """Verifies a claim that the claimant's move repeats the position for the Nth time."""
    threshold = r.game.repetition_threshold
    if not threshold:
        raise InvalidRuling("Repetition is not a rule of this game (no threshold).")
    text = str(_require(r.payload, "move", "repetition_claim"))
    ensure_play_may_go_on(r.state)
    position = r.position()
    if position.side_to_move.value != r.side:
        raise InvalidRuling(f"The claim goes with the claimant's move: it is not {r.side}'s turn.")
    rules = engine_rules(r.game)
    move = parse_move_or_refuse(position, text, rules)
    check_constraints(r.state, r.side, move, position, rules)
    after = position.play(move)
    fen_after = after.fen()
    man_moved = position.piece_at(move.start) in ("b", "w")
    if move.captures or man_moved:
        seen = 0
    else:
        progress = r.state["progress"]
        history = [progress["fen"], *Move.objects.filter(
            game=r.game, superseded_by__isnull=True, ply__gt=progress["ply"]).values_list("fen_after", flat=True)]
        seen = history.count(fen_after)
    occurrence = seen + 1
    if occurrence < threshold:
        raise RepetitionNotEstablished(
            f"the position would occur for the {_ordinal(occurrence)} time; {threshold} are needed",
            details={"move": move.pdn(), "occurrence": occurrence, "threshold": threshold},
        )
    _settle_huff_by_moving(r)
    record_move(r.game, r.state, position, move, entered=text, actor=r.actor)
    r.log(Kind.REPETITION_CLAIM, data={"move": move.pdn(), "occurrence": occurrence, "threshold": threshold})
    finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_REPETITION, actor=r.actor, side=r.side,
           note=f"The position occurred for the {_ordinal(occurrence)} time: drawn by repetition.")


def _settle_huff_by_moving(r: Ruling) -> None:
    for choice in [c for c in r.state["open_choices"] if c["kind"] == "huff" and c["chooser"] == r.side]:
        r.log(Kind.SYSTEM, law="17", data={"choice": "let_stand", "by_default": True, "move": choice["move"]},
              note=f"{r.side.capitalize()} moved without choosing: the failure to capture stands (Law 17).")
        r.state["open_choices"].remove(choice)


def _draw_agreed(r: Ruling) -> None:
    r.log(Kind.DRAW_AGREED, side=r.side or "")
    finish(r.game, result=Game.Result.DRAW, termination=Termination.DRAW_AGREEMENT, actor=r.actor,
           note="Drawn by agreement.")


def _resign(r: Ruling) -> None:
    r.log(Kind.RESIGN)
    finish(r.game, result=win_for(opponent(r.side)), termination=Termination.RESIGNATION, actor=r.actor, side=r.side,
           note=f"{r.side.capitalize()} resigns.")


def _adjudicate(r: Ruling) -> None:
    """The director decides the result, with a reason."""
    if not is_director(r.actor):
        raise NotAllowed("Only a tournament director may adjudicate a game.")
    result = _require(r.payload, "result", "adjudicate")
    reason = str(_require(r.payload, "reason", "adjudicate"))
    if result not in Game.Result.values:
        raise InvalidRuling("result is 1-0, 0-1 or 1/2-1/2.", code="validation_error", status_code=400,
                            details={"fields": {"result": ["1-0, 0-1 or 1/2-1/2."]}})
    r.log(Kind.ADJUDICATE, side=r.side or "", data={"result": result, "reason": reason})
    finish(r.game, result=result, termination=Termination.ADJUDICATION, actor=r.actor, note=reason)


def _spectator(r: Ruling) -> None:
    """Law 31: a spectator interfered; logged against the event, no effect on the game."""
    note = r.note or str(_require(r.payload, "note", "spectator"))
    r.log(Kind.SPECTATOR, law="31", side=r.side or "", note=note)


# --- appeals and corrections --------------------------------------------------------------


def _entry_of(game: Game, seq: Any, name: str) -> LogEntry:
    try:
        number = int(seq)
    except (TypeError, ValueError) as error:
        raise InvalidRuling(f"{name} must be a log entry number.", code="validation_error", status_code=400,
                            details={"fields": {name: ["A log entry number is required."]}}) from error
    entry = LogEntry.objects.filter(game=game, seq=number).first()
    if entry is None:
        raise InvalidRuling(f"There is no log entry #{number} in this game.")
    return entry


def _live_ending(game: Game) -> LogEntry | None:
    """Returns the ``game_end`` entry in force: the last one not superseded (None if there is none)."""
    return (LogEntry.objects.filter(game=game, kind=Kind.GAME_END, superseded_by__isnull=True)
            .order_by("-seq").first())


def _ending_after(game: Game, entry: LogEntry) -> int | None:
    """Returns the id of the ``game_end`` entry that ``entry`` led to: itself, or the first one after it."""
    if entry.kind == Kind.GAME_END:
        return entry.pk
    return (LogEntry.objects.filter(game=game, kind=Kind.GAME_END, seq__gt=entry.seq).order_by("seq")
            .values_list("pk", flat=True).first())


def _bound_seqs(game: Game, entry: LogEntry) -> set[int]:
    """Returns the seqs an appeal on ``entry`` concerns: the entry and the ruling or game end bound to it.

    ``finish`` writes the ``game_end`` entry right after the ruling that ends the game, so an
    appeal on the one is an appeal on the other.
    """
    seqs = {entry.seq}
    if entry.kind == Kind.GAME_END:
        seqs.add(entry.seq - 1)
    elif LogEntry.objects.filter(game=game, seq=entry.seq + 1, kind=Kind.GAME_END).exists():
        seqs.add(entry.seq + 1)
    return seqs


def _is_appeal_decision(entry: LogEntry) -> bool:
    return entry.kind == Kind.APPEAL_DECISION or (
        entry.kind == Kind.GAME_END and entry.data.get("termination") == Termination.APPEAL_DECISION)


def _appeal(r: Ruling) -> None:
    """Law 28: a written statement against a ruling goes to a named, disinterested arbiter.

    One appeal per ruling: another is refused while the first is open, and once it is decided
    (the decision is final). The arbiter is a referee or director, and neither the appellant,
    a player of the game, nor the one who made the ruling appealed.
    """
    target = _entry_of(r.game, _require(r.payload, "entry", "appeal"), "entry")
    statement = str(_require(r.payload, "statement", "appeal"))
    arbiter_name = str(_require(r.payload, "arbiter", "appeal"))
    if _is_appeal_decision(target):
        raise AppealDecided(f"Entry #{target.seq} is an appeal decision: it is final (Law 28).",
                            details={"entry": target.seq})
    if target.kind == Kind.APPEAL:
        raise InvalidRuling(f"Entry #{target.seq} is an appeal: appeal the ruling (entry #{target.data.get('entry')}).")
    bound = _bound_seqs(r.game, target)
    previous = next((a for a in r.state["appeals"] if a["entry"] in bound and a["status"] != "withdrawn"), None)
    if previous is not None and previous["status"] == "open":
        raise InvalidRuling(
            f"Entry #{target.seq} is already under appeal (entry #{previous['seq']}, to {previous['arbiter']}): "
            "the arbiter decides it.", code="appeal_open", status_code=409, details={"appeal": previous["seq"]})
    if previous is not None:
        raise AppealDecided(
            f"Entry #{target.seq} was appealed (entry #{previous['seq']}) and the arbiter decided: "
            f"{previous['status']}. The decision is final (Law 28).",
            details={"appeal": previous["seq"], "decision": previous["status"]})
    arbiter = get_user_model().objects.filter(username=arbiter_name, is_active=True).first()
    if arbiter is None or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(arbiter)):
        raise InvalidRuling(f"{arbiter_name} is not a referee or director who can arbitrate.",
                            code="validation_error", status_code=400,
                            details={"fields": {"arbiter": ["Not a referee or director."]}})
    if r.actor is not None and arbiter.pk == r.actor.pk:
        interest = f"{arbiter_name} files the appeal and cannot decide it"
    elif arbiter.pk in (r.game.black.user_id, r.game.white.user_id):
        interest = f"{arbiter_name} plays in this game"
    elif arbiter.pk == target.actor_id:
        interest = f"{arbiter_name} recorded entry #{target.seq}, the one appealed"
    else:
        interest = ""
    if interest:
        raise InvalidRuling(f"The arbiter must be disinterested (Law 28): {interest}.", code="validation_error",
                            status_code=400, details={"fields": {"arbiter": [f"Not disinterested: {interest}."]}})
    entry = r.log(Kind.APPEAL, law="28", data={"entry": target.seq, "statement": statement, "arbiter": arbiter_name})
    r.state["appeals"].append({"seq": entry.seq, "entry": target.seq, "arbiter": arbiter_name, "side": r.side,
                               "status": "open"})


def _appeal_decision(r: Ruling) -> None:
    """Law 28: the named arbiter decides; final.

    ``upheld``: the ruling and the result stand. ``overturned``: the ruling is undone as a
    correction would undo it; with ``result`` the game ends with it (termination
    ``appeal_decision``), its ``game_end`` superseding the one in force.
    """
    seq = _int(r.payload, "appeal", "appeal_decision")
    appeal = next((a for a in r.state["appeals"] if a["seq"] == seq), None)
    if appeal is None:
        raise InvalidRuling(f"Entry #{seq} is not an appeal of this game.")
    if r.actor is None or r.actor.username != appeal["arbiter"]:
        raise NotAllowed(f"Only the named arbiter ({appeal['arbiter']}) may decide this appeal.")
    if appeal["status"] != "open":
        raise AppealDecided(f"Appeal #{seq} was decided ({appeal['status']}); the decision is final.")
    decision = _require(r.payload, "decision", "appeal_decision")
    reason = str(_require(r.payload, "reason", "appeal_decision"))
    result = r.payload.get("result") or None
    if decision not in ("upheld", "overturned"):
        raise InvalidRuling("decision is upheld or overturned.", code="validation_error", status_code=400,
                            details={"fields": {"decision": ["upheld or overturned."]}})
    if result is not None and result not in Game.Result.values:
        raise InvalidRuling("result is 1-0, 0-1 or 1/2-1/2.", code="validation_error", status_code=400,
                            details={"fields": {"result": ["1-0, 0-1 or 1/2-1/2."]}})
    if decision == "upheld" and result is not None and result != r.game.result:
        raise InvalidRuling("An upheld ruling stands, and so does the result: give a result only when overturning.",
                            code="validation_error", status_code=400,
                            details={"fields": {"result": ["Only with decision overturned."]}})
    appeal["status"] = decision
    data = {"appeal": seq, "entry": appeal["entry"], "decision": decision,
            "result": result if decision == "overturned" else None, "reason": reason}
    if decision == "upheld":
        r.log(Kind.APPEAL_DECISION, law="28", data=data, side=r.side or "", note=r.note or reason)
        return
    previous = _live_ending(r.game) if r.game.status == Game.Status.FINISHED else None
    target = LogEntry.objects.get(game=r.game, seq=appeal["entry"])
    _undo(r, target, kind=Kind.APPEAL_DECISION, law="28", data=data, note=r.note or reason,
          final_result=result is not None)
    if result is not None:
        if previous is not None and LogEntry.objects.filter(supersedes=previous).exists():
            previous = None  # the decision itself superseded it (the game_end was appealed)
        finish(r.game, result=result, termination=Termination.APPEAL_DECISION, actor=r.actor, law="28", note=reason,
               supersedes=previous)


def _correction(r: Ruling) -> None:
    """Supersedes an entry with a reason; the entry's effect is undone.

    An appeal decision, and an entry whose appeal was decided, cannot be corrected: the
    decision is final (Law 28).
    """
    target = _entry_of(r.game, _require(r.payload, "entry", "correction"), "entry")
    reason = str(_require(r.payload, "reason", "correction"))
    if _is_appeal_decision(target):
        raise AppealDecided(f"Entry #{target.seq} is an appeal decision: it is final (Law 28).",
                            details={"entry": target.seq})
    bound = _bound_seqs(r.game, target)
    decided = next((a for a in r.state["appeals"] if a["status"] in ("upheld", "overturned") and (
        a["entry"] in bound or a["seq"] == target.seq)), None)
    if decided is not None:
        raise AppealDecided(
            f"Entry #{target.seq} was appealed (entry #{decided['seq']}) and the arbiter decided: "
            f"{decided['status']}. The decision is final (Law 28); it cannot be corrected.",
            details={"appeal": decided["seq"], "decision": decided["status"]})
    _undo(r, target, kind=Kind.CORRECTION, law="", data={"entry": target.seq, "reason": reason},
          note=r.note or reason)


GAME_ENDING = {
    Kind.FALSE_MOVE: Termination.FORFEIT_FALSE_MOVE,
    Kind.TOUCHED_PIECE_NOT_PLAYED: Termination.FORFEIT_TOUCHED_PIECE_NOT_PLAYED,
    Kind.DRAW_AGREED: Termination.DRAW_AGREEMENT,
    Kind.RESIGN: Termination.RESIGNATION,
    Kind.ADJUDICATE: Termination.ADJUDICATION,
    Kind.REPETITION_CLAIM: Termination.DRAW_REPETITION,
}

NOT_CORRECTABLE = {Kind.GAME_CREATED, Kind.SYSTEM, Kind.CORRECTION, Kind.APPEAL_DECISION, Kind.SPECTATOR}


def _system_ending(game: Game, termination: str | None) -> str | None:
    """Tells why an ending follows from the position or the clock, not from a ruling (None if it does not).

    No correction undoes such an ending: no legal move (Law 23), the 50-move rule, the automatic
    40-move count, a loss by delay (Laws 24-25).
    """
    if termination == Termination.NO_LEGAL_MOVE:
        return "the side to move had no legal move or no piece left (Law 23)"
    if termination == Termination.DRAW_FIFTY_MOVE:
        return "the 50-move rule held"
    if termination == Termination.DRAW_FORTY_MOVE and game.progress_rule == ProgressRule.FORTY_MOVE_AUTOMATIC:
        return "the automatic 40-move count was reached"
    if termination == Termination.LOSS_BY_DELAY:
        return "the clock adjudicated the loss by delay (Laws 24-25)"
    return None


def _undo(r: Ruling, target: LogEntry, *, kind: str, law: str, data: dict[str, Any], note: str,
          final_result: bool = False) -> LogEntry:
    """Writes an entry superseding ``target`` and undoes what ``target`` did (see docs/referee.md).

    An ending the system declared from the position or the clock is not undone by correcting
    its ``game_end`` entry; correcting the move it followed from resumes the game (not after a
    loss by delay, nor after an ending by a ruling: correct that first). When the game resumes,
    the ``game_end`` entry in force is superseded (by this entry when it is the target, else by
    a ``system`` entry), so the log always says how the game stands. ``final_result`` (an
    arbiter's decision with a result) may overturn any ending and leaves the superseding of the
    old ending to the new one.
    """
    game, state = r.game, r.state
    if LogEntry.objects.filter(supersedes=target).exists():
        raise AlreadySuperseded(f"Entry #{target.seq} has already been superseded.")
    if target.kind in NOT_CORRECTABLE:
        raise InvalidRuling(f"Entry #{target.seq} ({target.kind}) cannot be corrected.")
    ending = _live_ending(game) if game.status == Game.Status.FINISHED else None
    if target.kind == Kind.GAME_END and not final_result:
        why = _system_ending(game, target.data.get("termination"))
        if why:
            then = ("the clock's adjudication stands" if target.data.get("termination") == Termination.LOSS_BY_DELAY
                    else "correct the move it followed from instead")
            raise InvalidRuling(f"Entry #{target.seq} is the system's, not a ruling: {why}. It cannot be corrected; "
                                f"{then}.", details={"entry": target.seq, "termination": target.data.get("termination")})
    side = r.side or target.side
    resumed = False
    if target.kind == Kind.MOVE:
        move = Move.objects.filter(log_entry=target).first()
        if move is None or move.superseded_by_id is not None:
            raise AlreadySuperseded(f"The move of entry #{target.seq} is no longer on the line of play.")
        if game.status == Game.Status.FINISHED:
            by_position = _system_ending(game, game.termination) and game.termination != Termination.LOSS_BY_DELAY
            if not (by_position or final_result):
                raise InvalidRuling(
                    f"The game ended by {game.termination}"
                    + (f" (entry #{ending.seq})" if ending is not None else "")
                    + ", which no move correction undoes"
                    + {Termination.LOSS_BY_DELAY: ": the clock's adjudication stands.",
                       Termination.APPEAL_DECISION: ": the arbiter's decision is final (Law 28)."}.get(
                        game.termination, ": correct that ruling first."),
                    details={"termination": game.termination})
            resume(game)
            resumed = True
        entry = apply_put_back(game, state, to_ply=move.ply - 1, kind=kind, side=side, law=law, note=note,
                               data={**data, "move": move.pdn}, actor=r.actor, supersedes=target)
    else:
        entry = _undo_ruling(r, target, kind=kind, law=law, data=data, note=note, side=side)
        if ending is not None and _ending_undone(game, state, target, ending):
            resume(game)
            resumed = True
    if resumed and ending is not None and ending.pk != target.pk and not final_result:
        r.log(Kind.SYSTEM, side="", note=f"The game resumes: entry #{entry.seq} undid what ended it "
              f"(entry #{ending.seq}, {ending.data.get('termination')}).",
              data={"resumed": True, "ending": ending.seq, "by": entry.seq}, supersedes=ending)
    return entry


def _ending_undone(game: Game, state: dict[str, Any], target: LogEntry, ending: LogEntry) -> bool:
    """Tells whether undoing ``target`` takes away the game's ending in force (``ending``).

    A forfeit for offences goes when fewer than two remain counted; an ending a ruling wrote
    itself goes with the ruling, if it is still the one in force.
    """
    if target.kind in OFFENCES:
        return (ending.seq > target.seq and game.termination == OFFENCES[target.kind][2]
                and state["offences"][target.kind][target.side] < 2)
    if _ending_after(game, target) != ending.pk:
        return False
    if target.kind in GAME_ENDING or target.kind == Kind.GAME_END:
        return True
    if target.kind == Kind.FORTY_MOVE_RULING:
        return game.termination == Termination.DRAW_FORTY_MOVE
    if target.kind in (Kind.HUFF, Kind.OWN_PIECE_REMOVED):
        return game.termination == Termination.NO_LEGAL_MOVE
    return False


def _undo_ruling(r: Ruling, target: LogEntry, *, kind: str, law: str, data: dict[str, Any], note: str,
                 side: str) -> LogEntry:
    """Writes the entry superseding a ruling (not a move) and brings the cache back to before it."""
    game, state = r.game, r.state
    if target.kind in (Kind.NOT_CROWNED, Kind.COMPEL):
        raise InvalidRuling(f"Entry #{target.seq} put play back; record the moves again instead of correcting it.")
    if target.kind in (Kind.HUFF, Kind.OWN_PIECE_REMOVED, Kind.LET_STAND) and game.ply != target.ply:
        raise InvalidRuling(f"Play has gone on since entry #{target.seq}; correct the moves after it first.")
    if target.kind in (Kind.HUFF, Kind.OWN_PIECE_REMOVED) and "removed" in target.data:
        # The piece comes back: the position and progress point from just before the entry.
        before = LogEntry.objects.filter(game=game, seq=target.seq - 1).values_list("fen", flat=True).first()
        if before is not None:
            game.fen = before
        previous = LogEntry.objects.filter(game=game, ply=target.ply, seq__lt=target.seq,
                                           data__has_key="progress").order_by("-seq").first()
        state["progress"] = previous.data["progress"] if previous else {"ply": 0, "fen": game.initial_fen}
    entry = r.log(kind, law=law, data=data, side=side, supersedes=target, note=note)
    if target.kind in OFFENCES:
        count = LogEntry.objects.filter(game=game, kind=target.kind, side=target.side,
                                        superseded_by__isnull=True).count()
        state["offences"][target.kind][target.side] = count
    elif target.kind == Kind.FORTY_MOVE_RULING:
        before = target.data.get("forty_before") or {}
        state["forty"] = {**state["forty"], **before}
    elif target.kind == Kind.FORTY_MOVE_NOTICE:
        if state["forty"].get("notice_seq") == target.seq:
            state["forty"] = {"active": False, "start_ply": None, "stronger_side": None, "count": 0,
                              "awaiting_ruling": False}
    elif target.kind == Kind.OVER_THE_ANGLE:
        state["constraints"] = [c for c in state["constraints"] if not (
            c["kind"] == "over_the_angle" and c["side"] == target.side and c["square"] == target.data.get("square"))]
    elif target.kind in (Kind.HUFF, Kind.OWN_PIECE_REMOVED, Kind.LET_STAND):
        if target.kind in (Kind.HUFF, Kind.LET_STAND) and "choice" in target.data:
            state["open_choices"].append(target.data["choice"])
        if target.kind == Kind.OWN_PIECE_REMOVED:
            state["open_choices"] = [c for c in state["open_choices"] if c["kind"] != "own_piece_removed"]
    elif target.kind == Kind.APPEAL:
        for appeal in state["appeals"]:
            if appeal["seq"] == target.seq and appeal["status"] == "open":
                appeal["status"] = "withdrawn"
    return entry


# --- dispatch ---------------------------------------------------------------------------------


RULINGS: dict[str, Callable[[Ruling], None]] = {
    Kind.FALSE_MOVE: _false_move,
    Kind.TOUCH_OFFENCE: lambda r: _offence(r, Kind.TOUCH_OFFENCE),
    Kind.TOUCHED_PIECE_NOT_PLAYED: _touched_piece_not_played,
    Kind.OVER_THE_ANGLE: _over_the_angle,
    Kind.OWN_PIECE_REMOVED: _own_piece_removed,
    Kind.NOT_CROWNED: _not_crowned,
    Kind.HUFF: _huff,
    Kind.COMPEL: _compel,
    Kind.LET_STAND: _let_stand,
    Kind.CONDUCT: lambda r: _offence(r, Kind.CONDUCT),
    Kind.LEFT_ROOM: lambda r: _offence(r, Kind.LEFT_ROOM),
    Kind.SPECTATOR: _spectator,
    Kind.FORTY_MOVE_NOTICE: _forty_move_notice,
    Kind.FORTY_MOVE_RULING: _forty_move_ruling,
    Kind.REPETITION_CLAIM: _repetition_claim,
    Kind.DRAW_AGREED: _draw_agreed,
    Kind.RESIGN: _resign,
    Kind.ADJUDICATE: _adjudicate,
    Kind.APPEAL: _appeal,
    Kind.APPEAL_DECISION: _appeal_decision,
    Kind.CORRECTION: _correction,
    **CLOCK_RULINGS,
}


def _authorise(game: Game, user: Any, kind: str, side: str) -> str:
    """Checks who may issue the ruling; returns the side (a player's appeal is his colour)."""
    if kind == Kind.APPEAL_DECISION:
        if user is None or not user.is_authenticated:
            raise NotAllowed("Only the named arbiter may decide an appeal.")
        return side  # the arbiter is checked against the appeal
    if kind == Kind.APPEAL and not is_staff_of(game, user):
        player_side = None
        if user is not None and user.is_authenticated:
            if game.black.user_id == user.pk:
                player_side = "black"
            elif game.white.user_id == user.pk:
                player_side = "white"
        if player_side is None:
            raise NotAllowed("A player may appeal only on his own game.")
        if side and side != player_side:
            raise NotAllowed(f"You play {player_side}: you may appeal only for your side.")
        return player_side
    if kind == Kind.ADJUDICATE:
        if not is_director(user):
            raise NotAllowed("Only a tournament director may adjudicate a game.")
        return side
    authorise_staff(game, user)
    return side


def ruling_issue(*, acting_user: Any, game_id: int, kind: str, side: str | None = None, note: str = "",
                 payload: dict[str, Any] | None = None) -> Game:
    """Records a ruling on a game and applies what the laws say it does; returns the game.

    Locks the game row, authorises (assigned referee or director; a player for an appeal on
    his own game; the named arbiter for a decision; a director to adjudicate), checks that the
    ruling applies now (422 ``invalid_ruling`` with the reason otherwise), writes the entry
    and saves the game's state. A ruling on a game whose loss by delay fell due first is
    refused with ``game_over``; the loss stays on the record.
    """
    game, refused = _ruling_issue(acting_user=acting_user, game_id=game_id, kind=kind, side=side, note=note,
                                  payload=payload)
    if refused is not None:
        raise refused
    return game


@transaction.atomic
def _ruling_issue(*, acting_user: Any, game_id: int, kind: str, side: str | None, note: str,
                  payload: dict[str, Any] | None) -> tuple[Game, Exception | None]:
    if kind not in RULINGS:
        raise InvalidRuling(f"Unknown ruling {kind!r}; one of {', '.join(RULINGS)}.", code="validation_error",
                            status_code=400, details={"fields": {"kind": [f"Unknown ruling {kind!r}."]}})
    side = side or ""
    if side not in ("", "black", "white"):
        raise InvalidRuling("side is black or white.", code="validation_error", status_code=400,
                            details={"fields": {"side": ["black or white."]}})
    game = game_lock(game_id)
    side = _authorise(game, acting_user, kind, side)
    if kind in NEEDS_SIDE and not side:
        raise InvalidRuling(f"A {kind} ruling needs the side it concerns.", code="validation_error", status_code=400,
                            details={"fields": {"side": ["This field is required."]}})
    if kind not in AFTER_THE_GAME:
        start_if_scheduled(game, acting_user)
        ensure_in_progress(game)
        if clock_of(game) is not None and clock_enforce(game, db_now()) and game.is_finished:
            return game, game_over(game)  # the loss by delay fell due first: it is written, the ruling refused
    state = arbitration_state(game)
    ruling = Ruling(game, state, acting_user, side, note or "", payload or {})
    RULINGS[kind](ruling)
    if game.status == Game.Status.FINISHED:
        state["open_choices"] = []
        state["constraints"] = []
    save_game(game, state)
    return game, None


__all__ = ["RULING_KINDS", "ruling_issue"]

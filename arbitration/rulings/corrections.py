"""Corrections: an entry superseded with a reason and its effect undone; play put back after a man
was not crowned (Law 15). An arbiter's decision undoes a ruling the same way (``undo``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from arbitration.errors import (
    AlreadySuperseded,
    AppealDecided,
    InvalidRuling,
)
from arbitration.lifecycle import (
    resume,
)
from arbitration.models import LogEntry
from arbitration.moves import (
    apply_put_back,
)
from arbitration.rulings.base import Ruling
from arbitration.rulings.penalties import OFFENCES
from arbitration.state import FortyCount, PendingState, Progress, choice_from_json
from games.models import Game, Move, ProgressRule, Termination

Kind = LogEntry.Kind


def not_crowned(r: Ruling) -> None:
    """Law 15: play after a man reached the king row uncrowned is put back to the crowning."""
    ply = r.payload["ply"]
    move = Move.objects.filter(game=r.game, superseded_by__isnull=True, ply=ply).first()
    if move is None or ply >= r.game.ply:
        raise InvalidRuling(f"Ply {ply} is not a move followed by play on the current line.")
    if not move.crowns:
        raise InvalidRuling(f"The move at ply {ply} ({move.pdn}) does not reach the king row.")
    _entry, r.state = apply_put_back(
        r.game, r.state, to_ply=ply, kind=Kind.NOT_CROWNED, side=r.side, law="15", note=r.note,
        data={"crowning_ply": ply, "square": move.path[-1]}, actor=r.actor,
    )


def entry_of(game: Game, seq: int) -> LogEntry:
    """Returns the game's log entry ``seq`` (422 when there is none)."""
    entry = LogEntry.objects.filter(game=game, seq=seq).first()
    if entry is None:
        raise InvalidRuling(f"There is no log entry #{seq} in this game.")
    return entry


def live_ending(game: Game) -> LogEntry | None:
    """Returns the ``game_end`` entry in force: the last one not superseded (None if there is none)."""
    return (LogEntry.objects.filter(game=game, kind=Kind.GAME_END, superseded_by__isnull=True)
            .order_by("-seq").first())


def _ending_after(game: Game, entry: LogEntry) -> int | None:
    """Returns the id of the ``game_end`` entry that ``entry`` led to: itself, or the first one after it."""
    if entry.kind == Kind.GAME_END:
        return entry.pk
    return (LogEntry.objects.filter(game=game, kind=Kind.GAME_END, seq__gt=entry.seq).order_by("seq")
            .values_list("pk", flat=True).first())


def bound_seqs(game: Game, entry: LogEntry) -> set[int]:
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


def is_appeal_decision(entry: LogEntry) -> bool:
    return entry.kind == Kind.APPEAL_DECISION or (
        entry.kind == Kind.GAME_END and entry.data.get("termination") == Termination.APPEAL_DECISION)


def correction(r: Ruling) -> None:
    """Supersedes an entry with a reason; the entry's effect is undone.

    An appeal decision, and an entry whose appeal was decided, cannot be corrected: the
    decision is final (Law 28).
    """
    target = entry_of(r.game, r.payload["entry"])
    reason = r.payload["reason"]
    if is_appeal_decision(target):
        raise AppealDecided(f"Entry #{target.seq} is an appeal decision: it is final (Law 28).",
                            details={"entry": target.seq})
    bound = bound_seqs(r.game, target)
    decided = r.state.decided_appeal_on(bound, target.seq)
    if decided is not None:
        raise AppealDecided(
            f"Entry #{target.seq} was appealed (entry #{decided.seq}) and the arbiter decided: "
            f"{decided.status}. The decision is final (Law 28); it cannot be corrected.",
            details={"appeal": decided.seq, "decision": decided.status})
    undo(r, target, kind=Kind.CORRECTION, law="", data={"entry": target.seq, "reason": reason},
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


def undo(r: Ruling, target: LogEntry, *, kind: str, law: str, data: dict[str, Any], note: str,
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
    game = r.game
    if LogEntry.objects.filter(supersedes=target).exists():
        raise AlreadySuperseded(f"Entry #{target.seq} has already been superseded.")
    if target.kind in NOT_CORRECTABLE:
        raise InvalidRuling(f"Entry #{target.seq} ({target.kind}) cannot be corrected.")
    ending = live_ending(game) if game.status == Game.Status.FINISHED else None
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
        entry, r.state = apply_put_back(
            game, r.state, to_ply=move.ply - 1, kind=kind, side=side, law=law, note=note,
            data={**data, "move": move.pdn}, actor=r.actor, supersedes=target,
        )
    else:
        entry = _undo_ruling(r, target, kind=kind, law=law, data=data, note=note, side=side)
        if ending is not None and _ending_undone(game, r.state, target, ending):
            resume(game)
            resumed = True
    if resumed and ending is not None and ending.pk != target.pk and not final_result:
        r.log(Kind.SYSTEM, side="", note=f"The game resumes: entry #{entry.seq} undid what ended it "
              f"(entry #{ending.seq}, {ending.data.get('termination')}).",
              data={"resumed": True, "ending": ending.seq, "by": entry.seq}, supersedes=ending)
    return entry


def _ending_undone(game: Game, state: PendingState, target: LogEntry, ending: LogEntry) -> bool:
    """Tells whether undoing ``target`` takes away the game's ending in force (``ending``).

    A forfeit for offences goes when fewer than two remain counted; an ending a ruling wrote
    itself goes with the ruling, if it is still the one in force.
    """
    if target.kind in OFFENCES:
        return (ending.seq > target.seq and game.termination == OFFENCES[target.kind][2]
                and state.offences.count(target.kind, target.side) < 2)
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
    """Writes the entry superseding a ruling (not a move) and brings the pending state back to before it."""
    game = r.game
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
        progress = (Progress.from_json(previous.data["progress"]) if previous
                    else Progress(ply=0, fen=game.initial_fen))
        r.state = replace(r.state, progress=progress)
    entry = r.log(kind, law=law, data=data, side=side, supersedes=target, note=note)
    if target.kind in OFFENCES:
        count = LogEntry.objects.filter(game=game, kind=target.kind, side=target.side,
                                        superseded_by__isnull=True).count()
        r.state = replace(r.state, offences=r.state.offences.with_count(target.kind, target.side, count))
    elif target.kind == Kind.FORTY_MOVE_RULING:
        r.state = replace(r.state, forty=r.state.forty.restored(target.data.get("forty_before") or {}))
    elif target.kind == Kind.FORTY_MOVE_NOTICE:
        if r.state.forty.notice_seq == target.seq:
            r.state = replace(r.state, forty=FortyCount.inactive())
    elif target.kind == Kind.OVER_THE_ANGLE:
        r.state = r.state.without_over_the_angle(target.side, target.data.get("square"))
    elif target.kind in (Kind.HUFF, Kind.OWN_PIECE_REMOVED, Kind.LET_STAND):
        if target.kind in (Kind.HUFF, Kind.LET_STAND) and "choice" in target.data:
            r.state = r.state.with_choice(choice_from_json(target.data["choice"]))
        if target.kind == Kind.OWN_PIECE_REMOVED:
            r.state = r.state.without_own_piece_choices()
    elif target.kind == Kind.APPEAL:
        r.state = r.state.with_appeal_withdrawn(target.seq)
    return entry

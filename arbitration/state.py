"""The pending state of a game's arbitration, typed: pure values and functions, no Django, no ORM.

``Game.arbitration`` (a JSONField) caches what the log says is pending, so a move needs no
replay. This module is its typed form: frozen dataclasses loaded and saved with
``PendingState.from_json`` and ``PendingState.to_json`` (as ``timecontrol.ClockState`` is for
the clock), and the laws that read it written once:

- ``open_choices``: a choice a side must or may make before play goes on: the huff of Laws
  16-17 (``HuffChoice``) and Law 12's own piece removed (``OwnPieceChoice``);
- ``constraints``: how the next move of a side is bound: Law 20's piece moved over the angle
  (``OverTheAngle``) and Law 17's compelled capture (``CompelledCapture``); ``allowed_moves``
  and ``constraint_violation`` apply them;
- ``forty``: the Law 22 count on notice (``FortyCount``);
- ``progress``: the last point of no return (``Progress``: ply and fen after the last capture,
  man move or piece removed by a ruling); positions before it cannot recur, and the automatic
  40-move and the 50-move counts are the plies since it;
- ``offences``: the counts of Laws 18, 29 and 30 per side (``Offences``);
- ``appeals``: the appeals filed, open or decided (``Appeal``).

The JSON form is the one stored in the database and shown by the API; ``to_json`` writes
exactly the keys, in the order, that the services have always written, so that
``PendingState.from_json(d, fen).to_json() == d``. Every value is immutable: a change is a new
value (``dataclasses.replace`` or the ``with_*``/``without_*`` methods).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from games.rules import Move, Position, RuleSet

FORTY_MOVE_LIMIT = 40  # the stronger side's moves counted after a 40-move notice (Law 22)
AUTOMATIC_FORTY_PLIES = 80  # 40 moves by each side without a capture or a man move (WCDF)
FIFTY_MOVE_PLIES = 100  # 50 moves by each side without a man move or a piece removed (Pask)

SIDES = ("black", "white")
OFFENCE_KINDS = ("touch_offence", "conduct", "left_room")

HUFF = "huff"
OWN_PIECE_REMOVED = "own_piece_removed"
OVER_THE_ANGLE = "over_the_angle"
COMPELLED_CAPTURE = "compelled_capture"

APPEAL_OPEN = "open"
APPEAL_UPHELD = "upheld"
APPEAL_OVERTURNED = "overturned"
APPEAL_WITHDRAWN = "withdrawn"
APPEAL_DECIDED = (APPEAL_UPHELD, APPEAL_OVERTURNED)

FORTY_MOVE_RULING = "forty_move_ruling"  # the kind of block while a 40-move ruling is due


def _opponent(side: str) -> str:
    return "white" if side == "black" else "black"


# --- open choices ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HuffChoice:
    """Laws 16-17: ``offender`` did not capture; ``chooser`` may huff, compel or let it stand.

    ``move`` is the offending move (PDN), ``pieces`` the squares of the offender's pieces that
    could have captured (one of them is huffed), ``ply`` the ply of the offending move.
    """

    chooser: str
    offender: str
    move: str
    pieces: tuple[int, ...]
    ply: int
    law: str = "16"
    kind: str = field(default=HUFF, init=False)

    @classmethod
    def opened(cls, *, offender: str, move: str, pieces: Iterable[int], ply: int) -> HuffChoice:
        """Returns the choice opened by ``offender``'s failure to capture (his opponent chooses)."""
        return cls(chooser=_opponent(offender), offender=offender, move=move, pieces=tuple(pieces), ply=ply)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HuffChoice:
        return cls(chooser=data["chooser"], offender=data["offender"], move=data["move"],
                   pieces=tuple(data["pieces"]), ply=data["ply"], law=data.get("law", "16"))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "law": self.law, "chooser": self.chooser, "offender": self.offender,
                "move": self.move, "pieces": list(self.pieces), "ply": self.ply}


@dataclass(frozen=True, slots=True)
class OwnPieceChoice:
    """Law 12: ``offender`` removed his own piece from ``square``; ``chooser`` says play on or put back."""

    chooser: str
    offender: str
    square: int
    law: str = "12"
    kind: str = field(default=OWN_PIECE_REMOVED, init=False)

    @classmethod
    def opened(cls, *, offender: str, square: int) -> OwnPieceChoice:
        """Returns the choice opened when ``offender`` removed his own piece (his opponent chooses)."""
        return cls(chooser=_opponent(offender), offender=offender, square=square)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OwnPieceChoice:
        return cls(chooser=data["chooser"], offender=data["offender"], square=data["square"],
                   law=data.get("law", "12"))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "law": self.law, "chooser": self.chooser, "offender": self.offender,
                "square": self.square}


OpenChoice = HuffChoice | OwnPieceChoice


def choice_from_json(data: Mapping[str, Any]) -> OpenChoice:
    """Reads an open choice from its JSON form (``kind`` huff or own_piece_removed)."""
    kind = data.get("kind")
    if kind == HUFF:
        return HuffChoice.from_json(data)
    if kind == OWN_PIECE_REMOVED:
        return OwnPieceChoice.from_json(data)
    raise ValueError(f"unknown open choice kind {kind!r}")


# --- constraints on the next move --------------------------------------------------------------


def _toward(move: Move, square: int, toward: int) -> bool:
    """Tells whether ``move`` takes the piece on ``square`` toward ``toward`` (its first step or first capture)."""
    return move.start == square and (move.path[1] == toward or bool(move.captures and move.captures[0] == toward))


@dataclass(frozen=True, slots=True)
class OverTheAngle:
    """Law 20: ``side``'s piece on ``square`` was moved over the angle toward ``toward``; the move goes that way."""

    side: str
    square: int
    toward: int
    law: str = "20"
    kind: str = field(default=OVER_THE_ANGLE, init=False)

    def allows(self, move: Move) -> bool:
        return _toward(move, self.square, self.toward)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OverTheAngle:
        return cls(side=data["side"], square=data["square"], toward=data["toward"], law=data.get("law", "20"))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "law": self.law, "side": self.side, "square": self.square,
                "toward": self.toward}


@dataclass(frozen=True, slots=True)
class CompelledCapture:
    """Law 17: ``side``'s failure to capture was taken back; his next move must capture."""

    side: str
    law: str = "17"
    kind: str = field(default=COMPELLED_CAPTURE, init=False)

    def allows(self, move: Move) -> bool:
        return bool(move.captures)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CompelledCapture:
        return cls(side=data["side"], law=data.get("law", "17"))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "law": self.law, "side": self.side}


Constraint = OverTheAngle | CompelledCapture


def constraint_from_json(data: Mapping[str, Any]) -> Constraint:
    """Reads a constraint from its JSON form (``kind`` over_the_angle or compelled_capture)."""
    kind = data.get("kind")
    if kind == OVER_THE_ANGLE:
        return OverTheAngle.from_json(data)
    if kind == COMPELLED_CAPTURE:
        return CompelledCapture.from_json(data)
    raise ValueError(f"unknown constraint kind {kind!r}")


# --- the 40-move count, the progress point, the offences, the appeals ----------------------------


@dataclass(frozen=True, slots=True)
class FortyCount:
    """Law 22: after the weaker side's notice, the stronger side's own moves are counted up to 40.

    ``notice_seq`` is the seq of the notice's log entry (absent from the JSON when unknown).
    """

    active: bool = False
    start_ply: int | None = None
    stronger_side: str | None = None
    count: int = 0
    awaiting_ruling: bool = False
    notice_seq: int | None = None

    @classmethod
    def inactive(cls) -> FortyCount:
        """Returns no count running: the state before any notice and after a ruling."""
        return cls()

    @classmethod
    def on_notice(cls, *, start_ply: int, stronger_side: str, notice_seq: int) -> FortyCount:
        """Returns the count started by a notice at ``start_ply`` (log entry ``notice_seq``)."""
        return cls(active=True, start_ply=start_ply, stronger_side=stronger_side, notice_seq=notice_seq)

    def counted(self, side: str) -> FortyCount:
        """Returns the count after a move by ``side``: one more for the stronger side, a ruling due at 40."""
        if not self.active or side != self.stronger_side:
            return self
        return self.recounted(self.start_ply, self.count + 1)  # type: ignore[arg-type]

    def recounted(self, start_ply: int, count: int) -> FortyCount:
        """Returns the count from ``start_ply`` at ``count`` moves (a ruling due at 40)."""
        return replace(self, start_ply=start_ply, count=count, awaiting_ruling=count >= FORTY_MOVE_LIMIT)

    def start_after_put_back(self, to_ply: int) -> int:
        """Returns where the count starts once play is put back to ``to_ply`` (not after it)."""
        assert self.start_ply is not None
        return min(self.start_ply, to_ply)

    def restored(self, before: Mapping[str, Any]) -> FortyCount:
        """Returns this count with the fields of ``before`` (a ruling's ``forty_before``) laid over it."""
        return FortyCount.from_json({**self.to_json(), **before})

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> FortyCount:
        if not data:
            return cls()
        return cls(active=data["active"], start_ply=data["start_ply"], stronger_side=data["stronger_side"],
                   count=data["count"], awaiting_ruling=data["awaiting_ruling"], notice_seq=data.get("notice_seq"))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"active": self.active, "start_ply": self.start_ply,
                                "stronger_side": self.stronger_side, "count": self.count,
                                "awaiting_ruling": self.awaiting_ruling}
        if self.notice_seq is not None:
            data["notice_seq"] = self.notice_seq
        return data


@dataclass(frozen=True, slots=True)
class Progress:
    """The last point of no return: the ply and the position after it (0 and the start position at first)."""

    ply: int
    fen: str

    def plies_since(self, ply: int) -> int:
        """Returns the plies played from this point to ``ply``."""
        return ply - self.ply

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Progress:
        return cls(ply=data["ply"], fen=data["fen"])

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "fen": self.fen}


@dataclass(frozen=True, slots=True)
class SideCounts:
    """A count per side."""

    black: int = 0
    white: int = 0

    def of(self, side: str) -> int:
        return self.black if side == "black" else self.white

    def with_count(self, side: str, count: int) -> SideCounts:
        return replace(self, black=count) if side == "black" else replace(self, white=count)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> SideCounts:
        data = data or {}
        return cls(black=data.get("black", 0), white=data.get("white", 0))

    def to_json(self) -> dict[str, int]:
        return {"black": self.black, "white": self.white}


@dataclass(frozen=True, slots=True)
class Offences:
    """The offences counted per side: touch (Law 18), conduct (Law 29), leaving the room (Law 30)."""

    touch_offence: SideCounts = SideCounts()
    conduct: SideCounts = SideCounts()
    left_room: SideCounts = SideCounts()

    def of(self, kind: str) -> SideCounts:
        if kind not in OFFENCE_KINDS:
            raise ValueError(f"unknown offence kind {kind!r}")
        return getattr(self, kind)

    def count(self, kind: str, side: str) -> int:
        return self.of(kind).of(side)

    def with_count(self, kind: str, side: str, count: int) -> Offences:
        """Returns the counts with ``kind`` of ``side`` at ``count`` (recounted from the log on a correction)."""
        return replace(self, **{kind: self.of(kind).with_count(side, count)})

    def incremented(self, kind: str, side: str) -> Offences:
        """Returns the counts with one more ``kind`` offence by ``side``."""
        return self.with_count(kind, side, self.count(kind, side) + 1)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Offences:
        data = data or {}
        return cls(**{kind: SideCounts.from_json(data.get(kind)) for kind in OFFENCE_KINDS})

    def to_json(self) -> dict[str, dict[str, int]]:
        return {kind: self.of(kind).to_json() for kind in OFFENCE_KINDS}


@dataclass(frozen=True, slots=True)
class Appeal:
    """Law 28: the appeal of log entry ``seq`` against entry ``entry``, to ``arbiter``, by ``side``."""

    seq: int
    entry: int
    arbiter: str
    side: str
    status: str = APPEAL_OPEN

    @property
    def decided(self) -> bool:
        return self.status in APPEAL_DECIDED

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Appeal:
        return cls(seq=data["seq"], entry=data["entry"], arbiter=data["arbiter"], side=data["side"],
                   status=data["status"])

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "entry": self.entry, "arbiter": self.arbiter, "side": self.side,
                "status": self.status}


# --- the whole pending state -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PendingState:
    """What is pending in a game: open choices, constraints, the 40-move count, progress, offences, appeals."""

    progress: Progress
    open_choices: tuple[OpenChoice, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    forty: FortyCount = FortyCount()
    offences: Offences = Offences()
    appeals: tuple[Appeal, ...] = ()

    @classmethod
    def initial(cls, initial_fen: str) -> PendingState:
        """Returns the state of a new game starting from ``initial_fen``."""
        return cls(progress=Progress(ply=0, fen=initial_fen))

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, initial_fen: str) -> PendingState:
        """Reads the state from ``Game.arbitration``; a missing key is its default (as for a new game)."""
        data = data or {}
        progress = data.get("progress")
        return cls(
            open_choices=tuple(choice_from_json(c) for c in data.get("open_choices") or ()),
            constraints=tuple(constraint_from_json(c) for c in data.get("constraints") or ()),
            forty=FortyCount.from_json(data.get("forty")),
            progress=Progress.from_json(progress) if progress else Progress(ply=0, fen=initial_fen),
            offences=Offences.from_json(data.get("offences")),
            appeals=tuple(Appeal.from_json(a) for a in data.get("appeals") or ()),
        )

    def to_json(self) -> dict[str, Any]:
        """Returns the JSON form stored in ``Game.arbitration`` (fresh lists and dicts)."""
        return {
            "open_choices": [c.to_json() for c in self.open_choices],
            "constraints": [c.to_json() for c in self.constraints],
            "forty": self.forty.to_json(),
            "progress": self.progress.to_json(),
            "offences": self.offences.to_json(),
            "appeals": [a.to_json() for a in self.appeals],
        }

    # open choices

    def with_choice(self, choice: OpenChoice) -> PendingState:
        """Returns the state with ``choice`` open (after the others)."""
        return replace(self, open_choices=(*self.open_choices, choice))

    def without_choice(self, choice: OpenChoice) -> PendingState:
        """Returns the state with ``choice`` (its first occurrence) no longer open."""
        choices = list(self.open_choices)
        choices.remove(choice)
        return replace(self, open_choices=tuple(choices))

    def huff_choices_of(self, chooser: str) -> tuple[HuffChoice, ...]:
        """Returns the huff choices open to ``chooser``, oldest first."""
        return tuple(c for c in self.open_choices if isinstance(c, HuffChoice) and c.chooser == chooser)

    def huff_choice_of(self, chooser: str) -> HuffChoice | None:
        """Returns the first huff choice open to ``chooser`` (None if none)."""
        return next(iter(self.huff_choices_of(chooser)), None)

    def without_huff_choices_of(self, chooser: str) -> PendingState:
        """Returns the state without the huff choices of ``chooser`` (he moved without choosing: they stand)."""
        return replace(self, open_choices=tuple(
            c for c in self.open_choices if not (isinstance(c, HuffChoice) and c.chooser == chooser)))

    def own_piece_choice_of(self, offender: str) -> OwnPieceChoice | None:
        """Returns the open Law 12 choice on ``offender``'s removal (None if none)."""
        return next((c for c in self.open_choices if isinstance(c, OwnPieceChoice) and c.offender == offender),
                    None)

    def without_own_piece_choices(self) -> PendingState:
        """Returns the state without any Law 12 choice open."""
        return replace(self, open_choices=tuple(c for c in self.open_choices if not isinstance(c, OwnPieceChoice)))

    # constraints

    def with_constraint(self, constraint: Constraint) -> PendingState:
        """Returns the state with ``constraint`` replacing any of its kind on the same side (last in the list)."""
        kept = tuple(c for c in self.constraints if not (c.kind == constraint.kind and c.side == constraint.side))
        return replace(self, constraints=(*kept, constraint))

    def without_constraints_on(self, side: str) -> PendingState:
        """Returns the state without the constraints on ``side`` (his move met them)."""
        return replace(self, constraints=tuple(c for c in self.constraints if c.side != side))

    def without_over_the_angle(self, side: str, square: int | None) -> PendingState:
        """Returns the state without Law 20's constraint on ``side``'s piece on ``square`` (a corrected ruling)."""
        return replace(self, constraints=tuple(c for c in self.constraints if not (
            isinstance(c, OverTheAngle) and c.side == side and c.square == square)))

    def constraints_on(self, side: str) -> tuple[Constraint, ...]:
        return tuple(c for c in self.constraints if c.side == side)

    def cleared(self) -> PendingState:
        """Returns the state with no open choice and no constraint (the game is over)."""
        return replace(self, open_choices=(), constraints=())

    # moves, progress, putting play back

    def with_progress(self, ply: int, fen: str) -> PendingState:
        """Returns the state with the point of no return at ``ply``, position ``fen``."""
        return replace(self, progress=Progress(ply=ply, fen=fen))

    def after_move(self, *, side: str, ply: int, fen: str, progress: bool) -> PendingState:
        """Returns the state after ``side``'s move to ``ply`` (position ``fen``).

        ``progress``: the move captured or moved a man (a point of no return). The constraints
        on the mover end: his move met them. The 40-move count is ``forty.counted`` in
        ``after_move`` of the services, once the game is known to go on.
        """
        state = self.without_constraints_on(side)
        return state.with_progress(ply, fen) if progress else state

    def put_back(self, progress: Progress, constraints: Iterable[Constraint] = ()) -> PendingState:
        """Returns the state once play is put back: the point of no return then, no choice, ``constraints``.

        The 40-move count is recounted by the caller (``forty.start_after_put_back`` and
        ``forty.recounted``), from the moves on the line.
        """
        return replace(self, progress=progress, open_choices=(), constraints=tuple(constraints))

    def plies_since_progress(self, ply: int) -> int:
        return self.progress.plies_since(ply)

    # offences

    def with_offence(self, kind: str, side: str) -> PendingState:
        """Returns the state with one more ``kind`` offence by ``side``."""
        return replace(self, offences=self.offences.incremented(kind, side))

    # appeals

    def with_appeal(self, appeal: Appeal) -> PendingState:
        return replace(self, appeals=(*self.appeals, appeal))

    def appeal(self, seq: int) -> Appeal | None:
        """Returns the appeal of log entry ``seq`` (None if none)."""
        return next((a for a in self.appeals if a.seq == seq), None)

    def appeal_on(self, entries: Collection[int]) -> Appeal | None:
        """Returns the first appeal, not withdrawn, against one of ``entries`` (None if none)."""
        return next((a for a in self.appeals if a.entry in entries and a.status != APPEAL_WITHDRAWN), None)

    def decided_appeal_on(self, entries: Collection[int], seq: int) -> Appeal | None:
        """Returns the first decided appeal against one of ``entries`` or which is entry ``seq`` (None if none)."""
        return next((a for a in self.appeals if a.decided and (a.entry in entries or a.seq == seq)), None)

    def with_appeal_status(self, seq: int, status: str) -> PendingState:
        """Returns the state with the appeal ``seq`` at ``status``."""
        return replace(self, appeals=tuple(replace(a, status=status) if a.seq == seq else a for a in self.appeals))

    def with_appeal_withdrawn(self, seq: int) -> PendingState:
        """Returns the state with the appeal ``seq`` withdrawn if it is open (its entry was corrected)."""
        return replace(self, appeals=tuple(
            replace(a, status=APPEAL_WITHDRAWN) if a.seq == seq and a.status == APPEAL_OPEN else a
            for a in self.appeals))


# --- the laws on the pending state: pure functions ------------------------------------------


def over_the_angle_moves(position: Position, rules: RuleSet, square: int, toward: int) -> list[Move]:
    """Returns the legal moves of the piece on ``square`` toward ``toward`` (Law 20), in the engine's order."""
    return [m for m in position.legal_moves(rules) if _toward(m, square, toward)]


def allowed_moves(constraints: Iterable[Constraint], side: str, position: Position, rules: RuleSet) -> list[Move]:
    """Returns the legal moves that meet every constraint on ``side`` (Laws 17, 20), in the engine's order."""
    moves = position.legal_moves(rules)
    for constraint in constraints:
        if constraint.side == side:
            moves = [m for m in moves if constraint.allows(m)]
    return moves


@dataclass(frozen=True, slots=True)
class Violation:
    """A move that breaks ``constraint``; ``allowed`` are the legal moves that meet it (PDN, engine's order)."""

    constraint: Constraint
    move: str
    allowed: tuple[str, ...]

    @property
    def law(self) -> str:
        return self.constraint.law

    def message(self) -> str:
        """Returns the refusal's message (the API's ``illegal_move``)."""
        c = self.constraint
        if isinstance(c, OverTheAngle):
            return (f"the piece on {c.square} was moved over the angle toward {c.toward}: the move must be "
                    f"completed that way (Law {c.law}): {', '.join(self.allowed) or 'no such move'}")
        return f"the capture was compelled (Law {c.law}): {', '.join(self.allowed)}"

    def details(self) -> dict[str, Any]:
        """Returns the refusal's details: the move, the moves allowed, the law."""
        return {"move": self.move, "legal_moves": list(self.allowed), "law": self.law}


def constraint_violation(constraints: Iterable[Constraint], side: str, move: Move, position: Position,
                         rules: RuleSet) -> Violation | None:
    """Returns the first constraint on ``side`` that ``move`` breaks (None if it meets them all).

    The moves allowed are those that meet that constraint, as the refusal has always listed them.
    """
    for constraint in constraints:
        if constraint.side == side and not constraint.allows(move):
            allowed = tuple(m.pdn() for m in position.legal_moves(rules) if constraint.allows(m))
            return Violation(constraint=constraint, move=move.pdn(), allowed=allowed)
    return None


@dataclass(frozen=True, slots=True)
class Blocked:
    """Why play must wait: ``kind`` is ``forty_move_ruling`` (a ruling is due) or ``own_piece_removed`` (a choice)."""

    kind: str
    message: str
    details: dict[str, Any]

    @property
    def ruling_required(self) -> bool:
        """True: the API's ``ruling_required``; False: ``choice_required``."""
        return self.kind == FORTY_MOVE_RULING


def play_blocked(state: PendingState) -> Blocked | None:
    """Returns why a move (or a claim that goes with one) must wait, or None if play may go on.

    A 40-move ruling is due (Law 22), or a Law 12 choice is open.
    """
    if state.forty.awaiting_ruling:
        return Blocked(
            kind=FORTY_MOVE_RULING,
            message=f"The stronger side has made {state.forty.count} moves since the 40-move notice: "
                    "the referee must rule advantage shown or draw (Law 22) before play goes on.",
            details={"kind": FORTY_MOVE_RULING},
        )
    for choice in state.open_choices:
        if isinstance(choice, OwnPieceChoice):
            return Blocked(
                kind=OWN_PIECE_REMOVED,
                message=f"{choice.chooser.capitalize()} must choose first: play on or have the piece on "
                        f"{choice.square} put back (Law 12).",
                details={"choice": choice.to_json()},
            )
    return None


__all__ = [
    "AUTOMATIC_FORTY_PLIES", "FIFTY_MOVE_PLIES", "FORTY_MOVE_LIMIT", "OFFENCE_KINDS", "Appeal", "Blocked",
    "CompelledCapture", "Constraint", "FortyCount", "HuffChoice", "Offences", "OpenChoice", "OverTheAngle",
    "OwnPieceChoice", "PendingState", "Progress", "SideCounts", "Violation", "allowed_moves",
    "choice_from_json", "constraint_from_json", "constraint_violation", "over_the_angle_moves", "play_blocked",
]

"""Positions of English draughts: move generation, move parsing and FEN.

A ``Position`` holds three bitboards (black pieces, white pieces, kings; see ``board``) and the
side to move. Move generation works on the bitboards: plain moves of all pieces at once by
shifts, jumps per piece by a recursive walk over precomputed per-square jump tables.

Two jump paths that capture the same pieces and end on the same square (a king's circuit run
in either direction) are different moves: PDN's full path tells them apart. Perft, which
counts them separately too, is in ``counting``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from games.rules.board import (
    BLACK_KING_ROW,
    BLACK_MAN_JUMPS,
    BLACK_START,
    KING_JUMPS,
    SQUARE_MASK,
    SQUARE_OF_BIT,
    SQUARE_OF_MASK,
    VALID,
    WHITE_KING_ROW,
    WHITE_MAN_JUMPS,
    WHITE_START,
    square_column,
    square_row,
    squares_of,
)
from games.rules.errors import AmbiguousMoveError, FENError, IllegalMoveError
from games.rules.moves import Move, parse_move_text
from games.rules.rulesets import RuleSet, parse_ruleset

_STANDARD = RuleSet.STANDARD
_STANDARD_HUFF = RuleSet.STANDARD_HUFF
_CUSTOMARY = RuleSet.CUSTOMARY


class Color(StrEnum):
    """Names a side: ``BLACK`` moves first (Law 7) from squares 1-12; ``WHITE`` from 21-32."""

    BLACK = "black"
    WHITE = "white"

    def __str__(self) -> str:
        return self.value

    @property
    def opponent(self) -> Color:
        """Returns the other side."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK


# --------------------------------------------------------------------------------------------
# Bitboard move generation (module functions on plain ints: the hot path).
# --------------------------------------------------------------------------------------------


def _jumpers(me: int, opp: int, kings: int, black_to_move: bool, empty: int) -> int:
    """Returns the mask of the side to move's pieces that can jump at least once."""
    if black_to_move:
        jumpers = ((((empty >> 4) & opp) >> 4) | (((empty >> 5) & opp) >> 5)) & me
        my_kings = me & kings
        if my_kings:
            jumpers |= ((((empty << 4) & opp) << 4) | (((empty << 5) & opp) << 5)) & my_kings
    else:
        jumpers = ((((empty << 4) & opp) << 4) | (((empty << 5) & opp) << 5)) & me
        my_kings = me & kings
        if my_kings:
            jumpers |= ((((empty >> 4) & opp) >> 4) | (((empty >> 5) & opp) >> 5)) & my_kings
    return jumpers


def _has_plain_move(me: int, kings: int, black_to_move: bool, empty: int) -> bool:
    """Tells whether the side to move has a non-capture."""
    my_kings = me & kings
    if black_to_move:
        forward = ((me << 4) | (me << 5)) & empty
        backward = ((my_kings >> 4) | (my_kings >> 5)) & empty
    else:
        forward = ((me >> 4) | (me >> 5)) & empty
        backward = ((my_kings << 4) | (my_kings << 5)) & empty
    return bool(forward or backward)


def _jump_paths(
    index: int,
    opp: int,
    empty: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    king_row: int,
    path: tuple[int, ...],
    captured: tuple[int, ...],
    partial: bool,
    out: list[tuple[tuple[int, ...], tuple[int, ...]]],
) -> None:
    """Appends ``(path_indices, captured_masks)`` for the jump paths from ``index``.

    With ``partial`` (customary rules) every prefix of a path is appended as well.
    """
    found = False
    for over, landing, landing_index in table[index]:
        if over & opp and landing & empty:
            found = True
            longer = path + (landing_index,)
            taken = captured + (over,)
            if landing & king_row:
                out.append((longer, taken))
                continue
            if partial:
                out.append((longer, taken))
            _jump_paths(landing_index, opp ^ over, empty, table, king_row, longer, taken, partial, out)
    if not found and not partial and captured:
        out.append((path, captured))


def _piece_jump_setup(
    bit: int, kings: int, black_to_move: bool
) -> tuple[tuple[tuple[tuple[int, int, int], ...], ...], int]:
    """Returns the jump table and crowning row to use for the piece on ``bit``."""
    if bit & kings:
        return KING_JUMPS, 0
    if black_to_move:
        return BLACK_MAN_JUMPS, BLACK_KING_ROW
    return WHITE_MAN_JUMPS, WHITE_KING_ROW


# --------------------------------------------------------------------------------------------
# FEN
# --------------------------------------------------------------------------------------------

_FEN_TOKEN = re.compile(r"(K?)(\d{1,2})(?:-(\d{1,2}))?\Z", re.IGNORECASE)
_FEN_COUNTER_FIELD = re.compile(r"[HF]\d{0,9}\Z", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")

#: The longest FEN text read. A FEN of 24 kings on two-digit squares, with move counters, is
#: about 110 characters; anything over this is refused before any other work.
MAX_FEN_TEXT = 200

#: The most pieces a side has in English draughts (Law 1).
MAX_PIECES_PER_SIDE = 12


def _quoted(text: str, limit: int = MAX_FEN_TEXT) -> str:
    """Returns the text as a message quotes it: repr, cut to ``limit`` characters."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _parse_fen(text: str) -> tuple[int, int, int, bool]:
    """Reads a FEN string into (black, white, kings, black_to_move); raises ``FENError``."""
    if not isinstance(text, str):
        raise FENError(f"a FEN must be a string, not {type(text).__name__}")
    if len(text) > MAX_FEN_TEXT:
        raise FENError(f"FEN {_quoted(text)} is too long: at most {MAX_FEN_TEXT} characters")
    cleaned = _WHITESPACE.sub("", text).strip('"')
    if cleaned.endswith("."):
        cleaned = cleaned[:-1]
    if not cleaned:
        raise FENError("empty FEN; expected e.g. B:W21,22,...,32:B1,2,...,12")
    fields = cleaned.split(":")
    side = fields[0].upper()
    if side not in ("B", "W"):
        raise FENError(f"FEN {_quoted(text)} must start with the side to move, B or W, followed by ':'")
    if len(fields) < 2:
        raise FENError(f"FEN {_quoted(text)} has no piece lists; expected e.g. B:W21,22:B1,2")
    masks = {"B": [0, 0], "W": [0, 0]}  # [pieces, kings]
    seen_colors: set[str] = set()
    for field in fields[1:]:
        if not field:
            continue
        if _FEN_COUNTER_FIELD.match(field):
            continue  # move counters some programs append (H0, F1): ignored
        color = field[0].upper()
        if color not in ("B", "W"):
            raise FENError(f"FEN {_quoted(text)}: piece list {_quoted(field)} must start with W or B")
        if color in seen_colors:
            raise FENError(f"FEN {_quoted(text)} has two {color} piece lists")
        seen_colors.add(color)
        for token in field[1:].split(","):
            if not token:
                continue
            match = _FEN_TOKEN.match(token)
            if match is None:
                raise FENError(f"FEN {_quoted(text)}: {_quoted(token)} is not a square, a king (K23) or a range (1-12)")
            first = int(match.group(2))
            last = int(match.group(3)) if match.group(3) else first
            if not (1 <= first <= 32 and 1 <= last <= 32) or last < first:
                raise FENError(f"FEN {_quoted(text)}: {_quoted(token)} names a square outside 1-32")
            for square in range(first, last + 1):
                bit = SQUARE_MASK[square]
                if (masks["B"][0] | masks["W"][0]) & bit:
                    raise FENError(f"FEN {_quoted(text)} puts two pieces on square {square}")
                masks[color][0] |= bit
                if match.group(1):
                    masks[color][1] |= bit
    black, white = masks["B"][0], masks["W"][0]
    kings = masks["B"][1] | masks["W"][1]
    crowned_black = black & ~kings & BLACK_KING_ROW
    crowned_white = white & ~kings & WHITE_KING_ROW
    if crowned_black or crowned_white:
        square = squares_of(crowned_black | crowned_white)[0]
        raise FENError(f"FEN {_quoted(text)}: a man on square {square} stands on its crowning row; write K{square}")
    return black, white, kings, side == "B"


def _fen_list(pieces: int, kings: int) -> str:
    """Writes a FEN piece list: squares ascending, kings prefixed with K."""
    return ",".join(
        f"K{square}" if SQUARE_MASK[square] & kings else str(square) for square in squares_of(pieces)
    )


# --------------------------------------------------------------------------------------------
# Position
# --------------------------------------------------------------------------------------------

_new = object.__new__
_set = object.__setattr__


class Position:
    """An immutable, hashable English-draughts position: pieces and side to move.

    Create one with ``Position.initial()``, ``Position.from_fen(text)`` or
    ``Position.from_squares(...)``; ``play(move)`` returns the next position.
    """

    __slots__ = ("_black", "_white", "_kings", "_black_to_move", "_moves")

    _black: int
    _white: int
    _kings: int
    _black_to_move: bool
    _moves: dict[RuleSet, tuple[Move, ...]] | None

    def __init__(self) -> None:
        raise TypeError("use Position.initial(), Position.from_fen() or Position.from_squares()")

    @classmethod
    def _make(cls, black: int, white: int, kings: int, black_to_move: bool) -> Position:
        """Builds a position from bitboards without checking them."""
        position = _new(cls)
        _set(position, "_black", black)
        _set(position, "_white", white)
        _set(position, "_kings", kings)
        _set(position, "_black_to_move", black_to_move)
        _set(position, "_moves", None)
        return position

    @classmethod
    def initial(cls) -> Position:
        """Returns the starting position: Black on 1-12, White on 21-32, Black to move."""
        return cls._make(BLACK_START, WHITE_START, 0, True)

    @classmethod
    def from_fen(cls, text: str) -> Position:
        """Reads a PDN FEN such as ``B:W21,22,K30:B1-12``; raises ``FENError`` with the reason."""
        return cls._make(*_parse_fen(text))

    @classmethod
    def from_squares(
        cls,
        black: tuple[int, ...] | list[int] = (),
        white: tuple[int, ...] | list[int] = (),
        kings: tuple[int, ...] | list[int] = (),
        side_to_move: Color | str = Color.BLACK,
    ) -> Position:
        """Builds a position from square lists; ``kings`` names which of the pieces are kings."""
        black_text = ",".join(f"K{s}" if s in kings else str(s) for s in black)
        white_text = ",".join(f"K{s}" if s in kings else str(s) for s in white)
        if set(kings) - set(black) - set(white):
            raise FENError("a king must stand on a square listed in black or white")
        side = "B" if Color(side_to_move) is Color.BLACK else "W"
        return cls.from_fen(f"{side}:W{white_text}:B{black_text}")

    def fen(self) -> str:
        """Writes the position as PDN FEN: side to move, White's pieces, then Black's."""
        side = "B" if self._black_to_move else "W"
        return f"{side}:W{_fen_list(self._white, self._kings)}:B{_fen_list(self._black, self._kings)}"

    # ---- identity -----------------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Position is immutable; play() returns a new position")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._black == other._black
            and self._white == other._white
            and self._kings == other._kings
            and self._black_to_move == other._black_to_move
        )

    def __hash__(self) -> int:
        return hash((self._black, self._white, self._kings, self._black_to_move))

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position.from_fen, (self.fen(),))

    def repetition_key(self) -> tuple[int, int, int, bool]:
        """Returns a hashable key of the pieces and the side to move, for repetition counts."""
        return (self._black, self._white, self._kings, self._black_to_move)

    # ---- pieces -------------------------------------------------------------------------

    @property
    def side_to_move(self) -> Color:
        """Returns the side whose turn it is."""
        return Color.BLACK if self._black_to_move else Color.WHITE

    def piece_at(self, square: int) -> str | None:
        """Returns the piece on ``square``: ``b``/``w`` for men, ``B``/``W`` for kings, or None."""
        if not 1 <= square <= 32:
            raise ValueError(f"there is no square {square} (squares are 1-32)")
        bit = SQUARE_MASK[square]
        if bit & self._black:
            return "B" if bit & self._kings else "b"
        if bit & self._white:
            return "W" if bit & self._kings else "w"
        return None

    def squares(self, color: Color | str, kings: bool | None = None) -> list[int]:
        """Returns the squares of ``color``'s pieces (only kings, only men, or all), ascending."""
        pieces = self._black if Color(color) is Color.BLACK else self._white
        if kings is True:
            pieces &= self._kings
        elif kings is False:
            pieces &= ~self._kings
        return squares_of(pieces)

    def count(self, color: Color | str, kings: bool | None = None) -> int:
        """Returns how many pieces ``color`` has: all (None), only kings (True), only men (False)."""
        pieces = self._black if Color(color) is Color.BLACK else self._white
        if kings is True:
            pieces &= self._kings
        elif kings is False:
            pieces &= ~self._kings
        return pieces.bit_count()

    def __str__(self) -> str:
        """Draws the board as text, Black's side (squares 1-4) at the top."""
        rows = [[" "] * 8 for _ in range(8)]
        for square in range(1, 33):
            rows[square_row(square)][square_column(square)] = self.piece_at(square) or "."
        lines = [" ".join(row) for row in rows]
        lines.append(f"{self.side_to_move.value.capitalize()} to move")
        return "\n".join(lines)

    # ---- moves --------------------------------------------------------------------------

    def _me_opp_empty(self) -> tuple[int, int, int]:
        """Returns the mover's pieces, the opponent's pieces and the empty squares."""
        if self._black_to_move:
            me, opp = self._black, self._white
        else:
            me, opp = self._white, self._black
        return me, opp, VALID ^ (me | opp)

    def _capture_jumpers(self) -> int:
        """Returns the mask of the mover's pieces that can capture."""
        me, opp, empty = self._me_opp_empty()
        return _jumpers(me, opp, self._kings, self._black_to_move, empty)

    def has_capture(self) -> bool:
        """Tells whether the side to move can capture."""
        return bool(self._capture_jumpers())

    def _captures_from(self, jumpers: int, partial: bool) -> list[Move]:
        """Returns the capture moves of the pieces in ``jumpers`` (every prefix if ``partial``)."""
        me, opp, empty = self._me_opp_empty()
        kings = self._kings
        black_to_move = self._black_to_move
        moves = []
        paths: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        while jumpers:
            bit = jumpers & -jumpers
            jumpers ^= bit
            table, king_row = _piece_jump_setup(bit, kings, black_to_move)
            index = bit.bit_length() - 1
            paths.clear()
            _jump_paths(index, opp, empty | bit, table, king_row, (index,), (), partial, paths)
            for path, captured in paths:
                end_bit = 1 << path[-1]
                moves.append(
                    Move(
                        tuple(SQUARE_OF_BIT[i] for i in path),
                        tuple(SQUARE_OF_MASK[c] for c in captured),
                        bool(end_bit & king_row),
                    )
                )
        return moves

    def _plain_moves(self) -> list[Move]:
        """Returns the non-captures of the side to move."""
        me, _opp, empty = self._me_opp_empty()
        kings = self._kings
        my_kings = me & kings
        moves = []
        if self._black_to_move:
            king_row = BLACK_KING_ROW
            steps = ((4, me), (5, me), (-4, my_kings), (-5, my_kings))
        else:
            king_row = WHITE_KING_ROW
            steps = ((-4, me), (-5, me), (4, my_kings), (5, my_kings))
        for shift, movers in steps:
            targets = ((movers << shift) if shift > 0 else (movers >> -shift)) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                frm = (to >> shift) if shift > 0 else (to << -shift)
                crowns = not frm & kings and bool(to & king_row)
                moves.append(Move((SQUARE_OF_MASK[frm], SQUARE_OF_MASK[to]), (), crowns))
        return moves

    def _generate(self, rules: RuleSet) -> tuple[Move, ...]:
        """Returns the legal moves under ``rules``, sorted by path (cached per rule set)."""
        cache = self._moves
        if cache is None:
            cache = {}
            _set(self, "_moves", cache)
        elif rules in cache:
            return cache[rules]
        jumpers = self._capture_jumpers()
        if rules is _CUSTOMARY:
            moves = self._plain_moves() + self._captures_from(jumpers, partial=True)
        elif jumpers:
            moves = self._captures_from(jumpers, partial=False)
        else:
            moves = self._plain_moves()
        moves.sort()
        result = tuple(moves)
        cache[rules] = result
        return result

    def legal_moves(self, rules: RuleSet | str = _STANDARD) -> list[Move]:
        """Returns the legal moves under ``rules``, sorted by path.

        Under ``standard`` and ``standard-huff`` these are the captures if any exists (each a
        completed multi-jump), else the non-captures; under ``customary`` every non-capture and
        every jump path and prefix of one.
        """
        if rules.__class__ is not RuleSet:
            rules = parse_ruleset(rules)
        return list(self._generate(rules))

    def setup_problem(self) -> str | None:
        """Returns why the position cannot stand on an English-draughts board, or None.

        A side has at most twelve pieces (Law 1: twelve men each, and none is ever added); a
        man never stands on its crowning row (the FEN reader already refuses that). The engine
        itself plays any position; a game is only set up from one that passes.
        """
        for name, pieces in (("Black", self._black), ("White", self._white)):
            if pieces.bit_count() > MAX_PIECES_PER_SIDE:
                return f"{name} has {pieces.bit_count()} pieces; a side has at most {MAX_PIECES_PER_SIDE}"
        return None

    def is_game_over(self, rules: RuleSet | str = _STANDARD) -> bool:
        """Tells whether the side to move has no legal move, and so has lost (Law 23).

        The answer is the same under every rule set.
        """
        me, opp, empty = self._me_opp_empty()
        if _has_plain_move(me, self._kings, self._black_to_move, empty):
            return False
        return not _jumpers(me, opp, self._kings, self._black_to_move, empty)

    def sole_capture(self, rules: RuleSet | str = _STANDARD) -> bool:
        """Tells whether there is one and only one way to capture (Law 25's one-minute limit).

        A "way to capture" is a complete capture path, as the standard rules count legal
        moves; so under ``standard`` and ``standard-huff`` this is true exactly when the
        position has one legal move and it is a capture. Under ``customary`` the same complete
        paths are counted: stopping a multi-jump early is not another way to capture.
        """
        jumpers = self._capture_jumpers()
        if not jumpers or jumpers & (jumpers - 1):
            return False
        return len(self._captures_from(jumpers, partial=False)) == 1

    def failed_capture(self, move: Move, rules: RuleSet | str = _STANDARD_HUFF) -> frozenset[int]:
        """Returns the squares of the pieces that could have captured when ``move`` does not.

        Empty when ``move`` is a capture, no capture was available, or ``rules`` is
        ``customary`` (capturing is optional there); otherwise ``move`` is the infraction of
        Laws 16-17 and the result is the set of pieces that may be huffed.
        """
        if move.captures or (rules.__class__ is not RuleSet and parse_ruleset(rules) is _CUSTOMARY):
            return frozenset()
        if rules is _CUSTOMARY:
            return frozenset()
        return frozenset(squares_of(self._capture_jumpers()))

    def play(self, move: Move) -> Position:
        """Returns the position after ``move``, with the other side to move.

        The move is not checked: pass moves from ``legal_moves`` or ``parse_move``.
        """
        path = move.path
        frm = SQUARE_MASK[path[0]]
        to = SQUARE_MASK[path[-1]]
        captured = 0
        for square in move.captures:
            captured |= SQUARE_MASK[square]
        kings = self._kings & ~captured
        if self._black_to_move:
            black = (self._black ^ frm) | to
            white = self._white & ~captured
            king_row = BLACK_KING_ROW
        else:
            white = (self._white ^ frm) | to
            black = self._black & ~captured
            king_row = WHITE_KING_ROW
        if kings & frm:
            kings = (kings ^ frm) | to
        elif to & king_row:
            kings |= to
        return Position._make(black, white, kings, not self._black_to_move)

    # ---- notation -----------------------------------------------------------------------

    def _plain_move(self, start: int, end: int) -> Move | None:
        """Returns the non-capture ``start``-``end`` if the piece on ``start`` can make it."""
        frm = SQUARE_MASK[start]
        to = SQUARE_MASK[end]
        if (self._black | self._white) & to:
            return None
        is_king = frm & self._kings
        if self._black_to_move:
            forward = (frm << 4) | (frm << 5)
            backward = (frm >> 4) | (frm >> 5)
            king_row = BLACK_KING_ROW
        else:
            forward = (frm >> 4) | (frm >> 5)
            backward = (frm << 4) | (frm << 5)
            king_row = WHITE_KING_ROW
        if to & forward or (is_king and to & backward):
            return Move((start, end), (), not is_king and bool(to & king_row))
        return None

    def _why_not_plain(self, start: int, end: int) -> str:
        """Explains why the non-capture ``start``-``end`` cannot be made."""
        to = SQUARE_MASK[end]
        if (self._black | self._white) & to:
            return f"{start}-{end} is not legal: square {end} is occupied"
        frm = SQUARE_MASK[start]
        around = (frm << 4) | (frm << 5) | (frm >> 4) | (frm >> 5)
        if to & around:
            return f"{start}-{end} is not legal: a man moves forward only"
        return f"{start}-{end} is not legal: {end} is not a diagonal step from {start}"

    def parse_move(self, text: str, rules: RuleSet | str = _STANDARD) -> Move:
        """Reads a move in PDN and returns it if it is legal under ``rules``.

        Accepts ``11-15``, ``22x15``, the full path ``15x24x31``, the short form ``15x31`` and
        any path with some landing squares left out, when it matches one legal capture (a path
        equal to the text wins over longer ones with the same ends); a jump written with ``-``
        (``13-22``) when it matches exactly one capture. A plain move written with ``x``
        (``10x14``) is refused: the PDN reader decides whether to forgive that. Under
        ``standard-huff`` a non-capture made while a capture was compulsory is returned (it is
        recordable; see ``failed_capture``). Raises ``MoveSyntaxError``, ``IllegalMoveError``
        (with the reason and the legal moves) or ``AmbiguousMoveError`` (with the candidates,
        full path); both lists are in move order, by path.
        """
        if rules.__class__ is not RuleSet:
            rules = parse_ruleset(rules)
        squares, written_capture = parse_move_text(text)
        start = squares[0]
        frm = SQUARE_MASK[start]
        me, opp, empty = self._me_opp_empty()
        if not frm & me:
            color = self.side_to_move.value
            if frm & opp:
                reason = f"{text.strip()}: the piece on {start} is not {color}'s; {color} is to move"
            else:
                reason = f"{text.strip()}: there is no {color} piece on {start}"
            raise IllegalMoveError(reason, self._legal_pdn(rules))
        jumpers = _jumpers(me, opp, self._kings, self._black_to_move, empty)
        if len(squares) == 2 and not written_capture:
            plain = self._plain_move(start, squares[1])
            if plain is not None:
                if not jumpers or rules is not _STANDARD:
                    return plain
                legal = self._legal_pdn(rules)
                raise IllegalMoveError(f"a capture is compulsory: {', '.join(legal)}", legal)
        if frm & jumpers:
            candidates = [
                move
                for move in self._captures_from(frm, partial=rules is _CUSTOMARY)
                if _path_matches(move.path, squares)
            ]
            if len(candidates) == 1:
                return candidates[0]
            if candidates:
                exact = [move for move in candidates if move.path == squares]
                if len(exact) == 1:
                    return exact[0]
                raise AmbiguousMoveError(text.strip(), [m.pdn() for m in sorted(candidates)])
        legal = self._legal_pdn(rules)
        if len(squares) == 2 and not written_capture:
            if jumpers and rules is _STANDARD and self._plain_move(start, squares[1]) is None:
                reason = self._why_not_plain(start, squares[1])
                if "occupied" not in reason and "forward only" not in reason:
                    reason = f"{text.strip()} is not a legal move"
                reason += f"; a capture is compulsory: {', '.join(legal)}"
            else:
                reason = self._why_not_plain(start, squares[1])
        elif frm & jumpers:
            reason = f"{text.strip()} is not a legal capture of the piece on {start}"
        else:
            reason = f"{text.strip()} is not legal: the piece on {start} cannot capture"
        raise IllegalMoveError(reason, legal)

    def _legal_pdn(self, rules: RuleSet) -> list[str]:
        """Returns the legal moves in PDN, full path, in move order (by path: 9-13 before 10-14)."""
        return [move.pdn() for move in self._generate(rules)]


def _path_matches(path: tuple[int, ...], squares: tuple[int, ...]) -> bool:
    """Tells whether ``squares`` is ``path`` with some intermediate landing squares left out."""
    if path[0] != squares[0] or path[-1] != squares[-1] or len(squares) > len(path):
        return False
    position = 1
    for square in squares[1:-1]:
        try:
            position = path.index(square, position, len(path) - 1) + 1
        except ValueError:
            return False
    return True


#: The initial position as PDN FEN, Black to move:
#: ``B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12``.
INITIAL_FEN: str = Position.initial().fen()


__all__ = ["INITIAL_FEN", "Color", "Position"]

"""Perft: counting the move paths below a position, for testing and timing the move generator.

``perft`` and ``perft_divide`` (exported from ``games.rules``) and ``perft_hashed`` (the
benchmark's separately labelled figure). Under ``standard`` and ``standard-huff`` they run
on bare bitboards (see ``board``): ``_children`` makes every legal move as a
(black, white, kings) triple and ``_count_moves`` counts a position's legal moves without
making them (bulk counting at the last ply). Under ``customary`` perft makes every move
``Position`` generates. Two jump paths that capture the same pieces and end on the same
square (a king's circuit run in either direction) are counted separately, as
``Position.legal_moves`` lists them.
"""

from __future__ import annotations

from itertools import starmap

from games.rules.board import BLACK_KING_ROW, KING_JUMPS, VALID, WHITE_KING_ROW
from games.rules.position import Position
from games.rules.rulesets import RuleSet, parse_ruleset

_STANDARD = RuleSet.STANDARD
_CUSTOMARY = RuleSet.CUSTOMARY


def perft(position: Position, depth: int, rules: RuleSet | str = _STANDARD) -> int:
    """Counts the move paths ``depth`` plies deep from ``position`` (leaf nodes of the tree).

    Under ``standard`` and ``standard-huff`` uses the bitboard generator with bulk counting
    at the last ply; under ``customary`` walks the generic generator.
    """
    rules = parse_ruleset(rules)
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if depth == 0:
        return 1
    if rules is _CUSTOMARY:
        return _perft_generic(position, depth, rules)
    return _perft_standard(position._black, position._white, position._kings, position._black_to_move, depth)


def _perft_generic(position: Position, depth: int, rules: RuleSet) -> int:
    """Counts leaf nodes by making every legal move (any rule set)."""
    moves = position._generate(rules)
    if depth == 1:
        return len(moves)
    return sum(_perft_generic(position.play(move), depth - 1, rules) for move in moves)


def perft_divide(position: Position, depth: int, rules: RuleSet | str = _STANDARD) -> dict[str, int]:
    """Returns the perft count below each root move (PDN, full path), in move order."""
    rules = parse_ruleset(rules)
    if depth < 1:
        raise ValueError("depth must be >= 1")
    return {move.pdn(): perft(position.play(move), depth - 1, rules) for move in position.legal_moves(rules)}


def _jump_ends(
    index: int,
    opp: int,
    empty: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    king_row: int,
    captured: int,
    out: list[tuple[int, int]],
) -> None:
    """Appends ``(landing_mask, captured_mask)`` for every complete jump path from ``index``.

    ``opp`` holds the opposing pieces not yet jumped; jumped pieces stay out of ``empty`` (they
    are removed only after the move). ``king_row`` is the mover's crowning row for a man, 0
    for a king: a man landing there is crowned and the move ends (Law 13).
    """
    found = False
    for over, landing, landing_index in table[index]:
        if over & opp and landing & empty:
            found = True
            if landing & king_row:
                out.append((landing, captured | over))
            else:
                _jump_ends(landing_index, opp ^ over, empty, table, king_row, captured | over, out)
    if not found:
        out.append((1 << index, captured))


def _black_man_paths(landing: int, jump4: int, jump5: int) -> int:
    """Counts the complete jump paths of a black man that has just landed on ``landing``.

    ``jump4``/``jump5`` mark the squares from which a jump over +4/+5 is open. A man only jumps
    forward, so the pieces it already jumped and the square it left are behind it and cannot
    change what is open ahead: the masks of the position before the move stay exact. A man
    landing on the far row has nothing open ahead, so crowning ends the move by itself.
    """
    count = 0
    if landing & jump4:
        count += _black_man_paths(landing << 8, jump4, jump5)
    if landing & jump5:
        count += _black_man_paths(landing << 10, jump4, jump5)
    return count or 1


def _white_man_paths(landing: int, jump4: int, jump5: int) -> int:
    """Counts the complete jump paths of a white man that has just landed on ``landing``."""
    count = 0
    if landing & jump4:
        count += _white_man_paths(landing >> 8, jump4, jump5)
    if landing & jump5:
        count += _white_man_paths(landing >> 10, jump4, jump5)
    return count or 1


def _black_man_ends(landing: int, captured: int, jump4: int, jump5: int, out: list[tuple[int, int]]) -> None:
    """Appends ``(landing, captured)`` for every complete path of a black man from ``landing``."""
    extended = False
    if landing & jump4:
        _black_man_ends(landing << 8, captured | (landing << 4), jump4, jump5, out)
        extended = True
    if landing & jump5:
        _black_man_ends(landing << 10, captured | (landing << 5), jump4, jump5, out)
        extended = True
    if not extended:
        out.append((landing, captured))


def _white_man_ends(landing: int, captured: int, jump4: int, jump5: int, out: list[tuple[int, int]]) -> None:
    """Appends ``(landing, captured)`` for every complete path of a white man from ``landing``."""
    extended = False
    if landing & jump4:
        _white_man_ends(landing >> 8, captured | (landing >> 4), jump4, jump5, out)
        extended = True
    if landing & jump5:
        _white_man_ends(landing >> 10, captured | (landing >> 5), jump4, jump5, out)
        extended = True
    if not extended:
        out.append((landing, captured))


def _king_capture_count(opp: int, empty: int, king_jumpers: int) -> int:
    """Counts the complete capture paths of the kings in ``king_jumpers``."""
    ends: list[tuple[int, int]] = []
    while king_jumpers:
        bit = king_jumpers & -king_jumpers
        king_jumpers ^= bit
        _jump_ends(bit.bit_length() - 1, opp, empty | bit, KING_JUMPS, 0, 0, ends)
    return len(ends)


def _black_capture_children(
    black: int, white: int, kings: int, men: int, king_jumpers: int, jump4: int, jump5: int, empty: int
) -> list[tuple[int, int, int]]:
    """Returns the positions (black, white, kings) after each complete black capture."""
    children = []
    open_jumps = jump4 | jump5
    for shift, over_shift, jumps in ((8, 4, jump4), (10, 5, jump5)):
        landings = (men & jumps) << shift
        while landings:
            bit = landings & -landings
            landings ^= bit
            frm = bit >> shift
            if bit & open_jumps:
                ends: list[tuple[int, int]] = []
                _black_man_ends(bit, bit >> over_shift, jump4, jump5, ends)
            else:
                ends = [(bit, bit >> over_shift)]
            for landing, captured in ends:
                new_kings = kings & ~captured
                if landing & BLACK_KING_ROW:
                    new_kings |= landing
                children.append(((black ^ frm) | landing, white ^ captured, new_kings))
    while king_jumpers:
        bit = king_jumpers & -king_jumpers
        king_jumpers ^= bit
        ends = []
        _jump_ends(bit.bit_length() - 1, white, empty | bit, KING_JUMPS, 0, 0, ends)
        for landing, captured in ends:
            children.append(
                ((black ^ bit) | landing, white ^ captured, ((kings & ~captured) ^ bit) | landing)
            )
    return children


def _white_capture_children(
    black: int, white: int, kings: int, men: int, king_jumpers: int, jump4: int, jump5: int, empty: int
) -> list[tuple[int, int, int]]:
    """Returns the positions (black, white, kings) after each complete white capture."""
    children = []
    open_jumps = jump4 | jump5
    for shift, over_shift, jumps in ((8, 4, jump4), (10, 5, jump5)):
        landings = (men & jumps) >> shift
        while landings:
            bit = landings & -landings
            landings ^= bit
            frm = bit << shift
            if bit & open_jumps:
                ends: list[tuple[int, int]] = []
                _white_man_ends(bit, bit << over_shift, jump4, jump5, ends)
            else:
                ends = [(bit, bit << over_shift)]
            for landing, captured in ends:
                new_kings = kings & ~captured
                if landing & WHITE_KING_ROW:
                    new_kings |= landing
                children.append((black ^ captured, (white ^ frm) | landing, new_kings))
    while king_jumpers:
        bit = king_jumpers & -king_jumpers
        king_jumpers ^= bit
        ends = []
        _jump_ends(bit.bit_length() - 1, black, empty | bit, KING_JUMPS, 0, 0, ends)
        for landing, captured in ends:
            children.append(
                (black ^ captured, (white ^ bit) | landing, ((kings & ~captured) ^ bit) | landing)
            )
    return children


def _children(black: int, white: int, kings: int, black_to_move: bool) -> list[tuple[int, int, int]]:
    """Returns the positions (black, white, kings) after each legal move under standard rules."""
    empty = VALID ^ (black | white)
    children = []
    append = children.append
    if black_to_move:
        jump4 = ((empty >> 4) & white) >> 4
        jump5 = ((empty >> 5) & white) >> 5
        my_kings = black & kings
        if my_kings:
            men = black ^ my_kings
            king_jumpers = (
                jump4 | jump5 | (((empty << 4) & white) << 4) | (((empty << 5) & white) << 5)
            ) & my_kings
        else:
            men = black
            king_jumpers = 0
        if (jump4 | jump5) & men or king_jumpers:
            return _black_capture_children(black, white, kings, men, king_jumpers, jump4, jump5, empty)
        for shift in (4, 5):
            targets = (black << shift) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                frm = to >> shift
                moved = frm | to
                if frm & kings:
                    append((black ^ moved, white, kings ^ moved))
                elif to & BLACK_KING_ROW:
                    append((black ^ moved, white, kings | to))
                else:
                    append((black ^ moved, white, kings))
            if my_kings:
                targets = (my_kings >> shift) & empty
                while targets:
                    to = targets & -targets
                    targets ^= to
                    moved = (to << shift) | to
                    append((black ^ moved, white, kings ^ moved))
    else:
        jump4 = ((empty << 4) & black) << 4
        jump5 = ((empty << 5) & black) << 5
        my_kings = white & kings
        if my_kings:
            men = white ^ my_kings
            king_jumpers = (
                jump4 | jump5 | (((empty >> 4) & black) >> 4) | (((empty >> 5) & black) >> 5)
            ) & my_kings
        else:
            men = white
            king_jumpers = 0
        if (jump4 | jump5) & men or king_jumpers:
            return _white_capture_children(black, white, kings, men, king_jumpers, jump4, jump5, empty)
        for shift in (4, 5):
            targets = (white >> shift) & empty
            while targets:
                to = targets & -targets
                targets ^= to
                frm = to << shift
                moved = frm | to
                if frm & kings:
                    append((black, white ^ moved, kings ^ moved))
                elif to & WHITE_KING_ROW:
                    append((black, white ^ moved, kings | to))
                else:
                    append((black, white ^ moved, kings))
            if my_kings:
                targets = (my_kings << shift) & empty
                while targets:
                    to = targets & -targets
                    targets ^= to
                    moved = (to >> shift) | to
                    append((black, white ^ moved, kings ^ moved))
    return children


def _count_black(black: int, white: int, kings: int) -> int:
    """Returns the number of Black's legal moves under standard rules without making them.

    This is perft's bulk count. Non-captures are counted by population counts of shifted
    masks; a man's single jumps all at once the same way, walking only the landings from which
    the man can jump on.
    """
    empty = VALID ^ (black | white)
    jump4 = ((empty >> 4) & white) >> 4
    jump5 = ((empty >> 5) & white) >> 5
    my_kings = black & kings
    if my_kings:
        men = black ^ my_kings
        king_jumpers = (
            jump4 | jump5 | (((empty << 4) & white) << 4) | (((empty << 5) & white) << 5)
        ) & my_kings
    else:
        men = black
        king_jumpers = 0
    landings4 = (men & jump4) << 8
    landings5 = (men & jump5) << 10
    if landings4 or landings5 or king_jumpers:
        open_jumps = jump4 | jump5
        count = (landings4 & ~open_jumps).bit_count() + (landings5 & ~open_jumps).bit_count()
        further = landings4 & open_jumps
        while further:
            bit = further & -further
            further ^= bit
            count += _black_man_paths(bit, jump4, jump5)
        further = landings5 & open_jumps
        while further:
            bit = further & -further
            further ^= bit
            count += _black_man_paths(bit, jump4, jump5)
        if king_jumpers:
            count += _king_capture_count(white, empty, king_jumpers)
        return count
    count = ((black << 4) & empty).bit_count() + ((black << 5) & empty).bit_count()
    if my_kings:
        count += ((my_kings >> 4) & empty).bit_count() + ((my_kings >> 5) & empty).bit_count()
    return count


def _count_white(black: int, white: int, kings: int) -> int:
    """Returns the number of White's legal moves under standard rules without making them."""
    empty = VALID ^ (black | white)
    jump4 = ((empty << 4) & black) << 4
    jump5 = ((empty << 5) & black) << 5
    my_kings = white & kings
    if my_kings:
        men = white ^ my_kings
        king_jumpers = (
            jump4 | jump5 | (((empty >> 4) & black) >> 4) | (((empty >> 5) & black) >> 5)
        ) & my_kings
    else:
        men = white
        king_jumpers = 0
    landings4 = (men & jump4) >> 8
    landings5 = (men & jump5) >> 10
    if landings4 or landings5 or king_jumpers:
        open_jumps = jump4 | jump5
        count = (landings4 & ~open_jumps).bit_count() + (landings5 & ~open_jumps).bit_count()
        further = landings4 & open_jumps
        while further:
            bit = further & -further
            further ^= bit
            count += _white_man_paths(bit, jump4, jump5)
        further = landings5 & open_jumps
        while further:
            bit = further & -further
            further ^= bit
            count += _white_man_paths(bit, jump4, jump5)
        if king_jumpers:
            count += _king_capture_count(black, empty, king_jumpers)
        return count
    count = ((white >> 4) & empty).bit_count() + ((white >> 5) & empty).bit_count()
    if my_kings:
        count += ((my_kings << 4) & empty).bit_count() + ((my_kings << 5) & empty).bit_count()
    return count


def _count_moves(black: int, white: int, kings: int, black_to_move: bool) -> int:
    """Returns the number of legal moves under standard rules without making them (bulk count)."""
    if black_to_move:
        return _count_black(black, white, kings)
    return _count_white(black, white, kings)


def _perft_standard(black: int, white: int, kings: int, black_to_move: bool, depth: int) -> int:
    """Counts the leaf nodes ``depth`` plies below a position under standard rules."""
    if depth == 1:
        return _count_moves(black, white, kings, black_to_move)
    opponent = not black_to_move
    nodes = 0
    if depth == 2:
        return sum(
            starmap(
                _count_white if black_to_move else _count_black, _children(black, white, kings, black_to_move)
            )
        )
    depth -= 1
    for b, w, k in _children(black, white, kings, black_to_move):
        nodes += _perft_standard(b, w, k, opponent, depth)
    return nodes


def _perft_hashed(
    black: int,
    white: int,
    kings: int,
    black_to_move: bool,
    depth: int,
    table: dict[tuple[int, int, int, bool, int], int],
) -> int:
    """Counts leaf nodes like ``_perft_standard``, remembering subtree counts of transpositions.

    Only for the benchmark's separately labelled figure: plain perft is the headline.
    """
    if depth <= 2:
        return _perft_standard(black, white, kings, black_to_move, depth)
    key = (black, white, kings, black_to_move, depth)
    nodes = table.get(key)
    if nodes is None:
        opponent = not black_to_move
        nodes = 0
        for b, w, k in _children(black, white, kings, black_to_move):
            nodes += _perft_hashed(b, w, k, opponent, depth - 1, table)
        table[key] = nodes
    return nodes


def perft_hashed(position: Position, depth: int) -> int:
    """Counts leaf nodes under standard rules with a transposition table (not plain perft)."""
    if depth == 0:
        return 1
    return _perft_hashed(
        position._black, position._white, position._kings, position._black_to_move, depth, {}
    )


__all__ = ["perft", "perft_divide", "perft_hashed"]

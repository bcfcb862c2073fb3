"""Compares the bitboard generator with a deliberately simple reference generator.

The reference works on an 8x8 array with recursive jumps and knows nothing of bitboards:
rows 0-7 from Black's side, square ``s`` on row ``(s - 1) // 4``, dark squares at odd columns
on even rows. Black men step to row + 1, White men to row - 1, kings both ways.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Position, RuleSet, perft

Board = list[list[str | None]]


def square_to_cell(square: int) -> tuple[int, int]:
    """Returns (row, column) of a square on the 8x8 array."""
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 if row % 2 == 0 else 0)


CELL_TO_SQUARE = {square_to_cell(s): s for s in range(1, 33)}


def to_board(position: Position) -> tuple[Board, str]:
    """Returns the 8x8 array of a position and the side to move, 'b' or 'w'."""
    board: Board = [[None] * 8 for _ in range(8)]
    for square in range(1, 33):
        row, col = square_to_cell(square)
        board[row][col] = position.piece_at(square)
    return board, position.side_to_move.value[0]


def reference_moves(board: Board, side: str, rules: str) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Returns the legal moves as (path squares, captured squares) by brute force."""
    forward = 1 if side == "b" else -1
    crown_row = 7 if side == "b" else 0
    captures: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    plain: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def is_mine(piece: str | None) -> bool:
        return piece is not None and piece.lower() == side

    def is_theirs(piece: str | None) -> bool:
        return piece is not None and piece.lower() != side

    def jumps(start, row, col, king, path, taken, out):
        extended = False
        row_steps = (-1, 1) if king else (forward,)
        for dr in row_steps:
            for dc in (-1, 1):
                over_r, over_c = row + dr, col + dc
                land_r, land_c = row + 2 * dr, col + 2 * dc
                if not (0 <= land_r < 8 and 0 <= land_c < 8):
                    continue
                if (over_r, over_c) in taken or not is_theirs(board[over_r][over_c]):
                    continue
                landing_empty = board[land_r][land_c] is None or (land_r, land_c) == start
                if not landing_empty:
                    continue
                extended = True
                new_path = path + [(land_r, land_c)]
                new_taken = taken + [(over_r, over_c)]
                if rules == "customary":
                    out.append((new_path, new_taken))
                if not king and land_r == crown_row:
                    if rules != "customary":
                        out.append((new_path, new_taken))
                    continue
                jumps(start, land_r, land_c, king, new_path, new_taken, out)
        if not extended and taken and rules != "customary":
            out.append((path, taken))

    for row in range(8):
        for col in range(8):
            piece = board[row][col]
            if not is_mine(piece):
                continue
            king = piece.isupper()
            out: list = []
            jumps((row, col), row, col, king, [(row, col)], [], out)
            for path, taken in out:
                captures.append(
                    (tuple(CELL_TO_SQUARE[c] for c in path), tuple(CELL_TO_SQUARE[c] for c in taken))
                )
            for dr in (-1, 1) if king else (forward,):
                for dc in (-1, 1):
                    r, c = row + dr, col + dc
                    if 0 <= r < 8 and 0 <= c < 8 and board[r][c] is None:
                        plain.append(((CELL_TO_SQUARE[(row, col)], CELL_TO_SQUARE[(r, c)]), ()))
    if rules == "customary":
        return set(plain) | set(captures)
    return set(captures) if captures else set(plain)


def engine_moves(position: Position, rules: RuleSet) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Returns the engine's legal moves in the reference's shape."""
    return {(m.path, m.captures) for m in position.legal_moves(rules)}


def reference_play(
    board: Board, side: str, path: tuple[int, ...], taken: tuple[int, ...]
) -> tuple[Board, str]:
    """Returns the array after a move, crowning a man that ends on the far row."""
    new = [row[:] for row in board]
    start_r, start_c = square_to_cell(path[0])
    end_r, end_c = square_to_cell(path[-1])
    piece = new[start_r][start_c]
    new[start_r][start_c] = None
    for square in taken:
        r, c = square_to_cell(square)
        new[r][c] = None
    if piece.islower() and end_r == (7 if side == "b" else 0):
        piece = piece.upper()
    new[end_r][end_c] = piece
    return new, "w" if side == "b" else "b"


def reference_perft(board: Board, side: str, depth: int, rules: str) -> int:
    """Counts leaf nodes with the reference generator."""
    if depth == 0:
        return 1
    moves = reference_moves(board, side, rules)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(*reference_play(board, side, p, t), depth - 1, rules) for p, t in moves)


# ---- random positions ------------------------------------------------------------------------

PIECE_CHOICES = [None, None, None, "b", "w", "B", "W"]


def position_from_pieces(pieces: list[str | None], black_to_move: bool) -> Position:
    """Builds a position from 32 piece letters, crowning men that stand on their far row."""
    black, white, kings = [], [], []
    for square, piece in enumerate(pieces, start=1):
        if piece is None:
            continue
        if piece == "b" and square >= 29 or piece == "w" and square <= 4:
            piece = piece.upper()
        (black if piece.lower() == "b" else white).append(square)
        if piece.isupper():
            kings.append(square)
    return Position.from_squares(black, white, kings, "black" if black_to_move else "white")


random_positions = st.builds(
    position_from_pieces,
    st.lists(st.sampled_from(PIECE_CHOICES), min_size=32, max_size=32),
    st.booleans(),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_positions)
def test_legal_moves_match_reference_on_random_positions(position):
    board, side = to_board(position)
    for rules in RuleSet:
        reference_rules = "customary" if rules is RuleSet.CUSTOMARY else "standard"
        assert engine_moves(position, rules) == reference_moves(board, side, reference_rules), (
            position.fen(),
            rules,
        )


def random_game_positions(seed: int, games: int) -> list[Position]:
    """Returns every position of ``games`` random games (standard rules), kings included."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = Position.initial()
        for _ply in range(150):
            moves = position.legal_moves()
            if not moves:
                break
            positions.append(position)
            position = position.play(rng.choice(moves))
    return positions


def test_legal_moves_match_reference_along_random_games():
    positions = random_game_positions(seed=7, games=40)
    assert sum(p.count("black", kings=True) + p.count("white", kings=True) > 0 for p in positions) > 100
    for position in positions:
        board, side = to_board(position)
        for rules in RuleSet:
            reference_rules = "customary" if rules is RuleSet.CUSTOMARY else "standard"
            assert engine_moves(position, rules) == reference_moves(board, side, reference_rules), (
                position.fen()
            )


def test_positions_rich_in_jumps_match_reference():
    # Dense opposing pieces with kings in the middle give long and branching multi-jumps.
    rng = random.Random(11)
    longest = 0
    for _ in range(3000):
        pieces = [rng.choice([None, "w", "w", "W", None]) for _ in range(32)]
        for _k in range(rng.randint(1, 3)):
            pieces[rng.randrange(32)] = rng.choice(["B", "b"])
        position = position_from_pieces(pieces, True)
        board, side = to_board(position)
        for rules in RuleSet:
            reference_rules = "customary" if rules is RuleSet.CUSTOMARY else "standard"
            moves = engine_moves(position, rules)
            assert moves == reference_moves(board, side, reference_rules), position.fen()
            longest = max([longest] + [len(captured) for _path, captured in moves])
    assert longest >= 5


PERFT_POSITIONS = [
    "W:WK27,K23:BK28,12",
    "B:W18,19,26,27,K30:BK10,14,15,K22",
    "W:W9,10,11,18,19,20,26,27:BK2,K13,14,K22,23",
    "B:WK5,6,7,K14,15,22,23,30:B1,2,3,K10,K11,19",
    "B:W14,15,22,23,K7,K8,30,31:BK1,K4,9,12",
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
]


def test_perft_with_kings_and_multi_jumps_matches_reference():
    for fen in PERFT_POSITIONS:
        position = Position.from_fen(fen)
        board, side = to_board(position)
        for depth in (1, 2, 3, 4):
            for rules in (RuleSet.STANDARD, RuleSet.CUSTOMARY):
                if rules is RuleSet.CUSTOMARY and depth > 3:
                    continue
                reference_rules = "customary" if rules is RuleSet.CUSTOMARY else "standard"
                assert perft(position, depth, rules) == reference_perft(
                    board, side, depth, reference_rules
                ), (
                    fen,
                    depth,
                    rules,
                )


def fast_path_agrees(position: Position) -> None:
    """Checks the perft fast path (bulk count, children) against the generic legal moves."""
    from collections import Counter

    from games.rules.counting import _children, _count_moves

    state = position.repetition_key()
    moves = position.legal_moves(RuleSet.STANDARD)
    assert _count_moves(*state) == len(moves), position.fen()
    made = Counter(position.play(m).repetition_key()[:3] for m in moves)
    assert Counter(_children(*state)) == made, position.fen()


@settings(max_examples=1500, deadline=None)
@given(random_positions)
def test_perft_fast_path_agrees_with_legal_moves_on_random_positions(position):
    fast_path_agrees(position)


def test_perft_fast_path_agrees_with_legal_moves_on_jump_rich_positions():
    rng = random.Random(5)
    for _ in range(2000):
        mover, other = rng.choice([("b", "w"), ("w", "b")])
        pieces = [rng.choice([None, other, other, other.upper(), None]) for _ in range(32)]
        for _k in range(rng.randint(1, 4)):
            pieces[rng.randrange(32)] = rng.choice([mover, mover, mover.upper()])
        fast_path_agrees(position_from_pieces(pieces, mover == "b"))

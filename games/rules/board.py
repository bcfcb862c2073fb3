"""Square numbering and bit tables of the English-draughts board.

The 32 playing squares are numbered 1-32 from Black's side, as PDN numbers them (Law 5):
squares 1-4 form Black's back row, 29-32 White's. Square ``s`` sits on row ``(s - 1) // 4``
(row 0 is Black's back row) and column ``2 * ((s - 1) % 4) + (1 if row is even else 0)``
(column 0 on Black's right, which is the viewer's left when Black is drawn at the top).

Positions are bitboards on Python ints in the padded 35-bit "ghost square" layout: square
``s`` is bit ``s - 1 + row // 2``, which leaves bits 8, 17 and 26 unused. In that layout every
diagonal step is a shift of 4 or 5 bits (towards White's side for ``+``, towards Black's side
for ``-``) and a step off the board lands on a ghost bit or outside bits 0-34, so move
generation needs no edge masks beyond ``VALID``.
"""

from __future__ import annotations

SQUARE_COUNT = 32
GHOST_BITS = (8, 17, 26)


def square_row(square: int) -> int:
    """Returns the row of ``square``, 0 for Black's back row (1-4) to 7 for White's (29-32)."""
    return (square - 1) // 4


def square_column(square: int) -> int:
    """Returns the column of ``square``, 0-7, column 0 holding squares 5, 13, 21 and 29."""
    row = square_row(square)
    return 2 * ((square - 1) % 4) + (1 if row % 2 == 0 else 0)


def square_bit_index(square: int) -> int:
    """Returns the bit index of ``square`` in the ghost-square layout."""
    return square - 1 + square_row(square) // 2


#: ``BIT_INDEX[s]`` is the bit index of square ``s`` (index 0 unused).
BIT_INDEX: tuple[int, ...] = (-1,) + tuple(square_bit_index(s) for s in range(1, 33))
#: ``SQUARE_MASK[s]`` is the one-bit mask of square ``s`` (index 0 is 0).
SQUARE_MASK: tuple[int, ...] = (0,) + tuple(1 << BIT_INDEX[s] for s in range(1, 33))
#: ``SQUARE_OF_BIT[i]`` is the square at bit index ``i``, 0 for the ghost bits.
SQUARE_OF_BIT: tuple[int, ...] = tuple(
    next((s for s in range(1, 33) if BIT_INDEX[s] == i), 0) for i in range(35)
)
#: ``SQUARE_OF_MASK`` maps a one-bit mask to its square.
SQUARE_OF_MASK: dict[int, int] = {SQUARE_MASK[s]: s for s in range(1, 33)}

VALID = sum(SQUARE_MASK[1:])
BLACK_KING_ROW = SQUARE_MASK[29] | SQUARE_MASK[30] | SQUARE_MASK[31] | SQUARE_MASK[32]
WHITE_KING_ROW = SQUARE_MASK[1] | SQUARE_MASK[2] | SQUARE_MASK[3] | SQUARE_MASK[4]
BLACK_START = sum(SQUARE_MASK[1:13])
WHITE_START = sum(SQUARE_MASK[21:33])

#: Direction shifts: a black man steps ``+4``/``+5``, a white man ``-4``/``-5``.
BLACK_FORWARD = (4, 5)
WHITE_FORWARD = (-4, -5)
ALL_DIRECTIONS = (4, 5, -4, -5)


def _jump_table(directions: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Builds, per bit index, the jumps ``(over_mask, landing_mask, landing_index)`` on board."""
    table = []
    for index in range(35):
        jumps = []
        if (1 << index) & VALID:
            for step in directions:
                over, landing = index + step, index + 2 * step
                if 0 <= landing < 35 and (1 << over) & VALID and (1 << landing) & VALID:
                    jumps.append((1 << over, 1 << landing, landing))
        table.append(tuple(jumps))
    return tuple(table)


#: Per bit index, the jumps of a black man, a white man and a king.
BLACK_MAN_JUMPS = _jump_table(BLACK_FORWARD)
WHITE_MAN_JUMPS = _jump_table(WHITE_FORWARD)
KING_JUMPS = _jump_table(ALL_DIRECTIONS)


def squares_of(mask: int) -> list[int]:
    """Returns the squares set in ``mask``, ascending."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(SQUARE_OF_MASK[low])
        mask ^= low
    return squares

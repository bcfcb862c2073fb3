"""A game in progress: the start position, the moves played, and the counters the laws need."""

from __future__ import annotations

from collections.abc import Hashable

from games.rules.board import SQUARE_MASK
from games.rules.errors import IllegalMoveError
from games.rules.moves import Move
from games.rules.position import Color, Position
from games.rules.rulesets import RuleSet, parse_ruleset


class GameState:
    """Holds a game from a start position under a rule set, with its history.

    ``positions[i]`` is the position before ``moves[i]``; ``positions[-1]`` is the current one.
    The progress counters count plies (half-moves, one player's turn each):

    - ``plies_since_capture``: plies since the last capture by either side (or the start);
    - ``plies_since_man_move``: plies since the last ply that moved a man, capturing or not,
      of either side (or the start). A crowning move is a man move.

    ``moves_since_capture(color)`` and ``moves_since_man_move(color)`` count, among those same
    plies, only the ones ``color`` made; so Pask's 50-move rule ("no man advanced and no piece
    removed in 50 moves") holds when both are at least 50 for both colours.
    """

    __slots__ = (
        "rules",
        "start",
        "position",
        "moves",
        "positions",
        "_since_capture",
        "_since_man_move",
        "_occurrences",
    )

    def __init__(self, start: Position | None = None, rules: RuleSet | str = RuleSet.STANDARD) -> None:
        self.rules = parse_ruleset(rules)
        self.start = start if start is not None else Position.initial()
        self.position = self.start
        self.moves: list[Move] = []
        self.positions: list[Position] = [self.start]
        self._since_capture: list[int] = [0]
        self._since_man_move: list[int] = [0]
        self._occurrences: dict[Hashable, int] = {self.start.repetition_key(): 1}

    @property
    def ply(self) -> int:
        """Returns how many plies have been played."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        """Tells whether the side to move has no legal move (and so has lost, Law 23)."""
        return self.position.is_game_over(self.rules)

    @property
    def winner(self) -> Color | None:
        """Returns the side that won by capturing or blocking everything, or None while play goes on."""
        if self.position.is_game_over(self.rules):
            return self.position.side_to_move.opponent
        return None

    @property
    def plies_since_capture(self) -> int:
        """Returns the plies played since the last capture (or the start)."""
        return self._since_capture[-1]

    @property
    def plies_since_man_move(self) -> int:
        """Returns the plies played since the last ply that moved a man (or the start)."""
        return self._since_man_move[-1]

    def _own_plies(self, plies: int, color: Color | str) -> int:
        """Returns how many of the last ``plies`` plies ``color`` made."""
        last_mover = self.position.side_to_move.opponent
        if Color(color) is last_mover:
            return (plies + 1) // 2
        return plies // 2

    def moves_since_capture(self, color: Color | str) -> int:
        """Returns how many moves ``color`` has made since the last capture by either side."""
        return self._own_plies(self._since_capture[-1], color)

    def moves_since_man_move(self, color: Color | str) -> int:
        """Returns how many moves ``color`` has made since the last man move by either side."""
        return self._own_plies(self._since_man_move[-1], color)

    def repetition_count(self, key: Hashable | Position | None = None) -> int:
        """Returns how many times the current position (or ``key``) has occurred in this game.

        A position is its pieces and the side to move (``Position.repetition_key``); the
        current position counts, so a fresh game answers 1.
        """
        if key is None:
            key = self.position.repetition_key()
        elif isinstance(key, Position):
            key = key.repetition_key()
        return self._occurrences.get(key, 0)

    def would_repeat(self, move: Move) -> int:
        """Returns which occurrence the position after ``move`` would be (3: the third time)."""
        return self._occurrences.get(self.position.play(move).repetition_key(), 0) + 1

    def push(self, move: Move) -> None:
        """Plays ``move`` after checking it against the rule set; raises ``IllegalMoveError``.

        Under ``standard-huff`` a non-capture made while a capture existed is accepted (it is
        recorded; the opponent's remedy is arbitration's business).
        """
        checked = self.position.parse_move(move.pdn(), self.rules)
        if checked != move:
            raise IllegalMoveError(
                f"{move.pdn()} does not match the legal move {checked.pdn()} in this position",
                self.position._legal_pdn(self.rules),
            )
        self._record(move)

    def push_pdn(self, text: str) -> Move:
        """Reads a move in PDN, checks it, plays it and returns it."""
        move = self.position.parse_move(text, self.rules)
        self._record(move)
        return move

    def _record(self, move: Move) -> None:
        """Plays a checked ``move`` and updates the history and counters."""
        position = self.position
        man_moved = not SQUARE_MASK[move.path[0]] & position._kings
        after = position.play(move)
        self.moves.append(move)
        self.positions.append(after)
        self.position = after
        self._since_capture.append(0 if move.captures else self._since_capture[-1] + 1)
        self._since_man_move.append(0 if man_moved else self._since_man_move[-1] + 1)
        key = (after._black, after._white, after._kings, after._black_to_move)
        occurrences = self._occurrences
        occurrences[key] = occurrences.get(key, 0) + 1

    def pop(self) -> Move:
        """Takes back the last move and returns it; raises ``IndexError`` at the start."""
        if not self.moves:
            raise IndexError("no move to take back")
        key = self.position.repetition_key()
        remaining = self._occurrences[key] - 1
        if remaining:
            self._occurrences[key] = remaining
        else:
            del self._occurrences[key]
        self.positions.pop()
        self._since_capture.pop()
        self._since_man_move.pop()
        self.position = self.positions[-1]
        return self.moves.pop()

    def __repr__(self) -> str:
        return f"<GameState {self.rules.value} ply={self.ply} fen={self.position.fen()!r}>"

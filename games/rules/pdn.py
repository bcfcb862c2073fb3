"""PDN (Portable Draughts Notation) for English draughts: a reader for files of many games,
a writer, and a replay of a game's moves through the rules engine.

The reader is one compiled regular expression run over the whole text; the line and column of
each token are derived from offsets (a newline count since the previous token), never from a
per-character loop, so the 11.5 MB Open Checkers Archive reads in a few seconds.

Conventions (PDN 2.0 for English checkers, and every file in ``../shared/data/pdn``):

* ``1-0`` means **Black** (the first mover) won, ``0-1`` White won.
* The draughts scores ``2-0``, ``0-2`` and ``1-1`` are read as ``1-0``, ``0-1`` and
  ``1/2-1/2``; :attr:`PDNGame.result` holds the standard form, :attr:`PDNGame.terminator`
  the token as written.
* Move numbers count pairs of moves from whoever moves first, as the archives write them
  (``1. 27-23 20x27 2. ...`` also when White starts from a FEN setup).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from games.rules.errors import AmbiguousMoveError, PDNSyntaxError, RulesError
from games.rules.game import GameState
from games.rules.position import Position
from games.rules.rulesets import RuleSet

__all__ = [
    "PDNGame",
    "PDNMove",
    "Replay",
    "UnreadableGame",
    "iter_games",
    "read_file",
    "read_games",
    "replay",
    "scan_games",
    "write_game",
    "write_games",
]

#: Results as they may be written in movetext, and the standard form each stands for.
RESULTS: dict[str, str] = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "*": "*",
    "2-0": "1-0",
    "0-2": "0-1",
    "1-1": "1/2-1/2",
}

#: The suffix annotations and the numeric annotation glyph each stands for (as in PGN).
SUFFIX_NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_SUFFIXES: dict[int, str] = {nag: suffix for suffix, nag in SUFFIX_NAGS.items()}

#: The tags written first, in this order (the PGN "seven tag roster" without the placeholder
#: values: a tag is written only if the game has it).
ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "Black", "White", "Result")

#: PDN's game type for English draughts.
ENGLISH_DRAUGHTS = "21"

WRAP_WIDTH = 79

_TOKEN = re.compile(
    r"""
    [\s\ufeff]*
    (?:
        (?P<tag>\[[ \t]*(?P<tag_name>[A-Za-z0-9_]+)[ \t]*"(?P<tag_value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
      | (?P<comment>\{(?P<comment_text>[^}]*)\})
      | (?P<result>(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|\*)(?![\w/.-]))
      | (?P<number>(?P<number_value>\d+)\.(?:\.\.)?)
      | (?P<move>(?P<move_text>\d+(?:[-x]\d+)+)(?P<suffix>[!?]{1,2})?(?![\w/.-]))
      | (?P<nag>\$(?P<nag_value>\d+))
      | (?P<open>\()
      | (?P<close>\))
      | (?P<ellipsis>\.\.\.)
      | (?P<end>\Z)
      | (?P<bad>\[[^\n]*|\{|\S+)
    )
    """,
    re.VERBOSE,
)

_UNESCAPE = re.compile(r"\\(.)")


@dataclass(slots=True)
class PDNMove:
    """One move as written in movetext: its text and where it stands in the file.

    ``line``, ``column`` and ``number`` describe the source and are left out of equality, so a
    game read back from what the writer wrote equals the original.
    """

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    number: int | None = field(default=None, compare=False)
    comment: str | None = None
    nags: list[int] = field(default_factory=list)
    variations: list[list[PDNMove]] = field(default_factory=list)


@dataclass(slots=True)
class PDNGame:
    """One game of a PDN file: its tags, its moves, comments and result."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[PDNMove] = field(default_factory=list)
    result: str | None = None
    terminator: str | None = field(default=None, compare=False)
    pre_comment: str | None = None
    line: int = field(default=1, compare=False)
    column: int = field(default=1, compare=False)

    @property
    def start_fen(self) -> str | None:
        """Returns the FEN the game starts from (the FEN tag), or None for the initial position."""
        return self.tags.get("FEN")

    @property
    def game_type(self) -> str | None:
        """Returns the GameType tag as written ("21" for English draughts), or None."""
        return self.tags.get("GameType")

    @property
    def black(self) -> str:
        """Returns the Black tag, or "?"."""
        return self.tags.get("Black") or "?"

    @property
    def white(self) -> str:
        """Returns the White tag, or "?"."""
        return self.tags.get("White") or "?"

    @property
    def result_tag(self) -> str | None:
        """Returns the Result tag in its standard form (``2-0`` read as ``1-0``), or None."""
        value = self.tags.get("Result")
        if value is None:
            return None
        return RESULTS.get(value.strip(), value.strip())


@dataclass(slots=True)
class UnreadableGame:
    """A game that could not be read: the syntax error, and the tags and start read before it."""

    error: PDNSyntaxError
    tags: dict[str, str]
    line: int
    column: int


class _Reader:
    """Reads the games of one text; keeps the line count as the tokens go by."""

    def __init__(self, text: str, keep_variations: bool, first_line: int = 1) -> None:
        self.text = text
        self.keep_variations = keep_variations
        self.line = first_line
        self.line_start = 0
        self.counted_to = 0
        # Where the game being read stands, for the recovery after a syntax error.
        self._started = False
        self._in_movetext = False
        self._error_offset = 0

    def locate(self, offset: int) -> tuple[int, int]:
        """Returns the 1-based line and column of an offset at or after the last one located."""
        text = self.text
        newlines = text.count("\n", self.counted_to, offset)
        if newlines:
            self.line += newlines
            self.line_start = text.rfind("\n", self.counted_to, offset) + 1
        self.counted_to = offset
        return self.line, offset - self.line_start + 1

    def error(self, message: str, offset: int) -> PDNSyntaxError:
        """Returns a syntax error located at an offset."""
        line, column = self.locate(offset)
        return PDNSyntaxError(message, line, column)

    def games(self, recover: bool) -> Iterator[PDNGame | UnreadableGame]:
        """Yields the games of the text; with ``recover``, a spoiled game as an error, then on."""
        text = self.text
        position = 0
        if text.startswith("\ufeff"):
            position = 1
            self.line_start = 1
            self.counted_to = 1
        length = len(text)
        while position < length:
            game = PDNGame()
            try:
                position = self._read_game(game, position)
            except PDNSyntaxError as error:
                if not recover:
                    raise
                if self._started:
                    yield UnreadableGame(error, game.tags, game.line, game.column)
                else:
                    yield UnreadableGame(error, game.tags, error.line, error.column)
                in_tags = not self._in_movetext and (self._started or text.startswith("[", self._error_offset))
                position = self._resync(self._error_offset, in_tags)
                continue
            if position < 0:
                return
            yield game

    def _resync(self, error_offset: int, in_tags: bool) -> int:
        """Returns the offset of the next tag section after an error (the end if none)."""
        text = self.text
        offset = error_offset
        if in_tags:
            # Skip the rest of the spoiled tag section first.
            match = re.compile(r"\n[ \t]*[^\[\s]").search(text, offset)
            if match is None:
                return len(text)
            offset = match.start() + 1
        match = re.compile(r"\n[ \t]*\[").search(text, offset)
        if match is None:
            return len(text)
        return match.start() + 1

    def _read_game(self, game: PDNGame, position: int) -> int:
        """Reads one game from an offset into ``game``; returns the offset after it, -1 at the end."""
        text = self.text
        token = _TOKEN.match
        locate = self.locate
        keep = self.keep_variations
        moves = game.moves
        # The move lists of the enclosing lines while inside variations.
        stack: list[list[PDNMove]] = []
        current: list[PDNMove] = moves
        number: int | None = None
        started = self._started = False
        self._in_movetext = False
        self._error_offset = position
        tags = game.tags
        while True:
            match = token(text, position)
            kind = match.lastgroup
            start = match.start(kind)
            self._error_offset = start
            self._started = started
            if kind == "move":
                if not started:
                    started = True
                    game.line, game.column = locate(start)
                self._in_movetext = True
                line, column = locate(start)
                move = PDNMove(match.group("move_text"), line, column, number)
                suffix = match.group("suffix")
                if suffix:
                    nag = SUFFIX_NAGS.get(suffix)
                    if nag is None:
                        raise self.error(f"unknown move annotation {suffix!r}", match.start("suffix"))
                    move.nags.append(nag)
                number = None
                current.append(move)
            elif kind == "number":
                if not started:
                    started = True
                    game.line, game.column = locate(start)
                self._in_movetext = True
                number = int(match.group("number_value"))
            elif kind == "tag":
                if self._in_movetext:
                    if stack:
                        raise self.error("tag inside a variation: a ')' is missing", start)
                    # A new tag section without a terminator ends the game (result unknown).
                    self._finish(game)
                    return start
                if not started:
                    started = True
                    game.line, game.column = locate(start)
                name = match.group("tag_name")
                value = match.group("tag_value")
                if "\\" in value:
                    value = _UNESCAPE.sub(r"\1", value)
                if name in tags:
                    raise self.error(f"tag {name} given twice", start)
                tags[name] = value
            elif kind == "comment":
                comment = match.group("comment_text").replace("\r\n", "\n").strip()
                if not started:
                    started = True
                    game.line, game.column = locate(start)
                if current:
                    previous = current[-1]
                    previous.comment = comment if previous.comment is None else f"{previous.comment} {comment}"
                elif not stack:
                    game.pre_comment = comment if game.pre_comment is None else f"{game.pre_comment} {comment}"
                # A comment opening a variation is dropped with nothing to attach it to.
            elif kind == "result":
                if stack:
                    # A result closing a variation ends nothing.
                    position = match.end()
                    continue
                if not started:
                    started = True
                    game.line, game.column = locate(start)
                written = match.group("result")
                game.terminator = written
                game.result = RESULTS[written]
                return match.end()
            elif kind == "nag":
                if not current:
                    raise self.error("annotation glyph before any move", start)
                current[-1].nags.append(int(match.group("nag_value")))
            elif kind == "open":
                if not current:
                    raise self.error("variation before any move", start)
                self._in_movetext = True
                variation: list[PDNMove] = []
                if keep:
                    current[-1].variations.append(variation)
                stack.append(current)
                current = variation
                number = None
            elif kind == "close":
                if not stack:
                    raise self.error("')' without a variation to close", start)
                current = stack.pop()
                number = None
            elif kind == "ellipsis":
                pass
            elif kind == "end":
                if stack:
                    raise self.error("end of file inside a variation: a ')' is missing", start)
                if not started:
                    return -1
                self._finish(game)
                return len(text)
            else:
                raise self.error(_describe_bad_token(match.group("bad")), start)
            position = match.end()

    @staticmethod
    def _finish(game: PDNGame) -> None:
        """Sets the result of a game whose movetext has no terminator from its Result tag."""
        game.result = game.result_tag if game.result_tag in RESULTS.values() else None


def _describe_bad_token(token: str) -> str:
    """Returns the message for text the reader cannot read."""
    if token.startswith("["):
        return f"malformed tag pair {token.strip()!r} (expected [Name \"value\"])"
    if token == "{":
        return "comment not closed: '{' without '}'"
    if len(token) > 40:
        token = token[:40] + "..."
    return f"unexpected {token!r} in movetext"


def _decode(data: bytes) -> str:
    """Returns the text of a file's bytes: UTF-8 (with or without a BOM), else Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_games(text: str, *, keep_variations: bool = False) -> list[PDNGame]:
    """Reads every game of a PDN text; raises PDNSyntaxError at the first error."""
    return [
        game
        for game in _Reader(text, keep_variations).games(recover=False)
        if isinstance(game, PDNGame)
    ]


def _chunks(stream: TextIO, size: int = 1 << 20) -> Iterator[tuple[str, int]]:
    """Yields pieces of a stream cut where a tag section starts, each with its first line number."""
    lines: list[str] = []
    length = 0
    first_line = 1
    previous_is_tag = True
    comment_depth = 0
    for line_number, line in enumerate(stream, start=1):
        stripped = line.lstrip()
        is_tag = stripped.startswith("[")
        if is_tag and not previous_is_tag and comment_depth == 0 and length >= size:
            yield "".join(lines), first_line
            lines = []
            length = 0
            first_line = line_number
        lines.append(line)
        length += len(line)
        if stripped:
            previous_is_tag = is_tag
        if "{" in line or "}" in line:
            comment_depth = max(0, comment_depth + line.count("{") - line.count("}"))
    if lines:
        yield "".join(lines), first_line


def _iter_records(
    source: str | TextIO, keep_variations: bool, recover: bool
) -> Iterator[PDNGame | UnreadableGame]:
    """Yields the games (and, with ``recover``, the spoiled ones) of a text or a text stream."""
    if isinstance(source, str):
        yield from _Reader(source, keep_variations).games(recover)
        return
    for chunk, first_line in _chunks(source):
        if first_line == 1 and chunk.startswith("\ufeff"):
            chunk = chunk[1:]
        yield from _Reader(chunk, keep_variations, first_line).games(recover)


def scan_games(
    source: str | TextIO, *, keep_variations: bool = False
) -> Iterator[PDNGame | UnreadableGame]:
    """Yields the games of a text or stream, an unreadable one as an UnreadableGame, and reads on.

    After a syntax error the reader resumes at the next tag section (a line starting with
    ``[`` after movetext), so one bad game does not hide the rest of a file.
    """
    return _iter_records(source, keep_variations, recover=True)


def iter_games(source: str | TextIO, *, keep_variations: bool = False) -> Iterator[PDNGame]:
    """Yields the games of a PDN text or text stream one by one, reading a stream piecewise."""
    for record in _iter_records(source, keep_variations, recover=False):
        assert isinstance(record, PDNGame)
        yield record


def read_file(path: str | Path, *, keep_variations: bool = False) -> list[PDNGame]:
    """Reads every game of a PDN file (UTF-8 with or without a BOM, else Latin-1)."""
    return read_games(_decode(Path(path).read_bytes()), keep_variations=keep_variations)


# --- writer ---------------------------------------------------------------------------------


#: Control characters (C0, DEL, C1) and Unicode's line and paragraph separators: never written.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape(value: str) -> str:
    """Returns a tag value as PDN (PGN's string token) writes it: a backslash and a quote each escaped with a
    backslash, and each control character (a line break, a tab, NUL...) written as a space, since the
    standard allows none in a string and a line break would end the tag (an injection of tags)."""
    return _CONTROLS.sub(" ", value).replace("\\", "\\\\").replace('"', '\\"')


class _Wrapper:
    """Joins movetext tokens into lines of at most ``width`` characters where it can."""

    def __init__(self, width: int = WRAP_WIDTH) -> None:
        self.width = width
        self.lines: list[str] = []
        self.current = ""
        self.prefix = ""

    def add(self, token: str, *, glued: bool = False) -> None:
        """Adds a token, starting a new line when it would not fit; ``glued`` adds no space."""
        if self.prefix:
            token, self.prefix = self.prefix + token, ""
        if not self.current:
            self.current = token
        elif len(self.current) + 1 + len(token.split("\n", 1)[0]) <= self.width:
            self.current += token if glued else " " + token
        elif glued:
            self.current += token
        else:
            self.lines.append(self.current)
            self.current = token
        if "\n" in self.current:
            *done, self.current = self.current.split("\n")
            self.lines.extend(done)

    def open(self, prefix: str) -> None:
        """Makes the next token start with ``prefix`` (an opening parenthesis)."""
        self.prefix += prefix

    def text(self) -> str:
        """Returns the wrapped lines."""
        return "\n".join([*self.lines, self.current] if self.current else self.lines)


#: The control characters a comment may not hold: all but the line break and the tab (a comment may span lines).
_COMMENT_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def _comment_token(comment: str) -> str:
    """Returns a comment in braces (a ``}`` in it cannot be written and becomes ``)``; a control character
    other than a line break or a tab becomes a space)."""
    return "{" + _COMMENT_CONTROLS.sub(" ", comment).replace("}", ")") + "}"


def _write_moves(wrapper: _Wrapper, moves: list[PDNMove], first_number: int, second: bool = False) -> None:
    """Adds moves with their numbers, annotations, comments and variations to the wrapper.

    ``second`` says the first move is the second of its pair (``7... 24-20``).
    """
    for index, move in enumerate(moves):
        ply = index + 1 if second else index
        number = first_number + ply // 2
        token = move.text
        extra = [f"${nag}" for nag in move.nags]
        if len(move.nags) == 1 and move.nags[0] in NAG_SUFFIXES:
            token += NAG_SUFFIXES[move.nags[0]]
            extra = []
        if ply % 2 == 0:
            token = f"{number}. {token}"
        elif index == 0:
            token = f"{number}... {token}"
        wrapper.add(token)
        for nag in extra:
            wrapper.add(nag)
        if move.comment is not None:
            wrapper.add(_comment_token(move.comment))
        for variation in move.variations:
            # A variation replaces ``move``: it is numbered from the same place.
            wrapper.open("(")
            _write_moves(wrapper, variation, number, ply % 2 == 1)
            wrapper.prefix = ""
            wrapper.add(")", glued=True)


def write_game(game: PDNGame) -> str:
    """Returns a game in PDN: the roster tags first, then the others, then wrapped movetext.

    Tags are written as the game has them (no Result tag is invented); a game without a result
    ends with ``*``.
    """
    tags = game.tags
    names = [name for name in ROSTER if name in tags] + [name for name in tags if name not in ROSTER]
    lines = [f'[{name} "{_escape(tags[name])}"]' for name in names]
    wrapper = _Wrapper()
    if game.pre_comment is not None:
        wrapper.add(_comment_token(game.pre_comment))
    # From a position with White to move, the first move is the second of move 1 (Black moves first).
    _write_moves(wrapper, game.moves, 1, (game.start_fen or "").strip().upper().startswith("W"))
    wrapper.add(game.result or "*")
    lines.append(wrapper.text())
    return "\n".join(lines) + "\n"


def write_games(games: Iterable[PDNGame]) -> str:
    """Returns games in PDN, separated by blank lines."""
    return "\n".join(write_game(game) for game in games)


# --- replay ---------------------------------------------------------------------------------


@dataclass
class Replay:
    """The outcome of replaying a game's moves through the rules engine.

    ``ok`` is true when every move is legal (the game is valid). On failure ``error_index`` is
    the 0-based index of the refused move in ``game.moves`` (None when the start position or the
    game type is refused), ``line``/``column`` where it stands, ``reason`` why. ``state`` is the
    game as far as it went. ``warnings`` are findings that do not make the game invalid: a Result
    tag that disagrees with the movetext terminator, a plain move written with ``x``.
    """

    game: PDNGame
    ok: bool
    state: GameState | None
    error_index: int | None = None
    line: int | None = None
    column: int | None = None
    reason: str | None = None
    warnings: list[str] = field(default_factory=list)


def _move_label(game: PDNGame, index: int) -> str:
    """Returns how a move is named in a message: ``move 62 (32-28)``, numbered as in the file."""
    number = None
    for back in range(index, max(-1, index - 2), -1):
        if game.moves[back].number is not None:
            number = game.moves[back].number
            break
    if number is None:
        number = index // 2 + 1
    return f"move {number} ({game.moves[index].text})"


def _play_moves(
    state: GameState, game: PDNGame, first: int, strict: bool, warnings: list[str]
) -> tuple[int, RulesError] | None:
    """Plays ``game.moves[first:]`` on ``state``; returns the index and error of a refused move.

    A short-form capture that the engine finds ambiguous (``10x26``: ``10x17x26`` or
    ``10x19x26``) is settled by the rest of the game: if exactly one reading lets every later
    move be played, it is taken, with a warning.
    """
    moves = game.moves
    for index in range(first, len(moves)):
        text = moves[index].text
        try:
            state.push_pdn(text)
        except AmbiguousMoveError as error:
            if strict:
                return index, error
            ply = state.ply
            playable = []
            for candidate in error.candidates:
                state.push_pdn(candidate)
                if _play_moves(state, game, index + 1, strict, []) is None:
                    playable.append(candidate)
                while state.ply > ply:
                    state.pop()
            if len(playable) != 1:
                return index, error
            state.push_pdn(playable[0])
            warnings.append(f"{_move_label(game, index)} is ambiguous; only {playable[0]} lets the game go on")
        except RulesError as error:
            if strict or text.count("x") != 1:
                return index, error
            try:
                state.push_pdn(text.replace("x", "-"))
            except RulesError:
                return index, error
            warnings.append(f"{_move_label(game, index)} is a plain move written with x")
    return None


def replay(game: PDNGame, rules: RuleSet | str = RuleSet.STANDARD, *, strict: bool = False) -> Replay:
    """Replays a game's moves through the rules engine and says whether they are all legal.

    The game is refused if its GameType is not English draughts (21), if ``Setup "1"`` is given
    without a FEN, if the FEN cannot be read (a trailing ``.``, as in Gould's problems, is
    allowed), or at the first move the engine refuses. A disagreement between the Result tag and
    the movetext terminator is only a warning: the moves decide validity. Unless ``strict``, a
    plain move written with ``x`` (``10x14``, a habit of ``tinsley.pdn``) is read as ``10-14``
    with a warning, and an ambiguous short-form capture is settled by the moves that follow it
    when only one reading lets the game go on (also with a warning).
    """
    warnings: list[str] = []
    game_type = game.game_type
    if game_type is not None and game_type.split(",")[0].strip() != ENGLISH_DRAUGHTS:
        return Replay(game, False, None, None, game.line, game.column,
                      f"GameType {game_type} is not English draughts ({ENGLISH_DRAUGHTS})")
    fen = game.start_fen
    if fen is None and game.tags.get("Setup", "").strip() == "1":
        return Replay(game, False, None, None, game.line, game.column, 'Setup "1" without a FEN tag')
    start = None
    if fen is not None:
        cleaned = fen.strip()
        if cleaned.endswith("."):
            cleaned = cleaned[:-1]
        try:
            start = Position.from_fen(cleaned)
        except RulesError as error:
            return Replay(game, False, None, None, game.line, game.column, f"bad FEN {fen!r}: {error}")
    state = GameState(start=start, rules=rules)
    failure = _play_moves(state, game, 0, strict, warnings)
    if failure is not None:
        index, error = failure
        move = game.moves[index]
        message = str(error)
        if message.startswith(f"{move.text}: "):
            message = message[len(move.text) + 2:]
        return Replay(game, False, state, index, move.line, move.column,
                      f"{_move_label(game, index)}: {message}", warnings)
    tag = game.result_tag
    if tag is not None and game.terminator is not None and tag != game.result:
        warnings.append(f"Result tag {game.tags['Result']} disagrees with the movetext result {game.terminator}")
    return Replay(game, True, state, warnings=warnings)

"""The move-text and FEN readers on arbitrary text: only their own errors, and linear time by construction.

Time is not measured here (a shared machine makes timings flaky): the tests show instead that a
long hostile text is refused by its length before any pattern runs, and that the move pattern
cannot backtrack (every quantifier in it is possessive). ``benchmarks/move_parse.py`` measures.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import FENError, MoveSyntaxError, Position, RulesError
from games.rules import moves as moves_module
from games.rules import position as position_module
from games.rules.moves import MAX_MOVE_TEXT, parse_move_text
from games.rules.pdn import read_games

try:  # Python 3.11+: the parser moved under re.
    from re import _constants as sre_constants
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover
    import sre_constants  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

#: Text that looks like moves and FENs as often as like noise.
move_like = st.text(alphabet=st.sampled_from("0123456789-xX: \t\n!?*+#K,BW."), max_size=120)
fen_like = st.text(alphabet=st.sampled_from('0123456789-:,KkBWbwHF." \t\n'), max_size=300)
any_text = st.text(max_size=300)


@settings(max_examples=500, deadline=None)
@given(st.one_of(any_text, move_like))
def test_move_text_is_read_or_refused_with_a_move_syntax_error(text):
    try:
        squares, _ = parse_move_text(text)
    except MoveSyntaxError:
        return
    assert len(squares) >= 2 and all(1 <= square <= 32 for square in squares)


@settings(max_examples=500, deadline=None)
@given(st.one_of(any_text, move_like))
def test_a_move_entered_in_the_initial_position_raises_only_rules_errors(text):
    with contextlib.suppress(RulesError):
        Position.initial().parse_move(text)


@settings(max_examples=500, deadline=None)
@given(st.one_of(any_text, fen_like))
def test_fen_text_is_read_or_refused_with_a_fen_error(text):
    try:
        position = Position.from_fen(text)
    except FENError:
        return
    assert Position.from_fen(position.fen()) == position


@settings(max_examples=300, deadline=None)
@given(st.one_of(any_text, move_like, fen_like))
def test_pdn_text_is_read_or_refused_with_a_rules_error(text):
    with contextlib.suppress(RulesError):
        read_games(text)


@pytest.mark.parametrize("value", [None, 12, 1.5, b"11-15", ["11-15"], {"move": "11-15"}])
def test_a_move_or_fen_that_is_not_text_is_refused_with_the_readers_error(value):
    with pytest.raises(MoveSyntaxError):
        parse_move_text(value)
    with pytest.raises(FENError):
        Position.from_fen(value)


class _Untouchable:
    def __getattr__(self, name):
        raise AssertionError("the pattern ran on a text longer than the limit")


@pytest.mark.parametrize("text", ["1-2" + " " * 2_000_000 + "a", "1" * 2_000_000, "11-15" + "!" * 100])
def test_a_long_move_text_is_refused_by_its_length_before_the_pattern_runs(text, monkeypatch):
    monkeypatch.setattr(moves_module, "_MOVE_TEXT", _Untouchable())
    with pytest.raises(MoveSyntaxError, match=f"at most {MAX_MOVE_TEXT} characters") as refused:
        parse_move_text(text)
    assert len(str(refused.value)) < 300  # the text is not quoted back whole


def test_a_long_fen_is_refused_by_its_length_before_it_is_read(monkeypatch):
    monkeypatch.setattr(position_module, "_WHITESPACE", _Untouchable())
    with pytest.raises(FENError, match="too long") as refused:
        Position.from_fen("B:W21," + " " * 2_000_000 + "22:B1")
    assert len(str(refused.value)) < 400


def _repeats(pattern: str) -> list[str]:
    """Returns the names of every repeat opcode in the compiled form of ``pattern`` (nested ones too)."""
    found: list[str] = []

    def walk(items) -> None:  # noqa: ANN001
        for op, arg in items:
            if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, sre_constants.POSSESSIVE_REPEAT):
                found.append(str(op))
                walk(arg[2])
            elif op in (sre_constants.SUBPATTERN,):
                walk(arg[-1])
            elif op in (sre_constants.ATOMIC_GROUP,):
                walk(arg)
            elif op is sre_constants.BRANCH:
                for branch in arg[1]:
                    walk(branch)

    walk(sre_parse.parse(pattern))
    return found


@pytest.mark.parametrize("pattern", [moves_module._MOVE_TEXT, moves_module._STEP])
def test_the_move_patterns_cannot_backtrack_every_repeat_is_possessive(pattern):
    repeats = _repeats(pattern.pattern)
    assert repeats, "the walk found the repeats"
    assert set(repeats) == {"POSSESSIVE_REPEAT"}, repeats


def test_the_walk_does_see_a_backtracking_pattern():
    assert "MAX_REPEAT" in _repeats(r"\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*[!?*+#]*\s*\Z")


@pytest.mark.parametrize(("text", "squares"), [
    ("11-15", (11, 15)), (" 22x15 ", (22, 15)), ("15x24x31", (15, 24, 31)), ("9 - 14", (9, 14)),
    ("11-15!", (11, 15)), ("11-15 ?!", (11, 15)), ("1:10:19", (1, 10, 19)), ("5X14", (5, 14)),
])
def test_the_linear_pattern_reads_what_the_old_one_read(text, squares):
    assert parse_move_text(text)[0] == squares
    old = re.compile(r"\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*[!?*+#]*\s*\Z")
    assert old.match(text) is not None


@settings(max_examples=1000, deadline=None)
@given(move_like)
def test_the_linear_pattern_accepts_exactly_what_the_old_one_accepted(text):
    old = re.compile(r"\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*[!?*+#]*\s*\Z")
    assert (moves_module._MOVE_TEXT.match(text.strip()) is not None) == (old.match(text) is not None)

"""Replaying PDN games through the rules engine, and the writer/reader round trip on played games."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Color, Position, RuleSet
from games.rules.pdn import PDNGame, PDNMove, read_file, read_games, replay, write_game

DATA = Path(__file__).parent / "data"
VALID_EXCERPTS = [
    "oca_first40.pdn",
    "oca_comments.pdn",
    "tinsley_first20.pdn",
    "principles_first6.pdn",
    "tricks_first12.pdn",
    "tricks_games47_49.pdn",
    "goulds_first20.pdn",
]


@pytest.mark.parametrize("name", VALID_EXCERPTS)
def test_every_game_of_the_excerpts_replays_legally(name: str) -> None:
    for game in read_file(DATA / name):
        outcome = replay(game)
        assert outcome.ok, (game.tags.get("Event"), outcome.reason)
        assert outcome.state is not None
        assert outcome.state.ply == len(game.moves)


def test_the_defective_petal_1981_game_18_is_refused_at_move_62() -> None:
    games = read_file(DATA / "tinsley_petal1981.pdn")
    outcomes = [replay(game) for game in games]
    assert [outcome.ok for outcome in outcomes] == [True, True, False, True, True]
    bad = outcomes[2]
    assert bad.game.tags["Event"] == "Petal 1981, game 18"
    assert bad.error_index == 122
    assert (bad.line, bad.column) == (36, 5)
    assert bad.reason is not None
    assert bad.reason.startswith("move 62 (32-28): ")
    assert "32" in bad.reason
    assert bad.state is not None and bad.state.ply == 122


def test_a_game_from_a_fen_setup_starts_with_the_side_it_names() -> None:
    (game,) = read_games('[Setup "1"]\n[FEN "W:W32,27,24,22:B20,15,10,7"]\n1. 27-23 20x27 *')
    outcome = replay(game)
    assert outcome.ok
    assert outcome.state is not None
    assert outcome.state.start.side_to_move == Color.WHITE


def test_a_fen_with_a_trailing_dot_is_accepted() -> None:
    (game,) = read_games('[Setup "1"]\n[FEN "B:WK32,K31,30:BK28,K23,K22,21."]\n1-0')
    assert replay(game).ok


def test_a_bad_fen_is_refused_at_the_game_start_with_the_fen_error() -> None:
    (game,) = read_games('\n[Event "x"]\n[Setup "1"]\n[FEN "B:W33:B1"]\n1. 1-5 *')
    outcome = replay(game)
    assert not outcome.ok
    assert outcome.error_index is None
    assert (outcome.line, outcome.column) == (2, 1)
    assert outcome.reason is not None and outcome.reason.startswith("bad FEN 'B:W33:B1': ")


def test_setup_without_fen_is_refused() -> None:
    (game,) = read_games('[Setup "1"]\n1. 11-15 *')
    outcome = replay(game)
    assert not outcome.ok and "without a FEN" in (outcome.reason or "")


@pytest.mark.parametrize("game_type", ["21", "21,B,8,8,N1,0"])
def test_game_type_21_is_english_draughts(game_type: str) -> None:
    (game,) = read_games(f'[GameType "{game_type}"]\n1. 11-15 *')
    assert replay(game).ok


def test_another_game_type_is_refused_as_not_english_draughts() -> None:
    (game,) = read_games('[GameType "20"]\n1. 32-28 *')
    outcome = replay(game)
    assert not outcome.ok
    assert outcome.reason == "GameType 20 is not English draughts (21)"


def test_an_illegal_move_is_refused_with_the_engine_reason_and_its_place() -> None:
    (game,) = read_games('[Event "x"]\n1. 11-15 24-20\n2. 15-19 23x16 3. 12x19 *')
    outcome = replay(game)
    assert outcome.ok
    (game,) = read_games('[Event "x"]\n1. 11-15 24-20\n2. 15-18 22-17 *')
    outcome = replay(game)
    assert not outcome.ok
    assert outcome.error_index == 3
    assert (outcome.line, outcome.column) == (3, 10)
    assert outcome.reason is not None and outcome.reason.startswith("move 2 (22-17): ")


def test_a_plain_move_written_with_x_is_accepted_with_a_warning_unless_strict() -> None:
    (game,) = read_games("1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10x14 19x10 *")
    outcome = replay(game)
    assert outcome.ok
    assert outcome.warnings == ["move 4 (10x14) is a plain move written with x"]
    assert not replay(game, strict=True).ok


def test_an_ambiguous_short_capture_is_settled_by_the_moves_that_follow() -> None:
    games = read_file(DATA / "tricks_first12.pdn") + read_file(DATA / "tricks_games47_49.pdn")
    for game in games:
        assert replay(game, strict=False).ok
    (game,) = read_games('[Setup "1"]\n[FEN "B:W14,15,22,23:B10"]\n1. 10x26 *')
    outcome = replay(game)
    assert not outcome.ok
    assert outcome.reason is not None and "ambiguous" in outcome.reason


def test_a_result_tag_that_disagrees_with_the_terminator_is_a_warning_only() -> None:
    (game,) = read_games('[Result "0-1"]\n1. 11-15 24-20 1-0')
    outcome = replay(game)
    assert outcome.ok
    assert outcome.warnings == ["Result tag 0-1 disagrees with the movetext result 1-0"]
    (game,) = read_games('[Result "2-0"]\n1. 11-15 24-20 1-0')
    assert replay(game).warnings == []


def test_replay_follows_the_chosen_rule_set() -> None:
    (game,) = read_games("1. 11-15 24-19 2. 9-13 *")  # 15x24 was compulsory
    assert not replay(game).ok
    assert replay(game, RuleSet.CUSTOMARY).ok


@st.composite
def played_games(draw: st.DrawFn) -> PDNGame:
    """Draws a game of random legal moves, with comments, annotations and a result."""
    position = Position.initial()
    moves: list[PDNMove] = []
    for _ in range(draw(st.integers(0, 60))):
        legal = position.legal_moves(RuleSet.STANDARD)
        if not legal:
            break
        move = draw(st.sampled_from(legal))
        comment = draw(st.none() | st.text(  # a comment may span lines: line breaks and tabs, no other control
            st.characters(blacklist_characters="{}\r", blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
            | st.sampled_from("\n\t"), max_size=30
        ).map(str.strip).filter(bool))
        nags = draw(st.lists(st.integers(1, 20), max_size=2))
        moves.append(PDNMove(move.pdn(), comment=comment, nags=nags))
        position = position.play(move)
    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]))
    tag_value = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20)
    tags = {"Event": draw(tag_value), "Black": draw(tag_value), "White": draw(tag_value), "Result": result}
    return PDNGame(tags=tags, moves=moves, result=result)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_games())
def test_written_games_read_back_equal_and_replay(game: PDNGame) -> None:
    (again,) = read_games(write_game(game))
    assert again == game
    assert replay(again).ok

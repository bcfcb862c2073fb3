"""Reading and writing PDN: the syntax layer, without the rules engine."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from games.rules.errors import PDNSyntaxError
from games.rules.pdn import (
    PDNGame,
    PDNMove,
    UnreadableGame,
    iter_games,
    read_file,
    read_games,
    scan_games,
    write_game,
    write_games,
)

DATA = Path(__file__).parent / "data"
EXCERPTS = sorted(DATA.glob("*.pdn"))
READABLE = [path for path in EXCERPTS if path.name != "tinsley_london1992.pdn"]


def texts(game: PDNGame) -> list[str]:
    """Returns the move texts of a game."""
    return [move.text for move in game.moves]


def test_tags_are_read_in_order_with_escaped_quotes_and_backslashes() -> None:
    (game,) = read_games('[Event "The \\"Big\\" One"]\n[Site "C:\\\\draughts"]\n[Black "A"]\n1. 11-15 *')
    assert list(game.tags) == ["Event", "Site", "Black"]
    assert game.tags["Event"] == 'The "Big" One'
    assert game.tags["Site"] == "C:\\draughts"


def test_move_numbers_with_dots_ellipsis_and_glued_to_the_move() -> None:
    (game,) = read_games("1.11-15 24-20 2. 8-11 2... 28-24 3... 4-8 *")
    assert texts(game) == ["11-15", "24-20", "8-11", "28-24", "4-8"]
    assert [move.number for move in game.moves] == [1, None, 2, 2, 3]


def test_moves_keep_their_text_as_written_and_their_line_and_column() -> None:
    (game,) = read_games('[Event "x"]\n1. 11-15 23-18\n2. 15x22x31 25x18 *')
    assert texts(game) == ["11-15", "23-18", "15x22x31", "25x18"]
    assert [(move.line, move.column) for move in game.moves] == [(2, 4), (2, 10), (3, 4), (3, 13)]
    assert (game.line, game.column) == (1, 1)


def test_comments_attach_to_the_move_before_and_may_hold_stars_parens_and_newlines() -> None:
    text = "{Opening}\n1. 11-15 {best (see *)\nline two} 24-20 {a} {b} 1-0"
    (game,) = read_games(text)
    assert game.pre_comment == "Opening"
    assert game.moves[0].comment == "best (see *)\nline two"
    assert game.moves[1].comment == "a b"
    assert game.result == "1-0"


def test_variations_are_skipped_unless_asked_for() -> None:
    text = "1. 11-15 24-20 (1... 23-19 2. 8-11 (2. 9-14 22-17) 22-17) 2. 8-11 *"
    (skipped,) = read_games(text)
    assert texts(skipped) == ["11-15", "24-20", "8-11"]
    assert skipped.moves[1].variations == []
    (kept,) = read_games(text, keep_variations=True)
    (variation,) = kept.moves[1].variations
    assert [move.text for move in variation] == ["23-19", "8-11", "22-17"]
    assert [move.text for move in variation[1].variations[0]] == ["9-14", "22-17"]


def test_nags_and_suffix_annotations_are_read_as_numbers() -> None:
    (game,) = read_games("1. 11-15! 24-20?? 2. 8-11!? $14 28-24 $2 *")
    assert texts(game) == ["11-15", "24-20", "8-11", "28-24"]
    assert [move.nags for move in game.moves] == [[1], [4], [5, 14], [2]]


@pytest.mark.parametrize(
    ("written", "result"),
    [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "1/2-1/2"), ("*", "*"),
     ("2-0", "1-0"), ("0-2", "0-1"), ("1-1", "1/2-1/2")],
)
def test_results_including_draughts_scores_map_to_the_standard_ones(written: str, result: str) -> None:
    (game,) = read_games(f"1. 11-15 24-20 {written}")
    assert game.result == result
    assert game.terminator == written


def test_a_game_without_terminator_takes_its_result_from_the_result_tag() -> None:
    games = read_games('[Result "2-0"]\n1. 11-15\n\n[Result "*"]\n1. 9-13')
    assert [game.result for game in games] == ["1-0", "*"]
    assert [game.terminator for game in games] == [None, None]


def test_setup_fen_and_game_type_are_exposed() -> None:
    text = '[GameType "21"]\n[Setup "1"]\n[FEN "W:WK27,K23:BK28,12."]\n0-1'
    (game,) = read_games(text)
    assert game.start_fen == "W:WK27,K23:BK28,12."
    assert game.game_type == "21"
    assert game.moves == []
    (plain,) = read_games("1. 11-15 *")
    assert plain.start_fen is None and plain.game_type is None


def test_crlf_bom_and_blank_lines_are_read_like_lf() -> None:
    lf = '[Event "a"]\n1. 11-15 {x\ny} 24-20 1-0\n\n\n[Event "b"]\n1. 9-13 *\n'
    crlf = "\ufeff\r\n" + lf.replace("\n", "\r\n")
    assert read_games(crlf) == read_games(lf)
    moves = read_games(crlf)[1].moves
    assert (moves[0].line, moves[0].column) == (8, 4)


def test_games_without_tags_are_separated_by_their_terminators() -> None:
    games = read_games("1. 11-15 24-20 1-0 1. 9-13 22-18 0-1\n1. 10-14 *")
    assert [texts(game) for game in games] == [["11-15", "24-20"], ["9-13", "22-18"], ["10-14"]]
    assert [game.tags for game in games] == [{}, {}, {}]


def test_a_terminator_glued_to_the_next_tag_section_ends_the_game() -> None:
    games = read_file(DATA / "tricks_games47_49.pdn")
    assert [game.tags["Event"] for game in games] == [
        "TTS Game 47 Freeman's Flashback",
        "TTS Game 47 Freeman's Flashback",
        "TTS Game 48 Christie's Shot",
        "TTS Game 49 Monty's King Pitch",
    ]
    assert [move.comment for move in games[0].moves if move.comment] == ["the net, 2-7* draws"]


def test_empty_and_blank_text_has_no_games() -> None:
    assert read_games("") == []
    assert read_games("\ufeff \r\n\n") == []


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ('[Event "a"]\n1. 11-15 24-20 2. 8-11 28-24x 1-0', 2, 24, "unexpected '28-24x'"),
        ('[Event "a]\n1. 11-15 *', 1, 1, "malformed tag"),
        ('[Event "a"]\n1. 11-15 {never closed\n24-20', 2, 10, "comment not closed"),
        ("1. 11-15 (24-20 *", 1, 18, "')' is missing"),
        ("1. 11-15 24-20) *", 1, 15, "without a variation"),
        ('[Event "a"]\n[Event "b"]\n1. 11-15 *', 2, 1, "given twice"),
        ("\n\n  1. 11-15 Z *", 3, 12, "unexpected 'Z'"),
        ("$3 1. 11-15 *", 1, 1, "before any move"),
    ],
)
def test_syntax_errors_name_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(PDNSyntaxError) as caught:
        read_games(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert fragment in caught.value.message
    assert str(caught.value).startswith(f"line {line}, column {column}: ")


def test_a_remark_glued_to_a_move_is_a_syntax_error_at_its_place() -> None:
    with pytest.raises(PDNSyntaxError) as caught:
        read_file(DATA / "tinsley_london1992.pdn")
    assert (caught.value.line, caught.value.column) == (17, 17)


def test_scanning_resumes_after_a_spoiled_game_at_the_next_tag_section() -> None:
    records = list(scan_games((DATA / "tinsley_london1992.pdn").read_text()))
    assert [type(record).__name__ for record in records] == ["PDNGame", "UnreadableGame", "PDNGame"]
    spoiled = records[1]
    assert isinstance(spoiled, UnreadableGame)
    assert spoiled.tags["Event"] == "London 1992, game 18"
    assert (spoiled.line, spoiled.column) == (10, 1)
    assert (spoiled.error.line, spoiled.error.column) == (17, 17)
    assert records[2].tags["Event"] == "London 1992, game 19"


def test_scanning_skips_the_rest_of_a_spoiled_tag_section() -> None:
    text = '[Event "a"]\n[Black "x]\n[White "y"]\n1. 11-15 *\n[Event "b"]\n1. 9-13 *\n'
    records = list(scan_games(text))
    assert isinstance(records[0], UnreadableGame)
    assert (records[0].error.line, records[0].error.column) == (2, 1)
    assert [record.tags for record in records[1:]] == [{"Event": "b"}]
    records = list(scan_games(text[12:]))
    assert isinstance(records[0], UnreadableGame)
    assert [record.tags for record in records[1:]] == [{"Event": "b"}]


def test_streaming_a_file_gives_the_same_games_and_lines_as_reading_it_whole() -> None:
    text = "".join((DATA / name).read_text() for name in ("oca_first40.pdn", "oca_comments.pdn"))
    whole = read_games(text)
    from games.rules import pdn

    original = pdn._chunks
    pieces = list(original(io.StringIO(text), size=500))
    assert len(pieces) > 10
    streamed = [game for chunk, first in pieces for game in pdn._Reader(chunk, False, first).games(False)]
    assert streamed == whole
    assert [(g.line, [(m.line, m.column) for m in g.moves]) for g in streamed] == [
        (g.line, [(m.line, m.column) for m in g.moves]) for g in whole
    ]
    assert list(iter_games(io.StringIO(text))) == whole
    assert list(iter_games(text)) == whole


@pytest.mark.parametrize("path", READABLE, ids=lambda path: path.name)
def test_excerpts_survive_a_write_and_read_round_trip(path: Path) -> None:
    games = read_file(path)
    assert games
    again = read_games(write_games(games))
    assert again == games
    assert write_games(again) == write_games(games)


def test_excerpts_hold_the_expected_games_moves_and_comments() -> None:
    counts = {path.name: len(read_file(path)) for path in READABLE}
    assert counts == {
        "goulds_first20.pdn": 20,
        "oca_comments.pdn": 7,
        "oca_first40.pdn": 40,
        "principles_first6.pdn": 6,
        "tinsley_first20.pdn": 20,
        "tinsley_petal1981.pdn": 5,
        "tricks_first12.pdn": 12,
        "tricks_games47_49.pdn": 4,
    }
    first = read_file(DATA / "oca_first40.pdn")[0]
    assert first.tags == {
        "Event": "Manchester 1841", "Date": "1841-??-??", "Black": "Moorhead, W.",
        "White": "Wyllie, J.", "Site": "Manchester", "Result": "0-1",
    }
    assert len(first.moves) == 44 and first.moves[-1].text == "26x17x10x1"
    carlisle = read_file(DATA / "oca_comments.pdn")[1]
    assert carlisle.moves[-1].comment == (
        "Theposition is drawn but McMillan playedthe illegan 17-22 allowing\nTonartohuff."
    )


def test_writer_puts_the_roster_first_numbers_pairs_and_wraps_lines() -> None:
    moves = [PDNMove(text) for text in ["11-15", "23-19", "8-11", "22-17"] * 12]
    moves[1].comment = "the usual"
    moves[2].nags = [1]
    tags = {"Opening": "Old Faithful", "White": "W", "Result": "1/2-1/2", "Black": "B", "Event": "E"}
    game = PDNGame(tags=tags,
                   moves=moves, result="1/2-1/2")
    text = write_game(game)
    lines = text.splitlines()
    assert lines[:5] == ['[Event "E"]', '[Black "B"]', '[White "W"]', '[Result "1/2-1/2"]',
                         '[Opening "Old Faithful"]']
    assert lines[5].startswith("1. 11-15 23-19 {the usual} 2. 8-11! 22-17 3. 11-15")
    assert all(len(line) <= 79 for line in lines)
    assert text.endswith(" 1/2-1/2\n")
    assert read_games(text) == [game]


def test_writer_writes_variations_with_their_numbers() -> None:
    text = "1. 11-15 24-20 (1... 23-19 2. 8-11 (2. 9-14 22-17) 22-17) 2. 8-11 *"
    games = read_games(text, keep_variations=True)
    written = write_games(games)
    assert "(1... 23-19 2. 8-11 (2. 9-14 22-17) 22-17)" in written
    assert read_games(written, keep_variations=True) == games


def test_text_between_games_is_an_unreadable_game_at_its_own_place() -> None:
    text = '[Event "a"]\n1. 11-15 *\n\n%% stray\n[Event "b"]\n1. 9-13 *\n'
    records = list(scan_games(text))
    assert [type(record).__name__ for record in records] == ["PDNGame", "UnreadableGame", "PDNGame"]
    assert (records[1].line, records[1].column) == (4, 1)
    assert records[2].tags == {"Event": "b"}

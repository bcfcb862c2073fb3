"""The ``check`` command: one line per invalid game, a summary, and the exit status."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.cli_check import main

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).parent / "data"


def run_check(*files: str | Path, module: str = "games.rules.cli_check") -> subprocess.CompletedProcess[str]:
    """Runs the check command in a child process from the project root."""
    command = [sys.executable, "-m", module]
    if module == "games.rules":
        command.append("check")
    return subprocess.run(
        [*command, *map(str, files)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_valid_files_print_only_the_summary_and_exit_0() -> None:
    completed = run_check(DATA / "oca_first40.pdn", DATA / "goulds_first20.pdn")
    assert completed.returncode == 0
    assert completed.stdout == "60 games: 60 valid, 0 invalid\n"


def test_an_illegal_move_is_reported_with_file_line_column_game_and_players() -> None:
    path = DATA / "tinsley_petal1981.pdn"
    completed = run_check(path)
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    assert lines[0].startswith(f"{path}:36:5: game 3 (AA Long v M Tinsley): move 62 (32-28): ")
    assert lines[1:] == ["5 games: 4 valid, 1 invalid"]


def test_a_syntax_error_is_reported_and_checking_goes_on_with_the_next_game() -> None:
    path = DATA / "tinsley_london1992.pdn"
    completed = run_check(path, module="games.rules")
    assert completed.returncode == 1
    assert completed.stdout.splitlines() == [
        f"{path}:17:17: game 2 (MF Tinsley v Chinook): PDN syntax error: "
        "unexpected '26-22Whiteoversteppedthetimecontrolonthi...' in movetext",
        "3 games: 2 valid, 1 invalid",
    ]


def test_a_missing_file_is_reported_in_the_same_form_and_fails(tmp_path: Path) -> None:
    missing = tmp_path / "none.pdn"
    completed = run_check(missing, DATA / "principles_first6.pdn")
    assert completed.returncode == 1
    assert completed.stdout.splitlines() == [
        f"{missing}:1:1: cannot read the file: No such file or directory",
        "6 games: 6 valid, 0 invalid",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["0 games: 0 valid, 0 invalid"]),
        ('[Black "B"]\n[White "W"]\n[GameType "25"]\n1. 11-15 *\n',
         ["{path}:1:1: game 1 (B v W): GameType 25 is not English draughts (21)",
          "1 games: 0 valid, 1 invalid"]),
        ('[Event "a"]\n[Setup "1"]\n[FEN "B:W3:B1"]\n1. 1-6 *\n',
         ["{path}:1:1: game 1 (? v ?): bad FEN 'B:W3:B1': ",
          "1 games: 0 valid, 1 invalid"]),
    ],
)
def test_main_reports_game_type_and_fen_at_the_game_start(tmp_path: Path, text: str, expected: list[str]) -> None:
    path = tmp_path / "games.pdn"
    path.write_text(text)
    out = io.StringIO()
    status = main([str(path)], out=out)
    lines = out.getvalue().splitlines()
    assert status == (0 if expected[-1].endswith(" 0 invalid") else 1)
    assert len(lines) == len(expected)
    for line, wanted in zip(lines, expected, strict=True):
        assert line.startswith(wanted.format(path=path))

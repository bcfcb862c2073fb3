"""The command line, run as a subprocess: ``python -m games.rules``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_perft_prints_one_line_per_depth():
    result = run("perft", "4")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert [
        int(re.match(r"perft (\d+) = (\d+)  \(\d+\.\d\ds, \d+ nodes/s\)", line).group(2)) for line in lines
    ] == [
        7,
        49,
        302,
        1469,
    ]


def test_perft_divide_lists_each_root_move():
    result = run("perft", "3", "--divide")
    assert result.returncode == 0
    divide = result.stdout.splitlines()[3:]
    assert divide[0].startswith("9-13: ")
    assert sum(int(line.split(": ")[1]) for line in divide) == 302
    assert len(divide) == 7


def test_perft_with_fen_and_rules():
    result = run("perft", "1", "--fen", "B:W18:B14,1", "--rules", "customary")
    assert result.stdout.startswith("perft 1 = 4 ")


def test_moves_prints_legal_moves_only():
    result = run("moves")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    result = run("moves", "--fen", "B:W18,19,26,27,K30:BK10,14,15,K22")
    assert result.stdout == "14x23x32\n15x24x31\n22x31x24\n"


def test_moves_under_customary():
    result = run("moves", "--fen", "B:W10,19,32:B6", "--rules", "customary")
    assert result.stdout.split() == ["6-9", "6x15", "6x15x24"]


def test_bad_fen_exits_2_with_a_message_on_stderr():
    result = run("moves", "--fen", "X:W1")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "FEN" in result.stderr
    assert run("perft", "2", "--fen", "B:W33:B1").returncode == 2


def test_check_subcommand_is_registered():
    result = run("check", "--help")
    assert result.returncode == 0
    assert "files" in result.stdout.lower() or "FILE" in result.stdout

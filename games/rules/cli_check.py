"""``python -m games.rules check FILE...``: replays every game of PDN files and lists the invalid ones.

Each invalid game is one line, ``FILE:LINE:COL: game N (Black v White): reason``, where
LINE:COL is the refused move (or the game's start for a bad FEN or GameType, or the place of a
syntax error) and N counts the games of the file from 1; a last line sums up
``N games: V valid, I invalid``. The exit status is 0 when every game of every file is valid,
1 otherwise (also for a file that cannot be read).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from games.rules.pdn import PDNGame, _decode, replay, scan_games
from games.rules.rulesets import RuleSet


def _players(tags: dict[str, str]) -> str:
    """Returns ``Black v White`` from a game's tags, ``?`` for a missing name."""
    return f"{tags.get('Black') or '?'} v {tags.get('White') or '?'}"


def check_file(path: str, out: TextIO, rules: RuleSet = RuleSet.STANDARD) -> tuple[int, int, bool]:
    """Checks the games of one file, printing each invalid one; returns (valid, invalid, readable)."""
    try:
        text = _decode(Path(path).read_bytes())
    except OSError as error:
        print(f"{path}:1:1: cannot read the file: {error.strerror or error}", file=out)
        return 0, 0, False
    valid = invalid = 0
    for number, record in enumerate(scan_games(text), start=1):
        if isinstance(record, PDNGame):
            outcome = replay(record, rules)
            if outcome.ok:
                valid += 1
                continue
            invalid += 1
            print(f"{path}:{outcome.line}:{outcome.column}: game {number} ({_players(record.tags)}): "
                  f"{outcome.reason}", file=out)
        else:
            invalid += 1
            error = record.error
            print(f"{path}:{error.line}:{error.column}: game {number} ({_players(record.tags)}): "
                  f"PDN syntax error: {error.message}", file=out)
    return valid, invalid, True


def main(files: Sequence[str], *, rules: str = "standard", out: TextIO | None = None) -> int:
    """Checks PDN files game by game and prints the invalid games and a summary; returns the exit status."""
    out = sys.stdout if out is None else out
    valid = invalid = 0
    all_readable = True
    for path in files:
        file_valid, file_invalid, readable = check_file(path, out, RuleSet(rules))
        valid += file_valid
        invalid += file_invalid
        all_readable = all_readable and readable
    print(f"{valid + invalid} games: {valid} valid, {invalid} invalid", file=out)
    return 0 if invalid == 0 and all_readable else 1


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["check"]:
        arguments = arguments[1:]
    if not arguments:
        print("usage: python -m games.rules.cli_check FILE...", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(arguments))

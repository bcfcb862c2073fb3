"""Measures the move-text reader on hostile text: the old pattern against the linear one.

Usage (from the project root)::

    .venv/bin/python benchmarks/hostile_text.py

The text is issue 15's: ``"1-2"``, N spaces, ``"a"``. The old pattern (``\\s*`` on both sides of
an optional group, greedy everywhere) is timed on growing N to show its quadratic growth; the
current pattern (possessive quantifiers) on the same texts, and ``parse_move_text`` on 2 MB,
which the length cap refuses before any pattern runs.
"""

from __future__ import annotations

import contextlib
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.rules import MoveSyntaxError  # noqa: E402
from games.rules.moves import _MOVE_TEXT, parse_move_text  # noqa: E402

OLD = re.compile(r"\s*(\d{1,2})((?:\s*[-xX:]\s*\d{1,2})+)\s*[!?*+#]*\s*\Z")


def timed(call, *args) -> float:  # noqa: ANN001
    start = time.perf_counter()
    call(*args)
    return time.perf_counter() - start


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print(f"{'spaces':>9} {'old pattern s':>14} {'new pattern s':>14}")
    for n in (1_000, 2_000, 4_000, 8_000, 16_000):
        text = "1-2" + " " * n + "a"
        print(f"{n:>9} {timed(OLD.match, text):>14.4f} {timed(_MOVE_TEXT.match, text.strip()):>14.6f}")
    n = 2_000_000
    text = "1-2" + " " * n + "a"
    print(f"{n:>9} {'(not run)':>14} {timed(_MOVE_TEXT.match, text.strip()):>14.6f}")

    def refused() -> None:
        with contextlib.suppress(MoveSyntaxError):
            parse_move_text(text)

    print(f"parse_move_text on 2 MB (refused by the length cap): {timed(refused) * 1e6:.1f} µs")


if __name__ == "__main__":
    main()

"""The pairing, scoring, lots, ballots and ratings modules stay pure: importing them loads no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_pure_modules_do_not_import_django():
    code = (
        "import sys, tournaments.pairing, tournaments.pairing.dutch, tournaments.pairing.trf, "
        "tournaments.pairing.dutch_cli, tournaments.scoring, tournaments.ratings, "
        "tournaments.lots, tournaments.ballots; print('django' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright for Python."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str:
    """Returns the Chromium executable, or raises naming how to install it."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium chromium-driver)"
        )
    return CHROMIUM

"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright for Python."""

from __future__ import annotations

import os
from pathlib import Path

TEST_PASSWORD = "a-long-test-password"  # the password tests/conftest.py's make_user gives
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


def sign_in(page, username: str, password: str = TEST_PASSWORD) -> None:  # noqa: ANN001
    """Signs in through the login page and waits until the page names the user."""
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("whoami")).to_contain_text(username)

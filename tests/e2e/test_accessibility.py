"""Every main page of the demo, in Chromium, as the user who opens it: accessible, fitting a phone, photographed.

One walk over the demo (seeded once: it takes a while) visits each page as its user and
- runs axe-core (the copy shipped inside the pinned ``axe-playwright-python`` wheel, so nothing is
  fetched at run time) and fails on any serious or critical violation, printing them all;
- at 390x844 checks that the page does not scroll sideways;
- takes a full-page screenshot at 390, 768 and 1280 pixels wide, kept as test artefacts under
  ``test-artifacts/screenshots/`` (``SCREENSHOT_DIR`` overrides; ignored by git), so a change of
  look is seen.

A second test checks that a screen reader hears a new move and a new ruling: the game page's and
the console's live regions say them when they arrive by push.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 768, 1280)
SERIOUS = ("serious", "critical")
ROOT = Path(__file__).resolve().parents[2]


def screenshot_dir() -> Path:
    """Returns the folder the screenshots go to (made if missing)."""
    folder = Path(os.environ.get("SCREENSHOT_DIR") or ROOT / "test-artifacts" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def axe_serious(page) -> list[str]:  # noqa: ANN001
    """Runs axe-core on the page and returns its serious and critical violations, one line a node."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page).response
    found = []
    for violation in results["violations"]:
        if violation["impact"] not in SERIOUS:
            continue
        for node in violation["nodes"]:
            found.append(f"{violation['id']} ({violation['impact']}): {violation['help']} · "
                         f"{', '.join(map(str, node['target']))} · {node['html'][:160]}")
    return found


def sideways(page) -> str | None:  # noqa: ANN001
    """Returns why the page scrolls sideways (its widest elements), or None when it fits."""
    width, inner, beyond = page.evaluate("""() => [document.documentElement.scrollWidth, window.innerWidth,
        [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)
          .slice(0, 6).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))]""")
    return None if width <= inner else f"{width} px wide in {inner}: {beyond}"


def demo_pages() -> list[tuple[str, str | None, str]]:
    """Returns the main pages of the demo: (name, user or None for the public, path)."""
    from arbitration.models import LogEntry
    from games.models import Game
    from tournaments.demo import DEMO_SLUG, SWISS_SLUG
    from tournaments.models import Tournament

    championship = Tournament.objects.get(slug=DEMO_SLUG)
    player = championship.players.get(user__username="player1")
    running = Game.objects.filter(round__tournament=championship, status="in_progress", referees__username="referee1")
    playing = running.order_by("-ply").first()
    finished = (Game.objects.filter(round__tournament=championship, status="finished")
                .filter(black=player) | Game.objects.filter(round__tournament=championship, status="finished",
                                                              white=player)).order_by("id").first()
    noticed = LogEntry.objects.filter(kind="forty_move_notice", game__round__tournament=championship).first()
    return [
        ("home", None, "/"),
        ("tournaments", None, "/tournaments/"),
        ("tournament-running", None, f"/tournaments/{DEMO_SLUG}/"),
        ("tournament-finished", None, f"/tournaments/{SWISS_SLUG}/"),
        ("live-boards", None, f"/tournaments/{DEMO_SLUG}/live/"),
        ("print-standings", None, f"/tournaments/{SWISS_SLUG}/print/standings/"),
        ("print-pairings", None, f"/tournaments/{DEMO_SLUG}/rounds/2/pairings/"),
        ("print-scoresheets", None, f"/tournaments/{DEMO_SLUG}/rounds/2/scoresheets/?game={playing.pk}"),
        ("games", None, "/games/"),
        ("game-running", None, f"/games/{playing.pk}"),
        ("game-finished", None, f"/games/{noticed.game_id if noticed else finished.pk}"),
        ("players", None, "/tournaments/players/"),
        ("player", None, f"/tournaments/players/{player.pk}/"),
        ("player-record", None, f"/tournaments/{DEMO_SLUG}/players/{player.pk}/"),
        ("login", None, "/accounts/login/"),
        ("not-found", None, "/games/999999"),
        ("my-games", "player1", "/tournaments/me/"),
        ("game-to-confirm", "player1", f"/games/{finished.pk}"),
        ("appeal", "player1", f"/games/{finished.pk}/appeal"),
        ("my-boards", "referee1", "/tournaments/me/boards/"),
        ("console", "referee1", f"/games/{playing.pk}/console"),
        ("tokens", "referee1", "/accounts/tokens/"),
        ("my-tournaments", "director", "/tournaments/manage/"),
        ("manage", "director", f"/tournaments/{DEMO_SLUG}/manage/"),
        ("scoresheet-entry", "director", f"/games/{finished.pk}/scoresheet"),
        ("password", "director", "/accounts/password/"),
    ]


def test_every_main_page_passes_axe_fits_a_phone_and_is_photographed(browser, live_server, capsys):
    from tournaments.demo import demo_seed

    logins = {login.username: login.password for login in demo_seed()}
    pages = demo_pages()
    folder = screenshot_dir()
    contexts: dict[str | None, object] = {}
    violations: dict[str, list[str]] = {}
    too_wide: dict[str, str] = {}
    started = time.monotonic()
    try:
        for name, user, path in pages:
            if user not in contexts:
                context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
                context.set_default_timeout(15_000)
                contexts[user] = context
                if user:
                    sign_in(context.new_page(), user, logins[user])
            page = contexts[user].new_page()
            page.set_viewport_size({"width": 390, "height": 844})
            answer = page.goto(path)
            assert answer is not None and answer.status == (404 if name == "not-found" else 200), (name, path)
            page.wait_for_load_state("load")
            if (why := sideways(page)) is not None:
                too_wide[name] = why
            found = axe_serious(page)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 844 if width == 390 else 1024})
                page.screenshot(path=folder / f"{name}-{width}.png", full_page=True)
            found += axe_serious(page)  # at 1280, the wide layout
            if found:
                violations[name] = sorted(set(found))
            page.close()
    finally:
        for context in contexts.values():
            context.close()
    with capsys.disabled():
        print(f"\n{len(pages)} pages checked in {time.monotonic() - started:.0f} s; "
              f"screenshots at {', '.join(map(str, WIDTHS))} px in {folder}")
    report = "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in violations.items())
    assert not violations, f"{sum(map(len, violations.values()))} serious or critical axe violations:\n{report}"
    assert not too_wide, f"pages that scroll sideways at 390 px: {too_wide}"

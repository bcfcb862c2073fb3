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
    wide = "\n".join(f"{name}: {why}" for name, why in too_wide.items())
    assert not violations and not too_wide, (
        f"{sum(map(len, violations.values()))} serious or critical axe violations:\n{report}\n"
        f"{len(too_wide)} pages scroll sideways at 390 px:\n{wide}")


@pytest.fixture
def push_server(transactional_db, tmp_path):
    """Serves pages, API and the live streams (uvicorn, config/asgi.py) in its own process."""
    from tests.conftest import worker_env
    from tests.support.live import WebProcess

    web = WebProcess(env=worker_env(), log_path=tmp_path / "web.log").start()
    yield web
    web.stop()


def _api_post(server, token: str, path: str, body: dict) -> None:  # noqa: ANN001
    request = urllib.request.Request(
        f"{server.url}/api/v1/{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201


def test_a_screen_reader_hears_each_new_move_and_ruling_on_the_game_page_and_the_console(browser, push_server):
    from accounts.services import token_issue, user_create_with_role
    from arbitration.services import game_create
    from players.models import Player
    from tests.support.browser import TEST_PASSWORD

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    referee = user_create_with_role(username="rf", password=TEST_PASSWORD, role="referee")
    game = game_create(acting_user=director, black=Player.objects.create(name="Agnes Calder"),
                       white=Player.objects.create(name="Bram Okafor"), referees=[referee.username])
    token = token_issue(user=referee)
    contexts = [browser.new_context(base_url=push_server.url) for _ in range(2)]
    try:
        spectator, console = (context.new_page() for context in contexts)
        for page in (spectator, console):
            page.set_default_timeout(10_000)
        spectator.goto(f"/games/{game.pk}")
        sign_in(console, "rf")
        console.goto(f"/games/{game.pk}/console")
        for page in (spectator, console):
            expect(page.locator("html")).to_have_attribute("data-live", "open")
            region = page.get_by_test_id("announcer")
            expect(region).to_have_attribute("aria-live", "polite")
            expect(region).to_have_text("")  # what was there before the page opened is not news

        _api_post(push_server, token, f"games/{game.pk}/moves/", {"move": "11-15"})
        for page in (spectator, console):
            expect(page.get_by_test_id("announcer")).to_have_text("Move 1, Black: 11-15.")
        _api_post(push_server, token, f"games/{game.pk}/rulings/", {"kind": "touch_offence", "side": "white"})
        _api_post(push_server, token, f"games/{game.pk}/moves/", {"move": "22-18"})
        for page in (spectator, console):
            region = page.get_by_test_id("announcer")
            expect(region.locator("p")).to_have_text([
                "Move 1, Black: 11-15.", re.compile(r"^Touch without intimation \(Law 18\), White\.$"),
                "Move 1, White: 22-18."])
            assert region.evaluate("e => e.getBoundingClientRect().width") <= 1  # heard, not seen
        expect(spectator.get_by_test_id("board-position")).to_have_text(  # the whole board in one sentence
            "Black men on 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15. White men on 18, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32.")
    finally:
        for context in contexts:
            context.close()

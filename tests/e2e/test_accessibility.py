"""Every main page of the demo and the states its users meet: accessible, fitting a phone, photographed.

One walk over the demo (seeded once: it takes a while) visits each page as its user, first as it
loads (``demo_pages``, a 404 and a 403 among them), then in the states a referee, a
player and a director meet in it (``walk_states``):

- the referee's console: a piece picked (its landing squares shown, the pointer on a square), the
  "Rulings…" sheet open, a ruling's confirmation dialog with its fields (a caution, cancelled), a
  ruling refused in the dialog, a ruling recorded with the log verified, a typed move refused at
  once, a move waiting to send in the outbox (its POST to ``moves/`` aborted) and then refused on
  arrival;
- a player: checked in for the next round on the tournament's page, the appeal form refused (an
  empty statement), a game whose appeals are closed (a finished tournament: no confirm or appeal asked);
- the director: a player marked absent at check-in, the next round's preview (paired, not
  published), its edit refused (no reason), the new player's form refused, a game's scoresheet
  and a round's pasted scoresheets refused at a wrong move (its number and the legal moves), the
  new tournament's form refused;
- the sign-in refused, the password change refused (the two new passwords differ), the tokens'
  form refused (a blank name) and a token made; the public game page after a move arrives (the
  board moves on, the live region says it).

At each page and state it
- runs axe-core (the copy shipped inside the pinned ``axe-playwright-python`` wheel, so nothing is
  fetched at run time) at 390 and at 1280 pixels wide and fails on any serious or critical
  violation, printing them all;
- at 390x844 checks that the page does not scroll sideways;
- takes a full-page screenshot at 390, 768 and 1280 pixels wide (``<page or state>-<width>.png``,
  ``console-rulings-open-390.png``), kept as test artefacts under ``test-artifacts/screenshots/``
  (``SCREENSHOT_DIR`` overrides; ignored by git), so a change of look is seen.

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
STATUS = {"not-found": 404, "forbidden": 403}  # the pages of the walk that are not a 200
ROOT = Path(__file__).resolve().parents[2]


def screenshot_dir() -> Path:
    """Returns the folder the screenshots go to (made if missing)."""
    folder = Path(os.environ.get("SCREENSHOT_DIR") or ROOT / "test-artifacts" / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def axe_serious(page) -> list[str]:  # noqa: ANN001
    """Runs axe-core on the page and returns its serious and critical violations, one line a node.

    As ``axe_playwright_python``'s ``Axe().run`` does, but its script (570 KB) is sent and compiled once a
    page load, not before each run: a page is checked at two widths and in several states. And the rules
    that can only find moderate or minor violations are not run: since axe-core 4.x each rule states the
    one impact all its violations have (``impact`` in its metadata; axe-core issue 4066), so what they
    would find is what this check leaves out anyway (32 of the 104 rules of axe-core 4.12, a landmark and
    region walk of the whole page among them). A rule with no impact stated runs.
    """
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(Axe().axe_script)
    results = page.evaluate("""([options, serious]) => axe.run(document, {...options, rules: Object.fromEntries(
        axe._audit.rules.filter(rule => rule.impact && !serious.includes(rule.impact))
          .map(rule => [rule.id, {enabled: false}]))})""", [DEFAULT_OPTIONS, list(SERIOUS)])
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


def force_hover(page, selector: str):  # noqa: ANN001, ANN201
    """Holds the element in its :hover state (Chrome's DevTools protocol) until the returned session is detached."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    session.send("CSS.forcePseudoState", {"nodeId": node, "forcedPseudoClasses": ["hover"]})
    return session


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
        ("clubs", None, "/clubs/"),
        ("club", None, f"/clubs/{player.club_membership.club_id}/"),
        ("club-as-secretary", "secretary", f"/clubs/{player.club_membership.club_id}/"),
        ("login", None, "/accounts/login/"),
        ("not-found", None, "/games/999999"),
        ("forbidden", "player1", f"/games/{playing.pk}/console"),
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


class Walk:
    """Checks pages and states as their users meet them: axe-core, the phone's width, the screenshots."""

    def __init__(self, browser, base_url: str, logins: dict[str, str]) -> None:  # noqa: ANN001
        self.browser, self.base_url, self.logins = browser, base_url, logins
        self.contexts: dict[str | None, object] = {}
        self.violations: dict[str, list[str]] = {}
        self.too_wide: dict[str, str] = {}
        self.checked = 0
        self.folder = screenshot_dir()

    def page(self, user: str | None):  # noqa: ANN201
        """Returns a new page at 390x844 in the user's context (signed in once), or the public's for None."""
        if user not in self.contexts:
            context = self.browser.new_context(base_url=self.base_url, viewport={"width": 390, "height": 844})
            context.set_default_timeout(15_000)
            self.contexts[user] = context
            if user:
                sign_in(context.new_page(), user, self.logins[user])
        page = self.contexts[user].new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        return page

    def check(self, page, name: str) -> None:  # noqa: ANN001
        """Checks the page as it stands: no sideways scroll at 390, axe at 390 and 1280, the three screenshots.

        The page is left at 390x844 again, for the next step of a walk through its states.
        """
        page.set_viewport_size({"width": 390, "height": 844})
        if (why := sideways(page)) is not None:
            self.too_wide[name] = why
        found = axe_serious(page)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844 if width == 390 else 1024})
            page.screenshot(path=self.folder / f"{name}-{width}.png", full_page=True)
        found += axe_serious(page)  # at 1280, the wide layout
        if found:
            self.violations[name] = sorted(set(found))
        page.set_viewport_size({"width": 390, "height": 844})
        self.checked += 1

    def close(self) -> None:
        for context in self.contexts.values():
            context.close()

    def failures(self) -> str | None:
        """Returns every violation and every sideways scroll found, or None."""
        if not self.violations and not self.too_wide:
            return None
        report = "\n".join(f"{name}:\n  " + "\n  ".join(lines) for name, lines in self.violations.items())
        wide = "\n".join(f"{name}: {why}" for name, why in self.too_wide.items())
        return (f"{sum(map(len, self.violations.values()))} serious or critical axe violations:\n{report}\n"
                f"{len(self.too_wide)} pages or states scroll sideways at 390 px:\n{wide}")


def walk_pages(walk: Walk) -> int:
    """Walks the main pages of the demo as they first load; returns how many."""
    pages = demo_pages()
    for name, user, path in pages:
        page = walk.page(user)
        answer = page.goto(path)
        assert answer is not None and answer.status == STATUS.get(name, 200), (name, path)
        page.wait_for_load_state("load")
        walk.check(page, name)
        page.close()
    return len(pages)


def walk_states(walk: Walk) -> None:
    """Walks the states a referee, a player and a director meet beyond a page's first load: dialogs open,
    moves waiting or refused, forms refused, a check-in, a round's preview, a move heard on the game page."""
    from games.models import Game
    from tournaments.demo import DEMO_SLUG, SWISS_SLUG

    def of_player1(games):  # noqa: ANN001, ANN202
        return games.filter(black__user__username="player1") | games.filter(white__user__username="player1")

    running = Game.objects.filter(round__tournament__slug=DEMO_SLUG, status="in_progress")
    playing = running.filter(referees__username="referee1").order_by("-ply").first()
    finished = of_player1(Game.objects.filter(round__tournament__slug=DEMO_SLUG, status="finished")).order_by("id")[0]
    swiss = of_player1(Game.objects.filter(round__tournament__slug=SWISS_SLUG)).order_by("id")[0]
    blank = (Game.objects.filter(round__tournament__slug=DEMO_SLUG, ply=0).exclude(status="finished")
             .select_related("round", "black", "white").order_by("id")[0])
    followed = running.exclude(pk=playing.pk).order_by("id")[0]
    console_states(walk, playing)
    player_states(walk, DEMO_SLUG, finished=finished, swiss=swiss)
    director_states(walk, DEMO_SLUG, blank=blank)
    form_states(walk)
    game_page_states(walk, followed)


def console_states(walk: Walk, game) -> None:  # noqa: ANN001
    """The referee's console: a piece picked, the rulings sheet, a ruling's dialog, a ruling refused, one
    recorded (and the log verified), a move refused at once, a move waiting to send (its POST aborted),
    then refused on arrival."""
    from games.rules.position import Position

    page = walk.page("referee1")
    page.goto(f"/games/{game.pk}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("to move")
    position = Position.from_fen(game.fen)
    first = position.legal_moves(game.rule_set)[0]
    page.get_by_test_id(f"square-{first.start}").click()
    expect(page.get_by_test_id(f"square-{first.path[1]}")).to_have_class(re.compile(r"\bis-landing\b"))
    # The pointer rests on an empty square that is not marked: its number stays readable. Axe measures
    # no number on a marked or occupied square, nor one of a single digit; the hover is the browser's
    # own state, not the mouse's, which axe's scrolling would move off the square.
    landings = {square for move in position.legal_moves(game.rule_set) if move.start == first.start
                for square in move.path[1:]}
    resting = next(square for square in range(10, 33) if position.piece_at(square) is None and square not in landings)
    hovered = force_hover(page, f'[data-square="{resting}"]')
    walk.check(page, "console-piece-picked")
    hovered.detach()
    page.get_by_test_id("cancel-selection").click()

    page.get_by_test_id("rulings-menu").click()
    expect(page.get_by_test_id("rulings-sheet")).to_be_visible()
    walk.check(page, "console-rulings-open")

    page.get_by_test_id("ruling-touch_offence").click()
    dialog = page.get_by_test_id("ruling-dialog")
    expect(dialog.get_by_test_id("ruling-side")).to_be_visible()
    expect(dialog.get_by_test_id("ruling-field-note")).to_be_visible()
    walk.check(page, "console-ruling-dialog")
    dialog.get_by_test_id("ruling-cancel").click()  # nothing is recorded

    page.get_by_test_id("rulings-menu").click()
    page.get_by_test_id("ruling-correction").click()
    dialog.get_by_test_id("ruling-field-entry").fill("999999")
    dialog.get_by_test_id("ruling-field-reason").fill("Checking the dialog's refusal.")
    dialog.get_by_test_id("ruling-confirm").click()
    expect(dialog.get_by_test_id("ruling-error")).to_contain_text("no log entry")
    walk.check(page, "console-ruling-error")
    dialog.get_by_test_id("ruling-cancel").click()
    expect(dialog).to_be_hidden()

    page.get_by_test_id("rulings-menu").click()
    page.get_by_test_id("ruling-spectator").click()  # on the log; no effect on the game
    dialog.get_by_test_id("ruling-field-note").fill("A spectator spoke to Black during play.")
    dialog.get_by_test_id("ruling-confirm").click()
    expect(page.get_by_test_id("notice")).to_contain_text("Recorded: Spectator")
    page.get_by_test_id("verify-log").click()
    expect(page.get_by_test_id("verify-result")).to_contain_text("The chain holds")
    walk.check(page, "console-ruling-recorded")

    field = page.get_by_label("Move (PDN)")
    field.fill("1-2")  # never legal: 1 and 2 are not neighbours
    field.press("Enter")
    expect(page.get_by_test_id("alert")).to_contain_text("1-2")
    walk.check(page, "console-move-refused")

    moves = f"**/api/v1/games/{game.pk}/moves/"
    page.route(moves, lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    field.fill("1-2")
    field.press("Enter")
    item = page.get_by_test_id("outbox-item")
    expect(item).to_have_attribute("data-status", "waiting")
    expect(page.get_by_test_id("connection")).to_contain_text("No connection")
    walk.check(page, "console-outbox-waiting")
    page.unroute(moves)
    expect(item).to_have_attribute("data-status", "refused")
    expect(page.get_by_test_id("outbox-reason")).to_contain_text("1-2")
    walk.check(page, "console-outbox-refused")
    page.get_by_test_id("outbox-send").click()  # dismissed
    expect(page.get_by_test_id("outbox")).to_be_hidden()
    page.close()


def player_states(walk: Walk, slug: str, *, finished, swiss) -> None:  # noqa: ANN001
    """A player: checked in for the next round, an appeal refused (no statement), a game whose appeals are
    closed (a finished tournament's, and round 1's once round 2 is published): no confirm or appeal asked."""
    page = walk.page("player1")
    page.goto(f"/tournaments/{slug}/")
    page.get_by_test_id("i-am-here").click()
    expect(page.get_by_test_id("my-check-in")).to_contain_text("marked present")
    walk.check(page, "tournament-checked-in")

    page.goto(f"/games/{finished.pk}/appeal")
    page.get_by_label("Your statement").fill("   ")  # the browser lets it through; the server refuses it
    page.get_by_test_id("appeal-submit").click()
    expect(page.get_by_test_id("appeal-error")).to_be_visible()
    walk.check(page, "appeal-refused")

    # Confirm or appeal is asked only while an appeal may be filed: not on a finished tournament's game, nor on
    # round 1's once round 2 is published.
    page.goto(f"/games/{swiss.pk}")
    expect(page.get_by_test_id("appeals-closed")).to_contain_text("the tournament is finished")
    expect(page.get_by_test_id("confirm-result")).to_have_count(0)
    walk.check(page, "game-appeals-closed")
    page.goto(f"/games/{finished.pk}")
    expect(page.get_by_test_id("appeals-closed")).to_contain_text("appeals on round 1 are closed")
    page.close()


def director_states(walk: Walk, slug: str, *, blank) -> None:  # noqa: ANN001
    """The director: a player marked absent at check-in (saved in place), the next round's preview, its edit
    refused (no reason), players pasted for import (the preview, then refused empty), the new player's form
    refused, a game's and a round's scoresheets refused at a wrong move, the round published and a result typed in
    the results grid, a new tournament's form refused."""
    page = walk.page("director")
    page.goto(f"/tournaments/{slug}/manage/")
    page.get_by_test_id("check-in-row").last.get_by_role("button", name=re.compile("absent$")).click()
    expect(page.get_by_test_id("check-in-said")).to_contain_text("marked absent")  # saved in place, no reload
    expect(page.get_by_test_id("check-in-row").last.get_by_test_id("check-in-mark")).to_have_text("absent")
    walk.check(page, "manage-check-in")

    page.get_by_test_id("pair-button").click()
    expect(page.locator("ul.messages")).to_contain_text("check the preview")
    expect(page.get_by_test_id("preview-match").first).to_be_visible()
    walk.check(page, "manage-round-preview")

    page.get_by_test_id("edit-pairings").get_by_role("button", name="Save the pairings").click()
    expect(page.locator("ul.messages li.error")).to_contain_text("Say why")
    walk.check(page, "manage-preview-refused")

    page.goto(f"/games/{blank.pk}/scoresheet")
    page.get_by_label("Moves").fill("1. 4-8")  # a black man cannot move onto his own
    page.get_by_label("Result").select_option("1-0")
    page.get_by_test_id("scoresheet-submit").click()
    expect(page.get_by_test_id("refused-number")).to_be_visible()
    expect(page.get_by_test_id("legal-moves")).not_to_be_empty()
    walk.check(page, "scoresheet-refused")

    page.goto(f"/tournaments/{slug}/manage/rounds/{blank.round.number}/scoresheets")
    page.get_by_label("The round's games (PDN)").fill(
        f'[Black "{blank.black.name}"]\n[White "{blank.white.name}"]\n1. 4-8 1-0')
    page.get_by_test_id("scoresheets-submit").click()
    expect(page.get_by_test_id("scoresheets-error").get_by_test_id("refused-number")).to_be_visible()
    walk.check(page, "round-scoresheets-refused")

    # the preview published: the results grid, a result typed (saved in place), then undone
    page.goto(f"/tournaments/{slug}/manage/")
    page.get_by_test_id("publish-button").click()
    # the page after the publishing: the one before it had a results grid too (the round being played), and a
    # key pressed in it before the new page came went nowhere
    expect(page.locator("ul.messages")).to_contain_text("is published")
    row = page.get_by_test_id("results-grid").get_by_test_id("grid-row").first
    row.get_by_test_id("grid-result").press("=")
    expect(row.get_by_test_id("grid-said")).to_have_text("saved")
    walk.check(page, "manage-results-grid")
    row.get_by_test_id("grid-result").press("u")
    expect(row.get_by_test_id("grid-said")).to_have_text("undone")

    page.goto("/tournaments/manage/")
    page.get_by_role("textbox", name="Name").fill("Spring Open")
    page.locator("#id_deck_barred").fill("seven")  # barred openings are named by their numbers
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".errorlist")).to_be_visible()
    walk.check(page, "my-tournaments-refused")

    # a new Swiss in draft: its players found by search, pasted for import (the preview, then refused empty),
    # the new player's form refused
    page.goto("/tournaments/manage/")
    form = page.get_by_test_id("create-tournament")
    form.get_by_role("textbox", name="Name").fill("Walk Swiss")
    form.get_by_label("Format").select_option("swiss")
    form.get_by_role("spinbutton", name="Rounds:", exact=True).fill("3")
    form.get_by_role("button", name="Create the tournament").click()
    expect(page.get_by_test_id("next-step")).to_have_attribute("data-step", "entries")
    page.get_by_test_id("player-search").fill("a")
    page.get_by_test_id("player-choices").get_by_role("checkbox").first.check()
    walk.check(page, "manage-draft-players")
    page.get_by_test_id("import-players").get_by_test_id("import-text").fill("Nia Preview, Hull DC\n, no name")
    page.get_by_test_id("import-players").get_by_test_id("import-preview").click()
    expect(page.get_by_test_id("import-refused")).to_contain_text("Line 2: the name is missing")
    walk.check(page, "manage-import-preview")
    page.get_by_test_id("import-text").fill("")
    page.get_by_test_id("import-preview").click()
    expect(page.get_by_test_id("import-error")).to_be_visible()
    walk.check(page, "manage-import-refused")
    page.goto("/tournaments/walk-swiss/manage/")

    new_player = page.locator("details", has_text="A new player")
    new_player.locator("summary").click()
    new_player.get_by_role("textbox", name="Name").fill("   ")
    new_player.get_by_role("button", name="Add and register").click()
    expect(page.locator("ul.messages li.error")).to_contain_text("new player")
    walk.check(page, "manage-new-player-refused")

    page.close()


def form_states(walk: Walk) -> None:
    """The account's forms refused and answered: the sign-in, the password, the tokens."""
    page = walk.page(None)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("player1")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("did not match")
    walk.check(page, "login-refused")
    page.close()

    page = walk.page("director")
    page.goto("/accounts/password/")
    page.locator("#id_old_password").fill(walk.logins["director"])
    page.locator("#id_new_password1").fill("a-new-long-password-1")
    page.locator("#id_new_password2").fill("a-new-long-password-2")
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator(".errorlist")).to_be_visible()
    walk.check(page, "password-refused")
    page.close()

    page = walk.page("referee1")
    page.goto("/accounts/tokens/")
    page.get_by_role("textbox", name="Name").fill("   ")
    page.get_by_role("button", name="Make a token").click()
    expect(page.get_by_role("alert")).to_contain_text("No token made")
    walk.check(page, "tokens-refused")
    page.get_by_role("textbox", name="Name").fill("Hall phone")
    page.get_by_role("button", name="Make a token").click()
    expect(page.get_by_test_id("new-key")).to_be_visible()
    walk.check(page, "tokens-made")
    page.close()


def game_page_states(walk: Walk, game) -> None:  # noqa: ANN001
    """The public game page once a move arrives: the board moves on and the announcer says it."""
    from arbitration.services import game_move_record
    from games.rules.position import Position

    page = walk.page(None)
    page.goto(f"/games/{game.pk}")
    expect(page.get_by_test_id("announcer")).to_have_text("")
    move = Position.from_fen(game.fen).legal_moves(game.rule_set)[0].pdn()
    outcome = game_move_record(acting_user=game.referees.order_by("id")[0], game_id=game.pk, move=move)
    assert outcome.refused is None, outcome.refused
    expect(page.get_by_test_id("announcer")).to_contain_text(move)
    walk.check(page, "game-move-announced")
    page.close()


# The walk seeds the whole demo (a championship, a Swiss, an event of three sections, a title match,
# clubs) and visits some 30 pages in 3 widths and 25 states: minutes, beyond the suite's 300 s.
@pytest.mark.timeout(1200)
def test_every_main_page_and_the_states_its_users_meet_pass_axe_fit_a_phone_and_are_photographed(
        browser, live_server, demo_logins, capsys):
    walk = Walk(browser, live_server.url, demo_logins)
    started = time.monotonic()
    try:
        pages = walk_pages(walk)
        middle = time.monotonic()
        walk_states(walk)
    finally:
        walk.close()
    with capsys.disabled():
        print(f"\n{pages} pages checked in {middle - started:.0f} s, {walk.checked - pages} of their states in "
              f"{time.monotonic() - middle:.0f} s; screenshots at {', '.join(map(str, WIDTHS))} px in {walk.folder}")
    assert walk.failures() is None, walk.failures()


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


def test_the_axe_check_reports_serious_violations_on_each_run_of_a_page(browser):
    """The walk's checker finds what it must: axe's script sent once a page load, run at each check."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><head><title>t</title></head><body><main>'
                         '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></main></body></html>')
        first = axe_serious(page)
        assert any(line.startswith("image-alt (critical)") for line in first), first
        assert any(line.startswith("button-name (critical)") for line in first), first
        page.evaluate("document.querySelector('img').alt = 'a dot'")
        second = axe_serious(page)  # axe already in the page: run again, on the page as it stands now
        assert not any(line.startswith("image-alt") for line in second), second
        assert any(line.startswith("button-name (critical)") for line in second), second

        # the rules it does not run are those that find only moderate or minor violations: a full run of axe on a
        # page with both kinds finds the same serious ones
        page.set_content('<html lang="en"><head><title>t</title></head><body><h1>a</h1><h3>b</h3><p>outside</p>'
                         '<main><button></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>')
        checked = axe_serious(page)
        everything = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})"
                                   ".then(results => results.violations.map(v => [v.id, v.impact]))")
        assert ["heading-order", "moderate"] in everything and ["region", "moderate"] in everything, everything
        assert {line.split(" ")[0] for line in checked} == {rule for rule, impact in everything if impact in SERIOUS}
        assert {"button-name", "image-alt"} <= {line.split(" ")[0] for line in checked}, checked
    finally:
        context.close()

"""The referee console at the board, on a phone (390x844) and a tablet (768x1024), in Chromium.

No page scrolls sideways; the board is as wide as the screen and its squares, like every
button, are touch targets of at least 44 CSS pixels; the clocks are large; the rulings sit behind
one menu, each with its law, and ask for a confirmation; a move can be entered with the keyboard
alone, typed or on the board with the arrow keys.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
CLOCK = {"control": "moves-in-time", "moves": 30, "seconds": 5400}


def _game(referee_username: str, *, clock: dict | None = None):
    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from players.models import Player

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    return game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder-Featherstonehaugh"),
        white=Player.objects.create(name="Bram Okafor-Villanueva"), rule_set="standard",
        referees=[referee_username], clock=clock,
    )


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth, [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))]")
    assert width[0] <= width[1], f"{page.url} scrolls sideways: {width[0]} px wide in {width[1]}: {width[2]}"


def _too_small(page, selector: str) -> list[str]:
    """Returns the visible elements of selector smaller than 44 x 44 CSS px."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.getAttribute('data-testid') || e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)""",
        selector,
    )


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone-390x844", "tablet-768x1024"])
def test_the_console_fits_a_phone_and_a_tablet_with_touch_targets_large_clocks_and_one_rulings_menu(
    page, make_user, viewport, tmp_path,
):
    from arbitration.models import LogEntry
    from arbitration.services import game_move_record

    referee = make_user("ref1", "referee")
    game = _game("ref1", clock=CLOCK)
    for ply, move in enumerate(["11-15", "23-19", "8-11", "22-17"], start=1):
        game_move_record(acting_user=referee, game_id=game.id, move=move, ply=ply)
    page.set_viewport_size(viewport)
    sign_in(page, "ref1")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("move-4")).to_have_text("22-17")
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("move")
    _no_sideways_scroll(page)

    # The board takes the width of the screen, less a small margin; its squares are 44 px or more.
    inner = page.evaluate("() => window.innerWidth")
    board = page.get_by_test_id("board").bounding_box()
    assert inner - 50 <= board["width"] <= inner, (board, inner)
    assert _too_small(page, "[data-testid=board] button.sq") == []
    # So is every button of the console, and the move field.
    assert _too_small(page, "#console button, #move-input") == []

    # The clocks are large: each face's time in figures of 40 px or more.
    expect(page.get_by_test_id("clocks")).to_be_visible()
    sizes = page.evaluate("""() => [...document.querySelectorAll('#clocks .clock-time')]
        .map((e) => parseFloat(getComputedStyle(e).fontSize))""")
    assert len(sizes) == 2 and min(sizes) >= 40, sizes
    clipped = page.evaluate("""() => [...document.querySelectorAll('#clocks .clock-time')]
        .filter((e) => e.scrollWidth > e.clientWidth || e.getBoundingClientRect().right > e.parentElement.getBoundingClientRect().right)
        .map((e) => e.textContent)""")
    assert clipped == [], f"clock figures cut off: {clipped}"
    page.screenshot(path=str(tmp_path / f"console-{viewport['width']}.png"), full_page=True)

    # The rulings are behind one menu: no ruling button shows until it is opened.
    expect(page.get_by_role("button", name="Touch offence (Law 18)")).to_be_hidden()
    page.get_by_role("button", name="Rulings…").click()
    sheet = page.get_by_test_id("rulings-sheet")
    expect(sheet).to_be_visible()
    for name in ["False move (Law 21)", "Touch offence (Law 18)", "Over the angle (Law 20)",
                 "40-move notice (Law 22)", "Conduct (Law 29)", "Appeal (Law 28)"]:
        expect(sheet.get_by_role("button", name=name)).to_be_visible()
    assert _too_small(page, "#rulings-sheet button") == []
    _no_sideways_scroll(page)
    sheet_box = sheet.bounding_box()
    assert sheet_box["x"] >= 0 and sheet_box["x"] + sheet_box["width"] <= inner

    # Choosing one asks for a confirmation; cancelled, nothing is recorded.
    sheet.get_by_role("button", name="Touch offence (Law 18)").click()
    expect(sheet).to_be_hidden()
    dialog = page.get_by_test_id("ruling-dialog")
    expect(dialog).to_contain_text("Confirm: Touch offence (Law 18)")
    _no_sideways_scroll(page)
    assert _too_small(page, "#ruling-dialog button") == []
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert not LogEntry.objects.filter(game=game, kind="touch_offence").exists()

    # Confirmed, it is.
    page.get_by_role("button", name="Rulings…").click()
    sheet.get_by_role("button", name="Touch offence (Law 18)").click()
    dialog.get_by_label("White").check()
    dialog.get_by_role("button", name="Confirm").click()
    expect(page.get_by_test_id("cautions")).to_have_text("Black 0 · White 1")
    assert LogEntry.objects.filter(game=game, kind="touch_offence", side="white", law="18").count() == 1

    # The public game page and the games list do not scroll sideways either.
    page.goto(f"/games/{game.id}")
    expect(page.get_by_test_id("board")).to_be_visible()
    _no_sideways_scroll(page)
    page.goto("/games/")
    expect(page.get_by_test_id("games")).to_be_visible()
    _no_sideways_scroll(page)


def test_a_referee_enters_moves_with_the_keyboard_alone(page, make_user):
    """Types 11-15 and Enter in the labelled field, then plays 22-18 on the board with the arrow keys and Enter."""
    from games.models import Game

    make_user("ref2", "referee")
    game = _game("ref2")
    page.set_viewport_size(PHONE)
    sign_in(page, "ref2")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")

    field = page.get_by_label("Move (PDN)")
    field.focus()
    page.keyboard.type("11-15")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("move-1")).to_have_text("11-15")
    expect(page.get_by_test_id("game-status")).to_contain_text("White to move")

    # Back from the field to the board with Shift+Tab: the board is a single stop in the tab order.
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.hasAttribute('data-square')"):
            break
    else:
        raise AssertionError("Shift+Tab never reached the board")

    def go_to(square: int) -> None:
        target = page.get_by_test_id(f"square-{square}").bounding_box()
        for _ in range(20):
            active = page.evaluate("() => document.activeElement.getAttribute('data-square')")
            if active == str(square):
                return
            box = page.locator(f"[data-square='{active}']").bounding_box()
            if abs(box["y"] - target["y"]) > 2:
                page.keyboard.press("ArrowDown" if target["y"] > box["y"] else "ArrowUp")
            else:
                page.keyboard.press("ArrowRight" if target["x"] > box["x"] else "ArrowLeft")
        raise AssertionError(f"the arrow keys never reached square {square}")

    go_to(22)
    expect(page.get_by_test_id("square-22")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("selection")).to_contain_text("Selected: 22")
    go_to(18)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("move-2")).to_have_text("22-18")
    game.refresh_from_db()
    assert game.ply == 2 and game.status == Game.Status.IN_PROGRESS
    assert list(game.moves.order_by("ply").values_list("pdn", flat=True)) == ["11-15", "22-18"]

"""The referee's phone (390x844): the console's compact header leaves the clocks and the board on the first screen,
a refused move is said beside the board (where the referee is looking) and to a screen reader, and the log is read
whole at 390 px, each entry a card."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _clocked_game(referee_username: str):
    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from players.models import Player

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    return game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder-Featherstonehaugh"),
        white=Player.objects.create(name="Bram Okafor-Villanueva"), rule_set="standard",
        referees=[referee_username], clock={"control": "moves-in-time", "moves": 30, "seconds": 1800},
    )


def test_on_a_phone_the_clocks_and_the_board_are_on_the_first_screen_and_a_refusal_is_said_beside_the_board(
        page, make_user, capsys):
    from arbitration.models import LogEntry
    from arbitration.services import game_move_record, ruling_issue

    referee = make_user("ref1", "referee")
    game = _clocked_game("ref1")
    for move in ("11-15", "23-19", "8-11", "22-17"):
        assert game_move_record(acting_user=referee, game_id=game.pk, move=move).refused is None
    ruling_issue(acting_user=referee, game_id=game.pk, kind=LogEntry.Kind.TOUCH_OFFENCE, side="black",
                 note="touched a piece without saying he was arranging it, a long note that must wrap on a phone")
    page.set_viewport_size(PHONE)
    sign_in(page, "ref1")
    page.goto(f"/games/{game.pk}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("to move")
    expect(page.get_by_test_id("clocks")).to_be_visible()

    header = page.get_by_test_id("console-header").bounding_box()
    clocks = page.get_by_test_id("clocks").bounding_box()
    board = page.get_by_test_id("board-container").bounding_box()
    with capsys.disabled():
        print(f"\nconsole at 390x844: header {header['height']:.0f} px, clocks {clocks['y']:.0f}-"
              f"{clocks['y'] + clocks['height']:.0f}, board {board['y']:.0f}-{board['y'] + board['height']:.0f} px")
    assert header["height"] <= 80, header  # the issue measured 214 px
    assert clocks["y"] + clocks["height"] <= PHONE["height"], clocks
    assert board["y"] + board["height"] <= PHONE["height"], board  # the whole board, no scrolling
    assert board["width"] >= 350, board

    # a refused move: said beside the board (in view while the referee is at the board), in words, no code
    page.get_by_test_id("move-input").fill("12-8")  # a man moving backwards
    page.get_by_test_id("move-input").press("Enter")
    alert = page.get_by_test_id("alert")
    expect(alert).to_be_visible()
    expect(alert).to_have_attribute("role", "alert")
    expect(alert).to_be_in_viewport()
    expect(alert).not_to_contain_text("illegal_move")
    expect(alert.get_by_test_id("alert-legal-moves")).to_contain_text("Legal moves:")
    alert_box, board = alert.bounding_box(), page.get_by_test_id("board-container").bounding_box()
    assert 0 <= alert_box["y"] - (board["y"] + board["height"]) <= 24, (alert_box, board)  # right under the board

    # the log at 390 px: every entry read whole, nothing past the screen's edge, each value named
    entries = page.get_by_test_id("log-entry")
    expect(entries.filter(has_text="a long note")).to_have_count(1)
    assert entries.count() >= 6  # the game's creation, four moves, the touch offence
    too_wide = page.evaluate("""() => [...document.querySelectorAll('[data-testid=log-entry], [data-testid=log-entry] td')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).length""")
    assert too_wide == 0
    caution = entries.filter(has_text="a long note")
    expect(caution.locator("td.note")).to_be_visible()
    assert page.evaluate("""() => getComputedStyle(document.querySelector('[data-testid=log-entry] td.note'), '::before')
        .content""") == '"Note: "'
    expect(caution.locator("td.kind")).to_have_text("Touch without intimation (Law 18)")  # words, not the code

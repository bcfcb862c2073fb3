"""A referee uses the console in the browser: plays a short game to a win by clicking, sees an
illegal move refused with its reason, and records touch offences until the forfeit (Law 18)."""

import re

import pytest

from tests.support.browser import TEST_PASSWORD, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Black: 5-9 (a sacrifice), White must take 13x6, then Black's man on 1 takes both: 1x10x19.
SHORT_WIN_FEN = "B:W13,15:B1,5"


def _game(*, referee_username: str, start_fen: str = ""):
    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from players.models import Player

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    black = Player.objects.create(name="Agnes Calder")
    white = Player.objects.create(name="Bram Okafor")
    return game_create(
        acting_user=director, black=black, white=white, rule_set="standard", referees=[referee_username],
        start_fen=start_fen,
    )


def test_a_referee_plays_a_short_game_to_a_win_by_clicking(page, make_user, tmp_path):
    from playwright.sync_api import expect

    from games.models import Game

    make_user("ref1", "referee")
    game = _game(referee_username="ref1", start_fen=SHORT_WIN_FEN)
    sign_in(page, "ref1")
    page.goto(f"/games/{game.id}/console")

    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")
    expect(page.get_by_test_id("legal-moves")).to_contain_text("1-6, 5-9")
    # Black at the bottom by default: square 1 is the bottom-right playing square.
    board = page.get_by_test_id("board")
    square_1 = page.get_by_test_id("square-1").bounding_box()
    square_32 = page.get_by_test_id("square-32").bounding_box()
    assert square_1["y"] > square_32["y"] and square_1["x"] > square_32["x"]
    expect(board.get_by_label("Square 5, black man")).to_be_visible()

    # 1. 5-9: click the man, then its landing square.
    page.get_by_test_id("square-5").click()
    expect(page.get_by_test_id("square-9")).to_have_class(re.compile(r"\bis-landing\b"))
    page.get_by_test_id("square-9").click()
    expect(page.get_by_test_id("move-1")).to_have_text("5-9")
    expect(page.get_by_test_id("game-status")).to_contain_text("White to move")

    # 1... 13x6: White's only move, the capture.
    page.get_by_test_id("square-13").click()
    page.get_by_test_id("square-6").click()
    expect(page.get_by_test_id("move-2")).to_have_text("13x6")

    # 2. 1-5 ignores the compulsory capture: refused with the reason and the legal moves.
    page.get_by_test_id("square-1").click()
    page.get_by_test_id("square-5").click()
    alert = page.get_by_test_id("alert")
    expect(alert).to_be_visible()
    expect(alert).to_have_attribute("role", "alert")
    expect(alert).to_contain_text(re.compile(r"captur", re.I))
    expect(page.get_by_test_id("alert-legal-moves")).to_contain_text("1x10x19")
    game.refresh_from_db()
    assert game.ply == 2 and game.status == Game.Status.IN_PROGRESS

    # 2. 1x10x19: the double jump, one landing square at a time.
    page.get_by_test_id("square-1").click()
    page.get_by_test_id("square-10").click()
    expect(page.get_by_test_id("selection")).to_contain_text("1 → 10")
    page.screenshot(path=str(tmp_path / "console-mid-jump.png"), full_page=True)
    page.get_by_test_id("square-19").click()

    expect(page.get_by_test_id("game-status")).to_contain_text("Black won")
    expect(page.get_by_test_id("result")).to_contain_text("1-0")
    expect(page.get_by_test_id("termination")).to_contain_text("no_legal_move")
    expect(page.get_by_test_id("move-3")).to_have_text("1x10x19")
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("Game ended")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == "1-0"
    assert game.termination == "no_legal_move"
    assert list(game.moves.filter(superseded_by__isnull=True).values_list("pdn", flat=True)) == [
        "5-9", "13x6", "1x10x19",
    ]

    page.get_by_test_id("verify-log").click()
    expect(page.get_by_test_id("verify-result")).to_contain_text("The chain holds")


def test_a_second_touch_offence_forfeits_the_game(page, make_user):
    from playwright.sync_api import expect

    from arbitration.models import LogEntry
    from games.models import Game

    make_user("ref2", "referee")
    game = _game(referee_username="ref2")
    sign_in(page, "ref2")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")

    def record_touch_offence(side: str) -> None:
        page.get_by_role("button", name="Rulings…").click()  # the rulings sit in one sheet
        page.get_by_role("button", name="Touch offence (Law 18)").click()
        dialog = page.get_by_test_id("ruling-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Touch offence (Law 18)")
        dialog.get_by_label(side).check()
        dialog.get_by_role("button", name="Confirm").click()
        expect(dialog).to_be_hidden()

    # A cancelled dialog records nothing.
    page.get_by_role("button", name="Rulings…").click()
    page.get_by_role("button", name="Touch offence (Law 18)").click()
    page.get_by_test_id("ruling-dialog").get_by_role("button", name="Cancel").click()
    expect(page.get_by_test_id("ruling-dialog")).to_be_hidden()
    assert not LogEntry.objects.filter(game=game, kind="touch_offence").exists()

    record_touch_offence("White")
    expect(page.get_by_test_id("cautions")).to_have_text("Black 0 · White 1")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")
    expect(page.get_by_test_id("log").locator("tbody tr").first).to_contain_text("Touch without intimation")
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS

    record_touch_offence("White")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black won")
    expect(page.get_by_test_id("termination")).to_contain_text("forfeit_touch_offence")
    expect(page.get_by_test_id("termination")).to_contain_text("second touch offence")

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result == "1-0"
    assert game.termination == "forfeit_touch_offence"
    offences = LogEntry.objects.filter(game=game, kind="touch_offence").order_by("seq")
    assert [(entry.side, entry.law) for entry in offences] == [("white", "18"), ("white", "18")]


def test_the_console_shows_a_move_recorded_elsewhere_and_refuses_a_stale_ply(page, make_user):
    from playwright.sync_api import expect

    from arbitration.services import game_move_record

    referee = make_user("ref3", "referee")
    game = _game(referee_username="ref3")
    sign_in(page, "ref3")
    page.goto(f"/games/{game.id}/console")
    expect(page.get_by_test_id("game-status")).to_contain_text("Black to move")

    # Another referee records 11-15: the console picks it up by itself (it polls every 2 s).
    game_move_record(acting_user=referee, game_id=game.id, move="11-15", ply=1)
    expect(page.get_by_test_id("move-1")).to_have_text("11-15", timeout=6_000)
    expect(page.get_by_test_id("game-status")).to_contain_text("White to move")

    # A move sent for a ply already taken is refused with 409; the console re-reads the game.
    # (The request is pinned to ply 2, as if sent before the poll showed 22-18.)
    game_move_record(acting_user=referee, game_id=game.id, move="22-18", ply=2)
    page.route(
        f"**/api/v1/games/{game.id}/moves/",
        lambda route: route.continue_(post_data='{"move": "23-19", "ply": 2}'),
    )
    page.get_by_test_id("move-input").fill("23-19")
    page.get_by_test_id("submit-move").click()
    expect(page.get_by_test_id("alert")).to_contain_text(re.compile(r"Ply 2 is (not the next ply|already recorded as 22-18)"))
    expect(page.get_by_test_id("move-2")).to_have_text("22-18")

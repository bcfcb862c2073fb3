"""Anyone steps through a finished game on its public page and downloads its PDN."""

import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHORT_WIN_FEN = "B:W13,15:B1,5"


@pytest.fixture
def finished_game(make_user):
    from arbitration.services import game_create, game_move_record
    from players.models import Player

    director = make_user("td", "director")
    referee = make_user("ref", "referee")
    game = game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder"),
        white=Player.objects.create(name="Bram Okafor"), rule_set="standard", referees=["ref"],
        start_fen=SHORT_WIN_FEN,
    )
    for ply, move in enumerate(["5-9", "13x6", "1x10x19"], start=1):
        game_move_record(acting_user=referee, game_id=game.id, move=move, ply=ply)
    game.refresh_from_db()
    assert game.result == "1-0"
    return game


def test_the_public_page_steps_through_the_moves_of_a_finished_game(page, finished_game):
    from playwright.sync_api import expect

    page.goto(f"/games/{finished_game.id}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Agnes Calder (Black) v Bram Okafor (White)")
    expect(page.get_by_test_id("result")).to_contain_text("Black won (1-0)")
    expect(page.get_by_test_id("termination")).to_contain_text("No legal move")
    expect(page.get_by_test_id("console-link")).to_have_count(0)

    # The page opens on the final position: Black's man on 19, nothing else.
    label = page.get_by_test_id("position-label")
    expect(label).to_contain_text("After 2. 1x10x19 (ply 3 of 3)")
    expect(page.get_by_test_id("square-19")).to_have_attribute("data-piece", "bm")
    expect(page.get_by_test_id("square-6")).to_have_attribute("data-piece", "")

    page.get_by_role("button", name="First").click()
    expect(label).to_contain_text("Start position")
    for square, piece in {1: "bm", 5: "bm", 13: "wm", 15: "wm", 9: ""}.items():
        expect(page.get_by_test_id(f"square-{square}")).to_have_attribute("data-piece", piece)

    page.get_by_role("button", name="Next").click()
    expect(label).to_contain_text("After 1. 5-9")
    expect(page.get_by_test_id("square-9")).to_have_attribute("data-piece", "bm")
    expect(page.get_by_test_id("square-5")).to_have_attribute("data-piece", "")

    page.keyboard.press("ArrowRight")
    expect(label).to_contain_text("After 1… 13x6")
    expect(page.get_by_test_id("square-6")).to_have_attribute("data-piece", "wm")
    expect(page.get_by_test_id("square-9")).to_have_attribute("data-piece", "")

    page.keyboard.press("ArrowLeft")
    expect(label).to_contain_text("After 1. 5-9")
    page.get_by_role("button", name="Previous").click()
    expect(label).to_contain_text("Start position")
    page.get_by_role("button", name="Last").click()
    expect(label).to_contain_text("ply 3 of 3")
    page.get_by_test_id("ply-2").click()
    expect(label).to_contain_text("After 1… 13x6")

    # The board flips: square 1 goes from the bottom right to the top left.
    before = page.get_by_test_id("square-1").bounding_box()
    page.get_by_role("button", name="Flip board").click()
    after = page.get_by_test_id("square-1").bounding_box()
    assert after["y"] < before["y"] and after["x"] < before["x"]
    expect(page.get_by_test_id("square-6")).to_have_attribute("data-piece", "wm")


def test_the_public_page_offers_the_pdn_download(page, finished_game):
    from playwright.sync_api import expect

    page.goto(f"/games/{finished_game.id}")
    link = page.get_by_role("link", name="Download PDN")
    expect(link).to_have_attribute("href", f"/api/v1/games/{finished_game.id}/pdn")
    with page.expect_download() as download_info:
        link.click()
    text = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert '[Black "Agnes Calder"]' in text
    assert re.search(r"1\.\s*5-9\s+13x6\s+2\.\s*1x10x19", text)
    assert "1-0" in text


def test_the_public_page_links_the_console_for_the_referee(page, finished_game):
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("ref")
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"/games/{finished_game.id}")
    page.get_by_test_id("console-link").click()
    expect(page).to_have_url(re.compile(rf"/games/{finished_game.id}/console$"))
    expect(page.get_by_test_id("termination")).to_contain_text("no_legal_move")


def test_the_public_page_follows_a_game_in_progress_to_its_end(page, make_user):
    from playwright.sync_api import expect

    from arbitration.services import game_create, game_move_record, ruling_issue
    from players.models import Player

    director = make_user("td", "director")
    game = game_create(
        acting_user=director, black=Player.objects.create(name="Agnes Calder"),
        white=Player.objects.create(name="Bram Okafor"), rule_set="standard",
    )
    page.goto(f"/games/{game.id}")
    expect(page.get_by_test_id("result")).to_have_text("In progress")
    expect(page.get_by_test_id("position-label")).to_contain_text("Start position")

    game_move_record(acting_user=director, game_id=game.id, move="11-15", ply=1)
    expect(page.get_by_test_id("ply-1")).to_have_text("11-15", timeout=8_000)
    expect(page.get_by_test_id("square-15")).to_have_attribute("data-piece", "bm")

    ruling_issue(acting_user=director, game_id=game.id, kind="resign", side="white")
    expect(page.get_by_test_id("result")).to_contain_text("Black won (1-0)", timeout=8_000)
    expect(page.get_by_test_id("termination")).to_have_text("Resignation")


def test_the_public_page_says_rulings_that_arrive_by_polling_in_the_logs_order(page, make_user):
    """Without the live path (the test server's LIVE_PATH is off) the page polls; a ruling, which adds no
    move, is said all the same, in its place among the moves, and the end too."""
    from playwright.sync_api import expect

    from arbitration.services import game_create, game_move_record, ruling_issue
    from players.models import Player

    director = make_user("td", "director")
    game = game_create(acting_user=director, black=Player.objects.create(name="Agnes Calder"),
                       white=Player.objects.create(name="Bram Okafor"), rule_set="standard")
    page.goto(f"/games/{game.id}")
    expect(page.locator("html")).to_have_attribute("data-live-path", "off")
    lines = page.get_by_test_id("announcer").locator("p")
    expect(lines).to_have_count(0)

    ruling_issue(acting_user=director, game_id=game.id, kind="touch_offence", side="white")  # no move: a caution
    expect(lines).to_have_text([re.compile(r"^Touch without intimation \(Law 18\), White\.$")], timeout=8_000)

    game_move_record(acting_user=director, game_id=game.id, move="11-15", ply=1)
    ruling_issue(acting_user=director, game_id=game.id, kind="forty_move_notice", side="black")
    game_move_record(acting_user=director, game_id=game.id, move="22-18", ply=2)
    expect(lines).to_have_text([
        re.compile(r"^Touch without intimation"), "Move 1, Black: 11-15.",
        re.compile(r"^40-move notice \(Law 22\), Black\.$"), "Move 1, White: 22-18."], timeout=8_000)

    ruling_issue(acting_user=director, game_id=game.id, kind="resign", side="white")
    expect(lines).to_have_text([
        "Move 1, Black: 11-15.", re.compile(r"^40-move notice"), "Move 1, White: 22-18.",
        re.compile(r"^Resignation, White\.$"), re.compile(r"^Game ended")], timeout=8_000)
    expect(page.get_by_test_id("result")).to_contain_text("Black won (1-0)")


def test_a_ballot_game_is_numbered_from_its_ballot_and_a_scoresheet_game_shows_no_clock_count(page, make_user):
    """The ballot's moves are the game's first on its page (1. 10-14 22-18 2. 11-15), the game's first move is
    White's move 2, as the printed scoresheet and the PDN write it, and the screen reader hears it so; a game
    entered from its scoresheet says its clock was not used instead of "moves made: Black 0, White 0"."""
    from playwright.sync_api import expect

    from arbitration.scoresheets import game_scoresheet_enter
    from arbitration.services import game_move_record
    from games.models import Game
    from games.rules import Position
    from tests.tournaments.test_services import make_players, running_tournament
    from tournaments import services

    director = make_user("td", "director")
    tournament = running_tournament(director, make_players(2), opening="three-move-ballot",
                                    clock_control={"control": "moves-in-time", "moves": 30, "seconds": 1800})
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    first, second = Game.objects.filter(round=round_).order_by("id")[:2]
    ballot = first.match_game.match.ballots[0]["moves"].split()

    position, played = Position.from_fen(first.initial_fen), []
    for _ in range(4):
        move = sorted(position.legal_moves(), key=lambda m: m.pdn())[0]
        played.append(move.pdn())
        position = position.play(move)
    game_scoresheet_enter(acting_user=director, game_id=first.pk, moves=" ".join(played), result="1/2-1/2")
    page.goto(f"/games/{first.pk}")
    items = page.get_by_test_id("move-list").locator("li")
    expect(items.nth(0)).to_have_text(re.compile(rf"^1\.\s*{ballot[0]}\s+{ballot[1]}\s*$"))
    expect(items.nth(1)).to_have_text(re.compile(rf"^2\.\s*{ballot[2]}\s+\(ballot\)\s*{played[0]}\s*$"))
    expect(items.nth(2)).to_have_text(re.compile(rf"^3\.\s*{played[1]}\s*{played[2]}\s*$"))
    expect(page.get_by_test_id("ply-1")).to_have_attribute("aria-label", f"Show the position after 2… {played[0]}")
    expect(page.get_by_test_id("result")).to_have_text("Drawn (1/2-1/2) · Result from the scoresheet")
    expect(page.get_by_test_id("clock-status")).to_contain_text("Not used")
    expect(page.get_by_test_id("clock-control")).to_have_text(re.compile(r"^30 moves in 30 min"))
    expect(page.get_by_test_id("clock-control")).not_to_contain_text("moves made")

    page.goto(f"/games/{second.pk}")
    expect(page.get_by_test_id("position-label")).to_contain_text("after the ballot " + " ".join(ballot))
    lines = page.get_by_test_id("announcer").locator("p")
    move = sorted(Position.from_fen(second.initial_fen).legal_moves(), key=lambda m: m.pdn())[0].pdn()
    game_move_record(acting_user=director, game_id=second.pk, move=move, ply=1)
    expect(lines).to_have_text([f"Move 2, White: {move}."], timeout=8_000)
    expect(page.get_by_test_id("position-label")).to_contain_text(f"After 2… {move}")

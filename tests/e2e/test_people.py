"""The ways in and the printed sheets, through the real server in headless Chromium, on the demo."""

import re

import pytest

from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_each_role_finds_its_way_in_from_the_navigation(page, demo_logins):
    from playwright.sync_api import expect

    page.goto("/")
    nav = page.get_by_test_id("main-nav")
    for name in ("Tournaments", "Live games", "Players"):
        expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name="My games")).to_have_count(0)
    expect(page.get_by_test_id("current-round")).to_contain_text("Round 2")
    expect(page.get_by_test_id("live-game")).to_have_count(4)
    nav.get_by_role("link", name="Live games", exact=True).click()  # what is played now, across tournaments
    playing = page.get_by_test_id("playing-game")
    expect(playing).to_have_count(4)
    expect(playing.first).to_contain_text(re.compile(r"Round 2, board \d\.1"))
    expect(page.get_by_test_id("waiting-game")).to_have_count(4)
    playing.first.get_by_test_id("watch").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.get_by_test_id("result")).to_have_text("In progress")
    page.goto("/")
    page.get_by_role("link", name="Demo Club Championship").first.click()
    expect(page.get_by_test_id("standings")).to_be_visible()

    sign_in(page, "referee1", demo_logins["referee1"])
    page.get_by_test_id("nav-my-boards").click()
    boards = page.get_by_test_id("my-board")
    expect(boards.first).to_be_visible()
    assert boards.count() >= 2
    boards.first.get_by_role("link", name="Open the console").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/console$"))
    page.get_by_role("button", name="Sign out").click()

    sign_in(page, "player1", demo_logins["player1"])
    expect(page.get_by_test_id("nav-my-tournaments")).to_have_count(0)
    page.get_by_test_id("nav-my-games").click()
    expect(page.get_by_test_id("next-board")).to_have_text(re.compile(r"^\d+ \(game 1 of the match\)"))
    expect(page.get_by_test_id("next-colour")).to_have_text(re.compile(r"^(Black|White)"))
    expect(page.get_by_test_id("next-ballot")).to_have_text(re.compile(r"Ballot #\d+: \d+-\d+ \d+[-x]\d+ \d+[-x]\d+"))
    expect(page.get_by_test_id("clock")).to_contain_text("running")
    expect(page.get_by_test_id("rating-chart")).to_be_visible()
    assert page.locator("svg.rating-chart circle").count() == 2  # the start and the Autumn Swiss
    page.get_by_role("button", name="Sign out").click()

    sign_in(page, "director", demo_logins["director"])
    page.get_by_test_id("nav-my-tournaments").click()
    page.get_by_test_id("my-tournaments").get_by_role("link", name="Demo Club Championship").click()
    expect(page).to_have_url(re.compile(r"/tournaments/demo-club-championship/manage/$"))


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_a_director_prints_a_round_pairing_sheet_and_scoresheets(page, demo_logins):
    from playwright.sync_api import expect

    from tournaments.models import MatchGame

    sign_in(page, "director", demo_logins["director"])
    page.goto("/tournaments/demo-club-championship/manage/")
    page.get_by_test_id("current-print-pairings").click()  # round 2 is still being played
    rows = page.get_by_test_id("pairing-row")
    expect(rows).to_have_count(8)
    first = MatchGame.objects.select_related("match", "game__black", "game__white").get(
        match__round__tournament__slug="demo-club-championship", match__round__number=2, match__board=1, number=1)
    ballot = first.match.ballots[0]
    expect(rows.first).to_contain_text(first.game.black.name)
    expect(rows.first).to_contain_text(first.game.white.name)
    expect(rows.first).to_contain_text(f"#{ballot['number']} {ballot['moves']}")

    page.get_by_role("link", name="The scoresheets of this round").click()
    sheets = page.get_by_test_id("scoresheet")
    expect(sheets).to_have_count(8)
    sheet = sheets.first
    expect(sheet.get_by_test_id("sheet-round")).to_have_text("2")
    expect(sheet.get_by_test_id("sheet-black")).to_have_text(first.game.black.name)
    expect(sheet.get_by_test_id("move-line")).to_have_count(50)
    black_1, white_1, black_2 = ballot["moves"].split()
    expect(sheet.get_by_test_id("move-line").nth(0).locator("td")).to_have_text(["1", black_1, white_1])
    expect(sheet.get_by_test_id("move-line").nth(1).locator("td")).to_have_text(["2", black_2, ""])

    page.wait_for_load_state("load")
    page.emulate_media(media="print")
    expect(page.locator(".screen-bar")).to_be_hidden()
    for paper in ("A4", "Letter"):
        pdf = page.pdf(format=paper, prefer_css_page_size=True)
        assert pdf.startswith(b"%PDF")
        assert _pdf_pages(pdf) == 8, paper  # one scoresheet a page, none spilling over

    page.goto(f"/tournaments/demo-club-championship/rounds/2/scoresheets/?game={first.game.pk}")
    expect(page.get_by_test_id("scoresheet")).to_have_count(1)
    assert _pdf_pages(page.pdf(format="A4")) == 1


def test_standings_and_crosstable_print_within_a4_and_letter(page, demo_logins):
    from playwright.sync_api import expect

    page.goto("/tournaments/demo-autumn-swiss/")
    page.get_by_test_id("print-standings-link").click()
    expect(page.get_by_test_id("print-standings").locator("tbody tr")).to_have_count(8)
    page.wait_for_load_state("load")  # the stylesheets too: a layout measured before them is not the print's
    page.emulate_media(media="print")
    for paper, width_px in (("A4", 210), ("Letter", 216)):
        # the printable width at 96 dpi, less the 12 mm margins each side
        page.set_viewport_size({"width": round((width_px - 24) / 25.4 * 96), "height": 1000})
        beyond = page.evaluate("""[...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
            .map(e => e.tagName + '.' + e.className + ':' + e.getBoundingClientRect().right).slice(0, 5)""")
        assert beyond == [], (paper, beyond)  # nothing wider than the printable width
        pdf = page.pdf(format=paper)
        assert pdf.startswith(b"%PDF") and _pdf_pages(pdf) == 1, paper

"""A director runs a 4-player round robin in the browser, from creation to the final standings."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = [("Agnes Calder", 1900), ("Bram Okafor", 1800), ("Cora Lindqvist", 1700), ("Declan Murray", 1600)]


def test_director_runs_a_four_player_round_robin_to_final_standings(page, make_user):
    from playwright.sync_api import expect

    from players.models import Player

    make_user("td", "director", password="a-long-test-password")
    make_user("ref1", "referee")
    for name, rating in PLAYERS:
        Player.objects.create(name=name, rating=rating, club="Test DC")
    strength = dict(PLAYERS)

    sign_in(page, "td")

    # create the tournament on the dashboard
    page.goto("/tournaments/manage/")
    form = page.get_by_test_id("create-tournament")
    form.get_by_role("textbox", name="Name").fill("Browser Round Robin")
    form.get_by_label("Slug").fill("browser-rr")
    form.get_by_label("Format").select_option("round_robin")
    form.get_by_label("Games a round").select_option("2")
    form.get_by_label("Opening").select_option("three-move-ballot")
    form.get_by_label("Referees").fill("ref1")
    form.locator("select[name=clock]").select_option("per-move")
    form.get_by_label("Seconds a move").fill("300")
    form.get_by_role("button", name="Create the tournament").click()
    expect(page).to_have_url(re.compile(r"/tournaments/browser-rr/manage/$"))
    expect(page.get_by_test_id("status")).to_have_text("Draft")
    expect(page.get_by_test_id("clock")).to_have_text("300 s a move")

    # register the players (ticked in the registry's list), open registration, start
    pick = page.get_by_test_id("register-players")
    for name, _rating in PLAYERS:
        pick.get_by_role("checkbox", name=re.compile(name)).check()
    page.get_by_test_id("register-button").click()
    expect(page.get_by_test_id("entries").locator("tbody tr")).to_have_count(4)
    page.get_by_test_id("status-button").click()
    expect(page.get_by_test_id("status")).to_have_text("Registration")
    page.get_by_test_id("status-button").click()
    expect(page.get_by_test_id("status")).to_have_text("Running")

    # three rounds: pair (preview), publish, record every game (the higher rated player wins): the first
    # through the referee console, the others typed in the manage page's results grid
    for number in (1, 2, 3):
        page.get_by_test_id("pair-button").click()
        expect(page.get_by_test_id("preview-match")).to_have_count(2)
        page.get_by_test_id("publish-button").click()
        rows = page.get_by_test_id("results-grid").get_by_test_id("grid-row")
        expect(rows).to_have_count(4)
        for index in range(4):
            row = rows.nth(index)
            cells = row.locator("td")
            black, white = cells.nth(1).inner_text().strip(), cells.nth(2).inner_text().strip()
            result = "1-0" if strength[black] > strength[white] else "0-1"
            if number == 1 and index == 0:
                # the first game through the referee console: the weaker side resigns
                game_id = row.get_attribute("data-game")
                page.goto(f"/games/{game_id}/console")
                expect(page.get_by_test_id("game-status")).to_contain_text("to move")  # the console's script runs
                page.get_by_test_id("rulings-menu").click()  # the rulings sit in one sheet
                page.get_by_test_id("ruling-resign").click()
                dialog = page.get_by_test_id("ruling-dialog")
                dialog.get_by_label("White" if result == "1-0" else "Black").check()
                page.get_by_test_id("ruling-confirm").click()
                expect(page.get_by_test_id("result")).to_contain_text(result)
                page.goto("/tournaments/browser-rr/manage/")
                expect(rows.nth(0).get_by_test_id("grid-result")).to_have_value(result)
                continue
            row.get_by_test_id("grid-result").press("1" if result == "1-0" else "0")
            expect(row.get_by_test_id("grid-said")).to_have_text("saved")
        if number < 3:
            page.reload()
            expect(page.get_by_test_id("results-grid")).to_have_count(0)  # the round is complete
        else:
            page.reload()
        results = page.get_by_test_id(f"results-{number}")
        for index in range(4):
            expect(results.get_by_test_id("game-result").nth(index)).not_to_have_text("–")

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_test_id("status-button").click()  # closing asks once: "Cancel" leaves it running
    page.wait_for_timeout(500)
    expect(page.get_by_test_id("status")).to_have_text("Running")
    from tournaments.models import Tournament

    assert Tournament.objects.get(slug="browser-rr").status == "running"
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_test_id("status-button").click()  # closing asks once
    expect(page.get_by_test_id("status")).to_have_text("Finished")
    assert len(asked) == 2 and asked[0] == asked[1] and asked[0].startswith("Close Browser Round Robin?")

    # the public page shows the final standings in order
    page.goto("/tournaments/browser-rr/")
    rows = page.get_by_test_id("standings").get_by_test_id("standings-row")
    expect(rows).to_have_count(4)
    for index, (name, _rating) in enumerate(PLAYERS):
        expect(rows.nth(index).locator("td.player")).to_have_text(name)
        expect(rows.nth(index).locator("td").first).to_have_text(str(index + 1))
    expect(rows.nth(0).locator("td.points")).to_have_text("6")
    expect(rows.nth(3).locator("td.points")).to_have_text("0")
    expect(page.get_by_test_id("crosstable").locator("tbody tr")).to_have_count(4)

"""A director runs a Swiss paired by the FIDE Dutch system in the browser: the pairing panel, a bye asked
for, players kept apart, the preview's words for each pairing; the page accessible and phone-sized."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_accessibility import axe_serious, sideways
from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYERS = [("Agnes Calder", 1900), ("Bram Okafor", 1800), ("Cora Lindqvist", 1700), ("Declan Murray", 1600),
           ("Edith Nwosu", 1500)]


def test_director_pairs_a_dutch_swiss_with_a_bye_asked_for_and_players_kept_apart(page, make_user):
    from playwright.sync_api import expect

    from players.models import Player

    make_user("td", "director", password="a-long-test-password")
    for name, rating in PLAYERS:
        Player.objects.create(name=name, rating=rating, club="Test DC")
    sign_in(page, "td")
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto("/tournaments/manage/")
    form = page.get_by_test_id("create-tournament")
    form.get_by_role("textbox", name="Name").fill("Browser Swiss")
    form.get_by_label("Slug").fill("browser-swiss")
    form.get_by_label("Format").select_option("swiss")
    form.locator("input[name=rounds]").fill("4")
    form.get_by_label("Pairing system").select_option("dutch")
    form.get_by_label("Half-point byes a player may ask for").fill("1")
    form.get_by_role("button", name="Create the tournament").click()
    expect(page).to_have_url(re.compile(r"/tournaments/browser-swiss/manage/$"))
    expect(page.get_by_test_id("pairing-system")).to_contain_text("FIDE Dutch system")

    pick = page.get_by_test_id("register-players")
    for name, _rating in PLAYERS:
        pick.get_by_role("checkbox", name=re.compile(name)).check()
    page.get_by_test_id("register-button").click()
    expect(page.get_by_test_id("entries").locator("tbody tr")).to_have_count(len(PLAYERS))
    page.get_by_test_id("status-button").click()
    page.get_by_test_id("status-button").click()
    expect(page.get_by_test_id("status")).to_have_text("Running")

    bye = page.get_by_test_id("bye-form")
    bye.get_by_label("Player").select_option(label="Edith Nwosu")
    bye.get_by_label("Round").fill("1")
    bye.get_by_role("button", name="Record the bye").click()
    expect(page.get_by_test_id("byes")).to_contain_text("Round 1: Edith Nwosu, half-point bye")
    apart = page.get_by_test_id("prohibition-form")
    apart.get_by_label("Players").select_option(label=["Agnes Calder", "Cora Lindqvist"])
    apart.get_by_label("Why").fill("one family")
    apart.get_by_role("button", name="Keep them apart").click()
    expect(page.get_by_test_id("prohibitions")).to_contain_text("one family: Agnes Calder")

    page.get_by_test_id("pair-button").click()
    matches = page.get_by_test_id("preview-match")
    expect(matches).to_have_count(2)
    expect(page.locator("#preview + ul.why")).to_contain_text("Edith Nwosu (half-point bye)")
    expect(matches.first).to_contain_text("Colours: two games, each player moves first once")
    assert sideways(page) is None
    assert axe_serious(page) == []
    from tournaments.models import Match

    pairs = {frozenset((m.player_one.name, m.player_two.name)) for m in Match.objects.filter(kind="played")}
    assert pairs == {frozenset(("Agnes Calder", "Declan Murray")), frozenset(("Bram Okafor", "Cora Lindqvist"))}
    page.get_by_test_id("publish-button").click()
    page.goto("/tournaments/browser-swiss/")
    notes = page.get_by_test_id("pairing-notes-1")
    notes.locator("summary").click()
    expect(notes).to_contain_text("Score group")
    assert axe_serious(page) == []

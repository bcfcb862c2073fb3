"""The club pages in Chromium: a club's players listed, axe-clean and without sideways scrolling on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_accessibility import axe_serious, sideways
from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_clubs_page_lists_its_players_passes_axe_and_fits_a_phone(page, make_user, director):
    from clubs.services import club_create
    from tournaments.services import player_create

    secretary = make_user("secretary", "player")
    club = club_create(acting_user=director, name="Edinburgh Draughts Club with a Rather Long Name",
                       short_name="EDC", contact="secretary@edinburgh-draughts.example.org", secretary=secretary)
    for name in ("Agnes Calder", "Cora Lindqvist", "Maximilian Bartholomew-Featherstonehaugh"):
        player_create(acting_user=director, name=name, club="edinburgh draughts club with a rather long name",
                      federation="SCO", federation_id=str(len(name)))
    for width, user in ((390, None), (1280, None), (390, "secretary")):
        page.set_viewport_size({"width": width, "height": 844})
        if user:
            sign_in(page, user)
        page.goto(f"/clubs/{club.pk}/")
        rows = page.get_by_test_id("club-players").locator("tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.first).to_contain_text("Agnes Calder")
        assert axe_serious(page) == [], (width, user)
        if width == 390:
            assert sideways(page) is None
        if user:
            expect(page.get_by_test_id("club-keeper")).to_be_visible()
    page.goto("/clubs/")
    expect(page.get_by_test_id("clubs").locator("tbody tr")).to_have_count(1)
    assert axe_serious(page) == []
    assert sideways(page) is None

"""The league table's embed in Chromium, inside a page of another origin (a club's website): the table shows
while the league's own page is refused in the frame beside it; axe finds nothing serious at a phone's width."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from leagues import services
from tests.e2e.test_embeds import club_page, club_site  # noqa: F401 (club_site: a fixture)
from tests.leagues.conftest import build_league

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def league(make_user):
    world = build_league(make_user, slug="county", teams=4)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    return world


def test_the_league_table_shows_in_another_sites_frame_and_the_league_page_does_not(league, server, live_page,
                                                                                    club_site):  # noqa: F811
    blocked = []
    live_page.on("console", lambda msg: blocked.append(msg.text) if "frame-ancestors" in msg.text else None)
    club_page(live_page, club_site, server, {"table": f"{server.url}/embed/leagues/county/table/",
                                             "page": f"{server.url}/leagues/county/"})
    table = live_page.frame_locator("#table")
    expect(table.get_by_test_id("table-row")).to_have_count(4)
    expect(table.get_by_test_id("league-embed")).to_have_attribute("data-refresh", "300")
    assert live_page.frame_locator("#page").get_by_test_id("league-embed-snippet").count() == 0
    assert any("frame-ancestors" in text for text in blocked), blocked


def test_the_league_table_embed_passes_axe_on_a_phone(league, page):
    from tests.e2e.test_accessibility import axe_serious, sideways

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/embed/leagues/county/table/")
    expect(page.get_by_test_id("table-row")).to_have_count(4)
    assert axe_serious(page) == []
    assert sideways(page) is None

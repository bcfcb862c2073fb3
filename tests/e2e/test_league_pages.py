"""A league in Chromium through the live server: a captain submits his sheet and the other confirms the card on a
390 px phone; the league table and the team match page pass axe-core and do not scroll sideways."""

from __future__ import annotations

from datetime import date

import pytest

from tests.e2e.test_accessibility import axe_serious, sideways
from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def league(make_user):
    from leagues import services
    from leagues.models import Fixture
    from tests.leagues.conftest import build_league

    world = build_league(make_user, slug="phone", teams=4)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division,
                           start=date(2026, 12, 1), weekday=1)
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round", "id")[0]
    return world, fixture


def _phone(browser, live_server):  # noqa: ANN001, ANN202
    context = browser.new_context(base_url=live_server.url, viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    return context, context.new_page()


def _accessible(page, name: str) -> None:  # noqa: ANN001
    assert sideways(page) is None, (name, sideways(page))
    assert axe_serious(page) == [], (name, axe_serious(page))


def test_captains_submit_sheets_and_confirm_the_card_on_a_phone_and_the_pages_pass_axe(browser, live_server, league):
    from playwright.sync_api import expect

    from leagues import services
    from tests.leagues.conftest import captain_of, sheet

    world, fixture = league
    home, away = captain_of(world, fixture.home), captain_of(world, fixture.away)
    services.sheet_submit(acting_user=away, fixture=fixture, players=sheet(world, fixture.away))

    context, page = _phone(browser, live_server)
    sign_in(page, home.username)
    page.goto(f"/leagues/fixtures/{fixture.pk}/")
    _accessible(page, "team match, before the home sheet")
    expect(page.get_by_test_id("sheets")).to_contain_text("hidden until both sheets are in")
    names = [p.name for p in world.players[fixture.home_id]]
    page.get_by_label("Board 4", exact=True).select_option(label=f"5. {names[4]} ({world.players[fixture.home_id][4].rating})")
    page.get_by_role("button", name="Submit the sheet").click()
    expect(page.get_by_role("status")).to_contain_text("Your team sheet is in")
    expect(page.get_by_test_id("sheets")).to_contain_text(names[4])
    page.get_by_label("Board 1: ").select_option("1")
    page.get_by_label("Board 2: ").select_option("0.5")
    page.get_by_label("Board 3: ").select_option("0")
    page.get_by_label("Board 4: ").select_option("1")
    page.get_by_role("button", name="Enter the card").click()
    expect(page.get_by_test_id("fixture-status")).to_have_text("Card entered, awaiting confirmation")
    context.close()

    context, page = _phone(browser, live_server)
    sign_in(page, away.username)
    page.goto("/leagues/me/")
    _accessible(page, "captain's page")
    page.get_by_test_id("next-fixture").get_by_role("link").click()
    expect(page.get_by_test_id("card")).to_be_visible()
    _accessible(page, "team match, card to confirm")
    page.get_by_role("button", name="Confirm the card").click()
    expect(page.get_by_test_id("fixture-result")).to_contain_text("2.5–1.5")
    _accessible(page, "team match, result")
    page.goto(f"/leagues/{world.league.slug}/")
    expect(page.get_by_test_id("table-row").first).to_contain_text(fixture.home.name)
    _accessible(page, "league table")
    page.goto(f"/leagues/fixtures/{fixture.pk}/print/")
    expect(page.get_by_test_id("print-card")).to_contain_text(fixture.home.name)
    _accessible(page, "printable match card")
    context.close()

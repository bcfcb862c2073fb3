"""The league table's embed: no sign-in, allowed in frames (the league page still refuses them), the table as
recorded, a refresh instead of push; the copy-paste snippet on the league's page."""

from __future__ import annotations

import pytest

from leagues import services
from leagues.models import Fixture
from tests.integrations.test_pages import _frame_ancestors
from tests.leagues.conftest import build_league

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def league(make_user):
    world = build_league(make_user, slug="county", teams=4)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    fixture = Fixture.objects.filter(season=world.season, away__isnull=False).order_by("round", "id").first()
    services.match_default(acting_user=world.secretary, fixture=fixture, side="away", reason="no team came")
    world.fixture = fixture
    return world


def test_the_league_table_embed_is_served_without_sign_in_and_may_be_framed(league, client):
    response = client.get("/embed/leagues/county/table/")
    assert response.status_code == 200
    assert _frame_ancestors(response) == "frame-ancestors *"
    assert "X-Frame-Options" not in response.headers
    page = response.content.decode()
    assert "site-header" not in page  # small: no site navigation
    assert page.count('data-testid="table-row"') == 4
    assert all(team.name in page for team in league.teams)
    first = page.index('data-testid="table-row"')
    assert league.fixture.home.name in page[first:first + 300]  # the defaulted match's winner leads
    assert 'data-refresh="300"' in page and "js/embed-refresh.js" in page  # no push yet: it reads itself again


def test_the_league_table_embed_takes_a_season_and_division(league, client):
    path = f"/embed/leagues/county/table/?season={league.season.pk}&division={league.division.pk}"
    assert client.get(path).status_code == 200
    for bad in ["/embed/leagues/nowhere/table/", "/embed/leagues/county/table/?season=x",
                "/embed/leagues/county/table/?division=999999", "/embed/leagues/county/table/?season=99999999999"]:
        assert client.get(bad).status_code == 404, bad


def test_the_league_page_refuses_frames_and_carries_the_snippet(league, client):
    response = client.get("/leagues/county/")
    assert _frame_ancestors(response) == "frame-ancestors 'none'" and response.headers["X-Frame-Options"] == "DENY"
    page = response.content.decode()
    assert (f'&lt;iframe src="http://testserver/embed/leagues/county/table/?season={league.season.pk}&amp;'
            f'division={league.division.pk}" title="League county, Division 1: table"') in page

"""League pages through the test client: the table, a team match, the captain's forms, the iCal feed."""

from __future__ import annotations

from datetime import date

import pytest
from icalendar import Calendar

from leagues import services
from leagues.models import Fixture, LeagueLog
from tests.leagues.conftest import captain_of, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture(world) -> Fixture:
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division,
                           start=date(2026, 12, 1), weekday=1)
    return Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round", "id")[0]


def test_the_league_page_shows_the_table_the_fixtures_and_the_csv_link(client, world, fixture):
    response = client.get(f"/leagues/{world.league.slug}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('data-testid="table-row"') == 4 and "Round 6" in body
    assert f"{fixture.home.name} v {fixture.away.name}" in body and 'data-testid="table-csv"' in body
    one = client.get(f"/leagues/{world.league.slug}/?team={fixture.home_id}").content.decode()
    assert one.count('data-testid="fixture"') == 6 and f"Fixtures and results: {fixture.home.name}" in one
    assert client.get(f"/leagues/{world.league.slug}/?team=99999999999999999999").status_code == 200
    assert client.get("/leagues/").status_code == 200
    assert client.get("/leagues/nope/").status_code == 404


def test_a_captain_submits_his_sheet_enters_the_card_and_the_other_confirms_on_the_pages(client, world, fixture):
    home, away = captain_of(world, fixture.home), captain_of(world, fixture.away)
    client.force_login(home)
    page = client.get(f"/leagues/fixtures/{fixture.pk}/").content.decode()
    assert 'data-testid="sheet-form"' in page and 'data-testid="confirm-form"' not in page
    form = {f"board{b}": str(p or "") for b, p in enumerate(sheet(world, fixture.home, 3), start=1)}
    response = client.post(f"/leagues/fixtures/{fixture.pk}/sheet", form, follow=True)
    assert "Your team sheet is in" in response.content.decode()
    client.force_login(away)
    assert "hidden until both sheets are in" in client.get(f"/leagues/fixtures/{fixture.pk}/").content.decode()
    bad = {f"board{b}": str(p) for b, p in enumerate(reversed(sheet(world, fixture.away)), start=1)}
    refused = client.post(f"/leagues/fixtures/{fixture.pk}/sheet", bad, follow=True).content.decode()
    assert "Rule &#x27;nominated board order&#x27;" in refused
    client.post(f"/leagues/fixtures/{fixture.pk}/sheet",
                {f"board{b}": str(p) for b, p in enumerate(sheet(world, fixture.away), start=1)})
    client.force_login(home)
    client.post(f"/leagues/fixtures/{fixture.pk}/card", {"b1g1": "1", "b2g1": "0.5", "b3g1": "0", "b4g1": "1"})
    fixture.refresh_from_db()
    assert fixture.status == "card_entered" and fixture.card[3]["default"] is True  # home did not field board 4
    client.force_login(away)
    page = client.get(f"/leagues/fixtures/{fixture.pk}/").content.decode()
    assert 'data-testid="confirm-form"' in page
    client.post(f"/leagues/fixtures/{fixture.pk}/confirm", {"decision": "confirm"})
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_points, fixture.away_points) == ("result", 1.5, 2.5)
    assert LeagueLog.objects.filter(league=world.league, kind="card_confirmed").count() == 1
    captain = client.get("/leagues/me/").content.decode()
    assert fixture.home.name in captain and 'data-testid="next-fixture"' in captain


def test_the_page_writes_refuse_outsiders_and_the_public(client, world, fixture, make_user):
    before = list(LeagueLog.objects.values_list("id", flat=True))
    outsider = make_user("stranger", "director")
    for path, body in (("sheet", {"board1": ""}), ("card", {"b1g1": "1"}), ("confirm", {"decision": "confirm"})):
        client.logout()
        response = client.post(f"/leagues/fixtures/{fixture.pk}/{path}", body)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        client.force_login(outsider)
        assert client.post(f"/leagues/fixtures/{fixture.pk}/{path}", body).status_code == 403
    assert list(LeagueLog.objects.values_list("id", flat=True)) == before


def test_a_teams_fixtures_as_icalendar(client, world, fixture):
    response = client.get(f"/leagues/teams/{fixture.home_id}/fixtures.ics")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    events = [c for c in calendar.walk("VEVENT")]
    assert len(events) == 6  # 4 teams: six matches, no bye
    first = min(events, key=lambda e: e.decoded("dtstart"))
    assert first.decoded("dtstart").date() == date(2026, 12, 1)
    assert str(first.get("summary")).startswith(f"{fixture.home.name} v {fixture.away.name}")


def test_a_teams_calendar_keeps_its_tag_until_a_fixture_moves_and_answers_304_meanwhile(client, world, fixture):
    url = f"/leagues/teams/{fixture.home_id}/fixtures.ics"
    first = client.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and client.get(url).content == first.content  # no stamp of the request's time
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    services.fixture_date_set(acting_user=world.secretary, fixture=fixture, on=date(2026, 12, 8))
    moved = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag


def test_the_printable_match_card_and_scoresheets(client, world, fixture):
    services.sheet_submit(acting_user=captain_of(world, fixture.home), fixture=fixture,
                          players=sheet(world, fixture.home))
    body = client.get(f"/leagues/fixtures/{fixture.pk}/print/").content.decode()
    assert 'data-testid="print-card"' in body and body.count("<section class=\"scoresheet\">") == 4
    assert world.players[fixture.home_id][0].name not in body  # the public does not see a sheet before both are in
    client.force_login(captain_of(world, fixture.home))
    body = client.get(f"/leagues/fixtures/{fixture.pk}/print/").content.decode()
    assert world.players[fixture.home_id][0].name in body and "<td>Black</td>" in body


def test_a_started_match_page_follows_its_boards_live(client, world, fixture):
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=fixture, side=side,
                              players=sheet(world, team))
    services.match_start(acting_user=world.secretary, fixture=fixture)
    body = client.get(f"/leagues/fixtures/{fixture.pk}/").content.decode()
    assert body.count("data-game-id=") == 4 and "js/league-match.js" in body

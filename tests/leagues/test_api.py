"""The league API: a season through the endpoints, the sheets hidden, the card, the table and its CSV."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Fixture, LeagueLog
from tests.leagues.conftest import captain_of, sheet

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def test_a_league_is_made_and_a_match_played_through_the_api(make_user):
    secretary = make_user("sec", "director")
    api = client_for(secretary)
    response = api.post("/api/v1/leagues/", {"name": "County", "slug": "county", "board_count": 2}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["secretary"] == "sec" and response.json()["games_per_board"] == 1
    division = api.post("/api/v1/leagues/county/divisions/", {"name": "One", "rank": 1}, format="json").json()
    season = api.post("/api/v1/leagues/county/seasons/", {"name": "2026"}, format="json").json()
    division_id, season_id = division["divisions"][0]["id"], season["seasons"][0]["id"]
    captains, teams = [], []
    from players.models import Player
    for n in range(3):
        captain = make_user(f"cap{n}", "player")
        team = api.post("/api/v1/leagues/county/teams/", {"season": season_id, "division": division_id,
                                                           "club_name": f"Club {n}", "name": f"Club {n} A",
                                                           "captain": captain.username}, format="json")
        assert team.status_code == 201, team.content
        players = [Player.objects.create(name=f"P{n}{b}", rating=1900 - b).pk for b in range(2)]
        roster = client_for(captain).put(f"/api/v1/league-teams/{team.json()['id']}/roster/", {"players": players},
                                         format="json")
        assert roster.status_code == 200 and [r["player"] for r in roster.json()["roster"]] == players
        captains.append(captain)
        teams.append((team.json()["id"], players))
    made = api.post("/api/v1/leagues/county/fixtures/", {"season": season_id, "division": division_id,
                                                         "start": "2026-12-01", "weekday": 2}, format="json")
    assert made.status_code == 201 and len(made.json()) == 12  # 6 rounds of 1 match and 1 bye
    fixture = Fixture.objects.filter(season_id=season_id, status="scheduled").order_by("round", "id").first()
    home = next(c for c in captains if c.pk == fixture.home.captain_id)
    away = next(c for c in captains if c.pk == fixture.away.captain_id)
    home_players = next(p for t, p in teams if t == fixture.home_id)
    away_players = next(p for t, p in teams if t == fixture.away_id)
    url = f"/api/v1/league-fixtures/{fixture.pk}"
    assert client_for(home).post(f"{url}/sheet/", {"players": home_players}, format="json").status_code == 200
    seen = client_for(away).get(f"{url}/").json()
    assert seen["sheets"]["home"] is None  # hidden from the other side until both are in
    assert client_for(away).post(f"{url}/sheet/", {"players": [away_players[0], None]},
                                 format="json").status_code == 200
    assert client_for(None).get(f"{url}/").json()["sheets"]["home"][0]["player"] == home_players[0]
    refused = client_for(away).post(f"{url}/card/", {"boards": [[1], [1]]}, format="json")
    assert refused.status_code == 403
    card = client_for(home).post(f"{url}/card/", {"boards": [["0.5"], [0]]}, format="json")
    assert card.status_code == 200 and card.json()["status"] == "card_entered"
    assert card.json()["card"][1]["default"] is True  # the away side did not field board 2
    confirmed = client_for(away).post(f"{url}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.content
    assert (confirmed.json()["home_points"], confirmed.json()["away_points"]) == ("1.5", "0.5")
    table = client_for(None).get("/api/v1/leagues/county/table/")
    assert table.status_code == 200 and table.json()[0]["team"] == fixture.home_id
    assert table.json()[0]["match_points"] == 2 and table.json()[0]["mark"] == "promoted"
    csv = client_for(None).get("/api/v1/leagues/county/table.csv/")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[1].startswith(f"1,{fixture.home.name},1,1,0,0,1.5,0.5,2")
    log = client_for(None).get("/api/v1/leagues/county/log/")
    assert log.status_code == 200 and log["X-Log-Verified"] == "yes"
    assert [row["kind"] for row in log.json()][-2:] == ["card_entered", "card_confirmed"]
    mine = client_for(home).get("/api/v1/league-fixtures/")
    assert mine.status_code == 200 and len(mine.json()) == 6
    assert all(fixture.home_id in (f["home_id"], f["away_id"]) for f in mine.json())
    assert client_for(None).get("/api/v1/league-fixtures/").status_code in (401, 403)
    one_team = client_for(None).get(f"/api/v1/leagues/county/fixtures/?team={fixture.home_id}").json()
    assert len(one_team) == 6 and all(fixture.home_id in (f["home_id"], f["away_id"]) for f in one_team)


def test_refusals_are_in_the_error_shape(world):
    fixture_rows = client_for(world.secretary).post(
        "/api/v1/leagues/county/fixtures/", {"season": world.season.pk, "division": world.division.pk},
        format="json")
    assert fixture_rows.status_code == 201
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round", "id")[0]
    captain = captain_of(world, fixture.home)
    bad_order = sheet(world, fixture.home)
    bad_order[0], bad_order[1] = bad_order[1], bad_order[0]
    response = client_for(captain).post(f"/api/v1/league-fixtures/{fixture.pk}/sheet/", {"players": bad_order},
                                        format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "league_rule"
    assert "Rule 'nominated board order'" in response.json()["error"]["message"]
    for body in ({"players": "x"}, {"players": [10**19]}, {"players": [None] * 50}):
        bad = client_for(captain).post(f"/api/v1/league-fixtures/{fixture.pk}/sheet/", body, format="json")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error", body
    card = client_for(captain).post(f"/api/v1/league-fixtures/{fixture.pk}/card/", {"boards": [[2]] * 4},
                                    format="json")
    assert card.status_code == 400
    twice = client_for(world.secretary).post(
        "/api/v1/leagues/county/fixtures/", {"season": world.season.pk, "division": world.division.pk},
        format="json")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "fixture_conflict"
    assert client_for(None).get("/api/v1/leagues/county/table/?season=abc").status_code == 400
    assert client_for(None).get("/api/v1/leagues/nope/table/").status_code == 404


def test_a_postponement_through_the_api(world):
    client_for(world.secretary).post("/api/v1/leagues/county/fixtures/",
                                     {"season": world.season.pk, "division": world.division.pk}, format="json")
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round", "id")[0]
    deadline = (timezone.now() + timedelta(days=10)).isoformat()
    asked = client_for(captain_of(world, fixture.home)).post(
        f"/api/v1/league-fixtures/{fixture.pk}/postponements/", {"deadline": deadline, "reason": "snow"},
        format="json")
    assert asked.status_code == 201, asked.content
    pk = asked.json()["id"]
    assert client_for(world.secretary).post(f"/api/v1/league-postponements/{pk}/approve/", {},
                                            format="json").status_code == 409  # not agreed yet
    assert client_for(captain_of(world, fixture.away)).post(f"/api/v1/league-postponements/{pk}/agree/",
                                                            format="json").status_code == 200
    approved = client_for(world.secretary).post(f"/api/v1/league-postponements/{pk}/approve/", {}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    fixture.refresh_from_db()
    assert fixture.status == "postponed"
    assert LeagueLog.objects.filter(league=world.league, kind="postponement").count() == 3

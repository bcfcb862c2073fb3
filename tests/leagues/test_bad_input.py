"""Any JSON value in any field of any league write is answered 2xx or 4xx in the error shape, never 5xx (the sweep
of tests/config/test_bad_input_types.py over the leagues' endpoints), each as the person who may send it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from leagues import services
from leagues.models import Fixture
from tests.config.test_bad_input_types import HOSTILE
from tests.leagues.conftest import build_league, captain_of, sheet

pytestmark = [pytest.mark.django_db]

EXTRA = ["9999-12-31", "0001-01-01", "2026-02-30", "99999999999", -1, 0, "1e5", "NaN", "0.3", [["0.3"]], [[]],
         [[1, 1, 1]], [None], [[None]]]


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    client.raise_request_exception = False
    return client


def test_every_field_of_every_league_write_answers_hostile_values_without_a_server_error(make_user):
    world = build_league(make_user, teams=4)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    first, entered = (Fixture.objects.filter(season=world.season, round=r).select_related("home", "away")[0]
                      for r in (1, 2))
    for side, team in (("home", entered.home), ("away", entered.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=entered, side=side,
                              players=sheet(world, team))
    slug, f, e = world.league.slug, f"/api/v1/league-fixtures/{first.pk}", f"/api/v1/league-fixtures/{entered.pk}"
    secretary, home, away = world.secretary, captain_of(world, first.home), captain_of(world, entered.away)
    entered_home = captain_of(world, entered.home)
    scope = {"season": world.season.pk, "division": world.division.pk}
    writes = [
        (secretary, "post", "/api/v1/leagues/", {"name": "L", "slug": "l2", "board_count": 4,
                                                 "opening": "go-as-you-please", "match_points_win": 2,
                                                 "match_points_draw": 1, "match_points_loss": 0,
                                                 "board_order_by_rating": False, "higher_team_limit": 3,
                                                 "promotion_places": 1, "relegation_places": 1}),
        (secretary, "post", f"/api/v1/leagues/{slug}/divisions/", {"name": "Two", "rank": 2}),
        (secretary, "post", f"/api/v1/leagues/{slug}/seasons/", {"name": "2031"}),
        (secretary, "post", f"/api/v1/leagues/{slug}/teams/", {**scope, "club_name": "X", "name": "X", "number": 1,
                                                                "captain": home.username}),
        (secretary, "post", f"/api/v1/leagues/{slug}/fixtures/", {**scope, "start": "2027-01-01", "weekday": 1}),
        (secretary, "post", f"/api/v1/leagues/{slug}/cups/", {"season": world.season.pk, "name": "C",
                                                               "teams": [t.pk for t in world.teams],
                                                               "tie_rule": "decider"}),
        (home, "put", f"/api/v1/league-teams/{first.home_id}/roster/",
         {"players": [p.pk for p in world.players[first.home_id]]}),
        (secretary, "post", f"{f}/date/", {"date": "2027-01-01"}),
        (home, "post", f"{f}/sheet/", {"side": "home", "players": sheet(world, first.home)}),
        (secretary, "post", f"{f}/default/", {"side": "home", "reason": "x"}),
        (home, "post", f"{f}/postponements/", {"deadline": "2030-01-01T00:00:00Z", "reason": "r"}),
        (entered_home, "post", f"{e}/card/", {"boards": [[1]] * 4}),
        (away, "post", f"{e}/dispute/", {"reason": "x"}),
        (secretary, "post", f"{e}/decision/", {"reason": "x", "boards": [[1]] * 4}),
        (secretary, "post", f"{e}/decider/", {"side": "home", "reason": "x"}),
        (secretary, "post", "/api/v1/league-postponements/1/approve/", {"approve": True, "reason": "r"}),
    ]
    failures = []
    for user, method, path, body in writes:
        api = _client(user)
        for field in body:
            for value in [*HOSTILE, *EXTRA]:
                response = getattr(api, method)(path, {**body, field: value}, format="json")
                if response.status_code >= 500 or (response.status_code >= 400 and (
                        not response["Content-Type"].startswith("application/json")
                        or set(response.json()) != {"error"})):
                    failures.append((path, field, repr(value)[:40], response.status_code))
    for query in ("?season=x", "?season=99999999999999999999", "?division=0", "?team=-1", "?season=1&division=1"):
        for what in ("table", "fixtures", "table.csv"):
            response = APIClient().get(f"/api/v1/leagues/{slug}/{what}/{query}")
            if response.status_code >= 500:
                failures.append((what, query, response.status_code))
    assert not failures, failures

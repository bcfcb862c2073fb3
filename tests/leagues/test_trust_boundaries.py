"""Trust boundaries of the leagues: every write of the league API, tried by an outsider director (another
league's secretary), by captains of the league's teams on what is not theirs, by secretaries of clubs on what is
not their club's (the league lets clubs enter teams), and by the public. Nothing changes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Club
from games.models import Game
from leagues import services
from leagues.models import (
    Cup,
    Division,
    Fixture,
    League,
    LeagueLog,
    Postponement,
    RosterEntry,
    Season,
    SheetLine,
    Team,
)
from tests.leagues.conftest import build_league, captain_of, sheet

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def snapshot() -> dict[str, Any]:
    """Every row the league writes could change."""
    return {
        "log": list(LeagueLog.objects.order_by("id").values_list("id", "kind")),
        "leagues": list(League.objects.order_by("id").values_list("id", "name", "log_seq")),
        "divisions": Division.objects.count(), "seasons": Season.objects.count(),
        "teams": list(Team.objects.order_by("id").values_list("id", "name", "captain_id", "club_id")),
        "clubs": list(Club.objects.order_by("id").values_list("id", "key", "secretary_id")),
        "roster": list(RosterEntry.objects.order_by("id").values_list("id", "team_id", "player_id", "board")),
        "fixtures": list(Fixture.objects.order_by("id").values_list("id", "status", "date", "home_points", "card")),
        "sheets": list(SheetLine.objects.order_by("id").values_list("id", "player_id")),
        "postponements": list(Postponement.objects.order_by("id").values_list("id", "status")),
        "games": Game.objects.count(),
        "cups": list(Cup.objects.order_by("id").values_list("id", "winner_id")),
    }


def write_endpoints(world, fixture: Fixture, entered: Fixture, postponement: Postponement) -> list[tuple]:
    """Every write of leagues/api.py on one league (from the router's actions); the body is one the right
    person could send."""
    slug, f, e = world.league.slug, f"/api/v1/league-fixtures/{fixture.pk}", f"/api/v1/league-fixtures/{entered.pk}"
    scope = {"season": world.season.pk, "division": world.division.pk}
    return [
        ("post", f"/api/v1/leagues/{slug}/divisions/", {"name": "Two", "rank": 2}),
        ("post", f"/api/v1/leagues/{slug}/seasons/", {"name": "2030"}),
        ("post", f"/api/v1/leagues/{slug}/teams/", {**scope, "club_name": "X", "name": "X"}),
        ("post", f"/api/v1/leagues/{slug}/fixtures/", scope),
        ("put", f"/api/v1/league-teams/{fixture.home_id}/roster/", {"players": []}),
        ("post", f"{f}/date/", {"date": "2027-01-01"}),
        ("post", f"{f}/sheet/", {"side": "home", "players": sheet(world, fixture.home)}),
        ("post", f"{f}/sheet/", {"side": "away", "players": sheet(world, fixture.away)}),
        ("post", f"{f}/start/", {}),
        ("post", f"{f}/default/", {"side": "home", "reason": "x"}),
        ("post", f"{f}/postponements/", {"deadline": (timezone.now() + timedelta(days=3)).isoformat()}),
        ("post", f"{e}/card/", {"boards": [[0]] * 4}),
        ("post", f"{e}/confirm/", {}),
        ("post", f"{e}/dispute/", {"reason": "x"}),
        ("post", f"{e}/decision/", {"reason": "x"}),
        ("post", f"/api/v1/league-postponements/{postponement.pk}/agree/", {}),
        ("post", f"/api/v1/leagues/{slug}/cups/", {"season": world.season.pk, "name": "Cup",
                                                   "teams": [t.pk for t in world.teams]}),
        ("post", f"{e}/decider/", {"side": "home", "reason": "x"}),
        ("post", f"/api/v1/league-postponements/{postponement.pk}/approve/", {}),
    ]


def test_every_league_write_refuses_outsiders_other_captains_and_the_public(make_user):
    world = build_league(make_user, teams=4, clubs_enter_teams=True)
    other = build_league(make_user, slug="other", teams=2, clubs_enter_teams=True)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    # a captain of this league whose team plays in none of the fixtures written to
    bystander_team = world.teams[-1]
    bystander = captain_of(world, bystander_team)
    first, entered, postponed = (
        Fixture.objects.filter(season=world.season, round=number).exclude(home=bystander_team)
        .exclude(away=bystander_team).select_related("home", "away").get() for number in (1, 2, 3))
    for side, team in (("home", entered.home), ("away", entered.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=entered, side=side,
                              players=sheet(world, team))
    services.card_enter(acting_user=captain_of(world, entered.home), fixture=entered, boards=[[1]] * 4)
    postponement = services.postponement_request(acting_user=captain_of(world, postponed.home), fixture=postponed,
                                                 deadline=timezone.now() + timedelta(days=5))
    services.postponement_agree(acting_user=captain_of(world, postponed.away), postponement=postponement)
    # the secretary of a club whose team plays in none of them; the secretary of a club of another league only
    bystander_club_secretary = make_user("club_sec_bystander", "player")
    Club.objects.filter(pk=bystander_team.club_id).update(secretary=bystander_club_secretary)
    other_club = Club.objects.create(name="Only other", key="only other", secretary=make_user("club_sec_other",
                                                                                                 "player"))
    Team.objects.filter(pk=other.teams[0].pk).update(club=other_club)
    before = snapshot()
    outsiders = {"another league's secretary": other.secretary, "another league's captain": other.captains[0],
                 "a captain of this league": bystander, "the public": None,
                 "the secretary of another club of this league": bystander_club_secretary,
                 "the secretary of a club of another league": other_club.secretary}
    for who, user in outsiders.items():
        for method, url, body in write_endpoints(world, first, entered, postponement):
            response = getattr(client_for(user), method)(url, body, format="json")
            allowed = {403, 404} if user is not None else {401, 403}
            assert response.status_code in allowed, (who, method, url, response.status_code, response.content[:300])
    assert snapshot() == before


def test_a_captain_is_refused_the_other_sides_sheet_card_and_the_secretarys_writes(make_user):
    world = build_league(make_user, teams=2)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round")[0]
    home, away = captain_of(world, fixture.home), captain_of(world, fixture.away)
    before = snapshot()
    url = f"/api/v1/league-fixtures/{fixture.pk}"
    assert client_for(away).post(f"{url}/sheet/", {"side": "home", "players": sheet(world, fixture.home)},
                                 format="json").status_code == 403
    assert client_for(home).put(f"/api/v1/league-teams/{fixture.away_id}/roster/", {"players": []},
                                format="json").status_code == 403
    for path, body in (("default/", {"side": "away", "reason": "x"}), ("start/", {}),
                       ("date/", {"date": "2027-02-02"})):
        assert client_for(home).post(f"{url}/{path}", body, format="json").status_code == 403
    assert snapshot() == before

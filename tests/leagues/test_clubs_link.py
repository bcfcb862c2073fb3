"""A league team belongs to a club record (``Team.club``): the migration that links the old teams, the club's
secretary's part in his club's teams, the higher-team rule by club, and the club page's teams section."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs import services as club_services
from clubs.models import Club, ClubLog
from leagues import services
from leagues.errors import InvalidInput, NotAllowed, RuleBroken
from leagues.models import Fixture, RosterEntry, Team
from players.models import Player
from tests.leagues.conftest import build_league, captain_of, sheet

BEFORE = [("leagues", "0002_cup"), ("clubs", "0002_clubs_from_player_text")]
AFTER = [("leagues", "0003_team_club")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_links_each_team_to_the_club_of_its_name_and_makes_the_missing_clubs():
    old = _migrate(BEFORE)
    User = old.get_model(*settings.AUTH_USER_MODEL.split("."))
    secretary = User.objects.create(username="old_sec")
    league = old.get_model("leagues", "League").objects.create(name="Old", slug="old", secretary=secretary)
    division = old.get_model("leagues", "Division").objects.create(league=league, name="One", rank=1)
    season = old.get_model("leagues", "Season").objects.create(league=league, name="2025")
    bristol = old.get_model("clubs", "Club").objects.create(name="Bristol DC", key="bristol dc")
    OldTeam = old.get_model("leagues", "Team")
    made = {name: OldTeam.objects.create(season=season, division=division, club_name=club, name=name, number=n).pk
            for name, club, n in [("Bristol A", "bristol  DC", 1), ("Bristol B", " Bristol DC", 2),
                                  ("Devon A", "Devon", 1), ("Devon B", "DEVON ", 2)]}
    new = _migrate(AFTER)
    Team = new.get_model("leagues", "Team")
    Club = new.get_model("clubs", "Club")
    clubs = {pk: Team.objects.get(pk=pk).club for pk in made.values()}
    assert clubs[made["Bristol A"]].pk == bristol.pk == clubs[made["Bristol B"]].pk
    devon = clubs[made["Devon A"]]
    assert devon.pk == clubs[made["Devon B"]].pk and (devon.name, devon.key) == ("Devon", "devon")
    assert Club.objects.count() == 2
    assert new.get_model("clubs", "ClubLog").objects.filter(club=devon, kind="created").count() == 1
    _migrate(BEFORE)  # and back
    executor = MigrationExecutor(connection)
    _migrate(executor.loader.graph.leaf_nodes())


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


@pytest.mark.django_db
def test_team_add_resolves_the_club_by_its_key_and_makes_a_new_one(make_user, director):
    bristol = club_services.club_create(acting_user=director, name="Bristol DC")
    world = build_league(make_user, teams=2)
    team = services.team_add(acting_user=world.secretary, season=world.season, division=world.division,
                             club_name="  bristol dc", name="Bristol A")
    assert team.club_id == bristol.pk and team.club_name == "Bristol DC"
    assert world.teams[0].club.name == "Club 0"  # a new name: a club record, on its record
    assert ClubLog.objects.filter(club=world.teams[0].club, kind="created").exists()
    with pytest.raises(InvalidInput) as refused:
        services.team_add(acting_user=world.secretary, season=world.season, division=world.division,
                          club=bristol, name="Bristol again")
    assert "Bristol DC has a team number 1" in refused.value.details["fields"]["number"][0]


@pytest.mark.django_db
def test_the_higher_team_rule_compares_teams_of_one_club_by_the_record(make_user, director):
    world = build_league(make_user, higher_team_limit=1)
    first = world.teams[0]
    div2 = services.division_add(acting_user=world.secretary, league=world.league, name="Division 2", rank=2)
    # spelt otherwise, the same club: its second team
    second = services.team_add(acting_user=world.secretary, season=world.season, division=div2,
                               club_name="CLUB  0", name="Club 0 B", number=2)
    assert second.club_id == first.club_id
    fixture = next(f for f in services.fixtures_make(acting_user=world.secretary, season=world.season,
                                                     division=world.division)
                   if first.pk in (f.home_id, f.away_id) and f.away_id is not None)
    for side, team in (("home", fixture.home), ("away", fixture.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=fixture, side=side,
                              players=sheet(world, team))
    services.card_enter(acting_user=captain_of(world, fixture.home), fixture=fixture, boards=[[1]] * 4)
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    starter = world.players[first.pk][0]
    with pytest.raises(RuleBroken, match="higher team"):
        services.roster_set(acting_user=world.secretary, team=second, players=[starter.pk])
    # another club's lower team is no drop for him
    other_club = services.team_add(acting_user=world.secretary, season=world.season, division=div2,
                                   club_name="Club 9", name="Club 9 B", number=2)
    services.roster_set(acting_user=world.secretary, team=other_club, players=[starter.pk])


@pytest.mark.django_db
def test_a_clubs_secretary_keeps_his_own_clubs_rosters_only(make_user, director):
    world = build_league(make_user, teams=2)
    mine, theirs = world.teams
    club_secretary = make_user("club_sec", "player")
    # the league's secretary (a director) registered the club entering its team: he keeps it and names its secretary
    club_services.club_update(acting_user=world.secretary, club=mine.club, secretary=club_secretary)
    mine.refresh_from_db()
    new = Player.objects.create(name="New member", rating=1500)
    players = [*[p.pk for p in world.players[mine.pk]], new.pk]
    response = client_for(club_secretary).put(f"/api/v1/league-teams/{mine.pk}/roster/", {"players": players},
                                              format="json")
    assert response.status_code == 200, response.content
    assert list(RosterEntry.objects.filter(team=mine).values_list("player_id", flat=True)) == players
    before = list(RosterEntry.objects.filter(team=theirs).values_list("player_id", flat=True))
    response = client_for(club_secretary).put(f"/api/v1/league-teams/{theirs.pk}/roster/", {"players": []},
                                              format="json")
    assert response.status_code == 403
    assert list(RosterEntry.objects.filter(team=theirs).values_list("player_id", flat=True)) == before


@pytest.mark.django_db
def test_a_clubs_secretary_enters_his_clubs_team_only_where_the_league_lets_clubs(make_user, director):
    closed = build_league(make_user, slug="closed", teams=1)
    opened = build_league(make_user, slug="opened", teams=1, clubs_enter_teams=True)
    club_secretary = make_user("club_sec", "player")
    mine = club_services.club_create(acting_user=director, name="Mine DC", secretary=club_secretary)
    other = club_services.club_create(acting_user=director, name="Other DC")

    def post(world: Any, body: dict[str, Any]):
        return client_for(club_secretary).post(
            f"/api/v1/leagues/{world.league.slug}/teams/",
            {"season": world.season.pk, "division": world.division.pk, "name": "Mine A", **body}, format="json")

    assert post(closed, {"club": mine.pk}).status_code == 403
    assert post(opened, {"club": other.pk}).status_code == 403
    assert post(opened, {"club_name": "Unknown club"}).status_code == 403
    assert not Club.objects.filter(key="unknown club").exists()
    assert post(opened, {"club": 999999}).status_code == 400
    assert post(opened, {}).status_code == 400
    response = post(opened, {"club_name": "mine  dc"})
    assert response.status_code == 201, response.content
    assert response.json()["club"] == mine.pk
    assert Team.objects.get(pk=response.json()["id"], season=opened.season).club_id == mine.pk
    with pytest.raises(NotAllowed):
        services.team_add(acting_user=club_secretary, season=closed.season, division=closed.division, club=mine,
                          name="Mine B")


@pytest.mark.django_db
def test_the_club_page_lists_its_teams_and_next_matches_in_constant_queries(client, make_user, director):
    world = build_league(make_user, teams=3)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    club = world.teams[0].club

    def count() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/clubs/{club.pk}/")
        assert response.status_code == 200
        return len(queries), response.content.decode()

    few, page = count()
    first = world.teams[0]
    upcoming = (Fixture.objects.filter(Q(home=first) | Q(away=first)).exclude(status="bye")
                .select_related("home", "away").order_by("round", "id").first())
    opponent = upcoming.away if upcoming.home_id == first.pk else upcoming.home
    assert 'data-testid="club-section-teams"' in page and "Club 0 A" in page
    assert f'href="/leagues/fixtures/{upcoming.pk}/"' in page and opponent.name in page
    assert f"round {upcoming.round}" in page
    # played and confirmed, it is no longer the next match
    for side, team in (("home", upcoming.home), ("away", upcoming.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=upcoming, side=side,
                              players=sheet(world, team))
    services.card_enter(acting_user=captain_of(world, upcoming.home), fixture=upcoming, boards=[[1]] * 4)
    services.card_confirm(acting_user=captain_of(world, upcoming.away), fixture=upcoming)
    few, page = count()
    assert f'href="/leagues/fixtures/{upcoming.pk}/"' not in page and "/leagues/fixtures/" in page
    for n in range(2, 6):
        div = services.division_add(acting_user=world.secretary, league=world.league, name=f"Division {n}", rank=n)
        services.team_add(acting_user=world.secretary, season=world.season, division=div, club=club,
                          name=f"Club 0 {n}", number=n)
    many, page = count()
    assert "Club 0 5" in page and many == few
    lonely = club_services.club_create(acting_user=director, name="No teams DC")
    assert "The club has no team in a league." in client.get(f"/clubs/{lonely.pk}/").content.decode()
    print(f"club page with teams: {few} queries")

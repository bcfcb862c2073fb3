"""Reads of a league: the table (a pure function of the results, ``leagues.core.table``), fixtures, sheets."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from leagues.access import captain_side, is_secretary
from leagues.core.table import Result, Row, league_table
from leagues.models import Division, Fixture, Season, SheetLine, Team
from leagues.services import COUNTED


def division_table(season: Season, division: Division) -> list[Row]:
    """Returns the division's table for the season, marked for promotion and relegation. Two queries,
    whatever the number of teams and matches (the league row is on ``season``)."""
    league = season.league
    teams = list(Team.objects.filter(season=season, division=division).values_list("pk", "name"))
    results = [
        Result(*row) for row in Fixture.objects.filter(season=season, division=division, status__in=COUNTED)
        .values_list("home_id", "away_id", "home_points", "away_points", "home_match_points", "away_match_points")
    ]
    return league_table(teams, results, promotion=league.promotion_places, relegation=league.relegation_places)


def division_fixtures(season: Season, division: Division, *, team: Team | None = None) -> list[Fixture]:
    """Returns the division's fixtures for the season in round order (one team's when ``team`` is given); one
    query."""
    fixtures = Fixture.objects.filter(season=season, division=division).select_related("home", "away")
    if team is not None:
        fixtures = fixtures.filter(home=team) | fixtures.filter(away=team)
    return list(fixtures.order_by("round", "id"))


FIXTURE_FIELDS = ("id", "season_id", "division_id", "round", "home_id", "home__name", "away_id", "away__name", "date",
                  "status", "home_points", "away_points", "home_match_points", "away_match_points", "defaulted_by")


def division_fixture_rows(season: Season | None, division: Division | None, *, team_id: int | None = None,
                          captain: Any = None) -> list[dict[str, Any]]:
    """Returns fixtures as plain rows (the API's lists), in round order, one query: the division's for the season,
    one team's of them, or (``captain``) those of the teams the user captains, every season."""
    if captain is not None:
        fixtures = Fixture.objects.filter(Q(home__captain=captain) | Q(away__captain=captain))
    else:
        fixtures = Fixture.objects.filter(season=season, division=division)
    if team_id is not None:
        fixtures = fixtures.filter(Q(home_id=team_id) | Q(away_id=team_id))
    return [
        {"id": r[0], "season": r[1], "division": r[2], "round": r[3], "home_id": r[4], "home": r[5], "away_id": r[6],
         "away": r[7], "date": r[8], "status": r[9], "home_points": r[10], "away_points": r[11],
         "home_match_points": r[12], "away_match_points": r[13], "defaulted_by": r[14]}
        for r in fixtures.order_by("season_id", "round", "id").values_list(*FIXTURE_FIELDS)
    ]


def sheet_visible(fixture: Fixture, side: str, user: Any) -> bool:
    """Tells whether the user may see the ``side`` team's sheet: its captain and the secretary always; anyone
    once both sheets are in or the match has started."""
    if is_secretary(fixture.season.league, user) or captain_side(fixture, user) == side:
        return True
    if fixture.status not in (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED):
        return True
    return SheetLine.objects.filter(fixture=fixture).values("side").distinct().count() == 2


def fixture_sheets(fixture: Fixture, user: Any) -> dict[str, Any]:
    """Returns each side's sheet as the user may see it: a list of {board, player, name}, hidden (None) or
    not submitted ([])."""
    lines = list(SheetLine.objects.filter(fixture=fixture).select_related("player").order_by("side", "board"))
    out: dict[str, Any] = {}
    for side in ("home", "away"):
        mine = [{"board": s.board, "player": s.player_id, "name": s.player.name if s.player else None}
                for s in lines if s.side == side]
        out[side] = mine if not mine or sheet_visible(fixture, side, user) else None
    return out


def captain_fixtures(user: Any) -> list[Fixture]:
    """Returns the fixtures of the teams the user captains in running seasons, in date and round order."""
    if user is None or not user.is_authenticated:
        return []
    teams = Team.objects.filter(captain=user, season__status=Season.Status.RUNNING)
    return list((Fixture.objects.filter(home__in=teams) | Fixture.objects.filter(away__in=teams))
                .select_related("home", "away", "season__league", "division").order_by("date", "round", "id"))


def club_teams(club: Any, request: Any = None) -> dict[str, Any]:
    """The club page's section: the club's teams (newest season first) and each one's next fixture to play.
    Two queries, whatever the number of teams and fixtures."""
    teams = list(Team.objects.filter(club=club).select_related("season__league", "division")
                 .order_by("-season_id", "division__rank", "number", "id"))
    ids = [t.pk for t in teams]
    upcoming: dict[int, Fixture] = {}
    if ids:
        fixtures = (Fixture.objects.filter(Q(home_id__in=ids) | Q(away_id__in=ids))
                    .filter(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED, Fixture.Status.STARTED])
                    .select_related("home", "away").order_by("round", "id"))
        for fixture in fixtures:
            for team_id in (fixture.home_id, fixture.away_id):
                if team_id in ids and team_id not in upcoming:
                    upcoming[team_id] = fixture
    rows = []
    for team in teams:
        fixture = upcoming.get(team.pk)
        opponent = None
        if fixture is not None:
            opponent = fixture.away if fixture.home_id == team.pk else fixture.home
        rows.append({"team": team, "fixture": fixture, "opponent": opponent,
                     "home": fixture is not None and fixture.home_id == team.pk})
    return {"rows": rows}

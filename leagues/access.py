"""Who may write to a league: its secretary directs it; a captain writes only his own team's sheet and card; a
club's secretary keeps his own club's teams' rosters (and enters its teams where the league lets clubs do so)."""

from __future__ import annotations

from typing import Any

from leagues.errors import NotAllowed
from leagues.models import Fixture, League, Team


def is_secretary(league: League, user: Any) -> bool:
    """Tells whether the user is the league's secretary (a superuser acts for every league)."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_superuser) or league.secretary_id == user.pk


def authorise_secretary(league: League, user: Any) -> None:
    """Refuses (403) anyone but the league's secretary."""
    if not is_secretary(league, user):
        raise NotAllowed("Only the secretary of this league may do this.")


def captain_side(fixture: Fixture, user: Any) -> str | None:
    """Returns "home" or "away" when the user captains that team of the fixture, else None."""
    if user is None or not user.is_authenticated:
        return None
    if fixture.home.captain_id == user.pk:
        return "home"
    if fixture.away_id is not None and fixture.away.captain_id == user.pk:
        return "away"
    return None


def authorise_captain(fixture: Fixture, user: Any, side: str) -> None:
    """Refuses (403) anyone but the captain of the ``side`` team of the fixture."""
    team: Team | None = fixture.home if side == "home" else fixture.away
    if team is None or user is None or not user.is_authenticated or team.captain_id != user.pk:
        raise NotAllowed(f"Only the captain of the {side} team ({team}) may do this.")


def is_club_secretary(club: Any, user: Any) -> bool:
    """Tells whether the user is the secretary of this club (a club record, or None: no one is)."""
    if club is None or user is None or not user.is_authenticated:
        return False
    return club.secretary_id is not None and club.secretary_id == user.pk


def authorise_team_entry(league: League, club: Any, user: Any) -> None:
    """Refuses (403) anyone but the league's secretary, or this club's secretary when the league lets clubs enter
    their teams (``League.clubs_enter_teams``)."""
    if is_secretary(league, user):
        return
    if league.clubs_enter_teams and is_club_secretary(club, user):
        return
    raise NotAllowed("Only the league's secretary (or, where the league lets clubs enter teams, the club's own "
                     "secretary) may enter a team of this club.")


def authorise_team_writer(team: Team, user: Any) -> None:
    """Refuses (403) anyone but the team's captain, its club's secretary or its league's secretary."""
    if is_secretary(team.season.league, user) or is_club_secretary(team.club, user):
        return
    if user is None or not user.is_authenticated or team.captain_id != user.pk:
        raise NotAllowed(f"Only the captain of {team}, its club's secretary or the league's secretary may do this.")

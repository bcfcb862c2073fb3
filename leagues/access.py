"""Who may write to a league: its secretary directs it; a captain writes only his own team's sheet and card."""

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


def authorise_team_writer(team: Team, user: Any) -> None:
    """Refuses (403) anyone but the team's captain or its league's secretary."""
    if is_secretary(team.season.league, user):
        return
    if user is None or not user.is_authenticated or team.captain_id != user.pk:
        raise NotAllowed(f"Only the captain of {team} or the league's secretary may do this.")

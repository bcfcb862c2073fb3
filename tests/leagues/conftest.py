"""A league to test on: a secretary, a division of teams with captains and rosters of rated players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from arbitration.models import LogEntry
from arbitration.rulings import ruling_issue
from leagues import services
from leagues.models import BoardGame, Division, League, Season, Team
from players.models import Player


@dataclass
class World:
    league: League
    division: Division
    season: Season
    secretary: Any
    teams: list[Team]
    captains: list[Any]
    players: dict[int, list[Player]]  # team id -> roster in board order


def build_league(make_user, *, slug: str = "county", teams: int = 4, boards: int = 4, opening: str =
                 "go-as-you-please", **rules: Any) -> World:
    secretary = make_user(f"sec_{slug}", "director")
    league = services.league_create(acting_user=secretary, name=f"League {slug}", slug=slug, board_count=boards,
                                    opening=opening, **rules)
    division = services.division_add(acting_user=secretary, league=league, name="Division 1", rank=1)
    season = services.season_create(acting_user=secretary, league=league, name="2026-27")
    made, captains, players = [], [], {}
    for n in range(teams):
        captain = make_user(f"cap_{slug}_{n}", "player")
        team = services.team_add(acting_user=secretary, season=season, division=division, club_name=f"Club {n}",
                                 name=f"Club {n} A", captain=captain)
        roster = [Player.objects.create(name=f"{slug} T{n} P{b}", rating=2000 - 10 * b) for b in range(boards + 1)]
        services.roster_set(acting_user=captain, team=team, players=[p.pk for p in roster])
        made.append(team)
        captains.append(captain)
        players[team.pk] = roster
    return World(league, division, season, secretary, made, captains, players)


@pytest.fixture
def world(make_user) -> World:
    return build_league(make_user)


def captain_of(world: World, team: Team) -> Any:
    return world.captains[world.teams.index(team)]


def sheet(world: World, team: Team, fielded: int | None = None) -> list[int | None]:
    boards = world.league.board_count
    fielded = boards if fielded is None else fielded
    return [p.pk for p in world.players[team.pk][:fielded]] + [None] * (boards - fielded)


# --- board games: their endings and corrections (the referee is the league's secretary) ---------------------

def board_game(fixture: Any, board: int, number: int = 1) -> BoardGame:
    """The board game of ``fixture`` on ``board`` (its game ``number``), with its game."""
    return BoardGame.objects.select_related("game").get(fixture=fixture, board=board, number=number)


def result_for(board_game: BoardGame, winner: str) -> str:
    """The PDN result in which ``winner`` (home, away or draw) takes the board game."""
    if winner == "draw":
        return "1/2-1/2"
    home_black = board_game.home_colour == "black"
    return "1-0" if (winner == "home") == home_black else "0-1"


def game_adjudicate(capture: Any, secretary: Any, board_game: BoardGame, winner: str, reason: str = "scoresheet") -> None:
    """The referee ends the board game with ``winner`` taking it (an adjudication from the scoresheet)."""
    with capture(execute=True):  # game_finished goes out after the commit; its task runs in process
        ruling_issue(acting_user=secretary, game_id=board_game.game_id, kind="adjudicate",
                     payload={"result": result_for(board_game, winner), "reason": reason})


def game_correct(capture: Any, secretary: Any, board_game: BoardGame, winner: str, reason: str) -> None:
    """The referee corrects the adjudication (the game resumes), then adjudicates it again with ``winner``."""
    entry = (LogEntry.objects.filter(game_id=board_game.game_id, kind="adjudicate", superseded_by__isnull=True)
             .order_by("-seq").first())
    with capture(execute=True):
        ruling_issue(acting_user=secretary, game_id=board_game.game_id, kind="correction",
                     payload={"entry": entry.seq, "reason": reason})
    board_game.game.refresh_from_db()
    assert board_game.game.status == "in_progress"  # the ending is undone: the game is back in play
    game_adjudicate(capture, secretary, board_game, winner, reason=reason)

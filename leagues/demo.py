"""The league demo (``make run``): one division of five club teams of four boards, half a season played through
the services (cards entered and confirmed, a board defaulted, a match postponed, one match's boards live as games)
and a cup with its first round played."""

from __future__ import annotations

import random
import secrets
from datetime import date, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.roles import Role
from accounts.services import user_create_with_role
from leagues import services
from leagues.models import Fixture, League
from players.models import Player

DEMO_LEAGUE_SLUG = "county-league"
CLUBS = ("Ashford DC", "Bexley Knights", "Crayford", "Dartford Kings", "Erith")
FIRST_NAMES = ("Alan", "Beth", "Colin", "Dora", "Ewan", "Fay", "Glen", "Hana", "Ivor", "Jill")


def league_demo_exists() -> bool:
    return League.objects.filter(slug=DEMO_LEAGUE_SLUG).exists()


@transaction.atomic
def league_demo_seed() -> list[tuple[str, str, str]]:
    """Creates the demo league; returns the logins made (username, password, role). The league's secretary is
    the demo's director when there is one."""
    logins: list[tuple[str, str, str]] = []

    def account(username: str, role: str) -> Any:
        password = secrets.token_urlsafe(12)
        logins.append((username, password, role))
        return user_create_with_role(username=username, password=password, role=role)

    secretary = get_user_model().objects.filter(username="director").first() or account("secretary", Role.DIRECTOR)
    league = services.league_create(acting_user=secretary, name="County League", slug=DEMO_LEAGUE_SLUG,
                                    board_count=4, higher_team_limit=3)
    division = services.division_add(acting_user=secretary, league=league, name="Division One", rank=1)
    season = services.season_create(acting_user=secretary, league=league, name="2026-27")
    rng = random.Random(26)
    teams, captains = [], []
    for number, club in enumerate(CLUBS, start=1):
        captain = account(f"captain{number}", Role.PLAYER)
        team = services.team_add(acting_user=secretary, season=season, division=division, club_name=club,
                                 name=f"{club} A", captain=captain)
        roster = [Player.objects.create(name=f"{FIRST_NAMES[(number + b) % 10]} {club.split()[0]}-{b}", club=club,
                                        rating=1800 - 25 * b - 5 * number) for b in range(1, 6)]
        services.roster_set(acting_user=captain, team=team, players=[p.pk for p in roster])
        teams.append(team)
        captains.append(captain)
    captain_of = {team.pk: captain for team, captain in zip(teams, captains, strict=True)}
    start = timezone.localdate() - timedelta(weeks=5)
    services.fixtures_make(acting_user=secretary, season=season, division=division, start=start, weekday=1)
    fixtures = Fixture.objects.filter(season=season, division=division, away__isnull=False).select_related(
        "home", "away").order_by("round", "id")
    postponed = defaulted = False
    for fixture in fixtures:
        if fixture.round > 5:
            break
        if not postponed and fixture.round == 4:
            postponement = services.postponement_request(
                acting_user=captain_of[fixture.away_id], fixture=fixture, reason="The team's van broke down.",
                deadline=timezone.now() + timedelta(days=21))
            services.postponement_agree(acting_user=captain_of[fixture.home_id], postponement=postponement)
            services.postponement_approve(acting_user=secretary, postponement=postponement)
            postponed = True
            continue
        for side, team in (("home", fixture.home), ("away", fixture.away)):
            fielded = 3 if (side == "away" and not defaulted and fixture.round == 2) else 4
            players = [e.player_id for e in team.roster.order_by("board")][:fielded] + [None] * (4 - fielded)
            services.sheet_submit(acting_user=captain_of[team.pk], fixture=fixture, side=side, players=players)
        defaulted = defaulted or fixture.round == 2
        boards = [[rng.choice([1, 0.5, 0.5, 0])] for _ in range(4)]
        services.card_enter(acting_user=captain_of[fixture.home_id], fixture=fixture, boards=boards)
        services.card_confirm(acting_user=captain_of[fixture.away_id], fixture=fixture)
    live = fixtures.filter(round=6, status="scheduled").first()
    if live is not None:
        for side, team in (("home", live.home), ("away", live.away)):
            services.sheet_submit(acting_user=captain_of[team.pk], fixture=live, side=side,
                                  players=[e.player_id for e in team.roster.order_by("board")][:4])
        services.fixture_date_set(acting_user=secretary, fixture=live, on=date.today())
        services.match_start(acting_user=secretary, fixture=live)  # its boards are games in play, on the console
    cup = services.cup_create(acting_user=secretary, league=league, season=season, name="County Shield",
                              teams=[t.pk for t in teams[:4]])
    for tie in Fixture.objects.filter(cup=cup, round=1, away__isnull=False).select_related("home", "away"):
        for side, team in (("home", tie.home), ("away", tie.away)):
            services.sheet_submit(acting_user=captain_of[team.pk], fixture=tie, side=side,
                                  players=[e.player_id for e in team.roster.order_by("board")][:4])
        services.card_enter(acting_user=captain_of[tie.home_id], fixture=tie, boards=[[1], [0.5], [0], [1]])
        services.card_confirm(acting_user=captain_of[tie.away_id], fixture=tie)
    return logins

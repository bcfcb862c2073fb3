"""Leagues through the services: fixtures, eligibility, sheets, boards as games, cards and disputes,
defaults, postponements, the table and the league's chained log."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from arbitration.rulings import ruling_issue
from games.models import Game
from leagues import selectors, services
from leagues.errors import FixtureConflict, NotAllowed, RuleBroken
from leagues.log import league_log_verify
from leagues.models import BoardGame, Fixture, LeagueLog, Postponement, Team
from players.models import Player
from tests.leagues.conftest import build_league, captain_of, sheet

pytestmark = pytest.mark.django_db


def _first_fixture(world):
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division,
                           start=date(2026, 12, 1), weekday=1)
    return Fixture.objects.filter(season=world.season, status="scheduled").select_related("home", "away").order_by(
        "round", "id").first()


def _sheets_in(world, fixture, home_fielded=None, away_fielded=None):
    services.sheet_submit(acting_user=captain_of(world, fixture.home), fixture=fixture,
                          players=sheet(world, fixture.home, home_fielded))
    services.sheet_submit(acting_user=captain_of(world, fixture.away), fixture=fixture,
                          players=sheet(world, fixture.away, away_fielded))


def test_a_five_team_season_is_a_double_round_robin_with_a_bye_each_round_dated_weekly(make_user):
    world = build_league(make_user, teams=5)
    fixtures = services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division,
                                      start=date(2026, 11, 27), weekday=1)
    assert len(fixtures) == 10 * 3
    played = [f for f in fixtures if f.away_id is not None]
    assert len(played) == 20 and len({(f.home_id, f.away_id) for f in played}) == 20
    assert all(f.status == "bye" for f in fixtures if f.away_id is None)
    dates = sorted({f.date for f in fixtures})
    assert dates[0] == date(2026, 12, 1) and all(d.weekday() == 1 for d in dates) and len(dates) == 10
    with pytest.raises(FixtureConflict):
        services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    assert LeagueLog.objects.filter(league=world.league, kind="fixtures_made").count() == 1


def test_a_player_plays_for_one_team_per_division_and_season(world):
    a, b = world.teams[0], world.teams[1]
    with pytest.raises(RuleBroken, match="Rule 'one team per division and season'"):
        services.roster_set(acting_user=captain_of(world, b), team=b,
                            players=[world.players[a.pk][0].pk, *[p.pk for p in world.players[b.pk]]])


def test_a_player_who_played_n_times_for_a_higher_team_may_not_drop(make_user):
    world = build_league(make_user, higher_team_limit=1)
    div2 = services.division_add(acting_user=world.secretary, league=world.league, name="Division 2", rank=2)
    second = services.team_add(acting_user=world.secretary, season=world.season, division=div2,
                               club_name=world.teams[0].club_name, name="Club 0 B", number=2)
    fixture = _first_fixture(world)
    _sheets_in(world, fixture)
    services.card_enter(acting_user=captain_of(world, fixture.home), fixture=fixture, boards=[[1]] * 4)
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    first_team = world.teams[0]
    assert first_team.pk in (fixture.home_id, fixture.away_id)
    starter = world.players[first_team.pk][0]
    with pytest.raises(RuleBroken, match="Rule 'played 1 times for a higher team'"):
        services.roster_set(acting_user=world.secretary, team=second, players=[starter.pk])
    unused = world.players[first_team.pk][-1]  # on the first team's roster but never fielded
    # a different division: the one-team rule does not apply; he has not played, so he may drop
    services.roster_set(acting_user=world.secretary, team=second, players=[unused.pk])


def test_board_order_by_rating_is_enforced_when_the_league_says_so(make_user):
    world = build_league(make_user, board_order_by_rating=True)
    team = world.teams[0]
    roster = world.players[team.pk]
    with pytest.raises(RuleBroken, match="Rule 'board order by rating'"):
        services.roster_set(acting_user=captain_of(world, team), team=team, players=[roster[1].pk, roster[0].pk])
    fixture = _first_fixture(world)
    home = fixture.home
    top = world.players[home.pk]
    with pytest.raises(RuleBroken, match="Rule 'board order by rating'"):
        services.sheet_submit(acting_user=captain_of(world, home), fixture=fixture,
                              players=[top[1].pk, top[0].pk, top[2].pk, top[3].pk])


def test_a_sheet_with_a_gap_above_a_player_is_refused_naming_the_rule(world):
    fixture = _first_fixture(world)
    players = sheet(world, fixture.home)
    players[1] = None
    with pytest.raises(RuleBroken, match="Rule 'bottom-board defaults'"):
        services.sheet_submit(acting_user=captain_of(world, fixture.home), fixture=fixture, players=players)


def test_a_captain_writes_only_his_own_sheet_and_the_other_sheet_is_hidden_until_both_are_in(world):
    fixture = _first_fixture(world)
    home_captain, away_captain = captain_of(world, fixture.home), captain_of(world, fixture.away)
    with pytest.raises(NotAllowed):
        services.sheet_submit(acting_user=away_captain, fixture=fixture, side="home",
                              players=sheet(world, fixture.home))
    services.sheet_submit(acting_user=home_captain, fixture=fixture, players=sheet(world, fixture.home))
    assert selectors.fixture_sheets(fixture, away_captain)["home"] is None
    assert selectors.fixture_sheets(fixture, home_captain)["home"][0]["player"] == sheet(world, fixture.home)[0]
    assert selectors.fixture_sheets(fixture, world.secretary)["home"] is not None
    services.sheet_submit(acting_user=away_captain, fixture=fixture, players=sheet(world, fixture.away))
    assert len(selectors.fixture_sheets(fixture, away_captain)["home"]) == 4
    assert len(selectors.fixture_sheets(fixture, None)["away"]) == 4


def test_a_match_decided_on_game_points_with_a_defaulted_board_from_the_boards_games(
        make_user, django_capture_on_commit_callbacks):
    world = build_league(make_user, opening="three-move-ballot")
    fixture = _first_fixture(world)
    _sheets_in(world, fixture, home_fielded=4, away_fielded=3)  # the away team defaults board 4
    made = services.match_start(acting_user=world.secretary, fixture=fixture)
    assert len(made) == 6  # 3 boards of 2 games; board 4 defaulted
    games = {(bg.board, bg.number): bg for bg in BoardGame.objects.filter(fixture=fixture).select_related("game")}
    assert games[(1, 1)].home_colour == "black" and games[(1, 2)].home_colour == "white"
    assert games[(2, 1)].home_colour == "white"
    assert games[(1, 1)].game.start_fen == games[(3, 2)].game.start_fen != ""  # one ballot for the match
    home_ids = {p.pk for p in world.players[fixture.home_id]}
    for (board, number), bg in sorted(games.items()):
        game = bg.game
        # the away team wins every game of boards 1-2, board 3 is drawn twice: 2 + 4 (board 4) v 4
        if board == 3:
            result = "1/2-1/2"
        else:
            home_black = game.black_id in home_ids
            result = "0-1" if home_black else "1-0"
        with django_capture_on_commit_callbacks(execute=True):  # game_finished goes out after the commit
            ruling_issue(acting_user=world.secretary, game_id=game.pk, kind="adjudicate",
                         payload={"result": result, "reason": "scoresheet"})
        fixture.refresh_from_db()
        assert fixture.status == ("card_entered" if (board, number) == (3, 2) else "started")
    assert [line["board"] for line in fixture.card if line.get("default")] == [4]
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    fixture.refresh_from_db()
    assert (fixture.home_points, fixture.away_points) == (Decimal(3), Decimal(5))
    assert (fixture.home_match_points, fixture.away_match_points) == (0, 2)
    assert Game.objects.filter(league_board__fixture=fixture, status="finished").count() == 6
    assert services.fixture_games_finished(fixture_id=fixture.pk) is False  # idempotent


def test_a_disputed_card_is_decided_by_the_secretary_and_the_table_moves_only_with_an_entry(world):
    fixture = _first_fixture(world)
    _sheets_in(world, fixture)
    home_captain, away_captain = captain_of(world, fixture.home), captain_of(world, fixture.away)
    services.card_enter(acting_user=home_captain, fixture=fixture, boards=[[1], [1], [1], [0]])
    table = selectors.division_table(world.season, world.division)
    assert all(row.played == 0 for row in table)  # entered, not confirmed: the table has not moved
    with pytest.raises(NotAllowed):
        services.card_confirm(acting_user=home_captain, fixture=fixture)
    services.card_dispute(acting_user=away_captain, fixture=fixture, reason="board 3 was drawn")
    with pytest.raises(NotAllowed):
        services.dispute_decide(acting_user=away_captain, fixture=fixture, reason="x")
    services.dispute_decide(acting_user=world.secretary, fixture=fixture, reason="board 3's scoresheet: a draw",
                            boards=[[1], [1], [0.5], [0]])
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_points, fixture.away_points) == ("result", Decimal("2.5"), Decimal("1.5"))
    rows = {row.team: row for row in selectors.division_table(world.season, world.division)}
    assert rows[fixture.home_id].match_points == 2 and rows[fixture.away_id].lost == 1
    decided = LeagueLog.objects.get(league=world.league, kind="dispute_decided")
    assert decided.actor_id == world.secretary.pk and decided.data["home_points"] == "2.5"
    assert league_log_verify(world.league) == (True, LeagueLog.objects.filter(league=world.league).count(), "")


def test_the_table_counts_confirmed_results_and_defaults_with_places_marked(world):
    _first_fixture(world)
    round_one = list(Fixture.objects.filter(season=world.season, round=1).select_related("home", "away"))
    first, second = round_one
    _sheets_in(world, first)
    services.card_enter(acting_user=captain_of(world, first.home), fixture=first, boards=[[1], [1], [0.5], [0.5]])
    services.card_confirm(acting_user=captain_of(world, first.away), fixture=first)
    services.match_default(acting_user=world.secretary, fixture=second, side="away", reason="did not come")
    table = selectors.division_table(world.season, world.division)
    assert [row.team for row in table[:2]] == [second.home_id, first.home_id]  # 4-0 before 3-1
    assert table[0].mark == "promoted" and table[-1].mark == "relegated"
    assert table[-1].team == second.away_id and table[-1].points_for == 0


def test_the_table_reads_in_two_queries_whatever_the_teams(make_user, django_assert_max_num_queries):
    for teams, slug in ((4, "small"), (8, "large")):
        world = build_league(make_user, slug=slug, teams=teams)
        _first_fixture(world)
        for fixture in Fixture.objects.filter(season=world.season, status="scheduled", round__lte=2):
            services.match_default(acting_user=world.secretary, fixture=fixture, side="away", reason="x")
        season = type(world.season).objects.select_related("league").get(pk=world.season.pk)
        with django_assert_max_num_queries(2):
            rows = selectors.division_table(season, world.division)
        assert len(rows) == teams and sum(r.played for r in rows) == 2 * teams


def test_an_outsider_and_the_other_captain_are_refused(world, make_user):
    outsider = make_user("outsider", "director")
    fixture = _first_fixture(world)
    for call in (lambda u: services.match_default(acting_user=u, fixture=fixture, side="home", reason="x"),
                 lambda u: services.fixture_date_set(acting_user=u, fixture=fixture, on=date(2027, 1, 5)),
                 lambda u: services.team_add(acting_user=u, season=world.season, division=world.division,
                                             club_name="X", name="X"),
                 lambda u: services.roster_set(acting_user=u, team=fixture.home, players=[]),
                 lambda u: services.match_start(acting_user=u, fixture=fixture)):
        with pytest.raises(NotAllowed):
            call(outsider)
        with pytest.raises(NotAllowed):
            call(captain_of(world, fixture.away))


def test_a_postponed_match_defaults_at_its_deadline_exactly_once(world):
    fixture = _first_fixture(world)
    home_captain, away_captain = captain_of(world, fixture.home), captain_of(world, fixture.away)
    deadline = timezone.now() + timedelta(days=14)
    postponement = services.postponement_request(acting_user=away_captain, fixture=fixture, deadline=deadline,
                                                 reason="two players ill")
    with pytest.raises(NotAllowed):
        services.postponement_agree(acting_user=away_captain, postponement=postponement)
    services.postponement_agree(acting_user=home_captain, postponement=postponement)
    with pytest.raises(NotAllowed):
        services.postponement_approve(acting_user=home_captain, postponement=postponement)
    services.postponement_approve(acting_user=world.secretary, postponement=postponement)
    fixture.refresh_from_db()
    assert fixture.status == "postponed"
    # the eager task ran at approval, before the deadline: nothing happened
    assert Postponement.objects.get(pk=postponement.pk).status == "approved"
    assert services.postponement_expire(postponement_id=postponement.pk) is False
    later = deadline + timedelta(seconds=1)
    assert services.postponement_expire(postponement_id=postponement.pk, now=later) is True
    assert services.postponement_expire(postponement_id=postponement.pk, now=later) is False
    fixture.refresh_from_db()
    assert (fixture.status, fixture.defaulted_by, fixture.away_match_points) == ("defaulted", "away", 0)
    assert LeagueLog.objects.filter(league=world.league, kind="match_defaulted").count() == 1


def test_past_seasons_keep_their_teams_and_table(world):
    _first_fixture(world)
    services.season_create(acting_user=world.secretary, league=world.league, name="2027-28")
    assert Team.objects.filter(season=world.season).count() == 4
    assert len(selectors.division_table(world.season, world.division)) == 4
    assert Player.objects.count() == 20


def test_a_result_edited_outside_the_services_breaks_the_leagues_verification(world):
    fixture = _first_fixture(world)
    services.match_default(acting_user=world.secretary, fixture=fixture, side="away", reason="did not come")
    assert league_log_verify(world.league)[0] is True
    Fixture.objects.filter(pk=fixture.pk).update(home_points=0, away_points=4, home_match_points=0,
                                                 away_match_points=2)
    valid, _rows, problem = league_log_verify(world.league)
    assert not valid and f"fixture {fixture.pk} counts 0.0-4.0 but row #" in problem
    other = Fixture.objects.filter(season=world.season, status="scheduled").first()
    Fixture.objects.filter(pk=fixture.pk).update(home_points=4, away_points=0)
    Fixture.objects.filter(pk=other.pk).update(status="result", home_points=2, away_points=2)
    valid, _rows, problem = league_log_verify(world.league)
    assert not valid and f"fixture {other.pk} counts 2.0-2.0 but no row of the log gave it a result" in problem

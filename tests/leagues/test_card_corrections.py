"""A board game's result corrected after the match's card is entered: the card, the match's points and the table
follow, with one ``card_corrected`` row on the league's log per change (through the services and the
``game_finished`` signal, its task run in process)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from arbitration.models import LogEntry
from arbitration.rulings import ruling_issue
from leagues import selectors, services
from leagues.log import league_log_verify
from leagues.models import Fixture, LeagueLog
from tests.leagues.conftest import (
    board_game,
    build_league,
    captain_of,
    game_adjudicate,
    game_correct,
    result_for,
    sheet,
)

pytestmark = pytest.mark.django_db


def _match(world):
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division,
                           start=date(2026, 12, 1), weekday=1)
    fixture = Fixture.objects.filter(season=world.season, status="scheduled").select_related("home", "away").order_by(
        "round", "id").first()
    for team in (fixture.home, fixture.away):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=fixture, players=sheet(world, team))
    services.match_start(acting_user=world.secretary, fixture=fixture)
    return fixture


def _row(world, team_id):
    return {row.team: row for row in selectors.division_table(world.season, world.division)}[team_id]


def _play(capture, world, fixture, winners):
    for board, winner in enumerate(winners, start=1):
        game_adjudicate(capture, world.secretary, board_game(fixture, board), winner)
    fixture.refresh_from_db()
    assert fixture.status == "card_entered"


def test_a_corrected_board_game_moves_a_confirmed_card_its_points_and_the_table_once(
        make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user)
    fixture = _match(world)
    _play(capture, world, fixture, ["home", "home", "home", "draw"])
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    fixture.refresh_from_db()
    assert (fixture.home_points, fixture.away_points) == (Decimal("3.5"), Decimal("0.5"))
    assert (_row(world, fixture.home_id).match_points, _row(world, fixture.away_id).match_points) == (2, 0)

    # board 1's result was wrong: the referee corrects it; while the game is back in play the card stands
    board_one = board_game(fixture, 1)
    entry = LogEntry.objects.filter(game_id=board_one.game_id, kind="adjudicate").order_by("-seq").first()
    with capture(execute=True):
        ruling_issue(acting_user=world.secretary, game_id=board_one.game_id, kind="correction",
                     payload={"entry": entry.seq, "reason": "the wrong scoresheet"})
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_points) == ("result", Decimal("3.5"))
    assert not LeagueLog.objects.filter(league=world.league, kind="card_corrected").exists()

    game_adjudicate(capture, world.secretary, board_one, "away", reason="the right scoresheet")
    fixture.refresh_from_db()
    assert fixture.status == "result"
    assert (fixture.home_points, fixture.away_points) == (Decimal("2.5"), Decimal("1.5"))
    assert fixture.card[0] == {"board": 1, "home": "0", "away": "1", "games": ["0"]}
    row = LeagueLog.objects.get(league=world.league, kind="card_corrected")
    assert row.actor_id is None and row.data["home_points"] == "2.5"
    change = row.data["changes"][0]
    assert (change["board"], change["game"], change["card_before"], change["card"], change["by_hand"]) == (
        1, board_one.game_id, "1", "0", False)
    assert change["result_before"] != change["result"] == result_for(board_one, "away")
    assert row.data["before"]["home_points"] == "3.5"
    assert "board 1 game 1" in row.reason and "the card said 1" in row.reason

    # board 2 too: the match changes hands, and so does the table
    game_correct(capture, world.secretary, board_game(fixture, 2), "away", reason="board 2's scoresheet")
    fixture.refresh_from_db()
    assert (fixture.home_points, fixture.away_points) == (Decimal("1.5"), Decimal("2.5"))
    assert (fixture.home_match_points, fixture.away_match_points) == (0, 2)
    home, away = _row(world, fixture.home_id), _row(world, fixture.away_id)
    assert (home.lost, home.match_points, home.points_for) == (1, 0, Decimal("1.5"))
    assert (away.won, away.match_points, away.points_for) == (1, 2, Decimal("2.5"))

    # exactly once per change: the follow-up run again (a retry, a duplicate delivery) changes nothing
    assert services.fixture_games_finished(fixture_id=fixture.pk) is False
    assert LeagueLog.objects.filter(league=world.league, kind="card_corrected").count() == 2
    assert league_log_verify(world.league) == (True, LeagueLog.objects.filter(league=world.league).count(), "")


def test_a_game_ending_again_with_the_same_result_leaves_the_card_and_the_log_alone(
        make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user)
    fixture = _match(world)
    _play(capture, world, fixture, ["home", "away", "draw", "draw"])
    rows = LeagueLog.objects.filter(league=world.league).count()
    game_correct(capture, world.secretary, board_game(fixture, 3), "draw", reason="the same result, said again")
    fixture.refresh_from_db()
    assert fixture.status == "card_entered" and fixture.card[2]["home"] == "0.5"
    assert LeagueLog.objects.filter(league=world.league).count() == rows


def test_a_card_waiting_for_confirmation_follows_and_the_table_counts_it_once_confirmed(
        make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user)
    fixture = _match(world)
    _play(capture, world, fixture, ["home", "home", "away", "away"])
    game_correct(capture, world.secretary, board_game(fixture, 4), "draw", reason="board 4 was drawn")
    fixture.refresh_from_db()
    assert fixture.status == "card_entered" and fixture.card[3]["home"] == "0.5"
    assert fixture.home_points is None  # not counted yet: nothing in the table
    assert all(row.played == 0 for row in selectors.division_table(world.season, world.division))
    row = LeagueLog.objects.get(league=world.league, kind="card_corrected")
    assert "home_points" not in row.data and row.data["status"] == "card_entered"
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    assert _row(world, fixture.home_id).match_points == 2
    assert league_log_verify(world.league)[0] is True


def test_a_card_entered_by_hand_keeps_its_other_lines_and_the_log_says_what_the_correction_overrode(
        make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user)
    fixture = _match(world)
    _play(capture, world, fixture, ["home", "home", "away", "away"])  # the games say 2-2
    # the home captain enters the card from the paper sheet: board 2 a draw, not a win (the games are not touched)
    services.card_enter(acting_user=captain_of(world, fixture.home), fixture=fixture, boards=[[1], [0.5], [0], [0]])
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    fixture.refresh_from_db()
    assert (fixture.home_points, fixture.home_match_points) == (Decimal("1.5"), 0)

    game_correct(capture, world.secretary, board_game(fixture, 3), "home", reason="board 3: the clock was wrong")
    fixture.refresh_from_db()
    assert [line["home"] for line in fixture.card] == ["1", "0.5", "1", "0"]  # board 2 as entered by hand
    assert (fixture.home_points, fixture.home_match_points, fixture.away_match_points) == (Decimal("2.5"), 2, 0)
    first = LeagueLog.objects.filter(league=world.league, kind="card_corrected").get()
    assert first.data["changes"][0]["by_hand"] is False

    # board 2's game is corrected too: the hand-entered ½ gives way, and the row says so
    game_correct(capture, world.secretary, board_game(fixture, 2), "away", reason="board 2: a false move")
    fixture.refresh_from_db()
    assert [line["home"] for line in fixture.card] == ["1", "0", "1", "0"]
    assert (fixture.home_points, fixture.home_match_points, fixture.away_match_points) == (Decimal(2), 1, 1)
    last = LeagueLog.objects.filter(league=world.league, kind="card_corrected").order_by("-seq").first()
    change = last.data["changes"][0]
    assert (change["board"], change["card_before"], change["card"], change["by_hand"]) == (2, "0.5", "0", True)
    assert "entered by hand" in last.reason
    assert _row(world, fixture.home_id).drawn == 1
    assert league_log_verify(world.league)[0] is True


def test_a_three_move_ballot_board_changes_only_the_corrected_game(make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user, slug="ballot", boards=2, opening="three-move-ballot")
    fixture = _match(world)
    for board in (1, 2):
        for number in (1, 2):
            game_adjudicate(capture, world.secretary, board_game(fixture, board, number), "home")
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    game_correct(capture, world.secretary, board_game(fixture, 1, 2), "draw", reason="game 2 was drawn")
    fixture.refresh_from_db()
    assert fixture.card[0] == {"board": 1, "home": "1.5", "away": "0.5", "games": ["1", "0.5"]}
    assert (fixture.home_points, fixture.away_points) == (Decimal("3.5"), Decimal("0.5"))


def test_the_migration_gives_the_cards_entered_before_it_their_games_results(
        make_user, django_capture_on_commit_callbacks):
    import importlib

    from django.apps import apps

    from leagues.models import BoardGame

    capture = django_capture_on_commit_callbacks
    world = build_league(make_user)
    fixture = _match(world)
    _play(capture, world, fixture, ["home", "away", "home", "draw"])
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    BoardGame.objects.filter(fixture=fixture).update(counted_result="")  # as the rows were before the migration
    migration = importlib.import_module("leagues.migrations.0004_card_follows_corrected_games")
    migration.counted_from_games(apps, None)
    assert all(bg.counted_result == bg.game.result for bg in BoardGame.objects.filter(fixture=fixture)
               .select_related("game"))
    assert services.fixture_games_finished(fixture_id=fixture.pk) is False  # nothing to follow: the card stands
    game_correct(capture, world.secretary, board_game(fixture, 4), "home", reason="board 4 was won")
    fixture.refresh_from_db()
    assert (fixture.home_points, fixture.home_match_points) == (Decimal(3), 2)


def test_a_level_cup_tie_goes_through_on_a_corrected_game_and_a_decided_one_stays(
        make_user, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    world = build_league(make_user, slug="cupfix", teams=5)
    cup = services.cup_create(acting_user=world.secretary, league=world.league, season=world.season,
                              name="Shield", teams=[t.pk for t in world.teams], tie_rule="decider")
    tie = Fixture.objects.select_related("home", "away").get(cup=cup, round=1, away__isnull=False)
    for side, team in (("home", tie.home), ("away", tie.away)):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=tie, side=side, players=sheet(world, team))
    services.match_start(acting_user=world.secretary, fixture=tie)
    _play(capture, world, tie, ["home", "away", "draw", "draw"])
    services.card_confirm(acting_user=captain_of(world, tie.away), fixture=tie)
    tie.refresh_from_db()
    assert tie.cup_through == "" and not Fixture.objects.filter(cup=cup, round=2).exists()  # level: a decider

    game_correct(capture, world.secretary, board_game(tie, 3), "home", reason="board 3 was won")
    tie.refresh_from_db()
    assert (tie.home_points, tie.cup_through) == (Decimal("2.5"), "home")
    through = LeagueLog.objects.get(league=world.league, kind="cup_through")
    assert through.actor_id is None and through.data["team"] == tie.home_id
    assert Fixture.objects.filter(cup=cup, round=2).count() == 2

    game_correct(capture, world.secretary, board_game(tie, 4), "away", reason="board 4 was lost")
    tie.refresh_from_db()
    assert (tie.home_points, tie.cup_through) == (Decimal(2), "home")  # level again: the tie stays decided
    last = LeagueLog.objects.filter(league=world.league, kind="card_corrected").order_by("-seq").first()
    assert "(home through) and stands" in last.reason
    assert LeagueLog.objects.filter(league=world.league, kind="cup_through").count() == 1

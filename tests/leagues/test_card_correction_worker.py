"""A board game corrected after the card is confirmed: a real Celery worker makes the card, the match's points and
the table follow, once, whatever the deliveries (the ``game_finished`` signal, ``leagues.board_game_finished``)."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from arbitration.models import LogEntry
from arbitration.rulings import ruling_issue
from leagues import selectors, services
from leagues.log import league_log_verify
from leagues.models import Fixture, LeagueLog
from leagues.tasks import board_game_finished
from tests.leagues.conftest import board_game, build_league, captain_of, result_for, sheet

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _wait(predicate, what):
    limit = time.monotonic() + 60
    while not predicate():
        assert time.monotonic() < limit, f"the worker did not {what}"
        time.sleep(0.3)


def test_a_corrected_board_game_moves_the_confirmed_card_and_the_table_once(celery_worker, make_user):
    world = build_league(make_user, slug="corrworker", teams=2, boards=2)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round")[0]
    for team in (fixture.home, fixture.away):
        services.sheet_submit(acting_user=captain_of(world, team), fixture=fixture, players=sheet(world, team))
    services.match_start(acting_user=world.secretary, fixture=fixture)
    for board in (1, 2):  # each ending commits, then goes to the worker
        game = board_game(fixture, board)
        ruling_issue(acting_user=world.secretary, game_id=game.game_id, kind="adjudicate",
                     payload={"result": result_for(game, "home"), "reason": "scoresheet"})
    _wait(lambda: Fixture.objects.get(pk=fixture.pk).status == "card_entered", "enter the card")
    services.card_confirm(acting_user=captain_of(world, fixture.away), fixture=fixture)
    assert {row.team: row.match_points for row in selectors.division_table(world.season, world.division)} == {
        fixture.home_id: 2, fixture.away_id: 0}

    game = board_game(fixture, 2)
    entry = LogEntry.objects.filter(game_id=game.game_id, kind="adjudicate").order_by("-seq").first()
    ruling_issue(acting_user=world.secretary, game_id=game.game_id, kind="correction",
                 payload={"entry": entry.seq, "reason": "the wrong scoresheet"})
    ruling_issue(acting_user=world.secretary, game_id=game.game_id, kind="adjudicate",
                 payload={"result": result_for(game, "away"), "reason": "the right scoresheet"})
    board_game_finished.delay(fixture.pk)  # a duplicate delivery
    _wait(lambda: LeagueLog.objects.filter(league=world.league, kind="card_corrected").exists(), "follow the game")
    board_game_finished.delay(fixture.pk)  # a late one
    time.sleep(2)  # any late duplicate has run by now
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_points, fixture.away_points) == ("result", Decimal(1), Decimal(1))
    assert (fixture.home_match_points, fixture.away_match_points) == (1, 1)
    rows = {row.team: row for row in selectors.division_table(world.season, world.division)}
    assert (rows[fixture.home_id].drawn, rows[fixture.home_id].match_points) == (1, 1)
    assert (rows[fixture.away_id].drawn, rows[fixture.away_id].match_points) == (1, 1)
    assert LeagueLog.objects.filter(league=world.league, kind="card_corrected").count() == 1
    assert league_log_verify(world.league)[0] is True

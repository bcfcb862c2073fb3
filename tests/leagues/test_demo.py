"""The demo league of ``make run``: half a season played through the services, a cup, the log verifying."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from leagues import selectors
from leagues.demo import DEMO_LEAGUE_SLUG
from leagues.log import league_log_verify
from leagues.models import BoardGame, Cup, Fixture, League, Postponement

pytestmark = pytest.mark.django_db


def test_the_demo_league_holds_half_a_season_a_postponement_a_defaulted_board_and_a_cup(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    call_command("seed_league_demo")
    league = League.objects.get(slug=DEMO_LEAGUE_SLUG)
    season, division = league.seasons.get(), league.divisions.get()
    assert division.teams.count() == 5 and league.board_count == 4
    played = Fixture.objects.filter(season=season, division=division, status="result")
    assert played.count() == 9  # rounds 1-5, two matches each, one postponed
    assert Postponement.objects.filter(status="approved", fixture__status="postponed").count() == 1
    assert any(line.get("default") for f in played for line in f.card)
    assert BoardGame.objects.filter(fixture__round=6, game__status="in_progress").count() == 4
    table = selectors.division_table(season, division)
    assert sum(row.played for row in table) == 18
    cup = Cup.objects.get(league=league)
    assert Fixture.objects.filter(cup=cup, round=2).count() == 1  # the final is drawn from round 1's winners
    assert league_log_verify(league)[0] is True
    assert "captain1" in (tmp_path / "demo-league-logins.txt").read_text()
    call_command("seed_league_demo")  # a second run does nothing
    assert League.objects.filter(slug=DEMO_LEAGUE_SLUG).count() == 1

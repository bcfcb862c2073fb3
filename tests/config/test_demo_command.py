"""The demo's command: it seeds once, a second run adds nothing, and the record it leaves passes verify_log."""

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from arbitration.models import LogEntry
from games.models import Game
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=False), pytest.mark.smoke]


def test_the_demo_passes_verify_log_and_seeding_twice_adds_nothing():
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "Demo tournament loaded" in out.getvalue()
    counts = (Tournament.objects.count(), Game.objects.count(), LogEntry.objects.count(), User.objects.count())
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "already" in out.getvalue()
    assert (Tournament.objects.count(), Game.objects.count(), LogEntry.objects.count(), User.objects.count()) == counts
    report = io.StringIO()
    call_command("verify_log", stdout=report)  # exits 1 (SystemExit) on a broken chain
    text = report.getvalue()
    assert "demo-club-championship: OK" in text and "demo-autumn-swiss: OK" in text
    assert text.count(": OK") == Game.objects.count() + Tournament.objects.count()  # the apps above add to the demo


def test_the_40_move_notice_goes_to_the_first_long_master_game_from_its_board_on():
    """The ballots are drawn by lot: board 2's may open no master game (ballot 141) or a short one; the notice
    then goes to the next board's, and to an earlier board's only if no later one has a long game."""
    from types import SimpleNamespace

    from tournaments.demo import notice_game

    long, short = SimpleNamespace(moves=["11-15"] * 30), SimpleNamespace(moves=["11-15"] * 12)
    games = [(1, 1, long), (1, 2, long), (2, 1, long), (2, 2, long), (3, 1, long)]
    assert notice_game(games, 2) == 2  # board 2, game 1, as before
    games = [(1, 1, long), (1, 2, long), (2, 1, None), (2, 2, short), (3, 1, short), (3, 2, long)]
    assert notice_game(games, 2) == 5
    games = [(1, 1, short), (1, 2, long), (2, 1, None), (2, 2, None), (3, 1, short)]
    assert notice_game(games, 2) == 1
    assert notice_game([(1, 1, None), (2, 1, short)], 2) is None

"""A finished tournament game reaches the tournament through the signal and a real Celery worker."""

from __future__ import annotations

import time

import pytest

from arbitration.services import ruling_issue
from tests.tournaments.test_knockout import games_of, knockout
from tournaments.models import Match, MatchGame, TournamentLog

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_tied_knockout_match_gets_its_block_from_the_worker_not_the_request(director, referee, celery_worker):
    tournament, round_, _players = knockout(director, referee)
    match = Match.objects.get(round=round_)
    first, second = games_of(match)
    ruling_issue(acting_user=referee, game_id=first.pk, kind="resign", side="white")
    ruling_issue(acting_user=referee, game_id=second.pk, kind="resign", side="white")  # 1-1: tied
    deadline = time.monotonic() + 30
    while MatchGame.objects.filter(match=match).count() < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert MatchGame.objects.filter(match=match).count() == 4
    time.sleep(1)  # both games' follow-ups have run by now: the second finds the block there and adds none
    assert MatchGame.objects.filter(match=match).count() == 4
    row = TournamentLog.objects.get(tournament=tournament, kind="match_extended")
    assert row.actor is None and row.data["games"] == [3, 4]
    # Whichever game's task the worker took first found the match tied (both games may be over by then).
    assert any(f"game {game.pk} finished" in row.data["trigger"] for game in (first, second))

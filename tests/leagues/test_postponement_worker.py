"""A postponed match defaults at its deadline, by a real Celery worker, exactly once."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from leagues import services
from leagues.models import Fixture, LeagueLog, Postponement
from leagues.tasks import postponement_deadline, postponements_sweep
from tests.leagues.conftest import build_league, captain_of

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_postponed_match_defaults_at_its_deadline_once_whatever_the_deliveries(celery_worker, make_user):
    world = build_league(make_user, slug="worker", teams=2)
    services.fixtures_make(acting_user=world.secretary, season=world.season, division=world.division)
    fixture = Fixture.objects.filter(season=world.season).select_related("home", "away").order_by("round")[0]
    deadline = timezone.now() + timedelta(seconds=4)
    postponement = services.postponement_request(acting_user=captain_of(world, fixture.home), fixture=fixture,
                                                 deadline=deadline, reason="the hall is closed")
    services.postponement_agree(acting_user=captain_of(world, fixture.away), postponement=postponement)
    services.postponement_approve(acting_user=world.secretary, postponement=postponement)  # sends the eta task
    postponement_deadline.apply_async((postponement.pk,), eta=deadline)  # a duplicate delivery
    postponement_deadline.delay(postponement.pk)  # early: finds the deadline not passed, does nothing
    limit = time.monotonic() + 60
    while Postponement.objects.get(pk=postponement.pk).status != "defaulted":
        assert time.monotonic() < limit, "the worker did not default the match at its deadline"
        time.sleep(0.3)
    assert postponements_sweep.delay().get(timeout=30) == []  # the sweep finds nothing left to do
    time.sleep(2)  # any late duplicate has run by now
    fixture.refresh_from_db()
    assert (fixture.status, fixture.defaulted_by) == ("defaulted", "home")
    assert (fixture.home_match_points, fixture.away_match_points) == (0, 2)
    assert LeagueLog.objects.filter(league=world.league, kind="match_defaulted").count() == 1
    row = LeagueLog.objects.get(league=world.league, kind="match_defaulted")
    assert row.actor_id is None and "not played by its deadline" in row.reason

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

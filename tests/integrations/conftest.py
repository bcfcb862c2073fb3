"""A published round with a referee and two webhook managers, for the integrations tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def world(db):
    """A round robin of 4 with round 1 published (tests/support/integrations_world.py)."""
    from tests.support.integrations_world import published_round

    return published_round()


@pytest.fixture
def loopback_allowed(settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    return settings

"""A published round with a referee and two directors: the world of the integrations' tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.shared_rows import fresh, module_fixture


def published_round() -> dict[str, Any]:
    """A round robin of 4 with round 1 published; its director td, referee ref1, another director td2 (with
    a tournament of his own, "other")."""
    from accounts.services import user_create_with_role
    from games.models import Game
    from players.models import Player
    from tests.support.browser import TEST_PASSWORD
    from tournaments import services

    director = user_create_with_role(username="td", password=TEST_PASSWORD, role="director")
    other = user_create_with_role(username="td2", password=TEST_PASSWORD, role="director")
    referee = user_create_with_role(username="ref1", password=TEST_PASSWORD, role="referee")
    players = [Player.objects.create(name=name) for name in ["Agnes Calder", "Bram Okafor", "Cora Dunn", "Dev Rao"]]
    tournament = services.tournament_create(acting_user=director, name="Spring Open", slug="spring",
                                            format="round_robin", opening="go-as-you-please", referees=["ref1"])
    services.tournament_create(acting_user=other, name="Other Open", slug="other", format="round_robin",
                               opening="go-as-you-please")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    services.round_publish(acting_user=director, tournament=tournament,
                           number=services.round_pair(acting_user=director, tournament=tournament).number)
    games = list(Game.objects.filter(round__tournament=tournament).order_by("id"))
    return {"director": director, "other": other, "referee": referee, "tournament": tournament, "games": games}


def given_up_delivery(hook: Any) -> Any:
    """A delivery of ``hook`` that failed 9 times and was given up (for sending again)."""
    from django.utils import timezone

    from integrations.models import WebhookDelivery, WebhookStream

    stream = WebhookStream.objects.create(webhook=hook, key="g:1", last_seq=1)
    return WebhookDelivery.objects.create(webhook=hook, stream=stream, seq=1, event="move", body="{}",
                                          status="failed", attempts=9, next_attempt_at=timezone.now(),
                                          give_up_at=timezone.now())


world_rows = module_fixture(published_round)  # for a module whose tests are all non-transactional


@pytest.fixture
def shared_world(world_rows: dict[str, Any]) -> dict[str, Any]:
    """The world built once for the module (``world_rows``), as fresh copies for each test: a module that
    imports it as ``world`` (with ``world_rows``) shares one build among its tests."""
    return {key: fresh(value) for key, value in world_rows.items()}

"""Tournament tasks: thin, idempotent, run by the Celery workers."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.services.results import match_game_finished


@shared_task(name="tournaments.game_finished", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def game_finished_follow_up(game_id: int) -> list[int]:
    """Follows up a finished game of a tournament (a tied knockout match gets its next block); idempotent."""
    return match_game_finished(game_id=game_id)


def on_game_finished(sender: Any, *, game_id: int, round_id: int | None, **_: Any) -> None:
    """Hands a finished tournament game to ``game_finished_follow_up`` (games outside a round are not ours)."""
    if round_id is not None:
        game_finished_follow_up.delay(game_id)

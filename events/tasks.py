"""Events tasks: thin, idempotent, run by the Celery workers."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from events.services import title_match_game_finished


@shared_task(name="events.title_match_game_finished", acks_late=True, autoretry_for=(ConnectionError,),
             max_retries=5, retry_backoff=True)
def title_match_follow_up(game_id: int) -> int | None:
    """Follows up a finished game of a title match (its next game, or the match's end); idempotent."""
    return title_match_game_finished(game_id=game_id)


def on_game_finished(sender: Any, *, game_id: int, round_id: int | None, **_: Any) -> None:
    """Hands a finished game outside a round (a title match's, perhaps) to ``title_match_follow_up``."""
    if round_id is None:
        title_match_follow_up.delay(game_id)

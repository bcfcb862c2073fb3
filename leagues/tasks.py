"""League tasks: thin, idempotent, run by the Celery workers."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.utils import timezone

from leagues.models import BoardGame, Postponement
from leagues.services import fixture_games_finished, postponement_expire


@shared_task(name="leagues.postponement_deadline", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def postponement_deadline(postponement_id: int) -> bool:
    """Defaults a postponed match at its deadline if it is still unplayed; exactly once (``postponement_expire``)."""
    return postponement_expire(postponement_id=postponement_id)


@shared_task(name="leagues.postponements_sweep", acks_late=True)
def postponements_sweep() -> list[int]:
    """Defaults every approved postponement past its deadline (a safety net for a lost ``eta`` task)."""
    due = Postponement.objects.filter(status=Postponement.Status.APPROVED, deadline__lte=timezone.now())
    return [pk for pk in due.values_list("pk", flat=True) if postponement_expire(postponement_id=pk)]


@shared_task(name="leagues.board_game_finished", acks_late=True, autoretry_for=(ConnectionError,), max_retries=5,
             retry_backoff=True)
def board_game_finished(fixture_id: int) -> bool:
    """Enters a started match's card once its last game ends (idempotent)."""
    return fixture_games_finished(fixture_id=fixture_id)


def on_game_finished(sender: Any, *, game_id: int, round_id: int | None, **_: Any) -> None:
    """Hands a finished board game of a team match to ``board_game_finished`` (other games are not ours)."""
    if round_id is not None:
        return
    fixture_id = BoardGame.objects.filter(game_id=game_id).values_list("fixture_id", flat=True).first()
    if fixture_id is not None:
        board_game_finished.delay(fixture_id)

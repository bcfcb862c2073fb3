"""What the tournaments app does when a game changes elsewhere (the games and arbitration apps).

The receivers only dispatch: after the commit of the change they call a service, which holds
the rule. A failure there is logged and never undoes what the referee recorded.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction


def game_saved(sender: Any, instance: Any, created: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """Schedules ``match_game_finished`` after the commit when a game of a round is saved finished."""
    if created or instance.round_id is None or instance.status != "finished":
        return
    if update_fields is not None and "status" not in update_fields:
        return
    from tournaments.services.results import match_game_finished

    game_id = instance.pk

    def follow_up() -> None:
        match_game_finished(game_id=game_id)

    transaction.on_commit(follow_up, robust=True)

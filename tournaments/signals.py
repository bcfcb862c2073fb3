"""News that goes up from tournaments, sent after the commit of the transaction that made it.

``tournament_entry_committed`` (sender ``Tournament``; ``tournament_id``, ``seq``, ``kind``): a row
of the tournament's log was committed (a round published, a result recorded or corrected, ...).
Receivers (the integrations app's webhooks) only hand it to a task.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import Tournament

logger = logging.getLogger(__name__)

tournament_entry_committed = Signal()


def _send(**kwargs: object) -> None:
    for receiver, response in tournament_entry_committed.send_robust(sender=Tournament, **kwargs):
        if isinstance(response, Exception):
            logger.error("tournament_entry_committed receiver %s failed for tournament %s: %r", receiver,
                         kwargs.get("tournament_id"), response)


def tournament_entry_committed_on_commit(tournament_id: int, seq: int, kind: str) -> None:
    """Sends ``tournament_entry_committed`` once the transaction commits (nothing when none listens)."""
    if not tournament_entry_committed.receivers:
        return
    transaction.on_commit(partial(_send, tournament_id=tournament_id, seq=seq, kind=kind))

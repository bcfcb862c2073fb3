"""News that goes up from tournaments, sent after the commit of the transaction that made it.

``tournament_logged`` (sender ``TournamentLog``; ``tournament_id``, ``seq``, ``kind``, ``row_id``):
a row was appended to a tournament's log (a round published, an appeal decided, the status
changed, ...). The log is the record of everything that happens to a tournament, so a higher app
(notifications, the integrations' webhooks) hears every change here and picks the kinds it cares about. Receivers hand the
work to an idempotent task; they must not fail the writer (errors are logged, not raised).
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.dispatch import Signal

from tournaments.models import TournamentLog

logger = logging.getLogger(__name__)

tournament_logged = Signal()


def _send(**kwargs: object) -> None:
    for receiver, response in tournament_logged.send_robust(sender=TournamentLog, **kwargs):
        if isinstance(response, Exception):
            logger.error("tournament_logged receiver %s failed for row %s: %r", receiver, kwargs.get("row_id"),
                         response)


def tournament_logged_on_commit(row: TournamentLog) -> None:
    """Sends ``tournament_logged`` for the row once its transaction commits (never if it rolls back)."""
    transaction.on_commit(partial(_send, tournament_id=row.tournament_id, seq=row.seq, kind=row.kind, row_id=row.pk))

"""News that goes up from the leagues, sent after the commit of the transaction that made it.

``league_logged`` (sender ``LeagueLog``; ``league_id``, ``seq``, ``kind``, ``row_id``): a row was
appended to a league's log (a postponement asked, agreed, approved; a match defaulted; ...). A
higher app (notifications) picks the kinds it cares about and hands the work to an idempotent
task; receivers must not fail the writer (errors are logged, not raised).
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.dispatch import Signal

from leagues.models import LeagueLog

logger = logging.getLogger(__name__)

league_logged = Signal()


def _send(**kwargs: object) -> None:
    for receiver, response in league_logged.send_robust(sender=LeagueLog, **kwargs):
        if isinstance(response, Exception):
            logger.error("league_logged receiver %s failed for row %s: %r", receiver, kwargs.get("row_id"), response)


def league_logged_on_commit(row: LeagueLog) -> None:
    """Sends ``league_logged`` for the row once its transaction commits (never if it rolls back)."""
    transaction.on_commit(partial(_send, league_id=row.league_id, seq=row.seq, kind=row.kind, row_id=row.pk))

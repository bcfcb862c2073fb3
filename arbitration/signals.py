"""News that goes up from arbitration, sent after the commit of the transaction that made it.

``game_finished`` (sender ``Game``; ``game_id``, ``round_id``, ``result``, ``termination``):
a game ended, by a move, a ruling or the clock. Receivers (the tournaments app) hand the
follow-up to a task; they must be idempotent, since a game may end more than once (an ending
undone by a correction, then a new one).

``entry_committed`` (sender ``Game``; ``game_id``, ``round_id``, ``seq``, ``kind``): an entry of a
game's log was committed (a move, a ruling, a clock entry, the end). Receivers (the integrations
app's webhooks) only hand it to a task: they run on the move path, after its commit.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import transaction
from django.dispatch import Signal

from games.models import Game

logger = logging.getLogger(__name__)

game_finished = Signal()
entry_committed = Signal()


def _send(signal: Signal, **kwargs: object) -> None:
    for receiver, response in signal.send_robust(sender=Game, **kwargs):
        if isinstance(response, Exception):
            logger.error("%s receiver %s failed for game %s: %r", signal_name(signal), receiver,
                         kwargs.get("game_id"), response)


def game_finished_on_commit(game: Game) -> None:
    """Sends ``game_finished`` for the game once its transaction commits (never if it rolls back)."""
    transaction.on_commit(partial(_send, game_finished, game_id=game.pk, round_id=game.round_id,
                                  result=game.result, termination=game.termination))


def signal_name(signal: Signal) -> str:
    return "game_finished" if signal is game_finished else "entry_committed"


def entry_committed_on_commit(game: Game, seq: int, kind: str) -> None:
    """Sends ``entry_committed`` for a log entry once its transaction commits (nothing when none listens)."""
    if not entry_committed.receivers:
        return
    transaction.on_commit(partial(_send, entry_committed, game_id=game.pk, round_id=game.round_id, seq=seq,
                                  kind=kind))

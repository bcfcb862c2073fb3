"""Clocks (Laws 24-25, the next issue): the hook the move service calls before each move."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def clock_check_before_move(game: Any, now: datetime) -> None:
    """Checks the mover's clock before a move is recorded; does nothing yet.

    Called by ``games.services.game_move_record`` with the game row locked, in the move's
    transaction: when clocks exist, a move arriving after a delay loss was adjudicated is
    refused here (``GameOver``) and time is called here, so a move and an adjudication at
    the same instant get one consistent outcome.
    """
    return None

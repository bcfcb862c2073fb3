"""Reads of the players registry that other apps share."""

from __future__ import annotations

from players.models import Player


def federation_rating(player: Player) -> int | None:
    """Returns the player's rating on his federation's list (as last imported), or None when he has none.

    This is the rating entry bands and the ACF rating report read; ``Player.rating`` is the
    system's own Glicko-2 rating, which moves after each rated tournament.
    """
    return player.federation_rating

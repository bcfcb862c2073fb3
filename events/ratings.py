"""The rating a section's band reads: one function, so that a federation's list can be plugged in."""

from __future__ import annotations

from players.models import Player


def band_rating(player: Player) -> int | None:
    """Returns the rating a section's rating band is checked against (None: unrated).

    Today the rating the system keeps (``Player.rating``, Glicko-2's scale); a federation's
    rating list, once imported, is read here instead.
    """
    return player.rating

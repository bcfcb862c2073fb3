"""The rating a section's band reads: one function, so that a federation's list can be plugged in."""

from __future__ import annotations

from players.models import Player
from players.selectors import federation_rating


def band_rating(player: Player) -> int | None:
    """Returns the rating a section's rating band is checked against (None: unrated).

    The rating on the player's federation list when one was imported (``clubs/rating_lists.py``,
    ``players.selectors.federation_rating``): the federation's bands are drawn on its list. A
    player the list does not hold is checked on the rating the system keeps (``Player.rating``).
    """
    listed = federation_rating(player)
    return listed if listed is not None else player.rating

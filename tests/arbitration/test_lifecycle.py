"""A game's status changes only along GAME_TRANSITIONS."""

from __future__ import annotations

import pytest

from arbitration.lifecycle import GAME_TRANSITIONS, GameTransitionRefused, game_status_set
from games.models import Game

ALL = [Game.Status.SCHEDULED, Game.Status.IN_PROGRESS, Game.Status.FINISHED]


@pytest.mark.parametrize("before", ALL)
@pytest.mark.parametrize("after", ALL)
def test_a_status_changes_only_along_the_table(before, after):
    game = Game(status=before)
    if after in GAME_TRANSITIONS[before]:
        game_status_set(game, after)
        assert game.status == after
    else:
        with pytest.raises(GameTransitionRefused):
            game_status_set(game, after)
        assert game.status == before


def test_a_game_is_never_put_back_to_scheduled():
    assert all(Game.Status.SCHEDULED not in allowed for allowed in GAME_TRANSITIONS.values())

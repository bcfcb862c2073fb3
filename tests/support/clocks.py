"""Moving a game's clock on without waiting: what the clock tests use instead of sleeping."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta


def age(game_id: int, seconds: float) -> None:
    """Moves the running clock's start back by ``seconds``, as if they had passed on the database's clock."""
    from arbitration import timecontrol as tc
    from arbitration.clocks import _save, control_of
    from arbitration.models import GameClock

    clock = GameClock.objects.get(game_id=game_id)
    state = tc.ClockState.from_dict(clock.state)
    assert state.since is not None, "the clock is not running"
    _save(clock, control_of(clock), replace(state, since=state.since - timedelta(seconds=seconds)))

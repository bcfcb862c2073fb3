"""A season's fixtures: a double round robin of teams, home and away, in Berger order, with dates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from tournaments.pairing.roundrobin import round_robin
from tournaments.pairing.types import PairingError


class ScheduleError(ValueError):
    """Raised when a season's fixtures or dates cannot be made."""


@dataclass(frozen=True, slots=True)
class FixturePlan:
    """One fixture of a round: ``home`` meets ``away`` at home; ``away`` is None for a bye."""

    round: int
    home: int
    away: int | None

    @property
    def is_bye(self) -> bool:
        return self.away is None


def double_round_robin(teams: Sequence[int]) -> list[list[FixturePlan]]:
    """Returns the rounds of a double round robin of ``teams`` (in seeding order), home and away.

    The Berger tables give each round (``tournaments.pairing.roundrobin``): the team named first
    is at home. The second half repeats the first with home and away swapped, so each pair meets
    twice, once at each ground. With an odd number of teams the one that meets the dummy number
    has a bye that round (a ``FixturePlan`` with ``away=None``).
    """
    try:
        rounds = round_robin(list(teams), double=True)
    except PairingError as error:
        raise ScheduleError(str(error)) from error
    return [
        [FixturePlan(number, p.black, p.white) for p in pairings]
        for number, pairings in enumerate(rounds, start=1)
    ]


def weekly_dates(start: date, rounds: int, weekday: int) -> list[date]:
    """Returns one date a week for ``rounds`` rounds: the first ``weekday`` (0 Monday .. 6 Sunday) on or
    after ``start``, then every seven days."""
    if not 0 <= weekday <= 6:
        raise ScheduleError(f"a weekday is 0 (Monday) to 6 (Sunday), got {weekday}")
    if rounds < 0:
        raise ScheduleError("a season has no negative number of rounds")
    try:
        first = start + timedelta(days=(weekday - start.weekday()) % 7)
        return [first + timedelta(weeks=k) for k in range(rounds)]
    except OverflowError as error:
        raise ScheduleError(f"{rounds} weekly dates from {start} run past the calendar") from error

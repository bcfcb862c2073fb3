"""Pure standings, tiebreaks and crosstables from match results (no Django, no ORM)."""

from tournaments.scoring.standings import (
    TIEBREAKS,
    CrossEntry,
    MatchResult,
    Scoring,
    StandingRow,
    crosstable,
    match_points,
    standings,
)

__all__ = [
    "TIEBREAKS",
    "CrossEntry",
    "MatchResult",
    "Scoring",
    "StandingRow",
    "crosstable",
    "match_points",
    "standings",
]

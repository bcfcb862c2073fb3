"""Pure standings, tiebreaks and crosstables from match results (no Django, no ORM)."""

from tournaments.scoring.standings import (
    TIEBREAK_LABELS,
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
    "TIEBREAK_LABELS",
    "CrossEntry",
    "MatchResult",
    "Scoring",
    "StandingRow",
    "crosstable",
    "match_points",
    "standings",
]

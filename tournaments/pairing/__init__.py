"""Pure pairing algorithms on plain values: round robin (Berger), Swiss, knockout. No Django."""

from tournaments.pairing.knockout import (
    MatchDecision,
    Seeded,
    TieBreak,
    bracket_order,
    decide_knockout_match,
    knockout_first_round,
    knockout_next_round,
)
from tournaments.pairing.roundrobin import berger_table, round_robin
from tournaments.pairing.swiss import SwissPlayer, pair_swiss
from tournaments.pairing.types import Pairing, PairingError

__all__ = [
    "MatchDecision",
    "Pairing",
    "PairingError",
    "Seeded",
    "SwissPlayer",
    "TieBreak",
    "berger_table",
    "bracket_order",
    "decide_knockout_match",
    "knockout_first_round",
    "knockout_next_round",
    "pair_swiss",
    "round_robin",
]

"""The words the tournament pages say for the codes the API keeps: tiebreaks, rule sets, progress rules, clocks."""

from __future__ import annotations

from typing import Any

from django import template

from games.models import ProgressRule, RuleSet
from tournaments.scoring import TIEBREAK_LABELS

register = template.Library()


@register.filter
def tiebreak_label(name: str) -> str:
    """Returns a tiebreak's name as people write it (``sonneborn_berger``: Sonneborn-Berger)."""
    return TIEBREAK_LABELS.get(name, str(name).replace("_", " ").capitalize())


@register.filter
def tiebreak_labels(names: Any) -> str:
    """Returns the tiebreaks in order, in words, separated by commas (none: the format's default)."""
    return ", ".join(tiebreak_label(n) for n in names or []) or "the format's default"


@register.filter
def rule_set_label(code: str) -> str:
    """Returns a rule set in words (``standard``: Standard Laws (compulsory capture))."""
    return dict(RuleSet.choices).get(code, code)


@register.filter
def progress_rule_label(code: str) -> str:
    """Returns a progress rule in words (``forty-move-notice``: 40-move rule on notice (Law 22))."""
    return dict(ProgressRule.choices).get(code, code)


@register.filter
def move_reached(ply: int, ballot: Any = None) -> str:
    """Returns the number of the last move played (the ballot's moves counted, Black's and White's one move),
    as a scoresheet numbers it; "–" before the first."""
    before = len(str(ballot.get("moves", "")).split()) if isinstance(ballot, dict) else 0
    plies = before + int(ply or 0)
    return str((plies + 1) // 2) if plies else "–"


@register.filter
def result_for(card: Any) -> str:
    """Returns a finished game's result from the side of the card's player: Won, Lost or Drawn."""
    result, colour = card.game.result, (card.colour or "").lower()
    if result == "1/2-1/2":
        return "Drawn"
    if result not in ("1-0", "0-1") or colour not in ("black", "white"):
        return result or ""
    return "Won" if (result == "1-0") == (colour == "black") else "Lost"

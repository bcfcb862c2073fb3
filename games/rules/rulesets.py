"""The rule sets a game can be played under (RULES.md, "Rule sets")."""

from __future__ import annotations

from enum import StrEnum


class RuleSet(StrEnum):
    """Names the rule set a game is played under.

    ``STANDARD``: captures compulsory, free choice between captures, a multi-jump must be
    completed (Law 9). ``STANDARD_HUFF``: the same legal moves, but a non-capture made while a
    capture existed is recordable as a huffable infraction (Laws 16-17). ``CUSTOMARY``: captures
    optional and a multi-jump may stop after any jump (seed 000).
    """

    STANDARD = "standard"
    STANDARD_HUFF = "standard-huff"
    CUSTOMARY = "customary"

    def __str__(self) -> str:
        return self.value

    @property
    def capture_compulsory(self) -> bool:
        """Tells whether a capture must be made when one exists."""
        return self is not RuleSet.CUSTOMARY


def parse_ruleset(value: RuleSet | str) -> RuleSet:
    """Returns the ``RuleSet`` named by ``value`` ("standard", "standard-huff", "customary")."""
    if isinstance(value, RuleSet):
        return value
    try:
        return RuleSet(str(value).strip().lower().replace("_", "-"))
    except ValueError:
        names = ", ".join(r.value for r in RuleSet)
        raise ValueError(f"unknown rule set {value!r}; expected one of {names}") from None

"""Entry rules of a section (pure): rating bands, sections that bar one another, age and title.

Plain values in, the reason for a refusal out (None: the player may enter). No Django, no app.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date


@dataclass(frozen=True, slots=True)
class EntryRules:
    """What a section asks of a player who enters it; every bound is optional."""

    section: str
    rating_min: int | None = None
    rating_max: int | None = None
    unrated_allowed: bool = True
    age_min: int | None = None
    age_max: int | None = None
    titles: tuple[str, ...] = ()  # the titles that may enter; empty: any title or none
    barred_by: dict[int, str] = field(default_factory=dict)  # section id -> name: entered there, not here


@dataclass(frozen=True, slots=True)
class Applicant:
    """What the desk knows of a player when he enters: his rating for the bands, birth date, title, sections."""

    name: str
    rating: int | None
    birth_date: date | None = None
    title: str = ""
    sections: Collection[int] = ()


def age_on(birth_date: date, day: date) -> int:
    """Returns a person's age in whole years on ``day``."""
    return day.year - birth_date.year - ((day.month, day.day) < (birth_date.month, birth_date.day))


def entry_refusal(rules: EntryRules, applicant: Applicant, *, on: date) -> str | None:
    """Returns why the applicant may not enter the section (one sentence), or None if he may.

    The rules are checked in a fixed order: the sections that bar this one ("masters may not
    enter"), the rating band, the age (on ``on``, the event's first day), the title.
    """
    for section_id, name in sorted(rules.barred_by.items()):
        if section_id in applicant.sections:
            return f"{applicant.name} is entered in {name}, whose players may not enter {rules.section}."
    if rules.rating_min is not None or rules.rating_max is not None:
        if applicant.rating is None:
            if not rules.unrated_allowed:
                return f"{rules.section} is for rated players only; {applicant.name} has no rating."
        else:
            if rules.rating_min is not None and applicant.rating < rules.rating_min:
                return (f"{applicant.name}'s rating {applicant.rating} is below {rules.section}'s band "
                        f"({band_text(rules)}).")
            if rules.rating_max is not None and applicant.rating > rules.rating_max:
                return (f"{applicant.name}'s rating {applicant.rating} is above {rules.section}'s band "
                        f"({band_text(rules)}).")
    if rules.age_min is not None or rules.age_max is not None:
        if applicant.birth_date is None:
            return f"{rules.section} has an age limit: {applicant.name}'s date of birth is needed."
        age = age_on(applicant.birth_date, on)
        if rules.age_min is not None and age < rules.age_min:
            return f"{applicant.name} is {age} on {on.isoformat()}; {rules.section} is for {rules.age_min} and over."
        if rules.age_max is not None and age > rules.age_max:
            return f"{applicant.name} is {age} on {on.isoformat()}; {rules.section} is for {rules.age_max} and under."
    if rules.titles and applicant.title not in rules.titles:
        held = f"the title {applicant.title}" if applicant.title else "no title"
        return f"{rules.section} is for players with the title {' or '.join(rules.titles)}; {applicant.name} holds {held}."
    return None


def band_text(rules: EntryRules) -> str:
    """Returns the rating band as people write it: ``1800 to 2100``, ``up to 1800``, ``1800 and over``."""
    if rules.rating_min is not None and rules.rating_max is not None:
        return f"{rules.rating_min} to {rules.rating_max}"
    if rules.rating_max is not None:
        return f"up to {rules.rating_max}"
    if rules.rating_min is not None:
        return f"{rules.rating_min} and over"
    return "open"

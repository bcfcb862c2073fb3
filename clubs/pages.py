"""Sections that higher apps add to a club's page (the leagues app: the club's teams and fixtures).

The clubs app is below them and never imports them; a higher app registers a section in its
``AppConfig.ready()``::

    from clubs.pages import club_page_section_register
    club_page_section_register(ClubPageSection(key="teams", title="Teams and fixtures",
                                               template="leagues/club_section.html", context=club_teams_context))

``context(club, request)`` returns the template's context (it reads what it needs, with its
own pinned queries); the club page renders each section under its heading, in the order
registered, where the ``club_sections`` block of ``templates/clubs/club.html`` stands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from clubs.models import Club


@dataclass(frozen=True)
class ClubPageSection:
    key: str
    title: str
    template: str
    context: Callable[[Club, HttpRequest], dict[str, Any]]


_SECTIONS: dict[str, ClubPageSection] = {}


def club_page_section_register(section: ClubPageSection) -> None:
    """Adds (or replaces, by key) a section of the club page."""
    _SECTIONS[section.key] = section


def club_page_sections(club: Club, request: HttpRequest) -> list[dict[str, Any]]:
    """Returns each registered section with its context, for the club page."""
    return [{"key": s.key, "title": s.title, "template": s.template, "context": s.context(club, request)}
            for s in _SECTIONS.values()]

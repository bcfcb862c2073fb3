"""The clubs of the demo: the demo players' clubs (made from their club names when they were registered)
get short names and contacts, and Edinburgh DC a secretary who keeps its players."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from clubs.services import club_update

DEMO_CLUBS = {
    "Edinburgh DC": ("EDC", "edinburgh-dc@example.org"),
    "Glasgow Draughts": ("GDC", "glasgow-draughts@example.org"),
    "Leeds Checkers": ("LCC", "leeds-checkers@example.org"),
    "Manchester DC": ("MDC", "manchester-dc@example.org"),
}
DEMO_SECRETARY_CLUB = "Edinburgh DC"


def clubs_demo_seed(*, director: Any, secretary: Any) -> list[Club]:
    """Completes the demo's club records (their director registered them with the players) through the services."""
    clubs = []
    for name, (short_name, contact) in DEMO_CLUBS.items():
        club = Club.objects.filter(name=name).first()
        if club is None:
            continue
        changes: dict[str, Any] = {"short_name": short_name, "contact": contact}
        if name == DEMO_SECRETARY_CLUB:
            changes["secretary"] = secretary
        clubs.append(club_update(acting_user=director, club=club, **changes))
    return clubs

"""The errors the events services raise; the API turns them into the project's error shape."""

from __future__ import annotations

from core.api import ConflictError, NotFoundError


class EventNotFound(NotFoundError):
    code = "event_not_found"
    default_message = "There is no such event."


class EntryRefused(ConflictError):
    """A section's entry rules refuse the player: ``details.reason`` says why."""

    code = "entry_refused"
    default_message = "The player may not enter this section."


class TitleMatchConflict(ConflictError):
    code = "title_match_conflict"
    default_message = "The title match cannot do this now."

"""The errors league services raise; the API turns them into the project's error shape."""

from __future__ import annotations

from rest_framework import status

from core.api import AppError, ConflictError, NotFoundError


class LeagueNotFound(NotFoundError):
    code = "league_not_found"
    default_message = "There is no such league."


class NotAllowed(AppError):
    code = "permission_denied"
    status_code = status.HTTP_403_FORBIDDEN
    default_message = "You may not do this in this league."


class InvalidInput(AppError):
    """A field is wrong: 400 ``validation_error`` with ``details.fields`` like DRF's."""

    code = "validation_error"
    default_message = "Some fields are invalid."

    @classmethod
    def field(cls, name: str, message: str) -> InvalidInput:
        return cls(f"Some fields are invalid: {name}.", details={"fields": {name: [message]}})


class RuleBroken(AppError):
    """A league rule refuses the write (eligibility, board order): 422 ``league_rule``, the message names it."""

    code = "league_rule"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "A rule of the league refuses this."


class FixtureConflict(ConflictError):
    code = "fixture_conflict"
    default_message = "The fixture cannot change this way now."

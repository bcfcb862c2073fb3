"""The errors tournament services raise; the API turns them into the project's error shape."""

from __future__ import annotations

from rest_framework import status

from core.api import AppError, ConflictError, NotFoundError


class TournamentNotFound(NotFoundError):
    code = "tournament_not_found"
    default_message = "There is no such tournament."


class RoundNotFound(NotFoundError):
    code = "round_not_found"
    default_message = "There is no such round."


class NotDirector(AppError):
    code = "permission_denied"
    status_code = status.HTTP_403_FORBIDDEN
    default_message = "Only a director of this tournament may do this."


class InvalidInput(AppError):
    """A field is wrong: 400 ``validation_error`` with ``details.fields`` like DRF's."""

    code = "validation_error"
    default_message = "Some fields are invalid."

    @classmethod
    def field(cls, name: str, message: str) -> InvalidInput:
        return cls(f"Some fields are invalid: {name}.", details={"fields": {name: [message]}})


class StatusTransitionRefused(ConflictError):
    code = "status_transition_refused"
    default_message = "The tournament cannot move to that status."


class WrongTournamentStatus(ConflictError):
    code = "wrong_tournament_status"
    default_message = "The tournament's status does not allow this."


class RoundConflict(ConflictError):
    code = "round_conflict"
    default_message = "The round cannot be changed now."


class EntryConflict(ConflictError):
    code = "entry_conflict"
    default_message = "The entry cannot be changed now."


class PairingUnavailable(ConflictError):
    code = "pairing_unavailable"
    default_message = "No pairing could be made."

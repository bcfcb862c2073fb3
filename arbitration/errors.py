"""The errors the game and arbitration services raise; each carries its API code and status."""

from __future__ import annotations

from rest_framework import status

from core.api import AppError


class GameNotFound(AppError):
    code = "not_found"
    status_code = status.HTTP_404_NOT_FOUND
    default_message = "There is no such game."


class NotAllowed(AppError):
    code = "permission_denied"
    status_code = status.HTTP_403_FORBIDDEN
    default_message = "You may not do this on this game."


class InvalidGameSetup(AppError):
    """A game cannot be created as asked; ``details.fields`` names the field."""

    code = "validation_error"
    status_code = status.HTTP_400_BAD_REQUEST
    default_message = "The game cannot be created as asked."


class IllegalMove(AppError):
    code = "illegal_move"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "The move is not legal."


class AmbiguousMove(AppError):
    code = "ambiguous_move"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "The move is ambiguous."


class MoveSyntax(AppError):
    code = "move_syntax"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "The move is not written as PDN writes moves."


class PlyConflict(AppError):
    code = "ply_conflict"
    status_code = status.HTTP_409_CONFLICT
    default_message = "That ply is already taken."


class GameOver(AppError):
    code = "game_over"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The game is over."


class GameNotStarted(AppError):
    code = "game_not_started"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The game has not started."


class RulingRequired(AppError):
    code = "ruling_required"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The referee must rule before play goes on."


class ChoiceRequired(AppError):
    code = "choice_required"
    status_code = status.HTTP_409_CONFLICT
    default_message = "A player's choice is open: it must be made before play goes on."


class InvalidRuling(AppError):
    code = "invalid_ruling"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "That ruling does not apply now."


class RepetitionNotEstablished(AppError):
    code = "repetition_not_established"
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_message = "The position would not occur often enough."


class AppealDecided(AppError):
    code = "appeal_decided"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The appeal has been decided; the decision is final."


class AlreadySuperseded(AppError):
    code = "already_superseded"
    status_code = status.HTTP_409_CONFLICT
    default_message = "That entry has already been superseded."


class TournamentFinished(AppError):
    code = "tournament_finished"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The tournament is finished: its games change no more."


class AppealTooLate(AppError):
    code = "appeal_too_late"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The time to file an appeal on this game has passed."


class GameNotFinished(AppError):
    code = "game_not_finished"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The game is not finished."

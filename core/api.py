"""API plumbing: the one error shape, pagination, and the base of the apps' exceptions.

Every error the API returns has the shape
``{"error": {"code": "<stable_snake_case>", "message": "<human sentence>", "details": {...}}}``.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import set_rollback

logger = logging.getLogger(__name__)


class AppError(Exception):
    """Base of every error the apps raise on purpose; carries the API code and HTTP status."""

    code = "error"
    status_code = status.HTTP_400_BAD_REQUEST
    default_message = "The request could not be carried out."

    def __init__(self, message: str | None = None, *, details: dict[str, Any] | None = None,
                 code: str | None = None, status_code: int | None = None) -> None:
        self.message = message or self.default_message
        self.details = details or {}
        if code is not None:
            self.code = code
        if status_code is not None:
            self.status_code = status_code
        super().__init__(self.message)


class NotFoundError(AppError):
    code = "not_found"
    status_code = status.HTTP_404_NOT_FOUND
    default_message = "Not found."


class ConflictError(AppError):
    code = "conflict"
    status_code = status.HTTP_409_CONFLICT
    default_message = "The request conflicts with the current state."


#: How many characters of one text an error body carries: a value quoted back from the request
#: (a 100,000-character "move", a path) is cut to this, with its length said.
ECHO_LIMIT = 1000


def shortened(text: str, limit: int = ECHO_LIMIT) -> str:
    """Returns the text, or its first ``limit`` characters and how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def _bounded(value: Any) -> Any:
    """Returns an error body's value with every text in it shortened (``ECHO_LIMIT``)."""
    if isinstance(value, str):
        return shortened(value)
    if isinstance(value, dict):
        return {_bounded(key) if isinstance(key, str) else key: _bounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_bounded(item) for item in value]
    return value


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """Builds the project's JSON error body; texts longer than ``ECHO_LIMIT`` are shortened."""
    return {"error": {"code": code, "message": shortened(message), "details": _bounded(details or {})}}


_DRF_CODES: dict[type[exceptions.APIException], tuple[str, str | None]] = {
    exceptions.NotAuthenticated: ("not_authenticated", None),
    exceptions.AuthenticationFailed: ("authentication_failed", None),
    exceptions.PermissionDenied: ("permission_denied", None),
    exceptions.NotFound: ("not_found", None),
    exceptions.MethodNotAllowed: ("method_not_allowed", None),
    exceptions.NotAcceptable: ("not_acceptable", None),
    exceptions.UnsupportedMediaType: ("unsupported_media_type", None),
    exceptions.ParseError: ("malformed_request", None),
    exceptions.Throttled: ("throttled", None),
}


DATABASE_BUSY = "The database is busy with other writes; nothing was written. Try again shortly."


def is_database_busy(exc: BaseException) -> bool:
    """Tells whether an exception is SQLite's "database is locked": its busy timeout ran out."""
    return isinstance(exc, OperationalError) and "database is locked" in str(exc)


def _message_of(detail: Any) -> str:
    if isinstance(detail, (list, tuple)) and detail:
        return _message_of(detail[0])
    if isinstance(detail, dict) and detail:
        return _message_of(next(iter(detail.values())))
    return str(detail)


PAYLOAD_TOO_LARGE = "The request body is larger than the server accepts."


TOO_MANY_FIELDS = "The request body has more fields (or files) than the server accepts."


def payload_too_large_details() -> dict[str, Any]:
    """Returns the details of a 413: the largest body accepted, in bytes."""
    return {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turns any exception raised in an API view into the project's error shape."""
    if isinstance(exc, AppError):
        set_rollback()
        return Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):
        set_rollback()
        return Response(error_body("payload_too_large", PAYLOAD_TOO_LARGE, payload_too_large_details()),
                        status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):  # a form body of more than 1,000 fields
        set_rollback()
        return Response(error_body("malformed_request", TOO_MANY_FIELDS,
                                   {"limit": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}),
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if is_database_busy(exc):  # SQLite (make run): the write lock stayed taken past the busy timeout
        logger.warning("the database stayed locked past its busy timeout: answered 503")
        set_rollback()
        return Response(error_body("database_busy", DATABASE_BUSY), status=503, headers={"Retry-After": "1"})
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: Django's 500 handler answers it in the same shape

    headers: dict[str, str] = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
    if getattr(exc, "wait", None) is not None:  # Throttled: whole seconds, at least 1
        headers["Retry-After"] = str(max(1, math.ceil(exc.wait)))  # type: ignore[attr-defined]

    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        fields = detail if isinstance(detail, dict) else {"non_field_errors": detail}
        field_names = [name for name in fields if name != "non_field_errors"]
        message = (
            "Some fields are invalid: " + ", ".join(field_names) + "."
            if field_names
            else _message_of(detail)
        )
        body = error_body("validation_error", message, {"fields": fields})
    else:
        code, _ = _DRF_CODES.get(type(exc), (None, None))
        if code is None:
            code = next(
                (c for klass, (c, _) in _DRF_CODES.items() if isinstance(exc, klass)),
                str(exc.default_code),
            )
        message = _message_of(exc.detail)
        details: dict[str, Any] = {}
        if isinstance(exc, exceptions.MethodNotAllowed):
            view = context.get("view")
            allowed = getattr(view, "allowed_methods", None)
            if allowed:
                details["allowed_methods"] = list(allowed)
        body = error_body(code, message, details)
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)


@csrf_exempt
def json_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Answers an unknown URL under /api/ with a 404 in the error shape, whatever the method.

    Exempt from the CSRF check: nothing is written, and a write to a URL that matches no
    route must get this 404, not Django's HTML "CSRF verification failed" page.
    """
    path = shortened(request.path)
    return JsonResponse(error_body("not_found", f"There is no API endpoint at {path}.", {"path": path}), status=404)


class Pagination(PageNumberPagination):
    """Page-number pagination: ?page=N&page_size=M (at most 500)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

"""Request bodies the WSGI layer cannot give whole, or too large to read: refused with a clear 4xx,
not judged on nothing or a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from core.api import PAYLOAD_TOO_LARGE, error_body, payload_too_large_details

logger = logging.getLogger(__name__)

LENGTH_REQUIRED = (
    "A request body must come with a Content-Length header: chunked transfer encoding is not accepted."
)
UNREADABLE_BODY = "The request body could not be read in full: the client stopped sending it."


def _refusal(request: HttpRequest, status: int, code: str, message: str,
             details: dict | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code, message, details), status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestBodyGuard:
    """Answers 411 to a chunked body without a Content-Length, 413 to a body over
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``, and 400 to a body that stops short.

    WSGI gives Django a body only by its Content-Length, so a chunked body would be read as
    empty and the request judged on nothing (a JSON body "missing its fields", say); and a
    client that announces a body and stops sending it makes the read fail (the server's socket
    timeout), which is the client's fault, not the server's. Both are answered in the API's
    error shape under /api/, in plain text elsewhere. (Under the Procfile's uWSGI the worker
    reads the whole body before the application runs, and closes the connection of a body that
    stops short itself; the 400 is for servers that hand the body over as it comes.) A body
    larger than the limit is refused by its Content-Length before anything reads it (Django
    would raise ``RequestDataTooBig`` when it is read, which it answers 400).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not request.META.get("CONTENT_LENGTH"):
            return _refusal(request, 411, "length_required", LENGTH_REQUIRED)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and _declared_length(request) > limit:
            return _refusal(request, 413, "payload_too_large", PAYLOAD_TOO_LARGE, payload_too_large_details())
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UnreadablePostError):
            logger.warning("%s %s: the request body stopped short", request.method, request.path)
            return _refusal(request, 400, "malformed_request", UNREADABLE_BODY)
        if isinstance(exception, RequestDataTooBig):
            return _refusal(request, 413, "payload_too_large", PAYLOAD_TOO_LARGE, payload_too_large_details())
        return None

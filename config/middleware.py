"""Request bodies the WSGI layer cannot give whole: refused with a clear 4xx, not judged on nothing or a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from core.api import error_body

logger = logging.getLogger(__name__)

LENGTH_REQUIRED = (
    "A request body must come with a Content-Length header: chunked transfer encoding is not accepted."
)
UNREADABLE_BODY = "The request body could not be read in full: the client stopped sending it."


def _refusal(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code, message), status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class RequestBodyGuard:
    """Answers 411 to a chunked body without a Content-Length, and 400 to a body that stops short.

    WSGI gives Django a body only by its Content-Length, so a chunked body would be read as
    empty and the request judged on nothing (a JSON body "missing its fields", say); and a
    client that announces a body and stops sending it makes the read fail (the server's socket
    timeout), which is the client's fault, not the server's. Both are answered in the API's
    error shape under /api/, in plain text elsewhere. (Under the Procfile's uWSGI the worker
    reads the whole body before the application runs, and closes the connection of a body that
    stops short itself; the 400 is for servers that hand the body over as it comes.)
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chunked = "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not request.META.get("CONTENT_LENGTH"):
            return _refusal(request, 411, "length_required", LENGTH_REQUIRED)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, UnreadablePostError):
            logger.warning("%s %s: the request body stopped short", request.method, request.path)
            return _refusal(request, 400, "malformed_request", UNREADABLE_BODY)
        return None

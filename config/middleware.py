"""Request bodies the WSGI layer cannot give whole, or too large to read: refused with a clear 4xx,
not judged on nothing or a 500."""

from __future__ import annotations

import ctypes
import faulthandler
import logging
import math
import signal
import threading
import time
from collections.abc import Callable
from types import ModuleType

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from core.api import DATABASE_BUSY, PAYLOAD_TOO_LARGE, error_body, is_database_busy, payload_too_large_details

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
    empty and the request judged on nothing (a JSON body "missing its fields", say); it is read
    to its end and discarded before the 411 under uWSGI (``_chunked_body_drained``), so that the
    client gets the answer rather than a broken pipe; and a
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
            drained = _chunked_body_drained(request)
            if drained == "too_large":
                return _refusal(request, 413, "payload_too_large", PAYLOAD_TOO_LARGE, payload_too_large_details())
            if drained == "unreadable":
                return _refusal(request, 400, "malformed_request", UNREADABLE_BODY)
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


#: Seconds uWSGI waits for the next part of a chunked body before giving up on it.
CHUNK_TIMEOUT = 10


def _chunked_body_drained(request: HttpRequest) -> str:
    """Reads a chunked body to its end and discards it, under uWSGI; returns "read", "too_large" or "unreadable".

    Refused unread, the body stayed on the connection: uWSGI closed it with the client still
    sending, which the client saw as a broken pipe (or a reset that lost the answer). With
    ``http-chunked-input`` (``config/uwsgi.ini``) the router hands the chunks over as they come
    and ``uwsgi.chunked_read`` reads them; past ``DATA_UPLOAD_MAX_MEMORY_SIZE`` the reading
    stops (413, the connection closed), as it does when a part does not come in
    ``CHUNK_TIMEOUT`` seconds or is larger than ``chunked-input-limit`` (400). Under ASGI the
    server has read the body already (Django's handler reads it whole before the request).
    """
    uwsgi = _uwsgi_module()
    if uwsgi is None or "uwsgi.version" not in request.META:
        return "read"
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    read = 0
    try:
        while part := uwsgi.chunked_read(CHUNK_TIMEOUT):
            read += len(part)
            if limit is not None and read > limit:
                return "too_large"
    except OSError:
        logger.warning("%s %s: the chunked request body stopped short", request.method, request.path)
        return "unreadable"
    return "read"


class RequestTimedOut(BaseException):
    """Raised in a request that ran past ``REQUEST_TIME_LIMIT``.

    A ``BaseException`` (like ``KeyboardInterrupt``), so that no ``except Exception`` of Django,
    DRF or the apps turns it into a 500 on the way out: every ``transaction.atomic`` it crosses
    rolls back, which releases the database's locks (SQLite's one write lock included).
    """


TIMED_OUT = "The request took too long and was stopped; nothing it would have written was kept. Try again."


# Under uWSGI: the deadline (time.monotonic()) of the request in flight in this worker's main
# thread, 0 between requests. The SIGALRM handler is installed on the worker's first request and
# stays (nothing else in a worker uses SIGALRM; the master's harakiri does not); the timer is
# armed for each request and disarmed after it, so that it never goes off in uWSGI's own code
# between requests (its wait to write a response fails on a poll a signal interrupts).
_deadline = 0.0
_alarm_installed = False


def _install_alarm() -> None:
    """Installs the SIGALRM handler of the soft limit in this process (the main thread's)."""
    global _alarm_installed
    signal.signal(signal.SIGALRM, _on_alarm)
    _alarm_installed = True


def _on_alarm(signum: int, frame: object) -> None:
    """Stops the request in flight at its deadline (SIGALRM; Python runs it in the main thread)."""
    deadline = _deadline
    if not deadline:
        return  # between requests: not the limit's
    left = deadline - time.monotonic()
    if left > 0:  # early, so not the limit's timer (another sender): the limit stays armed
        signal.setitimer(signal.ITIMER_REAL, left)
        return
    raise RequestTimedOut


def _uwsgi_module() -> ModuleType | None:
    try:
        import uwsgi  # type: ignore[import-not-found]  # only inside a uWSGI worker
    except ImportError:
        return None
    return uwsgi


# Requests in flight in this process's threads (under ASGI): their hard deadlines, and the one
# watchdog (faulthandler's, a C thread that needs no GIL) armed for the earliest of them.
_threads_served = False
_in_flight: dict[object, float] = {}
_in_flight_lock = threading.Lock()


def serve_in_threads() -> None:
    """Turns the limits on for requests run in threads: called by the ASGI entry point (uvicorn)."""
    global _threads_served
    _threads_served = True


def _rearm_watchdog() -> None:
    """Arms the process's watchdog for the earliest hard deadline in flight (or disarms it)."""
    if _in_flight:
        faulthandler.dump_traceback_later(max(0.01, min(_in_flight.values()) - time.monotonic()), exit=True)
    else:
        faulthandler.cancel_dump_traceback_later()


def _raise_in_thread(ident: int, exception: type[BaseException] | None) -> None:
    """Schedules an exception in another thread (None: clears one scheduled and not yet raised)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exception) if exception else ctypes.c_void_p(0))


class RequestTimeLimit:
    """Ends a request that runs too long, so that it cannot hold a worker or a lock for good.

    Two limits: ``REQUEST_TIME_LIMIT`` seconds (soft) stops the request with ``RequestTimedOut``:
    its transactions roll back (SQLite's write lock is released) and the client is answered 503
    ``timeout`` with ``Retry-After``. ``REQUEST_HARD_TIME_LIMIT`` seconds (hard) ends the process
    that runs it, however it is stuck; its server starts a new one. Armed only under a server:

    - uWSGI (production's ``web``, ``config/uwsgi.ini``), a request per process in its main
      thread: the soft limit is a SIGALRM timer, whose handler Python runs between bytecodes
      and inside the regular-expression engine (which checks for signals); the handler is
      installed once per worker, the timer armed and disarmed per request (two system calls).
      The hard limit is uWSGI's per-request "user harakiri" (a deadline the worker writes in
      shared memory, no system call), enforced by the master (SIGKILL). uWSGI's plain
      ``harakiri`` is not enough: uWSGI 2.0 pushes its deadline back by the whole limit for
      every chunk of a buffered request body it reads (``inc_harakiri``, ``core/reader.c``),
      so a request with a large body was never killed.
    - ASGI (uvicorn, ``make run``'s ``web``), a thread per request: the soft limit raises the
      exception in the request's thread (``PyThreadState_SetAsyncExc``, delivered between
      bytecodes); the hard one is faulthandler's watchdog thread, armed for the earliest
      deadline in flight, which dumps every thread's traceback to the log and exits the process
      (uvicorn's supervisor starts a new one; it also kills a process that holds the GIL, in a
      C call, past its health check's 5 s).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.soft = float(getattr(settings, "REQUEST_TIME_LIMIT", 0) or 0)
        self.hard = float(getattr(settings, "REQUEST_HARD_TIME_LIMIT", 0) or 0)
        self.hard_seconds = int(math.ceil(self.hard))
        self.uwsgi = _uwsgi_module()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        in_main_thread = threading.current_thread() is threading.main_thread()
        try:
            if self.uwsgi is not None and in_main_thread:
                return self._call_under_uwsgi(request)
            if _threads_served and not in_main_thread:
                return self._call_in_thread(request)
            return self.get_response(request)
        except RequestTimedOut:
            # whatever the request was doing is abandoned: the next one starts on fresh connections
            connections.close_all()
            logger.warning("%s %s: stopped after %.0f s (REQUEST_TIME_LIMIT)", request.method, request.path,
                           self.soft)
            response = _refusal(request, 503, "timeout", TIMED_OUT)
            response["Retry-After"] = "1"
            return response

    def _call_under_uwsgi(self, request: HttpRequest) -> HttpResponse:
        global _deadline
        if self.hard > 0:  # a store in uWSGI's shared memory, which the master reads once a second
            self.uwsgi.set_user_harakiri(self.hard_seconds)
        try:
            if self.soft > 0:
                if not _alarm_installed:
                    _install_alarm()
                _deadline = time.monotonic() + self.soft  # before the timer: it never goes off before it
                signal.setitimer(signal.ITIMER_REAL, self.soft)
            try:
                return self.get_response(request)
            finally:
                if self.soft > 0:
                    _deadline = 0.0
                    signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            if self.hard > 0:
                self.uwsgi.set_user_harakiri(0)

    def _call_in_thread(self, request: HttpRequest) -> HttpResponse:
        key, ident, fired = object(), threading.get_ident(), []

        def interrupt() -> None:
            with _in_flight_lock:
                if key in _in_flight:
                    fired.append(True)
                    _raise_in_thread(ident, RequestTimedOut)

        with _in_flight_lock:
            if self.hard > 0:
                _in_flight[key] = time.monotonic() + self.hard
                _rearm_watchdog()
        timer = threading.Timer(self.soft, interrupt) if self.soft > 0 else None
        if timer is not None:
            timer.daemon = True
            timer.start()
        try:
            return self.get_response(request)
        finally:
            if timer is not None:
                timer.cancel()
            with _in_flight_lock:
                _in_flight.pop(key, None)
                if self.hard > 0:
                    _rearm_watchdog()
                if fired:  # raised already, or still pending: a pending one must not hit the next request
                    _raise_in_thread(ident, None)


class DatabaseBusy:
    """Answers 503 ``database_busy`` with ``Retry-After`` when SQLite's write lock stayed taken.

    On SQLite (``make run``) writers queue for the one write lock (``BEGIN IMMEDIATE``, a busy
    timeout); one that waited the whole timeout gets this answer instead of a 500. The API's
    exception handler answers the same for API views (``core.api``); this covers the pages.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_database_busy(exception):
            return None
        logger.warning("%s %s: the database stayed locked (busy timeout)", request.method, request.path)
        response = _refusal(request, 503, "database_busy", DATABASE_BUSY)
        response["Retry-After"] = "1"
        return response

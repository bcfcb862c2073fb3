"""The soft time limit as a uWSGI worker runs it, request after request, driven in this process.

The real servers are in ``test_request_time_limit.py``; here a stand-in for the ``uwsgi`` module
(which exists only inside a worker) records the user harakiri, and the middleware runs in this
process's main thread as it does in a worker's: its SIGALRM handler is installed once and stays,
its timer is armed for each request and disarmed after it.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from config import middleware

SOFT = 0.3


class FakeUwsgi:
    """Records what the middleware asks of uWSGI's user harakiri."""

    def __init__(self) -> None:
        self.harakiri: list[int] = []

    def set_user_harakiri(self, seconds: int) -> None:
        self.harakiri.append(seconds)


@pytest.fixture
def worker(settings, monkeypatch):
    """Builds the middleware as a uWSGI worker would have it; gives SIGALRM back to pytest-timeout after."""
    settings.REQUEST_TIME_LIMIT, settings.REQUEST_HARD_TIME_LIMIT = SOFT, 4.5
    uwsgi = FakeUwsgi()
    monkeypatch.setattr(middleware, "_uwsgi_module", lambda: uwsgi)
    monkeypatch.setattr(middleware, "_alarm_installed", False)  # this process has not served a request yet
    handler, timer = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)
    try:
        yield uwsgi
    finally:
        signal.signal(signal.SIGALRM, handler)
        signal.setitimer(signal.ITIMER_REAL, *timer)


def serve(view) -> tuple[HttpResponse, float]:
    """Serves one move request through the middleware; returns the response and the seconds it took."""
    limit = middleware.RequestTimeLimit(view)
    started = time.monotonic()
    response = limit(RequestFactory().post("/api/v1/games/1/moves/", {"move": "11-15"},
                                           content_type="application/json"))
    return response, time.monotonic() - started


def quick(request) -> HttpResponse:
    return HttpResponse(status=201)


def slow(request) -> HttpResponse:
    time.sleep(5)
    return HttpResponse(status=201)


def assert_stopped(response: HttpResponse, took: float) -> None:
    assert response.status_code == 503
    assert json.loads(response.content)["error"]["code"] == "timeout"
    assert response["Retry-After"] == "1"
    assert SOFT <= took < SOFT + 0.5


def test_the_limit_stops_every_slow_request_of_a_worker_not_only_its_first(worker):
    assert_stopped(*serve(slow))
    response, _ = serve(quick)
    assert response.status_code == 201
    assert_stopped(*serve(slow))
    assert signal.getsignal(signal.SIGALRM) is middleware._on_alarm  # installed once, kept
    assert worker.harakiri == [5, 0, 5, 0, 5, 0]  # the hard limit set (rounded up) and lifted per request


def test_no_timer_is_left_running_between_requests(worker):
    # uWSGI's own code between requests (its wait to write a response) fails on an interrupted poll
    for view in (quick, slow, quick):
        serve(view)
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert middleware._deadline == 0.0


def test_a_stray_sigalrm_neither_stops_a_request_early_nor_lifts_its_limit(worker):
    def alarmed_then_slow(request) -> HttpResponse:
        os.kill(os.getpid(), signal.SIGALRM)  # not the limit's timer: someone else's
        time.sleep(0.05)
        return slow(request)

    assert_stopped(*serve(alarmed_then_slow))
    os.kill(os.getpid(), signal.SIGALRM)  # between requests: nothing to stop
    time.sleep(0.01)
    response, _ = serve(quick)
    assert response.status_code == 201

"""Sign-in lock-out (django-axes): the backend, the client's address, the lock-out answer."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class AxesBackend(AxesStandaloneBackend):
    """Axes' lock-out check, for sign-ins with a request (the sign-in page, the admin's).

    ``authenticate()`` called without a request (a management command, a shell, a test's
    ``client.login``) is no web sign-in: it is passed on to the next backend unchecked,
    where Axes' own backend would refuse it.
    """

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or behind the TLS proxy (DJANGO_BEHIND_TLS_PROXY) the
    last address of X-Forwarded-For, the one that proxy appended (earlier ones the client may forge)."""
    if getattr(settings, "AXES_TRUST_X_FORWARDED_FOR", False):
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict | None = None) -> HttpResponse:
    """Answers a locked-out sign-in: 429, a page saying for how long, and ``Retry-After``."""
    seconds = int(settings.AXES_COOLOFF_TIME.total_seconds()) if settings.AXES_COOLOFF_TIME else None
    response = render(request, "accounts/locked_out.html",
                      {"minutes": (seconds + 59) // 60 if seconds else None}, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response

"""API throttles: one rate for anonymous callers (by address), one for signed-in users (by user).

DRF's own classes keep every request's time in a list in the cache, read and written whole on
each request: at thousands a minute that is a large value pickled on every move. These count
in fixed windows instead (one ``incr`` of a cache key per request and window; a burst at a
window's edge may reach twice the rate for a moment). They also read the rates from the
settings on every request, so that a test (or ``override_settings``) can change them. A rate
of ``None`` (``off`` in the environment) lets everything through. The counts live in the
default cache (``CACHES``): shared by all processes only with a shared cache (``CACHE_URL``).
"""

from __future__ import annotations

from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class _FixedWindow:
    scope: str
    rate: str | None
    num_requests: int
    duration: int
    cache: Any
    timer: Any

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        ident = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if ident is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        key = f"{ident}:{window}"
        self._wait = (window + 1) * self.duration - now
        try:
            count = self.cache.incr(key)
        except ValueError:  # no count yet in this window
            count = 1 if self.cache.add(key, 1, self.duration + 1) else self.cache.incr(key)
        return count <= self.num_requests

    def wait(self) -> float | None:
        return getattr(self, "_wait", None)


class AnonThrottle(_FixedWindow, AnonRateThrottle):
    """Anonymous callers, counted by client address."""


class UserThrottle(_FixedWindow, UserRateThrottle):
    """Signed-in callers (token or session), counted by user."""

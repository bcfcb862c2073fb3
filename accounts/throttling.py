"""API throttles: one rate for anonymous callers (by address), one for signed-in users (by user).

DRF's own classes read the rates once, when they are imported; these read them from the
settings on every request, so that a test (or ``override_settings``) can change them. A rate
of ``None`` (``off`` in the environment) lets everything through. The counts live in the
default cache (``CACHES``): shared by all processes only with a shared cache (Redis).
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


class _RateFromSettings:
    scope: str

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_RateFromSettings, AnonRateThrottle):
    """Anonymous callers, counted by client address."""


class UserThrottle(_RateFromSettings, UserRateThrottle):
    """Signed-in callers (token or session), counted by user."""

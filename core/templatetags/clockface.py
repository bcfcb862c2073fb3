"""Template filters of the clocks as the pages show them: time left as a clock face, a status in words.

``{{ seconds|clockface }}`` writes 754.2 as ``12:34`` and 3725 as ``1:02:05`` (whole seconds, never
negative), the way ``static/js/clocks.js`` writes them on the pages that count down;
``{{ "not_started"|words }}`` writes ``not started``.
"""

from __future__ import annotations

import math

from django import template

register = template.Library()


@register.filter
def clockface(seconds: object) -> str:
    """Formats seconds left as m:ss, or h:mm:ss from an hour; an empty or bad value as a dash."""
    try:
        left = max(0, math.floor(float(seconds) + 1e-6))  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return "—"
    hours, rest = divmod(left, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def words(code: object) -> str:
    """Writes a code of the API (``not_started``) in words (``not started``)."""
    return str(code or "").replace("_", " ")

"""Conditional GET for the feeds that programs poll (calendars, PDN): an entity tag of the body, and 304 with
no body while the client's copy (``If-None-Match``) is still the current one."""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag


def conditional(request: Any, response: Any) -> Any:
    """Gives a whole 200 answer an ``ETag`` (a hash of its body, so any change of what it says changes it) and
    ``Cache-Control: no-cache`` (a cache asks again each time, with the tag); returns a 304 with the same headers
    and no body when the request's ``If-None-Match`` names the tag (RFC 9110, weak comparison)."""
    if response.status_code != 200 or response.streaming:
        return response
    response["Cache-Control"] = "no-cache"
    # Django's set_response_etag gives an empty body no tag; an empty feed (no game yet) is a state like another
    response["ETag"] = quote_etag(hashlib.md5(response.content, usedforsecurity=False).hexdigest())
    return get_conditional_response(request, etag=response["ETag"], response=response)

"""The API's JSON parser: DRF's, refusing JSON nested deeper than ``MAX_JSON_DEPTH``.

Python's JSON reader recurses once per level of nesting: a body of a thousand ``[`` raised
``RecursionError`` (a 500) and, for any signed-in user, before the permission check. Here the
parser's own recursion error and any value nested past the limit are a 400 ``malformed_request``;
no request of the API nests more than a few levels.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

#: The deepest nesting of arrays and objects a request body may have (the body itself is level 1).
MAX_JSON_DEPTH = 32

TOO_DEEP = f"The JSON body is nested too deep: at most {MAX_JSON_DEPTH} levels of arrays and objects."


def json_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Tells whether arrays and objects nest in ``value`` deeper than ``limit``; walks without recursing."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class BoundedJSONParser(JSONParser):
    """Parses a JSON body as DRF does; a body nested past ``MAX_JSON_DEPTH`` is a ``ParseError`` (400)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        if json_depth_exceeds(data):
            raise ParseError(TOO_DEEP)
        return data

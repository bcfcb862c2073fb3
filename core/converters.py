"""Path converters that match only what the views can use: ``<id:...>``, a row id.

Django's ``<int:...>`` takes any run of digits, so ``/games/99999999999999999999/`` reached the
database with a number no column holds (``OverflowError`` on SQLite). ``<id:...>`` takes at most
18 digits, always below 2**63 (a ``BigAutoField``), so anything else matches no route and is a
404 (in the API's error shape under ``/api/``). The router's detail routes use it too
(``lookup_value_converter = "id"``; a tournament's, ``"slug"``, so that a NUL byte, which
PostgreSQL refuses in a query, matches no route). Importing this module registers the
converter (every ``urls.py`` and API module that uses it imports it). The OpenAPI schema shows
the parameter as an integer from 0 to ``MAX_ID`` (``PATH_CONVERTER_OVERRIDES``).
"""

from __future__ import annotations

from django.urls import register_converter

from core.limits import MAX_ID

#: The regex of an id in a URL.
ID_REGEX = f"[0-9]{{1,{len(str(MAX_ID))}}}"  # 1 to 18 digits


class IdConverter:
    """Matches a row id of at most 18 digits and gives it to the view as an ``int``."""

    regex = ID_REGEX

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


register_converter(IdConverter, "id")

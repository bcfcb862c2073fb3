"""Usernames are not shown to the public: what anonymous callers see in their place.

Signed-in users (any role) see usernames as before. Anonymous callers see, instead of a
person's username, the word ``official`` (every person who writes to a game or a tournament is
a referee or a director), and lists of referees or directors as that many role words; ``null``
stays ``null`` (the system, e.g. the clock). The stored rows and the log's hash chain are not
touched: this is only what an answer shows (``/log/verify`` checks the chain on the server).
"""

from __future__ import annotations

from typing import Any

OFFICIAL = "official"

# Keys of log entries' ``data`` that hold usernames, and what stands for each name.
_DATA_NAMES = {"arbiter": OFFICIAL, "referees": "referee", "directors": "director", "arbiters": "arbiter"}


def names_shown_to(user: Any) -> bool:
    """Tells whether usernames may be shown to this caller: to anyone signed in."""
    return bool(user is not None and user.is_authenticated)


def name_hidden(name: str | None) -> str | None:
    """The stand-in for one person's username (None stays None)."""
    return None if name is None else OFFICIAL


def names_hidden(names: list[str] | tuple[str, ...], word: str) -> list[str]:
    """The stand-in for a list of usernames: the role word, as many times."""
    return [word] * len(names)


def data_hidden(data: Any) -> Any:
    """A log entry's data with the usernames it holds replaced (a copy; other values as they are)."""
    if not isinstance(data, dict) or not any(key in data for key in _DATA_NAMES):
        return data
    hidden = dict(data)
    for key, word in _DATA_NAMES.items():
        value = hidden.get(key)
        if isinstance(value, (list, tuple)):
            hidden[key] = names_hidden(value, word)
        elif isinstance(value, str):
            hidden[key] = word
    return hidden

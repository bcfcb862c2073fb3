"""Usernames are not shown to the public: what anonymous callers see in their place.

Signed-in users (any role) see usernames as before. Anonymous callers see, instead of a
person's username, the word ``official`` (every person who writes to a game or a tournament is
a referee or a director), and lists of referees or directors as that many role words; ``null``
stays ``null`` (the system, e.g. the clock). The same goes for the usernames a log entry's
note names (``note_hidden``: the names its data holds), and for the PDN export, which is
public whoever downloads it. The stored rows and the log's hash chain are not touched: this is
only what an answer shows (``/log/verify`` checks the chain on the server); entries written
now name no one in their notes.
"""

from __future__ import annotations

import re
from typing import Any

OFFICIAL = "official"

# Keys of log entries' ``data`` that hold usernames, and what stands for each name.
_DATA_NAMES = {"arbiter": OFFICIAL, "referee": "referee", "referees": "referee", "directors": "director",
               "arbiters": "arbiter"}

# Kinds of entries whose ``before`` and ``after`` hold usernames (elsewhere they hold values).
_KIND_NAMES = {
    "arbiters_named": {"before": "arbiter", "after": "arbiter"},
    "referees_changed": {"before": "referee", "after": "referee"},
}


def names_shown_to(user: Any) -> bool:
    """Tells whether usernames may be shown to this caller: to anyone signed in."""
    return bool(user is not None and user.is_authenticated)


def name_hidden(name: str | None) -> str | None:
    """The stand-in for one person's username (None stays None)."""
    return None if name is None else OFFICIAL


def fields_hidden(request: Any, data: dict[str, Any], *fields: str) -> dict[str, Any]:
    """Replaces the usernames under ``fields`` of a serialized answer for a caller not signed in, or when
    the answer has no request (no username reaches the public)."""
    if request is None or not names_shown_to(request.user):
        for field in fields:
            if field in data:
                data[field] = name_hidden(data[field])
    return data


def names_hidden(names: list[str] | tuple[str, ...], word: str) -> list[str]:
    """The stand-in for a list of usernames: the role word, as many times."""
    return [word] * len(names)


def _names_of(data: Any, kind: str | None) -> dict[str, str]:
    """Returns the keys of the entry's data that hold usernames, with the word for each."""
    return {**_DATA_NAMES, **_KIND_NAMES.get(kind or "", {})}


def data_hidden(data: Any, kind: str | None = None) -> Any:
    """A log entry's data with the usernames it holds replaced (a copy; other values as they are)."""
    names = _names_of(data, kind)
    if not isinstance(data, dict) or not any(key in data for key in names):
        return data
    hidden = dict(data)
    for key, word in names.items():
        value = hidden.get(key)
        if isinstance(value, (list, tuple)):
            hidden[key] = names_hidden(value, word)
        elif isinstance(value, str):
            hidden[key] = word
    return hidden


def note_hidden(note: str, data: Any, kind: str | None = None) -> str:
    """A log entry's note with each username its data names replaced by the role word (entries written before
    notes stopped naming people: "referee3 is no longer a referee of the tournament.")."""
    if not note or not isinstance(data, dict):
        return note
    found: dict[str, str] = {}
    for key, word in _names_of(data, kind).items():
        value = data.get(key)
        for name in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(name, str) and name:
                found.setdefault(name, word)
    for name in sorted(found, key=len, reverse=True):
        note = re.sub(rf"(?<![\w.@+-]){re.escape(name)}(?![\w@+-]|\.\w)", found[name], note)
    return note


def entry_hidden(entry: dict[str, Any], *, note_key: str = "note") -> dict[str, Any]:
    """A log entry (a dict with ``kind``, ``actor``, ``data`` and a note) as the public sees it."""
    kind, data = entry.get("kind"), entry.get("data")
    hidden = {**entry, "actor": name_hidden(entry.get("actor")), "data": data_hidden(data, kind)}
    if note_key in entry:
        hidden[note_key] = note_hidden(entry[note_key], data, kind)
    return hidden

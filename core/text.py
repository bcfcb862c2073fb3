"""Names and short texts that reach the record and its exports: no control characters.

A player's or a tournament's name is written into PDN tags, CSV exports, printed sheets and
log entries. A control character in it (a newline, a tab, NUL, ESC, a C1 control, Unicode's
line and paragraph separators) is never a legitimate part of a name and is what an injection
needs (a newline followed by ``[Result "1-0"]`` in a PDN tag), so the edges that take a name
(the API's serializers, the pages' forms, the CSV import) refuse it with a message naming the
character. The PDN writer does not rely on it (``games.rules.pdn`` writes none either).
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError

#: Unicode categories no name may hold: Cc (C0 controls, DEL, C1 controls), Zl and Zp (U+2028, U+2029).
REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})


def control_characters(value: str) -> list[str]:
    """Returns the control characters of a text, each once as ``U+000A`` and in order of appearance."""
    found: list[str] = []
    for character in value:
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            code = f"U+{ord(character):04X}"
            if code not in found:
                found.append(code)
    return found


def control_characters_message(value: str) -> str | None:
    """Returns why a name is refused (the control characters it holds), or None if it holds none."""
    found = control_characters(value)
    if not found:
        return None
    return (f"A name holds no control character (a line break, a tab...); this one holds {', '.join(found[:5])}"
            f"{' and more' if len(found) > 5 else ''}.")


def no_control_characters(value: str) -> None:
    """Validator of a name field (Django forms, DRF serializers): refuses control characters."""
    message = control_characters_message(value) if isinstance(value, str) else None
    if message:
        raise ValidationError(message, code="control_character")

"""The messages Django's file-based mail backend wrote to a folder (``var/mail/`` of ``make run``).

The backend names a file by the second and the connection object's ``id()``, and appends each message
to it followed by a line of 79 dashes; two connections made one after the other in the same second
can share an ``id()`` (the first one freed), so one file may hold several messages. Reading one
message a file lost the others (a test failed now and then when two notices went out in the same
second)."""

from __future__ import annotations

from email import message_from_bytes
from email.message import Message
from pathlib import Path

SEPARATOR = b"\n" + b"-" * 79 + b"\n"  # django.core.mail.backends.filebased.EmailBackend.write_message


def messages_in(folder: str | Path) -> list[Message]:
    """Every message in the folder's ``.log`` files, file by file in name order, then as written."""
    messages = []
    for path in sorted(Path(folder).glob("*.log")):
        for part in path.read_bytes().split(SEPARATOR):
            if part.strip():
                messages.append(message_from_bytes(part))
    return messages

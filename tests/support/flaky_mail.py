"""A mail backend that fails the first sends as a mail server that is away would, then writes files.

``FLAKY_MAIL_FAILURES`` (default 2): how many sends fail (``SMTPServerDisconnected``, a transient
error) before the next ones succeed. The count of sends tried is kept in a file next to the
messages (``EMAIL_FILE_PATH``/attempts), so that it holds across a worker's processes and retries.
"""

from __future__ import annotations

import fcntl
import os
import smtplib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail.backends.filebased import EmailBackend


class FlakyFileBackend(EmailBackend):
    """Fails the first ``FLAKY_MAIL_FAILURES`` sends, then writes each message to a file."""

    def send_messages(self, email_messages: Any) -> int:
        folder = Path(settings.EMAIL_FILE_PATH)
        folder.mkdir(parents=True, exist_ok=True)
        failures = int(os.environ.get("FLAKY_MAIL_FAILURES", "2"))
        with open(folder / "attempts", "a+") as counter:
            fcntl.flock(counter, fcntl.LOCK_EX)
            counter.seek(0)
            tried = int(counter.read() or 0) + 1
            counter.seek(0)
            counter.truncate()
            counter.write(str(tried))
        if tried <= failures:
            raise smtplib.SMTPServerDisconnected(f"connection unexpectedly closed (attempt {tried})")
        return super().send_messages(email_messages)

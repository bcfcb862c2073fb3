"""make test-postgres's background part: its lock, and its low CPU priority passed on to the servers it starts.

The background part (the tests marked ``background``) holds the lock ``TEST_BACKGROUND_LOCK`` names while it
runs; a test marked ``exclusive`` (it restarts a service the background part uses too) waits for it
(``background_ended``, from ``tests/conftest.py``).

On Linux with autogroups (``/proc/sys/kernel/sched_autogroup_enabled``), the scheduler first shares the
CPU between sessions, each an autogroup, and only then between the processes of one session by their
nice values: a process niced in one session still gets as much as a whole other session. So ``make
test-postgres`` starts its background part in a session of its own and gives that session's autogroup
nice 10 (``/proc/self/autogroup``), and a server the background part starts with
``start_new_session=True`` (a new session, a new autogroup at nice 0) is given the same here.
"""

from __future__ import annotations

import contextlib
import fcntl
import re
import time
from pathlib import Path


def background_ended(lock_path: str) -> float:
    """Waits until nobody holds the lock at ``lock_path`` (the background part has ended); returns the
    seconds waited."""
    started = time.monotonic()
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fcntl.flock(lock, fcntl.LOCK_UN)
    return time.monotonic() - started


def autogroup_nice(pid: int | str = "self") -> int | None:
    """The nice value of the process's autogroup, or None where the kernel has no autogroups or shows
    none (a sandboxed kernel may give the file and leave it empty)."""
    try:
        text = Path(f"/proc/{pid}/autogroup").read_text()  # "/autogroup-85 nice 0"
    except OSError:
        return None
    found = re.search(r"\bnice\s+(-?\d+)", text)
    return int(found.group(1)) if found else None


def pass_on_priority(pid: int) -> None:
    """Gives the autogroup of ``pid`` (a process just started in a new session) this process's
    autogroup's nice value, when that is not 0; a kernel without autogroups needs nothing."""
    nice = autogroup_nice()
    if nice:
        # a kernel that shows autogroups but will not set them: plain nice is all there is
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))

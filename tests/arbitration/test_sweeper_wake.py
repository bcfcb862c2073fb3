"""How the clock sweeper learns, while it sleeps, that a nearer deadline may have been written.

On PostgreSQL a trigger notifies it (tests/arbitration/test_clock_workers.py, with real workers);
on SQLite, the embedded default, it reads the database's change counter, which another
connection's commit moves on.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from arbitration.sweeper import _ChangeCounter

pytestmark = pytest.mark.smoke


def _connections(tmp_path):
    path = tmp_path / "db.sqlite3"
    sweeper = sqlite3.connect(path, check_same_thread=False)
    writer = sqlite3.connect(path, check_same_thread=False)
    writer.execute("PRAGMA journal_mode=WAL")  # as the embedded default (config.settings)
    writer.execute("CREATE TABLE clock (deadline REAL)")
    writer.commit()
    return sweeper, writer


def test_the_sqlite_sweeper_wakes_when_another_connection_commits(tmp_path):
    sweeper, writer = _connections(tmp_path)
    counter = _ChangeCounter(sweeper, threading.Event(), interval=0.01)

    def write() -> None:
        time.sleep(0.2)
        writer.execute("INSERT INTO clock VALUES (1)")
        writer.commit()

    thread = threading.Thread(target=write)
    started = time.monotonic()
    thread.start()
    counter.wait(started + 10.0, 0.0)
    waited = time.monotonic() - started
    thread.join()
    assert 0.2 <= waited < 5.0


def test_the_sqlite_sweeper_sleeps_its_time_when_nothing_is_written_and_stops_at_once(tmp_path):
    sweeper, _writer = _connections(tmp_path)
    stop = threading.Event()
    counter = _ChangeCounter(sweeper, stop, interval=0.01)
    started = time.monotonic()
    counter.wait(started + 0.3, 0.0)
    assert time.monotonic() - started >= 0.3
    threading.Timer(0.1, stop.set).start()
    started = time.monotonic()
    counter.wait(started + 10.0, 0.0)
    assert time.monotonic() - started < 5.0

"""make test-postgres's background part: a test marked exclusive waits for its lock, and a server it starts in
a session of its own is niced as the part is (tests/support/background.py)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from tests.support.background import autogroup_nice, background_ended, pass_on_priority

ROOT = Path(__file__).resolve().parents[2]


def test_an_exclusive_test_waits_until_the_background_part_lets_its_lock_go(tmp_path):
    lock_path = tmp_path / "background.lock"
    held = open(lock_path, "a")  # noqa: SIM115 - held across the thread below
    fcntl.flock(held, fcntl.LOCK_EX)
    waited: list[float] = []
    waiter = threading.Thread(target=lambda: waited.append(background_ended(str(lock_path))))
    waiter.start()
    time.sleep(0.6)
    assert waiter.is_alive() and waited == [], "it went on while the background part held the lock"
    fcntl.flock(held, fcntl.LOCK_UN)
    held.close()
    waiter.join(timeout=5)
    assert not waiter.is_alive() and waited[0] >= 0.5
    assert background_ended(str(lock_path)) < 0.5  # nobody holds it: no wait


def test_the_exclusive_tests_run_last_in_their_part():
    from tests.conftest import pytest_collection_modifyitems

    class Item:
        def __init__(self, name: str, exclusive: bool) -> None:
            self.name, self.exclusive, self.fixturenames = name, exclusive, ()

        def get_closest_marker(self, name: str):  # noqa: ANN201
            return object() if name == "exclusive" and self.exclusive else None

    items = [Item("a", False), Item("restart", True), Item("b", False), Item("c", False)]
    pytest_collection_modifyitems(None, items)
    assert [item.name for item in items] == ["a", "b", "c", "restart"]


def test_a_server_started_in_its_own_session_is_niced_as_the_background_part_is():
    if autogroup_nice() is None:  # a kernel without autogroups: plain nice applies, and nothing is to pass on
        assert pass_on_priority(os.getpid()) is None
        return
    # a process in a session of its own, its autogroup at nice 10 as make test-postgres sets the background
    # part's, starts a server in another new session and passes its priority on, as test_fuzz_api.py does
    script = textwrap.dedent("""
        import os, subprocess, sys
        from pathlib import Path
        sys.path.insert(0, sys.argv[1])
        from tests.support.background import autogroup_nice, pass_on_priority
        try:
            Path("/proc/self/autogroup").write_text("10")
        except OSError:  # the kernel shows autogroups but will not set them: passing on must not fail
            server = subprocess.Popen(["sleep", "30"], start_new_session=True)
            pass_on_priority(server.pid)
            server.kill()
            print("unsettable")
            raise SystemExit(0)
        server = subprocess.Popen(["sleep", "30"], start_new_session=True)
        before = autogroup_nice(server.pid)
        pass_on_priority(server.pid)
        print(before, autogroup_nice(server.pid), autogroup_nice())
        server.kill()
    """)
    run = subprocess.run([sys.executable, "-c", script, str(ROOT)], capture_output=True, text=True, timeout=30,
                         start_new_session=True)
    assert run.returncode == 0, run.stderr
    if run.stdout.split() == ["unsettable"]:
        return
    assert run.stdout.split() == ["0", "10", "10"]


def test_an_autogroup_file_that_shows_no_nice_value_counts_as_no_autogroups(tmp_path, monkeypatch):
    # a sandboxed kernel (the CI machine's) gives /proc/<pid>/autogroup and leaves it empty
    import tests.support.background as background

    shown: dict[str, str] = {}

    class FakePath:
        def __init__(self, path: str) -> None:
            self.path = path

        def read_text(self) -> str:
            return shown["text"]

        def write_text(self, text: str) -> None:
            raise AssertionError("nothing to pass on")

    monkeypatch.setattr(background, "Path", FakePath)
    for text, nice in (("", None), ("\n", None), ("/autogroup-85 nice 0\n", 0), ("/autogroup-7 nice -5", -5),
                       ("/autogroup-9 nice 10\n", 10)):
        shown["text"] = text
        assert background.autogroup_nice() == nice, text
    shown["text"] = ""
    assert background.pass_on_priority(1) is None

"""The server is the timekeeper: real Celery worker processes, the real Redis and PostgreSQL.

Each worker process runs a clock sweeper (``arbitration.sweeper``); these tests start their
own workers (``clock_workers``), kill them with SIGKILL, restart Redis empty, race a move
against the loss, and run a worker whose clock is 2 s fast. The sweeper sleeps until the next
deadline: the tests marked ``serial`` (timing: run them apart) check that a nearer deadline
written while it sleeps wakes it, that a worker killed while sleeping loses nothing, and that a
jump of a worker's wall clock changes nothing.
"""

from __future__ import annotations

import glob
import random
import subprocess
import threading
import time
import uuid
from datetime import timedelta

import pytest

# serial: the deadlines are checked to the half-second against real processes, and one test restarts
# the machine's Redis, which every other process of the run is using.
pytestmark = [pytest.mark.celery, pytest.mark.serial, pytest.mark.django_db(transaction=True)]

# A sweeper that may sleep long: a deadline met on time under it was met because the sweeper
# woke for it (a notification, or the deadline it slept on), not by a routine wake.
LONG_SLEEP = {"CLOCK_SWEEP_MAX_SLEEP": "30"}
# On time: the target is 100 ms at most (benchmarks/clocks.py); the tests allow for a machine
# loaded by other work. What they catch is seconds late: a sweeper that slept on past a nearer
# deadline, or on the wrong clock, wakes 20 s or an hour later.
ON_TIME_MS = 500

REDIS_START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379", "--save", "",
    "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
]


@pytest.fixture
def staff(db):
    from accounts.services import user_create_with_role
    from players.models import Player

    director = user_create_with_role(username="td", password="a-long-test-password", role="director")
    referee = user_create_with_role(username="rf", password="a-long-test-password", role="referee")
    players = [Player.objects.create(name=f"Player {n}") for n in range(2)]
    return director, referee, players


def new_clocked_game(staff, clock):
    from arbitration.services import game_create

    director, referee, players = staff
    return game_create(acting_user=director, black=players[0], white=players[1], referees=[referee.username],
                       clock=clock)


def start_clock(staff, game_id):
    from arbitration.services import ruling_issue

    ruling_issue(acting_user=staff[1], game_id=game_id, kind="clock_start")


def started_games(staff, count: int, first_seconds: float) -> list[int]:
    """Creates ``count`` per-move games, each 0.25 s longer than the last, and starts their clocks."""
    game_ids = []
    for n in range(count):
        game = new_clocked_game(staff, {"control": "per-move", "move_seconds": first_seconds + n * 0.25,
                                        "grace_seconds": 0.5})
        start_clock(staff, game.pk)
        game_ids.append(game.pk)
    return game_ids


def entries(game_id, kind):
    from arbitration.models import LogEntry

    return list(LogEntry.objects.filter(game_id=game_id, kind=kind).order_by("seq"))


def wait_until(predicate, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def all_finished(game_ids) -> bool:
    from games.models import Game

    return Game.objects.filter(pk__in=game_ids, status="finished").count() == len(game_ids)


def assert_each_adjudicated_once(game_ids):
    from games.models import Game

    for game in Game.objects.filter(pk__in=game_ids):
        assert (game.status, game.termination, game.result) == ("finished", "loss_by_delay", "0-1"), game.pk
        assert len(entries(game.pk, "time_call")) == 1, game.pk
        assert len(entries(game.pk, "game_end")) == 1, game.pk


def test_time_is_called_and_the_loss_adjudicated_on_time_by_a_real_worker(staff, clock_workers):
    clock_workers()
    game = new_clocked_game(staff, {"control": "per-move", "move_seconds": 2, "sole_capture_seconds": 1,
                                    "grace_seconds": 1})
    start_clock(staff, game.pk)
    assert wait_until(lambda: all_finished([game.pk]), timeout=10)
    (call,) = entries(game.pk, "time_call")
    (end,) = entries(game.pk, "game_end")
    (started,) = entries(game.pk, "clock_start")
    # Measured on the database's clock: each at its deadline plus a small margin.
    assert 0 <= call.data["late_ms"] < 500
    assert 0 <= end.data["late_ms"] < 500
    assert timedelta(seconds=2) <= call.created_at - started.created_at < timedelta(seconds=2.5)
    assert timedelta(seconds=3) <= end.created_at - started.created_at < timedelta(seconds=3.5)
    assert end.data["termination"] == "loss_by_delay" and end.law == "25"


def test_a_worker_killed_with_sigkill_loses_nothing_and_another_doubles_nothing(staff, clock_workers):
    first = clock_workers()
    games = started_games(staff, 12, 1)
    time.sleep(1.2)  # some deadlines have passed and been enforced, most are pending
    first.kill()
    second = clock_workers()
    assert wait_until(lambda: all_finished(games), timeout=20)
    assert second.process.poll() is None
    assert_each_adjudicated_once(games)


def redis_restart_empty() -> None:
    """Stops Redis without saving and starts it again empty, as a crash of a server without persistence."""
    import redis

    subprocess.run(["redis-cli", "-p", "6379", "shutdown", "nosave"], capture_output=True, timeout=10)
    client = redis.Redis(host="127.0.0.1", port=6379)

    def down() -> bool:
        try:
            client.ping()
        except redis.exceptions.ConnectionError:
            return True
        return False

    assert wait_until(down, timeout=10)
    subprocess.run(["mkdir", "-p", "/var/lib/redis", "/var/log/redis"], check=True)
    subprocess.run(REDIS_START, check=True, capture_output=True, timeout=10)

    def up() -> bool:
        try:
            return bool(client.ping())
        except redis.exceptions.ConnectionError:
            return False

    assert wait_until(up, timeout=10)
    assert client.dbsize() == 0
    # This process's own connections to the old server are dead: let Celery open new ones.
    from config.celery import app

    backend_client = getattr(app.backend, "client", None)
    if backend_client is not None:
        backend_client.connection_pool.disconnect()


@pytest.mark.exclusive  # it restarts the machine's Redis, which the background part's server uses too
def test_redis_restarted_empty_loses_no_deadline(staff, clock_workers):
    worker = clock_workers()
    games = started_games(staff, 8, 1.5)
    redis_restart_empty()
    assert wait_until(lambda: all_finished(games), timeout=20)
    assert_each_adjudicated_once(games)
    assert worker.process.poll() is None, "the worker died when Redis restarted"


def _sweep_for(barrier: threading.Barrier, seconds: float) -> None:
    from django.db import connection

    from arbitration.delay import clock_sweep

    barrier.wait()
    try:
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            clock_sweep()
            time.sleep(0.002)
    finally:
        connection.close()


def _move_after(barrier: threading.Barrier, delay: float, user, game_id: int, answer: dict) -> None:  # noqa: ANN001
    from django.db import connection

    from arbitration.services import game_move_record
    from core.api import AppError

    barrier.wait()
    time.sleep(delay)
    try:
        game_move_record(acting_user=user, game_id=game_id, move="11-15")
        answer["status"] = 201
    except AppError as error:
        answer["status"] = error.status_code
        answer["code"] = error.code
    finally:
        connection.close()


def test_a_move_racing_the_loss_gets_one_consistent_outcome(staff):
    """Threads on PostgreSQL: a sweeper and a move at the instant the loss falls due."""
    from django.db import connection

    from arbitration.clocks import db_now
    from arbitration.delay import clock_sweep
    from arbitration.models import GameClock
    from arbitration.services import ruling_issue
    from games.models import Game
    from tests.support.clocks import age

    if connection.vendor != "postgresql":
        pytest.fail("the race test needs PostgreSQL (make test sets DATABASE_URL)")
    rng = random.Random(7)
    outcomes = {"moved": 0, "lost": 0}
    for _trial in range(24):
        game = new_clocked_game(staff, {"control": "per-move", "move_seconds": 1, "grace_seconds": 0.5})
        start_clock(staff, game.pk)
        age(game.pk, 1.3)
        clock_sweep()
        assert len(entries(game.pk, "time_call")) == 1  # time called; the loss falls due about 200 ms from now
        due_in = (GameClock.objects.get(game_id=game.pk).deadline - db_now()).total_seconds()
        barrier = threading.Barrier(2)
        answer: dict[str, object] = {}
        threads = [
            threading.Thread(target=_sweep_for, args=(barrier, due_in + 0.3)),
            threading.Thread(target=_move_after, args=(barrier, max(0.0, due_in + rng.uniform(-0.15, 0.1)), staff[1],
                                                       game.pk, answer)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
        game = Game.objects.get(pk=game.pk)
        moves = entries(game.pk, "move")
        ends = entries(game.pk, "game_end")
        if answer["status"] == 201:
            assert (game.status, game.ply, len(moves), len(ends)) == ("in_progress", 1, 1, 0)
            outcomes["moved"] += 1
            # White's clock now runs: stop it, so that it does not fall due during the next trials.
            ruling_issue(acting_user=staff[1], game_id=game.pk, kind="clock_pause")
        else:
            assert answer == {"status": 409, "code": "game_over"}
            assert (game.termination, game.ply, len(moves), len(ends)) == ("loss_by_delay", 0, 0, 1)
            outcomes["lost"] += 1
    # Both outcomes occur: the move sometimes wins the race, the loss sometimes does.
    assert outcomes["moved"] > 0 and outcomes["lost"] > 0, outcomes


def test_a_worker_whose_clock_is_two_seconds_fast_flags_nothing_early(staff, clock_workers):
    from config.celery import ping

    queue = f"fast-{uuid.uuid4().hex[:6]}"
    # The wall clock is fast, as on a host whose clock has drifted; the monotonic clock is not
    # faked (a drifted host's is not either, and libfaketime's faked one hangs timed waits).
    clock_workers(prefix=["faketime", "-f", "+2s"],
                  env={"CELERY_TASK_DEFAULT_QUEUE": queue, "FAKETIME_DONT_FAKE_MONOTONIC": "1"})
    answer = ping.apply_async(queue=queue).get(timeout=20)
    assert answer["time"] - time.time() > 1.5, "the worker's clock is not fast: faketime did not apply"
    game = new_clocked_game(staff, {"control": "per-move", "move_seconds": 3, "grace_seconds": 1})
    start_clock(staff, game.pk)
    time.sleep(2.5)  # the worker believes 4.5 s have passed; on the database's clock 2.5 s have
    assert entries(game.pk, "time_call") == []
    assert wait_until(lambda: bool(entries(game.pk, "time_call")), timeout=5)
    (started,) = entries(game.pk, "clock_start")
    (call,) = entries(game.pk, "time_call")
    assert call.created_at - started.created_at >= timedelta(seconds=3)
    assert call.data["late_ms"] >= 0


def late_ms(game_id) -> list[float]:
    return [entry.data["late_ms"] for kind in ("time_call", "game_end") for entry in entries(game_id, kind)]


def _notifications(listener) -> list[float]:
    return [float(n.payload) for n in listener.notifies(timeout=0.3)]


def test_a_deadline_written_nearer_and_within_a_minute_notifies_the_sweepers(staff):
    from django.db import connection
    from django.db.models import F

    from arbitration.models import GameClock
    from arbitration.sweeper import NOTIFY_CHANNEL

    if connection.vendor != "postgresql":
        pytest.fail("LISTEN/NOTIFY needs PostgreSQL (make test sets DATABASE_URL)")
    listener = connection.Database.connect(**connection.get_connection_params(), autocommit=True)
    try:
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        game = new_clocked_game(staff, {"control": "per-move", "move_seconds": 20, "grace_seconds": 5})
        clock = GameClock.objects.filter(game_id=game.pk)
        assert _notifications(listener) == []  # created: no deadline until the clock starts
        start_clock(staff, game.pk)
        deadline = clock.get().deadline
        assert _notifications(listener) == [pytest.approx(deadline.timestamp(), abs=1e-6)]
        clock.update(deadline=F("deadline") + timedelta(seconds=5))  # later: the sweepers already wake before it
        assert _notifications(listener) == []
        clock.update(deadline=F("deadline") - timedelta(seconds=10))  # nearer
        assert _notifications(listener) == [pytest.approx(deadline.timestamp() - 5, abs=1e-6)]
        clock.update(deadline=None)
        clock.update(deadline=deadline + timedelta(minutes=5))  # beyond the horizon: read at a wake
        assert _notifications(listener) == []
    finally:
        listener.close()


@pytest.mark.serial
def test_a_deadline_written_nearer_than_the_one_the_sweeper_sleeps_on_is_honoured_on_time(staff, clock_workers):
    clock_workers(env=LONG_SLEEP)
    far = new_clocked_game(staff, {"control": "per-move", "move_seconds": 25, "grace_seconds": 5})
    start_clock(staff, far.pk)
    time.sleep(1.0)  # the sweeper sleeps until the far deadline, 24 s from now
    games = started_games(staff, 3, 1.0)  # deadlines 1, 1.25 and 1.5 s ahead, each loss 0.5 s later
    assert wait_until(lambda: all_finished(games), timeout=8)
    assert_each_adjudicated_once(games)
    for game_id in games:
        assert all(0 <= late < ON_TIME_MS for late in late_ms(game_id)), late_ms(game_id)
    assert entries(far.pk, "time_call") == []


@pytest.mark.serial
def test_a_worker_killed_while_sleeping_on_a_deadline_loses_nothing(staff, clock_workers):
    first = clock_workers(env=LONG_SLEEP)
    second = clock_workers(env=LONG_SLEEP)
    games = started_games(staff, 6, 2.0)  # both sweepers sleep until the first deadline, 2 s ahead
    time.sleep(1.0)
    first.kill()
    assert wait_until(lambda: all_finished(games), timeout=10)
    assert second.process.poll() is None
    assert_each_adjudicated_once(games)
    for game_id in games:
        assert all(0 <= late < ON_TIME_MS for late in late_ms(game_id)), late_ms(game_id)


def _faketime_library() -> str:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    if not found:
        pytest.fail("libfaketime is not installed (apt-get install faketime)")
    return found[0]


@pytest.mark.serial
@pytest.mark.parametrize("jump", ["-1h", "+1h"])
def test_the_clock_is_right_after_the_workers_system_clock_jumps(staff, clock_workers, tmp_path, jump):
    from config.celery import ping

    queue = f"jump-{uuid.uuid4().hex[:6]}"
    offset = tmp_path / "faketime"
    offset.write_text("+0\n")
    # The worker's wall clock is read from the file on every call; its monotonic clock is left
    # alone, as a step of the system clock (an NTP correction, an operator's date -s) leaves it.
    clock_workers(env={**LONG_SLEEP, "CELERY_TASK_DEFAULT_QUEUE": queue, "LD_PRELOAD": _faketime_library(),
                       "FAKETIME_TIMESTAMP_FILE": str(offset), "FAKETIME_NO_CACHE": "1",
                       "FAKETIME_DONT_FAKE_MONOTONIC": "1"})
    game = new_clocked_game(staff, {"control": "per-move", "move_seconds": 3, "grace_seconds": 1})
    start_clock(staff, game.pk)
    time.sleep(1.0)  # the sweeper sleeps until the time call, 2 s from now
    offset.write_text(f"{jump}\n")
    skew = ping.apply_async(queue=queue).get(timeout=20)["time"] - time.time()
    assert abs(skew) > 3000, "the worker's clock did not jump: faketime did not apply"
    assert wait_until(lambda: all_finished([game.pk]), timeout=8)
    assert_each_adjudicated_once([game.pk])
    (started,) = entries(game.pk, "clock_start")
    (call,) = entries(game.pk, "time_call")
    (end,) = entries(game.pk, "game_end")
    assert call.created_at - started.created_at >= timedelta(seconds=3)
    assert end.created_at - started.created_at >= timedelta(seconds=4)
    assert all(0 <= late < ON_TIME_MS for late in late_ms(game.pk)), late_ms(game.pk)

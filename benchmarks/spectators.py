"""Measures spectators following play by push: thousands of server-sent event streams, and polling beside them.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379)::

    .venv/bin/python benchmarks/spectators.py [--viewers 500] [--idle 1000] [--seconds 15]
        [--poll-seconds 10] [--games 100] [--clock-games 10] [--rate 20] [--client-processes 4]

    # the targets: --viewers 10000 --idle 10000 --seconds 60 --poll-seconds 20 (issue 23: 10,000 viewers;
    # 2,000 before it); --live-processes 2 serves /live/ with 2 uvicorn processes on one port

The production setting, as in the ``Procfile``: a scratch database ``draughts_bench_live``
(dropped and made anew, migrated), uWSGI serving the pages and the API (``web``), uvicorn serving
``/live/`` (``live``: one process, or ``--live-processes`` on one port as ``LIVE_CONCURRENCY``
does; started with the open-file limit raised to its hard limit), a Celery worker with its clock
sweeper (``worker``), Redis pub/sub between them.

``--games`` games are created through the API: ``--clock-games`` of them get a per-move clock
started so that its time call and its loss by delay fall inside the measured window (the
worker's sweeper adjudicates them), the others are refereed by 4 referee threads posting the
moves of real games from the PDN archive, ``--rate`` moves a second in all, paced (a move's
latency runs from when it was due, as in ``api_moves.py``).

Phase 1, push: ``--viewers`` spectators, spread evenly over the games, each a real SSE client
(``GET /live/games/{id}``, HTTP/1.1 on raw asyncio streams) in ``--client-processes`` separate
processes. Once all hold their stream, the referees and the clocks run for ``--seconds``. Each
viewer checks every entry it gets against the last seq it has (a gap is a lost update, a seq
it has is a duplicate, a lower one out of order) and at the end against the game's seq in the
database (updates lost at the end). Delivery latency: the time the viewer read the event, less
the entry's ``at`` (its ``created_at``, set inside the writing transaction, before the commit).
The CPU of each part is measured over the window, the viewers' client processes included (on
one machine they take their share of its cores).

Phase 2, polling: as many viewers poll ``GET /api/v1/games/{id}/`` (uWSGI) every 500 ms after
the last answer, as the pages did before the live path, while the referees go on: the polls
served per second say how many polling viewers the server sustains (2 polls a second each).

Phase 3, idle: ``--idle`` streams opened and held for ``--hold`` seconds (a keep-alive comment
every 5 s); the live process's memory before and after gives the memory per connection.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import processes  # noqa: E402

BENCH_DB = "draughts_bench_live"
DEFAULT_PDN = ROOT / ".." / "shared" / "data" / "pdn" / "OCA_2.0.pdn"
TARGET_VIEWERS, TARGET_DELIVERY_P99, TARGET_MOVE_P99, TARGET_IDLE = 10000, 0.250, 0.050, 10000


def raise_open_files() -> None:
    """Raises this process's open-file limit to its hard limit (a connection is a file)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --- the client processes -------------------------------------------------------------------------

async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers


class Viewer:
    """One spectator's stream: checks the order of what it gets and times each entry."""

    def __init__(self, game: int) -> None:
        self.game = game
        self.last: int | None = None
        self.seen: set[int] = set()
        self.gaps = self.duplicates = self.out_of_order = self.entries = 0
        self.open = False
        self.ended = False
        self.error = ""

    def on_event(self, event: dict, received: float, latencies: list[float], recording: bool) -> None:
        kind = event.get("type")
        if kind == "hello":
            self.last = event["seq"]
            self.open = True
            return
        if kind != "entry":
            return
        seq = event["seq"]
        self.entries += 1
        if seq in self.seen or (self.last is not None and seq == self.last):
            self.duplicates += 1
            return
        if self.last is not None and seq < self.last:
            self.out_of_order += 1
        elif self.last is not None and seq > self.last + 1:
            self.gaps += seq - self.last - 1
        self.seen.add(seq)
        self.last = max(seq, self.last or 0)
        if recording:
            latencies.append(received - datetime.fromisoformat(event["at"]).timestamp())

    async def run(self, port: int, latencies: list[float], state: dict, connecting: asyncio.Semaphore) -> None:
        try:
            async with connecting:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
                writer.write(f"GET /live/games/{self.game} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())
                status, headers = await read_head(reader)
                if status != 200:
                    self.error = f"status {status}"
                    self.ended = True
                    writer.close()
                    return
            chunked = headers.get(b"transfer-encoding", b"").lower() == b"chunked"
            buffer = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        break
                    data = await reader.readexactly(size + 2)
                    buffer += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                    buffer += data
                received = time.time()
                while b"\n\n" in buffer:
                    frame, buffer = buffer.split(b"\n\n", 1)
                    for line in frame.split(b"\n"):
                        if line.startswith(b"data: "):
                            self.on_event(json.loads(line[6:]), received, latencies, state["recording"])
            self.ended = True
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as error:
            self.error = repr(error)
            self.ended = True


async def http_get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes) -> int:
    writer.write(request)
    status, headers = await read_head(reader)
    if b"content-length" in headers:
        await reader.readexactly(int(headers[b"content-length"]))
    elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        while True:
            size = int((await reader.readline()).strip() or b"0", 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    if headers.get(b"connection", b"").lower() == b"close":
        raise ConnectionResetError("closed by the server")
    return status


async def poller(port: int, game: int, interval: float, state: dict, out: dict) -> None:
    request = f"GET /api/v1/games/{game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n".encode()
    await asyncio.sleep(random.random() * interval)
    reader = writer = None
    while not state["stop"]:
        started = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            status = await http_get(reader, writer, request)
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            out["errors"] += 1
            if writer is not None:
                writer.close()
            reader = writer = None
            await asyncio.sleep(interval)
            continue
        finished = time.perf_counter()
        if state["recording"]:
            out["latencies"].append(finished - started)
            if status != 200:
                out["errors"] += 1
        await asyncio.sleep(max(0.0, interval - (time.perf_counter() - finished)))
    if writer is not None:
        writer.close()


async def child_main(args: argparse.Namespace) -> None:
    """A client process: opens its viewers, says "ready", records on "go", reports on "stop"."""
    raise_open_files()
    games = [int(g) for g in args.game_ids.split(",")]
    loop = asyncio.get_running_loop()
    state = {"recording": False, "stop": False}
    latencies: list[float] = []
    tasks: list[asyncio.Task] = []
    stdin_lines = asyncio.Queue()

    def read_stdin() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(stdin_lines.put_nowait, line.strip())

    threading.Thread(target=read_stdin, daemon=True).start()
    if args.child == "sse":
        connecting = asyncio.Semaphore(64)
        viewers = [Viewer(games[(args.offset + n) % len(games)]) for n in range(args.count)]
        tasks = [asyncio.ensure_future(v.run(args.port, latencies, state, connecting)) for v in viewers]
        while sum(v.open or v.ended for v in viewers) < len(viewers):
            await asyncio.sleep(0.1)
        print(f"ready {sum(v.open and not v.ended for v in viewers)}", flush=True)
    else:
        out = {"latencies": [], "errors": 0}
        tasks = [asyncio.ensure_future(poller(args.port, games[(args.offset + n) % len(games)], args.interval,
                                              state, out)) for n in range(args.count)]
        print("ready", flush=True)
    while True:
        line = await stdin_lines.get()
        if line == "go":
            state["recording"] = True
            continue
        if line == "stop":
            break
    state["recording"] = False
    if args.child == "sse":
        report = {
            "latencies": latencies,
            "viewers": [[v.game, v.last, v.gaps, v.duplicates, v.out_of_order, v.entries, v.open and not v.ended,
                         v.error] for v in viewers],
        }
    else:
        state["stop"] = True
        report = {"latencies": out["latencies"], "errors": out["errors"]}
    print(json.dumps(report), flush=True)
    for task in tasks:
        task.cancel()


class Clients:
    """The client processes of one phase."""

    def __init__(self, kind: str, port: int, games: list[int], count: int, processes: int, interval: float = 0.5):
        self.procs = []
        per = [count // processes + (1 if n < count % processes else 0) for n in range(processes)]
        offset = 0
        for n in range(processes):
            if not per[n]:
                continue
            self.procs.append(subprocess.Popen(
                [sys.executable, __file__, "--child", kind, "--port", str(port), "--game-ids",
                 ",".join(map(str, games)), "--count", str(per[n]), "--offset", str(offset),
                 "--interval", str(interval)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True,
                preexec_fn=raise_open_files))
            offset += per[n]

    def wait_ready(self) -> int:
        held = 0
        for proc in self.procs:
            line = proc.stdout.readline().split()
            if not line or line[0] != "ready":
                raise RuntimeError(f"a client process did not start: {line}")
            held += int(line[1]) if len(line) > 1 else 0
        return held

    def tell(self, word: str) -> None:
        for proc in self.procs:
            proc.stdin.write(word + "\n")
            proc.stdin.flush()

    def collect(self) -> list[dict]:
        self.tell("stop")
        reports = [json.loads(proc.stdout.readline()) for proc in self.procs]
        for proc in self.procs:
            proc.stdin.close()
            proc.wait(timeout=30)
        return reports

    def kill(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


# --- measuring the server -------------------------------------------------------------------------

def cpu_seconds(groups: dict[int, str]) -> dict[int, tuple[str, float]]:
    """Returns the CPU seconds so far of each process of the given process groups, and PostgreSQL's sessions."""
    found = {}
    for pid, comm, group, used, title in processes():
        if group in groups:
            found[pid] = (groups[group], used)
        elif comm.startswith("postgres") and BENCH_DB in title:
            found[pid] = ("PostgreSQL", used)
    return found


class CpuMeter(threading.Thread):
    """The CPU each part used over a window (every process read once a second, so one that ends still counts)."""

    def __init__(self, groups: dict[int, str]) -> None:
        super().__init__(daemon=True)
        self.groups = groups
        self.start_values = {pid: used for pid, (_part, used) in cpu_seconds(groups).items()}
        self.last: dict[int, tuple[str, float]] = {}
        self.done = threading.Event()
        self.started_at = time.perf_counter()
        self.load = os.getloadavg()
        from api_moves import machine_seconds

        self.machine_seconds = machine_seconds
        self.machine_before = machine_seconds()

    def run(self) -> None:
        while not self.done.wait(1.0):
            self.last.update(cpu_seconds(self.groups))

    def finish(self) -> dict[str, float]:
        self.done.set()
        self.join()
        self.last.update(cpu_seconds(self.groups))
        elapsed = time.perf_counter() - self.started_at
        totals: dict[str, float] = {}
        for pid, (part, used) in self.last.items():
            totals[part] = totals.get(part, 0.0) + used - self.start_values.get(pid, 0.0)
        machine = self.machine_seconds()
        totals["machine busy (all processes)"] = machine["busy"] - self.machine_before["busy"]
        totals["stolen"] = machine["stolen"] - self.machine_before["stolen"]
        return {part: used / elapsed for part, used in totals.items()}  # cores busy, on average


def rss_kib(group: int) -> int:
    """The resident memory of the processes of a process group (a server and its worker processes), in KiB."""
    total = 0
    for pid, _comm, pgid, _used, _title in processes():
        if pgid == group:
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
    return total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else float("nan")


def ms(values: list[float]) -> str:
    return (f"p50 {1000 * percentile(values, 0.5):.1f} ms, p99 {1000 * percentile(values, 0.99):.1f} ms, "
            f"max {1000 * max(values, default=float('nan')):.1f} ms")


# --- the referees ---------------------------------------------------------------------------------

class Referees:
    """Referee threads posting real games' moves through the API, ``rate`` moves a second in all, paced."""

    def __init__(self, port: int, token: str, games: list[tuple[int, list[str]]], rate: float, threads: int = 4):
        from api_moves import Client

        self.Client = Client
        self.port, self.token, self.rate = port, token, rate
        self.plies = {game: 0 for game, _moves in games}
        self.moves = dict(games)
        self.assigned = [games[n::threads] for n in range(threads)]
        self.samples: list[tuple[float, float]] = []  # (answered, latency)
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self.referee, args=(n,), daemon=True) for n in range(threads)]

    def again(self) -> Referees:
        """Returns referees that go on with the same games from where these stopped."""
        other = Referees(self.port, self.token, list(self.moves.items()), self.rate, len(self.threads))
        other.plies = dict(self.plies)
        return other

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def referee(self, number: int) -> None:
        client = self.Client(self.port, self.token)
        interval = len(self.threads) / self.rate
        due = time.perf_counter() + interval * number / len(self.threads)
        turn = 0
        mine = [game for game, _moves in self.assigned[number]]
        try:
            while not self.stop.is_set() and mine:
                game = mine[turn % len(mine)]
                turn += 1
                ply = self.plies[game]
                if ply >= len(self.moves[game]):
                    mine.remove(game)
                    continue
                delay = due - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                status, body = client.post(f"/api/v1/games/{game}/moves/",
                                           {"move": self.moves[game][ply], "ply": ply + 1}, decode=False)
                finished = time.perf_counter()
                if status != 201:
                    self.errors.append(f"game {game} ply {ply + 1}: {status} {body}")
                    mine.remove(game)
                else:
                    self.plies[game] = ply + 1
                    self.samples.append((finished, finished - due))
                due += interval
        finally:
            client.close()

    def latencies(self, start: float, end: float) -> list[float]:
        return [latency for answered, latency in self.samples if start <= answered < end]


# --- the run --------------------------------------------------------------------------------------

def wait_port(port: int, process: subprocess.Popen, log: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"a server did not start; its log: {log}") from None
            time.sleep(0.2)


def start_server(command: list[str], env: dict, name: str) -> tuple[subprocess.Popen, str]:
    handle, log = tempfile.mkstemp(prefix=f"spectators-{name}-", suffix=".log")
    with os.fdopen(handle, "wb") as log_file:
        process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True, stdout=log_file,
                                   stderr=subprocess.STDOUT, preexec_fn=raise_open_files)
    return process, log


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=int(os.environ.get("BENCH_VIEWERS", 500)))
    parser.add_argument("--idle", type=int, default=int(os.environ.get("BENCH_IDLE", 1000)),
                        help="idle streams held in phase 3 (0: none)")
    parser.add_argument("--hold", type=float, default=8.0, help="seconds the idle streams are held")
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", 15)))
    parser.add_argument("--poll-seconds", type=float, default=10.0, help="the polling phase (0: none)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clock-games", type=int, default=10)
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second through the API, in all")
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--live-processes", type=int, default=1,
                        help="uvicorn processes serving /live/ on one port (uvicorn --workers, as LIVE_CONCURRENCY)")
    parser.add_argument("--web-workers", type=int, default=6)
    parser.add_argument("--pdn", type=Path, default=DEFAULT_PDN)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    # the client processes' own arguments
    parser.add_argument("--child", choices=["sse", "poll"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--game-ids", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--interval", type=float, default=0.5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(child_main(args))
        return 0
    raise_open_files()

    from _scratch import scratch_django

    env = scratch_django(BENCH_DB, admin_url=args.admin_url, broker=args.broker, CLOCK_SWEEPER_ENABLED="true",
                         LIVE_KEEPALIVE="5", LIVE_MAX_CONNECTIONS="100000", LIVE_MAX_PER_ADDRESS="100000")
    from api_moves import Client, real_games

    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role
    from games.models import Game
    from players.models import Player
    from tests.support.celery_worker import WorkerProcess

    director = user_create_with_role(username="bench-director", password="x-bench-password-1", role=Role.DIRECTOR)
    referee = user_create_with_role(username="bench-referee", password="x-bench-password-2", role=Role.REFEREE)
    director_token, referee_token = token_issue(user=director), token_issue(user=referee)
    players = [Player.objects.create(name=f"Spectated player {i}") for i in range(2 * args.games)]
    played = args.games - args.clock_games
    needed = int(args.rate * (args.seconds + args.poll_seconds + 20) / max(1, played)) + 2
    sources = real_games(args.pdn, played, max(40, needed))
    if len(sources) < played:
        print(f"{args.pdn}: only {len(sources)} games of {needed} plies or more", file=sys.stderr)
        return 2

    web_port, live_port = free_port(), free_port()
    servers: list[tuple[subprocess.Popen, str]] = []
    clients: list[Clients] = []
    worker = None
    ok = False
    try:
        servers.append(start_server(
            [str(Path(sys.executable).with_name("uwsgi")), "--ini", str(ROOT / "config" / "uwsgi.ini"),
             "--http", f"127.0.0.1:{web_port}", "--processes", str(args.web_workers), "--listen", "1024",
             "--disable-logging"], env, "web"))
        servers.append(start_server(
            [str(Path(sys.executable).with_name("uvicorn")), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(live_port), "--workers", str(args.live_processes), "--timeout-worker-healthcheck", "30",
             "--no-access-log", "--timeout-graceful-shutdown", "5", "--backlog", "4096"], env, "live"))
        handle, worker_log = tempfile.mkstemp(prefix="spectators-worker-", suffix=".log")
        os.close(handle)
        worker = WorkerProcess(env=env, log_path=Path(worker_log)).start()
        wait_port(web_port, *servers[0])
        wait_port(live_port, *servers[1])
        web, live = servers[0][0], servers[1][0]
        groups = {web.pid: "web (uWSGI)", live.pid: "live (uvicorn)", worker.process.pid: "worker (Celery)"}

        setup = Client(web_port, director_token)
        game_ids = []
        for index in range(args.games):
            body = {"black": players[2 * index].id, "white": players[2 * index + 1].id, "rule_set": "standard",
                    "referees": ["bench-referee"], "progress_rule": "forty-move-notice"}
            if index >= played:
                limit = 4 + (index - played) * max(1.0, args.seconds - 8) / max(1, args.clock_games)
                body["clock"] = {"control": "per-move", "move_seconds": limit, "sole_capture_seconds": limit,
                                 "grace_seconds": 2}
            status, answer = setup.post("/api/v1/games/", body)
            if status != 201:
                print(f"creating a game failed: {status} {answer}", file=sys.stderr)
                return 1
            game_ids.append(answer["id"])
        rss_before = rss_kib(live.pid)
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
              f"PostgreSQL, Redis; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{args.games} games ({played} refereed at {args.rate:g} moves/s in all, {args.clock_games} lost on "
              f"time by the worker's sweeper); uWSGI {args.web_workers} workers, {args.live_processes} uvicorn live "
              f"process(es) on one port, "
              f"1 Celery worker; {args.client_processes} client processes")

        # Phase 1: push
        referees = Referees(web_port, referee_token, list(zip(game_ids[:played], sources, strict=True)), args.rate)
        phase = Clients("sse", live_port, game_ids, args.viewers, args.client_processes)
        clients.append(phase)
        t0 = time.perf_counter()
        held = phase.wait_ready()
        connect_time = time.perf_counter() - t0
        time.sleep(1.0)
        rss_held = rss_kib(live.pid)
        referees.start()
        setup.close()  # idle while the viewers connected (minutes on a busy machine): uWSGI closes it after 60 s
        setup = Client(web_port, director_token)
        for game in game_ids[played:]:
            status, answer = setup.post(f"/api/v1/games/{game}/rulings/", {"kind": "clock_start"})
            if status != 201:
                print(f"clock_start failed: {status} {answer}", file=sys.stderr)
        time.sleep(2.0)
        phase.tell("go")
        meter = CpuMeter({**groups, **{proc.pid: "viewers (client processes)" for proc in phase.procs}})
        meter.start()
        start = time.perf_counter()
        time.sleep(args.seconds)
        end = time.perf_counter()
        cpu = meter.finish()
        referees.stop.set()
        time.sleep(0.2)
        referees.finish()
        time.sleep(2.0)  # the last entries reach the viewers
        reports = phase.collect()
        clients.remove(phase)
        final = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "log_seq"))
        finished = Game.objects.filter(pk__in=game_ids[played:], termination="loss_by_delay").count()
        latencies = [x for report in reports for x in report["latencies"]]
        rows = [row for report in reports for row in report["viewers"]]
        gaps = sum(r[2] for r in rows)
        lost_at_end = sum(max(0, final[r[0]] - (r[1] or 0)) for r in rows)
        duplicates, disorder = sum(r[3] for r in rows), sum(r[4] for r in rows)
        still_open = sum(1 for r in rows if r[6])
        moves = referees.latencies(start, end)
        print(f"[push] viewers held: {held} of {args.viewers} (connected in {connect_time:.1f} s), still open at the "
              f"end: {still_open}; spread over {args.games} games")
        print(f"  moves recorded in the window: {len(moves)} ({len(moves) / (end - start):.1f}/s), "
              f"API errors: {len(referees.errors)}{' first: ' + referees.errors[0] if referees.errors else ''}; "
              f"losses by delay adjudicated: {finished} of {args.clock_games}")
        print(f"  deliveries: {len(latencies)}; latency from the entry's time to the viewer: {ms(latencies)}")
        print(f"  lost: {gaps} in gaps + {lost_at_end} missing at the end; duplicated: {duplicates}; "
              f"out of order: {disorder}")
        print(f"  move path (POST moves/) during the run: {ms(moves)}")
        print("  CPU (cores busy on average): " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(cpu.items()))
              + f"; load average at the start {meter.load[0]:.2f}")
        print(f"  live process memory: {rss_before / 1024:.1f} MiB before, {rss_held / 1024:.1f} MiB with {held} "
              f"streams: {(rss_held - rss_before) / max(1, held):.1f} KiB a stream")
        verdict = {
            "viewers": held == args.viewers >= TARGET_VIEWERS and still_open >= TARGET_VIEWERS,
            "delivery p99": percentile(latencies, 0.99) <= TARGET_DELIVERY_P99,
            "move p99": percentile(moves, 0.99) <= TARGET_MOVE_P99,
            "nothing lost": gaps + lost_at_end + duplicates + disorder == 0,
        }

        # Phase 2: polling at the same viewer count
        if args.poll_seconds:
            referees2 = referees.again()
            phase = Clients("poll", web_port, game_ids, args.viewers, args.client_processes)
            clients.append(phase)
            phase.wait_ready()
            referees2.start()
            time.sleep(min(3.0, args.poll_seconds / 3))
            phase.tell("go")
            meter = CpuMeter(groups)
            meter.start()
            start = time.perf_counter()
            time.sleep(args.poll_seconds)
            end = time.perf_counter()
            cpu = meter.finish()
            reports = phase.collect()
            clients.remove(phase)
            referees2.finish()
            polls = [x for report in reports for x in report["latencies"]]
            errors = sum(report["errors"] for report in reports)
            moves2 = referees2.latencies(start, end)
            rate = len(polls) / (end - start)
            print(f"[polling] {args.viewers} viewers polling GET /api/v1/games/{{id}}/ every 0.5 s after the answer "
                  f"(uWSGI, {args.web_workers} workers)")
            print(f"  polls answered: {len(polls)} ({rate:.0f}/s, wanted {2 * args.viewers}/s), errors {errors}; "
                  f"poll latency: {ms(polls)}")
            print(f"  viewers sustained at 2 polls/s: {rate / 2:.0f} of {args.viewers}")
            print(f"  move path during polling: {ms(moves2)} ({len(moves2) / (end - start):.1f} moves/s, "
                  f"API errors {len(referees2.errors)})")
            print("  CPU (cores busy on average): " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(cpu.items())))

        # Phase 3: idle streams
        if args.idle:
            rss_idle_before = rss_kib(live.pid)
            phase = Clients("sse", live_port, game_ids, args.idle, args.client_processes)
            clients.append(phase)
            t0 = time.perf_counter()
            held_idle = phase.wait_ready()
            connect_time = time.perf_counter() - t0
            time.sleep(1.0)
            rss_idle = rss_kib(live.pid)
            time.sleep(args.hold)
            reports = phase.collect()
            clients.remove(phase)
            rows = [row for report in reports for row in report["viewers"]]
            still_open = sum(1 for r in rows if r[6])
            print(f"[idle] streams held: {held_idle} of {args.idle} (connected in {connect_time:.1f} s), still open "
                  f"after {args.hold:g} s: {still_open}")
            print(f"  live process memory: {rss_idle_before / 1024:.1f} MiB before, {rss_idle / 1024:.1f} MiB with "
                  f"{held_idle} streams: {(rss_idle - rss_idle_before) / max(1, held_idle):.1f} KiB a stream")
            verdict["idle streams"] = still_open >= TARGET_IDLE
        print("targets: " + ", ".join(f"{k} {'met' if v else 'NOT met'}" for k, v in verdict.items())
              + " (10,000 viewers, delivery p99 <= 250 ms, move p99 <= 50 ms, 0 lost, 10,000 idle)")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ok = True
    finally:
        for phase in clients:
            phase.kill()
        if worker is not None:
            worker.stop(timeout=10)
        for process, log in servers:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
            if ok:
                Path(log).unlink(missing_ok=True)
            else:
                print(f"a server's log: {log}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

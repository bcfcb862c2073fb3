"""Compares the web server's CPU per move of two versions of the code, in one sitting, block by block.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432)::

    .venv/bin/python benchmarks/api_moves_ab.py --a ../other-worktree [--b .] [--a-env K=V,K=V] [--b-env ...]
        [--blocks 24] [--moves-per-block 400] [--clients 4]

Two web servers run at once, each the Procfile's (uWSGI's HTTP router in front of preforked
workers, ``config/uwsgi.ini``) started from its own tree (``--a``, ``--b``: a checkout each,
e.g. a ``git worktree``, with its ``.venv``), with the production settings on one scratch
database (``draughts_bench_ab``, migrated by this tree: the two trees must share the schema),
plus each one's ``--a-env``/``--b-env``. Referees post the moves of real games (as
``api_moves.py`` does, with their ply, on kept-alive connections) to one server at a time, in
blocks of ``--moves-per-block`` moves, A B B A A B B A ...; a block's CPU of that server's
processes (router, master, workers: their run time, from /proc/<pid>/schedstat) over its moves is
one sample.
The machine's drift (other work, the CPU's clock) falls on both alike, where runs one after the
other measure mostly the drift (``api_moves.py`` spreads by a few tenths of a millisecond a move
between runs of the same code). Prints each side's median and mean CPU per move and the
difference of each pair of neighbouring blocks (B - A), with its mean's 95% interval. With
``--time-middleware DOTTED.CLASS`` each worker also times that middleware's own code in every
request it serves (``benchmarks/_time_middleware.py``: the wall time of its call less the rest of
the chain's), and the median, 10th and 90th percentiles are printed for each side.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import processes, scratch_django  # noqa: E402
from api_moves import DEFAULT_PDN, Client, create_game, free_port, real_games  # noqa: E402


def group_seconds(group: int) -> float:
    """Returns the CPU seconds the processes of a process group have run so far.

    From /proc/<pid>/schedstat (the scheduler's run time, in nanoseconds), not the user and
    system ticks of /proc/<pid>/stat: a tick is 10 ms, so the ticks of 8 processes are off by
    some tens of milliseconds, a tenth of a millisecond a move over a block of 400.
    """
    used = 0
    for pid, _comm, pgid, _ticks, _title in processes():
        if pgid == group:
            with contextlib.suppress(OSError):  # ended meanwhile
                used += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
    return used / 1e9


def parse_env(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(",") if item)


class Server:
    """One side: the web server of a tree, started in its own process group."""

    def __init__(self, name: str, tree: Path, env: dict[str, str], workers: int) -> None:
        self.name, self.tree = name, tree
        self.port = free_port()
        uwsgi = tree / ".venv" / "bin" / "uwsgi"
        handle, self.log = tempfile.mkstemp(prefix=f"api_moves_ab-{name}-", suffix=".log")
        with os.fdopen(handle, "wb") as log:
            self.process = subprocess.Popen(
                [str(uwsgi), "--ini", str(tree / "config" / "uwsgi.ini"), "--http", f"127.0.0.1:{self.port}",
                 "--processes", str(workers)],
                cwd=tree, env=env, start_new_session=True, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"the web server of {tree} did not start; its log: {self.log}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


class Referee:
    """A client thread's games, played on whichever server the block is sent to."""

    def __init__(self, pending: list[tuple[int, list[str]]], lock: threading.Lock) -> None:
        self.pending, self.lock = pending, lock
        self.game: tuple[int, list[str]] | None = None
        self.ply = 0

    def next_move(self) -> tuple[int, int, str]:
        if self.game is None or self.ply == len(self.game[1]):
            with self.lock:
                self.game = self.pending.pop()
            self.ply = 0
        self.ply += 1
        return self.game[0], self.ply, self.game[1][self.ply - 1]


def run_block(server: Server, token: str, referees: list[Referee], moves: int) -> tuple[float, int]:
    """Has the referees post ``moves`` moves to ``server``; returns its CPU seconds and the moves posted."""
    left = [moves]
    lock = threading.Lock()
    errors: list[str] = []

    def play(referee: Referee) -> None:
        client = Client(server.port, token)  # a connection a block: the idle server's router may close one
        try:
            while True:
                with lock:
                    if left[0] <= 0 or errors:
                        return
                    left[0] -= 1
                game_id, ply, move = referee.next_move()
                status, body = client.post(f"/api/v1/games/{game_id}/moves/", {"move": move, "ply": ply},
                                           decode=False)
                if status != 201:
                    errors.append(f"{server.name}: game {game_id} ply {ply} {move}: {status} {body}")
        finally:
            client.close()

    threads = [threading.Thread(target=play, args=(referee,), daemon=True) for referee in referees]
    before = group_seconds(server.process.pid)
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    used = group_seconds(server.process.pid) - before
    if errors:
        raise RuntimeError(errors[0])
    return used, moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=Path, required=True, help="the tree of side A")
    parser.add_argument("--b", type=Path, default=ROOT, help="the tree of side B (default: this one)")
    parser.add_argument("--a-env", default="", help="more environment for A's server: K=V,K=V")
    parser.add_argument("--b-env", default="", help="more environment for B's server")
    parser.add_argument("--pdn", type=Path, default=DEFAULT_PDN)
    parser.add_argument("--blocks", type=int, default=24, help="blocks in all (half on each side), even")
    parser.add_argument("--moves-per-block", type=int, default=400)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--web-workers", type=int, default=6)
    parser.add_argument("--min-plies", type=int, default=40)
    parser.add_argument("--database", default="draughts_bench_ab")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--time-middleware", default="", metavar="DOTTED.CLASS",
                        help="also time that middleware's own code in every request (benchmarks/_time_middleware.py)")
    args = parser.parse_args()

    env = scratch_django(args.database, broker=args.broker)
    from accounts.roles import Role
    from accounts.services import token_issue, user_create_with_role
    from players.models import Player

    director = user_create_with_role(username="bench-director", password="x-bench-password-1", role=Role.DIRECTOR)
    referee_user = user_create_with_role(username="bench-referee", password="x-bench-password-2", role=Role.REFEREE)
    director_token, referee_token = token_issue(user=director), token_issue(user=referee_user)
    players = [Player.objects.create(name=f"Bench player {i}") for i in range(8)]
    moves_needed = (args.blocks + 2) * args.moves_per_block
    games = real_games(args.pdn, moves_needed // args.min_plies + 2 * args.clients, args.min_plies)

    scratch = Path(tempfile.mkdtemp(prefix="api_moves_ab-"))
    timing = {}
    if args.time_middleware:
        timing = {"UWSGI_IMPORT": str(ROOT / "benchmarks" / "_time_middleware.py"),
                  "TIME_MIDDLEWARE": args.time_middleware, "DJANGO_SETTINGS_MODULE": "config.settings"}
    servers = [Server("A", args.a.resolve(), {**env, **timing, "TIME_MIDDLEWARE_OUT": str(scratch / "A"),
                                              **parse_env(args.a_env)}, args.web_workers),
               Server("B", args.b.resolve(), {**env, **timing, "TIME_MIDDLEWARE_OUT": str(scratch / "B"),
                                              **parse_env(args.b_env)}, args.web_workers)]
    samples: dict[str, list[float]] = {"A": [], "B": []}
    try:
        setup = Client(servers[0].port, director_token)
        pending = []
        for index, moves in enumerate(games):
            game_id = create_game(setup, players, index)
            if game_id is None:
                return 1
            pending.append((game_id, moves))
        setup.close()
        lock = threading.Lock()
        referees = [Referee(pending, lock) for _ in range(args.clients)]
        for server in servers:  # warm-up: every worker has served, connections are open
            run_block(server, referee_token, referees, args.moves_per_block)
        for block in range(args.blocks):
            # A B, B A, A B, ...: a drift during a pair falls on both sides alike
            side = "AB"[(block + block // 2) % 2]
            used, moves = run_block(servers["AB".index(side)], referee_token, referees, args.moves_per_block)
            samples[side].append(1000 * used / moves)
    finally:
        for server in servers:
            server.stop()

    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, PostgreSQL, uWSGI HTTP router, "
          f"{args.web_workers} workers a server; {args.clients} referees, {args.blocks} blocks of "
          f"{args.moves_per_block} moves, A B B A ...")
    for server, values in zip(servers, (samples["A"], samples["B"]), strict=True):
        extra = args.a_env if server.name == "A" else args.b_env
        print(f"  {server.name}: {server.tree}{f' ({extra})' if extra else ''}: web server CPU per move median "
              f"{statistics.median(values):.3f} ms, mean {statistics.fmean(values):.3f} ms, "
              f"blocks {' '.join(f'{value:.2f}' for value in values)}")
    differences = [samples["B"][i] - samples["A"][i] for i in range(min(len(samples["A"]), len(samples["B"])))]
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else float("nan")
    print(f"  B - A, block by block ({len(differences)} pairs): median {statistics.median(differences):+.3f} ms, "
          f"mean {mean:+.3f} ms (95%: {mean - half:+.3f} to {mean + half:+.3f} ms)")
    for server in servers if args.time_middleware else []:
        records = sorted(value for path in scratch.glob(f"{server.name}.*") for value in json.loads(path.read_text()))
        if records:
            print(f"  {server.name}: {args.time_middleware}'s own code, wall time of {len(records)} requests: "
                  f"median {records[len(records) // 2] / 1000:.1f} us, p10 {records[len(records) // 10] / 1000:.1f}, "
                  f"p90 {records[9 * len(records) // 10] / 1000:.1f}, mean {statistics.fmean(records) / 1000:.1f}")
    for server in servers:
        Path(server.log).unlink(missing_ok=True)
    shutil.rmtree(scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())

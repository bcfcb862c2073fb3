"""Measures the move path with 3 webhooks registered (one of them slow) against none, in one run.

Usage (from the project root, PostgreSQL on 127.0.0.1:5432, Redis on 127.0.0.1:6379)::

    .venv/bin/python benchmarks/webhooks.py [--rounds 6] [--moves 100] [--slow-seconds 2] [--redis-db 6]

It makes the scratch database ``draughts_bench_webhooks`` anew, starts a real Celery worker on it
(concurrency 2, as in production), three webhook receivers on the loopback (real HTTP servers in
threads of this process: two answer at once, one after ``--slow-seconds``), and registers the three
webhooks (an administrator's, for every game, all events). Then it records moves through the API in
this process (Django's test client: the whole request, the middleware, the service, the commit and
what runs after it) in alternating phases of ``--moves`` moves: webhooks off; on; on with the worker stopped
(SIGSTOP: the move path's own cost, without the deliveries competing for the cores); the order flips
each round, so that a drift of the machine falls on all. It prints the latency
percentiles of each condition and the deliveries made meanwhile. The move path only hands the event
to Celery after its commit; the worker collects and delivers, the slow receiver holding its own
stream only.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _scratch import scratch_django  # noqa: E402

BENCH_DB = "draughts_bench_webhooks"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--moves", type=int, default=100, help="moves per phase")
    parser.add_argument("--slow-seconds", type=float, default=2.0)
    parser.add_argument("--redis-db", type=int, default=6)
    args = parser.parse_args()

    broker = f"redis://127.0.0.1:6379/{args.redis_db}"
    env = scratch_django(BENCH_DB, broker=broker, WEBHOOK_ALLOW_LOOPBACK="true", WEBHOOK_TIMEOUT="5",
                         CLOCK_SWEEPER_ENABLED="false")
    import redis

    redis.Redis.from_url(broker).flushdb()

    from django.test import Client

    from accounts.services import user_create_with_role
    from arbitration.services import game_create
    from games.models import Game
    from games.rules import Position
    from integrations import services, tasks
    from integrations.models import Webhook, WebhookDelivery
    from players.models import Player
    from tests.support.webhook_receiver import Receiver

    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency", "2",
         "--without-gossip", "--without-mingle", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    receivers = [Receiver(), Receiver(), Receiver(hang_seconds=args.slow_seconds)]
    try:
        for receiver in receivers:
            receiver.__enter__()
        admin = user_create_with_role(username="bench-admin", password="a-long-bench-password", role="director")
        admin.is_superuser = True
        admin.save(update_fields=["is_superuser"])
        referee = user_create_with_role(username="bench-ref", password="a-long-bench-password", role="referee")
        black, white = Player.objects.create(name="Bench Black"), Player.objects.create(name="Bench White")
        for receiver in receivers:
            services.webhook_create(acting_user=admin, tournament=None, url=receiver.url,
                                    events=list(Webhook.Event.values))
        client = Client()
        client.force_login(referee)
        rng = random.Random(20261127)
        state = {"game": None, "position": None, "ply": 0}

        def next_move() -> tuple[int, str, int]:
            if state["game"] is None or state["ply"] >= 60 or not state["position"].legal_moves():
                game = game_create(acting_user=admin, black=black, white=white, referees=[referee.username])
                state.update(game=game.pk, position=Position.initial(), ply=0)
            move = rng.choice(state["position"].legal_moves())
            state["position"] = state["position"].play(move)
            state["ply"] += 1
            return state["game"], move.pdn(), state["ply"]

        enqueue: list[float] = []
        delay = tasks.game_collect.delay

        def timed_delay(*a: object, **k: object) -> object:
            started = time.perf_counter()
            try:
                return delay(*a, **k)
            finally:
                enqueue.append(time.perf_counter() - started)

        tasks.game_collect.delay = timed_delay

        def phase(condition: str) -> list[float]:
            on = condition != "off"
            Webhook.objects.update(active=on)
            tasks.forget_any_active()
            # "paused": the webhooks are on but the worker is stopped (SIGSTOP): the move path hands the
            # events to Redis as always, and no delivery competes with it for the 2 cores meanwhile.
            os.killpg(worker.pid, signal.SIGSTOP if condition == "paused" else signal.SIGCONT)
            took = []
            for _ in range(args.moves):
                game_id, text, ply = next_move()
                started = time.perf_counter()
                answer = client.post(f"/api/v1/games/{game_id}/moves/", {"move": text, "ply": ply},
                                     content_type="application/json")
                took.append(time.perf_counter() - started)
                if answer.status_code not in (200, 201):
                    raise SystemExit(f"move refused: {answer.status_code} {answer.content[:300]!r}")
            return took

        phase("off")  # warm-up, not counted
        conditions = ["off", "on", "paused"]
        results: dict[str, list[float]] = {c: [] for c in conditions}
        started = time.monotonic()
        for n in range(args.rounds):
            for condition in (conditions if n % 2 == 0 else conditions[::-1]):
                results[condition].extend(phase(condition))
        os.killpg(worker.pid, signal.SIGCONT)
        elapsed = time.monotonic() - started
        # The deliveries wait while their webhooks are off; turned on, the worker sends the backlog.
        Webhook.objects.update(active=True)
        for stream_id in {d.stream_id for d in WebhookDelivery.objects.filter(status="pending")}:
            tasks.stream_send.delay(stream_id)
        drain_until = time.monotonic() + 60
        while time.monotonic() < drain_until and len(receivers[0].received) < WebhookDelivery.objects.filter(
                webhook__url=receivers[0].url).count():
            time.sleep(1)
        print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average {os.getloadavg()}")
        print(f"{args.rounds} rounds of 3 phases of {args.moves} moves through the API in {elapsed:.1f} s; "
              f"games played: {Game.objects.count()}")
        for condition, label in (("off", "no webhook"), ("on", "3 webhooks (1 slow)"),
                                 ("paused", "3 webhooks, worker stopped")):
            values = results[condition]
            print(f"{label:27s} n={len(values)} mean {statistics.mean(values) * 1000:.1f} ms  "
                  f"p50 {percentile(values, .5) * 1000:.1f}  p95 {percentile(values, .95) * 1000:.1f}  "
                  f"p99 {percentile(values, .99) * 1000:.1f}  max {max(values) * 1000:.1f} ms")
        print(f"game_collect.delay in the move's on-commit: n={len(enqueue)} p50 {percentile(enqueue, .5) * 1000:.2f} ms"
              f"  p99 {percentile(enqueue, .99) * 1000:.2f} ms  max {max(enqueue) * 1000:.2f} ms")
        for receiver, name in zip(receivers, ("fast 1", "fast 2", "slow"), strict=True):
            print(f"receiver {name}: {len(receiver.received)} deliveries received "
                  "(1 minute after the last move)")
        counts = {status: WebhookDelivery.objects.filter(status=status).count()
                  for status in WebhookDelivery.Status.values}
        print(f"deliveries: {counts}")
    finally:
        for receiver in receivers:
            receiver.__exit__(None, None, None)
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()

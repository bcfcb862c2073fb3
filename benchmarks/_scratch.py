"""What the database benchmarks share: a scratch PostgreSQL database, migrated, and Django set up on it.

Not a benchmark itself (``make bench`` skips files whose name starts with ``_``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def recreate_database(admin_url: str, name: str) -> None:
    """Drops and creates the scratch database."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def scratch_django(name: str, *, admin_url: str = ADMIN_URL, broker: str = "redis://127.0.0.1:6379/14",
                   **extra: str) -> dict[str, str]:
    """Makes the scratch database ``name`` anew, migrates it, sets Django up on it; returns the environment.

    The environment (production settings: DEBUG off, the scratch database, ``broker``, plus
    ``extra``) is also what the benchmark's own server or worker processes are started with.
    """
    recreate_database(admin_url, name)
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
        "CELERY_BROKER_URL": broker,
        "DJANGO_SECRET_KEY": "benchmark-only-not-a-secret",
        "DJANGO_LOG_KEY": "benchmark-only-log-key",
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        # The throttles stay on (their cost is measured) but one referee user posting for 16
        # clients at 300 moves/s must not reach them.
        "API_THROTTLE_ANON": "1000000/min",
        "API_THROTTLE_USER": "1000000/min",
        **extra,
    }
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    return env


def processes() -> list[tuple[int, str, int, float, str]]:
    """Returns every process now: (pid, command name, process group, CPU seconds used so far (user +
    system), command line for PostgreSQL's processes, else ""), read from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        title = ""
        if comm.startswith("postgres"):
            try:
                title = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                title = ""
        found.append((int(entry.name), comm, int(fields[2]), (int(fields[11]) + int(fields[12])) / tick, title))
    return found

"""Each pytest-xdist worker (``make test`` runs the suite in several) gets its own share of the services.

pytest-django gives each worker its own test database (``<name>_gw0``, ``<name>_gw1``). This module
gives it the rest, through the environment each worker process starts with (set by the controller on xdist's
gateway specs, ``pytest_xdist_setupnodes`` in ``tests/conftest.py``: the worker reads its settings
before any conftest of its own is loaded), which its Celery, uvicorn and uWSGI processes inherit:

- the Redis database of the broker (and of ``LIVE_REDIS_URL`` and ``CACHE_URL`` when they are set):
  the base's number plus the worker's index, so that ``TEST_BROKER_URL=redis://127.0.0.1:6379/10``
  gives gw0 database 10 and gw1 database 11, and a worker's Celery process never takes another's task;
- its own live channel (Redis pub/sub is shared by all the databases of a server);
- on the embedded defaults (no broker URL), its own ``DJANGO_VAR_DIR``: the file-system broker's
  folders and the generated files of one worker are not another's.

Ports come from ``tests.support.net.free_port`` and the browser is launched once per worker (the
session fixture ``browser``), so neither needs more here. Outside xdist nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

REDIS_DATABASES = 16  # Redis's default ``databases``: numbers 0-15


def shifted_redis_url(url: str, offset: int) -> str:
    """Returns the Redis URL with its database number (0 when it names none) plus ``offset``."""
    match = re.fullmatch(r"(rediss?://[^/?#]*)(?:/(\d*))?([?#].*)?", url)
    if not match:
        raise ValueError(f"not a Redis URL: {url!r}")
    base, number, rest = match.group(1), int(match.group(2) or 0), match.group(3) or ""
    database = number + offset
    if database >= REDIS_DATABASES:
        raise ValueError(
            f"{url!r} plus xdist worker {offset} is Redis database {database}, past the last one "
            f"({REDIS_DATABASES - 1}): give TEST_BROKER_URL a lower database or run fewer workers (TEST_WORKERS)"
        )
    return f"{base}/{database}{rest}"


def worker_environment(environ: Mapping[str, str], index: int) -> dict[str, str]:
    """Returns the variables that xdist worker ``gw<index>`` takes instead of ``environ``'s."""
    worker = f"gw{index}"
    changed: dict[str, str] = {}
    for name in ("CELERY_BROKER_URL", "LIVE_REDIS_URL", "CACHE_URL", "CELERY_RESULT_BACKEND"):
        value = environ.get(name, "").strip()
        if value.startswith(("redis://", "rediss://")):
            changed[name] = shifted_redis_url(value, index)
    base_channel = environ.get("LIVE_CHANNEL", "").strip() or (
        "draughts-live:" + (environ.get("DJANGO_TEST_DATABASE_NAME", "").strip() or "tests"))
    changed["LIVE_CHANNEL"] = f"{base_channel}_{worker}"
    if not environ.get("CELERY_BROKER_URL", "").strip() and environ.get("DJANGO_VAR_DIR", "").strip():
        var = Path(environ["DJANGO_VAR_DIR"]) / worker
        var.mkdir(parents=True, exist_ok=True)
        changed["DJANGO_VAR_DIR"] = str(var)
    return changed


def give_each_worker_its_own(specs: Sequence[Any], environ: Mapping[str, str]) -> None:
    """Sets, on xdist's gateway specs, the environment each worker process starts with (gw0 the first)."""
    for index, spec in enumerate(specs):
        spec.env.update(worker_environment(environ, index))

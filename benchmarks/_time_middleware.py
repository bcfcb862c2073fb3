"""Times a middleware's own code in each request a uWSGI worker serves (``api_moves_ab.py --time-middleware``).

Not a benchmark itself (``make bench`` skips files whose name starts with ``_``): uWSGI imports
it at start (``UWSGI_IMPORT``) in the server under test. It wraps the ``__call__`` of the class
``TIME_MIDDLEWARE`` names (a dotted path) and records, per request, the wall time of the call
less the time spent in the rest of the chain (``get_response``), in nanoseconds; each worker
writes its records to ``TIME_MIDDLEWARE_OUT.<pid>`` (JSON) every 100 requests. The wrapping
costs some microseconds itself, the same for every middleware it wraps: compare two servers'
figures, or one against the middleware with nothing to do.
"""

from __future__ import annotations

import json
import os
import time

import django
from django.utils.module_loading import import_string

django.setup()
_middleware = import_string(os.environ["TIME_MIDDLEWARE"])
_original = _middleware.__call__
_records: list[int] = []
_out = os.environ["TIME_MIDDLEWARE_OUT"]


def _timed_call(self, request):
    inner = self.get_response
    spent = 0

    def timed_inner(request):
        nonlocal spent
        started = time.perf_counter_ns()
        try:
            return inner(request)
        finally:
            spent += time.perf_counter_ns() - started

    self.get_response = timed_inner
    started = time.perf_counter_ns()
    try:
        return _original(self, request)
    finally:
        _records.append(time.perf_counter_ns() - started - spent)
        self.get_response = inner
        if len(_records) % 100 == 0:
            with open(f"{_out}.{os.getpid()}", "w") as out:
                json.dump(_records, out)


_middleware.__call__ = _timed_call

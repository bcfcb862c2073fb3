"""Loaded into schemathesis by the fuzzing test (``SCHEMATHESIS_HOOKS``): a dropped connection is a finding.

schemathesis sends a request once more, on a fresh connection, when the server dropped the
one it was sent on before answering (a broken pipe, a reset, a close:
``schemathesis.transport.requests._request_resending_on_dropped_connection``), as browsers do
for a kept-alive connection the server closed meanwhile. Against this server that hid a
request that got no answer (uWSGI's 411 to a chunked body, sent before the body was read). Here
no request is sent twice: the drop reaches schemathesis as a network error, which fails the run.
"""

from __future__ import annotations

import schemathesis.transport.requests as transport


def _never_resent(error: Exception) -> bool:
    return False


transport._is_dropped_before_response = _never_resent

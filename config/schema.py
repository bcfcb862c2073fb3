"""The OpenAPI schema's error answers, written once for every operation (a drf-spectacular hook).

Every operation can fail in ways that do not depend on its view: a wrong or expired token (401),
too many requests (429), a request stopped at its time limit or a database that stayed locked
(503), a body the server will not read (411, 413, 415). Others follow from its shape: a path
with an id can be 404, a write needs an office (403), a query or a body can be invalid (400).
``error_responses`` adds each of these, with the error body (``ErrorBody``: the one shape of
``core.api``), to every operation that does not document it already, so that the schema states
every status the API answers and a client generated from it expects them.
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}

ERROR_BODY = {
    "type": "object",
    "description": "Every error of the API: a stable code, a sentence, and details (per code).",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "stable, snake_case: e.g. validation_error, not_found"},
                "message": {"type": "string"},
                "details": {
                    "type": "object", "additionalProperties": True,
                    "description": "validation_error: {fields: {name: [messages]}}; others per code",
                },
            },
            "required": ["code", "message", "details"],
        }
    },
    "required": ["error"],
}

RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer", "minimum": 1},
                               "description": "seconds to wait before trying again"}}

# status: (codes, when it applies)
DESCRIPTIONS = {
    400: "validation_error (details.fields names each invalid field), malformed_request (a body that is not "
         "the JSON the operation takes)",
    401: "not_authenticated (no credentials where they are needed), authentication_failed (a wrong or "
         "expired token: on any operation)",
    403: "permission_denied: the caller's role or office may not do this",
    404: "not_found (no such object, or a page past the last)",
    406: "not_acceptable: the Accept header asks for a type the operation does not give",
    409: "conflict: the request conflicts with the current state (see the operation)",
    411: "length_required: a body sent chunked, without a Content-Length",
    413: "payload_too_large: the body is over the server's limit",
    415: "unsupported_media_type: a body that is not JSON (or a form)",
    429: "throttled: too many requests; Retry-After says how many seconds to wait",
    503: "timeout (the request ran past its time limit and was stopped; nothing was written) or database_busy "
         "(the database stayed locked by other writes); Retry-After says when to try again",
}

WRITES = {"post", "put", "patch", "delete"}

# Request fields checked by a parser rather than a field type: the schema states what the parser
# takes, so that a client built from it sends only what is accepted (games.rules.moves).
MOVE_TEXT = {
    "pattern": r"^\s*(0?[1-9]|[12][0-9]|3[0-2])(\s*[-xX:]\s*(0?[1-9]|[12][0-9]|3[0-2]))+\s*[!?*+#]*\s*$",
    "description": "A move as 11-15, a jump as 22x15 or 15x24x31 (separators -, x, X or :; squares 1-32; "
                   "trailing !, ?, *, +, # marks allowed). Other text is refused (move_syntax).",
}
START_FEN = {
    "description": "A PDN FEN: the side to move (B or W), then each side's pieces after W or B, separated by "
                   "colons: squares 1-32, a king as K30, a range as 1-12 (e.g. B:W21-32:B1-12). A man on "
                   "his crowning row, a square listed twice or a position that is not legal is refused "
                   "(validation_error on start_fen). Blank: the standard start.",
}
NOT_BLANK = {"pattern": r"\S"}  # validate_name: stripped, it must not be empty
# Names hold no control character (core.text): C0, DEL, C1, U+2028 and U+2029.
_CONTROL = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
NAME = {"pattern": rf"^[^{_CONTROL}]*\S[^{_CONTROL}]*$"}
NO_CONTROL = {"pattern": rf"^[^{_CONTROL}]*$"}


def field_constraints() -> dict[tuple[str, str], dict[str, Any]]:
    """Returns the constraints of the request fields checked by code (a parser, a ``validate_*``)."""
    from accounts.services import token_days_bounds

    return {
        ("MoveRequest", "move"): MOVE_TEXT,
        ("RepetitionClaimRuling", "move"): MOVE_TEXT,
        ("GameCreate", "start_fen"): START_FEN,
        ("ApiTokenCreate", "days"): {"maximum": token_days_bounds()[1]},
        ("TournamentCreate", "games_per_match"): {"multipleOf": 2},
        ("Player", "name"): NAME,
        ("PatchedPlayer", "name"): NAME,
        **{(component, field): NO_CONTROL for component in ("Player", "PatchedPlayer")
           for field in ("club", "federation", "federation_id")},
        ("TournamentCreate", "name"): NAME,
        ("TournamentCreate", "venue"): NO_CONTROL,
        ("TournamentUpdate", "name"): NAME,
        ("TournamentUpdate", "venue"): NO_CONTROL,
    }


def _error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": DESCRIPTIONS[status],
                                "content": {"application/json": {"schema": ERROR_REF}}}
    if status in (429, 503):
        response["headers"] = RETRY_AFTER
    return response


def statuses_of(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    """Returns the error statuses an operation can answer besides those its view documents."""
    statuses = {401, 406, 429, 503}
    parameters = operation.get("parameters", [])
    if "{" in path or any(parameter["name"] == "page" for parameter in parameters):
        statuses.add(404)
    if any(parameter["in"] == "query" for parameter in parameters):
        statuses.add(400)
    if method in WRITES:
        statuses |= {400, 403, 404, 411, 413}
        if "requestBody" in operation:
            statuses.add(415)
    return statuses


def error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Adds the error answers every operation can give (``statuses_of``), with the error body."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["ErrorBody"] = ERROR_BODY
    for (component, field), constraints in field_constraints().items():
        prop = schemas.get(component, {}).get("properties", {}).get(field)
        if prop is not None:
            prop.update(constraints)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in sorted(statuses_of(path, method, operation)):
                if str(status) not in responses:
                    responses[str(status)] = _error_response(status)
                elif status in (429, 503):
                    responses[str(status)].setdefault("headers", RETRY_AFTER)
            for status, response in responses.items():
                if int(status) >= 400 and "content" in response:  # errors are JSON, whatever the success is
                    response["content"] = {"application/json": {"schema": ERROR_REF}}
            operation["responses"] = dict(sorted(responses.items()))
    return result

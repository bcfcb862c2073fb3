"""What each kind of ruling asks for: one request serializer per kind, read once, before the game is locked.

``request_of(kind)`` is the serializer of the kind; ``ruling_request_read`` validates a request with
it and returns typed values (ints, the choices' values), or raises ``validation_error`` (400) in the
project's error shape naming the fields. The OpenAPI schema documents the body of each kind, as a
``oneOf`` with ``kind`` as the discriminator (``RULING_REQUEST_SCHEMA``).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from arbitration.errors import InvalidRuling
from arbitration.models import LogEntry
from core.limits import MAX_INT_COLUMN, NOTE_MAX_LENGTH, STATEMENT_MAX_LENGTH
from games.models import Game
from games.rules.moves import MAX_MOVE_TEXT

Kind = LogEntry.Kind


class RulingRequest(serializers.Serializer):
    """The fields every ruling has: its kind, the side it concerns, a note."""

    side = serializers.ChoiceField(choices=["black", "white"], required=False, allow_blank=True, allow_null=True,
                                   help_text="black or white; empty or null: no side")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=NOTE_MAX_LENGTH)


#: The largest seconds a clock adjustment adds or takes away (a day).
MAX_ADJUST_SECONDS = 86_400.0


def _square(help_text: str, *, required: bool = True) -> serializers.IntegerField:
    return serializers.IntegerField(required=required, min_value=1, max_value=32, help_text=help_text)


def _seq(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_INT_COLUMN, help_text=help_text)


def _text(help_text: str, max_length: int = NOTE_MAX_LENGTH) -> serializers.CharField:
    return serializers.CharField(help_text=help_text, max_length=max_length)


def _move(help_text: str) -> serializers.CharField:
    """A move as the referee enters it; its length is checked before the game is locked or the text read."""
    return serializers.CharField(help_text=help_text, max_length=MAX_MOVE_TEXT)


RESULT = serializers.ChoiceField(choices=Game.Result.choices, help_text="1-0, 0-1 or 1/2-1/2")

#: The fields of each kind beyond ``kind``, ``side`` and ``note``.
FIELDS: dict[str, dict[str, serializers.Field]] = {
    Kind.FALSE_MOVE: {"move": _move("The false or improper move attempted (Law 21).")},
    Kind.TOUCH_OFFENCE: {},
    Kind.TOUCHED_PIECE_NOT_PLAYED: {"square": _square("The touched piece's square (Law 19).", required=False)},
    Kind.OVER_THE_ANGLE: {"square": _square("The square of the piece moved over the angle (Law 20)."),
                          "toward": _square("The square it was moved toward.")},
    Kind.OWN_PIECE_REMOVED: {
        "square": _square("The capturer's own piece removed (Law 12); omitted when deciding an open choice.",
                          required=False),
        "choice": serializers.ChoiceField(choices=["play_on", "put_back"], required=False, allow_blank=True,
                                          help_text="The opponent's choice; omitted: the choice is opened."),
    },
    Kind.NOT_CROWNED: {"ply": _seq("The ply of the move that reached the king row uncrowned (Law 15).")},
    Kind.HUFF: {"square": _square("The piece removed by the huff (Law 16).")},
    Kind.COMPEL: {},
    Kind.LET_STAND: {},
    Kind.CONDUCT: {},
    Kind.LEFT_ROOM: {},
    Kind.SPECTATOR: {"note": serializers.CharField(help_text="What the spectator did (Law 31).",
                                                   max_length=NOTE_MAX_LENGTH)},
    Kind.FORTY_MOVE_NOTICE: {},
    Kind.FORTY_MOVE_RULING: {"outcome": serializers.ChoiceField(choices=["advantage_shown", "draw"])},
    Kind.REPETITION_CLAIM: {"move": _move("The claimant's move that repeats the position.")},
    Kind.DRAW_AGREED: {},
    Kind.RESIGN: {},
    Kind.ADJUDICATE: {"result": RESULT, "reason": _text("Why the director decides this result.")},
    Kind.APPEAL: {"entry": _seq("The log entry appealed (its seq)."), "statement": _text("The written statement "
                  "(it goes to the tournament's arbiters, or a standalone game's director; the appellant names nobody).",
                  STATEMENT_MAX_LENGTH)},
    Kind.APPEAL_DECISION: {
        "appeal": _seq("The appeal's log entry (its seq)."),
        "decision": serializers.ChoiceField(choices=["upheld", "overturned"]),
        "reason": _text("The arbiter's reasons."),
        "result": serializers.ChoiceField(choices=Game.Result.choices, required=False, allow_null=True,
                                          allow_blank=True, help_text="With overturned: the result decided."),
    },
    Kind.CORRECTION: {"entry": _seq("The log entry corrected (its seq)."), "reason": _text("Why it is corrected.")},
    Kind.CLOCK_START: {},
    Kind.CLOCK_PAUSE: {},
    Kind.CLOCK_RESUME: {},
    Kind.CLOCK_ADJUST: {
        "seconds": serializers.FloatField(min_value=-MAX_ADJUST_SECONDS, max_value=MAX_ADJUST_SECONDS,
                                          help_text="Seconds to add to the side's clock (negative: take away)."),
        "reason": serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH,
                                        help_text="Why (or give it as note)."),
    },
}


def _class_name(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_")) + "Ruling"


def _request_class(kind: str, fields: dict[str, serializers.Field]) -> type[serializers.Serializer]:
    attrs: dict[str, Any] = {
        "kind": serializers.ChoiceField(choices=[str(kind)]),
        **{name: copy.deepcopy(field) for name, field in fields.items()},
        "__doc__": f"A {kind} ruling.",
        "__module__": __name__,
    }
    return type(_class_name(kind), (RulingRequest,), attrs)


REQUESTS: dict[str, type[serializers.Serializer]] = {str(kind): _request_class(kind, fields)
                                                     for kind, fields in FIELDS.items()}

RULING_REQUEST_SCHEMA = PolymorphicProxySerializer(
    component_name="RulingRequest", serializers=REQUESTS, resource_type_field_name="kind", many=False,
)


def ruling_request_read(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Validates a ruling's fields with its kind's serializer; returns them typed (400 naming the fields if not)."""
    if kind == "appeal" and data.get("arbiter") not in (None, ""):
        raise InvalidRuling("The appellant names no arbiter (Law 28): the appeal goes to the tournament's arbiters "
                            "(a standalone game's director).", code="validation_error", status_code=400,
                            details={"fields": {"arbiter": ["Not accepted: the appellant does not choose who decides."]}})
    serializer = REQUESTS[kind](data={**data, "kind": kind})
    if not serializer.is_valid():
        fields = {name: [str(message) for message in messages] for name, messages in serializer.errors.items()}
        raise InvalidRuling("Some fields are invalid: " + ", ".join(fields) + ".", code="validation_error",
                            status_code=400, details={"fields": fields})
    values = dict(serializer.validated_data)
    values.pop("kind")
    return values

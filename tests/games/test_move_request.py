"""The move request is read as MoveRequestSerializer reads it, whatever the body."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from arbitration.serializers import MoveRequestSerializer, move_request_data

pytestmark = pytest.mark.smoke

_values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=False), st.text(max_size=90),
    st.sampled_from(["11-15", " 22x15 ", "", "   ", "9-14\x00", "x" * 80, "x" * 81, "3", "-1", "4.0"]),
    st.lists(st.integers(), max_size=2),
)
_bodies = st.dictionaries(st.sampled_from(["move", "ply", "note", "extra"]), _values, max_size=4)


def _serializer(data):
    serializer = MoveRequestSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _outcome(read, data):
    try:
        return "ok", read(data)
    except ValidationError as error:
        return "error", error.detail


@settings(max_examples=400, deadline=None)
@given(_bodies)
def test_the_fast_reading_agrees_with_the_serializer(data):
    assert _outcome(move_request_data, data) == _outcome(_serializer, data)


def test_a_well_formed_request_is_read_with_its_ply_and_note():
    assert move_request_data({"move": " 11-15 ", "ply": 1}) == {"move": "11-15", "ply": 1, "note": ""}
    assert move_request_data({"move": "11-15", "note": " slow "}) == {"move": "11-15", "note": "slow"}


def test_a_bad_request_gets_the_serializers_errors():
    with pytest.raises(ValidationError) as caught:
        move_request_data({"move": "", "ply": -1})
    assert set(caught.value.detail) == {"move", "ply"}

"""The clocks as the pages write them (core/templatetags/clockface.py)."""

import pytest
from django.template import Context, Template


@pytest.mark.parametrize(("seconds", "face"), [
    (0, "0:00"), (9.99, "0:09"), (59.9999999, "1:00"), (754.2, "12:34"), (3599, "59:59"), (3600, "1:00:00"),
    (3725, "1:02:05"), (-4, "0:00"), (None, "—"), ("", "—"), ("abc", "—"), (float("inf"), "—"),
])
def test_seconds_left_are_written_as_a_clock_face(seconds, face):
    assert Template("{% load clockface %}{{ s|clockface }}").render(Context({"s": seconds})) == face


def test_a_status_code_is_written_in_words():
    assert Template("{% load clockface %}{{ s|words }}").render(Context({"s": "not_started"})) == "not started"

"""The rating chart drawn on the server (tournaments/svg.py): its texts stay inside it."""

import re

from tournaments.svg import rating_chart_svg


def test_the_first_and_last_labels_are_anchored_inside_the_chart():
    svg = rating_chart_svg([("start", 1500), ("Club Open", 1532), ("Autumn Swiss", 1518)])
    anchors = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="(\w+)" class="label">([^<]+)<', svg)
    assert anchors == [("start", "start"), ("middle", "Club Open"), ("end", "Autumn Swiss")]
    assert 'aria-label="Rating history: start 1500, Club Open 1532, Autumn Swiss 1518"' in svg


def test_a_single_point_is_centred():
    svg = rating_chart_svg([("start", 1500)])
    assert 'text-anchor="middle" class="label">start<' in svg
    assert rating_chart_svg([]) == ""

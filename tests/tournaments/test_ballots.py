"""The 3-move deck: its contents, every FEN replayed by the rules engine, and the seeded draw."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games.rules import Position
from tournaments.ballots import DECK_FILE, all_ballots, ballot, deck, draw_ballots

BARRED = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "ballots" / "acf_3move_ballots.csv"


def test_deck_has_174_openings_156_in_play_and_the_18_barred_ones_out():
    assert len(all_ballots()) == 174
    assert len(deck()) == 156
    assert {b.number for b in all_ballots() if b.barred} == BARRED
    assert not BARRED & {b.number for b in deck()}


@pytest.mark.skipif(not SHARED.exists(), reason="shared data not mounted")
def test_project_copy_is_identical_to_the_shared_file():
    assert DECK_FILE.read_bytes() == SHARED.read_bytes()


def test_every_fen_is_the_position_after_the_three_moves():
    for b in all_ballots():
        position = Position.initial()
        for move in b.moves:
            position = position.play(position.parse_move(move))
        assert position == Position.from_fen(b.fen), b.number


def test_known_ballots_read_correctly():
    assert ballot(1).pdn == "9-13 21-17 5-9"
    assert ballot(174).pdn == "12-16 24-20 10-15"
    assert ballot(8).name == "Edinburgh Single"
    with DECK_FILE.open(newline="") as fh:
        assert sum(1 for _ in csv.DictReader(fh)) == 174


def test_draw_is_reproducible_from_the_seed():
    assert draw_ballots([], 7, 3) == draw_ballots([], 7, 3)
    assert draw_ballots([], 7, 5) != draw_ballots([], 8, 5)


def test_no_ballot_repeats_until_the_deck_is_exhausted():
    used: list[int] = []
    for seed in range(156):
        [b] = draw_ballots(used, seed)
        assert b.number not in used
        assert not b.barred
        used.append(b.number)
    assert sorted(used) == sorted(b.number for b in deck())
    # The deck is exhausted: the next cycle starts afresh, again without repeats within it.
    again = [b.number for b in draw_ballots(used, 999, 156)]
    assert sorted(again) == sorted(used)


def test_several_ballots_drawn_at_once_are_distinct_and_avoid_the_used_ones():
    used = [b.number for b in deck()[:150]]
    drawn = draw_ballots(used, 3, 6)
    assert sorted(b.number for b in drawn) == sorted(b.number for b in deck()[150:])
    # Drawing more than remain reshuffles only after the deck is exhausted.
    more = draw_ballots(used, 3, 8)
    assert len({b.number for b in more[:6]}) == 6 and not set(used) & {b.number for b in more[:6]}


def test_draw_refuses_barred_or_repeated_used_ballots():
    with pytest.raises(ValueError, match="not in the current deck"):
        draw_ballots([3], 1)
    with pytest.raises(ValueError, match="repeated"):
        draw_ballots([1, 1], 1)

"""Knockout: seeded bracket, byes to top seeds, next round, and deciding tied matches."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingError,
    Seeded,
    TieBreak,
    bracket_order,
    decide_knockout_match,
    knockout_first_round,
    knockout_next_round,
)


def test_bracket_order_is_the_standard_one():
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert bracket_order(4) == [1, 4, 2, 3]
    with pytest.raises(PairingError):
        bracket_order(6)


def test_sixteen_players_are_seeded_by_rating():
    players = [Seeded(100 + i, 2500 - 10 * i) for i in range(16)]  # seed k is id 99 + k
    first = knockout_first_round(players)
    assert [(p.black - 99, p.white - 99) for p in first][:4] == [(1, 16), (8, 9), (4, 13), (5, 12)]


def test_byes_go_to_the_top_seeds_when_not_a_power_of_two():
    players = [Seeded(i, 3000 - i) for i in range(1, 6)]  # seeds = ids
    first = knockout_first_round(players)
    assert [p.black for p in first if p.is_bye] == [1, 2, 3]
    assert [(p.black, p.white) for p in first if not p.is_bye] == [(4, 5)]
    assert [p.players for p in first] == [(1,), (4, 5), (2,), (3,)]


def test_next_round_pairs_winners_of_adjacent_slots():
    nxt = knockout_next_round([1, 5, 2, 3])
    assert [(p.black, p.white) for p in nxt] == [(1, 5), (2, 3)]
    with pytest.raises(PairingError):
        knockout_next_round([1, 2, 3])


def test_a_won_match_is_decided_by_its_games():
    d = decide_knockout_match(1, 2, [1, 0.5])
    assert (d.winner, d.needs_block, d.score) == (1, False, (1.5, 0.5))


def test_a_tied_match_continues_in_two_game_blocks_until_decided():
    assert decide_knockout_match(1, 2, [1, 0]).needs_block
    assert decide_knockout_match(1, 2, [1, 0, 0.5, 0.5]).needs_block
    assert not decide_knockout_match(1, 2, [1, 0, 0.5]).needs_block  # block in progress
    d = decide_knockout_match(1, 2, [1, 0, 0.5, 0.5, 0, 0.5])
    assert (d.winner, d.needs_block, d.score) == (2, False, (2.5, 3.5))
    assert d.reason == "won on tie-break block 2: 2.5-3.5"


def test_blocks_then_lots_draws_lots_after_the_last_block_reproducibly():
    games = [0.5, 0.5, 0.5, 0.5]
    d = decide_knockout_match(1, 2, games, tie_break=TieBreak.BLOCKS_THEN_LOTS, max_blocks=1, seed=11)
    assert d.winner in (1, 2) and not d.needs_block and "lots" in d.reason
    again = decide_knockout_match(1, 2, games, tie_break="blocks-then-lots", max_blocks=1, seed=11)
    assert again == d
    assert decide_knockout_match(
        1, 2, games[:2], tie_break="blocks-then-lots", max_blocks=1, seed=11
    ).needs_block
    winners = {decide_knockout_match(1, 2, [1, 0], tie_break="lots", seed=s).winner for s in range(20)}
    assert winners == {1, 2}


def test_match_in_progress_and_bad_input():
    assert decide_knockout_match(1, 2, [1], games_per_match=2).winner is None
    with pytest.raises(ValueError):
        decide_knockout_match(1, 2, [2, 0])
    with pytest.raises(ValueError, match="after the match was decided"):
        decide_knockout_match(1, 2, [1, 1, 0, 0])
    with pytest.raises(ValueError, match="seed"):
        decide_knockout_match(1, 2, [1, 0], tie_break="lots")


def test_a_knockout_round_of_one_game_is_decided_by_it_or_goes_to_2_game_blocks():
    assert decide_knockout_match(1, 2, [1], games_per_match=1).winner == 1
    drawn = decide_knockout_match(1, 2, [0.5], games_per_match=1)
    assert drawn.winner is None and drawn.needs_block
    assert decide_knockout_match(1, 2, [0.5, 0.5], games_per_match=1).winner is None  # block under way
    assert decide_knockout_match(1, 2, [0.5, 0, 0.5], games_per_match=1).winner == 2

"""Lots for colour and the games of a match (Laws 6 and 26)."""

from __future__ import annotations

import pytest

from games.rules import Position
from tournaments.ballots import ballot
from tournaments.lots import INITIAL_FEN, cast_lots, new_seed, plan_match


def test_lots_are_reproducible_from_the_recorded_seed():
    for seed in range(50):
        assert cast_lots(1, 2, seed) == cast_lots(1, 2, seed)
    outcomes = {cast_lots(1, 2, seed).black_first for seed in range(50)}
    assert outcomes == {1, 2}  # both outcomes happen


def test_new_seed_is_an_int_to_record():
    assert isinstance(new_seed(), int)


def test_colours_alternate_game_by_game_after_the_lots():
    lots = cast_lots(10, 20, 4)
    plan = plan_match(lots, games=4)
    assert [g.black for g in plan] == [lots.black_first, lots.white_first] * 2
    assert all(g.start_fen == INITIAL_FEN for g in plan)
    assert Position.from_fen(INITIAL_FEN) == Position.initial()


def test_each_ballot_is_played_twice_with_colours_reversed():
    lots = cast_lots(10, 20, 5)
    plan = plan_match(lots, games=4, ballots=[ballot(1), ballot(8)])
    assert [g.ballot.number for g in plan] == [1, 1, 8, 8]
    assert (plan[0].black, plan[0].white) == (plan[1].white, plan[1].black)
    assert (plan[2].black, plan[2].white) == (plan[3].white, plan[3].black)
    assert plan[0].start_fen == ballot(1).fen


@pytest.mark.parametrize("games", [0, 3, 5])
def test_a_match_is_one_game_or_an_even_number_of_games(games):
    with pytest.raises(ValueError, match="even"):
        plan_match(cast_lots(1, 2, 0), games=games)


def test_a_single_game_has_one_opening_of_its_own():
    [game] = plan_match(cast_lots(1, 2, 0), games=1, ballots=[ballot(8)])
    assert game.ballot == ballot(8) and game.start_fen == ballot(8).fen


def test_ballots_must_match_the_number_of_games():
    with pytest.raises(ValueError, match="ballots"):
        plan_match(cast_lots(1, 2, 0), games=4, ballots=[ballot(1)])

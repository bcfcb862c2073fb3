"""The ACF rating (tournaments/elo.py): the published formula, its windows, the 128-game average, the rounding."""

import pytest

from tournaments.elo import (
    MEMORY_GAMES,
    WINDOW_BY_GAME,
    WINDOW_BY_ROUND,
    AcfRound,
    AcfStanding,
    acf_average,
    acf_performance,
    acf_ratings,
    round_half_up,
)


def test_the_acf_pages_example_three_rounds_won_one_lost_is_200_above_the_competition():
    assert acf_performance(1800.0, 3, 1, 4, window=WINDOW_BY_ROUND) == 2000.0
    assert (WINDOW_BY_ROUND, WINDOW_BY_GAME, MEMORY_GAMES) == (400, 670, 128)


def test_scored_by_game_the_window_is_670():
    assert acf_performance(1800.0, 3, 1, 4, window=WINDOW_BY_GAME) == 1800.0 + 670 * 2 / 4


def test_an_established_player_moves_by_his_games_share_of_128():
    # 1800 with 128 games or more on the list, 8 games at a performance of 2000: 1800 + 8/128 x 200 = 1812.5
    assert acf_average(1800, 300, 2000.0, 8) == pytest.approx(1812.5)
    assert acf_average(1800, None, 2000.0, 8) == pytest.approx(1812.5)  # unknown games: established
    # 24 games on the list and 8 new: the average of 32 games
    assert acf_average(1800, 24, 2000.0, 8) == pytest.approx((1800 * 24 + 2000 * 8) / 32)
    assert acf_average(1800, 10, 2000.0, 200) == 2000.0  # more games than the memory: the performance alone


def test_rounding_is_to_the_nearest_whole_point_halves_up():
    assert [round_half_up(v) for v in (1812.5, 1812.49, -0.5, 2000.0)] == [1813, 1812, 0, 2000]


def test_an_event_gives_each_player_his_change_and_an_unrated_player_his_performance():
    before = {1: AcfStanding(1800, 200), 2: AcfStanding(1600, 40), 3: AcfStanding(None, None)}
    rounds = [AcfRound(1, 2, 1.0, 2), AcfRound(1, 3, 0.5, 2), AcfRound(2, 3, 1.0, 2)]
    changes = acf_ratings(before, rounds)
    one = changes[1]  # counts only the round against the rated player 2 (3 is unrated)
    assert (one.rounds, one.won, one.lost, one.games, one.opponents_average) == (1, 1, 0, 2, 1600.0)
    assert one.performance == 2000.0
    assert one.rating_after == round_half_up(1800 + 2 / 128 * 200) == 1803
    two = changes[2]
    assert (two.rounds, two.won, two.lost, two.performance) == (1, 0, 1, 1400.0)
    assert two.rating_after == round_half_up((1600 * 40 + 1400 * 2) / 42) and two.games_after == 42
    three = changes[3]  # unrated: both his opponents were rated; drew with 1, lost to 2
    assert (three.rounds, three.won, three.lost, three.opponents_average) == (2, 0, 1, 1700.0)
    assert three.rating_after == round_half_up(1700 + 400 * (0 - 1) / 2) == 1500
    assert three.rating_before is None and three.games_after == 4


def test_a_player_without_a_counted_round_keeps_his_rating_and_bad_rounds_are_refused():
    assert acf_ratings({1: AcfStanding(1500, 3)}, [])[1].rating_after == 1500
    with pytest.raises(ValueError):
        acf_ratings({}, [AcfRound(1, 2, 0.7, 2)])
    with pytest.raises(ValueError):
        acf_ratings({}, [AcfRound(1, 2, 1.0, 0)])

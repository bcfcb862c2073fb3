"""Standings and tiebreaks against hand-worked examples."""

from __future__ import annotations

import pytest

from tournaments.scoring import TIEBREAKS, MatchResult, Scoring, crosstable, standings

# Five players, three rounds, 2-game matches, scoring win 2 / draw 1 / loss 0, bye 2 (2 game points).
FIVE = [
    MatchResult(1, 1, 2, 2, 0),
    MatchResult(1, 3, 4, 1, 1),
    MatchResult(1, 5, None, kind="bye"),
    MatchResult(2, 1, 3, 1.5, 0.5),
    MatchResult(2, 5, 2, 0, 2),
    MatchResult(2, 4, None, kind="bye"),
    MatchResult(3, 1, 5, 1, 1),
    MatchResult(3, 2, 4, 1, 1),
    MatchResult(3, 3, None, kind="bye"),
]


def _order(rows):
    return [r.player for r in rows]


def _values(rows, name):
    return {r.player: r.tiebreaks[name] for r in rows}


def test_points_wins_and_record_counts():
    """Points: 1 = 2+2+1 = 5; 2 = 0+2+1 = 3; 3 = 1+0+2 (bye) = 3; 4 = 1+2 (bye)+1 = 4; 5 = 2 (bye)+0+1 = 3."""
    rows = {r.player: r for r in standings(FIVE, tiebreaks=TIEBREAKS)}
    assert {p: r.points for p, r in rows.items()} == {1: 5, 2: 3, 3: 3, 4: 4, 5: 3}
    assert (rows[1].wins, rows[1].draws, rows[1].losses, rows[1].byes) == (2, 1, 0, 0)
    assert (rows[3].played, rows[3].byes) == (2, 1)
    assert {p: r.game_points for p, r in rows.items()} == {1: 4.5, 2: 3, 3: 3.5, 4: 4, 5: 3}


def test_buchholz_counts_a_bye_as_an_opponent_with_the_players_own_points():
    """Buchholz: the final points of each opponent; a bye is a dummy opponent on the player's own points.

    1: 2 (3) + 3 (3) + 5 (3) = 9
    2: 1 (5) + 5 (3) + 4 (4) = 12
    3: 4 (4) + 1 (5) + bye (own 3) = 12
    4: 3 (3) + bye (own 4) + 2 (3) = 10
    5: bye (own 3) + 2 (3) + 1 (5) = 11
    With [buchholz, sonneborn_berger] the three players on 3 points order 2 and 3 (B 12, SB 5
    each: 3's bye counts as a win over a dummy on his own 3 points), then 5 (B 11).
    """
    rows = standings(FIVE, tiebreaks=["buchholz", "sonneborn_berger"])
    assert _values(rows, "buchholz") == {1: 9, 2: 12, 3: 12, 4: 10, 5: 11}
    assert _order(rows) == [1, 4, 2, 3, 5]
    assert [r.rank for r in rows] == [1, 2, 3, 3, 5]


def test_median_buchholz_drops_the_highest_and_the_lowest():
    """Median Buchholz (3 rounds, cut 1): the middle contribution.

    1: [3, 3, 3] -> 3; 2: [3, 4, 5] -> 4; 3: [3, 4, 5] -> 4; 4: [3, 3, 4] -> 3; 5: [3, 3, 5] -> 3.
    With [median_buchholz, game_points]: 2 and 3 tie on 4; game points 2 = 0+2+1 = 3,
    3 = 1+0.5+2 = 3.5, so 3 comes before 2, then 5 (median 3).
    """
    rows = standings(FIVE, tiebreaks=["median_buchholz", "game_points"])
    assert _values(rows, "median_buchholz") == {1: 3, 2: 4, 3: 4, 4: 3, 5: 3}
    assert _values(rows, "game_points") == {1: 4.5, 2: 3, 3: 3.5, 4: 4, 5: 3}
    assert _order(rows) == [1, 4, 3, 2, 5]


def test_sonneborn_berger_weights_opponents_points_by_the_result_and_a_bye_as_a_win_over_a_dummy():
    """SB: opponent's points x (1 win, 1/2 draw, 0 loss); a bye is a win over the player's own score.

    1: beat 2 (3) + beat 3 (3) + drew 5 (3/2) = 7.5
    2: lost 1 (0) + beat 5 (3) + drew 4 (4/2) = 5
    3: drew 4 (4/2) + lost 1 (0) + bye (own 3) = 5
    4: drew 3 (3/2) + bye (own 4) + drew 2 (3/2) = 7
    5: bye (own 3) + lost 2 (0) + drew 1 (5/2) = 5.5
    Order of the players on 3 points: 5, then 2 and 3 tied.
    """
    rows = standings(FIVE, tiebreaks=["sonneborn_berger"])
    assert _values(rows, "sonneborn_berger") == {1: 7.5, 2: 5, 3: 5, 4: 7, 5: 5.5}
    assert _order(rows) == [1, 4, 5, 2, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 4]


def test_head_to_head_separates_only_when_the_players_who_did_not_meet_could_not_have_caught_up():
    """Direct encounter among 2, 3, 5 (all on 3): 2 beat 5 (2 points), 3 met neither, 5 lost to 2.

    Not all of them met, so 2 goes above the others only if his 2 points beat what 3 could have
    scored had he met 2 and 5 (2 x 2 = 4): he cannot, and the three stay tied (FIDE article 6.2).
    The value shown is each one's points among them.
    """
    rows = standings(FIVE, tiebreaks=["head_to_head"])
    assert _order(rows) == [1, 4, 2, 3, 5]
    assert [r.rank for r in rows] == [1, 2, 3, 3, 3]
    assert _values(rows, "head_to_head") == {1: 0, 2: 2, 3: 0, 4: 0, 5: 0}


def test_number_of_wins_then_game_points():
    """Wins over the board: 2 has one (over 5), 3 and 5 none; then game points 3 = 3.5 > 5 = 3."""
    rows = standings(FIVE, tiebreaks=["wins", "game_points"])
    assert _order(rows) == [1, 4, 2, 3, 5]
    assert _values(rows, "wins") == {1: 2, 2: 1, 3: 0, 4: 0, 5: 0}


def test_a_forfeit_scores_but_is_not_a_played_game():
    """1 wins against 2 by forfeit (2-0, unplayed), beats 3 over the board 2-0; 2 and 3 draw 1-1.

    Points 1 = 4, 2 = 1, 3 = 1. Player 1: one win over the board, one forfeit, and round 3 in
    which he was not paired (voluntarily unplayed, no points). Buchholz 1 = dummy for the forfeit
    (own 4) + 3 (1) + dummy for round 3 (own 4) = 9; 2 = dummy (own 1) + 3 (1) = 2 (his round 2
    unplayed too: + own 1 = 3); SB 1 = forfeit won (own 4 x 1) + 3's 1 point + round 3 (x 0) = 5.
    """
    results = [
        MatchResult(1, 1, 2, 2, 0, kind="forfeit"),
        MatchResult(2, 1, 3, 2, 0),
        MatchResult(3, 2, 3, 1, 1),
    ]
    rows = {r.player: r for r in standings(results, tiebreaks=["buchholz", "sonneborn_berger"])}
    assert (rows[1].points, rows[1].wins, rows[1].forfeits, rows[1].played) == (4, 1, 1, 1)
    assert rows[1].tiebreaks == {"buchholz": 9, "sonneborn_berger": 5}
    assert rows[2].tiebreaks["buchholz"] == 3


def test_players_without_results_are_listed_and_scoring_is_configurable():
    rows = standings(
        [MatchResult(1, 1, 2, 2, 0)], players=[1, 2, 3], scoring=Scoring(win=3, draw=1), tiebreaks=["wins"]
    )
    assert [(r.player, r.points) for r in rows] == [(1, 3), (2, 0), (3, 0)]
    assert [r.rank for r in rows] == [1, 2, 2]


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError, match="unknown tiebreak"):
        standings(FIVE, tiebreaks=["koya"])


def test_crosstable_lists_each_round_with_byes_distinct():
    table = crosstable(FIVE, players=[1, 2, 3, 4, 5])
    assert [(e.round, e.opponent, e.game_points, e.match_points, e.kind) for e in table[5]] == [
        (1, None, 2, 2, "bye"),
        (2, 2, 0, 0, "played"),
        (3, 1, 1, 1, "played"),
    ]


def test_a_double_forfeit_is_a_lost_match_for_both():
    results = [MatchResult(1, 1, 2, 0, 0, kind="forfeit"), MatchResult(1, 3, 4, 1, 1)]
    rows = {r.player: r for r in standings(results, tiebreaks=["wins"])}
    assert {p: r.points for p, r in rows.items()} == {1: 0, 2: 0, 3: 1, 4: 1}
    assert (rows[1].forfeits, rows[1].losses, rows[1].played) == (1, 0, 0)
    lines = crosstable(results, scoring=Scoring(win=3, draw=2, loss=1))
    assert [e.match_points for e in lines[1] + lines[2]] == [1, 1]

"""The leagues' pure cores: a season's fixtures, a team match's colours and score, the table's order."""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal

import pytest

from leagues.core.match import (
    board_default,
    game_points,
    home_colour,
    match_default,
    match_score,
    sheet_problem,
)
from leagues.core.schedule import ScheduleError, double_round_robin, weekly_dates
from leagues.core.table import Result, league_table

D = Decimal


def test_five_teams_meet_each_other_twice_home_and_away_with_a_bye_each_round():
    teams = [11, 12, 13, 14, 15]
    rounds = double_round_robin(teams)
    assert len(rounds) == 10
    meetings = Counter()
    for number, fixtures in enumerate(rounds, start=1):
        byes = [f for f in fixtures if f.is_bye]
        assert len(byes) == 1, number
        playing = [t for f in fixtures if not f.is_bye for t in (f.home, f.away)]
        assert sorted(playing + [byes[0].home]) == teams  # each team once a round
        for f in fixtures:
            assert f.round == number
            if not f.is_bye:
                meetings[(f.home, f.away)] += 1
    for a in teams:
        for b in teams:
            if a != b:
                assert meetings[(a, b)] == 1, (a, b)  # each pair twice, once at each ground
    first, second = rounds[:5], rounds[5:]
    for r1, r2 in zip(first, second, strict=True):  # the second half swaps home and away
        assert {(f.away, f.home) for f in r1 if not f.is_bye} == {(f.home, f.away) for f in r2 if not f.is_bye}
    assert Counter(f.home for r in rounds for f in r if f.is_bye) == Counter({t: 2 for t in teams})


def test_four_teams_have_six_rounds_and_no_bye():
    rounds = double_round_robin([1, 2, 3, 4])
    assert len(rounds) == 6 and all(len(r) == 2 and not any(f.is_bye for f in r) for r in rounds)


def test_one_team_makes_no_season():
    with pytest.raises(ScheduleError):
        double_round_robin([1])


def test_weekly_dates_fall_on_the_weekday_a_week_apart():
    dates = weekly_dates(date(2026, 11, 27), 3, 1)  # a Friday; Tuesdays
    assert dates == [date(2026, 12, 1), date(2026, 12, 8), date(2026, 12, 15)]
    assert weekly_dates(date(2026, 12, 1), 1, 1) == [date(2026, 12, 1)]
    with pytest.raises(ScheduleError):
        weekly_dates(date(2026, 12, 1), 1, 7)
    with pytest.raises(ScheduleError, match="past the calendar"):
        weekly_dates(date(9999, 12, 1), 10, 1)


def test_home_takes_black_on_odd_boards_and_the_second_game_reverses():
    assert [home_colour(b, 1) for b in (1, 2, 3, 4)] == ["black", "white", "black", "white"]
    assert [home_colour(b, 2) for b in (1, 2, 3, 4)] == ["white", "black", "white", "black"]


def test_game_points_follow_the_home_colour():
    assert game_points("1-0", "black") == (1, 0)
    assert game_points("1-0", "white") == (0, 1)
    assert game_points("0-1", "white") == (1, 0)
    assert game_points("1/2-1/2", "black") == (D("0.5"), D("0.5"))
    with pytest.raises(ValueError):
        game_points("*", "black")


def test_a_match_is_won_on_game_points_with_a_defaulted_board():
    boards = [(D(1), D(1)), (D("0.5"), D("1.5")), (D(1), D(1)), board_default(2, home_present=True,
                                                                            away_present=False)]
    score = match_score(boards)
    assert (score.home_points, score.away_points) == (D("4.5"), D("3.5"))
    assert (score.home_match_points, score.away_match_points) == (2, 0) and score.winner == "home"
    level = match_score([(D(1), D(1))], win=3, draw=1, loss=0)
    assert (level.home_match_points, level.away_match_points) == (1, 1)


def test_a_match_defaulted_gives_every_board_to_the_side_present():
    score = match_default(6, 2, defaulting="away", win=2, loss=0)
    assert (score.home_points, score.away_points, score.home_match_points, score.away_match_points) == (12, 0, 2, 0)
    both = match_default(4, 1, defaulting="both")
    assert (both.home_points, both.away_points, both.home_match_points) == (0, 0, 0)


def test_sheet_rules_are_named_in_the_refusal():
    roster = {1: 1, 2: 2, 3: 3, 4: 4}
    ratings = {1: 2000, 2: 1900, 3: 1950, 4: 1800}
    ok = dict(board_count=4, order_by_rating=False, ratings=ratings, roster_order=roster)
    assert sheet_problem([1, 2, 3, None], **ok) is None
    assert "Rule 'board count'" in sheet_problem([1, 2], **ok)
    assert "Rule 'roster'" in sheet_problem([1, 2, 9, None], **ok)
    assert "Rule 'bottom-board defaults'" in sheet_problem([1, None, 3, 4], **ok)
    assert "Rule 'nominated board order'" in sheet_problem([2, 1, 3, 4], **ok)
    assert "Rule 'one board a player'" in sheet_problem([1, 1, 3, 4], **ok)
    by_rating = {**ok, "order_by_rating": True}
    assert "Rule 'board order by rating'" in sheet_problem([1, 2, 3, 4], **by_rating)
    assert sheet_problem([1, 3, 2, 4], **by_rating) is None


def _r(home, away, hp, ap, win=2):
    hp, ap = D(str(hp)), D(str(ap))
    hm, am = (win, 0) if hp > ap else (0, win) if ap > hp else (1, 1)
    return Result(home, away, hp, ap, hm, am)


def test_the_table_orders_by_match_points_then_board_points_then_head_to_head_then_honour():
    teams = [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    results = [
        _r(1, 2, 3, 1), _r(3, 4, 3, 1),  # A and C win
        _r(2, 1, 3, 1), _r(4, 3, 1, 3),  # B beats A; C wins again
        _r(1, 4, 2, 2), _r(2, 3, 2, 2),
    ]
    rows = league_table(teams, results, promotion=1, relegation=1)
    assert [r.name for r in rows] == ["C", "B", "A", "D"]
    b, a = rows[1], rows[2]
    assert (a.match_points, a.points_for) == (b.match_points, b.points_for) == (3, 6)
    assert a.head_to_head == b.head_to_head == 2  # one win each
    # honour decides: B beat A (3) and drew with C (5 / 2); A beat B (3) and drew with D (1 / 2)
    assert (b.honour_points, a.honour_points) == (D("5.5"), D("3.5"))
    assert [r.mark for r in rows] == ["promoted", "", "", "relegated"]
    c = rows[0]
    assert (c.played, c.won, c.drawn, c.lost, c.points_for, c.points_against) == (3, 2, 1, 0, 8, 4)


def test_head_to_head_breaks_a_tie_on_match_and_board_points():
    teams = [(1, "A"), (2, "B"), (3, "C")]
    results = [_r(1, 2, 1, 3), _r(1, 3, 3, 1), _r(2, 3, 1, 3)]  # A, B, C each 2 mp and 4 board points
    rows = league_table(teams, results)
    assert {r.points_for for r in rows} == {4} and {r.match_points for r in rows} == {2}
    # a cycle: head to head level too; honour points level; then name
    assert [r.name for r in rows] == ["A", "B", "C"]
    two = league_table([(1, "Z"), (2, "Y")], [_r(1, 2, 3, 1), _r(2, 1, 3, 1), ])
    assert [r.name for r in two] == ["Y", "Z"]

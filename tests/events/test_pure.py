"""The events' pure cores: entry rules, a title match's score line, series standings."""

from __future__ import annotations

from datetime import date

import pytest

from events.entry_rules import Applicant, EntryRules, age_on, entry_refusal
from events.matchplay import DRAW, LOSS, WIN, decided, score_line
from events.series import PLACES, RESULTS, StageRow, series_standings

DAY = date(2026, 7, 1)


def test_a_rating_below_the_band_is_refused_with_the_band_in_the_reason():
    rules = EntryRules(section="Major", rating_min=1800, rating_max=2100)
    assert entry_refusal(rules, Applicant("A", 1750), on=DAY) == "A's rating 1750 is below Major's band (1800 to 2100)."
    assert entry_refusal(rules, Applicant("A", 2200), on=DAY) == "A's rating 2200 is above Major's band (1800 to 2100)."
    assert entry_refusal(rules, Applicant("A", 1800), on=DAY) is None
    assert entry_refusal(rules, Applicant("A", None), on=DAY) is None
    assert "rated players only" in entry_refusal(EntryRules("Major", rating_min=1, unrated_allowed=False),
                                                 Applicant("A", None), on=DAY)


def test_masters_may_not_enter_a_section_their_section_bars():
    rules = EntryRules(section="Minor", barred_by={7: "Masters"})
    assert entry_refusal(rules, Applicant("A", 2400, sections={7}), on=DAY) == (
        "A is entered in Masters, whose players may not enter Minor.")
    assert entry_refusal(rules, Applicant("A", 2400, sections={8}), on=DAY) is None


def test_age_is_taken_on_the_events_first_day_and_a_title_is_checked():
    assert age_on(date(2010, 7, 2), DAY) == 15 and age_on(date(2010, 7, 1), DAY) == 16
    juniors = EntryRules(section="Juniors", age_max=15)
    assert entry_refusal(juniors, Applicant("A", None, birth_date=date(2010, 7, 2)), on=DAY) is None
    assert "is 16" in entry_refusal(juniors, Applicant("A", None, birth_date=date(2010, 7, 1)), on=DAY)
    assert "date of birth is needed" in entry_refusal(juniors, Applicant("A", None), on=DAY)
    masters = EntryRules(section="Masters", titles=("GM", "M"))
    assert entry_refusal(masters, Applicant("A", None, title="M"), on=DAY) is None
    assert entry_refusal(masters, Applicant("A", None), on=DAY) == (
        "Masters is for players with the title GM or M; A holds no title.")


def test_a_match_is_decided_when_the_leader_cannot_be_caught():
    assert decided(6, 0, 3) is None and decided(7, 0, 3) == 1 and decided(0, 7, 3) == 2
    line = score_line(8, [WIN, WIN, WIN, DRAW, WIN])  # 4½-½ with 3 to play: 3 points left, cannot be caught
    assert line.decided_after == 5 and line.winner == 1 and line.score == (9, 1) and not line.finished
    assert score_line(8, [WIN, WIN, WIN, DRAW]).decided_after is None


def test_a_match_level_after_every_game_is_drawn_and_decided_by_nobody():
    line = score_line(4, [WIN, LOSS, DRAW, DRAW])
    assert line.finished and line.drawn and line.winner is None and line.decided_after is None


def test_a_match_is_an_even_number_of_games():
    with pytest.raises(ValueError):
        score_line(5, [])
    with pytest.raises(ValueError):
        score_line(2, [WIN, WIN, WIN])


def test_series_counts_each_players_best_k_of_n_stages_by_places():
    stages = [
        [StageRow(1, 1, 5), StageRow(2, 2, 4), StageRow(3, 3, 1)],
        [StageRow(2, 1, 6), StageRow(1, 2, 3), StageRow(3, 3, 2)],
        [StageRow(3, 1, 5), StageRow(2, 2, 4), StageRow(1, 3, 0)],
    ]
    rows = series_standings(stages, method=PLACES, place_points=[10, 6, 4], best_of=2)
    assert [(r.player, r.total) for r in rows] == [(1, 16.0), (2, 16.0), (3, 14.0)]
    assert rows[0].rank == rows[1].rank == 1 and rows[2].rank == 3
    by_player = {r.player: r for r in rows}
    assert by_player[1].counted == (True, True, False)  # his third stage (4 points) is left out
    assert by_player[1].by_stage == (10.0, 6.0, 4.0)
    every = series_standings(stages, method=PLACES, place_points=[10, 6, 4])
    assert {r.player: r.total for r in every} == {1: 20.0, 2: 22.0, 3: 18.0}


def test_series_by_results_sums_the_scores_and_a_missed_stage_is_none():
    rows = series_standings([[StageRow(1, 1, 5)], [StageRow(2, 1, 6), StageRow(1, 2, 3)]], method=RESULTS,
                            best_of=1)
    assert [(r.player, r.total, r.by_stage) for r in rows] == [(2, 6.0, (None, 6.0)), (1, 5.0, (5.0, 3.0))]

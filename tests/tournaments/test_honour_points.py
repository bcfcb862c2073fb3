"""Per-game scoring and honour points (HP) in the pure scoring core."""

from __future__ import annotations

from tournaments.scoring import MatchResult, Scoring, standings

PER_ROUND = Scoring(win=2, draw=1, loss=0, bye=2)
PER_GAME = Scoring(win=4, draw=2, loss=0, bye=4, per_game=True, game_win=2, game_draw=1, game_loss=0)

# Four players, two rounds of 2 games; a's result game by game.
RESULTS = [
    MatchResult(round=1, a=1, b=2, a_points=2, b_points=0, a_games=(1, 1)),        # 1 beats 2, 2-0
    MatchResult(round=1, a=3, b=4, a_points=1.5, b_points=0.5, a_games=(1, 0.5)),  # 3 beats 4, 1.5-0.5
    MatchResult(round=2, a=1, b=3, a_points=1, b_points=1, a_games=(1, 0)),        # 1-1
    MatchResult(round=2, a=2, b=4, a_points=1, b_points=1, a_games=(0.5, 0.5)),    # 1-1
]
PLAYERS = [1, 2, 3, 4]


def _rows(scoring: Scoring, tiebreaks: list[str]) -> dict[int, object]:
    return {row.player: row for row in standings(RESULTS, PLAYERS, scoring=scoring, tiebreaks=tiebreaks)}


def test_per_round_scores_the_match_and_per_game_scores_each_game():
    assert {p: r.points for p, r in _rows(PER_ROUND, []).items()} == {1: 3, 2: 1, 3: 3, 4: 1}
    # Per game (2 a win, 1 a draw): 1 scores 2+2 and 2+0, 2 scores 0+0 and 1+1, 3 scores 2+1 and 0+2,
    # 4 scores 0+1 and 1+1.
    assert {p: r.points for p, r in _rows(PER_GAME, []).items()} == {1: 6, 2: 2, 3: 5, 4: 3}


def test_per_game_scoring_still_counts_rounds_won_drawn_and_lost():
    rows = _rows(PER_GAME, ["WIN"])
    assert (rows[1].wins, rows[1].draws, rows[1].losses) == (1, 1, 0)
    assert (rows[4].wins, rows[4].draws, rows[4].losses) == (0, 1, 1)
    assert rows[3].tiebreaks["WIN"] == 1


def test_honour_points_weigh_the_opponents_score_game_by_game_where_sonneborn_berger_ties():
    rows = _rows(PER_ROUND, ["HP", "SB"])
    # Final scores 1: 3, 2: 1, 3: 3, 4: 1. Player 1 won two games from 2 (2 x 1) and one from 3 (1 x 3);
    # 3 won one game from 4 and drew one (1.5 x 1) and won one from 1 (1 x 3).
    assert {p: r.tiebreaks["HP"] for p, r in rows.items()} == {1: 5.0, 2: 1.0, 3: 4.5, 4: 2.5}
    assert rows[1].tiebreaks["SB"] == rows[3].tiebreaks["SB"] == 2.5  # the match-weighted form ties them
    assert [r.player for r in standings(RESULTS, PLAYERS, scoring=PER_ROUND, tiebreaks=["HP"])][:2] == [1, 3]

"""The FIDE tie-break catalogue on a hand-made tournament with every kind of unplayed round.

Six players, four rounds, one game a round, scored as FIDE scores (win 1, draw 1/2, loss 0), so
that every figure can be checked against the regulations by hand:

    R1  1-2 1-0     3-4 1/2     5-6 forfeit, won by 5 (6 did not come: voluntarily unplayed)
    R2  1-3 1/2     2-5 0-1     4 and 6 absent (not paired: voluntarily unplayed, no points)
    R3  1-5 1-0     3-6 0-1     2-4 1/2
    R4  1-4 1/2     2-3 1-0     5 the pairing-allocated bye; 6 withdrawn (not paired)

Scores: 1 = 3, 2 = 1.5, 3 = 1, 4 = 1.5, 5 = 3, 6 = 1.
Adjusted scores (article 16.3; what an opponent's Buchholz counts): 6's absence in round 4 comes
after his last presence (round 3) and counts as a draw: 1.5; 4's absence in round 2 comes before
his last presence and counts as it stands: 1.5; the others as they are.
"""

from __future__ import annotations

import pytest

from tournaments.scoring import MatchResult, Scoring, standings
from tournaments.scoring.tiebreaks import CATALOGUE, SCORE_TO_DP, name_of

FIDE = Scoring(win=1, draw=0.5, loss=0, bye=1, bye_game_points=1)
RATINGS = {1: 1800, 2: 1700, 3: 1600, 4: 1500, 5: 1650, 6: None}
RESULTS = [
    MatchResult(1, 1, 2, 1, 0, a_black_games=1, a_black_wins=1),
    MatchResult(1, 3, 4, 0.5, 0.5, b_black_games=1),
    MatchResult(1, 5, 6, 1, 0, kind="forfeit"),
    MatchResult(2, 1, 3, 0.5, 0.5, b_black_games=1),
    MatchResult(2, 2, 5, 0, 1, b_black_games=1, b_black_wins=1),
    MatchResult(3, 1, 5, 1, 0, b_black_games=1),
    MatchResult(3, 3, 6, 0, 1, b_black_games=1, b_black_wins=1),
    MatchResult(3, 2, 4, 0.5, 0.5, a_black_games=1),
    MatchResult(4, 1, 4, 0.5, 0.5, a_black_games=1),
    MatchResult(4, 2, 3, 1, 0, a_black_games=1, a_black_wins=1),
    MatchResult(4, 5, None, kind="bye"),
]
EVERYONE = [1, 2, 3, 4, 5, 6]


def _table(tiebreaks, **kwargs):
    rows = standings(RESULTS, EVERYONE, scoring=FIDE, tiebreaks=tiebreaks, ratings=RATINGS, **kwargs)
    return {r.player: r for r in rows}, [r.player for r in rows]


def _values(code, **kwargs):
    rows, _order = _table([code], **kwargs)
    return {p: r.tiebreaks[code] for p, r in rows.items()}


def test_scores_count_the_forfeit_and_the_bye_and_nothing_for_an_absence():
    rows, _order = _table([])
    assert {p: r.points for p, r in rows.items()} == {1: 3, 2: 1.5, 3: 1, 4: 1.5, 5: 3, 6: 1}


def test_buchholz_counts_own_unplayed_rounds_at_the_players_own_score_and_opponents_adjusted():
    """BH, round by round:

    1: 2 (1.5) + 3 (1) + 5 (3) + 4 (1.5) = 7
    2: 1 (3) + 5 (3) + 4 (1.5) + 3 (1) = 8.5
    3: 4 (1.5) + 1 (3) + 6 (adjusted 1.5, not 1) + 2 (1.5) = 7.5
    4: 3 (1) + absent (own 1.5) + 2 (1.5) + 1 (3) = 7
    5: forfeit won (own 3) + 2 (1.5) + 1 (3) + bye (own 3) = 10.5
    6: forfeit lost (own 1) + absent (own 1) + 3 (1) + withdrawn (own 1) = 4
    """
    assert _values("BH") == {1: 7, 2: 8.5, 3: 7.5, 4: 7, 5: 10.5, 6: 4}


def test_a_cut_takes_a_voluntarily_unplayed_round_first():
    """BH-C1: the lowest contribution goes, but a voluntarily unplayed round before it (16.5).

    4's contributions are 1 (3), 1.5 (absent, voluntary), 1.5 (2), 3 (1): the absence is cut,
    not the lower 1: 7 - 1.5 = 5.5. 1: 7 - 1 = 6; 2: 8.5 - 1 = 7.5; 3: 7.5 - 1.5 = 6;
    5 (a forfeit won and a bye are not voluntary): 10.5 - 1.5 = 9; 6: 4 - 1 = 3.
    """
    assert _values("BH-C1") == {1: 6, 2: 7.5, 3: 6, 4: 5.5, 5: 9, 6: 3}
    assert _values("BH-C2") == {1: 4.5, 2: 6, 3: 4.5, 4: 4.5, 5: 6, 6: 2}


def test_median_buchholz_cuts_the_lowest_and_the_highest():
    """BH-M1: 1: 7 - 1 - 3 = 3; 4: 7 - 1.5 (absence) - 3 = 2.5; 5: 10.5 - 1.5 - 3 = 6."""
    values = _values("BH-M1")
    assert (values[1], values[4], values[5]) == (3, 2.5, 6)
    assert _values("BH-M2")[2] == 0  # four rounds, two cut each way


def test_sonneborn_berger_counts_a_forfeit_won_and_the_bye_as_wins_over_the_dummy():
    """SB: 1: 1.5 (beat 2) + 0.5 (drew 3) + 3 (beat 5) + 0.75 (drew 4) = 5.75;
    5: forfeit won (own 3) + 1.5 (beat 2) + 0 + bye (own 3) = 7.5; 4: 0.5 + 0 + 0.75 + 1.5 = 2.75;
    6: 0 + 0 + 1 (beat 3) + 0 = 1."""
    values = _values("SB")
    assert (values[1], values[5], values[4], values[6]) == (5.75, 7.5, 2.75, 1)


def test_progressive_score_and_its_cut():
    """PS: 1 = 1 + 1.5 + 2.5 + 3 = 8; 5 = 1 + 2 + 2 + 3 = 8; PS-C1 drops the first round: 7 each."""
    assert (_values("PS")[1], _values("PS")[5]) == (8, 8)
    assert (_values("PS-C1")[1], _values("PS-C1")[5]) == (7, 7)


def test_wins_counted_with_and_without_the_unplayed_ones():
    """WIN counts the forfeit and the bye (5: 3); WON only the games won over the board (5: 1)."""
    assert _values("WIN") == {1: 2, 2: 1, 3: 0, 4: 0, 5: 3, 6: 1}
    assert _values("WON") == {1: 2, 2: 1, 3: 0, 4: 0, 5: 1, 6: 1}


def test_games_played_and_won_with_black():
    assert _values("BPG") == {1: 2, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1}
    assert _values("BWG") == {1: 1, 2: 1, 3: 0, 4: 0, 5: 1, 6: 1}


def test_average_rating_of_opponents_and_performance():
    """ARO 1: (1700 + 1600 + 1650 + 1500) / 4 = 1612.5, rounded up to 1613; TPR 1: 3/4 = 0.75,
    dp 193: 1806. 3 met an unrated player (6), who is left out: (1500 + 1800 + 1700) / 3 = 1666.7
    -> 1667; his score against the rated ones 1/3 -> p 0.33, dp -125: 1542. ARO-C1 drops the
    lowest rated opponent: 1: (1700 + 1600 + 1650) / 3 = 1650."""
    assert (_values("ARO")[1], _values("TPR")[1]) == (1613, 1806)
    assert (_values("ARO")[3], _values("TPR")[3]) == (1667, 1542)
    assert _values("ARO-C1")[1] == 1650
    assert SCORE_TO_DP[50] == 0 and SCORE_TO_DP[100] == 800 and SCORE_TO_DP[0] == -800


def test_average_of_opponents_buchholz():
    """AOB 1: his opponents' BH: 2 (8.5), 3 (7.5), 5 (10.5), 4 (7) -> 33.5 / 4 = 8.375."""
    assert _values("AOB")[1] == 8.375


def test_koya_counts_points_against_those_on_half_the_points_or_more():
    """Half of 4 points is 2: only 1 and 5 (3 each) count. 1 beat 5: 1; 3 and 4 drew 1: 0.5 each."""
    assert _values("KS") == {1: 1, 2: 0, 3: 0.5, 4: 0.5, 5: 0, 6: 0}


def test_direct_encounter_orders_the_tied_who_met():
    """1 and 5 (3 each) met: 1 won. 2 and 4 (1.5) drew: tied. 3 and 6 (1): 6 won."""
    rows, order = _table(["DE"])
    assert order == [1, 5, 2, 4, 6, 3]
    assert [rows[p].rank for p in order] == [1, 2, 3, 3, 5, 6]
    assert (rows[1].tiebreaks["DE"], rows[5].tiebreaks["DE"]) == (1, 0)


def test_direct_encounter_is_applied_again_inside_the_group_it_leaves_tied():
    """1, 2, 3, 4 end on 4 points each and all met. Among the four: 1 and 2 scored 4, 3 and 4
    scored 2. Applied again inside {1, 2}: 2 beat 1; inside {3, 4}: 4 beat 3. Order 2, 1, 4, 3.

        R1  1-2 0-2   3-4 0-2      R2  1-3 2-0   2-4 2-0
        R3  1-4 2-0   2-3 0-2      R4  3-5 2-0   4-6 2-0   (1 and 2 not paired: no points)
    """
    results = [
        MatchResult(1, 1, 2, 0, 2), MatchResult(1, 3, 4, 0, 2),
        MatchResult(2, 1, 3, 2, 0), MatchResult(2, 2, 4, 2, 0),
        MatchResult(3, 1, 4, 2, 0), MatchResult(3, 2, 3, 0, 2),
        MatchResult(4, 3, 5, 2, 0), MatchResult(4, 4, 6, 2, 0),
    ]
    rows = standings(results, tiebreaks=["DE"])
    assert [r.player for r in rows][:4] == [2, 1, 4, 3]
    assert [r.rank for r in rows][:4] == [1, 2, 3, 4]
    assert {r.player: r.tiebreaks["DE"] for r in rows[:4]} == {1: 4, 2: 4, 3: 2, 4: 2}


def test_a_round_still_being_played_is_not_counted_as_unplayed():
    """With round 4 of 1-4 still being played, neither is charged a voluntarily unplayed round:
    1's BH is 2 (1.5) + 3 (1) + 5 (3) = 5.5, not 5.5 + a dummy."""
    results = [r for r in RESULTS if not (r.round == 4 and r.a == 1)]
    rows = standings(results, EVERYONE, scoring=FIDE, tiebreaks=["BH"], in_progress=[(4, 1), (4, 4)])
    assert {r.player: r.tiebreaks["BH"] for r in rows}[1] == 5.5


def test_every_code_has_a_name_and_old_names_read_as_their_codes():
    assert name_of("BH-M1") == "Median Buchholz"
    assert name_of("median_buchholz") == "Median Buchholz"
    assert name_of("sonneborn_berger") == "Sonneborn-Berger"
    assert name_of("head_to_head") == "Direct encounter"
    assert all(CATALOGUE[code] for code in CATALOGUE)
    assert _values("median_buchholz") == _values("BH-M1")


def test_an_unknown_code_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="unknown tiebreak 'BH-C9'.*BH-C1"):
        _table(["BH-C9"])


@pytest.mark.django_db
def test_a_round_a_player_was_left_out_of_counts_in_his_buchholz_and_in_the_api(director, client_as):
    """A Swiss of 5: player 1 is absent (left out) in round 1, then plays round 2. His round 1 is
    a voluntarily unplayed round: his Buchholz counts it at his own score (it counted nothing
    before), beside his round-2 opponent's score; the standings API says so, by code."""
    from django.db.models import Q

    from tests.tournaments.test_presence import _mark
    from tests.tournaments.test_services import finish_games, make_players, running_tournament
    from tournaments import selectors, services
    from tournaments.models import Match, Round

    players = make_players(5)
    tournament = running_tournament(director, players, format="swiss", round_count=3, tiebreaks=["BH", "WIN"])
    _mark(client_as, director, "club", players[0], False)
    services.round_pair(acting_user=director, tournament=tournament, absent="leave_out")
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=1))
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=2)
    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=2))

    rows = {row.player.pk: row for row in selectors.standings(tournament)}
    me = players[0].pk
    match = Match.objects.get(Q(player_one=me) | Q(player_two=me), round__tournament=tournament, round__number=2)
    opponent = match.player_two_id if match.player_one_id == me else match.player_one_id
    second = rows[opponent].points if opponent and match.kind == "played" else rows[me].points
    assert rows[me].tiebreaks["BH"] == rows[me].points + second
    body = client_as(director).get("/api/v1/tournaments/club/standings/").json()
    mine = next(r for r in body if r["player"]["id"] == me)
    assert mine["tiebreaks"]["BH"] == rows[me].points + second

"""Forfeits (unplayed matches): a double forfeit is a lost match for both, shown alike everywhere."""

from __future__ import annotations

import csv
import io

import pytest

from tests.tournaments.test_services import finish_games, make_players, running_tournament
from tournaments import selectors, services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _double_forfeit_round(director, tournament):
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=round_.number, board=1,
                               winner=None, reason="neither came")
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    finish_games(director, tournament, round_)
    return Match.objects.get(round=round_, board=1)


def test_a_double_forfeit_scores_no_match_points_for_either_player(director):
    players = make_players(4)
    tournament = running_tournament(director, players, format="swiss", round_count=3, opening="go-as-you-please")
    match = _double_forfeit_round(director, tournament)
    absent = {match.player_one_id, match.player_two_id}
    rows = {r.player.pk: r for r in selectors.standings(tournament)}
    assert [rows[p].points for p in absent] == [0, 0]
    assert sorted(r.points for r in rows.values()) == [0, 0, 0, 2]
    for pid in absent:
        [line] = selectors.player_record(tournament, rows[pid].player)
        assert line.outcome == "forfeit loss" and line.kind == "forfeit"
    table = list(csv.reader(io.StringIO(selectors.crosstable_csv(tournament))))
    cells = {row[1]: row[3] for row in table[1:]}
    for pid in absent:
        assert cells[rows[pid].player.name].endswith("-")
    api_rows = selectors.crosstable(tournament)[1]
    assert sorted(c.mark[-1] for r in api_rows for c in r.rounds if c.kind == "forfeit") == ["-", "-"]


def test_a_double_forfeit_in_a_round_robin_shows_minus_for_both(director):
    players = make_players(4)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    match = _double_forfeit_round(director, tournament)
    _rows, table = selectors.crosstable(tournament)
    order = [r.player.pk for r in table]
    one, two = order.index(match.player_one_id), order.index(match.player_two_id)
    assert table[one].cells[two] == "-" and table[two].cells[one] == "-"
    assert table[one].points == table[two].points == 0

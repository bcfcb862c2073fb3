"""Selectors: standings, crosstable and rounds read in a fixed number of queries."""

from __future__ import annotations

import pytest

from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import selectors

pytestmark = pytest.mark.django_db


def _swiss(director, count: int, rounds: int, slug: str):
    players = make_players(count)
    tournament = running_tournament(director, players, format="swiss", round_count=rounds, slug=slug,
                                    opening="go-as-you-please")
    for _ in range(rounds):
        play_round(director, tournament)
    return tournament


@pytest.mark.parametrize("count", [4, 12])
def test_standings_query_count_does_not_grow_with_players(director, django_assert_num_queries, count):
    tournament = _swiss(director, count, 3, f"s{count}")
    with django_assert_num_queries(4):  # entries, matches, games; a Swiss's byes known before their rounds
        rows = selectors.standings(tournament)
    assert len(rows) == count
    with django_assert_num_queries(4):
        _rows, table = selectors.crosstable(tournament)
    assert all(len(row.rounds) == 3 and row.cells == [] for row in table)


@pytest.mark.parametrize("count", [4, 12])
def test_round_detail_query_count_does_not_grow_with_players(director, django_assert_num_queries, count):
    tournament = _swiss(director, count, 1, f"r{count}")
    with django_assert_num_queries(3):
        round_ = selectors.round_detail(tournament, 1)
        matches = list(round_.matches.all())
        games = [mg.game for m in matches for mg in m.match_games.all()]
        names = [(m.player_one.name, m.player_two.name if m.player_two else None) for m in matches]
    assert len(games) == count and len(names) == count // 2


def test_standings_api_query_count_is_fixed(director, django_assert_max_num_queries):
    from rest_framework.test import APIClient

    tournament = _swiss(director, 12, 2, "api12")
    with django_assert_max_num_queries(5):
        response = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/")
    assert response.status_code == 200 and len(response.json()) == 12


def test_crosstable_cells_show_game_points_against_each_opponent(director):
    players = make_players(3)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    for _ in range(3):
        play_round(director, tournament)
    rows, table = selectors.crosstable(tournament)
    assert [r.player for r in rows] == players
    assert table[0].cells == ["x", "2", "2"]
    assert table[1].cells == ["0", "x", "2"]
    assert table[2].cells == ["0", "0", "x"]


def test_player_record_lists_matches_with_byes(director):
    players = make_players(3)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    for _ in range(3):
        play_round(director, tournament)
    lines = selectors.player_record(tournament, players[0])
    assert sorted(line.outcome for line in lines) == ["bye", "win", "win"]
    assert all(len(line.games) == 2 for line in lines if line.outcome == "win")

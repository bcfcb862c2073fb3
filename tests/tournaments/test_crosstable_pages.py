"""The crosstable on the tournament page and the printed standings: a result stays under its round when a
player missed one, and opponents are named by their starting numbers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from players.models import Player
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import selectors, services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _text(cell: str) -> str:
    return re.sub(r"<[^>]+>", "", cell).strip()


def _crosstable_rows(page: str) -> dict[str, dict[str, str]]:
    """Returns each crosstable row's cells by their column's heading, by the player's name."""
    table = re.search(r'data-testid="crosstable">(.*?)</table>', page, re.S).group(1)
    head, body = table.split("</thead>")
    headings = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        assert len(cells) == len(headings), cells
        line = dict(zip(headings, cells, strict=True))
        rows[line["Player"]] = line
    return rows


def _swiss_with_a_late_entry_and_a_player_left_out(director):
    players = make_players(6)
    tournament = running_tournament(director, players, format="swiss", round_count=3, opening="go-as-you-please")
    play_round(director, tournament)
    late = Player.objects.create(name="Late Comer", rating=1500)
    services.entry_add(acting_user=director, tournament=tournament, player=late)
    play_round(director, tournament)
    away = players[0]
    services.presence_set(acting_user=director, tournament=tournament, player=away.pk, present=False)
    round_ = services.round_pair(acting_user=director, tournament=tournament, absent="leave_out")
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    from tests.tournaments.test_services import finish_games

    finish_games(director, tournament, round_)
    return tournament, late, away


@pytest.mark.parametrize("path", ["/tournaments/club/", "/tournaments/club/print/standings/"])
def test_a_missed_round_leaves_its_cell_empty_and_later_results_under_their_rounds(director, path):
    tournament, late, away = _swiss_with_a_late_entry_and_a_player_left_out(director)
    _standings, table = selectors.crosstable(tournament)
    line = {row.player.name: row for row in table}
    page = Client().get(path).content.decode()
    rows = _crosstable_rows(page)
    for name, cells in rows.items():
        assert cells["Points"] == f"{line[name].points:g}", name
        played = {c.round: c.mark for c in line[name].rounds}
        assert [cells[f"R{n}"] for n in (1, 2, 3)] == [played.get(n, "") for n in (1, 2, 3)], name
    assert rows[late.name]["R1"] == "" and rows[late.name]["R2"] and rows[late.name]["R3"]
    assert rows[away.name]["R1"] and rows[away.name]["R2"] and rows[away.name]["R3"] == ""


def test_the_crosstable_names_opponents_by_starting_number_not_by_rank(director):
    players = make_players(4)
    tournament = running_tournament(director, players, format="swiss", round_count=2, opening="go-as-you-please")
    play_round(director, tournament, outcome=lambda g: "1/2-1/2")  # everybody ties: four players ranked 1
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
    assert sorted(seeds.values()) == [1, 2, 3, 4]
    rows = _crosstable_rows(Client().get("/tournaments/club/").content.decode())
    _standings, table = selectors.crosstable(tournament)
    for player in players:
        cells = rows[player.name]
        assert cells["No."] == str(seeds[player.pk])
        [cell] = next(r for r in table if r.player.pk == player.pk).rounds
        assert cells["R1"] == f"{seeds[cell.opponent]}:1-1"
    assert len({cells["R1"] for cells in rows.values()}) == 4  # four distinct opponents, four distinct names

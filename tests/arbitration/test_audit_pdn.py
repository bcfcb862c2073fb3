"""The PDN export attaches each ruling to the current line: a ruling on a line since put back
never becomes the comment of the new move of the same ply."""

from __future__ import annotations

import pytest

from games.rules.pdn import read_games

pytestmark = pytest.mark.django_db


def _pdn(api_client, game_id: int):
    response = api_client.get(f"/api/v1/games/{game_id}/pdn")
    assert response.status_code == 200
    [game] = read_games(response.content.decode())
    return game


def test_a_ruling_on_a_line_put_back_by_compel_stays_off_the_new_move_of_that_ply(desk, new_game, api_client):
    game = new_game(rule_set="standard-huff")
    desk.play(game.pk, "11-15", "22-18", "9-13")  # ply 3 fails to capture
    desk.rule(game.pk, "touch_offence", "white", note="White straightened a piece without intimation")
    desk.rule(game.pk, "compel", "white")
    desk.play(game.pk, "15x22", "25x18")  # ply 3 on the new line, then ply 4
    pdn = _pdn(api_client, game.pk)
    assert [m.text for m in pdn.moves] == ["11-15", "22-18", "15x22", "25x18"]
    assert "touch offence" not in (pdn.moves[2].comment or "")
    assert "touch offence" in pdn.moves[1].comment and "on a line since put back" in pdn.moves[1].comment
    assert "compel" in pdn.moves[1].comment


def test_a_ruling_on_a_line_put_back_to_the_crowning_stays_off_the_new_move(desk, new_game, api_client):
    game = new_game(start_fen="B:W12:B27")
    desk.play(game.pk, "27-31", "12-8", "31-26")
    desk.rule(game.pk, "conduct", "white", note="White tapped the table")  # at ply 3
    desk.rule(game.pk, "not_crowned", "white", ply=1)
    desk.play(game.pk, "12-8", "31-27")  # plies 2 and 3 of the new line: the king goes elsewhere
    pdn = _pdn(api_client, game.pk)
    assert [m.text for m in pdn.moves] == ["27-31", "12-8", "31-27"]
    assert "conduct" not in (pdn.moves[2].comment or "") and "conduct" not in (pdn.moves[1].comment or "")
    assert "conduct" in pdn.moves[0].comment and "not crowned" in pdn.moves[0].comment


def test_a_ruling_on_the_current_line_follows_its_move(desk, new_game, api_client):
    game = new_game()
    desk.play(game.pk, "11-15", "23-19")
    desk.rule(game.pk, "touch_offence", "black")
    desk.play(game.pk, "8-11")
    pdn = _pdn(api_client, game.pk)
    assert "touch offence (black) Law 18" in pdn.moves[1].comment
    assert pdn.moves[2].comment is None and "put back" not in pdn.moves[1].comment

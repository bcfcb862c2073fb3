"""A director enters a game from its scoresheet: every move checked by the engine first, the record genuine."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbitration.log import log_verify
from arbitration.models import LogEntry
from arbitration.services import game_move_record
from games.models import Move
from games.rules import GameState
from games.rules.pdn import read_file

pytestmark = pytest.mark.django_db

#: Chinook v Tinsley, London 1992, game 17 (a real game; its move 8 writes the plain move 29-25 as 29x25).
LONDON = Path(__file__).resolve().parents[1] / "games" / "data" / "london1992_game17.pdn"


def _moves_text() -> str:
    text = LONDON.read_text()
    return text[text.index("1. 9-13"):]


def _replayed():
    game = read_file(LONDON)[0]
    state = GameState()
    for move in game.moves:
        try:
            state.push_pdn(move.text)
        except Exception:  # noqa: BLE001 - the plain move written with x
            state.push_pdn(move.text.replace("x", "-"))
    return game, state


def _enter(client_as, user, game_id, **body):
    return client_as(user).post(f"/api/v1/games/{game_id}/scoresheet/", body, format="json")


def test_a_real_game_is_entered_move_by_move_on_the_record(new_game, director, client_as):
    game = new_game()
    pdn, replayed = _replayed()
    response = _enter(client_as, director, game.pk, moves=_moves_text())
    assert response.status_code == 201, response.json()
    state = response.json()
    assert (state["status"], state["result"], state["termination"]) == ("finished", "1/2-1/2", "scoresheet")
    assert state["ply"] == len(pdn.moves) == len(state["moves"])
    assert state["fen"] == replayed.position.fen()
    entries = list(LogEntry.objects.filter(game=game).order_by("seq"))
    assert entries[1].kind == "system" and entries[1].note == "Entered from the scoresheet by dir"
    assert entries[1].data["scoresheet"] == {"plies": len(pdn.moves), "result": "1/2-1/2",
                                             "opening_plies_skipped": 0}
    moves = [e for e in entries if e.kind == "move"]
    assert len(moves) == len(pdn.moves) and {e.note for e in moves} == {"from the scoresheet"}
    assert {e.actor for e in moves} == {director}
    assert Move.objects.filter(game=game, pdn="29-25").exists()  # written 29x25 on the sheet
    ruling = next(e for e in entries if e.kind == "adjudicate")
    assert ruling.data == {"result": "1/2-1/2", "reason": "Result from the scoresheet, entered by dir"}
    assert log_verify(game).valid


def test_a_wrong_move_is_shown_at_its_number_with_the_legal_moves_and_nothing_is_written(new_game, director,
                                                                                      client_as):
    game = new_game()
    text = _moves_text().replace("5. 8-11 19-15", "5. 8-12 19-15")
    response = _enter(client_as, director, game.pk, moves=text)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "scoresheet_refused"
    details = error["details"]
    assert (details["move_number"], details["side"], details["move"]) == (5, "black", "8-12")
    assert "8-11" in details["legal_moves"] and "Move 5 (black, 8-12)" in error["message"]
    game.refresh_from_db()
    assert (game.ply, game.log_seq, game.status) == (0, 1, "in_progress")


def test_unnumbered_moves_and_a_ballot_opening_written_or_not(new_game, director, client_as, players):
    _pdn, _ = _replayed()
    opening = GameState()
    for text in ("9-13", "23-19", "6-9"):
        opening.push_pdn(text)
    with_opening = new_game(start_fen=opening.position.fen())
    unnumbered = " ".join(token for token in _moves_text().split() if not token.endswith("."))
    response = _enter(client_as, director, with_opening.pk, moves=unnumbered)  # the ballot's moves written too
    assert response.status_code == 201, response.json()
    assert response.json()["ply"] == len(_pdn.moves) - 3
    sheet = LogEntry.objects.get(game=with_opening, kind="system", data__has_key="scoresheet")
    assert sheet.data["scoresheet"]["opening_plies_skipped"] == 3
    without = new_game(start_fen=opening.position.fen())
    after_ballot = _moves_text().split("2. 6-9 ", 1)[1]
    response = _enter(client_as, director, without.pk, moves="27-23 " + after_ballot.split("27-23 ", 1)[1])
    assert response.status_code == 201, response.json()
    assert response.json()["fen"] == with_opening.__class__.objects.get(pk=with_opening.pk).fen


def test_who_may_enter_and_when(new_game, director, referee, make_user, client_as):
    game = new_game()
    outsider = make_user("otherdir", "director")
    for user in (outsider, referee):
        assert _enter(client_as, user, game.pk, moves=_moves_text()).status_code == 403
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    response = _enter(client_as, director, game.pk, moves=_moves_text())
    assert response.status_code == 409 and response.json()["error"]["code"] == "scoresheet_conflict"


def test_bad_scoresheets_get_clear_errors(new_game, director, client_as):
    game = new_game()
    response = _enter(client_as, director, game.pk, moves="1. 11-15 23-19 2. 8-11")
    assert response.status_code == 400 and "result" in response.json()["error"]["details"]["fields"]
    response = _enter(client_as, director, game.pk, moves="1. 11-15 {unclosed comment")
    assert response.status_code == 400 and "line 1" in response.json()["error"]["message"]
    response = _enter(client_as, director, game.pk, moves="1-0 x" * 5000)
    assert response.status_code == 400
    assert _enter(client_as, director, game.pk, moves=_moves_text(), result="1-0").status_code == 400  # disagrees
    game.refresh_from_db()
    assert game.ply == 0


def test_the_page_keeps_the_text_and_shows_the_refused_move(new_game, director, client):
    game = new_game()
    client.force_login(director)
    assert client.get(f"/games/{game.pk}/scoresheet").status_code == 200
    wrong = _moves_text().replace("5. 8-11 19-15", "5. 8-12 19-15")
    page = client.post(f"/games/{game.pk}/scoresheet", {"moves": wrong, "result": ""})
    body = page.content.decode()
    assert page.status_code == 422 and 'data-testid="refused-number">5<' in body and "8-11" in body
    # said once, with why the engine refused it
    assert body.count("is not legal") == 1 and "<code>8-12</code> is not legal: square 12 is occupied." in body
    assert "5. 8-12 19-15" in body  # the text is kept for the correction
    page = client.post(f"/games/{game.pk}/scoresheet", {"moves": _moves_text(), "result": ""})
    assert page.status_code == 302
    game.refresh_from_db()
    assert game.result == "1/2-1/2"

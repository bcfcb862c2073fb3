"""Players confirm a finished game's result (the scoresheet signed), or appeal from the game's page."""

from __future__ import annotations

import pytest

from arbitration.log import log_verify
from arbitration.models import LogEntry
from arbitration.services import game_move_record, ruling_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(new_game, referee, signers):
    game = new_game()
    game_move_record(acting_user=referee, game_id=game.pk, move="11-15")
    ruling_issue(acting_user=referee, game_id=game.pk, kind="resign", side="white")
    return game


def _confirm(client_as, user, game_id):
    return client_as(user).post(f"/api/v1/games/{game_id}/confirm/")


def test_each_player_confirms_the_result_once_on_the_record(finished, signers, client_as):
    black, white = signers
    response = _confirm(client_as, black, finished.pk)
    assert response.status_code == 200
    body = response.json()
    assert body["confirmations"]["black"]["seq"] > 0 and body["confirmations"]["white"] is None
    assert _confirm(client_as, black, finished.pk).status_code == 200  # twice is once
    assert _confirm(client_as, white, finished.pk).json()["confirmations"]["white"] is not None
    entries = LogEntry.objects.filter(game=finished, kind="result_confirmed").order_by("seq")
    assert [(e.side, e.actor, e.data["result"]) for e in entries] == [("black", black, "1-0"), ("white", white, "1-0")]
    assert log_verify(finished).valid


def test_only_the_games_players_confirm_and_only_a_finished_game(new_game, finished, signers, referee, director,
                                                                   make_user, client_as, api_client):
    outsider = make_user("other", "player")
    for user in (outsider, referee, director):
        response = _confirm(client_as, user, finished.pk)
        assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    api_client.force_authenticate(user=None)
    assert api_client.post(f"/api/v1/games/{finished.pk}/confirm/").status_code == 401
    running = new_game()
    response = _confirm(client_as, signers[0], running.pk)
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_not_finished"
    assert _confirm(client_as, signers[0], 999999).status_code == 404
    assert not LogEntry.objects.filter(kind="result_confirmed").exists()


def test_a_result_changed_after_a_confirmation_is_confirmed_again(finished, signers, director, client_as):
    _confirm(client_as, signers[0], finished.pk)
    ending = LogEntry.objects.get(game=finished, kind="game_end")
    ruling_issue(acting_user=director, game_id=finished.pk, kind="correction",
                 payload={"entry": ending.seq, "reason": "the resignation was entered on the wrong game"})
    assert client_as(signers[0]).get(f"/api/v1/games/{finished.pk}/").json()["confirmations"] == {
        "black": None, "white": None}  # the game runs again: nothing to confirm
    ruling_issue(acting_user=director, game_id=finished.pk, kind="adjudicate",
                 payload={"result": "0-1", "reason": "Black resigned, as both players now say"})
    state = client_as(signers[0]).get(f"/api/v1/games/{finished.pk}/").json()
    assert state["result"] == "0-1" and state["confirmations"] == {"black": None, "white": None}


def test_the_game_page_asks_the_player_to_sign_or_appeal(finished, signers, client, director):
    client.force_login(signers[0])
    page = client.get(f"/games/{finished.pk}").content.decode()
    assert 'data-testid="confirm-result"' in page and "not yet confirmed" in page
    response = client.post(f"/games/{finished.pk}/confirm")
    assert response.status_code == 302
    page = client.get(f"/games/{finished.pk}").content.decode()
    assert 'data-testid="confirm-result"' not in page and "confirmed the result" in page
    client.force_login(signers[1])
    form = client.get(f"/games/{finished.pk}/appeal")
    assert form.status_code == 200 and "you do not choose who decides" in form.content.decode()
    assert client.post(f"/games/{finished.pk}/appeal", {"statement": ""}).status_code == 400
    response = client.post(f"/games/{finished.pk}/appeal", {"statement": "I never resigned: I offered a draw."})
    assert response.status_code == 302
    appeal = LogEntry.objects.get(game=finished, kind="appeal")
    ending = LogEntry.objects.get(game=finished, kind="game_end")
    assert (appeal.side, appeal.actor, appeal.data["entry"]) == ("white", signers[1], ending.seq)
    assert appeal.data["statement"] == "I never resigned: I offered a draw."
    client.force_login(director)  # not a player of the game
    assert client.get(f"/games/{finished.pk}/appeal").status_code == 403


def test_a_correction_is_not_confirmable_as_a_ruling(finished, referee, client_as):
    """A confirmation is the players': the ruling endpoint knows no such kind."""
    response = client_as(referee).post(f"/api/v1/games/{finished.pk}/rulings/", {"kind": "result_confirmed"},
                                       format="json")
    assert response.status_code == 400

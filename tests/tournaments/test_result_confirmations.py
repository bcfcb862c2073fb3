"""A tournament's director sees at a glance which results the players have not confirmed."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_manage_page_lists_results_not_confirmed_and_a_finished_tournament_takes_none(director, make_user,
                                                                                            client, client_as):
    players = make_players(2)
    accounts = [make_user(f"p{i}", "player") for i in range(2)]
    for player, account in zip(players, accounts, strict=True):
        player.user = account
        player.save(update_fields=["user"])
    tournament = running_tournament(director, players)
    round_ = play_round(director, tournament)
    games = list(Game.objects.filter(round=round_).order_by("id"))
    client.force_login(director)
    page = client.get("/tournaments/club/manage/").content.decode()
    assert page.count("not yet confirmed by black and white") == len(games) == 2
    first = games[0]
    for account in accounts:
        assert client_as(account).post(f"/api/v1/games/{first.pk}/confirm/").status_code == 200
    page = client.get("/tournaments/club/manage/").content.decode()
    assert page.count("not yet confirmed by") == 1 and f"game {first.pk}<" not in page
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    response = client_as(accounts[0]).post(f"/api/v1/games/{games[1].pk}/confirm/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "tournament_finished"


def test_my_games_asks_the_player_to_sign_each_result_until_he_has(director, make_user, client, client_as):
    players = make_players(2)
    account = make_user("p0", "player")
    players[0].user = account
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players)
    round_ = play_round(director, tournament)
    games = list(Game.objects.filter(round=round_).order_by("id"))
    client.force_login(account)
    page = client.get("/tournaments/me/").content.decode()
    assert page.count('data-testid="to-confirm"') == 2
    assert client_as(account).post(f"/api/v1/games/{games[0].pk}/confirm/").status_code == 200
    page = client.get("/tournaments/me/").content.decode()
    assert page.count('data-testid="to-confirm"') == 1 and f"/games/{games[1].pk}#signatures" in page

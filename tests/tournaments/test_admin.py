"""The admin writes nothing past the services: records are shown there, players changed through the registry."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User

from games.models import Game
from players.models import Player, PlayerLog
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments.models import TournamentLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(client):
    user = User.objects.create_superuser("root", "root@example.org", "a-long-test-password")
    client.force_login(user)
    return user


def test_an_administrator_changes_a_player_on_the_registry_record(client, root):
    player = Player.objects.create(name="Willie Ryan", club="Dublin", rating=1900)
    response = client.post(f"/admin/players/player/{player.pk}/change/", {
        "name": "Willie Ryan", "club": "New York", "federation": "", "federation_id": "", "rating": "2050",
        "user": "",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    player.refresh_from_db()
    assert (player.club, player.rating) == ("New York", 2050)
    entry = PlayerLog.objects.get(player=player, kind="changed")
    assert entry.actor == root and entry.as_administrator is True
    assert entry.changes == {"club": {"before": "Dublin", "after": "New York"},
                             "rating": {"before": 1900, "after": 2050}}


def test_an_administrator_registers_a_player_on_the_record(client, root):
    response = client.post("/admin/players/player/add/", {
        "name": "Asa Long", "club": "Toledo", "federation": "", "federation_id": "", "rating": "", "user": "",
    })
    assert response.status_code == 302
    player = Player.objects.get(name="Asa Long")
    entry = PlayerLog.objects.get(player=player)
    assert (entry.kind, entry.actor, entry.as_administrator) == ("created", root, True)
    assert entry.changes["club"] == {"before": None, "after": "Toledo"}


def test_staff_without_the_administrator_office_cannot_change_players(client):
    staff = User.objects.create_user("clerk", password="a-long-test-password", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["players", "tournaments"]))
    client.force_login(staff)
    player = Player.objects.create(name="Marion Tinsley", rating=2800)
    response = client.post(f"/admin/players/player/{player.pk}/change/", {"name": "X", "rating": "1"})
    assert response.status_code == 403
    player.refresh_from_db()
    assert (player.name, player.rating) == ("Marion Tinsley", 2800)
    assert not PlayerLog.objects.filter(player=player).exists()


def test_tournaments_rounds_and_games_are_shown_in_the_admin_and_never_written(client, root, director):
    tournament = running_tournament(director, make_players(4))
    round_ = play_round(director, tournament)
    rows = TournamentLog.objects.filter(tournament=tournament).count()
    assert client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").status_code == 200
    response = client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", {
        "name": "Renamed", "slug": "club", "status": "finished", "games_per_match": 2,
    })
    assert response.status_code == 403
    assert client.get("/admin/tournaments/tournament/add/").status_code == 403
    assert client.post(f"/admin/tournaments/tournament/{tournament.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"/admin/tournaments/round/{round_.pk}/change/", {"status": "preview"}).status_code == 403
    game = Game.objects.filter(round=round_).first()
    assert client.post(f"/admin/games/game/{game.pk}/change/", {"result": "1-0"}).status_code == 403
    assert client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    tournament.refresh_from_db()
    assert (tournament.name, tournament.status) == ("Club Championship", "running")
    assert TournamentLog.objects.filter(tournament=tournament).count() == rows
    assert client.get("/admin/players/playerlog/").status_code == 200

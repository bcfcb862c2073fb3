"""The pages of a game: the public page, the referee console and the list, by who asks."""

import pytest

from arbitration.services import game_create
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(referee, director):
    black = Player.objects.create(name="Agnes Calder")
    white = Player.objects.create(name="Bram Okafor")
    return game_create(acting_user=director, black=black, white=white, referees=[referee.username])


def test_the_public_page_is_open_to_everyone(client, game):
    response = client.get(f"/games/{game.id}")
    assert response.status_code == 200
    content = response.content.decode()
    assert "Agnes Calder" in content and "Bram Okafor" in content
    assert f"/api/v1/games/{game.id}/pdn" in content
    assert 'data-testid="console-link"' not in content
    assert 'id="initial-state"' in content


def test_the_public_page_carries_the_initial_state(client, game):
    content = client.get(f"/games/{game.id}").content.decode()
    assert '<script id="initial-state" type="application/json">' in content
    assert '"legal_moves": [' in content and '"11-15"' in content


def test_the_public_page_of_a_missing_game_is_404(client):
    assert client.get("/games/999999").status_code == 404


def test_the_public_page_links_the_console_for_its_referee(client, game, referee):
    client.force_login(referee)
    content = client.get(f"/games/{game.id}").content.decode()
    assert f'href="/games/{game.id}/console"' in content


def test_the_console_sends_anonymous_visitors_to_sign_in(client, game):
    response = client.get(f"/games/{game.id}/console")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_the_console_opens_for_the_assigned_referee(client, game, referee):
    client.force_login(referee)
    response = client.get(f"/games/{game.id}/console")
    assert response.status_code == 200
    content = response.content.decode()
    assert 'id="ruling-dialog"' in content
    assert "js/console/main.js" in content


def test_the_console_opens_for_a_director(client, game, director):
    client.force_login(director)
    assert client.get(f"/games/{game.id}/console").status_code == 200


def test_the_console_is_refused_to_a_referee_not_assigned(client, game, make_user):
    client.force_login(make_user("other-ref", "referee"))
    assert client.get(f"/games/{game.id}/console").status_code == 403


def test_the_console_is_refused_to_a_player(client, game, player_user):
    client.force_login(player_user)
    assert client.get(f"/games/{game.id}/console").status_code == 403


def test_the_console_of_a_missing_game_is_404_for_a_director(client, director):
    client.force_login(director)
    assert client.get("/games/999999/console").status_code == 404


def test_the_game_list_links_each_game(client, game):
    response = client.get("/games/")
    assert response.status_code == 200
    assert f'href="/games/{game.id}"' in response.content.decode()


def test_the_console_names_its_service_worker_and_the_worker_is_served_for_the_game_pages(client, game, referee):
    client.force_login(referee)
    content = client.get(f"/games/{game.id}/console").content.decode()
    assert 'data-worker="/games/console-worker.js"' in content and 'data-static="/static/"' in content
    assert 'data-testid="offline-ready" hidden' in content
    client.logout()
    worker = client.get("/games/console-worker.js")  # no sign-in: the browser fetches it by itself
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"  # a new release replaces it at once
    source = worker.content.decode()
    # It keeps only the consoles and the static files, and routes the API and the streams past itself.
    assert 'const STATIC = "/static/";' in source
    assert r"const CONSOLE = /^\/games\/\d{1,18}\/console$/;" in source
    assert '"/api/*", "/live/*"' in source and 'request.method !== "GET"' in source
    assert client.post("/games/console-worker.js").status_code == 405


def test_a_page_for_a_visitor_not_signed_in_deletes_the_consoles_kept_and_a_signed_in_page_does_not(
        client, game, referee):
    assert "js/signed-out.js" in client.get(f"/games/{game.id}").content.decode()
    client.force_login(referee)
    assert "js/signed-out.js" not in client.get(f"/games/{game.id}").content.decode()

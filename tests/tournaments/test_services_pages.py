"""The tournament pages render, and the dashboard's forms call the services (errors become messages)."""

from __future__ import annotations

import pytest
from django.test import Client

from players.models import Player
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_public_pages_render(director):
    players = make_players(4)
    tournament = running_tournament(director, players, opening="three-move-ballot")
    play_round(director, tournament)
    client = _client()
    assert "Club Championship" in client.get("/tournaments/").content.decode()
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'data-testid="standings"' in page and 'data-testid="crosstable"' in page
    assert "standings.csv" in page and f"/api/v1/tournaments/{tournament.slug}/pdn" in page
    assert client.get(f"/tournaments/{tournament.slug}/players/{players[0].pk}/").status_code == 200
    assert client.get(f"/tournaments/players/{players[0].pk}/").status_code == 200
    assert client.get("/tournaments/nope/").status_code == 404


def test_my_games_shows_the_next_game_and_results(director, player_user):
    players = make_players(2)
    players[0].user = player_user
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players, opening="go-as-you-please")
    from tournaments import services

    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    page = _client(player_user).get("/tournaments/me/").content.decode()
    assert 'data-testid="next-game"' in page and "Game " in page
    assert _client().get("/tournaments/me/").status_code == 302


def test_dashboard_is_for_directors_only(director, player_user):
    assert _client(player_user).get("/tournaments/manage/").status_code == 403
    response = _client(director).post("/tournaments/manage/", {
        "name": "Form Cup", "slug": "form-cup", "format": "round_robin", "games_per_match": "2",
        "opening": "go-as-you-please", "rule_set": "standard", "progress_rule": "forty-move-notice",
    })
    assert response.status_code == 302 and response["Location"] == "/tournaments/form-cup/manage/"
    tournament = Tournament.objects.get(slug="form-cup")
    assert list(tournament.directors.all()) == [director]
    assert _client(player_user).get("/tournaments/form-cup/manage/").status_code == 403


def test_dashboard_refusals_come_back_as_messages(director):
    client = _client(director)
    client.post("/tournaments/manage/", {"name": "Form Cup", "slug": "form-cup", "format": "round_robin",
                                         "games_per_match": "2", "opening": "go-as-you-please",
                                         "rule_set": "standard", "progress_rule": "forty-move-notice"})
    response = client.post("/tournaments/form-cup/manage/status", {"status": "running"}, follow=True)
    assert "it can move only to registration" in response.content.decode()
    response = client.post("/tournaments/manage/", {"name": "Odd", "slug": "odd", "format": "round_robin",
                                                    "games_per_match": "3", "opening": "go-as-you-please",
                                                    "rule_set": "standard", "progress_rule": "forty-move-notice"})
    assert response.status_code == 200 and "3 is not one of the available choices" in response.content.decode()
    assert not Tournament.objects.filter(slug="odd").exists()


def test_dashboard_registers_a_new_player_and_corrects_a_result(director):
    players = make_players(2)
    tournament = running_tournament(director, players, opening="go-as-you-please", format="swiss", round_count=2)
    client = _client(director)
    client.post(f"/tournaments/{tournament.slug}/manage/players", {"name": "Late Lad", "rating": "1400"})
    assert Player.objects.filter(name="Late Lad", entries__tournament=tournament).exists()
    round_ = play_round(director, tournament)
    game = round_.games.order_by("id").first()
    new = "1/2-1/2"
    response = client.post(f"/tournaments/{tournament.slug}/manage/results",
                           {"game": game.pk, "result": new, "reason": "misread"}, follow=True)
    assert "recorded" in response.content.decode()
    game.refresh_from_db()
    assert game.result == new


def test_dashboard_pairs_edits_forfeits_and_publishes(director):
    from tournaments.models import Match

    players = make_players(4)
    tournament = running_tournament(director, players, opening="go-as-you-please", format="swiss", round_count=3)
    client = _client(director)
    client.post(f"/tournaments/{tournament.slug}/manage/rounds")
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert page.count('data-testid="preview-match"') == 2 and "Swiss round 1" in page
    ids = [p.pk for p in players]
    client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/pairings",
                {"boards": "3", "one_1": ids[0], "two_1": ids[3], "one_2": ids[1], "two_2": ids[2],
                 "reason": "by hand"})
    assert Match.objects.get(round__number=1, board=1).player_two_id == ids[3]
    client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/forfeit",
                {"board": "2", "winner": ids[1], "reason": "absent"})
    client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/publish")
    assert Match.objects.get(round__number=1, board=2).kind == "forfeit"
    assert tournament.rounds.get(number=1).status == "published"
    assert tournament.rounds.get(number=1).games.count() == 2


def test_dashboard_forms_refuse_bad_numbers_with_a_message(director):
    players = make_players(4)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    from tournaments import services

    services.round_pair(acting_user=director, tournament=tournament)
    client = _client(director)
    base = f"/tournaments/{tournament.slug}/manage"
    for path, data in [
        ("/entries", {"player": "abc"}),
        ("/withdraw", {"player": "x1"}),
        ("/withdraw", {}),
        ("/rounds/1/pairings", {"boards": "two", "reason": "r"}),
        ("/rounds/1/pairings", {"boards": "1", "one_1": "zz", "reason": "r"}),
        ("/rounds/1/forfeit", {"board": "first", "reason": "r"}),
        ("/rounds/1/forfeit", {"board": "1", "winner": "him", "reason": "r"}),
        ("/results", {"game": "g", "result": "1-0", "reason": "r"}),
    ]:
        response = client.post(base + path, data, follow=True)
        assert response.status_code == 200, (path, data)
        assert "must be a number" in response.content.decode(), (path, data)


def test_registering_several_players_is_all_or_nothing(director):
    players = make_players(3)
    from tournaments import services

    tournament = services.tournament_create(acting_user=director, name="Cup", slug="cup")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    services.entry_add(acting_user=director, tournament=tournament, player=players[1])
    response = _client(director).post("/tournaments/cup/manage/entries",
                                      {"player": [players[0].pk, players[1].pk, players[2].pk]}, follow=True)
    assert "already entered" in response.content.decode()
    assert list(tournament.entries.values_list("player_id", flat=True)) == [players[1].pk]
    _client(director).post("/tournaments/cup/manage/entries", {"player": [players[0].pk, players[2].pk]})
    assert tournament.entries.count() == 3


def test_a_late_entry_on_the_dashboard_says_the_preview_must_be_paired_again(director):
    from tournaments import services

    tournament = running_tournament(director, make_players(4), format="swiss", round_count=3,
                                    opening="go-as-you-please")
    services.round_pair(acting_user=director, tournament=tournament)
    late = Player.objects.create(name="Late Comer")
    page = _client(director).post(f"/tournaments/{tournament.slug}/manage/entries", {"player": [late.pk]},
                                  follow=True).content.decode()
    assert "preview was paired without them" in page

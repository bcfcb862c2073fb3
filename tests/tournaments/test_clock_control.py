"""A tournament's clock control: checked when set, given to the games of each round published."""

from __future__ import annotations

import pytest
from django.test import Client

from arbitration.models import GameClock
from games.models import Game
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Tournament, TournamentLog

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/"
PER_MOVE = {"control": "per-move", "move_seconds": 300}


def _api(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user=user)
    return client


def test_a_bad_clock_control_is_refused_naming_the_field(director):
    with pytest.raises(services.InvalidInput) as refused:
        services.tournament_create(acting_user=director, name="Fast", slug="fast",
                                   clock_control={"control": "per-move", "move_seconds": -5})
    assert "clock.move_seconds" in refused.value.details["fields"]
    with pytest.raises(services.InvalidInput) as refused:
        services.tournament_create(acting_user=director, name="Fast", slug="fast", clock_control={"control": "sundial"})
    assert "clock.control" in refused.value.details["fields"]
    assert not Tournament.objects.filter(slug="fast").exists()


def test_published_games_get_the_tournaments_clock(director):
    tournament = running_tournament(director, make_players(2), opening="go-as-you-please", clock_control=PER_MOVE)
    assert tournament.clock_control["control"] == "per-move" and tournament.clock_control["move_seconds"] == 300
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    clocks = GameClock.objects.filter(game__round__tournament=tournament)
    assert clocks.count() == 2
    assert all(c.control["control"] == "per-move" and c.control["move_seconds"] == 300 for c in clocks)


def test_no_clock_control_gives_games_without_clocks(director):
    tournament = running_tournament(director, make_players(2), opening="go-as-you-please",
                                    clock_control={"control": "none"})
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    assert Game.objects.filter(round__tournament=tournament).count() == 2
    assert not GameClock.objects.filter(game__round__tournament=tournament).exists()


def test_the_api_takes_the_clock_under_clock_and_under_clock_control(director):
    api = _api(director)
    response = api.post(BASE, {"name": "A", "slug": "a", "clock": PER_MOVE}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["clock"]["move_seconds"] == 300
    response = api.post(BASE, {"name": "B", "slug": "b", "clock_control": {"control": "moves-in-time", "moves": 30,
                                                                           "seconds": 3600}}, format="json")
    assert response.status_code == 201 and response.json()["clock"]["moves"] == 30
    response = api.post(BASE, {"name": "C", "slug": "c", "clock": {"control": "per-move", "move_seconds": "soon"}},
                        format="json")
    assert response.status_code == 400
    assert "clock.move_seconds" in response.json()["error"]["details"]["fields"]


def test_the_clock_can_be_changed_until_the_tournament_finishes_and_the_change_is_logged(director):
    api = _api(director)
    api.post(BASE, {"name": "A", "slug": "a"}, format="json")
    response = api.patch(f"{BASE}a/", {"clock": PER_MOVE, "reason": "club rule"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["clock"]["control"] == "per-move"
    row = TournamentLog.objects.get(tournament__slug="a", kind="settings_changed")
    assert row.data["clock_control"]["before"] == {} and row.reason == "club rule"
    response = api.patch(f"{BASE}a/", {"clock": {"control": "per-move", "grace_seconds": "x"}}, format="json")
    assert response.status_code == 400


def test_the_dashboard_form_sets_the_clock(director):
    client = Client()
    client.force_login(director)
    response = client.post("/tournaments/manage/", {
        "name": "Form Cup", "slug": "form-cup", "format": "round_robin", "games_per_match": "2",
        "opening": "go-as-you-please", "rule_set": "standard", "progress_rule": "forty-move-notice",
        "clock": "moves-in-time", "clock_moves": "20", "clock_seconds": "1800",
    })
    assert response.status_code == 302
    control = Tournament.objects.get(slug="form-cup").clock_control
    assert (control["control"], control["moves"], control["seconds"]) == ("moves-in-time", 20, 1800)
    response = client.post("/tournaments/form-cup/manage/clock", {"clock": "per-move", "clock_move_seconds": "-1"},
                           follow=True)
    assert "move_seconds" in response.content.decode()
    assert Tournament.objects.get(slug="form-cup").clock_control["control"] == "moves-in-time"
    client.post("/tournaments/form-cup/manage/clock", {"clock": "none"})
    assert Tournament.objects.get(slug="form-cup").clock_control == {}

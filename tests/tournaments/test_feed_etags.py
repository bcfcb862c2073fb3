"""The feeds programs poll (the calendars, a game's and a tournament's PDN) carry an entity tag of what they
say: the same tag while nothing changes, 304 with no body for a client that has it, a new tag after a change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from arbitration.moves import game_move_record
from games.models import Game
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def polled(api_client, url, change):
    """Reads the feed twice, then with its tag, then after ``change()``; returns the tags."""
    first = api_client.get(url)
    assert first.status_code == 200 and first.content and first["Cache-Control"] == "no-cache"
    tag = first["ETag"]
    assert tag.startswith('"') and api_client.get(url)["ETag"] == tag  # nothing changed, nor the tag
    again = api_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    assert api_client.get(url, HTTP_IF_NONE_MATCH=f'W/{tag}').status_code == 304  # weak comparison (RFC 9110)
    assert api_client.get(url, HTTP_IF_NONE_MATCH='"other", ' + tag).status_code == 304
    assert api_client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    change()
    moved = api_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag and moved.content != first.content
    return tag, moved["ETag"]


@pytest.fixture
def round_one(director):
    players = make_players(4)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_schedule_set(acting_user=director, tournament=tournament, number=1,
                                scheduled_at=datetime(2030, 5, 2, 10, 0, tzinfo=UTC))
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return tournament, players, list(Game.objects.filter(round=round_).order_by("id"))


def test_a_tournaments_calendar_answers_304_until_a_round_moves(director, api_client, round_one):
    tournament, _, _ = round_one
    polled(api_client, f"/api/v1/tournaments/{tournament.slug}/calendar.ics",
           lambda: services.round_schedule_set(acting_user=director, tournament=tournament, number=1,
                                               scheduled_at=datetime(2030, 5, 2, 11, 0, tzinfo=UTC)))


def test_a_players_calendar_answers_304_until_his_round_moves(director, api_client, round_one):
    tournament, players, _ = round_one
    polled(api_client, f"/api/v1/players/{players[0].pk}/calendar.ics",
           lambda: services.round_schedule_set(acting_user=director, tournament=tournament, number=1,
                                               scheduled_at=datetime(2030, 5, 3, 10, 0, tzinfo=UTC)))


def test_a_games_and_a_tournaments_pdn_answer_304_until_a_move(director, api_client, round_one):
    tournament, _, games = round_one
    polled(api_client, f"/api/v1/games/{games[0].pk}/pdn",
           lambda: game_move_record(acting_user=director, game_id=games[0].pk, move="11-15"))
    polled(api_client, f"/api/v1/tournaments/{tournament.slug}/pdn",
           lambda: game_move_record(acting_user=director, game_id=games[1].pk, move="11-15"))


def test_a_feeds_error_keeps_the_json_error_body_and_no_tag(api_client):
    response = api_client.get("/api/v1/tournaments/nope/calendar.ics", HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404 and "ETag" not in response
    assert response.json()["error"]["code"]


def test_an_empty_feed_has_its_tag_too(director, api_client):
    """A tournament with no game yet has an empty PDN: Django gives an empty body no tag (the fuzzing run found
    the 500 it made)."""
    running_tournament(director, make_players(4), opening="go-as-you-please")
    first = api_client.get("/api/v1/tournaments/club/pdn")
    assert first.status_code == 200 and first.content == b"" and first["ETag"].startswith('"')
    assert api_client.get("/api/v1/tournaments/club/pdn", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

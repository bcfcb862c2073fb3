"""Calendar feeds: a tournament's rounds and a player's games as iCalendar, with stable UIDs; the director
sets a round's time on the manage page or through the API."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from icalendar import Calendar

from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Match, Round, TournamentLog

pytestmark = pytest.mark.django_db


def events(body: bytes) -> dict[str, object]:
    return {str(e["UID"]): e for e in Calendar.from_ical(body).walk("VEVENT")}


def test_a_tournaments_feed_has_its_dates_and_each_timed_round_under_a_stable_uid(director, client, client_as):
    players = make_players(4)
    tournament = running_tournament(director, players, start_date=date(2030, 5, 2), end_date=date(2030, 5, 3),
                                    venue="Club hall")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    url = f"/api/v1/tournaments/{tournament.slug}/calendar.ics"
    first = events(client.get(url).content)
    assert list(first) == [f"tournament-{tournament.pk}@draughts.invalid"]  # round 1 has no time yet: left out
    whole = first[f"tournament-{tournament.pk}@draughts.invalid"]
    assert whole.decoded("DTSTART") == date(2030, 5, 2) and whole.decoded("DTEND") == date(2030, 5, 4)
    response = client_as(director).put(f"/api/v1/tournaments/{tournament.slug}/rounds/1/schedule",
                                       {"scheduled_at": "2030-05-02T10:00:00+02:00"}, format="json")
    assert response.status_code == 200 and response.json()["scheduled_at"] == "2030-05-02T08:00:00Z"
    response = client.get(url, HTTP_ACCEPT="text/calendar")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    uid = f"tournament-{tournament.pk}-round-1@draughts.invalid"
    feed = events(response.content)
    assert feed[uid].decoded("DTSTART") == datetime(2030, 5, 2, 8, 0, tzinfo=UTC)
    assert str(feed[uid]["LOCATION"]) == "Club hall" and "round 1" in str(feed[uid]["SUMMARY"])
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    client_as(director).put(f"/api/v1/tournaments/{tournament.slug}/rounds/1/schedule",
                            {"scheduled_at": "2030-05-02T11:00:00Z"}, format="json")
    moved = events(client.get(url).content)
    assert set(moved) == set(feed)  # the same events, under the same UIDs: a calendar moves it, not copies it
    assert moved[uid].decoded("DTSTART") == datetime(2030, 5, 2, 11, 0, tzinfo=UTC)
    assert client.get("/api/v1/tournaments/nope/calendar.ics").status_code == 404


def test_a_players_feed_has_his_matches_of_published_timed_rounds(director, client):
    players = make_players(4)
    tournament = running_tournament(director, players)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_schedule_set(acting_user=director, tournament=tournament, number=1,
                                scheduled_at=datetime(2030, 5, 2, 10, 0, tzinfo=UTC))
    url = f"/api/v1/players/{players[0].pk}/calendar.ics"
    assert events(client.get(url).content) == {}  # a preview's pairings may still change
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    match = Match.objects.get(round=round_, player_one=players[0]) if Match.objects.filter(
        round=round_, player_one=players[0]).exists() else Match.objects.get(round=round_, player_two=players[0])
    opponent = match.player_two if match.player_one_id == players[0].pk else match.player_one
    feed = events(client.get(url).content)
    assert list(feed) == [f"match-{match.pk}@draughts.invalid"]
    event = feed[f"match-{match.pk}@draughts.invalid"]
    assert f"board {match.board} v {opponent.name}" in str(event["SUMMARY"])
    assert event.decoded("DTSTART") == datetime(2030, 5, 2, 10, 0, tzinfo=UTC)
    assert str(event["DESCRIPTION"]).count("Game ") == match.games_planned
    assert events(client.get(url).content).keys() == feed.keys()
    assert client.get("/api/v1/players/999999/calendar.ics").status_code == 404


def test_the_director_sets_and_clears_a_rounds_time_on_the_manage_page_and_it_is_logged(director, client):
    tournament = running_tournament(director, make_players(2))
    services.round_pair(acting_user=director, tournament=tournament)
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.slug}/manage/").content.decode()
    assert 'data-testid="schedule-form-1"' in page
    client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/schedule", {"scheduled_at": "2030-05-02T10:00"})
    assert Round.objects.get(tournament=tournament, number=1).scheduled_at == datetime(2030, 5, 2, 10, 0, tzinfo=UTC)
    row = TournamentLog.objects.filter(tournament=tournament, kind="settings_changed").latest("seq")
    assert row.data == {"round": 1, "scheduled_at": {"before": None, "after": "2030-05-02T10:00:00+00:00"}}
    response = client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/schedule",
                           {"scheduled_at": "2030-13-45T99:00"}, follow=True)
    assert "A date and time" in response.content.decode()
    assert Round.objects.get(tournament=tournament, number=1).scheduled_at is not None
    client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/schedule", {"scheduled_at": ""})
    assert Round.objects.get(tournament=tournament, number=1).scheduled_at is None


def test_the_schedule_api_refuses_bad_input_outsiders_and_a_finished_tournament(director, make_user, client_as):
    tournament = running_tournament(director, make_players(2))
    services.round_pair(acting_user=director, tournament=tournament)
    url = f"/api/v1/tournaments/{tournament.slug}/rounds/1/schedule"
    bad = client_as(director).put(url, {"scheduled_at": "soon"}, format="json")
    assert bad.status_code == 400 and "scheduled_at" in bad.json()["error"]["details"]["fields"]
    assert client_as(director).put(url, {}, format="json").status_code == 400
    assert client_as(director).put(f"/api/v1/tournaments/{tournament.slug}/rounds/9/schedule",
                                   {"scheduled_at": None}, format="json").status_code == 404
    outsider = make_user("dir2", "director")
    assert client_as(outsider).put(url, {"scheduled_at": None}, format="json").status_code == 403
    cleared = client_as(director).put(url, {"scheduled_at": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["scheduled_at"] is None

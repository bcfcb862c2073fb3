"""Check-in: who is present is marked before a round is paired; absent players forfeit or are left out."""

from __future__ import annotations

import pytest

from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import Match, Presence, TournamentLog

pytestmark = pytest.mark.django_db


def _mark(client, user, slug, player, present):
    return client(user).post(f"/api/v1/tournaments/{slug}/presence/", {"player": player.pk, "present": present},
                             format="json")


def test_an_absent_players_round_robin_match_is_a_forfeit_to_the_one_present(director, client_as):
    players = make_players(4)
    tournament = running_tournament(director, players)
    response = _mark(client_as, director, "club", players[2], False)
    assert response.status_code == 200
    body = response.json()
    assert body["round"] == 1 and {p["player"]: p["present"] for p in body["players"]}[players[2].pk] is False
    response = client_as(director).post("/api/v1/tournaments/club/rounds/", {}, format="json")
    assert response.status_code == 201
    match = Match.objects.get(round__tournament=tournament, round__number=1, kind=Match.Kind.FORFEIT)
    opponent = match.player_two_id if match.player_one_id == players[2].pk else match.player_one_id
    assert players[2].pk in (match.player_one_id, match.player_two_id) and match.forfeit_winner_id == opponent
    assert Match.objects.filter(round__number=1, round__tournament=tournament, kind="played").count() == 1
    assert any("Absent (check-in): Player 003" in note for note in response.json()["explanation"])
    row = TournamentLog.objects.get(tournament=tournament, kind="presence_marked")
    assert row.data == {"round": 1, "player": players[2].pk, "present": False, "by": "director"}
    paired = TournamentLog.objects.get(tournament=tournament, kind="round_paired")
    assert paired.data["absent"] == [players[2].pk] and paired.data["absent_policy"] == "forfeit"
    # leaving out is a Swiss's choice only
    client_as(director).delete("/api/v1/tournaments/club/rounds/1/")
    response = client_as(director).post("/api/v1/tournaments/club/rounds/", {"absent": "leave_out"}, format="json")
    assert response.status_code == 400 and "absent" in response.json()["error"]["details"]["fields"]


def test_a_swiss_leaves_an_absent_player_out_of_one_round_only(director, client_as):
    players = make_players(5)
    tournament = running_tournament(director, players, format="swiss", round_count=3)
    _mark(client_as, director, "club", players[0], False)
    response = client_as(director).post("/api/v1/tournaments/club/rounds/", {"absent": "leave_out"}, format="json")
    assert response.status_code == 201
    paired = {p for m in Match.objects.filter(round__tournament=tournament, round__number=1)
              for p in (m.player_one_id, m.player_two_id) if p}
    assert players[0].pk not in paired and len(paired) == 4
    assert Presence.objects.get(tournament=tournament, player=players[0]).left_out is True
    services.round_publish(acting_user=director, tournament=tournament, number=1)  # not stale for leaving him out
    assert client_as(director).get("/api/v1/tournaments/club/presence/").json()["round"] == 2
    from tests.tournaments.test_services import finish_games
    from tournaments.models import Round

    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=1))
    services.round_pair(acting_user=director, tournament=tournament)
    paired = {p for m in Match.objects.filter(round__tournament=tournament, round__number=2)
              for p in (m.player_one_id, m.player_two_id) if p}
    assert players[0].pk in paired  # absent for round 1 only


def test_a_player_marks_himself_and_nobody_else(director, make_user, client_as, api_client, client):
    players = make_players(3)
    me, other = make_user("me", "player"), make_user("other", "player")
    players[0].user = me
    players[0].save(update_fields=["user"])
    running_tournament(director, players)
    assert _mark(client_as, me, "club", players[0], True).status_code == 200
    assert _mark(client_as, me, "club", players[1], False).status_code == 403
    assert _mark(client_as, other, "club", players[0], False).status_code == 403
    assert _mark(client_as, make_user("dir2", "director"), "club", players[0], False).status_code == 403
    api_client.force_authenticate(user=None)
    assert api_client.post("/api/v1/tournaments/club/presence/", {"player": players[0].pk, "present": False},
                           format="json").status_code == 401
    row = TournamentLog.objects.get(kind="presence_marked")
    assert row.data["by"] == "player" and row.actor == me
    client.force_login(me)
    page = client.get("/tournaments/club/").content.decode()
    assert 'data-testid="my-check-in"' in page and "marked present" in page
    assert client.post("/tournaments/club/presence", {"player": players[0].pk, "present": "no"}).status_code == 302
    assert Presence.objects.get(player=players[0]).present is False
    client.force_login(director)
    page = client.get("/tournaments/club/manage/").content.decode()
    assert page.count('data-testid="check-in-row"') == 3 and "<strong>absent</strong>" in page

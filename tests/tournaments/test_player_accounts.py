"""Players' accounts: an outsider director takes over no player, a player claims his own record and a keeper
approves it, every link and unlink is on the registry's record; a referee who becomes a player of his game
loses its write access at once (issue 22, items 2 and 4)."""

from __future__ import annotations

import pytest

from games.models import Game
from players.models import Player, PlayerClaim, PlayerLog
from tests.tournaments import test_trust_boundaries
from tests.tournaments.test_trust_boundaries import client_for, game_of
from tournaments import services

clubs_rows = test_trust_boundaries.clubs_rows  # the fixtures: two clubs' running tournaments, built once a module
clubs = test_trust_boundaries.clubs

pytestmark = pytest.mark.django_db


def _draft_with(director, player: Player, slug: str) -> None:
    """The outsider's own tournament, in registration, with the other club's player entered."""
    tournament = services.tournament_create(acting_user=director, name=f"Outsider {slug}", slug=slug)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    assert client_for(director).post(f"/api/v1/tournaments/{slug}/entries/", {"player": player.pk},
                                     format="json").status_code == 201


def _error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"]["code"] == code and body["error"]["message"], body
    return body


# --- item 2: an outsider director takes over no player ----------------------------------------------


def test_an_outsider_director_who_enters_a_player_in_his_own_tournament_cannot_link_him_to_an_account(
        clubs, make_user):
    a, b, player_user = clubs
    victim = a.players[0]  # linked to "pla", plays in club a's running tournament
    crony = make_user("crony", "player")
    _draft_with(b.director, victim, "outsider-draft")
    outsider = client_for(b.director)
    _error(outsider.patch(f"/api/v1/players/{victim.pk}/", {"user": crony.username}, format="json"), 403,
           "permission_denied")
    for change in ({"name": "Renamed"}, {"federation": "XX", "federation_id": "1"}, {"rating": 1},
                   {"club": "Ours"}, {"user": None}):
        _error(outsider.patch(f"/api/v1/players/{victim.pk}/", change, format="json"), 403, "permission_denied")
    victim.refresh_from_db()
    assert (victim.user, victim.name, victim.rating, victim.federation_id) == (player_user, "A Player 1", 1999, "")
    # nor can he register a player linked to an account of his choosing
    _error(outsider.post("/api/v1/players/", {"name": "Shadow", "user": crony.username}, format="json"), 403,
           "permission_denied")
    assert not Player.objects.filter(name="Shadow").exists()
    # the real player still acts as himself: he confirms his own game once it ends
    game = game_of(a, victim)
    assert client_for(a.director).post(f"/api/v1/games/{game.pk}/rulings/", {
        "kind": "adjudicate", "result": "1-0", "reason": "slip"}, format="json").status_code == 201
    assert client_for(player_user).post(f"/api/v1/games/{game.pk}/confirm/", {}, format="json").status_code == 200
    assert client_for(crony).post(f"/api/v1/games/{game.pk}/confirm/", {}, format="json").status_code == 403


def test_no_director_links_an_account_of_his_choosing_even_to_a_player_he_registered(clubs, make_user):
    a, _, _ = clubs
    crony = make_user("crony", "player")
    player = a.players[1]
    _error(client_for(a.director).patch(f"/api/v1/players/{player.pk}/", {"user": crony.username}, format="json"),
           403, "permission_denied")
    player.refresh_from_db()
    assert player.user is None
    assert not PlayerLog.objects.filter(player=player, kind="linked").exists()


def test_an_outsider_director_cannot_approve_a_cronys_claim_on_a_player_he_entered(clubs, make_user, django_user_model):
    a, b, _ = clubs
    target = a.players[1]  # not linked yet
    crony = make_user("crony", "player")
    _draft_with(b.director, target, "outsider-draft")
    response = client_for(crony).post(f"/api/v1/players/{target.pk}/claim/", {"statement": "me"}, format="json")
    assert response.status_code == 201, response.content
    claim = response.json()["id"]
    _error(client_for(b.director).post(f"/api/v1/player-claims/{claim}/decision", {"decision": "approve"},
                                       format="json"), 403, "permission_denied")
    # once another director's tournament holds the player, his registrar is no longer his keeper either
    _error(client_for(a.director).post(f"/api/v1/player-claims/{claim}/decision", {"decision": "approve"},
                                       format="json"), 403, "permission_denied")
    target.refresh_from_db()
    assert target.user is None
    # a federation administrator decides
    admin = django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")
    response = client_for(admin).post(f"/api/v1/player-claims/{claim}/decision",
                                      {"decision": "refuse", "reason": "not him"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "refused"
    row = PlayerLog.objects.get(player=target, kind="claim_refused")
    assert (row.actor, row.account, row.as_administrator, row.reason) == (admin, crony, True, "not him")


# --- item 2: the player claims his record, his keeper approves ---------------------------------------


def test_a_player_claims_his_record_and_the_director_who_registered_him_approves(clubs, make_user, client):
    a, b, _ = clubs
    player = a.players[2]
    me = make_user("ann", "player")
    # the page offers the claim
    client.force_login(me)
    page = client.get(f"/tournaments/players/{player.pk}/").content.decode()
    assert 'data-testid="claim-form"' in page
    response = client_for(me).post(f"/api/v1/players/{player.pk}/claim/", {"statement": "Club a, board 3"},
                                   format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "pending" and body["user"] == "ann" and body["player"] == {"id": player.pk,
                                                                                        "name": player.name}
    # a second claim of his waits for the first
    _error(client_for(me).post(f"/api/v1/players/{a.players[3].pk}/claim/", {}, format="json"), 409,
           "claim_conflict")
    # the outsider sees nothing of it, the keeper sees it and the claimant sees his own
    assert client_for(b.director).get(f"/api/v1/players/{player.pk}/claims/").json() == []
    assert [c["id"] for c in client_for(a.director).get(f"/api/v1/players/{player.pk}/claims/").json()] == [body["id"]]
    assert client_for(None).get(f"/api/v1/players/{player.pk}/claims/").status_code == 401
    _error(client_for(a.director).post(f"/api/v1/player-claims/{body['id']}/decision", {"decision": "refuse"},
                                       format="json"), 400, "validation_error")
    _error(client_for(a.director).post(f"/api/v1/player-claims/{body['id']}/decision", {"decision": "maybe"},
                                       format="json"), 400, "validation_error")
    _error(client_for(me).post(f"/api/v1/player-claims/{body['id']}/decision", {"decision": "approve"},
                               format="json"), 403, "permission_denied")
    response = client_for(a.director).post(f"/api/v1/player-claims/{body['id']}/decision", {"decision": "approve"},
                                           format="json")
    assert response.status_code == 200 and response.json()["status"] == "approved"
    player.refresh_from_db()
    assert player.user == me
    _error(client_for(a.director).post(f"/api/v1/player-claims/{body['id']}/decision", {"decision": "approve"},
                                       format="json"), 409, "claim_conflict")
    # on the registry's record, shown to him: his claim, the link, by whom
    kinds = [(row["kind"], row["actor"], row["account"])
             for row in client_for(me).get(f"/api/v1/players/{player.pk}/log/").json()]
    assert kinds[-2:] == [("claimed", "ann", "ann"), ("linked", a.director.username, "ann")]
    client.force_login(me)
    mine = client.get("/tournaments/me/").content.decode()
    assert "you claimed the player" in mine and "linked to the player" in mine
    page = client.get(f"/tournaments/players/{player.pk}/").content.decode()
    assert 'data-testid="linked-self"' in page and 'data-testid="account-record"' in page
    # nobody else claims a linked player
    _error(client_for(make_user("bob", "player")).post(f"/api/v1/players/{player.pk}/claim/", {}, format="json"),
           409, "claim_conflict")
    _error(client_for(me).post("/api/v1/player-claims/999999/decision", {"decision": "approve"}, format="json"),
           404, "claim_not_found")


def test_the_keeper_approves_from_the_players_page_and_the_claimant_withdraws_from_it(clubs, make_user, client):
    a, b, _ = clubs
    player = a.players[3]
    first, second = make_user("ann", "player"), make_user("bob", "player")
    client.force_login(first)
    client.post(f"/tournaments/players/{player.pk}/claim", {"statement": "it is me"})
    claim = PlayerClaim.objects.get(user=first)
    client.post(f"/tournaments/players/{player.pk}/claims/{claim.pk}/withdraw")
    claim.refresh_from_db()
    assert claim.status == "withdrawn"
    client.force_login(second)
    client.post(f"/tournaments/players/{player.pk}/claim", {"statement": "board 4"})
    claim = PlayerClaim.objects.get(user=second, status="pending")
    client.force_login(b.director)  # an outsider's decision is refused, on the page too
    response = client.post(f"/tournaments/players/{player.pk}/claims/{claim.pk}/decide", {"decision": "approve"})
    assert response.status_code == 403
    claim.refresh_from_db()
    assert claim.status == "pending"
    client.force_login(a.director)
    page = client.get(f"/tournaments/players/{player.pk}/").content.decode()
    assert f'data-testid="approve-{claim.pk}"' in page and "board 4" in page
    client.post(f"/tournaments/players/{player.pk}/claims/{claim.pk}/decide", {"decision": "approve"})
    player.refresh_from_db()
    assert player.user == second
    assert list(PlayerLog.objects.filter(player=player).values_list("kind", flat=True).order_by("id")) == [
        "created", "claimed", "claim_withdrawn", "claimed", "linked"]


def test_an_administrator_links_and_unlinks_and_each_is_on_the_record(clubs, make_user, django_user_model):
    a, _, player_user = clubs
    admin = django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")
    other = make_user("other", "player")
    player = a.players[0]
    response = client_for(admin).patch(f"/api/v1/players/{player.pk}/", {"user": other.username}, format="json")
    assert response.status_code == 200
    rows = list(PlayerLog.objects.filter(player=player, kind__in=["linked", "unlinked"]).order_by("id"))
    assert [(r.kind, r.account, r.as_administrator) for r in rows] == [("unlinked", player_user, True),
                                                                       ("linked", other, True)]


# --- item 4: a referee who becomes a player of his game -----------------------------------------------


def test_a_referee_linked_to_a_player_of_his_game_after_assignment_can_no_longer_write_to_it(clubs):
    a, _, _ = clubs
    game = next(g for g in a.games if a.players[0].pk not in (g.black_id, g.white_id))  # no player linked yet
    assert a.referee in game.referees.all()
    black = Player.objects.get(pk=game.black_id)
    # the referee claims the black player's record and the director who registered him approves
    response = client_for(a.referee).post(f"/api/v1/players/{black.pk}/claim/", {}, format="json")
    assert response.status_code == 201
    assert client_for(a.director).post(f"/api/v1/player-claims/{response.json()['id']}/decision",
                                       {"decision": "approve"}, format="json").status_code == 200
    referee = client_for(a.referee)
    _error(referee.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json"), 403,
           "permission_denied")
    _error(referee.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "resign", "side": "white"}, format="json"),
           403, "permission_denied")
    game.refresh_from_db()
    assert game.ply == 0 and game.status != Game.Status.FINISHED and not game.result
    assert referee.get(f"/api/v1/games/{game.pk}/").json()["can_write"] is False
    # the director still writes
    assert client_for(a.director).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                       format="json").status_code == 201


# --- item 2, through the clubs: taking a free player into a club of one's own makes no one his keeper -------------


def test_an_outsider_director_cannot_take_another_directors_free_player_into_a_club_of_his_own_to_rename_him(
        clubs, make_user):
    a, b, _ = clubs
    free = services.player_create(acting_user=a.director, name="Free Agent")  # no club
    draft = services.tournament_create(acting_user=a.director, name="Club a open", slug="club-a-open")
    services.tournament_status_set(acting_user=a.director, tournament=draft, status="registration")
    services.entry_add(acting_user=a.director, tournament=draft, player=free)
    outsider = client_for(b.director)
    made = outsider.post("/api/v1/clubs/", {"name": "Outsiders DC"}, format="json")
    assert made.status_code == 201, made.content
    club = made.json()["id"]
    body = _error(outsider.post(f"/api/v1/clubs/{club}/players/", {"player": free.pk}, format="json"), 403,
                  "permission_denied")
    assert "administrator" in body["error"]["message"]
    _error(outsider.patch(f"/api/v1/clubs/{club}/players/{free.pk}/", {"name": "Renamed", "federation_id": "X-1"},
                          format="json"), 404, "member_not_found")
    free.refresh_from_db()
    assert (free.name, free.club, free.federation_id) == ("Free Agent", "", "")
    assert not PlayerLog.objects.filter(player=free, actor=b.director).exists()
    # nor, before he plays anywhere, to keep him once he does
    loose = services.player_create(acting_user=a.director, name="Loose Agent")
    _error(outsider.post(f"/api/v1/clubs/{club}/players/", {"player": loose.pk}, format="json"), 403,
           "permission_denied")
    # his own director, who keeps the club he registered, and an administrator still take him in
    assert client_for(a.director).post(f"/api/v1/clubs/{a.record.pk}/players/", {"player": free.pk},
                                       format="json").status_code == 201

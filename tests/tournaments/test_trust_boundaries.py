"""Trust boundaries, through the API and the pages: two clubs' tournaments, their directors, referees,
players and arbiters, and outsiders who must change nothing of the other club's."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import pytest
from rest_framework.test import APIClient

from arbitration.models import LogEntry
from clubs import services as club_services
from clubs.models import Club as ClubRecord
from clubs.models import ClubLog, ClubMember
from games.models import Game, Move
from players.models import Player, PlayerClaim, PlayerLog
from tests.support.shared_rows import fresh, module_fixture
from tournaments import services
from tournaments.models import Entry, Match, Round, Tournament, TournamentLog

pytestmark = pytest.mark.django_db


@dataclass
class Club:
    tournament: Tournament
    director: Any
    referee: Any
    arbiter: Any
    players: list[Player]
    games: list[Game]
    record: Any = None  # the club's record (clubs app), its players members of it
    secretary: Any = None  # its secretary, who keeps its players


def _club(make_user, name: str, *, linked_user: Any = None, clock: dict | None = None) -> Club:
    director = make_user(f"dir_{name}", "director")
    referee = make_user(f"ref_{name}", "referee")
    arbiter = make_user(f"arb_{name}", "referee")
    secretary = make_user(f"sec_{name}", "player")  # the club's record and its secretary (clubs app)
    record = club_services.club_create(acting_user=director, name=f"Club record {name}", secretary=secretary)
    players = [services.player_create(acting_user=director, name=f"{name.upper()} Player {i}", rating=2000 - i,
                                      club=record.name) for i in range(1, 5)]
    if linked_user is not None:
        players[0].user = linked_user
        players[0].save(update_fields=["user"])
    tournament = services.tournament_create(acting_user=director, name=f"Club {name}", slug=f"club-{name}",
                                            referees=[referee.username], arbiters=[arbiter.username],
                                            opening="go-as-you-please", clock_control=clock)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    games = list(Game.objects.filter(round=round_).order_by("id"))
    return Club(Tournament.objects.get(pk=tournament.pk), director, referee, arbiter, players, games, record,
                secretary)


def _clubs() -> tuple[Club, Club, Any]:
    from accounts.services import user_create_with_role

    def make_user(username: str, role: str) -> Any:
        return user_create_with_role(username=username, password="a-long-test-password", role=role)

    player_user = make_user("pla", "player")
    return _club(make_user, "a", linked_user=player_user), _club(make_user, "b"), player_user


clubs_rows = module_fixture(_clubs)  # the two clubs, built once for the module's tests


@pytest.fixture
def clubs(clubs_rows):
    """The two clubs' records, read again for the test, and the player user linked to club a's first player."""
    a, b, player_user = clubs_rows
    return (*(Club(*(fresh(getattr(club, f.name)) for f in fields(Club))) for club in (a, b)), fresh(player_user))


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def game_of(club: Club, player: Player) -> Game:
    return next(g for g in club.games if player.pk in (g.black_id, g.white_id))


def snapshot() -> dict[str, Any]:
    """What the outsiders must not change: every row count, and the fields of games, players, tournaments."""
    return {
        "log": list(LogEntry.objects.order_by("id").values_list("id", "kind")),
        "tlog": list(TournamentLog.objects.order_by("id").values_list("id", "kind")),
        "plog": PlayerLog.objects.count(),
        "claims": list(PlayerClaim.objects.order_by("id").values_list("id", "status", "user_id")),
        "moves": Move.objects.count(),
        "games": list(Game.objects.order_by("id").values_list("id", "status", "result", "ply", "log_seq")),
        "referees": list(Game.referees.through.objects.order_by("id").values_list("game_id", "user_id")),
        "players": list(Player.objects.order_by("id").values_list("id", "name", "club", "rating", "user_id")),
        "tournaments": list(Tournament.objects.order_by("id").values_list("id", "name", "status",
                                                                         "appeal_window_minutes", "opening", "deck",
                                                                         "games_per_match", "score_by")),
        "staff": [sorted(t.referees.values_list("id", flat=True)) + sorted(t.arbiters.values_list("id", flat=True))
                  for t in Tournament.objects.order_by("id")],
        "entries": list(Entry.objects.order_by("id").values_list("id", "status")),
        "rounds": list(Round.objects.order_by("id").values_list("id", "status", "scheduled_at")),
        "matches": list(Match.objects.order_by("id").values_list("id", "kind", "player_one_id", "player_two_id")),
        "clubs": list(ClubRecord.objects.order_by("id").values_list("id", "name", "short_name", "contact",
                                                                    "secretary_id")),
        "members": list(ClubMember.objects.order_by("id").values_list("player_id", "club_id")),
        "club_log": ClubLog.objects.count(),
        **_webhooks_snapshot(),
    }


def _webhooks_snapshot() -> dict[str, Any]:
    from integrations.models import Webhook, WebhookDelivery

    return {"webhooks": list(Webhook.objects.order_by("id").values_list("id", "url", "events", "active")),
            "deliveries": list(WebhookDelivery.objects.order_by("id").values_list("id", "status", "attempts"))}


def _webhook_writes(club: Club) -> tuple[list[tuple[str, str, dict]], list[tuple[str, str, dict]]]:
    """The writes on the club's webhooks (integrations): register, change, delete, send again (API and page)."""
    from integrations.models import WebhookDelivery

    t = club.tournament.slug
    api = [("post", "/api/v1/webhooks/", {"tournament": t, "url": "https://example.org/h", "events": ["move"]})]
    pages = [("page", f"/tournaments/{t}/webhooks/add", {"url": "https://example.org/h", "events": ["move"]})]
    delivery = WebhookDelivery.objects.filter(webhook__tournament=club.tournament).first()
    if delivery is not None:
        api += [("patch", f"/api/v1/webhooks/{delivery.webhook_id}/", {"active": False}),
                ("delete", f"/api/v1/webhooks/{delivery.webhook_id}/", {}),
                ("post", f"/api/v1/webhook-deliveries/{delivery.pk}/resend", {})]
        pages += [("page", f"/tournaments/{t}/webhooks/{delivery.webhook_id}/toggle", {}),
                  ("page", f"/tournaments/{t}/webhooks/{delivery.webhook_id}/delete", {}),
                  ("page", f"/tournaments/{t}/webhooks/deliveries/{delivery.pk}/resend", {})]
    return api, pages


def _webhook_with_a_delivery(club: Club) -> None:
    from django.utils import timezone

    from integrations.models import Webhook, WebhookDelivery, WebhookStream

    hook = Webhook.objects.create(tournament=club.tournament, url="https://example.org/hook", events=["move"],
                                  secret="s" * 64, created_by=club.director)
    stream = WebhookStream.objects.create(webhook=hook, key=f"g:{club.games[0].pk}", last_seq=2)
    WebhookDelivery.objects.create(webhook=hook, stream=stream, seq=2, event="move", body="{}", status="failed",
                                   attempts=5, next_attempt_at=timezone.now(), give_up_at=timezone.now())


def write_endpoints(club: Club, outsider_player: Player) -> list[tuple[str, str, dict]]:
    """Every write of the API and the pages on one club's tournament, its games and its players.

    From config/api_urls.py and the POST views of tournaments/views.py (arbitration/views.py
    has none). Creating a tournament, a standalone game or a new player (and the CSV import,
    which only creates) is open to any director: they change nothing of another club's.
    """
    t, player = club.tournament.slug, club.players[1]
    game = next(g for g in club.games if club.players[0].pk not in (g.black_id, g.white_id))  # not the player's
    slug_api = f"/api/v1/tournaments/{t}"
    api = [
        ("patch", f"/api/v1/players/{player.pk}/", {"name": "Renamed", "rating": 1, "club": "Other"}),
        ("patch", f"{slug_api}/", {"name": "Renamed"}),
        ("patch", f"{slug_api}/", {"games_per_match": 4, "score_by": "game", "deck": "computer-tough"}),
        ("post", f"{slug_api}/entries/", {"player": outsider_player.pk}),
        ("delete", f"{slug_api}/entries/{player.pk}/", {"reason": "x"}),
        ("post", f"{slug_api}/status/", {"status": "finished"}),
        ("post", f"{slug_api}/referees/", {"referees": []}),
        ("post", f"{slug_api}/arbiters/", {"arbiters": []}),
        ("post", f"{slug_api}/rounds/", {}),
        ("post", f"{slug_api}/results/", {"game": game.pk, "result": "0-1", "reason": "x"}),
        ("post", f"{slug_api}/results/", {"game": game.pk, "result": "0-1", "reason": "x", "forfeit": True}),
        ("post", f"{slug_api}/results/undo/", {"game": game.pk}),
        ("post", f"{slug_api}/entries/import/", {"csv": "New One, Leeds\n", "dry_run": False}),
        ("post", f"{slug_api}/entries/import/", {"csv": "New One, Leeds\n"}),
        ("delete", f"{slug_api}/rounds/2/", {}),
        ("put", f"{slug_api}/rounds/2/pairings/", {"pairings": [[club.players[0].pk, club.players[1].pk]],
                                                  "reason": "x"}),
        ("post", f"{slug_api}/rounds/2/forfeits/", {"board": 1, "winner": None, "reason": "x"}),
        ("post", f"{slug_api}/rounds/2/publish", {}),
        ("put", f"{slug_api}/rounds/2/schedule", {"scheduled_at": "2030-01-01T10:00:00Z"}),
        ("put", f"{slug_api}/rounds/1/schedule", {"scheduled_at": "2031-02-03T09:30:00+01:00"}),
        ("post", f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}),
        ("post", f"/api/v1/games/{game.pk}/referees/", {"referees": []}),
        ("post", f"/api/v1/games/{game.pk}/confirm/", {}),
        ("post", f"{slug_api}/presence/", {"player": player.pk, "present": False}),
        ("post", f"/api/v1/games/{game.pk}/scoresheet/", {"moves": "1. 11-15 23-19 1-0"}),
        ("post", f"/api/v1/players/{player.pk}/unlink/", {"reason": "x"}),
        ("post", f"{slug_api}/rounds/1/scoresheets/", {"pdn": '[Black "A"]\n[White "B"]\n1. 11-15 1-0'}),
        ("post", f"{slug_api}/byes/", {"player": player.pk, "round": 2, "kind": "zero"}),
        ("post", f"{slug_api}/byes/cancel/", {"player": player.pk, "round": 2}),
        ("post", f"{slug_api}/prohibitions/", {"players": [club.players[0].pk, player.pk]}),
        ("delete", f"{slug_api}/prohibitions/1/", {}),
    ]
    for kind, body in [
        ("adjudicate", {"result": "0-1", "reason": "x"}), ("resign", {"side": "black"}),
        ("draw_agreed", {}), ("false_move", {"side": "black", "move": "9-13"}), ("conduct", {"side": "white"}),
        ("correction", {"entry": 1, "reason": "x"}), ("spectator", {"note": "x"}),
        ("appeal", {"entry": 1, "statement": "x"}), ("appeal_decision", {"appeal": 1, "decision": "upheld",
                                                                         "reason": "x"}),
        ("clock_start", {}), ("clock_adjust", {"side": "black", "seconds": 10}),
    ]:
        api.append(("post", f"/api/v1/games/{game.pk}/rulings/", {"kind": kind, **body}))
    pages = [
        ("page", f"/tournaments/{t}/manage/{name}", data) for name, data in [
            ("status", {"status": "finished"}), ("clock", {"control": "none"}), ("referees", {"referees": ""}),
            ("openings", {"opening": "two-move-ballot", "games_per_match": "4", "score_by": "game"}),
            ("game-referees", {"game": game.pk, "referees": ""}), ("arbiters", {"arbiters": ""}),
            ("entries", {"player": outsider_player.pk}), ("players", {"name": "New"}),
            ("withdraw", {"player": player.pk}), ("rounds", {}),
            ("rounds/2/pairings", {"boards": 0, "reason": "x"}), ("rounds/2/forfeit", {"board": 1, "reason": "x"}),
            ("rounds/2/publish", {}), ("rounds/2/discard", {}),
            ("rounds/2/schedule", {"scheduled_at": "2030-01-01T10:00"}),
            ("results", {"game": game.pk, "result": "0-1", "reason": "x"}),
            ("pairing", {"pairing_system": "dutch", "acceleration": "none", "half_point_byes": 1,
                         "byes_closed_rounds": 0}),
            ("byes", {"player": player.pk, "round": 2, "kind": "zero"}), ("prohibitions", {"players": player.pk}),
            ("import", {"csv": "New One, Leeds\n", "confirm": "yes"}), ("import", {"csv": "New One, Leeds\n"}),
        ]
    ] + [("page", f"/games/{game.pk}/confirm", {}), ("page", f"/games/{game.pk}/appeal", {"statement": "x"}),
         ("page", f"/games/{game.pk}/scoresheet", {"moves": "1. 11-15 23-19 1-0"}),
         ("page", f"/tournaments/{t}/presence", {"player": player.pk, "present": "no"}),
         ("page", f"/tournaments/{t}/bye", {"player": player.pk, "round": 2, "kind": "zero"}),
         ("page", f"/tournaments/players/{player.pk}/unlink", {"reason": "x"}),
         ("page", f"/tournaments/{t}/manage/rounds/1/scoresheets", {"pdn": '[Black "A"]\n[White "B"]\n1. 11-15 1-0'})]
    if club.record is not None:  # the club's record: its keepers (secretary, registering director) write it
        c = club.record.pk
        api += [("patch", f"/api/v1/clubs/{c}/", {"contact": "x", "secretary": None}),
                ("post", f"/api/v1/clubs/{c}/players/", {"player": outsider_player.pk}),
                ("patch", f"/api/v1/clubs/{c}/players/{player.pk}/", {"name": "Renamed"}),
                ("delete", f"/api/v1/clubs/{c}/players/{player.pk}/", {"reason": "x"}),
                ("post", "/api/v1/rating-lists/import",  # an administrator's
                 {"federation": "ACF", "csv": f"id,name,rating\n9,{player.name},1\n", "create_missing": True})]
        pages += [("page", f"/clubs/{c}/members/{name}", data) for name, data in [
            ("add", {"player": outsider_player.pk}), ("change", {"player": player.pk, "name": "Renamed"}),
            ("remove", {"player": player.pk, "reason": "x"})]]
    claim = PlayerClaim.objects.filter(player__in=club.players, status="pending").first()
    if claim is not None:  # a claim waiting on one of the club's players: its keeper decides, its claimant withdraws
        api += [("post", f"/api/v1/player-claims/{claim.pk}/decision", {"decision": "approve"}),
                ("post", f"/api/v1/player-claims/{claim.pk}/withdraw", {})]
        pages += [("page", f"/tournaments/players/{claim.player_id}/claims/{claim.pk}/decide", {"decision": "approve"}),
                  ("page", f"/tournaments/players/{claim.player_id}/claims/{claim.pk}/withdraw", {})]
    hook_api, hook_pages = _webhook_writes(club)
    return api + hook_api + pages + hook_pages


def test_every_write_endpoint_refuses_outsiders_players_and_the_public(clubs, client, make_user):
    a, b, player_user = clubs
    services.round_pair(acting_user=a.director, tournament=a.tournament)  # a preview for the round endpoints
    services.player_claim(acting_user=make_user("claimant", "player"), player=a.players[1])  # one waiting
    _webhook_with_a_delivery(a)  # a webhook with a delivery given up, for the integrations' writes
    before = snapshot()
    outsiders = {"outsider director": b.director, "outsider referee": b.referee, "player": player_user,
                 "outsider club secretary": b.secretary, "public": None}
    for who, user in outsiders.items():
        for method, url, body in write_endpoints(a, b.players[0]):
            if method == "page":
                client.logout()
                if user is not None:
                    client.force_login(user)
                response = client.post(url, body)
                allowed = {403, 404} if user is not None else {302}
                if user is None:
                    assert response.status_code == 302 and "/accounts/login/" in response["Location"], (who, url)
                    continue
            else:
                response = getattr(client_for(user), method)(url, body, format="json")
                allowed = {403, 404} if user is not None else {401, 403}
            assert response.status_code in allowed, (who, method, url, body, response.status_code,
                                                     getattr(response, "content", b"")[:300])
    assert snapshot() == before


def test_an_outsider_director_cannot_move_adjudicate_or_correct_a_tournament_game(clubs):
    a, b, _ = clubs
    game = a.games[0]
    outsider = client_for(b.director)
    assert outsider.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json").status_code == 403
    assert outsider.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "adjudicate", "result": "0-1",
                                                               "reason": "x"}, format="json").status_code == 403
    own = client_for(a.director)
    assert own.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "adjudicate", "result": "1-0", "reason": "slip"},
                    format="json").status_code == 201
    end = LogEntry.objects.filter(game=game, kind="game_end").get()
    response = outsider.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "correction", "entry": end.seq,
                                                                   "reason": "x"}, format="json")
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.result == "1-0"
    # the tournament's own director's ruling is on the tournament's record
    row = TournamentLog.objects.get(tournament=a.tournament, kind="game_ruling")
    assert row.data == {"game": game.pk, "entry": end.seq, "ruling": "adjudicate", "before": None, "result": "1-0"}
    assert row.actor == a.director


def test_the_assigned_referee_and_the_director_of_the_tournament_write_its_games(clubs):
    a, b, _ = clubs
    game = a.games[0]
    assert [u.username for u in game.referees.all()] == [a.referee.username]
    assert client_for(a.referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                      format="json").status_code == 201
    assert client_for(a.director).post(f"/api/v1/games/{game.pk}/moves/", {"move": "22-18"},
                                       format="json").status_code == 201
    # a referee of the tournament not assigned to this game may not
    other = next(g for g in a.games if g.pk != game.pk)
    other.referees.clear()
    assert client_for(a.referee).post(f"/api/v1/games/{other.pk}/moves/", {"move": "11-15"},
                                      format="json").status_code == 403


def test_a_superuser_writes_as_federation_administrator_and_the_record_says_so(clubs, django_user_model):
    a, _, _ = clubs
    admin = django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")
    game = a.games[0]
    assert client_for(admin).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                  format="json").status_code == 201
    move_entry = LogEntry.objects.filter(game=game, kind="move").get()
    assert "federation administrator" in move_entry.note
    assert client_for(admin).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "adjudicate", "result": "1-0",
                                                                        "reason": "review"},
                                  format="json").status_code == 201
    row = TournamentLog.objects.get(tournament=a.tournament, kind="game_ruling")
    assert row.data["as"] == "federation administrator"


def test_a_standalone_game_is_written_by_its_creator_only(clubs, players_pair):
    a, b, _ = clubs
    created = client_for(a.director).post("/api/v1/games/", {"black": players_pair[0].pk,
                                                            "white": players_pair[1].pk}, format="json")
    assert created.status_code == 201
    game_id = created.json()["id"]
    assert Game.objects.get(pk=game_id).created_by == a.director
    assert client_for(b.director).post(f"/api/v1/games/{game_id}/moves/", {"move": "11-15"},
                                       format="json").status_code == 403
    assert client_for(a.director).post(f"/api/v1/games/{game_id}/moves/", {"move": "11-15"},
                                       format="json").status_code == 201


@pytest.fixture
def players_pair(db):
    return Player.objects.create(name="Solo One"), Player.objects.create(name="Solo Two")


# --- 2. results change only on the tournament's record --------------------------------------------


def _finish_all(club: Club) -> None:
    for game in Game.objects.filter(round__tournament=club.tournament).exclude(status="finished"):
        services.game_result_set(acting_user=club.director, tournament=club.tournament, game_id=game.pk,
                                 result="1/2-1/2", reason="slip")


def _finish_tournament(club: Club) -> None:
    _finish_all(club)
    while True:
        try:
            round_ = services.round_pair(acting_user=club.director, tournament=club.tournament)
        except services.PairingUnavailable:
            break
        except services.RoundConflict:
            break
        services.round_publish(acting_user=club.director, tournament=club.tournament, number=round_.number)
        _finish_all(club)
    services.tournament_status_set(acting_user=club.director, tournament=club.tournament, status="finished")


def test_a_finished_tournaments_games_refuse_writes_until_its_director_reopens_it_with_a_reason(clubs):
    a, _, _ = clubs
    _finish_tournament(a)
    game = a.games[0]
    end = LogEntry.objects.filter(game=game, kind="game_end", superseded_by__isnull=True).get()
    director = client_for(a.director)
    response = director.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "correction", "entry": end.seq,
                                                                   "reason": "late"}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "tournament_finished"
    response = director.post(f"/api/v1/tournaments/{a.tournament.slug}/status/", {"status": "running"},
                             format="json")
    assert response.status_code == 400 and "reason" in response.json()["error"]["details"]["fields"]
    response = director.post(f"/api/v1/tournaments/{a.tournament.slug}/status/",
                             {"status": "running", "reason": "scoresheet error on board 1"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "running"
    reopened = TournamentLog.objects.filter(tournament=a.tournament, kind="status_changed").last()
    assert (reopened.from_status, reopened.to_status, reopened.reason) == ("finished", "running",
                                                                           "scoresheet error on board 1")
    response = director.post(f"/api/v1/tournaments/{a.tournament.slug}/results/",
                             {"game": game.pk, "result": "1-0", "reason": "scoresheet"}, format="json")
    assert response.status_code == 200


def test_every_ruling_that_changes_a_result_is_on_the_tournaments_log(clubs):
    a, _, _ = clubs
    game = a.games[0]
    referee = client_for(a.referee)
    assert referee.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "false_move", "side": "black", "move": "9-13"},
                        format="json").status_code == 201
    forfeit = TournamentLog.objects.get(tournament=a.tournament, kind="game_ruling")
    assert forfeit.data["ruling"] == "false_move" and forfeit.data["result"] == "0-1"
    end = LogEntry.objects.filter(game=game, kind="game_end", superseded_by__isnull=True).get()
    assert client_for(a.director).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "correction", "entry": end.seq,
                                                                           "reason": "mistaken"},
                                       format="json").status_code == 201
    rows = list(TournamentLog.objects.filter(tournament=a.tournament, kind="game_ruling").order_by("id"))
    assert [(r.data["ruling"], r.data["before"], r.data["result"]) for r in rows] == [
        ("false_move", None, "0-1"), ("correction", "0-1", None)]


# --- 3. appeals no party can steer ---------------------------------------------------------------


def _forfeit_and_appeal(club: Club, player_user: Any) -> tuple[Game, int, Any]:
    game = game_of(club, club.players[0])
    side = "black" if game.black_id == club.players[0].pk else "white"
    assert client_for(club.referee).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "false_move", "side": side, "move": "9-13"},
                                         format="json").status_code == 201
    ruling = LogEntry.objects.get(game=game, kind="false_move")
    response = client_for(player_user).post(f"/api/v1/games/{game.pk}/rulings/",
                                            {"kind": "appeal", "entry": ruling.seq, "statement": "I did not"},
                                            format="json")
    return game, ruling.seq, response


def test_a_player_names_no_arbiter_and_an_outsider_cannot_decide_his_appeal(clubs):
    a, b, player_user = clubs
    game = game_of(a, a.players[0])
    side = "black" if game.black_id == a.players[0].pk else "white"
    client_for(a.referee).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "false_move", "side": side, "move": "9-13"},
                               format="json")
    ruling = LogEntry.objects.get(game=game, kind="false_move")
    response = client_for(player_user).post(f"/api/v1/games/{game.pk}/rulings/", {
        "kind": "appeal", "entry": ruling.seq, "statement": "I did not", "arbiter": b.referee.username},
        format="json")
    assert response.status_code == 400 and "arbiter" in response.json()["error"]["details"]["fields"]
    game, _seq, response = _forfeit_and_appeal_again(a, player_user, game, ruling.seq)
    assert response.status_code == 201
    appeal = LogEntry.objects.get(game=game, kind="appeal")
    assert appeal.data["arbiters"] == [a.arbiter.username]
    assert TournamentLog.objects.filter(tournament=a.tournament, kind="appeal_filed").count() == 1
    body = {"kind": "appeal_decision", "appeal": appeal.seq, "decision": "overturned", "result": "1/2-1/2",
            "reason": "x"}
    for outsider in (b.referee, b.director, b.arbiter, a.referee):  # a.referee made the ruling
        assert client_for(outsider).post(f"/api/v1/games/{game.pk}/rulings/", body,
                                         format="json").status_code == 403
    game.refresh_from_db()
    assert game.result != "1/2-1/2"
    # the tournament's director still corrects the result: nothing was decided
    assert client_for(a.director).post(f"/api/v1/tournaments/{a.tournament.slug}/results/",
                                       {"game": game.pk, "result": "1/2-1/2", "reason": "x"},
                                       format="json").status_code == 200


def _forfeit_and_appeal_again(club: Club, player_user: Any, game: Game, seq: int) -> tuple[Game, int, Any]:
    response = client_for(player_user).post(f"/api/v1/games/{game.pk}/rulings/",
                                            {"kind": "appeal", "entry": seq, "statement": "I did not"},
                                            format="json")
    return game, seq, response


def test_the_tournaments_arbiter_decides_finally_and_the_tournaments_record_shows_it(clubs):
    a, _, player_user = clubs
    game, _seq, response = _forfeit_and_appeal(a, player_user)
    assert response.status_code == 201
    appeal = LogEntry.objects.get(game=game, kind="appeal")
    response = client_for(a.arbiter).post(f"/api/v1/games/{game.pk}/rulings/", {
        "kind": "appeal_decision", "appeal": appeal.seq, "decision": "overturned", "result": "1/2-1/2",
        "reason": "the move was legal"}, format="json")
    assert response.status_code == 201, response.json()
    game.refresh_from_db()
    assert game.result == "1/2-1/2"
    decided = TournamentLog.objects.get(tournament=a.tournament, kind="appeal_decided")
    assert decided.actor == a.arbiter and decided.data["decision"] == "overturned"
    again = client_for(a.arbiter).post(f"/api/v1/games/{game.pk}/rulings/", {
        "kind": "appeal_decision", "appeal": appeal.seq, "decision": "upheld", "reason": "x"}, format="json")
    assert again.status_code == 409


def test_an_appeal_needs_a_named_disinterested_arbiter(clubs):
    a, _, player_user = clubs
    services.tournament_arbiters_set(acting_user=a.director, tournament=a.tournament, arbiters=[a.referee.username])
    _game, _seq, response = _forfeit_and_appeal(a, player_user)  # the referee ruled: he cannot decide
    assert response.status_code == 409 and response.json()["error"]["code"] == "no_arbiter"


def test_an_appeal_is_filed_before_the_next_round_is_published(clubs):
    a, _, player_user = clubs
    game = game_of(a, a.players[0])
    side = "black" if game.black_id == a.players[0].pk else "white"
    client_for(a.referee).post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "false_move", "side": side, "move": "9-13"},
                               format="json")
    _finish_all(a)
    round_ = services.round_pair(acting_user=a.director, tournament=a.tournament)
    services.round_publish(acting_user=a.director, tournament=a.tournament, number=round_.number)
    ruling = LogEntry.objects.get(game=game, kind="false_move")
    response = client_for(player_user).post(f"/api/v1/games/{game.pk}/rulings/",
                                            {"kind": "appeal", "entry": ruling.seq, "statement": "late"},
                                            format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "appeal_too_late"


def test_the_director_names_the_arbiters_and_the_appeal_window(clubs):
    a, b, _ = clubs
    director = client_for(a.director)
    response = director.post(f"/api/v1/tournaments/{a.tournament.slug}/arbiters/",
                             {"arbiters": [b.arbiter.username]}, format="json")
    assert response.status_code == 200 and response.json()["arbiters"] == [b.arbiter.username]
    response = director.patch(f"/api/v1/tournaments/{a.tournament.slug}/", {"appeal_window_minutes": 30},
                              format="json")
    assert response.status_code == 200 and response.json()["appeal_window_minutes"] == 30
    assert TournamentLog.objects.filter(tournament=a.tournament, kind="arbiters_named").exists()


# --- 4. referees never judge themselves ------------------------------------------------------------


def test_pairing_never_assigns_a_referee_to_his_own_game(make_user):
    both = make_user("refplayer", "referee")
    other = make_user("zref", "referee")
    director = make_user("dirx", "director")
    players = [Player.objects.create(name=f"P{i}", rating=2000 - i) for i in range(4)]
    players[0].user = both
    players[0].save(update_fields=["user"])
    tournament = services.tournament_create(acting_user=director, name="X", slug="x", opening="go-as-you-please",
                                            referees=[both.username, other.username])
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for p in players:
        services.entry_add(acting_user=director, tournament=tournament, player=p)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    for game in Game.objects.filter(round=round_):
        if players[0].pk in (game.black_id, game.white_id):
            assert list(game.referees.values_list("username", flat=True)) == [other.username]
    own = Game.objects.filter(round=round_).filter(black=players[0]).first() or \
        Game.objects.filter(round=round_, white=players[0]).first()
    response = client_for(director).post(f"/api/v1/games/{own.pk}/referees/", {"referees": [both.username]},
                                         format="json")
    assert response.status_code == 400 and "referees" in response.json()["error"]["details"]["fields"]


def test_a_removed_referee_leaves_the_unfinished_games_and_the_director_is_told(clubs, make_user):
    a, _, _ = clubs
    replacement = make_user("ref_new", "referee")
    game = a.games[0]
    director = client_for(a.director)
    response = director.post(f"/api/v1/tournaments/{a.tournament.slug}/referees/",
                             {"referees": [replacement.username]}, format="json")
    assert response.status_code == 200
    assert response.json()["games_needing_referee"] == sorted(g.pk for g in a.games)
    assert not game.referees.exists()
    assert LogEntry.objects.filter(game=game, kind="referees_changed").exists()
    assert TournamentLog.objects.filter(tournament=a.tournament, kind="referee_removed").exists()
    assert client_for(a.referee).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                      format="json").status_code == 403
    assert client_for(replacement).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                        format="json").status_code == 403
    assert director.post(f"/api/v1/games/{game.pk}/referees/", {"referees": [replacement.username]},
                         format="json").status_code == 200
    assert client_for(replacement).post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"},
                                        format="json").status_code == 201


def test_the_manage_page_lists_the_games_that_need_a_referee(clubs, client):
    a, _, _ = clubs
    client.force_login(a.director)
    response = client.post(f"/tournaments/{a.tournament.slug}/manage/referees", {"referees": ""}, follow=True)
    content = response.content.decode()
    assert "Games that need a new referee" in content
    assert 'data-testid="games-needing-referee"' in content


# --- 5. the player registry is on record -----------------------------------------------------------


def test_only_the_director_who_registered_a_player_changes_him_and_each_change_is_logged(clubs, client):
    a, b, player_user = clubs
    player = a.players[0]
    assert client_for(player_user).get(f"/api/v1/players/{player.pk}/log/").status_code == 200  # his own
    response = client_for(b.director).patch(f"/api/v1/players/{player.pk}/", {"name": "Hijacked", "rating": 1},
                                            format="json")
    assert response.status_code == 403
    assert not PlayerLog.objects.filter(player=player, kind="changed").exists()
    response = client_for(a.director).patch(f"/api/v1/players/{player.pk}/", {"rating": 2100}, format="json")
    assert response.status_code == 200
    row = PlayerLog.objects.get(player=player, kind="changed")
    assert row.actor == a.director
    assert row.changes == {"rating": {"before": 1999, "after": 2100}}
    # his account is his: no director unlinks it, he does
    response = client_for(a.director).patch(f"/api/v1/players/{player.pk}/", {"user": None}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    assert client_for(player_user).post(f"/api/v1/players/{player.pk}/unlink/", {"reason": "new account"},
                                        format="json").status_code == 200
    row = PlayerLog.objects.get(player=player, kind="unlinked")
    assert (row.actor, row.account, row.changes) == (player_user, player_user,
                                                     {"user": {"before": "pla", "after": None}})
    client.force_login(player_user)
    content = client.get("/tournaments/me/").content.decode()
    assert 'data-testid="account-links"' in content and "unlinked from the player" in content
    assert client_for(b.director).get(f"/api/v1/players/{player.pk}/log/").status_code == 403
    rows = client_for(a.director).get(f"/api/v1/players/{player.pk}/log/").json()
    assert rows[-2]["actor"] == a.director.username and rows[-2]["changes"]["rating"]["after"] == 2100
    assert rows[-1]["kind"] == "unlinked" and rows[-1]["account"] == "pla"


def test_a_director_may_not_change_a_player_entered_only_in_another_clubs_tournament(clubs):
    a, b, _ = clubs
    assert client_for(a.director).patch(f"/api/v1/players/{b.players[2].pk}/", {"club": "Ours"},
                                        format="json").status_code == 403
    assert client_for(b.director).patch(f"/api/v1/players/{b.players[2].pk}/", {"club": "Theirs"},
                                        format="json").status_code == 200


def test_a_move_on_a_tournament_game_costs_one_query_more_than_a_standalone_one(clubs, django_assert_num_queries):
    from arbitration.services import game_move_record

    a, _, _ = clubs
    game = a.games[0]
    game_move_record(acting_user=a.referee, game_id=game.pk, move="11-15")
    # the six of a standalone game's move, plus the tournament's answer (its status; director? referee now?)
    with django_assert_num_queries(7):
        game_move_record(acting_user=a.referee, game_id=game.pk, move="22-18")


def test_a_superuser_changing_a_tournament_is_logged_as_federation_administrator(clubs, django_user_model):
    a, _, _ = clubs
    admin = django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")
    response = client_for(admin).patch(f"/api/v1/tournaments/{a.tournament.slug}/", {"venue": "Hall 2"},
                                       format="json")
    assert response.status_code == 200
    row = TournamentLog.objects.filter(tournament=a.tournament, kind="settings_changed").last()
    assert row.actor == admin and row.data["as"] == "federation administrator"


def test_a_loss_by_delay_is_on_the_tournaments_log(make_user):
    from tests.support.clocks import age

    club = _club(make_user, "c", clock={"control": "per-move", "move_seconds": 10, "sole_capture_seconds": 4,
                                        "grace_seconds": 5})
    game = club.games[0]
    referee = client_for(club.referee)
    assert referee.post(f"/api/v1/games/{game.pk}/rulings/", {"kind": "clock_start"}, format="json").status_code == 201
    age(game.pk, 16)
    response = referee.post(f"/api/v1/games/{game.pk}/moves/", {"move": "11-15"}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "game_over"
    row = TournamentLog.objects.get(tournament=club.tournament, kind="game_ruling")
    assert row.actor is None and row.data["ruling"] == "loss_by_delay" and row.data["result"] == "0-1"


def test_a_club_secretary_keeps_his_clubs_players_and_writes_nothing_of_its_tournaments(clubs, client):
    a, b, _ = clubs
    services.round_pair(acting_user=a.director, tournament=a.tournament)
    before = snapshot()
    for method, url, body in write_endpoints(a, b.players[0]):
        if "/clubs/" in url:  # his club's own writes: below
            continue
        if method == "page":
            client.force_login(a.secretary)
            status = client.post(url, body).status_code
        else:
            status = getattr(client_for(a.secretary), method)(url, body, format="json").status_code
        assert status in (403, 404), (method, url, status)
    assert snapshot() == before
    player = a.players[1]
    answer = client_for(a.secretary).patch(f"/api/v1/clubs/{a.record.pk}/players/{player.pk}/",
                                           {"federation_id": "A-1"}, format="json")
    assert answer.status_code == 200
    assert PlayerLog.objects.filter(player=player, actor=a.secretary).count() == 1

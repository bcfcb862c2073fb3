"""The people's pages read in a number of queries that does not grow with the games and players shown.

Each page is read for a small tournament and for a larger one (three times the players, more
rounds played, more boards under way); the two counts must be equal, so that an N+1 (a query
per row) shows as a failure here, and they stay under a small ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arbitration.services import game_move_record
from games.models import Game
from games.rules import Position
from tests.tournaments.test_services import make_players, play_round, running_tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PER_MOVE = {"control": "per-move", "move_seconds": 300}


@dataclass
class World:
    tournament: Tournament
    player_user: object
    referee: object
    rounds_played: int


def _first_legal_move(game: Game) -> str:
    position = Position.from_fen(game.fen)
    return sorted(move.pdn() for move in position.legal_moves(game.engine_rules()))[0]


def _world(director, make_user, *, size: int, rounds_played: int, slug: str) -> World:
    """A running round robin of ``size`` players (ballots, a clock): some rounds played, the next one under way.

    In the round under way, the first game of each match has a move or two made (being played now), the
    second waits; a referee referees every game, and the first player is a signed-in user.
    """
    referee = make_user(f"ref-{slug}", "referee")
    player_user = make_user(f"player-{slug}", "player")
    players = make_players(size)
    for player in players:
        player.name = f"{slug} {player.name}"
        player.save(update_fields=["name"])
    players[0].user = player_user
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players, slug=slug, name=f"Open {slug}", clock_control=PER_MOVE,
                                    referees=[referee.username])
    for _ in range(rounds_played):
        play_round(director, tournament)
    current = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=current.number)
    for game in Game.objects.filter(round__tournament=tournament, round__number=current.number,
                                    match_game__number=1).order_by("id"):
        for _ in range(2):
            game_move_record(acting_user=referee, game_id=game.pk, move=_first_legal_move(game))
            game.refresh_from_db()
    tournament.refresh_from_db()
    return World(tournament=tournament, player_user=player_user, referee=referee, rounds_played=rounds_played)


def _count(url: str, user=None) -> int:
    """Reads the page as the user (None: the public) and returns the number of queries it took."""
    client = Client()
    if user is not None:
        client.force_login(user)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def _standalone_game_under_way(director, make_user) -> Game:
    from arbitration.services import game_create
    from players.models import Player

    game = game_create(acting_user=director, black=Player.objects.create(name="Club Black"),
                       white=Player.objects.create(name="Club White"), clock=PER_MOVE)
    game_move_record(acting_user=director, game_id=game.pk, move="11-15")
    return game


#: The most queries each page may take (the session and the user included when signed in). "me": one more
#: than before for the rounds published in the player's tournaments (whether an appeal may still be filed);
#: "pairings": one more for the head of the round's publication.
CEILING = {"/": 4, "/games/": 3, "/games/?show=finished": 2, "/tournaments/players/": 1, "me": 11, "boards": 5,
           "live": 3, "pairings": 4, "scoresheets": 3, "standings": 4}


def test_the_home_page_live_games_and_players_take_the_same_queries_with_more_tournaments_games_and_players(
        director, make_user):
    urls = ["/", "/games/", "/games/?show=finished", "/tournaments/players/"]
    _world(director, make_user, size=4, rounds_played=1, slug="small")
    before = {url: _count(url) for url in urls}
    _world(director, make_user, size=12, rounds_played=3, slug="large")
    _standalone_game_under_way(director, make_user)
    after = {url: _count(url) for url in urls}
    assert Game.objects.count() == 8 + 48 + 1 and Game.objects.filter(status="in_progress").count() == 4 + 12 + 1
    assert after == before
    assert all(after[url] <= CEILING[url] for url in urls), after


@pytest.fixture
def worlds(director, make_user):
    small = _world(director, make_user, size=4, rounds_played=1, slug="small")
    large = _world(director, make_user, size=12, rounds_played=3, slug="large")
    return small, large


def _people_pages(world: World) -> dict[str, int]:
    slug, current = world.tournament.slug, world.rounds_played + 1
    return {
        "me": _count("/tournaments/me/", world.player_user),
        "boards": _count("/tournaments/me/boards/", world.referee),
        "live": _count(f"/tournaments/{slug}/live/"),
        "pairings": _count(f"/tournaments/{slug}/rounds/{current}/pairings/"),
        "scoresheets": _count(f"/tournaments/{slug}/rounds/{current}/scoresheets/"),
        "standings": _count(f"/tournaments/{slug}/print/standings/"),
    }


def test_my_games_my_boards_the_live_boards_and_the_printed_sheets_take_the_same_queries_at_any_size(worlds):
    small, large = worlds
    assert Game.objects.filter(round__tournament=small.tournament).count() == 8  # 2 rounds of 2 matches of 2
    assert Game.objects.filter(round__tournament=large.tournament).count() == 48  # 4 rounds of 6 matches of 2
    in_small, in_large = _people_pages(small), _people_pages(large)
    assert in_large == in_small
    assert all(in_large[page] <= CEILING[page] for page in in_large), in_large

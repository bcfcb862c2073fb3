"""The "Live games" page (/games/): what is played now across tournaments first, then what waits, then what ended."""

from __future__ import annotations

import pytest
from django.test import Client

from arbitration.services import game_create, game_move_record, ruling_issue
from games.models import Game
from players.models import Player
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services
from tournaments.models import MatchGame

pytestmark = pytest.mark.django_db

PER_MOVE = {"control": "per-move", "move_seconds": 300}


@pytest.fixture
def evening(director, referee):
    """A round robin of 4 with round 1 published (2 boards of 2-game matches, a clock), and two club games.

    Board 1's first game has a move made, board 2's first game has its clock started (no move yet);
    the second games wait. Outside the tournament one club game is under way and one is resigned.
    """
    tournament = running_tournament(director, make_players(4), opening="go-as-you-please", clock_control=PER_MOVE,
                                    referees=[referee.username])
    services.round_publish(acting_user=director, tournament=tournament,
                           number=services.round_pair(acting_user=director, tournament=tournament).number)
    games = {(mg.match.board, mg.number): mg.game for mg in MatchGame.objects.filter(match__round__tournament=tournament)
             .select_related("match", "game")}
    game_move_record(acting_user=referee, game_id=games[1, 1].pk, move="11-15")
    ruling_issue(acting_user=referee, game_id=games[2, 1].pk, kind="clock_start")
    club = [Player.objects.create(name=name) for name in ("Club Black", "Club White", "Early Black", "Early White")]
    club_game = game_create(acting_user=director, black=club[0], white=club[1])
    game_move_record(acting_user=director, game_id=club_game.pk, move="9-13")
    resigned = game_create(acting_user=director, black=club[2], white=club[3])
    ruling_issue(acting_user=director, game_id=resigned.pk, kind="resign", side="white")
    return tournament, games, club_game, resigned


def _ids(cards) -> list[int]:
    return [card.game.pk for card in cards]


def test_the_games_being_played_come_first_then_those_waiting_then_the_last_finished(evening):
    tournament, games, club_game, resigned = evening
    response = Client().get("/games/")
    assert response.status_code == 200
    assert _ids(response.context["playing"]) == [games[1, 1].pk, games[2, 1].pk, club_game.pk]
    assert _ids(response.context["waiting"]) == [games[1, 2].pk, games[2, 2].pk]
    assert _ids(response.context["finished"]) == [resigned.pk]
    page = response.content.decode()
    playing, waiting, finished = (page.index(f'data-testid="{name}"') for name in ("playing", "waiting", "finished"))
    assert playing < waiting < finished
    for game in (games[1, 1], games[2, 1], club_game, resigned):  # each a click from its page
        assert f'href="/games/{game.pk}"' in page
    assert f'<a href="/tournaments/{tournament.slug}/">{tournament.name}</a>' in page
    assert f'href="/tournaments/{tournament.slug}/live/"' in page and "Games outside tournaments" in page
    board = page[page.index(f'data-game-id="{games[2, 1].pk}"'):]
    assert "Round 1, board 2.1" in board[:600] and "(clock running)" in board[:900]
    assert f'data-fen="{Game.objects.get(pk=games[1, 1].pk).fen}"' in page  # the board as it stands now
    assert "1-0 · Resignation" in page


def test_a_game_that_starts_or_ends_moves_between_the_lists(evening, referee, director):
    tournament, games, _club_game, _resigned = evening
    game_move_record(acting_user=referee, game_id=games[1, 2].pk, move="9-14")
    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[2, 1].pk, result="0-1",
                             reason="Agreed at the board")
    context = Client().get("/games/").context
    assert games[1, 2].pk in _ids(context["playing"]) and games[1, 2].pk not in _ids(context["waiting"])
    assert games[2, 1].pk not in _ids(context["playing"]) and _ids(context["finished"])[0] == games[2, 1].pk


def test_a_second_game_shows_the_match_score_so_far_black_first(evening, referee, director):
    tournament, games, _club_game, _resigned = evening
    first = Game.objects.get(pk=games[1, 1].pk)
    services.game_result_set(acting_user=director, tournament=tournament, game_id=first.pk, result="1-0",
                             reason="Agreed at the board")
    game_move_record(acting_user=referee, game_id=games[1, 2].pk, move="11-15")
    second = next(card for card in Client().get("/games/").context["playing"] if card.game.pk == games[1, 2].pk)
    assert second.game.black_id == first.white_id  # colours reverse: game 1's winner has White now
    assert second.score == "0–1"
    type(tournament).objects.filter(pk=tournament.pk).update(game_points_win=2, game_points_draw=1)
    assert next(card for card in Client().get("/games/").context["playing"]
                if card.game.pk == games[1, 2].pk).score == "0–2"  # as the tournament counts a win
    type(tournament).objects.filter(pk=tournament.pk).update(game_points_win=1, game_points_draw="0.5")
    assert next(card for card in Client().get("/games/").context["playing"]
                if card.game.pk == games[2, 1].pk).score == "0–0"
    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[1, 2].pk, result="1/2-1/2",
                             reason="Agreed at the board")
    services.game_result_set(acting_user=director, tournament=tournament, game_id=games[2, 1].pk, result="1/2-1/2",
                             reason="Agreed at the board")
    game_move_record(acting_user=referee, game_id=games[2, 2].pk, move="11-15")
    content = Client().get("/games/").content.decode()
    assert '<span data-testid="match-score">0.5–0.5</span>' in content


def test_nothing_under_way_says_so(db):
    response = Client().get("/games/")
    assert response.status_code == 200
    content = response.content.decode()
    assert 'data-testid="nothing-playing"' in content and 'data-testid="nothing-finished"' in content


def test_every_finished_game_is_listed_a_page_at_a_time_newest_first(director, monkeypatch):
    monkeypatch.setattr("config.views.FINISHED_PER_PAGE", 2)
    people = [Player.objects.create(name=f"Player {n}") for n in range(2)]
    ended = []
    for _ in range(5):
        game = game_create(acting_user=director, black=people[0], white=people[1])
        ruling_issue(acting_user=director, game_id=game.pk, kind="resign", side="black")
        ended.append(game.pk)
    under_way = game_create(acting_user=director, black=people[0], white=people[1])
    client = Client()
    first = client.get("/games/?show=finished")
    assert first.status_code == 200 and "playing" not in first.context
    assert _ids(first.context["finished"]) == ended[::-1][:2]
    assert "Page 1 of 3" in first.content.decode() and f'href="/games/{under_way.pk}"' not in first.content.decode()
    assert _ids(client.get("/games/?show=finished&page=3").context["finished"]) == [ended[0]]
    assert _ids(client.get("/games/?show=finished&page=99").context["finished"]) == [ended[0]]  # the last page
    assert _ids(client.get("/games/?show=finished&page=x").context["finished"]) == ended[::-1][:2]  # the first


def test_an_unknown_list_is_refused_with_a_note_and_the_games_being_played(evening):
    _tournament, games, _club_game, _resigned = evening
    response = Client().get("/games/?show=<b>everything</b>")
    assert response.status_code == 400
    content = response.content.decode()
    assert "There is no list of games called “&lt;b&gt;everything&lt;/b&gt;”" in content
    assert games[1, 1].pk in _ids(response.context["playing"])


def test_the_navigation_leads_to_the_games_being_played(evening):
    content = Client().get("/").content.decode()
    assert '<a href="/games/" data-testid="nav-live-games">Live games</a>' in content

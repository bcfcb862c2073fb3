"""Ratings: Glicko-2 against Glickman's published example, and a rated tournament's update."""

from __future__ import annotations

import pytest

from tournaments.ratings import GameScore, Glicko, glicko2_update


def test_glicko2_reproduces_glickmans_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 v 1400/30 (won), 1550/100 (lost),
    1700/300 (lost) -> 1464.06 / 151.52 / 0.05999 (the paper rounds intermediate values)."""
    before = {1: Glicko(1500, 200, 0.06), 2: Glicko(1400, 30), 3: Glicko(1550, 100), 4: Glicko(1700, 300)}
    games = [GameScore(1, 2, 1), GameScore(3, 1, 1), GameScore(1, 4, 0)]
    after = glicko2_update(before, games)
    assert after[1].rating == pytest.approx(1464.06, abs=0.02)
    assert after[1].rd == pytest.approx(151.52, abs=0.01)
    assert after[1].vol == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_idle_player_only_gains_deviation():
    after = glicko2_update({1: Glicko(1600, 100), 2: Glicko(), 3: Glicko()}, [GameScore(2, 3, 0.5)])
    assert after[1].rating == 1600 and after[1].rd > 100


@pytest.mark.django_db
def test_a_rated_tournament_updates_ratings_by_glicko2_and_keeps_the_deviation(director):
    from players.models import Player
    from tests.tournaments.test_services import make_players, play_round, running_tournament
    from tournaments import services
    from tournaments.models import RatingHistory, TournamentLog

    players = make_players(3)
    players[0].rating_deviation, players[0].rating_volatility = 80.0, 0.05
    players[0].save(update_fields=["rating_deviation", "rating_volatility"])
    players[2].rating = None
    players[2].save(update_fields=["rating"])
    idle = Player.objects.create(name="Never Played", rating=1700)
    tournament = running_tournament(director, [*players, idle], rated=True, opening="go-as-you-please")
    services.entry_withdraw(acting_user=director, tournament=tournament, player=idle, reason="ill")
    for _ in range(3):
        play_round(director, tournament)  # 3 players + the withdrawn one: byes and forfeits, not rated
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")

    before = {players[0].pk: Glicko(players[0].rating, 80.0, 0.05), players[1].pk: Glicko(players[1].rating, 200.0),
              players[2].pk: Glicko(1500, 350.0)}
    from games.models import Game

    games = [GameScore(g.black_id, g.white_id, {"1-0": 1, "0-1": 0}.get(g.result, 0.5))
             for g in Game.objects.filter(round__tournament=tournament)]
    expected = glicko2_update(before, games)
    history = {h.player_id: h for h in RatingHistory.objects.filter(tournament=tournament)}
    assert set(history) == set(before)  # the idle player has no row and keeps his rating
    assert Player.objects.get(pk=idle.pk).rating == 1700
    for pid, glicko in expected.items():
        player = Player.objects.get(pk=pid)
        assert player.rating == history[pid].rating_after == round(glicko.rating)
        assert player.rating_deviation == pytest.approx(glicko.rd) == history[pid].deviation_after
        assert player.rating_volatility == pytest.approx(glicko.vol)
        assert history[pid].deviation_before == before[pid].rd
    assert history[players[0].pk].rating_after > history[players[0].pk].rating_before
    assert history[players[2].pk].rating_before is None
    assert TournamentLog.objects.get(tournament=tournament, kind="ratings_updated").data["method"] == "glicko2"

"""The results for the rating bodies: the game-by-game CSV, the TRF adapted to rounds of games, the ACF rating."""

from __future__ import annotations

import csv
import io

import pytest

from games.models import Game
from players.models import Player
from tests.tournaments.test_services import finish_games, make_players, running_tournament
from tournaments import elo, selectors, services
from tournaments.models import Entry, Match, MatchGame, Round
from tournaments.pairing.trf import parse_trf

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(director):
    """A Swiss of 5 (a bye a round): round 1 played game by game, round 2 with a forfeit; federation data set."""
    players = make_players(5)
    for i, player in enumerate(players, start=1):
        Player.objects.filter(pk=player.pk).update(
            name=f"Player {i:03d} Fullname", federation="ACF", federation_id=f"10{i}",
            federation_rating=None if i == 5 else 1900 - 50 * i, federation_games=None if i == 5 else 20 * i)
    tournament = running_tournament(director, players, format="swiss", round_count=2, opening="go-as-you-please")
    round_one = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    results = iter(["1-0", "1/2-1/2", "0-1", "0-1"])
    finish_games(director, tournament, round_one, lambda g: next(results))
    round_two = services.round_pair(acting_user=director, tournament=tournament)
    played = Match.objects.filter(round=round_two, kind="played").order_by("board").first()
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=2, board=played.board,
                               winner=played.player_two_id, reason="absent")
    services.round_publish(acting_user=director, tournament=tournament, number=2)
    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=2), lambda g: "1-0")
    return tournament


def test_the_results_csv_has_a_row_a_game_with_colours_names_and_federation_ids(swiss, api_client):
    response = api_client.get("/api/v1/tournaments/club/results.csv")
    assert response.status_code == 200 and response["Content-Disposition"].endswith('-results.csv"')
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    games = [r for r in rows if r["kind"] == "game"]
    assert len(games) == MatchGame.objects.filter(match__round__tournament=swiss).count() == 4 + 2
    for row in games:
        game = Game.objects.get(black__federation_id=row["black_federation_id"],
                                white__federation_id=row["white_federation_id"], match_game__number=row["game"],
                                round__number=row["round"])
        assert row["black_name"] == game.black.name and row["black_name"].endswith("Fullname")
        assert row["result"] == game.result and row["rated"] == "yes"
        assert (row["black_points"], row["white_points"]) == {"1-0": ("1", "0"), "0-1": ("0", "1"),
                                                              "1/2-1/2": ("0.5", "0.5")}[game.result]
    byes = [r for r in rows if r["kind"] == "bye"]
    assert [r["round"] for r in byes] == ["1", "2"] and all(r["rated"] == "no" and r["white_name"] == "" for r in byes)
    (forfeit,) = [r for r in rows if r["kind"] == "forfeit"]
    assert forfeit["result"] == "-:+" and forfeit["white_points"] == "2" and forfeit["rated"] == "no"


def test_the_trf_has_a_column_a_game_and_reads_back(swiss, api_client, client):
    response = api_client.get("/api/v1/tournaments/club/results.trf")
    assert response.status_code == 200
    text = response.content.decode()
    trf = parse_trf(text, "results.trf")
    assert trf.rounds_total == 4 and trf.rounds_played == 4  # 2 rounds of 2 games
    assert "XXG 2" in text.splitlines()
    assert 'data-testid="rating-results-link"' in client.get("/tournaments/club/").content.decode()
    number = {e.player_id: i for i, e in enumerate(
        Entry.objects.filter(tournament=swiss).order_by("seed", "-player__rating", "player__name"), start=1)}
    for mg in MatchGame.objects.filter(match__round__tournament=swiss).select_related("game", "match__round"):
        game, column = mg.game, (mg.match.round.number - 1) * 2 + mg.number - 1
        black = trf.player(number[game.black_id]).rounds[column]
        white = trf.player(number[game.white_id]).rounds[column]
        assert (black.opponent, black.colour, white.opponent, white.colour) == (
            number[game.white_id], "w", number[game.black_id], "b")  # w: Black, who moves first
        assert (black.result, white.result) == {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}[
            game.result]
    for line in text.splitlines():  # each player's line: the federation (54-56) and id (58-68), game points (81-84)
        if line.startswith("001"):
            player = Entry.objects.filter(tournament=swiss).order_by("seed", "-player__rating", "player__name")[
                int(line[4:8]) - 1].player
            assert line[53:56] == "ACF" and line[57:68].strip() == player.federation_id
            assert line[14:47].strip() == player.name
    points = {p.number: p.points for p in trf.players}
    standings = {r.player.pk: r for r in selectors.standings(swiss)}
    for pid, n in number.items():
        assert points[n] == round(standings[pid].game_points * 10)


def test_the_acf_report_computes_each_players_rating_from_the_imported_list(swiss, api_client):
    response = api_client.get("/api/v1/tournaments/club/acf-ratings.csv")
    assert response.status_code == 200
    rows = {r["federation_id"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert len(rows) == 5
    before = {p.pk: elo.AcfStanding(p.federation_rating, p.federation_games) for p in Player.objects.all()}
    rounds = []
    for match in Match.objects.filter(round__tournament=swiss, kind="played"):
        games = list(Game.objects.filter(match_game__match=match))
        one = sum({"1-0": 1, "0-1": 0}.get(g.result, 0.5) if g.black_id == match.player_one_id else
                  {"1-0": 0, "0-1": 1}.get(g.result, 0.5) for g in games)
        score = 1.0 if one > len(games) / 2 else 0.0 if one < len(games) / 2 else 0.5
        rounds.append(elo.AcfRound(match.player_one_id, match.player_two_id, score, len(games)))
    expected = elo.acf_ratings(before, rounds)
    for pid, change in expected.items():
        row = rows[Player.objects.get(pk=pid).federation_id]
        assert row["rating_after"] == ("" if change.rating_after is None else str(change.rating_after))
        assert int(row["rounds"]) == change.rounds and int(row["games"]) == change.games
    unrated = rows["105"]
    assert unrated["rating_before"] == "" and unrated["rating_after"] != ""  # his performance
    by_game = api_client.get("/api/v1/tournaments/club/acf-ratings.csv?scored=game")
    assert by_game.status_code == 200 and by_game.content != response.content
    bad = api_client.get("/api/v1/tournaments/club/acf-ratings.csv?scored=week")
    assert bad.status_code == 400 and bad.json()["error"]["details"]["fields"]["scored"]

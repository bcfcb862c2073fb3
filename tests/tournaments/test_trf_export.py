"""The tournament as FIDE's TRF: read back by the Dutch system's own reader, round by round as played."""

from __future__ import annotations

import pytest

from tests.tournaments.test_services import finish_games, make_players, play_round, running_tournament
from tournaments import services
from tournaments.models import Entry, Match, Round
from tournaments.pairing.trf import parse_trf

pytestmark = pytest.mark.django_db


def test_a_swiss_is_exported_as_trf_with_its_matches_bye_forfeit_and_points(director, api_client, client):
    players = make_players(5)
    tournament = running_tournament(director, players, format="swiss", round_count=3, opening="go-as-you-please")
    play_round(director, tournament, outcome=lambda g: "1/2-1/2")  # every match drawn 1-1
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    played = Match.objects.filter(round=round_, kind="played").order_by("board").first()
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=2, board=played.board,
                               winner=played.player_one_id, reason="absent")
    services.round_publish(acting_user=director, tournament=tournament, number=2)
    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=2), lambda g: "1/2-1/2")
    standings = client.get("/api/v1/tournaments/club/standings/").json()  # after round 2
    services.round_pair(acting_user=director, tournament=tournament)  # round 3: paired, not played
    services.round_publish(acting_user=director, tournament=tournament, number=3)

    response = api_client.get("/api/v1/tournaments/club/trf")
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.trf"')
    trf = parse_trf(response.content.decode(), "club.trf")
    assert trf.rounds_total == 3 and trf.rounds_played == 2  # round 3 is not decided yet
    assert (trf.points.win, trf.points.draw, trf.points.loss) == (20, 10, 0)  # match points, in tenths
    number = {e.player_id: i for i, e in enumerate(
        Entry.objects.filter(tournament=tournament).order_by("seed", "-player__rating", "player__name"), start=1)}
    for match in Match.objects.filter(round__tournament=tournament, round__number__lte=2):
        one = trf.player(number[match.player_one_id]).rounds[match.round.number - 1]
        if match.kind == "bye":
            assert (one.opponent, one.result) == (None, "U")
            continue
        two = trf.player(number[match.player_two_id]).rounds[match.round.number - 1]
        assert (one.opponent, two.opponent) == (number[match.player_two_id], number[match.player_one_id])
        if match.kind == "forfeit":
            assert (one.result, two.result, one.colour, two.colour) == ("+", "-", None, None)  # "-": no colour
        else:
            assert {one.colour, two.colour} == {"w", "b"}
            assert (one.colour == "w") == (match.first_black_id == match.player_one_id)  # w moves first: Black
            assert (one.result, two.result) == ("=", "=")
    scores = {p.number: p.points for p in trf.players}
    for row in standings:
        assert scores[number[row["player"]["id"]]] == round(row["points"] * 10)
    page = client.get("/tournaments/club/").content.decode()
    assert 'data-testid="trf-link"' in page

"""A director pastes a round's scoresheets as one PDN text: every game checked first, all or nothing."""

from __future__ import annotations

import pytest

from arbitration.models import LogEntry
from games.models import Game
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import selectors, services
from tournaments.models import TournamentLog

pytestmark = pytest.mark.django_db

#: Two short club games ended by the result written on the sheet (a whole master game is entered in
#: tests/arbitration/test_scoresheets.py); the second writes its captures in short form.
GAME_ONE = "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 25-22 {agreed} 1/2-1/2"
GAME_TWO = "1. 9-14 22-17 2. 11-15 25-22 3. 15-19 24x15 4. 10x19 23x16 5. 12x19 1-0"


@pytest.fixture
def round_one(director):
    tournament = running_tournament(director, make_players(2), opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    games = list(Game.objects.filter(round=round_).select_related("black", "white").order_by("id"))
    return tournament, games


def _pdn(games, texts) -> str:
    return "\n\n".join(f'[Black "{g.black.name.upper()}"]\n[White "  {g.white.name}"]\n{text}'
                       for g, text in zip(games, texts, strict=True))


def test_a_round_pasted_whole_is_entered_and_on_the_tournaments_record(round_one, director, client_as):
    tournament, games = round_one
    assert len(games) == 2  # two games a match, colours swapped
    response = client_as(director).post(f"/api/v1/tournaments/{tournament.slug}/rounds/1/scoresheets/",
                                        {"pdn": _pdn(reversed(games), [GAME_TWO, GAME_ONE])}, format="json")
    assert response.status_code == 200, response.json()
    results = {g.pk: Game.objects.get(pk=g.pk).result for g in games}
    assert results == {games[0].pk: "1/2-1/2", games[1].pk: "1-0"}
    for game in games:
        assert LogEntry.objects.filter(game=game, kind="system", note="Entered from the scoresheet by dir").exists()
    row = TournamentLog.objects.get(tournament=tournament, kind="scoresheets_entered")
    assert row.actor == director and {g["game"] for g in row.data["games"]} == {g.pk for g in games}
    assert sum(r.points for r in selectors.standings(tournament)) > 0


def test_one_wrong_game_enters_none_and_names_the_game_and_move(round_one, director, client_as):
    tournament, games = round_one
    wrong = GAME_TWO.replace("3. 15-19", "3. 15-20")
    response = client_as(director).post(f"/api/v1/tournaments/{tournament.slug}/rounds/1/scoresheets/",
                                        {"pdn": _pdn(games, [GAME_ONE, wrong])}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["message"].startswith("Game 2 of the text") and error["details"]["move_number"] == 3
    assert "15-19" in error["details"]["legal_moves"]
    assert not Game.objects.filter(pk__in=[g.pk for g in games]).exclude(ply=0).exists()
    assert not TournamentLog.objects.filter(tournament=tournament, kind="scoresheets_entered").exists()


def test_unknown_players_outsiders_and_the_page(round_one, director, make_user, client_as, client):
    tournament, games = round_one
    url = f"/api/v1/tournaments/{tournament.slug}/rounds/1/scoresheets/"
    text = f'[Black "Nobody"]\n[White "{games[0].white.name}"]\n{GAME_ONE}'
    response = client_as(director).post(url, {"pdn": text}, format="json")
    assert response.status_code == 400 and "Nobody" in response.json()["error"]["message"]
    outsider = make_user("otherdir", "director")
    assert client_as(outsider).post(url, {"pdn": _pdn(games, [GAME_ONE, GAME_TWO])},
                                    format="json").status_code == 403
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.slug}/manage/rounds/1/scoresheets")
    assert page.status_code == 200 and page.content.decode().count('data-testid="pending-game"') == 2
    page = client.post(f"/tournaments/{tournament.slug}/manage/rounds/1/scoresheets",
                       {"pdn": _pdn(games, [GAME_ONE, GAME_TWO])})
    assert page.status_code == 302
    assert not Game.objects.filter(pk__in=[g.pk for g in games], result__isnull=True).exists()

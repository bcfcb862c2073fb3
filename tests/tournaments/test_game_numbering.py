"""One numbering of a game's moves everywhere (the game page, the printed scoresheet, the PDN), the ballot's
moves written as the game's first; a game entered from its scoresheet says so, and its PDN names the venue."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from arbitration.pdn_export import game_pdn
from arbitration.scoresheets import game_scoresheet_enter
from arbitration.services import game_create
from games.models import Game
from games.rules import Position
from games.rules.rulesets import RuleSet
from tests.tournaments.test_services import make_players, running_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


def _first_moves(fen: str, count: int) -> list[str]:
    """Returns ``count`` legal moves from ``fen``, the first legal move each time."""
    position, moves = Position.from_fen(fen), []
    for _ in range(count):
        move = sorted(position.legal_moves(RuleSet.STANDARD), key=lambda m: m.pdn())[0]
        moves.append(move.pdn())
        position = position.play(move)
    return moves


@pytest.fixture
def ballot_game(director):
    tournament = running_tournament(director, make_players(2), opening="three-move-ballot", venue="Leeds, Quarry Hill")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    game = Game.objects.filter(round=round_).order_by("id").first()
    ballot = game.match_game.match.ballots[0]["moves"].split()
    played = _first_moves(game.initial_fen, 10)
    game_scoresheet_enter(acting_user=director, game_id=game.pk, moves=" ".join(played), result="1/2-1/2")
    return Game.objects.select_related("round__tournament", "black", "white").get(pk=game.pk), ballot, played


def test_the_pdn_writes_the_ballot_as_the_first_moves_numbered_as_the_archives(ballot_game):
    game, ballot, played = ballot_game
    assert len(ballot) == 3
    text = game_pdn(game)
    assert "[FEN" not in text and "[Setup" not in text
    movetext = re.sub(r" ?\{[^}]*\}", "", " ".join(line for line in text.splitlines() if not line.startswith("[")))
    assert movetext.startswith(f"1. {ballot[0]} {ballot[1]} 2. {ballot[2]} {played[0]} 3. {played[1]} {played[2]} ")
    assert "1." not in movetext[3:].split(" 2. ")[1]  # "1." once


def test_the_page_numbers_from_the_ballot(ballot_game):
    game, ballot, _played = ballot_game
    page = Client().get(f"/games/{game.pk}").content.decode()
    numbering = json.loads(re.search(r'<script id="numbering" type="application/json">(.*?)</script>', page).group(1))
    assert numbering == {"opening": ballot, "plies_before": 3}


def test_a_game_from_a_scoresheet_says_so_not_adjudication(ballot_game):
    game, _ballot, _played = ballot_game
    assert game.termination == "scoresheet"
    page = Client().get(f"/games/{game.pk}").content.decode()
    banner = re.search(r'data-testid="result"[^>]*>(.*?)</p>', page, re.S).group(1)
    ended = re.search(r'data-testid="termination">(.*?)</dd>', page, re.S).group(1)
    assert banner == "Drawn (1/2-1/2) · Result from the scoresheet"
    assert ended == "Result from the scoresheet"
    assert '[Termination "scoresheet"]' in game_pdn(game)


def test_the_pdn_site_is_the_venue(ballot_game):
    game, _ballot, _played = ballot_game
    assert '[Site "Leeds, Quarry Hill"]' in game_pdn(game)


def test_the_printed_scoresheet_numbers_the_ballot_as_the_pdn_does(ballot_game, director):
    game, ballot, _played = ballot_game
    page = Client().get(f"/tournaments/club/rounds/1/scoresheets/?game={game.pk}").content.decode()
    lines = re.findall(r'<tr data-testid="move-line">(.*?)</tr>', page, re.S)
    cells = [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", line, re.S)]
             for line in lines[:2]]
    assert cells == [["1", ballot[0], ballot[1]], ["2", ballot[2], ""]]


def test_a_set_up_position_with_white_to_move_starts_at_1_dots(director):
    black, white = make_players(2)
    fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    game = game_create(acting_user=director, black=black, white=white, start_fen=fen)
    from arbitration.moves import game_move_record

    for ply, move in enumerate(_first_moves(fen, 3), start=1):
        game_move_record(acting_user=director, game_id=game.pk, move=move, ply=ply)
    text = game_pdn(Game.objects.get(pk=game.pk))
    assert '[FEN "W:' in text
    movetext = " ".join(line for line in text.splitlines() if not line.startswith("["))
    assert movetext.startswith("1... ") and " 2. " in movetext

"""Knockout matches as the referees finish them: tie-break blocks, finishing, double forfeits, corrections."""

from __future__ import annotations

import pytest

from arbitration.services import game_move_record, ruling_issue
from games.models import Game
from tests.tournaments.test_services import finish_games, make_players, running_tournament
from tournaments import services
from tournaments.models import Match, MatchGame, TournamentLog

pytestmark = pytest.mark.django_db


def knockout(director, referee, count: int = 2, **options):
    players = make_players(count)
    options.setdefault("opening", "go-as-you-please")
    tournament = running_tournament(director, players, format="knockout", referees=[referee.username], **options)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return tournament, round_, players


def games_of(match: Match) -> list[Game]:
    return [mg.game for mg in MatchGame.objects.filter(match=match).select_related("game").order_by("number")]


def test_a_tied_match_gets_its_block_when_the_referee_records_the_last_game(
        director, referee, django_capture_on_commit_callbacks):
    tournament, round_, _players = knockout(director, referee)
    match = Match.objects.get(round=round_)
    first, second = games_of(match)
    with django_capture_on_commit_callbacks(execute=True):
        game_move_record(acting_user=referee, game_id=first.pk, move="11-15")
        ruling_issue(acting_user=referee, game_id=first.pk, kind="resign", side="white")
    assert MatchGame.objects.filter(match=match).count() == 2  # one game left: nothing to add yet
    with django_capture_on_commit_callbacks(execute=True):
        ruling_issue(acting_user=referee, game_id=second.pk, kind="resign", side="white")  # 1-1
    games = games_of(match)
    assert len(games) == 4
    assert games[2].black_id == first.black_id and games[3].black_id == second.black_id  # colours keep alternating
    assert [u.username for u in games[2].referees.all()] == [referee.username]
    row = TournamentLog.objects.get(tournament=tournament, kind="match_extended")
    assert row.actor is None and row.data["games"] == [3, 4] and "game" in row.data["trigger"]
    with django_capture_on_commit_callbacks(execute=True):
        ruling_issue(acting_user=referee, game_id=games[2].pk, kind="draw_agreed")
        ruling_issue(acting_user=referee, game_id=games[3].pk, kind="resign", side="white")
    assert MatchGame.objects.filter(match=match).count() == 4  # decided: no further block
    with pytest.raises(services.PairingUnavailable):
        services.round_pair(acting_user=director, tournament=tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")


def test_the_follow_up_is_idempotent(director, referee):
    _tournament, round_, _players = knockout(director, referee)
    match = Match.objects.get(round=round_)
    for game in games_of(match):
        ruling_issue(acting_user=referee, game_id=game.pk, kind="draw_agreed")
    last = games_of(match)[-1]
    assert services.match_game_finished(game_id=last.pk) == [1]
    assert services.match_game_finished(game_id=last.pk) == []
    assert MatchGame.objects.filter(match=match).count() == 4


def test_pairing_commits_the_block_it_adds_to_a_tied_match(director, referee):
    tournament, round_, _players = knockout(director, referee, 4)
    top = Match.objects.get(round=round_, board=1)
    for game in games_of(top):
        ruling_issue(acting_user=referee, game_id=game.pk, kind="draw_agreed")  # no follow-up ran (no commit)
    bottom = Match.objects.get(round=round_, board=2)
    for game in games_of(bottom):
        ruling_issue(acting_user=referee, game_id=game.pk, kind="resign",
                     side="black" if game.black_id == bottom.player_two_id else "white")
    assert MatchGame.objects.filter(match=top).count() == 2
    with pytest.raises(services.RoundConflict) as refused:
        services.round_pair(acting_user=director, tournament=tournament)
    assert refused.value.details == {"round": 1, "matches": [1]}
    assert MatchGame.objects.filter(match=top).count() == 4  # kept, not rolled back with the refusal
    assert TournamentLog.objects.filter(tournament=tournament, kind="match_extended").count() == 1
    with pytest.raises(services.RoundConflict, match="not finished"):
        services.round_pair(acting_user=director, tournament=tournament)


def test_finishing_refuses_a_knockout_with_an_undecided_match(director, referee):
    tournament, round_, _players = knockout(director, referee)
    for game in games_of(Match.objects.get(round=round_)):
        ruling_issue(acting_user=referee, game_id=game.pk, kind="draw_agreed")
    with pytest.raises(services.WrongTournamentStatus, match="not decided") as refused:
        services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    assert refused.value.details["matches"] == [{"round": 1, "board": 1}]


def test_a_knockout_refuses_a_forfeit_that_sends_nobody_through(director, referee):
    players = make_players(2)
    tournament = running_tournament(director, players, format="knockout", opening="go-as-you-please")
    services.round_pair(acting_user=director, tournament=tournament)
    with pytest.raises(services.InvalidInput) as refused:
        services.match_forfeit_set(acting_user=director, tournament=tournament, number=1, board=1, winner=None,
                                   reason="neither came")
    assert "winner" in refused.value.details["fields"]


def test_a_knockout_match_of_two_withdrawn_players_waits_for_the_directors_decision(director, referee):
    tournament, round_, players = knockout(director, referee, 4)
    finish_games(director, tournament, round_)
    winners = [m.player_one_id for m in round_.matches.order_by("board")]
    for pid in winners:
        services.entry_withdraw(acting_user=director, tournament=tournament, player=pid, reason="left")
    final = services.round_pair(acting_user=director, tournament=tournament)
    assert final.matches.get().kind == "forfeit" and final.matches.get().forfeit_winner is None
    with pytest.raises(services.RoundConflict, match="one of them must go through"):
        services.round_publish(acting_user=director, tournament=tournament, number=final.number)
    services.match_forfeit_set(acting_user=director, tournament=tournament, number=final.number, board=1,
                               winner=winners[1], reason="lots drawn by the director")
    services.round_publish(acting_user=director, tournament=tournament, number=final.number)
    with pytest.raises(services.PairingUnavailable, match="decided"):
        services.round_pair(acting_user=director, tournament=tournament)


def test_a_correction_that_changes_a_winner_after_the_next_round_was_paired_is_refused(director, referee):
    tournament, round_, _players = knockout(director, referee, 4)
    finish_games(director, tournament, round_)  # the higher seed wins every game
    services.round_pair(acting_user=director, tournament=tournament)
    top = Match.objects.get(round=round_, board=1)
    first, second = games_of(top)
    loss = "0-1" if first.black_id == top.player_one_id else "1-0"
    with pytest.raises(services.RoundConflict, match="would change who won") as refused:
        services.game_result_set(acting_user=director, tournament=tournament, game_id=first.pk, result=loss,
                                 reason="slip misread")
    assert refused.value.details == {"game": first.pk, "board": 1, "round": 2}
    first.refresh_from_db()
    assert first.result != loss and first.status == "finished"  # nothing was changed
    services.game_result_set(acting_user=director, tournament=tournament, game_id=first.pk, result="1/2-1/2",
                             reason="it was a draw")  # 1.5-0.5: the same winner
    assert TournamentLog.objects.filter(tournament=tournament, kind="result_corrected").count() == 1


def test_a_correction_may_not_decide_a_match_before_its_tie_break_games(director, referee):
    tournament, round_, _players = knockout(director, referee)
    match = Match.objects.get(round=round_)
    finish_games(director, tournament, round_, outcome=lambda g: "1/2-1/2")
    assert MatchGame.objects.filter(match=match).count() == 4
    first = games_of(match)[0]
    win = "1-0" if first.black_id == match.player_one_id else "0-1"
    with pytest.raises(services.RoundConflict, match="before its tie-break games"):
        services.game_result_set(acting_user=director, tournament=tournament, game_id=first.pk, result=win,
                                 reason="slip misread")

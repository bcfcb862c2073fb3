"""Tournament services on PostgreSQL: creation, status, entries, rounds, lots, ballots, results."""

from __future__ import annotations

import random

import pytest

from arbitration.models import LogEntry
from games.models import INITIAL_FEN, Game
from games.rules import Position
from players.models import Player
from tournaments import selectors, services
from tournaments.ballots import draw_ballots
from tournaments.lots import cast_lots
from tournaments.models import Entry, Match, MatchGame, RatingHistory, Round, Tournament, TournamentLog

pytestmark = pytest.mark.django_db


def make_players(count: int, *, start_rating: int = 2000) -> list[Player]:
    return [Player.objects.create(name=f"Player {i:03d}", rating=start_rating - 10 * i) for i in range(1, count + 1)]


def running_tournament(director, players, **options) -> Tournament:
    """Creates a tournament, enters the players, opens registration and starts it."""
    options.setdefault("name", "Club Championship")
    options.setdefault("slug", "club")
    tournament = services.tournament_create(acting_user=director, **options)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    tournament.refresh_from_db()
    return tournament


def play_round(director, tournament, outcome=None) -> Round:
    """Pairs and publishes the next round and adjudicates every game (the higher seed wins by default)."""
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    finish_games(director, tournament, round_, outcome)
    return round_


def finish_games(director, tournament, round_, outcome=None) -> None:
    seeds = dict(Entry.objects.filter(tournament=tournament).values_list("player_id", "seed"))
    for game in Game.objects.filter(round=round_).exclude(status="finished").order_by("id"):
        if outcome is not None:
            result = outcome(game)
        else:
            result = "1-0" if seeds[game.black_id] < seeds[game.white_id] else "0-1"
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result=result,
                                 reason="result slip")


def test_creator_becomes_director_and_creation_is_logged(director):
    tournament = services.tournament_create(acting_user=director, name="Open", slug="open", format="swiss",
                                            round_count=5)
    assert list(tournament.directors.all()) == [director]
    assert tournament.status == "draft"
    assert tournament.round_count == 5
    assert TournamentLog.objects.filter(tournament=tournament, kind="created").count() == 1


def test_only_directors_create(player_user, referee):
    for user in (player_user, referee):
        with pytest.raises(services.NotDirector):
            services.tournament_create(acting_user=user, name="X", slug="x")


def test_games_per_match_must_be_1_2_or_4(director):
    with pytest.raises(services.InvalidInput) as info:
        services.tournament_create(acting_user=director, name="X", slug="x", games_per_match=3)
    assert "games_per_match" in info.value.details["fields"]


def test_database_refuses_3_games_a_round(director):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        Tournament.objects.create(name="Odd", slug="odd", games_per_match=3)


def test_swiss_needs_its_rounds(director):
    with pytest.raises(services.InvalidInput) as info:
        services.tournament_create(acting_user=director, name="X", slug="x", format="swiss")
    assert "rounds" in info.value.details["fields"]


def test_status_moves_only_forward_one_step_with_a_log_row(director):
    tournament = services.tournament_create(acting_user=director, name="X", slug="x")
    with pytest.raises(services.StatusTransitionRefused) as info:
        services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    assert info.value.details["allowed"] == ["registration"]
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    with pytest.raises(services.StatusTransitionRefused):
        services.tournament_status_set(acting_user=director, tournament=tournament, status="draft")
    row = TournamentLog.objects.filter(tournament=tournament, kind="status_changed").get()
    assert (row.from_status, row.to_status, row.actor) == ("draft", "registration", director)


def test_a_director_of_another_tournament_may_not_change_this_one(director, make_user):
    other = make_user("other", "director")
    tournament = services.tournament_create(acting_user=director, name="X", slug="x")
    with pytest.raises(services.NotDirector):
        services.tournament_status_set(acting_user=other, tournament=tournament, status="registration")


def test_round_robin_of_four_runs_to_final_standings(director, make_user):
    make_user("ref1", "referee")
    make_user("ref2", "referee")
    players = make_players(4)
    tournament = running_tournament(director, players, games_per_match=2, opening="go-as-you-please",
                                    referees=["ref1", "ref2"])
    for _ in range(3):
        play_round(director, tournament)
    with pytest.raises(services.RoundConflict):
        services.round_pair(acting_user=director, tournament=tournament)
    rows = selectors.standings(tournament)
    assert [r.player for r in rows] == players
    assert [r.points for r in rows] == [6, 4, 2, 0]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].game_points == 6 and rows[0].wins == 3
    # every pair met once; every game has a referee, assigned in turn
    pairs = {frozenset((m.player_one_id, m.player_two_id)) for m in Match.objects.filter(round__tournament=tournament)}
    assert len(pairs) == 6
    referees = [g.referees.get().username for g in Game.objects.filter(round__tournament=tournament).order_by("id")]
    assert referees[:4] == ["ref1", "ref2", "ref1", "ref2"]
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")


def test_lots_are_recorded_and_reproducible_and_colours_alternate(director):
    players = make_players(4)
    tournament = running_tournament(director, players, games_per_match=4, opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    for match in Match.objects.filter(round=round_):
        lots = cast_lots(match.player_one_id, match.player_two_id, int(match.lots_seed))
        assert lots.black_first == match.first_black_id
        games = [mg.game for mg in match.match_games.select_related("game").order_by("number")]
        assert len(games) == 4
        assert [g.black_id for g in games] == [lots.black_first, lots.white_first] * 2
        assert all(g.initial_fen == INITIAL_FEN for g in games)


def test_ballots_are_played_twice_with_colours_reversed_from_the_ballot_position(director):
    players = make_players(4)
    tournament = running_tournament(director, players, games_per_match=4, opening="three-move-ballot")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    for match in Match.objects.filter(round=round_):
        assert len(match.ballots) == 2
        mgs = list(match.match_games.select_related("game").order_by("number"))
        for k, ballot in enumerate(match.ballots):
            first, second = mgs[2 * k].game, mgs[2 * k + 1].game
            assert first.start_fen == second.start_fen == Position.from_fen(ballot["fen"]).fen()
            assert (first.black_id, first.white_id) == (second.white_id, second.black_id)
            assert mgs[2 * k].ballot_number == ballot["number"]


def test_ballot_draws_are_reproducible_from_the_recorded_seeds_and_do_not_repeat(director):
    players = make_players(6)
    tournament = running_tournament(director, players, games_per_match=2, opening="three-move-ballot")
    for _ in range(5):
        play_round(director, tournament)
    drawn = []
    for ballots in Match.objects.filter(round__tournament=tournament).values_list("ballots", flat=True):
        drawn += ballots
    drawn.sort(key=lambda b: b["index"])
    numbers = [b["number"] for b in drawn]
    assert len(numbers) == 15 and len(set(numbers)) == 15
    for i, ballot in enumerate(drawn):
        again = draw_ballots(numbers[:i], int(ballot["seed"]), 1)[0]
        assert again.number == ballot["number"]


def test_pairing_edit_needs_a_reason_and_is_logged(director):
    players = make_players(4)
    tournament = running_tournament(director, players)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    ids = [p.pk for p in players]
    with pytest.raises(services.InvalidInput):
        services.round_pairings_edit(acting_user=director, tournament=tournament, number=1,
                                     pairings=[(ids[0], ids[1]), (ids[2], ids[3])], reason="")
    with pytest.raises(services.InvalidInput):
        services.round_pairings_edit(acting_user=director, tournament=tournament, number=1,
                                     pairings=[(ids[0], ids[1]), (ids[1], ids[3])], reason="x")
    services.round_pairings_edit(acting_user=director, tournament=tournament, number=1,
                                 pairings=[(ids[0], ids[1]), (ids[2], ids[3])], reason="club rule: families apart")
    assert sorted((m.player_one_id, m.player_two_id) for m in round_.matches.all()) == [(ids[0], ids[1]),
                                                                                       (ids[2], ids[3])]
    row = TournamentLog.objects.get(tournament=tournament, kind="pairing_edited")
    assert row.reason == "club rule: families apart" and row.data["after"] == [[ids[0], ids[1]], [ids[2], ids[3]]]
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    with pytest.raises(services.RoundConflict):
        services.round_pairings_edit(acting_user=director, tournament=tournament, number=1,
                                     pairings=[(ids[0], ids[2]), (ids[1], ids[3])], reason="again")


def test_result_correction_supersedes_and_recomputes_standings(director):
    players = make_players(2)
    tournament = running_tournament(director, players, games_per_match=2, opening="go-as-you-please")
    round_ = play_round(director, tournament)
    assert selectors.standings(tournament)[0].player == players[0]
    game = Game.objects.filter(round=round_).order_by("id").first()
    other = Game.objects.filter(round=round_).order_by("id").last()
    loser_black = "0-1" if game.black_id == players[0].pk else "1-0"
    services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result=loser_black,
                             reason="scoresheet misread")
    services.game_result_set(acting_user=director, tournament=tournament, game_id=other.pk,
                             result="0-1" if other.black_id == players[0].pk else "1-0", reason="scoresheet misread")
    rows = selectors.standings(tournament)
    assert rows[0].player == players[1] and rows[0].points == 2 and rows[1].points == 0
    game.refresh_from_db()
    assert game.result == loser_black
    corrections = LogEntry.objects.filter(game=game, kind="correction")
    assert corrections.count() == 1 and corrections.get().supersedes.kind == "game_end"
    corrected = TournamentLog.objects.filter(tournament=tournament, kind="result_corrected", data__game=game.pk).get()
    assert corrected.supersedes.kind == "result_recorded"
    assert corrected.reason == "scoresheet misread"


def test_odd_round_robin_gives_byes_distinct_from_played_matches(director):
    players = make_players(3)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    round_ = play_round(director, tournament)
    bye = Match.objects.get(round=round_, kind="bye")
    assert bye.player_two is None and not bye.match_games.exists()
    rows = {r.player.pk: r for r in selectors.standings(tournament)}
    assert rows[bye.player_one_id].played == 0 and rows[bye.player_one_id].points == 2


def test_withdrawn_player_forfeits_later_round_robin_matches(director):
    players = make_players(4)
    tournament = running_tournament(director, players, opening="go-as-you-please")
    play_round(director, tournament)
    services.entry_withdraw(acting_user=director, tournament=tournament, player=players[0], reason="ill")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    forfeit = Match.objects.get(round=round_, kind="forfeit")
    assert players[0].pk in (forfeit.player_one_id, forfeit.player_two_id)
    assert forfeit.forfeit_winner_id not in (None, players[0].pk)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    assert not forfeit.match_games.exists()


def test_swiss_has_no_rematch_and_late_entry_joins_next_round(director):
    players = make_players(8)
    tournament = running_tournament(director, players, format="swiss", round_count=4, opening="go-as-you-please")
    rng = random.Random(7)
    play_round(director, tournament, outcome=lambda g: rng.choice(["1-0", "0-1", "1/2-1/2"]))
    late = Player.objects.create(name="Late Comer", rating=1500)
    entry = services.entry_add(acting_user=director, tournament=tournament, player=late)
    assert entry.first_round == 2
    for _ in range(3):
        play_round(director, tournament, outcome=lambda g: rng.choice(["1-0", "0-1", "1/2-1/2"]))
    met = [frozenset((m.player_one_id, m.player_two_id)) for m in
           Match.objects.filter(round__tournament=tournament, kind="played")]
    assert len(met) == len(set(met))
    byes = [m.player_one_id for m in Match.objects.filter(round__tournament=tournament, kind="bye")]
    assert len(byes) == len(set(byes)) == 3
    assert Round.objects.get(tournament=tournament, number=2).explanation
    assert all(m.explanation for m in Match.objects.filter(round__tournament=tournament))


def test_knockout_tied_match_continues_in_two_game_blocks(director):
    players = make_players(4)
    tournament = running_tournament(director, players, format="knockout", opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    top = Match.objects.get(round=round_, board=1)
    finish_games(director, tournament, round_, outcome=lambda g: "1/2-1/2" if g.match_game.match_id == top.pk else
                 ("1-0" if g.black_id == g.match_game.match.player_one_id else "0-1"))
    assert MatchGame.objects.filter(match=top).count() == 4  # a block was added
    finish_games(director, tournament, round_, outcome=lambda g: "1-0" if g.black_id == top.player_two_id else "0-1")
    final = services.round_pair(acting_user=director, tournament=tournament)
    finalists = {m.player_one_id for m in final.matches.all()} | {m.player_two_id for m in final.matches.all()}
    assert top.player_two_id in finalists and top.player_one_id not in finalists


def test_rated_tournament_updates_ratings_with_history(director):
    players = make_players(4)
    tournament = running_tournament(director, players, rated=True, opening="go-as-you-please")
    before = {p.pk: p.rating for p in players}
    for _ in range(3):
        play_round(director, tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    history = {h.player_id: h for h in RatingHistory.objects.filter(tournament=tournament)}
    assert len(history) == 4
    top = players[0]
    top.refresh_from_db()
    assert history[top.pk].rating_before == before[top.pk]
    assert top.rating == history[top.pk].rating_after > before[top.pk]
    assert history[top.pk].games == 6
    assert TournamentLog.objects.filter(tournament=tournament, kind="ratings_updated").count() == 1


def test_finishing_refuses_while_games_are_unfinished(director):
    players = make_players(2)
    tournament = running_tournament(director, players)
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    with pytest.raises(services.WrongTournamentStatus):
        services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")


def test_double_round_robin_pairs_everyone_twice(director):
    players = make_players(4)
    tournament = running_tournament(director, players, format="double_round_robin", opening="go-as-you-please")
    for _ in range(6):
        play_round(director, tournament)
    with pytest.raises(services.RoundConflict):
        services.round_pair(acting_user=director, tournament=tournament)
    met = [frozenset((m.player_one_id, m.player_two_id)) for m in Match.objects.filter(round__tournament=tournament)]
    assert len(met) == 12 and len(set(met)) == 6
    assert [r.points for r in selectors.standings(tournament)] == [12, 8, 4, 0]


def test_knockout_of_three_gives_the_top_seed_a_bye_and_ends_with_a_final(director):
    players = make_players(3)
    tournament = running_tournament(director, players, format="knockout", opening="go-as-you-please")
    first = play_round(director, tournament)
    bye = Match.objects.get(round=first, kind="bye")
    assert bye.player_one == players[0]
    final = play_round(director, tournament)
    assert {final.matches.get().player_one_id, final.matches.get().player_two_id} == {players[0].pk, players[1].pk}
    with pytest.raises(services.PairingUnavailable):
        services.round_pair(acting_user=director, tournament=tournament)


def test_knockout_tie_after_the_allowed_blocks_is_decided_by_lots_from_the_recorded_seed(director):
    from tournaments.pairing.knockout import decide_knockout_match

    players = make_players(2)
    tournament = running_tournament(director, players, format="knockout", opening="go-as-you-please",
                                    knockout_extra_blocks=1)
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    finish_games(director, tournament, round_, outcome=lambda g: "1/2-1/2")
    match = Match.objects.get(round=round_)
    assert match.match_games.count() == 4
    finish_games(director, tournament, round_, outcome=lambda g: "1/2-1/2")
    assert match.match_games.count() == 4
    outcome = selectors.match_outcomes(tournament)[match.pk]
    expected = decide_knockout_match(match.player_one_id, match.player_two_id, [0.5] * 4, games_per_match=2,
                                     tie_break="blocks-then-lots", max_blocks=1, seed=int(match.lots_seed))
    assert outcome.complete and outcome.winner == expected.winner


def test_results_cannot_be_corrected_once_the_tournament_is_finished(director):
    players = make_players(2)
    tournament = running_tournament(director, players, rated=True, opening="go-as-you-please")
    round_ = play_round(director, tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    rating = Player.objects.get(pk=players[0].pk).rating
    game = Game.objects.filter(round=round_).first()
    with pytest.raises(services.WrongTournamentStatus, match="finished"):
        services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk, result="1/2-1/2",
                                 reason="late appeal")
    game.refresh_from_db()
    assert game.result != "1/2-1/2" and Player.objects.get(pk=players[0].pk).rating == rating

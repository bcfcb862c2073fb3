"""Rounds of 1, 2 or 4 games, openings from the tournament's deck, colours of one-game rounds, and
scoring per game against per round: through the services, on PostgreSQL."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from games.rules import Position
from tournaments import services
from tournaments.ballots import ELEVEN_MAN_PDN, deck_of, draw_openings, eleven_man_openings, two_move_openings
from tournaments.models import Match, Round, Tournament, TournamentLog
from tournaments.pairing.colours import initial_colour_lots
from tournaments.pairing.roundrobin import round_robin
from tournaments.services.outcomes import standings_rows

from .test_services import finish_games, make_players, play_round, running_tournament

pytestmark = pytest.mark.django_db


def _games(match: Match) -> list[Game]:
    return [mg.game for mg in match.match_games.select_related("game").order_by("number")]


def _publish(director, tournament) -> Round:
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
    return round_


def test_a_4_game_round_plays_both_openings_twice_with_colours_reversed(director):
    tournament = running_tournament(director, make_players(4), games_per_match=4, opening="three-move-ballot",
                                    deck="computer-tough", deck_name="Masters' deck")
    round_ = _publish(director, tournament)
    tough = {b.number for b in deck_of("computer-tough").openings}
    for match in Match.objects.filter(round=round_):
        first, second = match.ballots
        assert first["number"] != second["number"] and {first["number"], second["number"]} <= tough
        assert first["deck"] == second["deck"] == "computer-tough"
        games = _games(match)
        assert len(games) == 4
        for k, ballot in enumerate(match.ballots):
            a, b = games[2 * k], games[2 * k + 1]
            assert a.start_fen == b.start_fen == Position.from_fen(ballot["fen"]).fen()
            assert (a.black_id, a.white_id) == (b.white_id, b.black_id)  # reversed on the same opening
        assert [g.black_id for g in games] == [match.first_black_id, games[1].black_id] * 2  # lots, then alternation


def test_the_two_move_deck_starts_each_game_from_the_position_its_opening_makes(director):
    tournament = running_tournament(director, make_players(6), opening="two-move-ballot")
    round_ = _publish(director, tournament)
    data = {b.number: b for b in two_move_openings()}
    seen = 0
    for match in Match.objects.filter(round=round_):
        [ballot] = match.ballots
        opening = data[ballot["number"]]
        assert not opening.barred and ballot["kind"] == "two-move" and ballot["moves"] == opening.pdn
        position = Position.initial()
        for move in ballot["moves"].split():
            position = position.play(position.parse_move(move))
        assert position == Position.from_fen(opening.fen)  # the engine, against the data's position
        for game in _games(match):
            assert Position.from_fen(game.start_fen) == position
            seen += 1
    assert seen == 6


def test_the_eleven_man_ballot_starts_each_game_from_the_drawn_position(director):
    tournament = running_tournament(director, make_players(4), opening="eleven-man-ballot", games_per_match=4)
    round_ = _publish(director, tournament)
    data = {b.number: b for b in eleven_man_openings()}
    pdn = re.findall(r'\[FEN "([^"]+)"\]', ELEVEN_MAN_PDN.read_text(encoding="utf-8"))
    for match in Match.objects.filter(round=round_):
        assert len(match.ballots) == 2
        for k, ballot in enumerate(match.ballots):
            black_man, white_man = ballot["removed"]
            assert (black_man, white_man) == data[ballot["number"]].removed
            position = Position.from_squares(black=[s for s in range(1, 13) if s != black_man],
                                             white=[s for s in range(21, 33) if s != white_man])
            for move in ballot["moves"].split():
                position = position.play(position.parse_move(move))
            assert position == Position.from_fen(pdn[ballot["number"] - 1])  # the PDN's position for that number
            for game in _games(match)[2 * k: 2 * k + 2]:
                assert Position.from_fen(game.start_fen) == position
                assert game.start_fen != Position.initial().fen()


def test_every_draw_of_an_opening_is_reproducible_from_the_record(director):
    tournament = running_tournament(director, make_players(4), opening="two-move-ballot", deck_barred=[1, 2])
    for _ in range(3):
        play_round(director, tournament)
    drawn = sorted((b for bs in Match.objects.filter(round__tournament=tournament).values_list("ballots", flat=True)
                    for b in bs), key=lambda b: b["index"])
    numbers = [b["number"] for b in drawn]
    assert len(numbers) == 6 and len(set(numbers)) == 6 and not {1, 2} & set(numbers)
    deck = deck_of("two-move", barred=[1, 2])
    for b in drawn:
        assert b["deck"] == deck.signature == "two-move -1,2"
        assert draw_openings(deck.openings, numbers[:b["index"]], int(b["seed"]))[0].number == b["number"]


def test_a_round_robin_of_single_games_takes_the_berger_colours_and_casts_no_lots(director):
    players = make_players(4)
    tournament = running_tournament(director, players, games_per_match=1, opening="go-as-you-please")
    round_ = _publish(director, tournament)
    seeded = list(tournament.entries.order_by("seed").values_list("player_id", flat=True))
    berger = {(p.black, p.white) for p in round_robin(seeded)[0]}
    for match in Match.objects.filter(round=round_):
        [game] = _games(match)
        assert (game.black_id, game.white_id) in berger
        assert match.lots_seed == "" and match.games_planned == 1
    assert any("Berger" in note for note in round_.explanation)


def test_a_swiss_of_single_games_gives_the_colours_by_the_dutch_rules(director):
    tournament = running_tournament(director, make_players(8), format="swiss", round_count=3, games_per_match=1,
                                    opening="go-as-you-please")
    first = play_round(director, tournament)
    note = next(n for n in first.explanation if "Dutch" in n)
    seed = re.search(r"lots, seed (\d+)", note).group(1)
    paired = TournamentLog.objects.get(tournament=tournament, kind="round_paired", data__round=1)
    assert paired.data["colour_lots_seed"] == seed  # the lots for the top seed's colour are on the log
    colour = {}
    for match in Match.objects.filter(round=first):
        assert match.lots_seed == ""
        [game] = _games(match)
        colour[game.black_id], colour[game.white_id] = "B", "W"
    assert sorted(colour.values()) == ["B"] * 4 + ["W"] * 4
    top = tournament.entries.get(seed=1).player_id
    assert colour[top] == initial_colour_lots(int(seed))  # the top seed has the colour the lots gave him
    second = _publish(director, tournament)
    for match in Match.objects.filter(round=second, kind="played"):
        [game] = _games(match)
        if colour[game.black_id] != colour[game.white_id]:
            assert colour[game.black_id] == "W"  # each gets the colour he is due
    assert not any("lots, seed" in n for n in second.explanation if "Dutch" in n)  # read back from round 1


def test_a_knockout_single_game_takes_lots_and_a_draw_adds_a_block_with_colours_alternating(director):
    tournament = running_tournament(director, make_players(2), format="knockout", games_per_match=1,
                                    opening="three-move-ballot")
    round_ = _publish(director, tournament)
    match = Match.objects.get(round=round_)
    assert match.lots_seed and match.games_planned == 1
    finish_games(director, tournament, round_, outcome=lambda game: "1/2-1/2")
    match.refresh_from_db()
    games = _games(match)
    assert len(games) == 3 and len(match.ballots) == 2
    assert [g.black_id for g in games] == [match.first_black_id, games[1].black_id, match.first_black_id]
    assert games[1].black_id != match.first_black_id
    assert games[1].start_fen == games[2].start_fen


def _same_results(director, score_by: str) -> Tournament:
    players = make_players(4)
    tournament = running_tournament(director, players, slug=f"t-{score_by}", games_per_match=2, score_by=score_by,
                                    opening="go-as-you-please", tiebreaks=["HP"])
    # Round 1 of the Berger table: every game the higher seed wins, but on board 2 the second game is drawn.
    round_ = _publish(director, tournament)
    seeds = dict(tournament.entries.values_list("player_id", "seed"))
    boards = {m.board: m for m in Match.objects.filter(round=round_)}

    def outcome(game: Game) -> str:
        match = game.match_game.match
        if match.board == 2 and game.match_game.number == 2:
            return "1/2-1/2"
        return "1-0" if seeds[game.black_id] < seeds[game.white_id] else "0-1"

    finish_games(director, tournament, round_, outcome=outcome)
    assert boards
    return tournament


def test_scoring_per_game_against_per_round_on_the_same_results(director):
    per_round = {r.player: r.points for r in standings_rows(_same_results(director, "round"))}
    rows = standings_rows(_same_results(director, "game"))
    per_game = {r.player: r.points for r in rows}
    # Per round, a match won is 2 whether 2-0 or 1.5-0.5; per game, 2 a win and 1 a draw.
    assert sorted(per_round.values()) == [0, 0, 2, 2]
    assert sorted(per_game.values()) == [0, 1, 3, 4]
    assert sum(per_game.values()) == 8  # 4 games of 2 points each
    hp = {r.points: r.tiebreaks["HP"] for r in rows}
    assert hp[4] == 0 and hp[3] == 1.5  # a win and a draw (1.5 games) over a player on 1 point


def test_settings_of_openings_and_rounds_are_checked_and_logged(director):
    with pytest.raises(services.InvalidInput) as info:
        services.tournament_create(acting_user=director, name="X", slug="x", opening="two-move-ballot",
                                   deck="computer-tough")
    assert "deck" in info.value.details["fields"]
    with pytest.raises(services.InvalidInput) as info:
        services.tournament_create(acting_user=director, name="X", slug="x", deck_added=[999])
    assert "999" in info.value.details["fields"]["deck"][0]
    tournament = services.tournament_create(acting_user=director, name="X", slug="x")
    services.tournament_update(acting_user=director, tournament=tournament, games_per_match=4, score_by="game",
                               deck="acf-144", deck_barred=[12, 5, 12], deck_name="Masters' deck")
    tournament.refresh_from_db()
    assert (tournament.games_per_match, tournament.score_by, tournament.deck_barred) == (4, "game", [5, 12])
    row = TournamentLog.objects.filter(tournament=tournament, kind="settings_changed").latest("id")
    assert row.data["games_per_match"] == {"before": 2, "after": 4}
    assert row.data["deck"] == {"before": "", "after": "acf-144"}
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in make_players(2):
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    with pytest.raises(services.InvalidInput) as info:
        services.tournament_update(acting_user=director, tournament=Tournament.objects.get(pk=tournament.pk),
                                   games_per_match=2)
    assert "games_per_match" in info.value.details["fields"]


def test_the_forms_set_the_deck_and_the_round_length(director):
    from django.test import Client

    client = Client()
    client.force_login(director)
    response = client.post("/tournaments/manage/", {
        "name": "Nationals Masters", "slug": "masters", "format": "round_robin", "games_per_match": "4",
        "score_by": "game", "opening": "three-move-ballot", "deck": "computer-tough", "deck_name": "Masters' deck",
        "deck_barred": "5, 12", "deck_added": "3", "rule_set": "standard", "progress_rule": "forty-move-notice",
        "clock": "none",
    })
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(slug="masters")
    assert (t.games_per_match, t.score_by, t.deck, t.deck_name, t.deck_barred, t.deck_added) == \
        (4, "game", "computer-tough", "Masters' deck", [5, 12], [3])
    page = client.get("/tournaments/masters/manage/").content.decode()
    assert 'data-testid="openings-form"' in page and 'value="5, 12"' in page
    response = client.post("/tournaments/masters/manage/openings", {
        "opening": "eleven-man-ballot", "deck": "", "games_per_match": "1", "score_by": "round",
        "deck_barred": "", "deck_added": ""}, follow=True)
    t.refresh_from_db()
    assert (t.opening, t.games_per_match, t.deck_barred) == ("eleven-man-ballot", 1, [])
    response = client.post("/tournaments/masters/manage/openings", {
        "opening": "two-move-ballot", "deck": "", "games_per_match": "2", "score_by": "round",
        "deck_barred": "seven", "deck_added": ""}, follow=True)
    assert "deck_barred" in response.content.decode()
    assert Tournament.objects.get(slug="masters").opening == "eleven-man-ballot"

"""A Swiss paired by the FIDE Dutch system: the setting, the pairing service, byes known before a
round, late entries, players kept apart, the Baku acceleration and the words of each pairing."""

from __future__ import annotations

import pytest

from tests.tournaments.test_services import finish_games, make_players, play_round, running_tournament
from tournaments import selectors, services
from tournaments.models import Match, Round, RoundBye, Tournament, TournamentLog
from tournaments.pairing.dutch import ColourRecord, baku_virtual_points, first_mover, pair_next_round
from tournaments.pairing.trf import PointSystem, parse_trf
from tournaments.pairing.types import PairingError
from tournaments.services import pure

pytestmark = pytest.mark.django_db

DUTCH = {"format": "swiss", "pairing_system": "dutch"}


def _pairs(tournament, number):
    return {frozenset(p for p in (m.player_one_id, m.player_two_id) if p)
            for m in Match.objects.filter(round__tournament=tournament, round__number=number)}


def _trf_pairs_without_colours(tournament, number) -> set[frozenset[int]]:
    """Pairs the round after the tournament's own TRF by the pure Dutch core, colours wiped (two-game
    matches), and returns the pairs as player ids."""
    text = selectors.tournament_trf(tournament)
    trf = parse_trf(text)
    from dataclasses import replace

    players = tuple(replace(p, rounds=tuple(replace(r, colour=None) for r in p.rounds)) for p in trf.players)
    trf = replace(trf, players=players, rounds_total=tournament.round_count, initial_colour="w")
    entries = list(tournament.entries.order_by("seed", "-player__rating", "player__name", "player_id"))
    by_number = {i: e.player_id for i, e in enumerate(entries, start=1)}
    return {frozenset(by_number[n] for n in (p.white, p.black) if n is not None) for p in pair_next_round(trf)}


def test_a_swiss_set_to_the_dutch_system_is_paired_by_it_round_after_round(director, client):
    players = make_players(7)
    tournament = running_tournament(director, players, round_count=4, **DUTCH)
    assert tournament.pairing_system == "dutch"
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    for number in range(1, 5):
        expected = _trf_pairs_without_colours(tournament, number)
        round_ = play_round(director, tournament, outcome=lambda g: "1/2-1/2" if g.pk % 3 == 0 else "1-0")
        pairs = _pairs(tournament, number)
        assert pairs == expected  # the Dutch pairing of the tournament's own report file
        assert not pairs & met  # no rematch
        (bye,) = [next(iter(p)) for p in pairs if len(p) == 1]
        assert bye not in byes  # one bye at most
        byes.add(bye)
        met |= {p for p in pairs if len(p) == 2}
        assert "FIDE Dutch system" in round_.explanation[0]
        words = list(Match.objects.filter(round=round_).values_list("kind", "explanation"))
        assert all(text for _kind, text in words)
        assert any("gets the bye" in text for kind, text in words if kind == "bye")
        assert all("two games, each player moves first once" in text for kind, text in words if kind != "bye")
    log = TournamentLog.objects.filter(tournament=tournament, kind="round_paired")
    assert {row.data["system"] for row in log} == {"dutch"}
    # matches of two games: no colour to allocate, so no first colour in the file
    assert not [line for line in selectors.tournament_trf(tournament).splitlines() if line.startswith("XXC")]
    # the public round page says which rule made each pairing
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Score group" in page or "floats down" in page
    assert "gets the bye" in page


def test_colours_decide_nothing_in_rounds_of_two_game_matches():
    """Players 1 and 3 each moved first twice: in one-game rounds the absolute colour rule (C3) keeps
    them apart and the round cannot be paired; in matches of two games, both colours each, it pairs."""
    scoring = pure.Scoring(win=2, draw=1, loss=0, bye=2)
    history = {1: [(2, "w"), (4, "w")], 2: [(1, "b"), (3, "b")], 3: [(4, "w"), (2, "w")], 4: [(3, "b"), (1, "b")]}

    def entrants(with_colours: bool):
        return [pure.DutchEntrant(id=p, name=f"P{p}", rounds=tuple((o, c if with_colours else None, "=")
                                                                    for o, c in history[p])) for p in range(1, 5)]

    with pytest.raises(PairingError):
        pure.dutch_pairings(entrants(True), scoring=scoring, rounds_total=4, two_games=False)
    pairings, _note = pure.dutch_pairings(entrants(False), scoring=scoring, rounds_total=4, two_games=True)
    assert {frozenset((p.one, p.two)) for p in pairings} == {frozenset((1, 3)), frozenset((2, 4))}
    assert all("lots decide who starts" in p.explanation for p in pairings)


def test_the_colour_allocation_gives_the_first_move_by_the_rules():
    # due colours both met
    assert first_mover(ColourRecord(("b",), 1, 2), ColourRecord(("w",), 1, 1)) is True
    # two games with the second move in a row: he must move first
    assert first_mover(ColourRecord(("w", "b", "b"), 1, 1), ColourRecord(("b", "w", "b"), 1, 2)) is True
    # nothing to go by: pairing number 1 gets the initial colour, the higher-ranked decides
    assert first_mover(ColourRecord((), 0, 1), ColourRecord((), 0, 2), initial="w") is True
    assert first_mover(ColourRecord((), 0, 1), ColourRecord((), 0, 2), initial="b") is False


def test_the_pairing_system_is_a_setting_on_the_api_and_the_log(director, client_as):
    api = client_as(director)
    response = api.post("/api/v1/tournaments/", {"name": "Open", "slug": "open", "format": "swiss", "rounds": 5,
                                                  "pairing_system": "dutch", "half_point_byes": 2},
                        format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["pairing_system"] == "dutch" and body["half_point_byes"] == 2 and body["acceleration"] == "none"
    response = api.patch("/api/v1/tournaments/open/", {"pairing_system": "weighted", "reason": "club custom"},
                         format="json")
    assert response.status_code == 200 and response.json()["pairing_system"] == "weighted"
    row = TournamentLog.objects.filter(tournament__slug="open", kind="settings_changed").last()
    assert row.data == {"pairing_system": {"before": "dutch", "after": "weighted"}} and row.reason == "club custom"
    response = api.patch("/api/v1/tournaments/open/", {"acceleration": "baku"}, format="json")
    assert response.status_code == 400 and "acceleration" in response.json()["error"]["details"]["fields"]
    response = api.patch("/api/v1/tournaments/open/", {"pairing_system": "monrad"}, format="json")
    assert response.status_code == 400
    tournament = Tournament.objects.get(slug="open")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    services.entries_add(acting_user=director, tournament=tournament, players=make_players(4))
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    response = api.patch("/api/v1/tournaments/open/", {"pairing_system": "dutch"}, format="json")
    assert response.status_code == 400  # chosen before the tournament starts
    schema = api.get("/api/v1/schema/").content.decode()
    assert "pairing_system" in schema and "/byes/" in schema and "/prohibitions/" in schema


def test_a_requested_half_point_bye_leaves_the_player_out_and_gives_a_draws_points(director, client_as, make_user):
    players = make_players(6)
    tournament = running_tournament(director, players, round_count=5, half_point_byes=1, byes_closed_rounds=2,
                                    **DUTCH)
    user = make_user("p1", "player")
    players[0].user = user
    players[0].save(update_fields=["user"])
    api = client_as(user)
    response = api.post("/api/v1/tournaments/club/byes/", {"player": players[0].pk, "round": 1}, format="json")
    assert response.status_code == 201, response.content
    assert response.json() == [{"player": players[0].pk, "name": "Player 001", "round": 1, "kind": "half",
                                "reason": "requested"}]
    # one only, none in the closed last rounds, nobody else's
    response = api.post("/api/v1/tournaments/club/byes/", {"player": players[0].pk, "round": 2}, format="json")
    assert response.status_code == 400 and "kind" in response.json()["error"]["details"]["fields"]
    response = client_as(director).post("/api/v1/tournaments/club/byes/", {"player": players[1].pk, "round": 4},
                                        format="json")
    assert response.status_code == 400 and "round" in response.json()["error"]["details"]["fields"]
    api = client_as(user)
    response = api.post("/api/v1/tournaments/club/byes/", {"player": players[1].pk, "round": 2}, format="json")
    assert response.status_code == 403
    # an absence announced (a zero-point bye) for round 1, by a director
    services.bye_request(acting_user=director, tournament=tournament, player=players[5].pk, round_number=1,
                         kind="zero")
    round_ = play_round(director, tournament)
    paired = {p for pair in _pairs(tournament, 1) for p in pair}
    assert players[0].pk not in paired and players[5].pk not in paired and len(paired) == 4
    assert any("Player 001 (half-point bye)" in note for note in round_.explanation)
    points = {r.player.pk: r.points for r in selectors.standings(tournament)}
    assert points[players[0].pk] == 1.0 and points[players[5].pk] == 0.0
    assert "bye ½" in [c.mark for row in selectors.crosstable(tournament)[1] if row.player.pk == players[0].pk
                       for c in row.rounds]
    trf = selectors.tournament_trf(tournament)
    line = next(ln for ln in trf.splitlines() if ln.startswith("001") and "Player 001" in ln)
    assert line[91:101].strip() == "0000 - H"
    # a round already paired takes no bye
    response = api.post("/api/v1/tournaments/club/byes/byes/cancel/", {}, format="json")
    assert response.status_code == 404
    response = api.post("/api/v1/tournaments/club/byes/cancel/", {"player": players[0].pk, "round": 1},
                        format="json")
    assert response.status_code == 409
    kinds = list(TournamentLog.objects.filter(tournament=tournament, kind="bye_requested")
                 .values_list("data", flat=True))
    assert {"player": players[0].pk, "round": 1, "bye": "half", "by": "player"} in kinds


def test_a_bye_is_cancelled_before_its_round_and_refused_where_the_tournament_gives_none(director, client_as):
    players = make_players(4)
    tournament = running_tournament(director, players, round_count=3, **DUTCH)
    with pytest.raises(services.InvalidInput):
        services.bye_request(acting_user=director, tournament=tournament, player=players[0].pk, round_number=2)
    services.bye_request(acting_user=director, tournament=tournament, player=players[0].pk, round_number=2,
                         kind="zero")
    response = client_as(director).post("/api/v1/tournaments/club/byes/cancel/",
                                        {"player": players[0].pk, "round": 2}, format="json")
    assert response.status_code == 200 and response.json() == []
    assert TournamentLog.objects.filter(tournament=tournament, kind="bye_cancelled").count() == 1


def test_a_late_entry_gets_the_points_the_director_gives_for_the_rounds_missed(director, client_as):
    players = make_players(4)
    tournament = running_tournament(director, players, round_count=4, **DUTCH)
    play_round(director, tournament)
    late = make_players(6)[5]
    response = client_as(director).post("/api/v1/tournaments/club/entries/",
                                        {"player": late.pk, "missed_rounds": "half"}, format="json")
    assert response.status_code == 201 and response.json()["first_round"] == 2
    assert RoundBye.objects.get(tournament=tournament, player=late).round_number == 1
    points = {r.player.pk: r.points for r in selectors.standings(tournament)}
    assert points[late.pk] == 1.0
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    assert late.pk in {p for pair in _pairs(tournament, 2) for p in pair}
    assert round_.number == 2
    # withdrawn: not paired any more
    services.round_publish(acting_user=director, tournament=tournament, number=2)
    finish_games(director, tournament, Round.objects.get(tournament=tournament, number=2))
    services.bye_request(acting_user=director, tournament=tournament, player=players[3].pk, round_number=4,
                         kind="zero")
    services.entry_withdraw(acting_user=director, tournament=tournament, player=players[3].pk)
    assert not RoundBye.objects.filter(player=players[3]).exists()  # his later byes go with him
    row = TournamentLog.objects.filter(tournament=tournament, kind="entry_withdrawn").get()
    assert row.data["byes_dropped"] == [4]
    services.round_pair(acting_user=director, tournament=tournament)
    assert players[3].pk not in {p for pair in _pairs(tournament, 3) for p in pair}


@pytest.mark.parametrize("system", ["dutch", "weighted"])
def test_players_kept_apart_are_not_paired_together(director, client_as, system):
    players = make_players(8)
    tournament = running_tournament(director, players, format="swiss", round_count=3, pairing_system=system)
    normal = services.round_pair(acting_user=director, tournament=tournament)
    first = {frozenset(p) for p in _pairs(tournament, 1)}
    services.round_discard(acting_user=director, tournament=tournament, number=normal.number)
    one, two = next(iter(sorted(first, key=sorted)))
    response = client_as(director).post("/api/v1/tournaments/club/prohibitions/",
                                        {"players": [one, two], "label": "one family"}, format="json")
    assert response.status_code == 201, response.content
    services.round_pair(acting_user=director, tournament=tournament)
    assert frozenset((one, two)) not in _pairs(tournament, 1)
    seeds = dict(tournament.entries.values_list("player_id", "seed"))
    trf = selectors.tournament_trf(tournament)
    assert f"260   1   3 {min(seeds[one], seeds[two]):>4} {max(seeds[one], seeds[two]):>4}" in trf.splitlines()
    others = [p for p in (pl.pk for pl in players) if p not in (one, two)]
    edit = [[one, two], *[others[i:i + 2] for i in range(0, len(others), 2)]]
    with pytest.raises(services.InvalidInput, match="kept apart in round 1"):
        services.round_pairings_edit(acting_user=director, tournament=tournament, number=1, pairings=edit,
                                     reason="try")
    listed = client_as(director).get("/api/v1/tournaments/club/prohibitions/").json()
    assert listed == [{"id": response.json()["id"], "players": sorted([one, two]), "until_round": None,
                       "label": "one family"}]
    response = client_as(director).delete(f"/api/v1/tournaments/club/prohibitions/{listed[0]['id']}/")
    assert response.status_code == 204
    kinds = set(TournamentLog.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert {"prohibition_set", "prohibition_removed"} <= kinds


def test_only_a_director_of_the_tournament_keeps_players_apart(director, make_user, client_as):
    players = make_players(4)
    running_tournament(director, players, round_count=3, **DUTCH)
    other = make_user("dir2", "director")
    response = client_as(other).post("/api/v1/tournaments/club/prohibitions/",
                                     {"players": [players[0].pk, players[1].pk]}, format="json")
    assert response.status_code == 403
    response = client_as(director).post("/api/v1/tournaments/club/prohibitions/",
                                        {"players": [players[0].pk, 999999]}, format="json")
    assert response.status_code == 400


def test_baku_acceleration_gives_virtual_points_to_the_first_half():
    points = baku_virtual_points(list(range(1, 11)), 9, PointSystem())
    assert sorted(points) == [1, 2, 3, 4, 5, 6]  # 2 x ceil(10 / 4)
    assert points[1] == (10, 10, 10, 5, 5)  # 1 point before rounds 1-3, a half before rounds 4-5


def test_baku_groups_keep_their_last_ga_player_when_players_enter_late():
    """FIDE C.04.5.1, late entries: GA is made from the list the tournament started from, and its last
    player stays the one he was."""
    numbers = list(range(1, 18))
    # 16 started, number 17 entered late below them all: GA stays 1-8 (2 x ceil(16 / 4)), not 1-10
    assert sorted(baku_virtual_points(numbers, 7, starting=set(range(1, 17)))) == list(range(1, 9))
    assert sorted(baku_virtual_points(numbers, 7)) == list(range(1, 11))  # as if all 17 had started
    # a late entry placed above the last GA player joins GA, which then holds an odd number of players
    assert sorted(baku_virtual_points(numbers, 7, starting=set(numbers) - {3})) == list(range(1, 10))


def test_a_baku_swiss_keeps_its_groups_when_a_player_enters_late(director, client_as):
    players = make_players(17)
    tournament = running_tournament(director, players[:16], round_count=5, acceleration="baku", games_per_match=1,
                                    opening="go-as-you-please", **DUTCH)
    play_round(director, tournament, outcome=lambda g: "1/2-1/2" if g.pk % 3 == 0 else "1-0")
    response = client_as(director).post("/api/v1/tournaments/club/entries/",
                                        {"player": players[16].pk, "missed_rounds": "half"}, format="json")
    assert response.status_code == 201, response.content
    trf = parse_trf(selectors.tournament_trf(tournament), "late.trf")
    assert len(trf.players) == 17
    assert sorted(dict(trf.accelerations)) == list(range(1, 9))  # GA as round 1 had it, not 2 x ceil(17 / 4)
    # round 2 is the Dutch pairing of the file, colours and all (one game a round)
    entries = list(tournament.entries.order_by("seed", "-player__rating", "player__name", "player_id"))
    by_number = {i: e.player_id for i, e in enumerate(entries, start=1)}
    expected = {(by_number[p.white], by_number[p.black] if p.black else None) for p in pair_next_round(trf)}
    services.round_pair(acting_user=director, tournament=tournament)
    paired = {(m.player_one_id, m.player_two_id) for m in Match.objects.filter(round__tournament=tournament,
                                                                                round__number=2)}
    assert paired == expected


def test_baku_acceleration_pairs_the_top_half_among_themselves_in_round_one(director):
    players = make_players(8)
    plain = running_tournament(director, players, round_count=5, **DUTCH)
    services.round_pair(acting_user=director, tournament=plain)
    seeds = dict(plain.entries.values_list("player_id", "seed"))
    top_half_v_bottom = {frozenset(seeds[p] for p in pair) for pair in _pairs(plain, 1)}
    assert frozenset((1, 5)) in top_half_v_bottom
    accelerated = running_tournament(director, players, slug="fast", round_count=5, acceleration="baku", **DUTCH)
    round_ = services.round_pair(acting_user=director, tournament=accelerated)
    seeds = dict(accelerated.entries.values_list("player_id", "seed"))
    pairs = {frozenset(seeds[p] for p in pair) for pair in _pairs(accelerated, 1)}
    assert pairs == {frozenset((1, 3)), frozenset((2, 4)), frozenset((5, 7)), frozenset((6, 8))}
    assert "Baku acceleration" in round_.explanation[0]


def test_the_manage_page_sets_the_system_records_byes_and_keeps_players_apart(director, client):
    players = make_players(6)
    tournament = services.tournament_create(acting_user=director, name="Open", slug="open", format="swiss",
                                            round_count=5)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    services.entries_add(acting_user=director, tournament=tournament, players=players)
    client.force_login(director)
    page = client.get("/tournaments/open/manage/").content.decode()
    assert 'id="pairing"' in page and "Weighted matching" in page
    response = client.post("/tournaments/open/manage/pairing", {
        "pairing_system": "dutch", "acceleration": "baku", "half_point_byes": 2, "byes_closed_rounds": 1,
        "reason": "a federation event"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.pairing_system, tournament.acceleration, tournament.half_point_byes,
            tournament.byes_closed_rounds) == ("dutch", "baku", 2, 1)
    row = TournamentLog.objects.filter(tournament=tournament, kind="settings_changed").last()
    assert row.data["pairing_system"] == {"before": "weighted", "after": "dutch"} and row.reason == "a federation event"
    client.post("/tournaments/open/manage/byes", {"player": players[2].pk, "round": 3, "kind": "half"})
    client.post("/tournaments/open/manage/prohibitions", {"players": [players[0].pk, players[1].pk],
                                                          "label": "Club Alpha", "until_round": 2})
    response = client.post("/tournaments/open/manage/byes", {"player": players[2].pk, "round": 5, "kind": "half"},
                           follow=True)
    assert "No half-point bye in the last 1 round(s)" in response.content.decode()
    page = client.get("/tournaments/open/manage/").content.decode()
    assert "Round 3: Player 003, half-point bye" in page
    assert "Club Alpha: Player 001 Player 002 · up to round 2" in page
    assert "FIDE Dutch system (C.04.3)" in page
    row = tournament.prohibitions.get()
    client.post("/tournaments/open/manage/prohibitions", {"remove": row.pk})
    client.post("/tournaments/open/manage/byes", {"player": players[2].pk, "round": 3, "cancel": "1"})
    assert not tournament.prohibitions.exists() and not tournament.round_byes.exists()


def test_a_player_asks_for_his_own_bye_on_the_tournaments_page(director, client, make_user):
    players = make_players(4)
    tournament = running_tournament(director, players, round_count=4, half_point_byes=1, **DUTCH)
    user = make_user("p1", "player")
    players[0].user = user
    players[0].save(update_fields=["user"])
    client.force_login(user)
    page = client.get("/tournaments/club/").content.decode()
    assert 'data-testid="ask-bye"' in page and "a half-point bye (1 allowed)" in page
    response = client.post("/tournaments/club/bye", {"player": players[0].pk, "round": 2, "kind": "half"}, follow=True)
    assert "Round 2: half-point bye recorded." in response.content.decode()
    assert RoundBye.objects.get(tournament=tournament).player == players[0]
    response = client.post("/tournaments/club/bye", {"player": players[1].pk, "round": 2, "kind": "zero"})
    assert response.status_code == 403  # nobody else's
    client.post("/tournaments/club/bye", {"player": players[0].pk, "round": 2, "cancel": "1"})
    assert not RoundBye.objects.filter(tournament=tournament).exists()


def test_a_dutch_swiss_of_single_games_casts_lots_for_the_top_seeds_colour_once(director):
    import re

    from tournaments.pairing.colours import initial_colour_lots

    tournament = running_tournament(director, make_players(8), round_count=3, games_per_match=1,
                                    opening="go-as-you-please", **DUTCH)
    first = play_round(director, tournament)
    seed = re.search(r"lots, seed (\d+)", first.explanation[0]).group(1)
    paired = TournamentLog.objects.get(tournament=tournament, kind="round_paired", data__round=1)
    assert paired.data["colour_lots_seed"] == seed  # the lots are on the log
    top = tournament.entries.get(seed=1).player_id
    colour = {}
    for match in Match.objects.filter(round=first, kind="played"):
        game = match.match_games.get().game
        colour[game.black_id], colour[game.white_id] = "B", "W"
    assert colour[top] == initial_colour_lots(int(seed))  # the top seed has the colour the lots gave him
    second = play_round(director, tournament)
    assert "lots, seed" not in second.explanation[0]  # read back from round 1, not cast again
    assert not TournamentLog.objects.get(tournament=tournament, kind="round_paired", data__round=2).data.get(
        "colour_lots_seed")


def test_round_ones_colours_are_read_back_as_the_reference_infers_them():
    from tournaments.pairing.colours import initial_colour_from_round_one

    assert initial_colour_from_round_one(["B", "W", "W", "B"]) == "B"
    # the top seed's game was a forfeit: no colour, but he was paired, so the next one had the other colour
    assert initial_colour_from_round_one([None, "W", "B", "B", "W"], [True, True, True, True, True]) == "B"
    # the top seed was not paired (a bye asked for): the first one paired had the lots' colour
    assert initial_colour_from_round_one([None, "W", "B", "B", "W"], [False, True, True, True, True]) == "W"
    # a forfeit on boards 1 and 2: two players without colours before the first with one
    assert initial_colour_from_round_one([None, None, "W", "B"], [True, True, True, True]) == "W"


def test_a_single_game_swiss_keeps_the_lots_colour_when_the_top_seeds_first_match_is_forfeited(director):
    import re

    from tournaments.pairing.colours import initial_colour_lots

    players = make_players(8)
    tournament = running_tournament(director, players, round_count=4, games_per_match=1,
                                    opening="go-as-you-please", **DUTCH)
    services.presence_set(acting_user=director, tournament=tournament, player=players[0].pk, present=False)
    first = services.round_pair(acting_user=director, tournament=tournament, absent="forfeit")
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    forfeits = Match.objects.filter(round=first, kind="forfeit").values_list("player_one_id", "player_two_id")
    assert any(players[0].pk in pair for pair in forfeits)  # the top seed's match was not played
    lots = initial_colour_lots(int(re.search(r"lots, seed (\d+)", first.explanation[0]).group(1)))
    finish_games(director, tournament, first, lambda g: "1/2-1/2")
    second = services.round_pair(acting_user=director, tournament=tournament)
    # read back from round 1 (the top seed's game was not played): the colour the lots gave, not its opposite
    assert f"the top seed's colour in round 1 is {'Black' if lots == 'B' else 'White'}" in second.explanation[0]
    # and round 2 is the Dutch pairing of the tournament's file, colours and all
    trf = parse_trf(selectors.tournament_trf(tournament), "forfeit.trf")
    entries = list(tournament.entries.order_by("seed", "-player__rating", "player__name", "player_id"))
    by_number = {i: e.player_id for i, e in enumerate(entries, start=1)}
    expected = {(by_number[p.white], by_number[p.black] if p.black else None) for p in pair_next_round(trf)}
    assert {(m.player_one_id, m.player_two_id) for m in Match.objects.filter(round=second)} == expected


@pytest.mark.parametrize(("seed", "colour"), [(1, "B"), (2, "W")])
def test_a_single_game_swiss_exports_the_lots_colour_and_its_file_pairs_round_one_as_the_tournament_did(
        director, monkeypatch, seed, colour):
    """Before round 1 is played the file has no round to infer the top seed's colour from: its XXC line says
    what the lots gave, and the file alone pairs round 1 with the tournament's colours (the reference's -p)."""
    from tournaments.pairing.colours import initial_colour_lots

    assert initial_colour_lots(seed) == colour
    monkeypatch.setattr(pure, "seed_new", lambda: seed)  # the lots' seed, chosen to give each colour once
    tournament = running_tournament(director, make_players(7), round_count=3, games_per_match=1,
                                    opening="go-as-you-please", **DUTCH)
    first = services.round_pair(acting_user=director, tournament=tournament)
    assert f"lots, seed {seed}" in first.explanation[0]
    text = selectors.tournament_trf(tournament)
    assert f"XXC {'white1' if colour == 'B' else 'black1'}" in text.splitlines()  # white: the first to move
    trf = parse_trf(text, "lots.trf")
    assert not any(p.rounds for p in trf.players)  # round 1 is not played: nothing to read it back from
    entries = list(tournament.entries.order_by("seed", "-player__rating", "player__name", "player_id"))
    by_number = {i: e.player_id for i, e in enumerate(entries, start=1)}
    expected = {(by_number[p.white], by_number[p.black] if p.black else None) for p in pair_next_round(trf)}
    assert {(m.player_one_id, m.player_two_id) for m in Match.objects.filter(round=first)} == expected


def test_the_trf_of_a_tournament_whose_lost_match_scores_says_what_a_forfeit_and_an_absence_score(director):
    """Each line's points add up by the file's own point system, as the reference checks before it pairs."""
    players = make_players(7)
    tournament = running_tournament(director, players, round_count=3, match_points_win=3, match_points_draw=2,
                                    match_points_loss=1, **DUTCH)
    services.presence_set(acting_user=director, tournament=tournament, player=players[0].pk, present=False)
    services.bye_request(acting_user=director, tournament=tournament, player=players[6].pk, round_number=1,
                         kind="zero")
    first = services.round_pair(acting_user=director, tournament=tournament, absent="forfeit")
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    finish_games(director, tournament, first)
    text = selectors.tournament_trf(tournament)
    trf = parse_trf(text, "3-2-1.trf")
    assert (trf.points.win, trf.points.draw, trf.points.loss, trf.points.zero_bye, trf.points.forfeit_loss,
            trf.points.bye) == (30, 20, 10, 0, 10, 30)
    results = {r.result for p in trf.players for r in p.rounds}
    assert {"-", "+", "Z"} <= results  # a forfeit (the absent player's) and a round not paired in
    for p in trf.players:
        assert p.points == sum(r.points(trf.points) for r in p.rounds), p
    standings = {r.player.pk: r.points for r in selectors.standings(tournament)}
    assert standings[players[0].pk] == 1.0 and standings[players[6].pk] == 0.0  # the file says what they have


def test_the_dutch_core_gives_the_top_seed_the_colour_the_lots_gave():
    players = [pure.DutchEntrant(id=n, name=f"P{n}") for n in range(1, 7)]
    scoring = pure.Scoring()
    for colour in ("B", "W"):
        pairings, _note = pure.dutch_pairings(players, scoring=scoring, rounds_total=5, two_games=False,
                                              initial_colour=colour)
        top = next(p for p in pairings if 1 in (p.one, p.two))
        assert (top.one == 1) == (colour == "B")  # the first-named moves first: Black


def test_a_baku_swiss_exports_its_virtual_points_and_its_file_pairs_as_the_tournament_did(director):
    from tournaments.pairing.trf import write_trf

    players = make_players(8)
    tournament = running_tournament(director, players, round_count=5, acceleration="baku", **DUTCH)
    play_round(director, tournament, outcome=lambda g: "1/2-1/2" if g.pk % 2 else "1-0")
    text = selectors.tournament_trf(tournament)
    trf = parse_trf(text, "baku.trf")
    # the first half of the players (2 x ceil(8 / 4) = 4) have a point before rounds 1-2, a half before round 3
    assert dict(trf.accelerations) == {n: (20, 20, 10) for n in (1, 2, 3, 4)}  # match points, in tenths
    assert "XXA    1  2.0  2.0  1.0" in text.splitlines()
    assert parse_trf(write_trf(trf), "again.trf").accelerations == trf.accelerations  # written as read
    # the file alone pairs round 2 as the tournament does (its acceleration read from the XXA lines)
    entries = list(tournament.entries.order_by("seed", "-player__rating", "player__name", "player_id"))
    by_number = {i: e.player_id for i, e in enumerate(entries, start=1)}
    expected = {frozenset(by_number[n] for n in (p.white, p.black) if n is not None)
                for p in pair_next_round(replace_colourless(trf))}
    services.round_pair(acting_user=director, tournament=tournament)
    assert _pairs(tournament, 2) == expected
    plain = {frozenset(by_number[n] for n in (p.white, p.black) if n is not None)
             for p in pair_next_round(replace_colourless(trf), virtual_points={})}
    assert plain != expected  # without the virtual points the file would pair otherwise


def replace_colourless(trf):
    """The file with its two-game matches' colours wiped, as the tournament's own Dutch pairing sees them."""
    from dataclasses import replace

    players = tuple(replace(p, rounds=tuple(replace(r, colour=None) for r in p.rounds)) for p in trf.players)
    return replace(trf, players=players, initial_colour="w")

"""Events on PostgreSQL: sections and their entry rules, the one desk, title matches, series."""

from __future__ import annotations

from datetime import date

import pytest

from events import selectors, services
from events.errors import EntryRefused, TitleMatchConflict
from events.models import EventLog, Registration, TitleMatch
from games.models import Game
from games.rules import Position
from tests.events.helpers import current_game, finish, make_event, players, three_sections
from tournaments import services as tournament_services
from tournaments.models import Entry, Presence, Tournament, TournamentLog

pytestmark = pytest.mark.django_db


def test_each_section_is_a_tournament_of_its_own_directed_by_the_events_directors(director, make_user):
    event = make_event(director)
    deputy = make_user("deputy", "director")
    services.event_directors_add(acting_user=director, event=event, user=deputy)
    masters, major, minor = three_sections(director, event)
    assert (masters.tournament.games_per_match, major.tournament.format, minor.tournament.opening) == (
        4, "swiss", "go-as-you-please")
    for section in (masters, major, minor):
        assert set(section.tournament.directors.all()) == {director, deputy}
        assert section.tournament.status == Tournament.Status.REGISTRATION
        assert section.tournament.start_date == date(2026, 7, 1)


def test_an_entry_refused_by_a_sections_band_says_why_and_enters_nobody(director):
    event = make_event(director)
    masters, major, minor = three_sections(director, event)
    (low,) = players("Low", [1650])
    with pytest.raises(EntryRefused) as refused:
        services.registration_add(acting_user=director, event=event, section=major, player=low)
    assert refused.value.details["reason"] == "Low 1's rating 1650 is below Major's band (1700 to 2099)."
    assert refused.value.status_code == 409 and refused.value.code == "entry_refused"
    assert not Entry.objects.filter(player=low).exists() and not Registration.objects.filter(player=low).exists()
    services.registration_add(acting_user=director, event=event, section=minor, player=low)
    assert Entry.objects.get(player=low).tournament == minor.tournament


def test_an_imported_rating_list_decides_the_band_a_player_may_enter(director, django_user_model):
    from clubs.rating_lists import rating_list_import

    event = make_event(director)
    _masters, major, minor = three_sections(director, event)
    (low,) = players("Low", [1650])  # the system's own rating: the Minor's band
    admin = django_user_model.objects.create_superuser("fed", "fed@example.org", "a-long-test-password")
    rating_list_import(acting_user=admin, federation="ACF", text="ID,Name,Rating,Games\n901,Low 1,1850,40\n")
    low.refresh_from_db()
    assert (low.federation_id, low.federation_rating) == ("901", 1850)  # seeded by name from the list
    with pytest.raises(EntryRefused) as refused:
        services.registration_add(acting_user=director, event=event, section=minor, player=low)
    assert "1850" in refused.value.details["reason"]  # the list's rating, not the system's 1650
    services.registration_add(acting_user=director, event=event, section=major, player=low)
    assert Entry.objects.get(player=low).tournament == major.tournament


def test_a_master_may_not_enter_the_minor(director):
    event = make_event(director)
    masters, _major, minor = three_sections(director, event)
    (master,) = players("Master", [2300])
    master.rating = 2300
    services.registration_add(acting_user=director, event=event, section=masters, player=master)
    master.rating = 1500  # were he rated inside the Minor's band, the Masters still bars him
    master.save(update_fields=["rating"])
    with pytest.raises(EntryRefused) as refused:
        services.registration_add(acting_user=director, event=event, section=minor, player=master)
    assert refused.value.message == "Master 1 is entered in Masters, whose players may not enter Minor."


def test_only_a_director_of_this_event_registers_and_checks_in(director, make_user):
    event = make_event(director)
    _masters, major, _minor = three_sections(director, event)
    other = make_user("other_director", "director")
    (player,) = players("P", [1800])
    with pytest.raises(tournament_services.NotDirector):
        services.registration_add(acting_user=other, event=event, section=major, player=player)
    services.registration_add(acting_user=director, event=event, section=major, player=player)
    with pytest.raises(tournament_services.NotDirector):
        services.event_check_in(acting_user=other, event=event, player=player)
    with pytest.raises(tournament_services.NotDirector):
        services.section_create(acting_user=other, event=event, name="Seniors")


def test_one_check_in_marks_the_player_present_in_each_of_his_sections(director):
    event = make_event(director)
    masters, major, _minor = three_sections(director, event)
    side = services.section_create(acting_user=director, event=event, name="Blitz", format="swiss", round_count=5)
    (player,) = players("P", [2050])
    services.registration_add(acting_user=director, event=event, section=masters, player=player)
    services.registration_add(acting_user=director, event=event, section=side, player=player)
    marked = services.event_check_in(acting_user=director, event=event, player=player)
    assert [s.name for s in marked] == ["Masters", "Blitz"]
    assert set(Presence.objects.filter(player=player, present=True).values_list("tournament_id", flat=True)) == {
        masters.tournament_id, side.tournament_id}
    assert TournamentLog.objects.filter(tournament=side.tournament, kind="presence_marked").count() == 1
    (line,) = selectors.desk(event)
    assert line.checked_in and [s.name for s in line.sections] == ["Masters", "Blitz"]
    assert major.tournament.presences.count() == 0


def _title_match(director, games=8, play_out=False, seed=42) -> TitleMatch:
    one, two = players("Champion", [2400, 2380])
    match = services.title_match_create(acting_user=director, name="World Title", slug="world-title",
                                        player_one=one, player_two=two, games=games, play_out=play_out, seed=seed)
    services.title_match_start(acting_user=director, match=match)
    match.refresh_from_db()
    return match


def test_title_match_openings_are_drawn_in_advance_reproducibly_each_played_twice_colours_reversed(director):
    from tournaments.ballots import draw_ballots
    from tournaments.lots import cast_lots

    match = _title_match(director, games=6)
    assert [b["number"] for b in match.ballots] == [b.number for b in draw_ballots([], int(match.ballot_seed), 3)]
    assert match.first_black_id == cast_lots(match.player_one_id, match.player_two_id, int(match.lots_seed)).black_first
    finish(director, current_game(match), None)
    finish(director, current_game(match), None)
    first, second = [mg.game for mg in match.match_games.select_related("game").order_by("number")][:2]
    assert first.black_id == second.white_id == match.first_black_id
    assert first.start_fen == second.start_fen
    assert Position.from_fen(first.start_fen) == Position.from_fen(match.ballots[0]["fen"])
    assert Position.from_fen(current_game(match).start_fen) == Position.from_fen(match.ballots[1]["fen"])


def test_a_title_match_is_decided_with_games_to_spare_and_the_rest_not_played(director):
    match = _title_match(director, games=8)
    one = match.player_one
    for _ in range(4):  # four wins: 4-0 with four games left could be caught (4 points) ...
        finish(director, current_game(match), one)
    match.refresh_from_db()
    assert match.status == TitleMatch.Status.PLAYING and match.match_games.count() == 5
    finish(director, current_game(match), None)  # ... 4½-½ with three left cannot
    match.refresh_from_db()
    assert match.status == TitleMatch.Status.FINISHED and match.match_games.count() == 5
    line, rows = selectors.title_match_detail(match)
    assert (line.decided_after, line.winner, line.score) == (5, 1, (9, 1))
    assert [r.running for r in rows] == ["1-0", "2-0", "3-0", "4-0", "4½-½", "", "", ""]
    finished = EventLog.objects.get(title_match=match, kind="finished")
    assert finished.data["decided_after"] == 5 and finished.data["winner"] == one.pk
    services.title_match_game_finished(game_id=current_game(match).pk)  # a second run does nothing
    assert match.match_games.count() == 5


def test_a_title_match_played_out_goes_on_after_it_is_decided(director):
    match = _title_match(director, games=4, play_out=True)
    for _ in range(3):
        finish(director, current_game(match), match.player_two)
    match.refresh_from_db()
    assert match.status == TitleMatch.Status.PLAYING and match.match_games.count() == 4
    finish(director, current_game(match), match.player_one)
    match.refresh_from_db()
    line, _rows = selectors.title_match_detail(match)
    assert match.status == TitleMatch.Status.FINISHED and line.decided_after == 3 and line.winner == 2
    assert line.score == (2, 6)


def test_a_title_match_starts_once_and_its_games_are_ordinary_games(director):
    match = _title_match(director, games=2)
    with pytest.raises(TitleMatchConflict):
        services.title_match_start(acting_user=director, match=match)
    game = current_game(match)
    assert game.round_id is None and game.status == Game.Status.IN_PROGRESS and game.created_by == director


def test_title_match_needs_an_even_number_of_games(director):
    one, two = players("X", [2000, 2000])
    with pytest.raises(tournament_services.InvalidInput) as info:
        services.title_match_create(acting_user=director, name="Odd", player_one=one, player_two=two, games=5)
    assert "games" in info.value.details["fields"]


def _finished_round_robin(director, slug, field, order):
    """A round robin of the field, finished so that the players finish in ``order`` (its first wins all)."""
    tournament = tournament_services.tournament_create(acting_user=director, name=slug, slug=slug,
                                                       opening="go-as-you-please")
    tournament_services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in field:
        tournament_services.entry_add(acting_user=director, tournament=tournament, player=player)
    tournament_services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    rank = {p.pk: i for i, p in enumerate(order)}
    for _round in range(len(field) - 1 + len(field) % 2):
        round_ = tournament_services.round_pair(acting_user=director, tournament=tournament)
        tournament_services.round_publish(acting_user=director, tournament=tournament, number=round_.number)
        for game in Game.objects.filter(round=round_):
            result = "1-0" if rank[game.black_id] < rank[game.white_id] else "0-1"
            tournament_services.game_result_set(acting_user=director, tournament=tournament, game_id=game.pk,
                                                result=result, reason="slip")
    return tournament


def test_series_standings_count_each_players_best_k_of_n_stages(director):
    a, b, c = players("S", [2000, 1990, 1980])
    stages = [_finished_round_robin(director, "stage-1", [a, b, c], [a, b, c]),
              _finished_round_robin(director, "stage-2", [a, b, c], [b, c, a]),
              _finished_round_robin(director, "stage-3", [a, b, c], [c, a, b])]
    series = services.series_create(acting_user=director, name="World Cup", method="places",
                                    place_points=[10, 6, 4], best_of=2, stages=[t.slug for t in stages])
    _stages, table = selectors.series_table(series)
    assert [(p.name, row.total, row.counted) for row, p in table] == [
        ("S 1", 16.0, (True, False, True)), ("S 2", 16.0, (True, True, False)), ("S 3", 16.0, (False, True, True))]
    assert [row.rank for row, _p in table] == [1, 1, 1]
    all_count = services.series_create(acting_user=director, name="All", method="places", place_points=[10, 6, 4],
                                       stages=[t.slug for t in stages])
    assert [row.total for row, _p in selectors.series_table(all_count)[1]] == [20.0, 20.0, 20.0]
    by_results = services.series_create(acting_user=director, name="Results", method="results", best_of=1,
                                        stages=[t.slug for t in stages[:2]])
    assert [(p.name, row.total) for row, p in selectors.series_table(by_results)[1]][0][1] > 0


def test_the_desk_reads_in_a_fixed_number_of_queries_whatever_the_number_of_players(director,
                                                                                   django_assert_num_queries):
    event = make_event(director)
    masters, major, minor = three_sections(director, event)
    for section, group in ((masters, players("M", [2100, 2200])), (major, players("J", [1800] * 6)),
                           (minor, players("N", [1500] * 8))):
        for player in group:
            services.registration_add(acting_user=director, event=event, section=section, player=player)
        services.event_check_in(acting_user=director, event=event, player=group[0])
    with django_assert_num_queries(6):  # registrations, entries, marks, and one a section for its next round
        lines = selectors.desk(event)
    assert len(lines) == 16 and sum(line.checked_in for line in lines) == 3

"""The demo: made by its command through the services, with a genuine record, its event, and every page of it
renders; a second run of the command adds nothing. The demo is seeded once for the module's tests, by the command."""

import io

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from arbitration.models import LogEntry
from events import selectors
from events.demo import EVENT_SLUG, MATCH_SLUG, SERIES_SLUG
from events.models import Event, TitleMatch
from games.models import Game, Move
from games.rules import Position
from players.models import Player
from tests.support.shared_rows import module_fixture
from tournaments.ballots import deck
from tournaments.demo import DEMO_SLUG, SWISS_SLUG, Login, master_games, master_games_for
from tournaments.models import MatchGame, Presence, RatingHistory, Tournament, TournamentLog

pytestmark = [pytest.mark.django_db(transaction=False), pytest.mark.smoke]


def test_the_master_games_excerpt_covers_the_ballot_deck_and_replays():
    openings = master_games()
    assert len(openings) >= 150
    # Every ballot of the deck opens a master game but 141 (11-16 22-17 9-13, added to the deck
    # for mail play): no game of tinsley.pdn, goulds.pdn or OCA_2.0.pdn reaches its position.
    assert [b.number for b in deck() if not master_games_for(b.fen)] == [141]
    for games in openings.values():
        for game in games:
            assert game.source.startswith(("tinsley.pdn #", "OCA_2.0.pdn #"))
            assert game.result in ("1-0", "0-1", "1/2-1/2")


def _seeded_by_the_command() -> tuple[list[Login], str]:
    """``manage.py seed_demo`` on the empty database: the logins it prints, and its output."""
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    text = out.getvalue()
    table = text.split("Logins (kept in", 1)[1].splitlines()[2:]  # after the path's line and the header
    return [Login(*line.split()) for line in table if line.strip()], text


seeded = module_fixture(_seeded_by_the_command)  # the demo, seeded once for the module's tests


@pytest.fixture
def demo(seeded):
    """The demo's logins."""
    return seeded[0]


def test_the_command_seeds_once_a_second_run_adds_nothing_and_the_record_passes_verify_log(seeded):
    logins, output = seeded
    assert output.startswith("Demo tournament loaded")
    assert {login.role for login in logins} >= {"director", "referee"} and all(len(login.password) >= 12 for login in logins)
    counts = (Tournament.objects.count(), Game.objects.count(), LogEntry.objects.count(), User.objects.count())
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "already" in out.getvalue()
    assert (Tournament.objects.count(), Game.objects.count(), LogEntry.objects.count(), User.objects.count()) == counts
    report = io.StringIO()
    call_command("verify_log", stdout=report)  # exits 1 (SystemExit) on a broken chain
    text = report.getvalue()
    assert "demo-club-championship: OK" in text and "demo-autumn-swiss: OK" in text
    assert text.count(": OK") == Game.objects.count() + Tournament.objects.count()  # the apps above add to the demo


def test_the_demo_is_made_by_the_services_with_lots_ballots_and_real_games(demo):
    logins = demo
    assert [login.username for login in logins] == (
        ["director", "referee1", "referee2"] + [f"player{i}" for i in range(1, 9)] + ["secretary"]
    )
    passwords = [login.password for login in logins]
    assert len(set(passwords)) == len(passwords)
    for login in logins:
        assert authenticate(username=login.username, password=login.password) is not None
    assert User.objects.get(username="player3").player.name == "Cora Lindqvist"
    from clubs.models import Club  # the demo players' clubs are records, one with a secretary

    clubs = {c.name: (c.short_name, sorted(c.members.values_list("player__name", flat=True)))
             for c in Club.objects.all()}
    assert clubs["Edinburgh DC"][0] == "EDC"  # the event's entrants of the club (events/demo.py) join it too
    assert {"Agnes Calder", "Cora Lindqvist"} <= set(clubs["Edinburgh DC"][1])
    for player in Player.objects.exclude(club=""):  # every demo player with a club is a member of its record
        assert player.name in clubs[player.club][1], (player.name, player.club)
    assert Club.objects.get(name="Edinburgh DC").secretary.username == "secretary"

    championship = Tournament.objects.get(slug=DEMO_SLUG)
    assert championship.status == "running" and championship.games_per_match == 2
    assert championship.entries.count() == 8
    assert list(championship.directors.values_list("username", flat=True)) == ["director"]
    round_one, round_two = championship.rounds.order_by("number")
    assert round_one.status == "finished"
    matches = list(round_one.matches.order_by("board"))
    assert len(matches) == 4
    for match in matches:  # lots cast and a ballot drawn, recorded with their seeds
        assert match.lots_seed and match.first_black_id in (match.player_one_id, match.player_two_id)
        assert len(match.ballots) == 1 and match.ballots[0]["seed"]
    games = list(Game.objects.filter(round=round_one))
    assert len(games) == 8 and all(g.status == "finished" and g.result for g in games)
    for row in MatchGame.objects.filter(match__round=round_one).select_related("game", "match"):
        ballot = row.match.ballots[0]
        assert row.ballot_number == ballot["number"] and Position.from_fen(row.game.start_fen) == Position.from_fen(ballot["fen"])
        if master_games_for(ballot["fen"]):
            assert row.game.ply == Move.objects.filter(game=row.game).count() >= 20  # a master game, move by move
        else:  # ballot 141 opens no game of the archives: the players agree a draw after the ballot
            assert row.ballot_number == 141 and row.game.ply == 0 and row.game.termination == "draw_agreement"
    kinds = set(LogEntry.objects.filter(game__round__tournament=championship).values_list("kind", flat=True))
    assert {"move", "forty_move_notice", "touch_offence", "clock_start", "game_end"} <= kinds

    round_two_games = list(Game.objects.filter(round=round_two).select_related("clock").order_by("id"))
    assert all(g.status == "in_progress" for g in round_two_games)
    running = [g for g in round_two_games if g.clock.state.get("status") == "running"]
    assert len(running) == 4 and sum(g.ply for g in running) > 0

    swiss = Tournament.objects.get(slug=SWISS_SLUG)
    assert swiss.status == "finished" and swiss.rounds.filter(status="finished").count() == 3
    assert swiss.pairing_system == "dutch" and all("FIDE Dutch system" in r.explanation[0] for r in swiss.rounds.all())
    assert RatingHistory.objects.filter(tournament=swiss).count() == 8
    assert TournamentLog.objects.filter(tournament=swiss, kind="ratings_updated").exists()


def _pages() -> list[str]:
    pages = ["/", "/tournaments/", "/games/"]
    for tournament in Tournament.objects.all():
        pages += [f"/tournaments/{tournament.slug}/"]
        pages += [f"/tournaments/{tournament.slug}/players/{p}/" for p in tournament.players.values_list("id", flat=True)]
        for number in tournament.rounds.exclude(status="preview").values_list("number", flat=True):
            pages += [f"/tournaments/{tournament.slug}/rounds/{number}/pairings/",
                      f"/tournaments/{tournament.slug}/rounds/{number}/scoresheets/"]
        pages += [f"/tournaments/{tournament.slug}/print/standings/"]
    pages += [f"/tournaments/players/{p}/" for p in Tournament.objects.get(slug=DEMO_SLUG).players.values_list("id", flat=True)]
    pages += [f"/games/{g}" for g in Game.objects.values_list("id", flat=True)]
    return pages


def test_every_page_of_the_demo_renders_for_each_role(demo):
    anonymous = Client()
    for page in _pages():
        response = anonymous.get(page)
        assert response.status_code == 200, page
    director, referee, player = Client(), Client(), Client()
    director.force_login(User.objects.get(username="director"))
    referee.force_login(User.objects.get(username="referee1"))
    player.force_login(User.objects.get(username="player1"))
    staff_pages = ["/tournaments/manage/"] + [f"/tournaments/{t.slug}/manage/" for t in Tournament.objects.all()]
    staff_pages += [f"/games/{g}/console" for g in Game.objects.values_list("id", flat=True)]
    for page in staff_pages + ["/", "/tournaments/me/"]:
        assert director.get(page).status_code == 200, page
    for page in [f"/games/{g}/console" for g in Game.objects.filter(referees__username="referee1").values_list("id", flat=True)]:
        assert referee.get(page).status_code == 200, page
    for page in ["/", "/tournaments/me/", "/tournaments/me/boards/"]:
        assert referee.get(page).status_code == 200, page
    for page in ["/", "/tournaments/me/"]:
        assert player.get(page).status_code == 200, page


def test_the_demo_tournament_page_shows_its_games(demo):
    page = Client().get(f"/tournaments/{DEMO_SLUG}/").content.decode()
    assert page.count('data-testid="match"') == 8  # two rounds of 4 matches, made by the services
    assert page.count('data-testid="game-link"') == 16 and 'data-testid="loose-game"' not in page


def test_the_demo_holds_an_event_of_three_sections_a_title_match_and_a_series(demo):
    """The demo's event: three sections under way after one desk, a short title match, a series; its pages
    render."""
    event = Event.objects.get(slug=EVENT_SLUG)
    sections = list(event.sections.select_related("tournament").order_by("order"))
    assert [s.name for s in sections] == ["Masters", "Major", "Minor"]
    assert sections[0].tournament.games_per_match == 4
    for section in sections:
        assert section.tournament.status == "running"
        assert Presence.objects.filter(tournament=section.tournament, present=True).count() == 4
        assert section.tournament.rounds.get().status == "preview"  # paired after the desk, for the director
    match = TitleMatch.objects.get(slug=MATCH_SLUG)
    assert match.status == "finished" and match.match_games.count() == 3  # decided with a game to spare
    assert selectors.title_match_detail(match)[0].score == (5, 1)
    assert not Game.objects.filter(round__isnull=True, status="in_progress").exists()
    client = Client()
    for url in (f"/events/{EVENT_SLUG}/", f"/events/{EVENT_SLUG}/programme/", f"/events/matches/{MATCH_SLUG}/",
                f"/events/matches/{MATCH_SLUG}/scoresheet/", f"/events/series/{SERIES_SLUG}/", "/events/"):
        assert client.get(url).status_code == 200, url


def test_the_40_move_notice_goes_to_the_first_long_master_game_from_its_board_on():
    """The ballots are drawn by lot: board 2's may open no master game (ballot 141) or a short one; the notice
    then goes to the next board's, and to an earlier board's only if no later one has a long game."""
    from types import SimpleNamespace

    from tournaments.demo import notice_game

    long, short = SimpleNamespace(moves=["11-15"] * 30), SimpleNamespace(moves=["11-15"] * 12)
    games = [(1, 1, long), (1, 2, long), (2, 1, long), (2, 2, long), (3, 1, long)]
    assert notice_game(games, 2) == 2  # board 2, game 1, as before
    games = [(1, 1, long), (1, 2, long), (2, 1, None), (2, 2, short), (3, 1, short), (3, 2, long)]
    assert notice_game(games, 2) == 5
    games = [(1, 1, short), (1, 2, long), (2, 1, None), (2, 2, None), (3, 1, short)]
    assert notice_game(games, 2) == 1
    assert notice_game([(1, 1, None), (2, 1, short)], 2) is None


def test_every_board_of_the_round_in_progress_has_play_under_way(demo):
    """Each first game of round 2 has moves after its ballot (the home page lists the games being played)."""
    firsts = Game.objects.filter(round__tournament__slug=DEMO_SLUG, round__number=2, match_game__number=1)
    assert sorted((g.status, g.ply > 0) for g in firsts) == [(Game.Status.IN_PROGRESS, True)] * 4


def test_a_ballot_that_opens_no_master_game_is_played_on_by_the_first_legal_moves():
    """Ballot 141 opens no master game; drawn for a board of round 2 (1 seeding in ~40), that board's first
    game gets the first legal moves instead (without them the home page showed 3 games being played, not 4)."""
    from tournaments.demo import _first_moves

    ballot = next(b for b in deck() if b.number == 141)
    moves = _first_moves(ballot.fen, 6)
    assert len(moves) == 6
    position = Position.from_fen(ballot.fen)
    for text in moves:
        legal = {move.pdn(): move for move in position.legal_moves()}
        assert text in legal
        position = position.play(legal[text])

"""The pages say things as people say them: tiebreaks and rules in words, a round's score under Score, no
lots seeds for the public, a game named by its tournament and round, a player's results from his side, and
confirmation asked only while an appeal may be filed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from tests.tournaments.test_services import finish_games, make_players, play_round, running_tournament
from tests.tournaments.test_services_pages import _client
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db




def _headings(page: str, testid: str) -> list[str]:
    table = re.search(rf'data-testid="{testid}">(.*?)</thead>', page, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]


def test_standings_headings_are_words_and_no_column_twice(director):
    tournament = running_tournament(director, make_players(4), format="swiss", round_count=2,
                                    opening="go-as-you-please",
                                    tiebreaks=["buchholz", "median_buchholz", "sonneborn_berger", "head_to_head",
                                               "wins", "game_points"])
    play_round(director, tournament)
    for path, testid in (("/tournaments/club/", "standings"), ("/tournaments/club/print/standings/",
                                                                 "print-standings")):
        headings = _headings(_client().get(path).content.decode(), testid)
        assert headings == ["Rank", "Player", "Points", "Buchholz", "Median Buchholz", "Sonneborn-Berger",
                            "Direct encounter", "Wins", "Game points", "Played"]
        page = _client().get(path).content.decode()
        rows = re.findall(r'<tr data-testid="standings-row">(.*?)</tr>', page, re.S)
        assert all(len(re.findall(r"<td", row)) == len(headings) for row in rows)


def test_the_manage_page_and_its_messages_say_rules_tiebreaks_and_statuses_in_words(director):
    client = _client(director)
    response = client.post("/tournaments/manage/", {
        "name": "Words Cup", "slug": "words", "format": "swiss", "rounds": "3", "games_per_match": "2",
        "opening": "go-as-you-please", "rule_set": "standard", "progress_rule": "forty-move-notice",
        "tiebreaks": ["SB", "BH"],
    })
    assert response.status_code == 302
    client.post("/tournaments/words/manage/clock", {"clock": "moves-in-time", "clock_moves": "30",
                                                     "clock_seconds": "1800", "clock_increment_seconds": "0"})
    page = client.get("/tournaments/words/manage/").content.decode()
    meta = re.sub(r"<[^>]+>", "", re.search(r'<p class="meta">(.*?)</p>', page, re.S).group(1))
    assert "40-move rule on notice (Law 22)" in meta and "forty-move-notice" not in meta
    assert "tiebreaks: Sonneborn-Berger, Buchholz" in meta and "sonneborn_berger" not in meta
    assert "30 moves in 30 min" in meta
    assert 'value="1800"' in page and "1800.0" not in page
    response = client.post("/tournaments/words/manage/status", {"status": "registration"}, follow=True)
    text = response.content.decode()
    assert "Registration is open" in text and "is now registration" not in text


def test_the_rounds_table_scores_under_score_notes_apart_and_no_lots_seed(director):
    tournament = running_tournament(director, make_players(4), format="swiss", round_count=2,
                                    opening="go-as-you-please")
    play_round(director, tournament, outcome=lambda g: "1/2-1/2" if g.id % 2 else "1-0")
    page = _client().get("/tournaments/club/").content.decode()
    assert _headings(page, "round-1")[-1] == "Score"
    for match in Match.objects.filter(round__tournament=tournament):
        assert match.lots_seed and match.lots_seed not in page
    scores = [re.sub(r"<[^>]+>", "", s).strip() for s in re.findall(r'data-testid="match-score">(.*?)</td>', page)]
    assert sorted(scores) and all(re.fullmatch(r"\d(\.5)?-\d(\.5)?", s) for s in scores)
    for match in Match.objects.filter(round__tournament=tournament):
        assert match.explanation
        table = re.search(r'data-testid="round-1">(.*?)</table>', page, re.S).group(1)
        assert match.explanation not in table  # in the pairing notes below the table, not under Score
    assert 'data-testid="pairing-notes-1"' in page


def test_a_game_page_links_to_its_tournament_and_round(director):
    tournament = running_tournament(director, make_players(2), opening="go-as-you-please")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    game = Game.objects.filter(round=round_).first()
    page = _client().get(f"/games/{game.pk}").content.decode()
    crumb = re.search(r'data-testid="game-tournament">(.*?)</p>', page, re.S).group(1)
    assert 'href="/tournaments/club/"' in crumb and "Club Championship" in crumb
    assert 'href="/tournaments/club/#round-1"' in crumb and "round 1" in crumb
    assert 'id="round-1"' in _client().get("/tournaments/club/").content.decode()


def test_the_home_page_counts_moves_not_plies(director):
    tournament = running_tournament(director, make_players(2), opening="three-move-ballot")
    round_ = services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    from arbitration.services import game_move_record
    from games.rules import Position

    game = Game.objects.filter(round=round_).order_by("id").first()
    for ply in (1, 2, 3):
        move = sorted(Position.from_fen(Game.objects.get(pk=game.pk).fen).legal_moves(), key=lambda m: m.pdn())[0]
        game_move_record(acting_user=director, game_id=game.pk, move=move.pdn(), ply=ply)
    page = _client().get("/").content.decode()
    by_game = {int(g): m for m, g in
               re.findall(r'data-testid="live-game-move">([^<]*)</td><td><a href="/games/(\d+)"', page)}
    # three ballot plies and three of the game: six plies, Black's and White's third move
    assert by_game[game.pk] == "3"
    assert "<th>Move</th>" in page


def test_the_tournament_page_does_not_open_with_the_chain_head(director):
    tournament = running_tournament(director, make_players(2), opening="go-as-you-please")
    play_round(director, tournament)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    public = _client().get("/tournaments/club/").content.decode()
    assert public.index('data-testid="log-head"') > public.index('data-testid="standings"')
    assert public.index('data-testid="log-head"') > public.index('data-testid="crosstable"')
    assert "manage.py" not in public
    assert "manage.py verify_log" in _client(director).get("/tournaments/club/").content.decode()


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith(".svg")
    from django.contrib.staticfiles import finders

    assert finders.find("favicon.svg")


# --- the player's view ---------------------------------------------------------------------------


@pytest.fixture
def played_for(director, make_user):
    """A player with an account, two rounds of a Swiss played (he wins round 1, loses round 2)."""
    players = make_players(4)
    me = make_user("mine", "player")
    players[0].user = me
    players[0].save(update_fields=["user"])

    def outcome(game):
        mine = players[0].pk in (game.black_id, game.white_id)
        if not mine:
            return "1/2-1/2"
        black_is_me = game.black_id == players[0].pk
        first_round = game.round.number == 1
        return "1-0" if black_is_me == first_round else "0-1"

    tournament = running_tournament(director, players, format="swiss", round_count=3, opening="go-as-you-please")
    play_round(director, tournament, outcome)
    play_round(director, tournament, outcome)
    return tournament, players[0], me


def _my_results(page: str) -> dict[int, tuple[str, str]]:
    table = re.search(r'data-testid="my-results">(.*?)</table>', page, re.S).group(1)
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        game = re.search(r'href="/games/(\d+)"', row)
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        if game:
            rows[int(game.group(1))] = (cells[3], cells[4])
    return rows


def test_a_player_sees_won_and_lost_not_1_0(played_for):
    tournament, player, me = played_for
    results = _my_results(_client(me).get("/tournaments/me/").content.decode())
    for game in Game.objects.filter(round__tournament=tournament).exclude(black=None):
        if player.pk not in (game.black_id, game.white_id):
            continue
        expected = "Won" if game.round.number == 1 else "Lost"
        assert results[game.pk][0] == f"{expected} ({game.result})"


def test_confirmation_is_asked_only_while_an_appeal_may_be_filed(played_for, director):
    tournament, player, me = played_for
    page = _client(me).get("/tournaments/me/").content.decode()
    results = _my_results(page)
    mine = {g.pk: g.round.number for g in Game.objects.filter(round__tournament=tournament)
            if player.pk in (g.black_id, g.white_id)}
    for game_id, number in mine.items():
        # round 1's appeals closed when round 2 was published; round 2's are open until round 3
        assert (results[game_id][1] == "confirm or appeal") == (number == 2), (number, results[game_id])
    closed = next(pk for pk, number in mine.items() if number == 1)
    game_page = _client(me).get(f"/games/{closed}").content.decode()
    assert 'data-testid="appeals-closed"' in game_page and 'data-testid="disagree"' not in game_page
    still_open = next(pk for pk, number in mine.items() if number == 2)
    assert 'data-testid="disagree"' in _client(me).get(f"/games/{still_open}").content.decode()

    finish_games(director, tournament, play_round(director, tournament))
    services.tournament_status_set(acting_user=director, tournament=tournament, status="finished")
    results = _my_results(_client(me).get("/tournaments/me/").content.decode())
    assert not any(confirm == "confirm or appeal" for _result, confirm in results.values())


def test_an_appeal_window_in_minutes_closes_the_question_after_it(director, make_user):
    players = make_players(2)
    me = make_user("mine", "player")
    players[0].user = me
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players, opening="go-as-you-please", appeal_window_minutes=30)
    play_round(director, tournament)
    page = _client(me).get("/tournaments/me/").content.decode()
    assert page.count('data-testid="to-confirm"') == 2
    Game.objects.filter(round__tournament=tournament).update(finished_at=timezone.now() - timedelta(hours=1))
    page = _client(me).get("/tournaments/me/").content.decode()
    assert page.count('data-testid="to-confirm"') == 0 and page.count('data-testid="not-signed"') == 2


def test_the_next_games_are_named_by_tournament_and_round(director, make_user):
    players = make_players(2)
    me = make_user("mine", "player")
    players[0].user = me
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players, opening="go-as-you-please", games_per_match=4)
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    page = _client(me).get("/tournaments/me/").content.decode()
    then = re.search(r'data-testid="then-games">(.*?)</ul>', page, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", then, re.S)
    assert len(items) == 3
    assert all(re.sub(r"<[^>]+>", "", item).startswith(f"{tournament.name}, round 1, board 1: game ") for item in items)


def test_the_players_own_board_is_marked_and_his_next_game_links_the_pairing_sheet(director, make_user):
    players = make_players(4)
    me = make_user("mine", "player")
    players[0].user = me
    players[0].save(update_fields=["user"])
    tournament = running_tournament(director, players, opening="go-as-you-please")
    services.round_pair(acting_user=director, tournament=tournament)
    services.round_publish(acting_user=director, tournament=tournament, number=1)
    page = _client(me).get("/tournaments/club/").content.decode()
    marked = re.findall(r'<tr data-testid="match" class="mine" data-mine="true">(.*?)</tr>', page, re.S)
    assert len(marked) == 1 and players[0].name in marked[0] and "(you)" in marked[0]
    assert 'data-mine="true"' not in _client().get("/tournaments/club/").content.decode()
    me_page = _client(me).get("/tournaments/me/").content.decode()
    assert 'href="/tournaments/club/rounds/1/pairings/" data-testid="next-pairing-sheet"' in me_page

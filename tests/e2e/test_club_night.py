"""A club night without referees, in headless Chromium through the real server: check-in, pairing,
a game entered from its scoresheet (one wrong move first), and the players signing the result."""

import re

import pytest

from tests.support.browser import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Chinook v Tinsley, London 1992, game 17 (tests/games/data), as a club scoresheet writes it.
GAME = ("1. 9-13 23-19 2. 6-9 27-23 3. 11-15 22-18 4. 15x22 25x18 5. 8-11 19-15 6. 10x19 24x15x8 "
        "7. 4x11 31-27 8. 2-6 29x25 9. 6-10 18-14 10. 9x18 23x14 11. 10x17 21x14 12. 1-6 27-23 "
        "13. 6-9 23-18 14. 7-10 14x7 15. 3x10 28-24 16. 10x15 25-22 17. 12-16 26-23 18. 9-14 18x9 "
        "19. 5x14 32-28 14-17 1/2-1/2")


@pytest.fixture
def club(director, make_user):
    from players.models import Player
    from tournaments import services

    players = []
    for number in range(1, 5):
        account = make_user(f"member{number}", "player")
        players.append(Player.objects.create(name=f"Member {number}", rating=2000 - number, user=account))
    tournament = services.tournament_create(acting_user=director, name="Club Night", slug="club-night",
                                            opening="go-as-you-please")
    services.tournament_status_set(acting_user=director, tournament=tournament, status="registration")
    for player in players:
        services.entry_add(acting_user=director, tournament=tournament, player=player)
    services.tournament_status_set(acting_user=director, tournament=tournament, status="running")
    return tournament, players


def test_check_in_pairing_a_scoresheet_with_a_wrong_move_and_the_players_signatures(page, club):
    from playwright.sync_api import expect

    from games.models import Game
    from tournaments.models import Match

    tournament, players = club
    # a member says he cannot come, on the tournament's page
    sign_in(page, "member4")
    page.goto("/tournaments/club-night/")
    page.get_by_test_id("i-cannot-play").click()
    expect(page.get_by_test_id("my-check-in")).to_contain_text("marked absent")
    page.get_by_role("button", name="Sign out").click()

    # the director sees it, pairs (his match a forfeit) and publishes
    sign_in(page, "dir")
    page.goto("/tournaments/club-night/manage/")
    row = page.get_by_test_id("check-in-row").filter(has_text="Member 4")
    expect(row.get_by_test_id("check-in-mark")).to_have_text("absent")
    page.get_by_test_id("absent-policy").select_option("forfeit")
    page.get_by_test_id("pair-button").click()
    page.get_by_test_id("publish-button").click()
    forfeit = Match.objects.get(round__tournament=tournament, kind="forfeit")
    assert players[3].pk in (forfeit.player_one_id, forfeit.player_two_id)
    game = Game.objects.filter(round__tournament=tournament).order_by("id").first()

    # the scoresheet, typed with one wrong move: shown at its number with the legal moves, then corrected
    page.get_by_test_id(f"scoresheet-link-{game.pk}").click()
    page.get_by_label("Moves").fill(GAME.replace("5. 8-11 19-15", "5. 8-12 19-15"))
    page.get_by_test_id("scoresheet-submit").click()
    expect(page.get_by_test_id("scoresheet-error")).to_be_visible()
    expect(page.get_by_test_id("refused-number")).to_have_text("5")
    expect(page.get_by_test_id("legal-moves")).to_contain_text("8-11")
    moves = page.get_by_label("Moves")
    moves.fill(moves.input_value().replace("5. 8-12", "5. 8-11"))
    page.get_by_test_id("scoresheet-submit").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}$"))
    expect(page.get_by_test_id("result-words")).to_contain_text("1/2-1/2")
    page.goto("/tournaments/club-night/manage/")
    expect(page.get_by_test_id("results-unconfirmed")).to_contain_text(f"game {game.pk}")
    page.get_by_role("button", name="Sign out").click()

    # Black signs from his own page
    black = next(p for p in players if p.pk == game.black_id)
    sign_in(page, black.user.username)
    page.get_by_test_id("nav-my-games").click()
    page.get_by_test_id("to-confirm").first.click()
    page.get_by_test_id("confirm-result").click()
    expect(page.get_by_test_id("signature-black")).to_contain_text("confirmed the result")
    expect(page.get_by_test_id("signature-white")).to_contain_text("not yet confirmed")
    page.get_by_role("button", name="Sign out").click()

    # White disagrees: the appeal form
    white = next(p for p in players if p.pk == game.white_id)
    sign_in(page, white.user.username)
    page.goto(f"/games/{game.pk}")
    page.get_by_test_id("disagree").click()
    expect(page.get_by_test_id("appeal-form")).to_be_visible()

"""The demo tournament: who it creates and that no password is fixed."""

import pytest
from django.contrib.auth import authenticate

from tournaments.demo import demo_seed
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.smoke]


def test_the_demo_has_eight_players_staff_and_a_round_in_progress():
    logins = demo_seed()
    assert [login.username for login in logins] == (
        ["director", "referee1", "referee2"] + [f"player{i}" for i in range(1, 9)]
    )
    tournament = Tournament.objects.get(slug="demo-club-championship")
    assert tournament.entries.count() == 8
    assert list(tournament.directors.values_list("username", flat=True)) == ["director"]
    assert sorted(tournament.referees.values_list("username", flat=True)) == ["referee1", "referee2"]
    round_one = tournament.rounds.get(number=1)
    assert round_one.status == "in_progress"
    games = list(round_one.games.all())
    assert len(games) == 4
    assert {p.id for g in games for p in (g.black, g.white)} == set(tournament.players.values_list("id", flat=True))
    assert all(game.referees.count() == 1 for game in games)


def test_demo_passwords_are_generated_and_work():
    logins = demo_seed()
    passwords = [login.password for login in logins]
    assert len(set(passwords)) == len(passwords)
    for login in logins:
        assert authenticate(username=login.username, password=login.password) is not None


def test_demo_player_accounts_are_linked_to_players():
    demo_seed()
    from django.contrib.auth.models import User

    assert User.objects.get(username="player3").player.name == "Cora Lindqvist"

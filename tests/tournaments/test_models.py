"""The database refuses what the code must never write."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from players.models import Player
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db


def _round() -> tuple[Round, Player, Player]:
    tournament = Tournament.objects.create(name="T", slug="t")
    return (Round.objects.create(tournament=tournament, number=1), Player.objects.create(name="A"),
            Player.objects.create(name="B"))


@pytest.mark.parametrize("games", [0, 3, 5, 6])
def test_games_per_match_is_1_2_or_4(games):
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="T", slug=f"t{games}", games_per_match=games)


def test_rounds_of_1_2_and_4_games_are_allowed():
    for games in (1, 2, 4):
        Tournament.objects.create(name="T", slug=f"t{games}", games_per_match=games)


def test_match_points_are_ordered():
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(name="T", slug="t", match_points_win=1, match_points_draw=2)


def test_a_bye_has_no_opponent_and_a_match_has_one():
    round_, a, b = _round()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round_, board=1, kind="bye", player_one=a, player_two=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round_, board=1, kind="played", player_one=a)
    Match.objects.create(round=round_, board=1, kind="bye", player_one=a)


def test_a_player_does_not_meet_himself_and_boards_are_unique():
    round_, a, b = _round()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round_, board=1, player_one=a, player_two=a)
    Match.objects.create(round=round_, board=1, player_one=a, player_two=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round_, board=1, player_one=b, player_two=a)


def test_a_match_has_1_2_or_4_games():
    round_, a, b = _round()
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.create(round=round_, board=1, player_one=a, player_two=b, games_planned=3)

"""Two referees post the same ply at the same instant: PostgreSQL's row lock lets one through."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from arbitration.log import log_verify
from games.models import Game, Move
from tests.arbitration.conftest import new_game, players  # noqa: F401  (fixtures)


def _race(post, count: int = 2) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = post(index)
        except Exception as error:  # noqa: BLE001  (reported by the assertions)
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_referees_posting_the_same_ply_through_the_api_record_exactly_one_move(
    new_game, referee, make_user,  # noqa: F811
):
    from rest_framework.test import APIClient

    second = make_user("ref2", "referee")
    game = new_game(referees=["ref", "ref2"])
    users = [referee, second]

    def post(index: int):
        client = APIClient()
        client.force_authenticate(user=users[index])
        move = "11-15" if index == 0 else "9-13"
        response = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": move, "ply": 1}, format="json")
        return response.status_code, response.json()

    results = _race(post)
    statuses = sorted(status for status, _ in results)
    assert statuses == [201, 409], results
    conflict = next(body for status, body in results if status == 409)
    assert conflict["error"]["code"] == "ply_conflict"
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).ply == 1
    assert log_verify(game).valid and log_verify(game).entries == 2


@pytest.mark.django_db(transaction=True)
def test_the_same_move_posted_twice_at_once_through_the_service_is_recorded_once(new_game, referee):  # noqa: F811
    from arbitration.services import game_move_record
    from core.api import AppError

    game = new_game()

    def post(index: int):
        try:
            game_move_record(acting_user=referee, game_id=game.pk, move="11-15", ply=1)
            return "recorded"
        except AppError as error:
            return error.code

    results = _race(post, 4)
    assert sorted(results) == ["ply_conflict", "ply_conflict", "ply_conflict", "recorded"], results
    assert Move.objects.filter(game=game).count() == 1

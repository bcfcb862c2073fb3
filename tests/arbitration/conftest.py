"""Fixtures for the arbitration tests: players, a game factory, and a desk that records moves and
rulings either through the services or through the API (tests run both ways)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def players(db):
    from players.models import Player

    return Player.objects.create(name="Agnes Calder"), Player.objects.create(name="Bram Okafor")


@pytest.fixture
def new_game(director, referee, players):
    """Returns a factory of games between the two players, the ``ref`` user assigned."""
    from arbitration.services import game_create

    def make(**options: Any):
        options.setdefault("referees", [referee.username])
        return game_create(acting_user=director, black=players[0], white=players[1], **options)

    return make


def _refusal(error: Any) -> tuple[int, dict]:
    """Returns (status, body) as the API answers the app error."""
    return error.status_code, {"error": {"code": error.code, "message": error.message, "details": error.details}}


class Desk:
    """Records moves and rulings as a user, through the services or the API; answers (status, body)."""

    def __init__(self, via: str, user: Any, client: Any) -> None:
        self.via = via
        self.user = user
        self.client = client
        if via == "api":
            client.force_authenticate(user=user)

    def as_user(self, user: Any) -> Desk:
        return Desk(self.via, user, self.client)

    def _service(self, call) -> tuple[int, dict]:  # noqa: ANN001
        from arbitration.selectors import game_state
        from core.api import AppError
        from games.selectors import game_get

        try:
            game = call()
        except AppError as error:
            return _refusal(error)
        return 201, game_state(game_get(game.pk), self.user)

    def move(self, game_id: int, move: str, ply: int | None = None) -> tuple[int, dict]:
        if self.via == "api":
            self.client.force_authenticate(user=self.user)
            body: dict[str, Any] = {"move": move}
            if ply is not None:
                body["ply"] = ply
            response = self.client.post(f"/api/v1/games/{game_id}/moves/", body, format="json")
            return response.status_code, response.json()
        from arbitration.selectors import game_state
        from arbitration.services import game_move_record
        from core.api import AppError
        from games.selectors import game_get

        try:
            outcome = game_move_record(acting_user=self.user, game_id=game_id, move=move, ply=ply)
        except AppError as error:
            return _refusal(error)
        # as the API answers a move: the move itself, not the whole list
        return 201, game_state(game_get(game_id), self.user, last_move=outcome.move)

    def rule(self, game_id: int, kind: str, side: str | None = None, note: str = "", **payload: Any):
        if self.via == "api":
            self.client.force_authenticate(user=self.user)
            body = {"kind": kind, **payload}
            if side:
                body["side"] = side
            if note:
                body["note"] = note
            response = self.client.post(f"/api/v1/games/{game_id}/rulings/", body, format="json")
            return response.status_code, response.json()
        from arbitration.services import ruling_issue

        return self._service(lambda: ruling_issue(acting_user=self.user, game_id=game_id, kind=kind, side=side,
                                                  note=note, payload=payload))

    def play(self, game_id: int, *moves: str) -> dict:
        body: dict = {}
        for text in moves:
            status, body = self.move(game_id, text)
            assert status == 201, (text, body)
        return body

    def state(self, game_id: int) -> dict:
        from arbitration.selectors import game_state
        from games.selectors import game_get

        return game_state(game_get(game_id), self.user)


@pytest.fixture(params=["service", "api"])
def desk(request, referee, api_client):
    """A desk for the assigned referee; each test using it runs through the service and the API."""
    return Desk(request.param, referee, api_client)


@pytest.fixture
def signers(players, player_user, make_user):
    """The two players' accounts: ``pla`` plays Black, ``wpl`` plays White."""
    black, white = players
    black.user = player_user
    black.save(update_fields=["user"])
    white_user = make_user("wpl", "player")
    white.user = white_user
    white.save(update_fields=["user"])
    return player_user, white_user

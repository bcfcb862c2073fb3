"""Pages of a game: the public game page, the referee console and the list of games.

The pages render a shell (the players, the rule set, the game id and, when the selectors can
give it, the initial state); the scripts in static/js/ read and write through the API.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.privacy import names_shown_to
from arbitration.access import can_write
from arbitration.log import head_text
from arbitration.selectors import game_state, state_without_names
from games.models import Game, Termination


def _game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("black", "white"), pk=game_id)


def user_may_referee(user: Any, game: Game) -> bool:
    """Tells whether the user may record moves and rulings in the game (``arbitration.access.can_write``)."""
    return can_write(game, user)


def _initial_state(game: Game, user: Any) -> dict[str, Any] | None:
    """Returns the game-state JSON of the contract, or None (the page then fetches it itself)."""
    try:
        state = game_state(game, user)
        return state if names_shown_to(user) else state_without_names(state)
    except Exception:  # noqa: BLE001 - the page fetches the state itself when this fails
        return None


def _page_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    return {
        "game": game,
        "can_referee": user_may_referee(request.user, game),
        "initial_state": _initial_state(game, request.user),
        "terminations": {value: label for value, label in Termination.choices},
        "log_head": head_text(game) if game.is_finished else None,
    }


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    """Shows every game with its players and result, each linking to its page."""
    games = Game.objects.select_related("black", "white").order_by("-id")
    return render(request, "games/list.html", {"games": games})


@require_GET
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """Shows the public page of a game: the board, the moves to step through, the result."""
    game = _game_or_404(game_id)
    return render(request, "games/detail.html", _page_context(request, game))


@login_required
@require_GET
def game_console(request: HttpRequest, game_id: int) -> HttpResponse:
    """Shows the referee console of a game to its assigned referees and its tournament's directors."""
    game = _game_or_404(game_id)
    if not user_may_referee(request.user, game):
        raise PermissionDenied("Only a referee assigned to this game or a director of its tournament may use its "
                               "console.")
    return render(request, "games/console.html", _page_context(request, game))

"""Pages of a game: the public game page, the referee console, the confirmation, the appeal, the scoresheet.

The pages render a shell (the players, the rule set, the game id and, when the selectors can
give it, the initial state); the scripts in static/js/ read and write through the API.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.privacy import names_shown_to
from arbitration.access import (
    appeal_deadline_passed,
    can_write,
    is_administrator,
    is_game_director,
    player_side,
)
from arbitration.confirmations import result_confirm, result_confirmations
from arbitration.log import head_text
from arbitration.models import LogEntry
from arbitration.rulings import ruling_issue
from arbitration.rulings.corrections import live_ending
from arbitration.scoresheets import game_scoresheet_enter
from arbitration.selectors import game_opening, game_state, plies_before, state_without_names
from core.api import AppError
from games.models import Game, Termination


def _game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("black", "white", "round__tournament"), pk=game_id)


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
    opening = game_opening(game)
    return {
        "game": game,
        "numbering": {"opening": opening, "plies_before": plies_before(game, opening)},
        "can_referee": user_may_referee(request.user, game),
        "initial_state": _initial_state(game, request.user),
        "terminations": {value: label for value, label in Termination.choices},
        "log_kinds": dict(LogEntry.Kind.choices),
        "log_head": head_text(game),
        **_signature_context(request, game),
    }


def _signature_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """What the game page shows of the players' confirmations, and whether this user signs (his side)."""
    if not game.is_finished:
        return {}
    confirmed = result_confirmations(game)
    side = player_side(game, request.user)
    context = {"confirmed": confirmed, "my_side": side, "i_confirmed": bool(side and confirmed[side])}
    if side and not context["i_confirmed"]:
        # Asked to confirm or appeal only while an appeal may be filed (Law 28), not months later.
        tournament = game.round.tournament if game.round_id and game.round else None
        closed = "the tournament is finished" if tournament is not None and tournament.status == "finished" else ""
        context["appeals_closed"] = closed or appeal_deadline_passed(game)
    return context


def _refuse_page(error: AppError) -> None:
    """Answers a refusal the page does not show on its form as the page's own 403 or 404."""
    if error.status_code == 403:
        raise PermissionDenied(error.message) from error
    if error.status_code == 404:
        raise Http404(error.message) from error


@login_required
@require_POST
def game_confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player confirms the finished game's result from its page (signs the scoresheet)."""
    try:
        result_confirm(acting_user=request.user, game_id=game_id)
    except AppError as error:
        _refuse_page(error)
        messages.error(request, error.message)
    else:
        messages.success(request, "You confirmed the result. Thank you.")
    return redirect("games:detail", game_id=game_id)


@login_required
@require_http_methods(["GET", "POST"])
def game_scoresheet(request: HttpRequest, game_id: int) -> HttpResponse:
    """A director enters a game from its scoresheet: the moves typed or pasted and the result.

    A move the engine refuses is shown at its number, with the legal moves there, and the text
    is kept for the correction; nothing is written until every move is legal.
    """
    game = _game_or_404(game_id)
    if not (is_game_director(game, request.user) or is_administrator(request.user)):
        raise PermissionDenied("Only a director of this game's tournament may enter it from a scoresheet.")
    moves = request.POST.get("moves", "") if request.method == "POST" else ""
    result = request.POST.get("result", "") if request.method == "POST" else ""
    refusal: AppError | None = None
    if request.method == "POST":
        try:
            game_scoresheet_enter(acting_user=request.user, game_id=game.pk, moves=moves, result=result or None)
        except AppError as error:
            _refuse_page(error)
            refusal = error
        else:
            messages.success(request, "The game is entered from its scoresheet: every move checked, the result "
                             "recorded.")
            return redirect("games:detail", game_id=game.pk)
    return render(request, "games/scoresheet.html", {
        "game": game, "moves": moves, "result": result, "results": Game.Result.choices,
        "refusal": refusal, "refused": refusal.details if refusal is not None else {},
    }, status=refusal.status_code if refusal is not None else 200)


@login_required
@require_http_methods(["GET", "POST"])
def game_appeal(request: HttpRequest, game_id: int) -> HttpResponse:
    """A player who disagrees with the result appeals against the game's ending (Law 28), with a statement.

    The appeal goes to the tournament's arbiters (the appellant names nobody); what is refused
    (too late, no arbiter, already appealed) is shown on the form.
    """
    game = _game_or_404(game_id)
    side = player_side(game, request.user)
    if side is None:
        raise PermissionDenied("Only a player of this game may appeal on it.")
    ending = live_ending(game) if game.is_finished else None
    statement = (request.POST.get("statement") or "").strip() if request.method == "POST" else ""
    error = ""
    if request.method == "POST":
        if ending is None:
            error = "The game is not finished: there is no result to appeal against."
        elif not statement:
            error = "Write your statement: what was wrong, and what you ask for."
        else:
            try:
                ruling_issue(acting_user=request.user, game_id=game.pk, kind="appeal", side=side,
                             payload={"entry": ending.seq, "statement": statement[:2000]})
            except AppError as refused:
                if refused.status_code == 404:
                    raise
                error = refused.message
            else:
                messages.success(request, "Your appeal is filed: the tournament's arbiter decides it (Law 28).")
                return redirect("games:detail", game_id=game.pk)
    return render(request, "games/appeal.html", {"game": game, "side": side, "ending": ending,
                                                 "statement": statement, "error": error},
                  status=400 if error else 200)


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


@require_GET
def console_worker(request: HttpRequest) -> HttpResponse:
    """Serves the console's service worker, which keeps a console opened once for a reload offline.

    Served here, under /games/, so that its scope is the game pages (a script under /static/ could
    control only /static/); always read anew (no-cache), so a new release replaces it at once.
    """
    response = render(request, "games/console-worker.js", content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response

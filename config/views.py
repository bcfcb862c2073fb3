"""Project-wide views: health, the home page, and error pages that answer API paths in JSON."""

from __future__ import annotations

import signal
import threading
import time

from django.conf import settings
from django.core.paginator import Paginator
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.authentication import TokenAuthentication
from accounts.roles import is_director
from config.health import health_report
from core.api import error_body
from tournaments.selectors import game_card, games_finished, games_in_play, home_overview


def _sees_health_detail(request: HttpRequest) -> bool:
    """Tells whether the caller is staff or a director (session or API token); else anonymous.

    Read only when the request carries a session cookie or an Authorization header, so that an
    anonymous check (a load balancer's) costs no query beyond the health query itself.
    """
    user = None
    if request.headers.get("Authorization"):
        try:
            authenticated = TokenAuthentication().authenticate(request)
        except Exception:  # noqa: BLE001 - a bad token gets the anonymous answer
            authenticated = None
        user = authenticated[0] if authenticated else None
    elif settings.SESSION_COOKIE_NAME in request.COOKIES:
        try:
            user = request.user
            _ = user.is_authenticated
        except Exception:  # noqa: BLE001 - no database, no session: the anonymous answer
            user = None
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or is_director(user))


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Reports health from the workers' heartbeats: 200 when the database answers, else 503.

    Anonymous callers get ``{"status": "up"|"down"}``; staff and directors the detail (database,
    broker, workers, age of the last heartbeat). No broker or worker is asked (``config.health``).
    """
    report, serving = health_report(detail=_sees_health_detail(request))
    return JsonResponse(report, status=200 if serving else 503)


def home(request: HttpRequest) -> HttpResponse:
    """Shows the home page: the running tournaments with their current round and the games being played now."""
    return render(request, "home.html", home_overview())


#: The lists of the "Live games" page (``?show=``): the games being played now, or every finished game.
GAME_LISTS = ("now", "finished")
FINISHED_PER_PAGE = 50
RECENTLY_FINISHED = 10


@require_GET
def live_games(request: HttpRequest) -> HttpResponse:
    """Shows the games being played now across tournaments (boards, clocks, match scores), those waiting to
    start and the last finished; ``?show=finished`` every finished game, a page at a time (``?page=``).

    The page follows play by itself (``static/js/live-games.js``). An unknown list is answered 400 with the
    games being played now and a note saying so.
    """
    show = request.GET.get("show") or "now"
    unknown = show not in GAME_LISTS
    if unknown:
        show = "now"
    context: dict[str, object] = {"show": show, "unknown_list": request.GET["show"][:40] if unknown else None}
    if show == "finished":
        page = Paginator(games_finished(), FINISHED_PER_PAGE).get_page(request.GET.get("page"))
        context.update({"page": page, "finished": [game_card(g) for g in page.object_list]})
    else:
        playing, waiting = games_in_play(timezone.now())
        context.update({"playing": playing, "waiting": waiting,
                        "finished": [game_card(g) for g in games_finished()[:RECENTLY_FINISHED]]})
    return render(request, "games/list.html", context, status=400 if unknown else 200)


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Sends a browser that asks for /favicon.ico (as every browser does) to the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answers 404: JSON in the error shape under /api/, an HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("not_found", "Not found.", {"path": request.path}), status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Answers 500: JSON in the error shape under /api/, an HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(
            error_body("server_error", "The server failed to answer; the error has been logged."),
            status=500,
        )
    return render(request, "500.html", status=500)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answers 403: JSON in the error shape under /api/, an HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("permission_denied", "Permission denied."), status=403)
    return render(request, "403.html", status=403)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Answers 400: JSON in the error shape under /api/, an HTML page elsewhere."""
    if _is_api(request):
        return JsonResponse(error_body("bad_request", "Bad request."), status=400)
    return render(request, "400.html", status=400)


def live_context(request: HttpRequest) -> dict[str, object]:
    """Tells every page whether the deployment serves the live streams (``LIVE_PATH``)."""
    return {"live_path": settings.LIVE_PATH}


@csrf_exempt
@require_POST
def hold_write_lock(request: HttpRequest) -> JsonResponse:
    """Holds the database's write lock for ``?seconds=`` (test servers only: ``DJANGO_TEST_ENDPOINTS``).

    Plays a hostile request in the tests of the request time limits: it opens a write
    transaction (on SQLite ``BEGIN IMMEDIATE`` takes the one write lock) and works in it, in
    short steps that the soft limit can stop. With ``?stuck=1`` it sleeps in one call with
    SIGALRM blocked instead, like code stuck where Python cannot stop it, so that only the hard
    limit ends it.
    """
    if not settings.TEST_ENDPOINTS:  # the route exists only then; this is a second lock
        return JsonResponse(error_body("not_found", "Not found."), status=404)
    seconds = min(float(request.GET.get("seconds", "30")), 120.0)
    stuck = request.GET.get("stuck") == "1"
    if stuck and threading.current_thread() is threading.main_thread():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE core_worker_heartbeat SET beat_at = beat_at WHERE 1 = 0")
        if stuck:
            time.sleep(seconds)
        else:
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                time.sleep(0.01)
    return JsonResponse({"held": seconds})

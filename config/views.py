"""Project-wide views: health, the home page, and error pages that answer API paths in JSON."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.health import health_report
from core.api import error_body
from tournaments.selectors import tournament_list_for_home


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Reports database, broker and worker health: 200 when the database answers, else 503."""
    report, serving = health_report()
    return JsonResponse(report, status=200 if serving else 503)


def home(request: HttpRequest) -> HttpResponse:
    """Shows the home page: the tournaments and the user's role."""
    return render(request, "home.html", {"tournaments": tournament_list_for_home()})


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

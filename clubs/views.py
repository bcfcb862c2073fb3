"""The clubs' pages: the list of clubs, and a club's page with its players (and the sections higher apps add)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.privacy import names_shown_to
from clubs import selectors
from clubs.pages import club_page_sections
from clubs.services import may_keep_club


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    """Shows every club with its short name and how many players belong to it."""
    return render(request, "clubs/list.html", {"clubs": selectors.clubs_listed()})


@require_GET
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Shows a club: its contact, its secretary (to signed-in users), its players, and the sections of higher apps."""
    club = selectors.clubs_listed().filter(pk=pk).first()
    if club is None:
        raise Http404("There is no such club.")
    return render(request, "clubs/club.html", {
        "club": club, "players": selectors.club_players(club), "show_names": names_shown_to(request.user),
        "keeper": may_keep_club(club, request.user), "sections": club_page_sections(club, request),
    })

"""The clubs' pages: the list of clubs, and a club's page with its players (and the sections higher apps add)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.privacy import names_shown_to
from clubs import selectors, services
from clubs.models import Club
from clubs.pages import club_page_sections
from clubs.services import may_keep_club
from core.api import AppError
from core.limits import MAX_ID, NOTE_MAX_LENGTH
from core.text import no_control_characters


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


class MemberChangeForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=MAX_ID)
    name = forms.CharField(max_length=120, required=False, validators=[no_control_characters])
    federation = forms.CharField(max_length=60, required=False, validators=[no_control_characters])
    federation_id = forms.CharField(max_length=40, required=False, validators=[no_control_characters])


class MemberForm(forms.Form):
    player = forms.IntegerField(min_value=1, max_value=MAX_ID)
    reason = forms.CharField(max_length=NOTE_MAX_LENGTH, required=False)


def _keeper_act(request: HttpRequest, pk: int, form_class: type[forms.Form], action: Callable[..., str]) -> HttpResponse:
    """Runs a keeper's write from the club page; a refusal comes back as a message there."""
    club = Club.objects.filter(pk=pk).first()
    if club is None:
        raise Http404("There is no such club.")
    if not may_keep_club(club, request.user):
        raise PermissionDenied("Only a keeper of this club (its secretary, the director who registered it, or an "
                               "administrator) changes its players.")
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, "Some fields are invalid: " + "; ".join(
            f"{name}: {' '.join(problems)}" for name, problems in form.errors.items()))
    else:
        try:
            messages.success(request, action(club, form.cleaned_data))
        except AppError as error:
            fields = error.details.get("fields") if isinstance(error.details, dict) else None
            detail = "; ".join(f"{n}: {' '.join(p)}" for n, p in fields.items()) if fields else ""
            messages.error(request, f"{error.message} {detail}".strip())
    return redirect(reverse("clubs:detail", kwargs={"pk": club.pk}) + "#keep")


@login_required
@require_POST
def member_add(request: HttpRequest, pk: int) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        member = services.club_player_add(acting_user=request.user, club=club, player=data["player"])
        return f"{member.player.name} is a member of {club.name}."
    return _keeper_act(request, pk, MemberForm, act)


@login_required
@require_POST
def member_change(request: HttpRequest, pk: int) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        changes = {n: data[n] for n in ("name", "federation", "federation_id") if data[n]}  # empty: unchanged
        player = services.club_player_update(acting_user=request.user, club=club, player=data["player"], **changes)
        return f"{player.name} is changed."
    return _keeper_act(request, pk, MemberChangeForm, act)


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        player = services.club_player_remove(acting_user=request.user, club=club, player=data["player"],
                                             reason=data["reason"])
        return f"{player.name} is no longer a member of {club.name}."
    return _keeper_act(request, pk, MemberForm, act)

"""Reads of clubs: the list with member counts, a club's players, a player's club."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from clubs.models import Club, ClubMember
from players.models import Player


def clubs_listed() -> QuerySet[Club]:
    """Returns every club with its member count (``member_count``) and its secretary, by name. One query."""
    return Club.objects.select_related("secretary").annotate(member_count=Count("members")).order_by("name", "id")


def club_players(club: Club) -> QuerySet[Player]:
    """Returns the club's players by name (one query)."""
    return Player.objects.filter(club_membership__club=club).order_by("name", "id")


def player_club(player: Player) -> Club | None:
    """Returns the player's club, or None."""
    member = ClubMember.objects.select_related("club").filter(player=player).first()
    return member.club if member else None

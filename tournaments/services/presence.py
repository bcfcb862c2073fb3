"""Check-in: who is present for the next round, marked before it is paired.

A director of the tournament marks any entered player present or absent; a player marks
himself (his linked account). The mark is for the round to be paired next (the open preview's,
if there is one: discard it and pair again to take new marks into account). Each mark is on the
tournament's log. ``round_pair`` reads the absentees: their matches are forfeits, or in a Swiss
the director may leave them out of the pairing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import Entry, Presence, Tournament, TournamentLog
from tournaments.services.access import is_director_of, log_write, tournament_lock
from tournaments.services.errors import InvalidInput, NotDirector, WrongTournamentStatus
from tournaments.services.outcomes import next_round_number, presence_of

#: What ``round_pair`` does with the players marked absent.
ABSENT_FORFEIT = "forfeit"
ABSENT_LEAVE_OUT = "leave_out"
ABSENT_POLICIES = (ABSENT_FORFEIT, ABSENT_LEAVE_OUT)


def absentees(tournament: Tournament, number: int) -> set[int]:
    """Returns the players marked absent for round ``number``."""
    return {player for player, present in presence_of(tournament, number).items() if not present}


@transaction.atomic
def presence_set(*, acting_user: Any, tournament: Tournament, player: int, present: bool) -> Presence:
    """Marks an entered player present or absent for the next round (a director, or the player himself)."""
    tournament = tournament_lock(tournament)
    entry = Entry.objects.filter(tournament=tournament, player_id=player).select_related("player").first()
    if entry is None:
        raise InvalidInput.field("player", "Not a player of this tournament.")
    himself = (getattr(acting_user, "is_authenticated", False) and entry.player.user_id is not None
               and entry.player.user_id == acting_user.pk)
    if not (is_director_of(tournament, acting_user) or himself):
        raise NotDirector("Only a director of this tournament, or the player himself, may mark his presence.")
    if tournament.status not in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING):
        raise WrongTournamentStatus(f"The tournament is {tournament.status}: presence is marked before a round.",
                                    details={"status": tournament.status})
    if entry.status != Entry.Status.ACTIVE:
        raise InvalidInput.field("player", f"{entry.player.name} has withdrawn.")
    number = next_round_number(tournament)
    mark, _created = Presence.objects.update_or_create(
        tournament=tournament, round_number=number, player_id=player,
        defaults={"present": bool(present), "marked_by": acting_user, "marked_at": timezone.now(), "left_out": False})
    log_write(tournament=tournament, kind=TournamentLog.Kind.PRESENCE_MARKED, actor=acting_user,
              data={"round": number, "player": player, "present": bool(present),
                    "by": "player" if himself and not is_director_of(tournament, acting_user) else "director"})
    return mark

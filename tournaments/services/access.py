"""What the writes share: the tournament's lock, the director check, and the log row.

Every service that changes a tournament locks its row (``tournament_lock``), checks the
acting user (``authorise_director``) and records what it did (``log_write``).
"""

from __future__ import annotations

from typing import Any

from accounts.roles import is_director
from tournaments.log import log_append
from tournaments.models import Tournament, TournamentLog
from tournaments.services.errors import NotDirector


def log_write(*, tournament: Tournament, kind: str, actor: Any = None, reason: str = "",
              data: dict[str, Any] | None = None, from_status: str = "", to_status: str = "",
              supersedes: TournamentLog | None = None) -> TournamentLog:
    """Appends a row to the tournament's log (never edited afterwards), chained under the record key.

    A superuser who does not direct the tournament acts as federation administrator: the row says so
    (``data["as"]``).
    """
    if getattr(actor, "is_superuser", False) and not tournament.directors.filter(pk=actor.pk).exists():
        data = {**(data or {}), "as": "federation administrator"}
    return log_append(
        tournament=tournament, kind=kind, actor_id=actor.pk if getattr(actor, "is_authenticated", False) else None,
        reason=reason, data=data or {}, from_status=from_status, to_status=to_status, supersedes=supersedes,
    )


def is_director_of(tournament: Tournament, user: Any) -> bool:
    """Tells whether the user directs this tournament (a superuser directs them all)."""
    if not is_director(user):
        return False
    if user.is_superuser:
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def authorise_director(tournament: Tournament, user: Any) -> None:
    """Refuses (403) anyone but a director of the tournament."""
    if not is_director_of(tournament, user):
        raise NotDirector("Only a director of this tournament may do this.")


def tournament_lock(tournament: Tournament | int) -> Tournament:
    """Returns the tournament row locked for the rest of the transaction."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)

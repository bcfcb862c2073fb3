"""What the tournaments app answers arbitration about the games of its rounds (``arbitration.access``).

Registered in ``TournamentsConfig.ready()``. ``authority`` is the access check of every write
to a tournament game: one indexed query (the round's tournament, its status, and whether the
user directs it, referees it now, holds the director role). ``result_changed`` writes the
tournament's log row of a ruling that changed a result, in the ruling's transaction.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.roles import Role
from arbitration.access import Authority
from core import sqlrows
from games.models import Game
from tournaments.models import Round, Tournament, TournamentLog
from tournaments.services.access import log_write

#: Set while a tournament service records a result itself (its own log row says it all).
_recorded_by_service: ContextVar[bool] = ContextVar("result_recorded_by_service", default=False)


@contextmanager
def result_recorded_by_service() -> Any:
    """Within it, rulings that change a result write no ``game_ruling`` row: the calling service logs it."""
    token = _recorded_by_service.set(True)
    try:
        yield
    finally:
        _recorded_by_service.reset(token)



def appeal_closed(*, minutes: int | None, finished_at: Any, round_number: int, later_round: int | None,
                  now: Any) -> str:
    """Returns why an appeal on a game is too late ("" while it may be filed): with the tournament's window,
    ``minutes`` after the game's end; without one, once a later round (``later_round``) is published."""
    if minutes is not None:
        if finished_at is not None and now > finished_at + timedelta(minutes=minutes):
            return f"appeals are filed within {minutes} minutes of the game's end"
        return ""
    if later_round is not None:
        return f"round {later_round} is published: appeals on round {round_number} are closed"
    return ""


@lru_cache(maxsize=1)
def _authority_sql() -> str:
    """The access check's one statement, built once from the models' tables (``core.sqlrows``).

    The ORM compiled the same three ``EXISTS`` anew for every move (about 3 ms of CPU a move, more
    than the rest of its checks); the statement and its answer are the same.
    """
    user_model = get_user_model()

    def through(model: Any) -> tuple[str, str, str]:
        meta = model._meta
        return meta.db_table, meta.get_field("tournament").column, meta.get_field("user").column

    d_table, d_tournament, d_user = through(Tournament.directors.through)
    r_table, r_tournament, r_user = through(Tournament.referees.through)
    groups = user_model.groups.through._meta
    group = user_model.groups.field.related_model._meta
    g_user, g_group = groups.get_field(user_model._meta.model_name).column, groups.get_field("group").column
    rnd, trn = Round._meta, Tournament._meta
    of_round = f"r.{rnd.get_field('tournament').column}"
    return (
        f"SELECT t.slug, t.status,"
        f" EXISTS (SELECT 1 FROM {d_table} d WHERE d.{d_tournament} = {of_round} AND d.{d_user} = %s),"
        f" EXISTS (SELECT 1 FROM {r_table} f WHERE f.{r_tournament} = {of_round} AND f.{r_user} = %s),"
        f" EXISTS (SELECT 1 FROM {groups.db_table} ug JOIN {group.db_table} g ON g.{group.pk.column} = ug.{g_group}"
        f" WHERE ug.{g_user} = %s AND g.name = %s)"
        f" FROM {rnd.db_table} r JOIN {trn.db_table} t ON t.{trn.pk.column} = {of_round}"
        f" WHERE r.{rnd.pk.column} = %s"
    )


class TournamentHook:
    """Answers ``arbitration.access`` for a game of a tournament."""

    def authority(self, game: Game, user: Any) -> Authority:
        rows = sqlrows.fetch(_authority_sql(), [user.pk, user.pk, user.pk, Role.DIRECTOR, game.round_id])
        if not rows:
            return Authority(tournament="?")
        slug, status, director, referee, role = rows[0]
        return Authority(tournament=slug, is_director=bool(director and (role or user.is_superuser)),
                         is_referee=bool(referee), finished=status == Tournament.Status.FINISHED)

    def arbiters(self, game: Game) -> list[tuple[int, str]]:
        tournament_id = Round.objects.filter(pk=game.round_id).values_list("tournament_id", flat=True).first()
        return list(Tournament.arbiters.through.objects.filter(tournament_id=tournament_id)
                    .order_by("user__username").values_list("user_id", "user__username"))

    def appeal_deadline_passed(self, game: Game) -> str:
        round_ = Round.objects.select_related("tournament").filter(pk=game.round_id).first()
        if round_ is None:
            return ""
        minutes = round_.tournament.appeal_window_minutes
        later = None
        if minutes is None:
            later = (Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number)
                     .exclude(status=Round.Status.PREVIEW).order_by("number").values_list("number", flat=True).first())
        return appeal_closed(minutes=minutes, finished_at=game.finished_at, round_number=round_.number,
                             later_round=later, now=timezone.now())

    def result_changed(self, game: Game, *, actor: Any, kind: str, entry_seq: int, before: str | None,
                       after: str | None, note: str, administrator: bool) -> None:
        if _recorded_by_service.get():
            return
        tournament = Tournament.objects.only("pk").get(rounds__pk=game.round_id)
        data = {"game": game.pk, "entry": entry_seq, "ruling": kind, "before": before, "result": after}
        if administrator:
            data["as"] = "federation administrator"
        log_write(tournament=tournament, kind=TournamentLog.Kind.GAME_RULING, actor=actor, reason=note, data=data)

    def appeal_recorded(self, game: Game, *, actor: Any, decided: bool, data: dict[str, Any]) -> None:
        tournament = Tournament.objects.only("pk").get(rounds__pk=game.round_id)
        kind = TournamentLog.Kind.APPEAL_DECIDED if decided else TournamentLog.Kind.APPEAL_FILED
        log_write(tournament=tournament, kind=kind, actor=actor, reason=str(data.get("reason") or ""),
                  data={"game": game.pk, **data})


hook = TournamentHook()

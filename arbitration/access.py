"""Who may write to a game: the one place the game services ask before anything is written.

A game of a tournament (``round`` set) is written only by that tournament's directors and by
the referees assigned to the game who are referees of the tournament now. A standalone game
(no round) is written by the director who created it (``Game.created_by``) and its assigned
referees. A superuser acts as a federation administrator: allowed everywhere, and the entry
says so (``administrator_note``). The global director role only lets a user create tournaments
and standalone games.

arbitration may not import tournaments: the tournaments app answers for its games through a
hook it registers at start-up (``register_tournament_hook`` in ``TournamentsConfig.ready()``):
who directs and referees the game's tournament, whether it is finished, who its arbiters are,
and it records result changes in the tournament's log in the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from accounts.roles import Role, user_roles
from arbitration.errors import NotAllowed, TournamentFinished
from arbitration.models import LogEntry
from arbitration.persistence import game_referees
from games.models import Game

Kind = LogEntry.Kind

#: Kinds only a director of the game (its tournament's, or its creator) may issue.
DIRECTOR_KINDS = {Kind.ADJUDICATE, Kind.CLOCK_ADJUST}

ADMINISTRATOR_NOTE = "recorded by a federation administrator"


@dataclass(frozen=True)
class Authority:
    """What the game's tournament says of one user: his offices there, and the tournament's state."""

    tournament: str = ""
    is_director: bool = False
    is_referee: bool = False
    finished: bool = False
    arbiters: tuple[tuple[int, str], ...] = field(default=())


class TournamentHook(Protocol):
    """What the tournaments app answers for a game of one of its rounds."""

    def authority(self, game: Game, user: Any) -> Authority: ...

    def arbiters(self, game: Game) -> list[tuple[int, str]]: ...

    def appeal_deadline_passed(self, game: Game) -> str: ...

    def result_changed(self, game: Game, *, actor: Any, kind: str, entry_seq: int, before: str | None,
                       after: str | None, note: str, administrator: bool) -> None: ...

    def appeal_recorded(self, game: Game, *, actor: Any, decided: bool, data: dict[str, Any]) -> None: ...


_hook: TournamentHook | None = None


def register_tournament_hook(hook: TournamentHook | None) -> None:
    """Sets who answers for the games of tournaments (the tournaments app, at start-up)."""
    global _hook
    _hook = hook


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def is_administrator(user: Any) -> bool:
    """Tells whether the user acts as a federation administrator (a superuser)."""
    return _signed_in(user) and bool(user.is_superuser)


def authority(game: Game, user: Any) -> Authority:
    """Returns the user's offices on the game, read once per game object and user.

    A tournament game asks the hook (one indexed query); a standalone game needs no query
    (``created_by_id`` is on the locked row).
    """
    if not _signed_in(user):
        return Authority()
    cache = game.__dict__.setdefault("_authority", {})
    if user.pk in cache:
        return cache[user.pk]
    if game.round_id is None:
        answer = Authority(is_director=game.created_by_id is not None and game.created_by_id == user.pk
                           and Role.DIRECTOR in user_roles(user))
    elif _hook is None:
        answer = Authority(tournament="?")
    else:
        answer = _hook.authority(game, user)
    cache[user.pk] = answer
    return answer


def is_game_director(game: Game, user: Any) -> bool:
    """Tells whether the user directs the game: a director of its tournament, or its creator when standalone."""
    return authority(game, user).is_director


def plays_in(game: Game, user: Any) -> bool:
    """Tells whether the user's account is linked to one of the game's players now (from the locked row)."""
    return _signed_in(user) and user.pk in (game.black.user_id, game.white.user_id)


def is_assigned_referee(game: Game, user: Any) -> bool:
    """Tells whether the user is a referee assigned to the game and, in a tournament, one of its referees now.

    Decided at each write: a referee whose account was linked to one of the game's players after
    he was assigned is no longer its referee (he would judge himself), though the assignment
    stays on the record for the director to replace.
    """
    if not _signed_in(user) or not any(pk == user.pk for pk, _ in game_referees(game)):
        return False
    if plays_in(game, user):
        return False
    return game.round_id is None or authority(game, user).is_referee


def can_write(game: Game, user: Any) -> bool:
    """Tells whether the user may record on the game: its director, an assigned referee, or an administrator."""
    if not _signed_in(user):
        return False
    return is_assigned_referee(game, user) or is_game_director(game, user) or is_administrator(user)


def acts_as_administrator(game: Game, user: Any) -> bool:
    """Tells whether the user writes only because he is a superuser (no office on the game)."""
    return is_administrator(user) and not (is_assigned_referee(game, user) or is_game_director(game, user))


def administrator_note(game: Game, user: Any, note: str) -> str:
    """Returns the entry's note, saying so when a federation administrator records it."""
    if not acts_as_administrator(game, user):
        return note
    return f"{note} ({ADMINISTRATOR_NOTE})" if note else ADMINISTRATOR_NOTE.capitalize() + "."


def ensure_open(game: Game, user: Any) -> None:
    """Refuses (409) a write to a game of a finished tournament: its director reopens it first."""
    if game.round_id is not None and authority(game, user).finished:
        raise TournamentFinished(
            "The tournament is finished: its games are on its record and change no more. A director of the "
            "tournament reopens it (with a reason) first.", details={"tournament": authority(game, user).tournament})


def authorise_write(game: Game, user: Any) -> None:
    """Refuses (403) anyone but the game's director, a referee assigned to it, or an administrator; (409) a
    game of a finished tournament."""
    if not can_write(game, user):
        raise NotAllowed("Only a referee assigned to this game or a director of its tournament may record on it.")
    ensure_open(game, user)


def player_side(game: Game, user: Any) -> str | None:
    """Returns the colour the user plays in the game (his linked player), or None."""
    if not _signed_in(user):
        return None
    if game.black.user_id == user.pk:
        return "black"
    if game.white.user_id == user.pk:
        return "white"
    return None


def authorise_ruling(game: Game, user: Any, kind: str, side: str) -> str:
    """Checks who may issue the ruling; returns the side (a player's appeal is his colour)."""
    if kind == Kind.APPEAL_DECISION:
        if not _signed_in(user) or not (is_administrator(user) or any(pk == user.pk for pk, _ in arbiters(game))):
            raise NotAllowed("Only an arbiter of this game (its tournament's, or a standalone game's director) "
                             "may decide an appeal.")
        ensure_open(game, user)
        return side  # the arbiter is checked against the appeal (rulings.appeals.may_decide)
    if kind == Kind.APPEAL and not can_write(game, user):
        own = player_side(game, user)
        if own is None:
            raise NotAllowed("A player may appeal only on his own game.")
        if side and side != own:
            raise NotAllowed(f"You play {own}: you may appeal only for your side.")
        ensure_open(game, user)
        return own
    if kind in DIRECTOR_KINDS and not (is_game_director(game, user) or is_administrator(user)):
        raise NotAllowed("Only a director of this game's tournament may do this." if game.round_id is not None
                         else "Only the director who created this game may do this.")
    authorise_write(game, user)
    return side


def arbiters(game: Game) -> list[tuple[int, str]]:
    """Returns (id, username) of who decides appeals on the game (Law 28).

    A tournament's are the arbiters its directors named; a standalone game's is the director
    who created it.
    """
    if game.round_id is None:
        if game.created_by_id is None:
            return []
        creator = game.created_by
        return [(creator.pk, creator.username)]
    return list(_hook.arbiters(game)) if _hook is not None else []


def interest_in(game: Game, user: Any, ruling: LogEntry, appellant_id: int | None) -> str:
    """Returns why the user is not disinterested in an appeal against ``ruling`` (Law 28), or ""."""
    if user.pk in (game.black.user_id, game.white.user_id):
        return f"{user.username} plays in this game"
    if appellant_id is not None and user.pk == appellant_id:
        return f"{user.username} filed the appeal"
    if user.pk == ruling.actor_id:
        return f"{user.username} recorded entry #{ruling.seq}, the one appealed"
    return ""


def appeal_deadline_passed(game: Game) -> str:
    """Returns why an appeal may no longer be filed on the game (the tournament's deadline), or ""."""
    if game.round_id is None or _hook is None:
        return ""
    return _hook.appeal_deadline_passed(game)


def result_changed(game: Game, *, actor: Any, kind: str, entry_seq: int, before: str | None, after: str | None,
                   note: str) -> None:
    """Records, in the caller's transaction, that a ruling changed a tournament game's result."""
    if game.round_id is None or _hook is None or before == after:
        return
    _hook.result_changed(game, actor=actor, kind=kind, entry_seq=entry_seq, before=before, after=after, note=note,
                         administrator=acts_as_administrator(game, actor))


def appeal_recorded(game: Game, *, actor: Any, decided: bool, data: dict[str, Any]) -> None:
    """Records an appeal filed or decided on a tournament game in the tournament's log (same transaction)."""
    if game.round_id is not None and _hook is not None:
        _hook.appeal_recorded(game, actor=actor, decided=decided, data=data)

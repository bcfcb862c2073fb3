"""Who referees a game: a director assigns its referees, and takes a removed referee off it.

Each change locks the game, asks ``arbitration.access`` (a director of the game, or an
administrator), and goes on the game's log (``referees_changed``, before and after). A referee
is never linked to one of the game's players (he would judge himself), and a tournament game's
referee is a referee of the tournament now.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.roles import Role, user_roles
from arbitration.access import (
    acts_as_administrator,
    administrator_note,
    authority,
    ensure_open,
    is_administrator,
    is_game_director,
)
from arbitration.errors import GameOver, InvalidGameSetup, NotAllowed
from arbitration.lifecycle import save_game
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.persistence import game_lock, game_referees
from games.models import Game


def _authorise_director(game: Game, user: Any) -> None:
    if not (is_game_director(game, user) or is_administrator(user)):
        raise NotAllowed("Only a director of this game's tournament may assign its referees." if game.round_id
                         else "Only the director who created this game may assign its referees.")
    ensure_open(game, user)


def _write(game: Game, users: list[Any], *, acting_user: Any, reason: str) -> Game:
    before = [username for _, username in game_referees(game)]
    game.referees.set(users)
    after = sorted(u.username for u in users)
    game._referee_rows = sorted(((u.pk, u.username) for u in users), key=lambda row: row[1])
    log_append(game=game, kind=LogEntry.Kind.REFEREES_CHANGED, actor=acting_user,
               note=administrator_note(game, acting_user, reason),
               data={"before": before, "after": after,
                     **({"as": "federation administrator"} if acts_as_administrator(game, acting_user) else {})})
    save_game(game)
    return game


@transaction.atomic
def game_referees_set(*, acting_user: Any, game_id: int, referees: list[str], reason: str = "") -> Game:
    """Sets the referees of an unfinished game (by username); refuses one linked to a player of the game, one
    without the referee or director role, and, in a tournament, one who is not its referee now."""
    game = game_lock(game_id)
    _authorise_director(game, acting_user)
    if game.is_finished:
        raise GameOver("The game is finished: its referees are on its record.")
    wanted = list(dict.fromkeys(str(u).strip() for u in referees or [] if str(u).strip()))
    found = {u.username: u for u in get_user_model().objects.filter(username__in=wanted, is_active=True)}
    problems = []
    for name in wanted:
        user = found.get(name)
        if user is None or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(user)):
            problems.append(f"{name} is not a user with the referee or director role.")
        elif user.pk in (game.black.user_id, game.white.user_id):
            problems.append(f"{name} plays in this game (linked to its player) and cannot referee it.")
        elif game.round_id is not None and not authority(game, user).is_referee:
            problems.append(f"{name} is not a referee of this game's tournament.")
    if problems:
        raise InvalidGameSetup(" ".join(problems), details={"fields": {"referees": problems}})
    return _write(game, [found[name] for name in wanted], acting_user=acting_user, reason=reason)


@transaction.atomic
def game_referee_remove(*, acting_user: Any, game_id: int, referee: Any, reason: str) -> list[str]:
    """Takes a referee off an unfinished game; returns the referees left (none: the game needs one)."""
    game = game_lock(game_id)
    _authorise_director(game, acting_user)
    rows = game_referees(game)
    if game.is_finished or not any(pk == referee.pk for pk, _ in rows):
        return [username for _, username in rows]
    users = list(get_user_model().objects.filter(pk__in=[pk for pk, _ in rows if pk != referee.pk]))
    _write(game, users, acting_user=acting_user, reason=reason)
    return sorted(u.username for u in users)

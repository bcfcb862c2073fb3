"""Who may write to a game: the one place the game services ask before anything is written."""

from __future__ import annotations

from typing import Any

from accounts.roles import is_director
from arbitration.errors import (
    NotAllowed,
)
from arbitration.models import LogEntry
from arbitration.persistence import game_referees
from games.models import Game

Kind = LogEntry.Kind


def can_write(game: Game, user: Any) -> bool:
    """Tells whether the user may record on the game: a director or a referee assigned to it."""
    if user is None or not user.is_authenticated:
        return False
    return any(pk == user.pk for pk, _ in game_referees(game)) or is_director(user)


def authorise_write(game: Game, user: Any) -> None:
    """Refuses (403) a user who is neither a director nor a referee assigned to the game."""
    if not can_write(game, user):
        raise NotAllowed("Only a referee assigned to this game or a director may record on it.")


def authorise_ruling(game: Game, user: Any, kind: str, side: str) -> str:
    """Checks who may issue the ruling; returns the side (a player's appeal is his colour)."""
    if kind == Kind.APPEAL_DECISION:
        if user is None or not user.is_authenticated:
            raise NotAllowed("Only the named arbiter may decide an appeal.")
        return side  # the arbiter is checked against the appeal
    if kind == Kind.APPEAL and not can_write(game, user):
        player_side = None
        if user is not None and user.is_authenticated:
            if game.black.user_id == user.pk:
                player_side = "black"
            elif game.white.user_id == user.pk:
                player_side = "white"
        if player_side is None:
            raise NotAllowed("A player may appeal only on his own game.")
        if side and side != player_side:
            raise NotAllowed(f"You play {player_side}: you may appeal only for your side.")
        return player_side
    if kind == Kind.ADJUDICATE:
        if not is_director(user):
            raise NotAllowed("Only a tournament director may adjudicate a game.")
        return side
    authorise_write(game, user)
    return side

"""Creating a game: the players, the rules, the referees, the clock, and log entry #1."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.roles import Role, is_director, user_roles
from arbitration.clocks import clock_create
from arbitration.errors import (
    InvalidGameSetup,
    NotAllowed,
)
from arbitration.lifecycle import finish, opponent, save_game, win_for
from arbitration.log import log_append
from arbitration.models import LogEntry
from arbitration.state import PendingState
from arbitration.timecontrol import ClockControl, ClockControlError
from games.models import INITIAL_FEN, Game, ProgressRule, RuleSet, Termination
from games.rules import (
    FENError,
    GameState,
    Position,
)
from games.rules.errors import RulesError
from games.rules.rulesets import RuleSet as EngineRuleSet
from players.models import Player

#: The most plies of an opening (a ballot) written before a game's start position.
MAX_OPENING_PLIES = 6


@transaction.atomic
def game_create(
    *, acting_user: Any, black: Player | int, white: Player | int, rule_set: str = RuleSet.STANDARD,
    referees: list[str] | tuple[str, ...] = (), start_fen: str = "",
    progress_rule: str = ProgressRule.FORTY_MOVE_NOTICE, repetition_threshold: int | None = 4,
    round: Any = None, clock: dict[str, Any] | None = None, opening: str = "",
) -> Game:
    """Creates a game in progress and writes log entry #1 (``game_created``, with the settings).

    Only a director may create a game (he directs it when it is standalone: ``created_by``).
    Referees are named by username and must hold the referee or director role, and none may
    be linked to one of the game's players (a referee never judges himself). A bad FEN, the same player twice or an unknown referee is a
    ``validation_error`` naming the field. ``clock`` is the time control
    (``arbitration.timecontrol.ClockControl`` as JSON; None or ``{"control": "none"}``: no clock);
    the clock starts with the ``clock_start`` ruling. A start position must be one a board can
    hold (``Position.setup_problem``: at most twelve pieces a side, no man on its crowning row);
    if the side to move has no legal move in it, the game ends at once (Law 23), logged as
    ``game_end`` after ``game_created``. ``opening``: the moves that led from the initial position
    to ``start_fen`` (a ballot, ``"10-14 22-18 11-15"``); checked, and logged with the settings, so
    that the game is numbered and written from its first move (``opening_of``).
    """
    if not is_director(acting_user):
        raise NotAllowed("Only a tournament director may create a game.")
    fields: dict[str, list[str]] = {}
    black_player = black if isinstance(black, Player) else Player.objects.filter(pk=black).first()
    white_player = white if isinstance(white, Player) else Player.objects.filter(pk=white).first()
    if black_player is None:
        fields["black"] = [f"There is no player {black}."]
    if white_player is None:
        fields["white"] = [f"There is no player {white}."]
    if black_player is not None and white_player is not None and black_player.pk == white_player.pk:
        fields["white"] = ["A player cannot play himself: Black and White must differ."]
    if rule_set not in RuleSet.values:
        fields["rule_set"] = [f"Unknown rule set {rule_set!r}; one of {', '.join(RuleSet.values)}."]
    if progress_rule not in ProgressRule.values:
        fields["progress_rule"] = [f"Unknown progress rule {progress_rule!r}; one of {', '.join(ProgressRule.values)}."]
    if repetition_threshold not in (3, 4, None):
        fields["repetition_threshold"] = ["The repetition threshold is 3, 4 or null (off)."]
    fen = INITIAL_FEN
    if start_fen:
        try:
            position = Position.from_fen(start_fen.strip())
        except FENError as error:
            fields["start_fen"] = [f"Bad FEN: {error}"]
        else:
            problem = position.setup_problem()
            if problem is not None:
                fields["start_fen"] = [f"Not a draughts position: {problem}."]
            fen = position.fen()
    opening_moves = (opening or "").split()
    if opening_moves and "start_fen" not in fields and rule_set in RuleSet.values:
        problem = _opening_problem(opening_moves, fen, rule_set)
        if problem:
            fields["opening"] = [problem]
    User = get_user_model()
    referee_users = []
    wanted = list(dict.fromkeys(referees or []))
    if wanted:
        found = {u.username: u for u in User.objects.filter(username__in=wanted).prefetch_related("groups")}
        bad = []
        for username in wanted:
            user = found.get(username)
            if user is None or not ({Role.REFEREE, Role.DIRECTOR} & user_roles(user)):
                bad.append(username)
            else:
                referee_users.append(user)
        linked = [u.username for u in referee_users
                  if u.pk in {getattr(black_player, "user_id", None), getattr(white_player, "user_id", None)} - {None}]
        if linked and not bad:
            fields["referees"] = [
                f"{', '.join(linked)} plays in this game (linked to its player) and cannot referee it."]
        if bad:
            fields["referees"] = [
                f"Not a referee or director: {', '.join(bad)}." if len(bad) > 1 else
                f"{bad[0]} is not a user with the referee or director role."
            ]
    try:
        control = ClockControl.from_dict(clock)
    except ClockControlError as error:
        fields.update({f"clock.{name}" if name != "clock" else name: msgs for name, msgs in error.fields.items()})
    if fields:
        raise InvalidGameSetup("Some fields are invalid: " + ", ".join(fields) + ".", details={"fields": fields})

    game = Game.objects.create(
        black=black_player, white=white_player, rule_set=rule_set, progress_rule=progress_rule,
        repetition_threshold=repetition_threshold, start_fen="" if fen == INITIAL_FEN else fen, fen=fen, ply=0,
        status=Game.Status.IN_PROGRESS, round=round, created_by=acting_user,
    )
    if referee_users:
        game.referees.set(referee_users)
    game._referee_rows = sorted(((u.pk, u.username) for u in referee_users), key=lambda row: row[1])
    clock_create(game, control)
    log_append(
        game=game, kind=LogEntry.Kind.GAME_CREATED, actor=acting_user, data={
            "black": black_player.pk, "white": white_player.pk, "rule_set": rule_set,
            "progress_rule": progress_rule, "repetition_threshold": repetition_threshold,
            "start_fen": fen, "referees": [u.username for u in referee_users], "clock": control.as_dict(),
            **({"opening": " ".join(opening_moves)} if opening_moves else {}),
        },
    )
    state = PendingState.initial(game.initial_fen)
    start = Position.from_fen(fen)
    if start.is_game_over(game.engine_rules()):
        loser = start.side_to_move.value
        state = state.cleared()
        finish(game, result=win_for(opponent(loser)), termination=Termination.NO_LEGAL_MOVE, actor=None, side=loser,
               law="23", note=f"{loser.capitalize()}, to move, has no legal move at the start and loses (Law 23).",
               data={"at_start": True})
    save_game(game, state)
    return game


def _opening_problem(moves: list[str], fen: str, rule_set: str) -> str | None:
    """Returns why ``moves`` are not an opening from the initial position to ``fen`` (None: they are)."""
    if len(moves) > MAX_OPENING_PLIES:
        return f"An opening is at most {MAX_OPENING_PLIES} plies."
    state = GameState(start=Position.initial(), rules=EngineRuleSet(rule_set))
    for text in moves:
        try:
            state.push_pdn(text)
        except RulesError as error:
            return f"{text} is not legal there: {error}"
    if state.position.fen() != fen:
        return "The opening does not lead to the start position."
    return None

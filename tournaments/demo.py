"""The demo that `make run` loads on first start, made through the same services as a director's.

Nothing here writes a row of the record directly: accounts go through ``accounts.services``,
players, tournaments, entries, rounds and results through ``tournaments.services``, moves and
rulings through ``arbitration.services``. So every position, lot, ballot, log entry and
standings row of the demo is one the system itself makes, and ``verify_log`` accepts it.

Two tournaments:

- **Autumn Swiss** (finished, rated): 8 players, 3 Swiss rounds of 2-game matches with the
  3-move ballot, paired by the FIDE Dutch system; its games are real master games (``demo_data/master_games.pdn``) whose first
  three moves are the ballot drawn; finishing it computes the tiebreaks and the Glicko-2 ratings.
- **Demo Club Championship** (running): an 8-player round robin of 2-game matches, 3-move
  ballot, 30 moves in an hour. Round 1 finished with master games replayed move by move (a
  40-move notice on record in one of them); round 2 in progress: clocks running, a few moves
  made, a caution on record.
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.roles import Role
from accounts.services import user_create_with_role
from arbitration.services import game_move_record, ruling_issue
from clubs.demo import clubs_demo_seed
from games.models import Game
from games.rules import Position
from games.rules.pdn import read_file, replay
from tournaments.models import MatchGame, Round, Tournament
from tournaments.services import (
    entries_add,
    player_claim,
    player_claim_decide,
    player_create,
    round_pair,
    round_publish,
    tournament_create,
    tournament_status_set,
)

#: What the apps above tournaments add to the demo: each registers a function in its ``ready()``
#: (``demo_extend``); ``demo_seed`` calls it with the director and the demo's players, at the end.
DEMO_EXTENSIONS: list[Any] = []


def demo_extend(seed: Any) -> None:
    """Registers a function that adds to the demo (once)."""
    if seed not in DEMO_EXTENSIONS:
        DEMO_EXTENSIONS.append(seed)


DEMO_SLUG = "demo-club-championship"
SWISS_SLUG = "demo-autumn-swiss"
MASTER_GAMES = Path(__file__).with_name("demo_data") / "master_games.pdn"
DEMO_PLAYERS = [
    ("Agnes Calder", "Edinburgh DC", "SCO"),
    ("Bram Okafor", "Leeds Checkers", "ENG"),
    ("Cora Lindqvist", "Edinburgh DC", "SCO"),
    ("Declan Murray", "Glasgow Draughts", "SCO"),
    ("Elif Aydin", "Leeds Checkers", "ENG"),
    ("Farid Haddad", "Glasgow Draughts", "SCO"),
    ("Greta Novak", "Manchester DC", "ENG"),
    ("Hugo Pereira", "Manchester DC", "ENG"),
]
#: The 30-moves-in-an-hour control of the championship (Law 24's clock, moves in time).
CHAMPIONSHIP_CLOCK = {"control": "moves-in-time", "moves": 30, "seconds": 3600}
#: How many moves after the ballot each game 1 of round 2 has when the demo is loaded (play goes on).
ROUND_TWO_MOVES = (6, 4, 3, 2)


@dataclass(frozen=True)
class Login:
    username: str
    password: str
    role: str


def _password() -> str:
    return secrets.token_urlsafe(12)


def logins_file(var_dir: Path) -> Path:
    """Returns where the demo logins are kept (readable by the owner only)."""
    return var_dir / "demo-logins.txt"


def demo_exists() -> bool:
    """Tells whether the demo tournament is already in the database."""
    return Tournament.objects.filter(slug=DEMO_SLUG).exists()


# --- the master games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MasterGame:
    """A game of the excerpt: who played it, its moves in full-path PDN (ballot included), its result."""

    source: str
    event: str
    black: str
    white: str
    moves: tuple[str, ...]
    result: str


@cache
def master_games() -> dict[str, list[MasterGame]]:
    """Returns the excerpt's games by the position after their first three plies (a ballot's FEN)."""
    by_opening: dict[str, list[MasterGame]] = {}
    for record in read_file(MASTER_GAMES):
        done = replay(record)
        if not done.ok or done.state is None:  # the excerpt holds only games that replay; kept as a guard
            continue
        key = done.state.positions[3].fen()
        by_opening.setdefault(key, []).append(MasterGame(
            source=record.tags.get("Source", ""), event=record.tags.get("Event", ""), black=record.black,
            white=record.white, moves=tuple(move.pdn() for move in done.state.moves),
            result=record.result_tag or "*"))
    return by_opening


def master_games_for(ballot_fen: str) -> list[MasterGame]:
    """Returns the master games that open with the ballot whose position is ``ballot_fen``."""
    return master_games().get(Position.from_fen(ballot_fen).fen(), [])


# --- playing through the services ---------------------------------------------------------------


def _referee(game: Game, director: Any) -> Any:
    return game.referees.order_by("username").first() or director


def _play(game: Game, moves: tuple[str, ...], *, by: Any, first_ply: int = 3) -> None:
    """Records ``moves[first_ply:]`` one by one through the move service (the ballot's three are the start)."""
    for ply, move in enumerate(moves[first_ply:], start=first_ply - 2):
        outcome = game_move_record(acting_user=by, game_id=game.pk, move=move, ply=ply)
        if outcome.refused is not None:
            raise outcome.refused
        if outcome.game.status == Game.Status.FINISHED:
            return


def _finish_as_recorded(game: Game, master: MasterGame | None, *, by: Any, notice_at: int | None = None) -> None:
    """Plays a master game through the services and ends it as the record says (a resignation or a draw)."""
    if master is not None:
        if notice_at is not None:
            _play(game, master.moves[:notice_at], by=by)
            game.refresh_from_db()
            ruling_issue(acting_user=by, game_id=game.pk, kind="forty_move_notice", side=_to_move(game),
                         note="The side to move asks for the 40-move count (Law 22).")
            _play(game, master.moves, by=by, first_ply=notice_at)
        else:
            _play(game, master.moves, by=by)
    game.refresh_from_db()
    if game.status == Game.Status.FINISHED:
        return
    result = master.result if master is not None else "1/2-1/2"
    if result == "1-0":
        ruling_issue(acting_user=by, game_id=game.pk, kind="resign", side="white", note="White resigned.")
    elif result == "0-1":
        ruling_issue(acting_user=by, game_id=game.pk, kind="resign", side="black", note="Black resigned.")
    else:
        ruling_issue(acting_user=by, game_id=game.pk, kind="draw_agreed", note="The players agreed a draw.")


def _first_moves(fen: str, count: int) -> tuple[str, ...]:
    """The first legal move (in the rules engine's order) ``count`` times over, from ``fen``, in PDN."""
    position, moves = Position.from_fen(fen), []
    for _ in range(count):
        legal = position.legal_moves()
        if not legal:
            break
        moves.append(legal[0].pdn())
        position = position.play(legal[0])
    return tuple(moves)


def _to_move(game: Game) -> str:
    return Position.from_fen(game.fen).side_to_move.value


def _round_games(round_: Round) -> list[tuple[MatchGame, Game]]:
    rows = (MatchGame.objects.filter(match__round=round_).select_related("game", "match")
            .order_by("match__board", "number"))
    return [(row, row.game) for row in rows]


def _master_for(row: MatchGame, taken: set[str]) -> MasterGame | None:
    """Picks a master game for a match's game: one that opens with its ballot, not used yet in the demo."""
    ballot = next((b for b in row.match.ballots if b["number"] == row.ballot_number), None)
    if ballot is None:
        return None
    candidates = master_games_for(ballot["fen"])
    fresh = [g for g in candidates if g.source not in taken] or candidates
    if not fresh:
        return None
    chosen = fresh[0]
    taken.add(chosen.source)
    return chosen


def _play_round(round_: Round, director: Any, taken: set[str], *, notice_board: int | None = None) -> None:
    """Plays the round's games from master games; with ``notice_board``, one of them has a 40-move notice on
    record: the first from that board on (then the boards before it) whose master game is long enough (the
    ballots are drawn by lot: a board's may open no master game, or a short one)."""
    games = [(row, game, _master_for(row, taken)) for row, game in _round_games(round_)]
    noticed = None
    if notice_board is not None:
        noticed = notice_game([(row.match.board, row.number, master) for row, _, master in games], notice_board)
    for index, (_, game, master) in enumerate(games):
        notice_at = len(master.moves) - 8 if master is not None and index == noticed else None
        _finish_as_recorded(game, master, by=_referee(game, director), notice_at=notice_at)


def notice_game(games: list[tuple[int, int, MasterGame | None]], board: int) -> int | None:
    """The index in ``games`` ((board, game number, master game or None), in play order) of the game to take
    the 40-move notice: the first from ``board`` on, then from the boards before it, whose master game is
    longer than 20 plies; None if none is."""
    order = sorted(range(len(games)), key=lambda i: (games[i][0] < board, games[i][0], games[i][1]))
    return next((i for i in order if games[i][2] is not None and len(games[i][2].moves) > 20), None)


# --- the demo -----------------------------------------------------------------------------------


@transaction.atomic
def demo_seed() -> list[Login]:
    """Creates the demo: a director, two referees, 8 players, a finished Swiss and a running championship.

    Every password is generated here; none is fixed in the code. Runs in one transaction.
    """
    logins: list[Login] = []

    def account(username: str, role: str, **fields: str) -> Any:
        password = _password()
        logins.append(Login(username, password, role))
        return user_create_with_role(username=username, password=password, role=role, **fields)

    director = account("director", Role.DIRECTOR, first_name="Demo", last_name="Director")
    account("referee1", Role.REFEREE, first_name="Rhona", last_name="Baird")
    account("referee2", Role.REFEREE, first_name="Sam", last_name="Ojo")
    players = []
    for number, (name, club, federation) in enumerate(DEMO_PLAYERS, start=1):
        user = account(f"player{number}", Role.PLAYER, email=f"player{number}@example.org")  # notices: var/mail/
        player = player_create(acting_user=director, name=name, club=club, federation=federation,
                               rating=1500 + 40 * (8 - number))
        # each player claims his record from his account, and the director who registered him approves it
        claim = player_claim(acting_user=user, player=player, statement=f"I play for {club}.")
        player_claim_decide(acting_user=director, claim=claim, approve=True)
        player.refresh_from_db()
        players.append(player)
    clubs_demo_seed(director=director, secretary=account("secretary", Role.PLAYER, first_name="Isla",
                                                         last_name="Grant"))  # Edinburgh DC's (clubs app)
    taken: set[str] = set()
    _swiss_seed(director, players, taken)
    _championship_seed(director, players, taken)
    for extend in DEMO_EXTENSIONS:  # what the apps above add, in the same transaction
        extend(director=director, players=players)
    return logins


def _swiss_seed(director: Any, players: list[Any], taken: set[str]) -> Tournament:
    """A small rated Swiss, played last month and finished: tiebreaks and ratings computed."""
    today = timezone.localdate()
    swiss = tournament_create(
        acting_user=director, name="Autumn Swiss", slug=SWISS_SLUG, format=Tournament.Format.SWISS,
        round_count=3, games_per_match=2, opening=Tournament.Opening.THREE_MOVE_BALLOT, rated=True,
        referees=["referee1", "referee2"], venue="Leeds, Quarry Hill", start_date=today - dt.timedelta(days=30),
        end_date=today - dt.timedelta(days=29), pairing_system=Tournament.PairingSystem.DUTCH,
    )
    tournament_status_set(acting_user=director, tournament=swiss, status=Tournament.Status.REGISTRATION)
    entries_add(acting_user=director, tournament=swiss, players=players)
    tournament_status_set(acting_user=director, tournament=swiss, status=Tournament.Status.RUNNING)
    for _number in range(3):
        round_ = round_pair(acting_user=director, tournament=swiss)
        round_ = round_publish(acting_user=director, tournament=swiss, number=round_.number)
        _play_round(round_, director, taken)
    tournament_status_set(acting_user=director, tournament=swiss, status=Tournament.Status.FINISHED)
    return swiss


def _championship_seed(director: Any, players: list[Any], taken: set[str]) -> Tournament:
    """The running round robin: round 1 finished, round 2 in progress with its clocks running."""
    today = timezone.localdate()
    championship = tournament_create(
        acting_user=director, name="Demo Club Championship", slug=DEMO_SLUG, format=Tournament.Format.ROUND_ROBIN,
        games_per_match=2, opening=Tournament.Opening.THREE_MOVE_BALLOT, referees=["referee1", "referee2"],
        arbiters=["referee1", "referee2"], venue="Club rooms", start_date=today, end_date=today + dt.timedelta(days=2),
        clock_control=CHAMPIONSHIP_CLOCK,
    )
    tournament_status_set(acting_user=director, tournament=championship, status=Tournament.Status.REGISTRATION)
    entries_add(acting_user=director, tournament=championship, players=players)
    tournament_status_set(acting_user=director, tournament=championship, status=Tournament.Status.RUNNING)
    round_one = round_pair(acting_user=director, tournament=championship)
    round_one = round_publish(acting_user=director, tournament=championship, number=round_one.number)
    _play_round(round_one, director, taken, notice_board=2)
    round_two = round_pair(acting_user=director, tournament=championship)
    round_two = round_publish(acting_user=director, tournament=championship, number=round_two.number)
    games = [(row, game) for row, game in _round_games(round_two) if row.number == 1]
    for (row, game), made in zip(games, ROUND_TWO_MOVES, strict=False):
        referee = _referee(game, director)
        ruling_issue(acting_user=referee, game_id=game.pk, kind="clock_start", note="Play begins.")
        master = _master_for(row, taken)
        # (one ballot of the deck of 156 opens no master game: then the first legal moves, so that every
        # board has play in progress, as the home page and the live boards show it)
        _play(game, master.moves[:3 + made] if master is not None else ("",) * 3 + _first_moves(game.fen, made),
              by=referee)
        if row.match.board == 1:
            ruling_issue(acting_user=referee, game_id=game.pk, kind="touch_offence", side=_to_move(game),
                         note="Touched a piece while considering the move; cautioned (Law 18).")
    return championship


def logins_write(var_dir: Path, logins: list[Login]) -> Path:
    """Writes the demo logins to var/, readable by the owner only."""
    path = logins_file(var_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(logins_format(logins))
    return path


def logins_format(logins: list[Login]) -> str:
    """Formats the logins as a small table for the terminal."""
    lines = [f"  {'user':<10} {'password':<18} role"]
    lines += [f"  {login.username:<10} {login.password:<18} {login.role}" for login in logins]
    return "\n".join(lines) + "\n"

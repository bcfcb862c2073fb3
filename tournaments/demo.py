"""The demo club tournament that `make run` loads on first start."""

from __future__ import annotations

import datetime as dt
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from accounts.roles import Role
from accounts.services import user_create_with_role
from games.models import Game
from players.models import Player
from tournaments.models import Entry, Round, Tournament

DEMO_SLUG = "demo-club-championship"
DEMO_PLAYERS = [
    ("Agnes Calder", "Edinburgh DC"),
    ("Bram Okafor", "Leeds Checkers"),
    ("Cora Lindqvist", "Edinburgh DC"),
    ("Declan Murray", "Glasgow Draughts"),
    ("Elif Aydin", "Leeds Checkers"),
    ("Farid Haddad", "Glasgow Draughts"),
    ("Greta Novak", "Manchester DC"),
    ("Hugo Pereira", "Manchester DC"),
]


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


@transaction.atomic
def demo_seed() -> list[Login]:
    """Creates the demo tournament: 8 players, a director, two referees, round 1 in progress.

    Every password is generated here; none is fixed in the code.
    """
    logins: list[Login] = []

    def account(username: str, role: str, **fields: str):
        password = _password()
        logins.append(Login(username, password, role))
        return user_create_with_role(username=username, password=password, role=role, **fields)

    director = account("director", Role.DIRECTOR, first_name="Demo", last_name="Director")
    referees = [account(f"referee{i}", Role.REFEREE) for i in (1, 2)]
    players = []
    for number, (name, club) in enumerate(DEMO_PLAYERS, start=1):
        user = account(f"player{number}", Role.PLAYER)
        player, _ = Player.objects.update_or_create(
            user=user, defaults={"name": name, "club": club, "federation": "SCO" if "Edinburgh" in club or "Glasgow" in club else "ENG", "rating": 1500 + 40 * (8 - number)},
        )
        players.append(player)

    today = timezone.localdate()
    tournament = Tournament.objects.create(
        name="Demo Club Championship",
        slug=DEMO_SLUG,
        format=Tournament.Format.ROUND_ROBIN,
        rule_set="standard",
        venue="Club rooms",
        start_date=today,
        end_date=today + dt.timedelta(days=2),
        status=Tournament.Status.RUNNING,
    )
    tournament.directors.add(director)
    tournament.referees.add(*referees)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    round_one = Round.objects.create(tournament=tournament, number=1, status=Round.Status.IN_PROGRESS)
    # Round 1 of the Berger table for 8 players: 1-8, 2-7, 3-6, 4-5.
    for board, (a, b) in enumerate([(0, 7), (1, 6), (2, 5), (3, 4)]):
        game = Game.objects.create(
            round=round_one, black=players[a], white=players[b], status=Game.Status.IN_PROGRESS
        )
        game.referees.add(referees[board % 2])
    return logins


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

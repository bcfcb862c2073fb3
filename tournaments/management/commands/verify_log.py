"""``python manage.py verify_log [[--game] ID | --tournament SLUG] [--head SEQ:HASH] [--heads FILE]``: checks the
logs' hash chains.

With no option: every game's arbitration log and every tournament's log. ``--head`` checks too
that the game's (or the tournament's) chain still leads to a head kept outside the database
(printed on a game's page and in its PDN as ``LogHead``; on a tournament's page, its exports and
each round's pairing sheet). ``--heads FILE`` checks every head kept in a file, one a line:
``game ID SEQ:HASH`` or ``tournament SLUG SEQ:HASH`` (blank lines and ``#`` comments skipped).
Here, in the highest app, because it reads both logs (arbitration's and the tournaments').
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.management.base import BaseCommand, CommandError

from arbitration.log import Verification, log_verify, log_verify_head
from games.models import Game
from tournaments.log import tournament_log_verify, tournament_log_verify_head
from tournaments.models import Tournament


class Command(BaseCommand):
    help = ("Checks each game's arbitration log chain and each tournament's log chain; prints OK or where it "
            "breaks; exits 1 if any breaks.")

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("game_id", nargs="?", type=int, help="Check only this game (the same as --game).")
        parser.add_argument("--game", type=int, help="Check only this game.")
        parser.add_argument("--head", help="With --game or --tournament: the chain head kept outside (SEQ:HASH, or "
                                           "HASH) the chain must still lead to (the LogHead of the game's PDN, the "
                                           "head printed on a finished tournament's page and exports).")
        parser.add_argument("--tournament", help="Check only this tournament's log (its slug).")
        parser.add_argument("--heads", help="A file of heads kept outside, one a line: 'game ID SEQ:HASH' or "
                                            "'tournament SLUG SEQ:HASH'; each log named must still lead to its head.")

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        game_id, head, slug = options.get("game"), options.get("head"), options.get("tournament")
        if options.get("game_id") is not None:
            game_id = options["game_id"]
        if options.get("heads"):
            if head or game_id is not None or slug is not None:
                raise CommandError("--heads names its logs itself: give it alone.")
            broken = self._heads_file(options["heads"])
            if broken:
                raise CommandError(f"{broken} log(s) broken", returncode=1)
            return
        if head and (game_id is None) == (slug is None):
            raise CommandError("--head needs --game or --tournament (one of them): a head is one game's or one "
                               "tournament's.")
        broken = 0
        if slug is None or game_id is not None:
            broken += self._games(game_id, head)
        if slug is not None or game_id is None:
            broken += self._tournaments(slug, head)
        if broken:
            raise CommandError(f"{broken} log(s) broken", returncode=1)

    def _games(self, game_id: int | None, head: str | None) -> int:
        games = Game.objects.order_by("id")
        if game_id is not None:
            games = games.filter(pk=game_id)
            if not games.exists():
                raise CommandError(f"There is no game {game_id}.")
        return self._report(((f"game {game.pk}", log_verify_head(game, head) if head else log_verify(game))
                             for game in games.iterator()), head, unit="entry", units="entries")

    def _tournaments(self, slug: str | None, head: str | None) -> int:
        tournaments = Tournament.objects.order_by("id")
        if slug is not None:
            tournaments = tournaments.filter(slug=slug)
            if not tournaments.exists():
                raise CommandError(f"There is no tournament {slug}.")
        return self._report(((f"tournament {tournament.slug}", tournament_log_verify_head(tournament, head) if head
                              else tournament_log_verify(tournament)) for tournament in tournaments.iterator()),
                            head, unit="row", units="rows")

    def _heads_file(self, path: str) -> int:
        """Checks each head of the file against its log; returns how many do not hold."""
        try:
            with open(path, encoding="utf-8") as kept:
                lines = kept.read().splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"The file of heads cannot be read: {error}") from error
        broken = 0
        for number, line in enumerate(lines, start=1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 3 or words[0] not in ("game", "tournament"):
                raise CommandError(f"line {number} of {path} is not 'game ID SEQ:HASH' or 'tournament SLUG SEQ:HASH'")
            kind, name, head = words
            if kind == "game":
                game = Game.objects.filter(pk=int(name)).first() if name.isdecimal() and len(name) < 19 else None
                outcomes = [(f"game {name}", log_verify_head(game, head) if game is not None
                             else Verification(False, 0, None, "there is no such game (deleted?)"))]
                broken += self._report(outcomes, head, unit="entry", units="entries")
            else:
                tournament = Tournament.objects.filter(slug=name).first()
                outcomes = [(f"tournament {name}", tournament_log_verify_head(tournament, head)
                             if tournament is not None
                             else Verification(False, 0, None, "there is no such tournament (deleted?)"))]
                broken += self._report(outcomes, head, unit="row", units="rows")
        return broken

    def _report(self, outcomes: Iterable[tuple[str, Verification]], head: str | None, *, unit: str,
                units: str) -> int:
        """Writes a line per log checked (OK, or where and why it breaks); returns how many are broken."""
        broken = 0
        for name, outcome in outcomes:
            if outcome.valid:
                held = f"; it leads to the head kept, {head}" if head else ""
                self.stdout.write(f"{name}: OK ({outcome.entries} {units}){held}")
            else:
                broken += 1
                where = f" at {unit} #{outcome.broken_at}" if outcome.broken_at is not None else ""
                self.stdout.write(f"{name}: BROKEN{where}: {outcome.reason}")
        return broken

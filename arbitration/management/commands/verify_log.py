"""``python manage.py verify_log [--game ID [--head SEQ:HASH]]``: checks the arbitration log's hash chains.

``--head`` checks too that the game's chain still leads to a head kept outside the database
(printed on a finished game's page and in its PDN as ``LogHead``).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arbitration.log import log_verify, log_verify_head
from games.models import Game


class Command(BaseCommand):
    help = "Checks each game's arbitration log chain; prints OK or where it breaks; exits 1 if any breaks."

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("--game", type=int, help="Check only this game.")
        parser.add_argument("--head", help="With --game: the chain head kept outside (SEQ:HASH, or HASH) the "
                                           "chain must still lead to (the LogHead of the game's PDN).")

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        if options.get("head") and options.get("game") is None:
            raise CommandError("--head needs --game: a head is one game's.")
        games = Game.objects.order_by("id")
        if options.get("game") is not None:
            games = games.filter(pk=options["game"])
            if not games.exists():
                raise CommandError(f"There is no game {options['game']}.")
        broken = 0
        for game in games.iterator():
            outcome = log_verify_head(game, options["head"]) if options.get("head") else log_verify(game)
            if outcome.valid:
                held = f"; it leads to the head kept, {options['head']}" if options.get("head") else ""
                self.stdout.write(f"game {game.pk}: OK ({outcome.entries} entries){held}")
            else:
                broken += 1
                where = f" at entry #{outcome.broken_at}" if outcome.broken_at is not None else ""
                self.stdout.write(f"game {game.pk}: BROKEN{where}: {outcome.reason}")
        if broken:
            raise CommandError(f"{broken} game log(s) broken", returncode=1)

"""``python manage.py verify_log [--game ID]``: checks the arbitration log's hash chains."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arbitration.log import log_verify
from games.models import Game


class Command(BaseCommand):
    help = "Checks each game's arbitration log chain; prints OK or where it breaks; exits 1 if any breaks."

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("--game", type=int, help="Check only this game.")

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        games = Game.objects.order_by("id")
        if options.get("game") is not None:
            games = games.filter(pk=options["game"])
            if not games.exists():
                raise CommandError(f"There is no game {options['game']}.")
        broken = 0
        for game in games.iterator():
            outcome = log_verify(game)
            if outcome.valid:
                self.stdout.write(f"game {game.pk}: OK ({outcome.entries} entries)")
            else:
                broken += 1
                self.stdout.write(f"game {game.pk}: BROKEN at entry #{outcome.broken_at}: {outcome.reason}")
        if broken:
            raise CommandError(f"{broken} game log(s) broken", returncode=1)

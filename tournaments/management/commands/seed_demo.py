"""python manage.py seed_demo: loads the demo tournaments through the services and prints the logins."""

from django.conf import settings
from django.core.management.base import BaseCommand

from tournaments.demo import demo_exists, demo_seed, logins_file, logins_format, logins_write


class Command(BaseCommand):
    help = (
        "Creates the demo through the same services as a director (a director, two referees, 8 players; "
        "a finished rated Swiss; a round robin with round 1 finished from master games and round 2 in "
        "progress) with generated passwords, and prints the logins. Does nothing if it exists already."
    )

    def handle(self, *args, **options):
        path = logins_file(settings.VAR_DIR)
        if demo_exists():
            self.stdout.write("The demo tournament is loaded already.")
            if path.is_file():
                self.stdout.write(f"Demo logins (from {path}):\n" + path.read_text())
            return
        logins = demo_seed()
        logins_write(settings.VAR_DIR, logins)
        self.stdout.write(f"Demo tournament loaded. Logins (kept in {path}):\n" + logins_format(logins))

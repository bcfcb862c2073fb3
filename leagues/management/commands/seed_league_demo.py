"""python manage.py seed_league_demo: loads the demo league through the services (after seed_demo)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from leagues.demo import league_demo_exists, league_demo_seed


class Command(BaseCommand):
    help = ("Creates the demo league (a division of five club teams of four boards, half a season played, a "
            "postponed match, a defaulted board, a match in play, a cup) and prints the captains' logins.")

    def handle(self, *args, **options):
        path = settings.VAR_DIR / "demo-league-logins.txt"
        if league_demo_exists():
            self.stdout.write("The demo league is loaded already.")
            return
        logins = league_demo_seed()
        text = "".join(f"  {user:<10} {password:<18} {role}\n" for user, password, role in logins)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o600)
        self.stdout.write(f"Demo league loaded. Captains' logins (kept in {path}):\n{text}")

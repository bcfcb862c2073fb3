"""python manage.py issue_token USERNAME [--days N]: prints a new API token for that user."""

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from accounts.services import token_days_bounds, token_issue


class Command(BaseCommand):
    help = ("Prints the key of a new API token for USERNAME. Only its digest is stored: the key is "
            "shown this once. The token expires after --days (API_TOKEN_DAYS by default).")

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--days", type=int, default=None,
                            help=f"lifetime in days (default {token_days_bounds()[0]}, at most {token_days_bounds()[1]})")

    def handle(self, *args, username: str, days: int | None = None, **options):
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
        if not user.is_active:
            raise CommandError(f"user {username!r} is inactive")
        try:
            self.stdout.write(token_issue(user=user, days=days))
        except ValueError as error:
            raise CommandError(str(error)) from None

"""python manage.py issue_token USERNAME: prints an API token for that user."""

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from accounts.services import token_issue


class Command(BaseCommand):
    help = "Prints an API token for USERNAME (creating it if the user has none)."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username: str, **options):
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
        if not user.is_active:
            raise CommandError(f"user {username!r} is inactive")
        self.stdout.write(token_issue(user=user))

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Roles (director, referee, player), API tokens and the signed-in user's account."""

    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self) -> None:
        from accounts import signals

        signals.connect()

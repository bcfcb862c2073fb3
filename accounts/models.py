"""API tokens, stored only as digests. Roles are auth groups (see accounts.roles)."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone


def token_digest(key: str) -> str:
    """Returns the SHA-256 hex digest under which a token's key is stored and looked up."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def token_key_new() -> str:
    """Returns a new random key: 40 hex characters (160 bits), like DRF's."""
    return secrets.token_hex(20)


class ApiToken(models.Model):
    """An API token of a user: its key is shown once, when it is made; only its SHA-256 digest is kept.

    Every token expires. Changing the user's password deletes all of the user's tokens
    (``accounts.signals``); the owner deletes his own on /accounts/tokens/ or through
    ``/api/v1/me/tokens/``, administrators in the admin. Deleting is revoking.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="What the token is for, as the owner named it.")
    digest = models.CharField(max_length=64, unique=True, editable=False,
                              help_text="SHA-256 of the key (hex); the key itself is not stored.")
    prefix = models.CharField(max_length=8, editable=False,
                              help_text="The key's first characters, so that the owner recognises it.")
    created = models.DateTimeField(default=timezone.now, editable=False)
    expires = models.DateTimeField()
    last_used = models.DateTimeField(null=True, blank=True, editable=False,
                                     help_text="Updated at most once an hour.")

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def expired(self) -> bool:
        return self.expires <= timezone.now()

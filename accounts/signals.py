"""A password change revokes the user's API tokens.

Django sends no signal of its own for it. Every way a password changes (the password change
page, the admin's password form, ``changepassword``, ``set_password`` in code) ends in a save
of the user; the receivers compare the saved hash with the one in the database and delete the
user's tokens when it differs. A save that names its fields without ``password`` (e.g. the
``last_login`` update of every sign-in) costs nothing.

One save changes the hash without changing the password: Django's upgrade of an old hash at a
sign-in (``check_password``'s setter, after the password was checked: a new work factor or
algorithm), which saves ``update_fields=["password"]`` with no new password set on the object
(``_password`` is None). It revokes nothing: a Django upgrade would otherwise cost every user his
tokens at his next sign-in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save, pre_save


def _password_may_change(instance: Any, update_fields: Any) -> bool:
    return instance.pk is not None and (update_fields is None or "password" in update_fields)


def _hash_upgrade(instance: Any, update_fields: Any) -> bool:
    """Says whether the save is Django's upgrade of the hash of a password just checked."""
    return (update_fields is not None and set(update_fields) == {"password"}
            and getattr(instance, "_password", "") is None)


def user_pre_save(sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    if raw or not _password_may_change(instance, update_fields) or _hash_upgrade(instance, update_fields):
        instance._password_changed = False
        return
    stored = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    instance._password_changed = stored is not None and stored != instance.password


def user_post_save(sender: Any, instance: Any, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    if not created and getattr(instance, "_password_changed", False):
        from accounts.services import tokens_revoke_all

        tokens_revoke_all(user=instance)
    instance._password_changed = False


def connect() -> None:
    User = get_user_model()
    pre_save.connect(user_pre_save, sender=User, dispatch_uid="accounts.user_pre_save")
    post_save.connect(user_post_save, sender=User, dispatch_uid="accounts.user_post_save")

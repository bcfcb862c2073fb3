"""Keyed hash chains: each entry's hash is an HMAC-SHA256 under the record key, held outside the database.

Both logs (a game's arbitration log, a tournament's log) chain their entries: an entry's hash
covers its canonical content followed by the hash of the entry before (``GENESIS_HASH`` for
the first). The hash is an HMAC-SHA256 keyed with ``settings.LOG_KEY`` (``DJANGO_LOG_KEY``),
so whoever can write the database but does not hold the key cannot rewrite an entry and every
later hash: the verification recomputes them with the key.

Each entry names the key it was hashed under by its key id (``key_id``: 8 hex characters
derived from the key, never the key itself). Rotating the key: the new key goes into
``DJANGO_LOG_KEY`` and the old one into ``DJANGO_LOG_KEYS_OLD`` (comma-separated); new
entries use the new key, old entries still verify under the old one. The empty key id marks
an entry hashed before keys, with plain SHA-256 (``LEGACY_KEY_ID``); such an entry is
accepted only where the migration that brought the key sealed it: a prefix of a game's chain
followed at once by that migration's keyed seal entry (docs/security.md). A chain is extended
only from a tail that verifies under a configured key (``tail_problem``), so that no keyed
entry written later covers a forgery.

The keys are read from the settings once (and again when a test overrides them).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.core.signals import setting_changed

from core.api import ConflictError

GENESIS_HASH = "0" * 64
LEGACY_KEY_ID = ""  # plain SHA-256, before the record had a key
_KEY_ID_LABEL = b"draughts record key id"


class RecordBroken(ConflictError):
    """Raised (409 ``record_broken``) when a write would extend a chain whose last entry does not verify."""

    code = "record_broken"
    default_message = "The record does not verify under the record key: nothing was written."


class UnknownKey(LookupError):
    """Raised when an entry names a key id that is neither the current key nor an old one."""


def key_id_of(key: str) -> str:
    """Returns the public id of a key: 8 hex characters of an HMAC under it (the key cannot be recovered)."""
    return hmac.new(key.encode("utf-8"), _KEY_ID_LABEL, hashlib.sha256).hexdigest()[:8]


@dataclass(frozen=True)
class Keyring:
    """The current key (for new entries) and every key an entry may have been hashed under, by id."""

    current_id: str
    current: bytes
    by_id: dict[str, bytes]


@cache
def keyring() -> Keyring:
    """Returns the keys of the settings (``LOG_KEY``, ``LOG_KEYS_OLD``), read once."""
    current = settings.LOG_KEY
    keys = {key_id_of(old): old.encode("utf-8") for old in getattr(settings, "LOG_KEYS_OLD", [])}
    keys[key_id_of(current)] = current.encode("utf-8")
    return Keyring(current_id=key_id_of(current), current=current.encode("utf-8"), by_id=keys)


def _settings_changed(*, setting: str, **kwargs) -> None:  # noqa: ANN003
    if setting in ("LOG_KEY", "LOG_KEYS_OLD"):
        keyring.cache_clear()


setting_changed.connect(_settings_changed)


def chain_hash(content: str, prev_hash: str) -> tuple[str, str]:
    """Returns (key id, hash) of a new entry: the HMAC-SHA256 (hex) of its content and the previous hash."""
    ring = keyring()
    return ring.current_id, hmac.new(ring.current, (content + prev_hash).encode("utf-8"), hashlib.sha256).hexdigest()


def chain_hash_under(content: str, prev_hash: str, key_id: str) -> str:
    """Returns the hash of an entry recomputed under the key it names (plain SHA-256 for the legacy id).

    Raises ``UnknownKey`` when the key id is not configured.
    """
    message = (content + prev_hash).encode("utf-8")
    if key_id == LEGACY_KEY_ID:
        return hashlib.sha256(message).hexdigest()
    key = keyring().by_id.get(key_id)
    if key is None:
        raise UnknownKey(key_id)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def hash_matches(content: str, prev_hash: str, key_id: str, stored: str) -> bool | None:
    """Tells whether the stored hash is the entry's; None when its key is not configured."""
    try:
        return hmac.compare_digest(chain_hash_under(content, prev_hash, key_id), stored)
    except UnknownKey:
        return None


def unknown_key_reason(seq: int, key_id: str) -> str:
    return (f"entry #{seq} was hashed under key {key_id}, which is not configured "
            "(set the old key in DJANGO_LOG_KEYS_OLD)")


def legacy_tail_reason(seq: int) -> str:
    return (f"entry #{seq} is hashed with plain SHA-256 (no key) and no keyed entry follows it: "
            "anyone who can write the database could have rewritten it")


def tail_problem(*, unit: str, owner: str, head_seq: int, head_hash: str, tail: tuple[int, str, str, str] | None,
                 content: str | None) -> str | None:
    """Tells why a chain may not be extended from its tail, or None when it may.

    ``tail`` is (seq, prev_hash, hash, key_id) of the chain's last row (None: no row), ``content``
    its canonical content; ``head_seq`` and ``head_hash`` the owner's chain head. The tail must be
    the head, and its hash an HMAC under a configured key: never a plain SHA-256, which anyone
    who can write the database can compute, and which a keyed entry appended after it would
    seal.
    """
    if tail is None:
        if head_seq == 0 and head_hash in ("", GENESIS_HASH):
            return None
        return f"the {owner}'s chain head is {unit} #{head_seq} but the log has no {unit}"
    seq, prev_hash, stored, key_id = tail
    if seq != head_seq or stored != head_hash:
        return (f"the log ends at {unit} #{seq} but the {owner}'s chain head is {unit} #{head_seq} "
                "(rows deleted, added or replaced by hand)")
    if key_id == LEGACY_KEY_ID:
        return (f"{unit} #{seq} is hashed with plain SHA-256 (no key): anyone who can write the database could "
                "have written it, and a keyed entry after it would seal it")
    matches = hash_matches(content or "", prev_hash, key_id, stored)
    if matches is None:
        return unknown_key_reason(seq, key_id).replace("entry", unit)
    if not matches:
        return f"{unit} #{seq}: the hash does not match the content (edited after it was written)"
    return None

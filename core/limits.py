"""The bounds of what a request may carry, shared by every app's serializers.

Each bound is put on the serializer field, so that a value past it is a 400 naming the field
(never a 500 from the database or the code behind it) and the OpenAPI schema shows it
(``maxLength``, ``minimum``, ``maximum``, ``maxItems``).
"""

from __future__ import annotations

#: The largest row id a request may name (in a URL or a body): 18 digits, below 2**63 - 1, the
#: largest ``bigint`` (``core.converters``).
MAX_ID = 10**18 - 1

#: The largest value of a ``PositiveIntegerField`` / ``IntegerField`` column (PostgreSQL ``integer``).
MAX_INT_COLUMN = 2**31 - 1

#: The largest value of a ``PositiveSmallIntegerField`` column (PostgreSQL ``smallint``).
MAX_SMALL_COLUMN = 2**15 - 1

#: A note, a reason, a ruling's free text.
NOTE_MAX_LENGTH = 2000

#: An appeal's written statement.
STATEMENT_MAX_LENGTH = 10_000

#: A username (Django's ``User.username``).
USERNAME_MAX_LENGTH = 150

#: How many usernames a list of referees or arbiters may hold.
MAX_NAMES = 50

"""A quick work factor for the passwords the tests set, in the format production reads.

Django's PBKDF2 hasher runs 1,000,000 iterations (about half a second of CPU); the suite creates
users by the thousand, so that hashing was the larger part of its time. The tests' users get
the same algorithm with 1,000 iterations instead: ``pbkdf2_sha256$1000$...``, which the servers
and workers the tests start (production settings, the default hashers) verify as they are, the
iteration count being part of the hash; they would raise it to the full count at a sign-in, as
production does with an old hash. No test is about the work factor; production's stays.
"""

from __future__ import annotations

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1_000

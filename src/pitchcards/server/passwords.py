"""Passwords (issue 32): Argon2id hashes, and the same work whether or not the account exists.

Hashed with ``argon2-cffi``'s defaults (Argon2id, RFC 9106's second recommended profile: 64 MiB,
3 passes, 4 lanes), each with its own salt.  A password is checked against its stored hash in
the library's constant-time comparison; a sign-in for a name that has no account is checked
against :data:`DUMMY_HASH` instead, so that "no such user" costs what "wrong password" costs and
the two cannot be told apart by their timing.  A stored hash made with weaker parameters is
re-hashed at the next sign-in (:func:`needs_rehash`).  Passwords are never logged: nothing here
or in the routes puts one in a log line or an error message.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["DUMMY_HASH", "MAX_PASSWORD", "MIN_PASSWORD", "check_password", "hash_password",
           "needs_rehash", "verify"]

#: NIST SP 800-63B: at least 8 characters, and long passphrases allowed; the upper bound keeps a
#: stranger from making the server hash megabytes.
MIN_PASSWORD = 8
MAX_PASSWORD = 256

_HASHER = PasswordHasher()
#: A hash of no one's password: what an unknown name's sign-in is checked against.
DUMMY_HASH = _HASHER.hash("no account has this password: it is only checked against")


def check_password(password: str) -> str:
    """The password if it may be used; ValueError saying what is wanted (never echoing it)."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ValueError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long "
                         f"(this one has {len(password)})")
    return password


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one of ``password_hash``; None (no such account, or a bot's
    account) is checked against :data:`DUMMY_HASH` — the same work — and is always False."""
    try:
        matched = _HASHER.verify(password_hash or DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return False
    return matched and password_hash is not None


def needs_rehash(password_hash: str) -> bool:
    return _HASHER.check_needs_rehash(password_hash)

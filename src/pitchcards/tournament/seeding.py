"""Seeds for a tournament: everything an event draws comes from its one seed, by SHA-256.

A board's deal, a tie broken by lot, the first round's order: each is ``derive_seed(seed, ...)``
of the event seed and what it is for, so an event replays exactly from its seed and the order
in which a director asks for things changes nothing.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed", "draw_key"]


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the event ``seed`` and some labels (stable across runs and machines)."""
    text = repr((seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def draw_key(seed: int, *parts: object) -> int:
    """The seeded lot of one entrant or table: compare these to break a tie by chance, fairly
    and reproducibly (the lower key wins the draw)."""
    return derive_seed(seed, "draw", *parts)

"""The softmax, on its own: the match odds (:mod:`.match_odds`) and the rough win chance of
:mod:`.utility` both use it, and the utility reads the odds, so it lives in neither."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["softmax"]


def softmax(z: Sequence[float]) -> list[float]:
    """``exp(z_i)`` normalised to sum to 1 (shifted by the largest, so it never overflows)."""
    top = max(z)
    e = [math.exp(v - top) for v in z]
    total = sum(e)
    return [x / total for x in e]

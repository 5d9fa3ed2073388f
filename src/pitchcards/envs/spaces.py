"""The Gymnasium spaces shared by the PettingZoo and Gymnasium environments."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from .encoding import Encoder

__all__ = ["ActionIds", "action_space", "observation_space"]


def observation_space(encoder: Encoder) -> spaces.Dict:
    """The encoded view (``float32`` in [-1, 1]) and the ``int8`` mask over the rule set's
    actions (110 in the four-point game, 176 in the ten-point family)."""
    return spaces.Dict({
        "observation": spaces.Box(-1.0, 1.0, (encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (encoder.actions,), np.int8),
    })


def action_space(encoder: Encoder) -> spaces.Discrete:
    """The engine's action ids: 0..109 in the four-point game, 0..175 in the ten-point family
    (``play LJ``/``BJ`` 110/111, ``discard X`` 112..165, ``trump X`` 166..169, ``bid 5..10``
    170..175)."""
    return ActionIds(encoder.actions)


class ActionIds(spaces.Discrete):
    """Gymnasium's ``Discrete(n)``, answering :meth:`contains` for a Python ``int`` without numpy.

    PettingZoo's ``AssertOutOfBoundsWrapper`` (in ``pettingzoo.env()``) asks it at every step,
    and Gymnasium's answer builds ``np.iinfo`` and a numpy integer each time: a tenth of the
    wrapped step (issue 35).  For an ``int`` the answer is the same (``0 <= x < n``: every such
    id fits the dtype); anything else is Gymnasium's own."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._n = n

    def contains(self, x: object) -> bool:
        if type(x) is int:
            return 0 <= x < self._n
        return bool(super().contains(x))

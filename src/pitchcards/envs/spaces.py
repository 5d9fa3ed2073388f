"""The Gymnasium spaces shared by the PettingZoo and Gymnasium environments."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from .encoding import Encoder

__all__ = ["action_space", "observation_space"]


def observation_space(encoder: Encoder) -> spaces.Dict:
    """The encoded view (``float32`` in [-1, 1]) and the ``int8`` mask over the 110 actions."""
    return spaces.Dict({
        "observation": spaces.Box(-1.0, 1.0, (encoder.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })


def action_space() -> spaces.Discrete:
    """The engine's action ids 0..109."""
    return spaces.Discrete(NUM_ACTIONS)

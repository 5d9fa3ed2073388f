"""Research adapters: Pitch for PettingZoo, Gymnasium, OpenSpiel (``pip install pitchcards[rl]``).

Nothing here is imported by the core or the bots.  Import the adapter you need::

    from pitchcards.envs.pettingzoo import env          # PettingZoo AEC environment
    from pitchcards.envs.gymnasium import PitchEnv      # Gymnasium, one learning seat
    import pitchcards.envs.openspiel                    # registers "python_pitch" with pyspiel
    from pitchcards.envs.evaluate import evaluate       # a policy's win rate against a bot level

Importing this package registers its arena contestant with :func:`pitchcards.bots.register`:
``openspiel-ismcts`` (:mod:`.ismcts_bot`), where open_spiel is installed.  It imports no
third-party package itself: open_spiel is loaded when the bot is first made.

Every observation is built from one seat's :class:`~pitchcards.views.View` by
:mod:`pitchcards.envs.encoding`; ``docs/research.md`` documents the encodings and rewards.
"""

from __future__ import annotations

import importlib.util

from ..bots import Bot, register


def _openspiel_ismcts(seed: int | None) -> Bot:
    from .ismcts_bot import OpenSpielISMCTSBot  # loads open_spiel and numpy: only when made

    return OpenSpielISMCTSBot(seed)


if importlib.util.find_spec("pyspiel") is not None:
    register("openspiel-ismcts", _openspiel_ismcts)

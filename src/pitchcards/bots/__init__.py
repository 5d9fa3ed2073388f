"""Bots that play Pitch, from random to expert, all built on one seat's view.

``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``, ``expert``, the search
variants, or a level: ``easy``, ``medium``, ``hard``, ``expert``).  ``register(name, factory)``
adds one.  Other packages register their own contestants when they are imported: the research
adapters add ``openspiel-ismcts`` on ``import pitchcards.envs`` (where open_spiel is installed).
The bots package never imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .expert import ExpertBot, HardBot
from .heuristic import EasyBot, HeuristicBot
from .ismcts import ISMCTSBot, ISMCTSBudget
from .oracle import OracleBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "EasyBot", "HeuristicBot", "RandomBot", "make_bot", "register"]


def _ismcts_pure(seed: int | None) -> Bot:
    """ISMCTS for the bids too (``expert-ismcts`` keeps PIMC bidding)."""
    return ISMCTSBot(seed, ISMCTSBudget(pimc_bidding=False))


#: name -> factory(seed) -> Bot
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    # Levels: easy = the heuristic with a third of its actions random; medium = the heuristic.
    "easy": EasyBot,
    "medium": HeuristicBot,
    "expert": ExpertBot,
    "hard": HardBot,
    "oracle": OracleBot,
    # ISMCTS card play on PIMC bids; -pure: ISMCTS bids too.
    "expert-ismcts": ISMCTSBot,
    "expert-ismcts-pure": _ismcts_pure,
}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    """Add a bot (or a level) under a name; ``make_bot(name, seed)`` calls ``factory(seed)``."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name; ``ValueError`` listing the names if unknown."""
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(sorted(BOTS))} "
                         "(import pitchcards.envs to add openspiel-ismcts)")
    return BOTS[key](seed)

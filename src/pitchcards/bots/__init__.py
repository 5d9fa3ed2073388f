"""Bots that play Pitch, from random to expert, all built on one seat's view.

``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``, ``expert``, or a level:
``easy``, ``medium``, ``hard``, ``expert``).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .heuristic import EasyBot, HeuristicBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "EasyBot", "HeuristicBot", "RandomBot", "make_bot", "register"]

#: name -> factory(seed) -> Bot
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    # Levels: easy = the heuristic with a third of its actions random; medium = the heuristic.
    "easy": EasyBot,
    "medium": HeuristicBot,
}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    """Add a bot (or a level) under a name."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name; ``ValueError`` listing the names if unknown."""
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(sorted(BOTS))}")
    return BOTS[key](seed)


def _register_search_bots() -> None:
    from .expert import ExpertBot, HardBot
    from .oracle import OracleBot

    register("expert", ExpertBot)
    register("hard", HardBot)
    register("oracle", OracleBot)


_register_search_bots()


def _register_openspiel_bots() -> None:
    """``openspiel-ismcts`` (OpenSpiel's ISMCTS on Pitch), only where ``open_spiel`` is installed
    (``pip install pitchcards[rl]``); pyspiel itself is imported when the bot is first made."""
    import importlib.util

    if importlib.util.find_spec("pyspiel") is None:
        return

    def openspiel_ismcts(seed: int | None) -> Bot:
        from ..envs.ismcts_bot import OpenSpielISMCTSBot

        return OpenSpielISMCTSBot(seed)

    register("openspiel-ismcts", openspiel_ismcts)


_register_openspiel_bots()


def _register_ismcts() -> None:
    """``expert-ismcts``: ISMCTS card play, PIMC bids; ``expert-ismcts-pure``: ISMCTS bids too."""
    from .ismcts import ISMCTSBot, ISMCTSBudget

    def pure(seed: int | None) -> Bot:
        return ISMCTSBot(seed, ISMCTSBudget(pimc_bidding=False))

    register("expert-ismcts", ISMCTSBot)
    register("expert-ismcts-pure", pure)


_register_ismcts()

"""Bots that play Pitch, from random to expert, all built on one seat's view.

``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``, ``expert``, the search
variants, or a level: ``easy``, ``medium``, ``hard``, ``expert``).  ``register(name, factory)``
adds one.

Other packages register their own contestants when they are imported: the research adapters
add ``openspiel-ismcts`` on ``import pitchcards.envs`` (where open_spiel is installed).  The
registry knows those *plugin* packages by name only and imports them the first time it is asked
for a name it lacks or for the whole list, so ``make_bot("openspiel-ismcts")`` and ``pitch
arena --bots expert,openspiel-ismcts`` work as before while ``import pitchcards.bots`` loads no
research code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping

from ..errors import OptionError, shown
from .base import Bot
from .expert import ExpertBot, HardBot
from .heuristic import EasyBot, HeuristicBot
from .ismcts import ISMCTSBot, ISMCTSBudget
from .oracle import OracleBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "BotRegistry", "EasyBot", "HeuristicBot", "RandomBot", "make_bot",
           "register"]

Factory = Callable[[int | None], Bot]


class BotRegistry(MutableMapping[str, Factory]):
    """Bot name -> ``factory(seed) -> Bot``; the ``plugins`` (package names) register more bots
    when imported, which happens once, on the first lookup of a missing name or listing."""

    def __init__(self, bots: Mapping[str, Factory], plugins: Iterable[str] = ()) -> None:
        self._bots = dict(bots)
        self._plugins = list(plugins)

    def _load_plugins(self) -> None:
        while self._plugins:
            importlib.import_module(self._plugins.pop(0))  # registers its bots here

    def __getitem__(self, name: str) -> Factory:
        if name not in self._bots:
            self._load_plugins()
        return self._bots[name]

    def __setitem__(self, name: str, factory: Factory) -> None:
        self._bots[name] = factory

    def __delitem__(self, name: str) -> None:
        del self._bots[name]

    def __iter__(self) -> Iterator[str]:
        self._load_plugins()
        return iter(self._bots)

    def __len__(self) -> int:
        self._load_plugins()
        return len(self._bots)


def _ismcts_pure(seed: int | None) -> Bot:
    """ISMCTS for the bids too (``expert-ismcts`` keeps PIMC bidding)."""
    return ISMCTSBot(seed, ISMCTSBudget(pimc_bidding=False))


#: Every bot by name; ``pitchcards.envs`` (the research adapters) adds its own when needed.
BOTS = BotRegistry({
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
}, plugins=["pitchcards.envs"])


def register(name: str, factory: Factory) -> None:
    """Add a bot (or a level) under a name; ``make_bot(name, seed)`` calls ``factory(seed)``."""
    BOTS[name] = factory


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name; :class:`~pitchcards.OptionError` listing the names if ``name`` is not
    one, or if ``seed`` is not an int or None."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key is None or key not in BOTS:
        what = "unknown bot" if key is not None else "a bot is named by text, not"
        raise OptionError(f"{what} {shown(name)}; bots are: {', '.join(sorted(BOTS))}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or seed.bit_length() > 256):
        raise OptionError(f"a bot's seed must be an int of at most 256 bits, or None, not "
                          f"{shown(seed)}")
    return BOTS[key](seed)

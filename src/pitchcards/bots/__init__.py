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

import dataclasses
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping

from ..errors import OptionError, shown
from .base import Bot
from .expert import ExpertBot, ExpertV1Bot, HardBot
from .heuristic import EasyBot, HeuristicBot
from .ismcts import ISMCTSBot, ISMCTSBudget
from .oracle import OracleBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "BotRegistry", "EasyBot", "HeuristicBot", "RandomBot", "bot_names",
           "make_bot", "register"]

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
    # The expert as it was before issue 14 (the yardstick for its improvements).
    "expert-v1": ExpertV1Bot,
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
    one, or if ``seed`` is not an int or None.

    A search bot's name may carry budget changes in brackets, for experiments and benchmarks:
    ``expert[bid_worlds=96,win_table=true]`` is the expert with those
    :class:`~pitchcards.bots.expert.Budget` fields changed (so ``pitch arena`` can pit two
    budgets against each other by name)."""
    key = name.strip().lower() if isinstance(name, str) else None
    changes: dict[str, object] = {}
    if key is not None and key.endswith("]") and "[" in key:
        key, _, spec = key[:-1].partition("[")
        key = key.strip()
        if key in BOTS:
            changes = _budget_changes(name, key, spec)
    if key is None or key not in BOTS:
        what = "unknown bot" if key is not None else "a bot is named by text, not"
        raise OptionError(f"{what} {shown(name)}; bots are: {', '.join(sorted(BOTS))}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or seed.bit_length() > 256):
        raise OptionError(f"a bot's seed must be an int of at most 256 bits, or None, not "
                          f"{shown(seed)}")
    bot = BOTS[key](seed)
    if changes:
        assert isinstance(bot, ExpertBot)
        bot.budget = dataclasses.replace(bot.budget, **changes)  # type: ignore[arg-type]
    return bot


def bot_names(text: str) -> list[str]:
    """A comma-separated list of bot names, as ``--bots`` takes it: ``"expert[bid_worlds=96,
    soft=false],expert-v1"`` is two names (commas inside brackets belong to the name)."""
    names, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth == 0:
            names.append(text[start:i])
            start = i + 1
    names.append(text[start:])
    return [name.strip() for name in names if name.strip()]


def _budget_changes(name: str, key: str, spec: str) -> dict[str, object]:
    """``"worlds=48,soft=false"`` -> the Budget fields it changes, checked and typed."""
    probe = BOTS[key](0)
    if not isinstance(probe, ExpertBot):
        raise OptionError(f"{shown(name)}: only the search bots (expert, hard, expert-v1) take "
                          f"budget changes in brackets")
    fields = {f.name: type(getattr(probe.budget, f.name))
              for f in dataclasses.fields(probe.budget)}
    changes: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        field, eq, text = (part.strip() for part in item.partition("="))
        kind = fields.get(field)
        if kind is None or not eq:
            raise OptionError(f"{shown(name)}: {shown(item)} is not field=value with a budget "
                              f"field of {', '.join(fields)}")
        try:
            if kind is bool:
                if text not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(text)
                value: object = text in ("true", "1", "yes")
            else:
                value = kind(text)
        except ValueError:
            article = "an" if kind.__name__[0] in "aeiou" else "a"
            raise OptionError(f"{shown(name)}: {field} takes {article} {kind.__name__}, not "
                              f"{shown(text)}") from None
        changes[field] = value
    return changes

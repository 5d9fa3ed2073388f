"""The bot protocol: a bot sees one seat's :class:`~pitchcards.views.View` and returns an action.

A bot never receives the :class:`~pitchcards.hand.Hand`, only the view built for its seat, so it
cannot read hidden cards.  The one exception is an explicitly *cheating* bot (``oracle``), used
only to measure headroom, which declares ``sees_all = True``; the arena then hands it the full
hand through :meth:`Bot.choose_open`.

Randomness is injected: every bot owns a ``random.Random`` made from the seed it was built with.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action
from ..views import View

if TYPE_CHECKING:
    from ..hand import Hand

__all__ = ["Bot"]


class Bot:
    """Base class of all bots.  Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    #: True only for bots that cheat on purpose (they are handed the whole hand).
    sees_all: ClassVar[bool] = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        """The action to take; ``view.legal_actions`` is non-empty when this is called."""
        raise NotImplementedError

    def choose_open(self, hand: Hand) -> Action:
        """Only for ``sees_all`` bots: choose seeing every card."""
        raise NotImplementedError(f"{self.name} does not see hidden cards")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"

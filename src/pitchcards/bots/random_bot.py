"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

from ..actions import Action
from ..views import View
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def choose(self, view: View) -> Action:
        actions = view.legal_actions
        return actions[int(self.rng.random() * len(actions))]

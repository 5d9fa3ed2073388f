"""``pitch play``: a full-screen terminal game of Pitch against bots (Textual).

Small modules with one job each:

* :mod:`.config`     what game to play (variant, options, seats, bots) and where saves go;
* :mod:`.controller` the game itself, UI-free: owns the Match / MoneySession and the bots;
* :mod:`.text`       plain text for the screen: cards, rules summary, result, hand log;
* :mod:`.widgets`    cards, table, auction and score-sheet widgets;
* :mod:`.screens`    the setup, result, rules/log and save-on-quit screens;
* :mod:`.app`        the Textual app that ties them together.

Only :mod:`.app`, :mod:`.widgets` and :mod:`.screens` import Textual.
"""

from __future__ import annotations

from .config import GameConfig, data_dir
from .controller import GameController

__all__ = ["GameConfig", "GameController", "data_dir"]

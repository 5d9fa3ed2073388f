"""``pitch play``: a full-screen terminal game of Pitch against bots (Textual).

Small modules with one job each:

* :mod:`.config`     what game to play (variant, options, seats, bots) and where files go;
* :mod:`.controller` the game itself, UI-free: a Table with the session and the bots;
* :mod:`.game`       what the screen reads of a game (the seam between the two below);
* :mod:`.remote`     your seat at a ``pitch serve`` table, UI-free (``--join``, ``--host``);
* :mod:`.words`      sentences about players, with the grammar for "you" and for others;
* :mod:`.seats`      the seats laid around the table, on a text canvas;
* :mod:`.text`       plain text for the screen: cards, table, rules summary, result, hand log;
* :mod:`.history`    the hand-by-hand score sheet and the statistics page;
* :mod:`.pace`       how long a finished trick stays (remembered in the config folder);
* :mod:`.stats`      your statistics across matches (in the data folder);
* :mod:`.jsonfile`   the small JSON files behind those two, never fatal when damaged;
* :mod:`.widgets`    cards, bid bar and panel widgets;
* :mod:`.screens`    the setup, result, rules/log and save-on-quit screens;
* :mod:`.choices`    what your keys and clicks choose, and what Enter does (UI-free);
* :mod:`.status`     the words of the top bar, the prompt, the hint and the news lines;
* :mod:`.source`     the seam between the screen and who moves the game (a game source);
* :mod:`.local`      the local game source: the driver that deals, runs the bots, undoes, saves;
* :mod:`.online`     the other source, a server table: the server's events, your actions sent;
* :mod:`.app`        the table screen (its look in ``table.tcss``), composed with one source;
* :mod:`.snapshot`   the screen as text and a scripted player (snapshot tests, screenshot);
* :mod:`.score_sheet` ``pitch score``'s sheet as text, and its save files;
* :mod:`.score_app`   ``pitch score``: the scorekeeper for a real table (its hand form is
  :mod:`pitchcards.score_form`, which the server's scorekeeper asks too).

Only :mod:`.app`, :mod:`.local` and :mod:`.online` (for their dialogs), :mod:`.widgets`,
:mod:`.screens`, :mod:`.snapshot` and :mod:`.score_app` import Textual.
"""

from __future__ import annotations

from .config import GameConfig, data_dir
from .controller import GameController

__all__ = ["GameConfig", "GameController", "data_dir"]

"""The seam between the table screen and whoever moves the game: a *game source*.

One screen (:class:`~.app.PitchApp`) shows a game; a source moves it.  There are two:
:class:`~.local.LocalSource` (a local :class:`~.controller.GameController`: it deals, runs the
bots in worker threads, undoes, saves) and :class:`~.online.OnlineSource` (a seat at a
``pitch serve`` table: it listens to the server and sends your actions).  The app is composed
of the screen and one source; neither subclasses the other.

The screen calls a source through :class:`GameSource`: "move the game on", "do the action you
chose", "Enter after a finished trick", "the result panel closed", and the keys whose meaning
differs (undo, new game, quit, start).  A source works the screen through :class:`TableScreen`:
the screen's state (what is chosen, busy, waiting, the message) and a few small calls — say,
redraw, learn the events, open a dialog, run work off the event loop — so that no source needs
to know how the screen is laid out, and the screen never asks which source it has.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text

from ..actions import Action
from ..events import ActionTaken, HandScored
from .choices import Choices
from .config import GameConfig
from .game import TableGame

if TYPE_CHECKING:
    from textual.screen import Screen

    from .history import HandRow

__all__ = ["Delays", "GameSource", "TableScreen"]


@dataclass
class Delays:
    """Pauses that make the game readable (tests set them to 0)."""

    bot: float = 0.45            #: a bot's move takes at least this long
    #: a finished trick stays on the table this long; None: as the pace setting says
    #: (:mod:`.pace`; the ``wait`` pace always waits for a key)
    trick: float | None = None


class TableScreen(Protocol):
    """What a game source may read and do of the screen it drives."""

    config: GameConfig
    delays: Delays
    choices: Choices
    message: Text | str
    busy: bool                  #: a bot is thinking, a pause is running, an action is sent
    waiting: bool               #: the "wait" pace: a finished trick waits for Enter
    result_open: bool           #: a result panel is open
    stalled: str | None         #: why the bot to act could not move
    save_error: str | None      #: why the last save failed (exit code 1)
    too_small: bool
    token: int                  #: bumps on every change, so stale answers are dropped
    news: list[tuple[int, str]]  #: (hand number, what it says): joins, leaves, chat
    rows: list[HandRow]         #: the score sheet's rows, a hand each

    def bell(self) -> None:
        """Ring the terminal's bell (a clock's last seconds)."""

    def say(self, message: Text | str) -> None: ...

    def refresh_screen(self) -> None: ...

    def take_events(self) -> None:
        """Learn what happened from the game's events since the last look."""

    def new_game(self) -> None:
        """Forget what the screen learnt of the last game (a new game starts)."""

    def log_text(self) -> Text | None:
        """The hand log of the hand on the table (None before the first deal)."""

    def trick_pause(self) -> float | None:
        """Seconds a finished trick stays; None: until Enter (the wait pace)."""

    def screen_stack_busy(self) -> bool: ...

    def push(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        """Open a dialog; ``then`` gets what it answers."""

    def in_thread(self, work: Callable[[], None], group: str) -> None:
        """Run ``work`` in a worker thread (it reports back with :meth:`from_thread`)."""

    def in_task(self, work: Coroutine[Any, Any, None], group: str) -> None:
        """Run ``work`` as a task of the app's event loop."""

    def from_thread(self, call: Callable[..., None], *args: Any) -> None:
        """From a worker thread: ``call(*args)`` on the event loop (not if the app closed)."""

    def later(self, call: Callable[[], None]) -> None: ...

    def after(self, seconds: float, call: Callable[[], None]) -> None: ...

    def leave(self, message: str | None = None, return_code: int = 0) -> None:
        """End the app."""


class GameSource(Protocol):
    """Who moves the game behind the screen."""

    @property
    def game(self) -> TableGame:
        """The game the screen shows."""

    @property
    def keys(self) -> str:
        """The keys line."""

    @property
    def top_keys(self) -> str:
        """The keys for the whole game, at the end of the top bar."""

    def attach(self, screen: TableScreen) -> None:
        """The screen is mounted (:meth:`advance` comes next): start listening, if the source
        listens to anything."""

    async def close(self) -> None:
        """The app is closing."""

    def advance(self) -> None:
        """Move the game on: deal, let a bot act, show a result, or wait for you."""

    def act(self, action: Action) -> None:
        """Do the action you chose (Enter)."""

    def go_on(self) -> None:
        """Enter while a finished trick waits (the wait pace)."""

    def told(self, event: ActionTaken) -> bool:
        """Whether this bid or pitch is said on the message line."""

    def hand_scored(self, event: HandScored) -> None:
        """A hand was scored (after the screen noted it)."""

    def undo(self) -> None: ...

    def setup(self) -> None:
        """n: a new game."""

    def request_quit(self) -> None: ...

    def start_table(self) -> None:
        """s: the host starts a server table."""

    def top_line(self) -> Text | None:
        """The top bar when the source has its own (online: the invite before the deal)."""

    def before_the_deal(self) -> tuple[Text, Text] | None:
        """The table panel and prompt before the first deal, when the source has its own."""

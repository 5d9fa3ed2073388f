"""``pitch play --join`` / ``--host``: the same table screen, at a ``pitch serve`` table.

:class:`OnlineApp` is :class:`~.app.PitchApp` with another game loop.  The screen, the keys
that choose a bid or a card, the hint, the log and score pages are the app's own; what differs
is who moves the game.  Locally the app deals and runs the bots; here the server does, and the
app listens: a Textual worker (an asyncio task in the app's own event loop) holds the
:class:`~.remote.RemoteGame`'s socket, and every message from the server redraws the screen
from your seat's view.  Your action goes to the server (Enter, as locally); a refusal is said
on the message line with the server's reason; a dropped connection reconnects by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import websockets
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from ..actions import Action
from ..client import ServerError
from ..errors import IllegalActionError
from ..events import ActionTaken, HandScored
from ..explain import ILLEGAL_TEXT, illegal_text
from ..views import View
from .app import Delays, PitchApp
from .game import win_sentence
from .pace import check_pace, save_pace
from .remote import RemoteGame
from .screens import ResultScreen, TextScreen
from .stats import StatsFile
from .text import result_text
from .widgets import Panel
from .words import HUMAN, sentence

__all__ = ["OnlineApp", "refusal_text", "run_online"]

#: The keys line at a server table (no undo, no new game; s starts the table for the host).
KEYS_ONLINE = "h hint  t last trick  g score sheet  i stats  l log  q leave"
#: Reasons a reconnect cannot cure: the table or the seat is gone.
_FATAL = ("bad_token", "not_found", "protocol")
#: What goes wrong on the wire (the socket, the network, a server restarting).
_NETWORK = (OSError, TimeoutError, websockets.WebSocketException)


def refusal_text(error: ServerError, view: View | None) -> str:
    """A refused action in words: the engine's sentence for a rule's reason (as in the local
    game), else the server's own, with the reason code."""
    if error.reason in ILLEGAL_TEXT:
        words = illegal_text(IllegalActionError(error.message, reason=error.reason), view)
    else:
        words = error.message
    return f"Refused ({error.reason}): {words}"


class OnlineApp(PitchApp):
    """``pitch play`` at a server table: your seat, the server's events, your actions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *PitchApp.BINDINGS, Binding("s", "start_table", "Start", show=False)]
    TOP_KEYS = " · online   ? rules"

    def __init__(self, game: RemoteGame, delays: Delays | None = None,
                 pace: str | None = None, stats: StatsFile | None = None,
                 retry: float = 1.0) -> None:
        super().__init__(game.config, game, delays=delays, pace=pace, stats=stats)
        self.game = game
        self.retry = retry                  #: seconds before the first reconnect attempt
        self.scored: list[HandScored] = []  #: hands whose result panel is still to show
        self.chats = 0                      #: chat lines already said
        self.seat_states: dict[int, str] = {}
        self.leaving = False                #: q was pressed once mid-game
        self.connection = "connecting"      #: connecting, connected, lost, gone
        self.holding = False                #: a finished trick stays on the table a while
        self.saved: Path | None = None      #: the finished match's record, downloaded
        #: the open panel of the last hand scored while no winner was known: match_won may come
        #: in a later frame than that hand's hand_scored, and then the panel is the match's end
        self._open_result: ResultScreen | None = None

    # ------------------------------------------------------------------ the connection
    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self._listen(), group="net", exit_on_error=False)

    async def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            await self.game.close()

    async def _listen(self) -> None:
        """Connect, then redraw on every message from the server; reconnect when dropped."""
        game = self.game
        try:
            await game.open()
        except (*_NETWORK, ServerError) as exc:
            self.connection = "gone"
            self.say(Text(f"Cannot connect to the table at {game.seat.server}: {exc}. "
                          "q quits.", style="bold red"))
            return
        self.connection = "connected"
        self._changed()
        conn = game.conn
        assert conn is not None
        while True:
            await conn.wait_for(self._news_from(len(conn.frames)), None)
            self._changed()
            if conn.closed and (game.over or not await self._reconnect()):
                return

    def _news_from(self, frames: int) -> Callable[[], bool]:
        """A message after the first ``frames``, or the socket closed."""
        conn = self.game.conn
        assert conn is not None
        return lambda: len(conn.frames) > frames or conn.closed

    async def _reconnect(self) -> bool:
        """Reconnect (the server sends what was missed); say so.  False: it cannot be."""
        game = self.game
        conn = game.conn
        assert conn is not None
        self.connection = "lost"
        delay, tries = self.retry, 0
        while True:
            tries += 1
            self.say(Text(f"Connection lost (code {conn.closed_code}): reconnecting"
                          f"{f' (try {tries})' if tries > 1 else ''}…", style="bold yellow"))
            await asyncio.sleep(delay)
            try:
                await game.resume()
            except ServerError as exc:
                if exc.reason in _FATAL:
                    self.connection = "gone"
                    self.say(Text(f"Cannot rejoin the table: {exc.message}. q quits.",
                                  style="bold red"))
                    return False
            except _NETWORK:
                pass
            else:
                self.connection = "connected"
                self.say(Text("Reconnected: the table goes on from where you were.",
                              style="green"))
                return True
            delay = min(2 * delay, 10.0)

    def _changed(self) -> None:
        """The server said something: learn it and redraw."""
        self.game.learn()
        self._table_news()
        self.advance()

    # ------------------------------------------------------------------ news
    def _told(self, event: ActionTaken) -> bool:
        """Everyone's bids but yours, and yours when a stand-in bot made it."""
        return event.seat != self.ctl.human_seat or event.by_bot

    def _hand_scored(self, event: HandScored) -> None:
        super()._hand_scored(event)
        self.scored.append(event)

    def _table_news(self) -> None:
        """Chat, and seats that change hands (sat down, away, back), on the message line and
        in the log."""
        game = self.game
        number = max(game.hand_number, 1)
        for line in game.chat[self.chats:]:
            text = f"{line.get('name')} says: {line.get('text')}"
            self.news.append((number, text))
            self.message = Text(text, style="cyan")
        self.chats = len(game.chat)
        for seat in game.seats():
            where = int(seat["seat"])
            state = game.seat_kind(where)
            before = self.seat_states.get(where)
            self.seat_states[where] = state
            if before is None or before == state or where == game.human_seat:
                continue
            name = str(seat.get("name") or f"Seat {where}")
            if state == "away":
                text = sentence(name, "be", "away: a bot plays for them until they are back")
            elif before == "away":
                text = sentence(name, "be", "back")
            elif before == "open":
                text = f"{name} sat down at seat {where}"
            else:
                continue
            self.news.append((number, text + "."))
            self.message = text + "."

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """The server moves the game: show what it sent (a finished trick stays on the table
        as the pace says), a finished hand's result, your turn, or what others are doing."""
        if not self.holding:
            pause = self.trick_pause()
            if self.game.catch_up(stop_after_trick=pause != 0):
                self.holding = self.busy = True
                if pause is None:
                    self.waiting = True
                else:
                    self.set_timer(pause, self._release)
            self._take_events()
            self._token += 1
        self._title_the_win()
        if self.result_open or self.screen_stack_busy():
            return
        if self.scored and not self.too_small:
            self.show_result()
            return
        if self.game.human_to_act:
            self._choose_a_legal_card(self.game.view())
        self.refresh_screen()

    def refresh_screen(self) -> None:
        self.query_one("#keys", Static).update(Text(self._keys(), style="bold"))
        if self.too_small:
            return
        super().refresh_screen()
        if not self.game.dealt:
            self.query_one("#table", Panel).update(self.waiting_text())
            self.query_one("#prompt", Static).update(self._waiting_prompt())

    def top_line(self) -> Text:
        """Before the deal the top bar is the invite, on one line to copy."""
        if self.game.dealt or not self.game.invite_url:
            return super().top_line()
        return Text.assemble(("Invite: ", "bold"), (self.game.invite_url, "bold cyan"))

    def _keys(self) -> str:
        if self.game.status == "waiting" and self.game.is_host:
            return "s start  " + KEYS_ONLINE
        return KEYS_ONLINE

    def waiting_text(self) -> Text:
        """Before the first deal: the invite and who has sat down."""
        game = self.game
        out = Text()
        if game.invite_url:
            out.append("Invite friends with the link above: they run\n", style="dim")
            out.append("pitch play --join <link>\n\n", style="dim")
        out.append("Seats\n", style="bold")
        for seat in game.seats():
            where = int(seat["seat"])
            name = HUMAN if where == game.human_seat else (seat.get("name") or "open")
            extra = " (host)" if seat.get("host") else ""
            what = "" if where == game.human_seat else f" · {game.level(where)}"
            out.append(f"  {where}  {name}{extra}{what}\n")
        if not game.seats():
            out.append("  (connecting…)\n", style="dim")
        return out

    def _waiting_prompt(self) -> Text:
        game = self.game
        if self.connection in ("connecting", "gone"):
            return Text("Connecting to the table…" if self.connection == "connecting"
                        else "Not connected.", style="italic")
        if game.status == "waiting":
            if game.is_host:
                return Text.assemble(("s", "bold yellow"),
                                     " starts the match (open seats get bots)")
            return Text("Waiting for the host to start…", style="italic")
        return Text("Waiting for the deal…", style="italic")

    def _release(self) -> None:
        """The finished trick has stayed its time: go on with what the server sent since."""
        self.holding = self.waiting = self.busy = False
        self.advance()

    def action_confirm(self) -> None:
        if self.waiting:  # the wait pace: Enter lets the finished trick go
            self._release()
            return
        super().action_confirm()

    # ------------------------------------------------------------------ your actions
    def act(self, action: Action) -> None:
        """Send your action to the server (Enter, as in the local game)."""
        view = self._my_view()
        if view is None:
            return
        self.busy = True
        self.choice = None
        self.clicked = None
        self.message = ""
        self.refresh_screen()
        self.run_worker(self._send(action, view), group="act", exit_on_error=False)

    async def _send(self, action: Action, view: View) -> None:
        try:
            await self.game.act(action)
        except ServerError as exc:
            self.busy = self.holding
            self.say(Text(refusal_text(exc, view), style="red"))
            return
        except _NETWORK as exc:
            self.busy = self.holding
            self.say(Text(f"Not sent ({type(exc).__name__}): the connection is down; it "
                          "reconnects by itself, then choose again.", style="red"))
            return
        self.busy = self.holding
        self._changed()

    def action_start_table(self) -> None:
        game = self.game
        if self.screen_stack_busy():
            return
        if not game.is_host:
            self.say("Only the host starts the table.")
            return
        if game.status != "waiting":
            self.say("The match has started.")
            return
        self.say("Starting…")
        self.run_worker(self._start(), group="start", exit_on_error=False)

    async def _start(self) -> None:
        try:
            await self.game.start()
        except (*_NETWORK, ServerError) as exc:
            self.say(Text(f"Not started: {exc}", style="red"))
            return
        self.say("Started: the open seats have bots.")

    def action_undo(self) -> None:
        self.say("Undo is not available at a server table: the other players have already "
                 "seen your move.")

    def action_setup(self) -> None:
        self.say("A new game against bots is pitch play without --join or --host; "
                 "this table is on a server.")

    def action_request_quit(self) -> None:
        """q leaves the table (twice mid-game: a bot takes your seat after the grace)."""
        playing = self.game.status == "playing" and not self.game.over
        if not playing or self.leaving or self.connection == "gone":
            self.exit()
            return
        self.leaving = True
        self.say(Text("Press q again to leave the table: after the grace period a bot plays "
                      "your seat.", style="bold yellow"))

    # ------------------------------------------------------------------ results
    def show_result(self) -> None:
        """A finished hand's result, from its HandScored event (the server has already
        dealt the next one, perhaps)."""
        event = self.scored[0]
        body = result_text(self.ctl, event.result)
        body.append("\n")
        winner = self.game.winner()
        if len(self.scored) == 1 and winner is not None:
            title = win_sentence(self.game, winner)
            keys = "Enter back to the table · l log · q leave"
        else:
            title = f"Hand {event.hand + 1}"
            keys = "Enter back to the table · l log · q leave"
        self.result_open = True
        screen = ResultScreen(title, body, keys, {"next", "quit", "log"})
        self._open_result = screen if winner is None and len(self.scored) == 1 else None
        self.push_screen(screen, self._result_closed)
        if winner is not None:
            self._keep_the_record()

    def _title_the_win(self) -> None:
        """The match was won after the open panel's hand was shown (its match_won came in a
        later frame): that panel is the match's end, titled so, and the record is kept."""
        screen, winner = self._open_result, self.game.winner()
        if screen is None or winner is None or not self.result_open or len(self.scored) != 1:
            return
        self._open_result = None
        screen.retitle(win_sentence(self.game, winner))
        self._keep_the_record()

    def _keep_the_record(self) -> None:
        if self.saved is None:
            self.run_worker(self._save_record(), group="record", exit_on_error=False)

    async def _save_record(self) -> None:
        """The match is over: keep its record, as the local game does."""
        try:
            self.saved = await self.game.save_record()
        except (*_NETWORK, ServerError) as exc:
            self.save_error = f"the record was not saved: {exc}"

    def _result_closed(self, choice: str | None) -> None:
        self.result_open = False
        self._open_result = None
        if choice == "log" and self.game.dealt:
            self.push_screen(TextScreen("Hand log", self._log_text(self.game.view())),
                             lambda _: self.show_result())
            return
        if self.scored:
            self.scored.pop(0)
        if choice == "quit":
            self.action_request_quit()
            return
        if self.game.over and not self.scored:
            saved = (f" Record: {self.saved}" if self.saved is not None
                     else f" Not saved: {self.save_error}" if self.save_error else "")
            self.message = Text(f"The match is over. q quits.{saved}", style="bold")
        self.advance()


def run_online(game: RemoteGame, pace: str | None = None, **options: Any) -> int:
    """Run the table screen at a server table until you leave (``pitch play --join``)."""
    if pace is not None:
        save_pace(check_pace(pace))
    app = OnlineApp(game, pace=pace, **options)
    app.run()
    if app.save_error is not None:
        print(f"pitch play: {app.save_error}", file=sys.stderr)
        return 1
    return app.return_code or 0

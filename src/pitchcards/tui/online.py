"""``pitch play --join`` / ``--new-table``: the same table screen, at a ``pitch serve`` table.

:class:`OnlineSource` is the app's other game source (:mod:`.source`; the local one is
:mod:`.local`).  The screen, the keys that choose a bid or a card, the hint, the log and score
pages are the screen's own (:mod:`.app`); what differs is who moves the game.  Locally the
driver deals and runs the bots; here the server does, and the source listens: a Textual worker
(an asyncio task in the app's own event loop) holds the :class:`~.remote.RemoteGame`'s socket,
and every message from the server redraws the screen from your seat's view.  Your action goes
to the server (Enter, as locally); a refusal is said on the message line with the server's
reason; a dropped connection reconnects by itself.
"""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import websockets
from rich.text import Text

from ..actions import Action
from ..client import ServerError
from ..errors import IllegalActionError
from ..events import ActionTaken, HandScored
from ..explain import ILLEGAL_TEXT, illegal_text
from ..views import View
from .app import PitchApp
from .game import TableGame, win_sentence
from .history import earlier_rows
from .pace import check_pace, save_pace
from .remote import RemoteGame
from .screens import ResultScreen, TextScreen
from .source import Delays, TableScreen
from .stats import StatsFile
from .status import clock_top_line, timed_out_said, warns
from .text import result_text
from .words import HUMAN, sentence

__all__ = ["OnlineSource", "online_app", "refusal_text", "run_online", "seat_line"]

#: The keys line at a server table (no undo, no new game; s starts the table for the host).
KEYS_ONLINE = "h hint  t last trick  g score sheet  i stats  l log  q leave"
#: Reasons a reconnect cannot cure: the table or the seat is gone.
_FATAL = ("bad_token", "not_found", "protocol")
#: What goes wrong on the wire (the socket, the network, a server restarting).
_NETWORK = (OSError, TimeoutError, websockets.WebSocketException)


def seat_line(game: RemoteGame, seat: dict[str, Any]) -> str:
    """A seat in the waiting room, numbered from 1 as the browser numbers them (issue 30,
    finding 8): "1  You (host)", "2  Cleo · here", "3  medium bot", "4  open seat"."""
    where = int(seat["seat"])
    kind = game.seat_kind(where)
    host = " (host)" if seat.get("host") else ""
    if kind == "you":
        said = f"{HUMAN}{host}"
    elif kind == "bot":
        level = seat.get("level")
        said = f"{level} bot" if level else "bot"
    elif kind == "open":
        said = "open seat"
    else:
        said = f"{seat.get('name')}{host} · {'here' if kind == 'human' else kind}"
    return f"{where + 1}  {said}"


def refusal_text(error: ServerError, view: View | None) -> str:
    """A refused action in words: the engine's sentence for a rule's reason (as in the local
    game), else the server's own, with the reason code."""
    if error.reason in ILLEGAL_TEXT:
        words = illegal_text(IllegalActionError(error.message, reason=error.reason), view)
    else:
        words = error.message
    return f"Refused ({error.reason}): {words}"


class OnlineSource:
    """The game source of a seat at a server table: the server's events, your actions."""

    top_keys = " · online   ? rules"

    def __init__(self, game: RemoteGame, retry: float = 1.0) -> None:
        self.remote = game
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
        self._screen: TableScreen | None = None
        self.ticking = False                #: the screen redraws while a clock runs
        self.warned = ""                    #: the turn clock already warned about
        self._timeouts_seen = 0             #: the last event seq looked at for timeouts
        #: seconds between redraws while a clock runs (its time left is the server's)
        self.tick = 0.5

    @property
    def game(self) -> TableGame:
        return self.remote

    @property
    def screen(self) -> TableScreen:
        assert self._screen is not None, "the source is attached when the screen is mounted"
        return self._screen

    @property
    def keys(self) -> str:
        if self.remote.status == "waiting" and self.remote.is_host:
            return "s start  " + KEYS_ONLINE
        return KEYS_ONLINE

    # ------------------------------------------------------------------ the connection
    def attach(self, screen: TableScreen) -> None:
        self._screen = screen
        screen.in_task(self._listen(), group="net")

    async def close(self) -> None:
        await self.remote.close()

    async def _listen(self) -> None:
        """Connect, then redraw on every message from the server; reconnect when dropped."""
        game = self.remote
        try:
            await game.open()
        except (*_NETWORK, ServerError) as exc:
            self.connection = "gone"
            self.screen.say(Text(f"Cannot connect to the table at {game.seat.server}: {exc}. "
                                 "q quits.", style="bold red"))
            return
        self.connection = "connected"
        conn = game.conn
        assert conn is not None
        while True:
            seen = len(conn.frames)
            if game.missing_history():  # back by a snapshot: the hands before it
                await self._load_history()
            self._changed()
            if conn.closed and (game.over or not await self._reconnect()):
                return
            await conn.wait_for(self._news_from(seen), None)

    async def _load_history(self) -> None:
        """Back by a snapshot (a rejoin, a long drop): the hands before it come from the
        table's score sheet, so the header, the score sheet and the winner are the table's
        (issue 30, finding 7)."""
        try:
            added = await self.remote.load_history()
        except (*_NETWORK, ServerError) as exc:
            self.screen.say(Text(f"The hands before you came back could not be read ({exc}).",
                                 style="yellow"))
            return
        if added:
            self.remote.catch_up()
            self.screen.rows = earlier_rows(self.remote)
            winner = self.remote.winner()
            if winner is not None and not self.scored:  # the match ended while you were away
                self.screen.message = Text(f"{win_sentence(self.remote, winner)} The match is "
                                           "over. q quits.", style="bold")

    def _news_from(self, frames: int) -> Callable[[], bool]:
        """A message after the first ``frames``, or the socket closed."""
        conn = self.remote.conn
        assert conn is not None
        return lambda: len(conn.frames) > frames or conn.closed

    async def _reconnect(self) -> bool:
        """Reconnect (the server sends what was missed); say so.  False: it cannot be."""
        game, screen = self.remote, self.screen
        conn = game.conn
        assert conn is not None
        self.connection = "lost"
        delay, tries = self.retry, 0
        while True:
            tries += 1
            screen.say(Text(f"Connection lost (code {conn.closed_code}): reconnecting"
                            f"{f' (try {tries})' if tries > 1 else ''}…", style="bold yellow"))
            await asyncio.sleep(delay)
            try:
                await game.resume()
            except ServerError as exc:
                if exc.reason in _FATAL:
                    self.connection = "gone"
                    screen.say(Text(f"Cannot rejoin the table: {exc.message}. q quits.",
                                    style="bold red"))
                    return False
            except _NETWORK:
                pass
            else:
                self.connection = "connected"
                screen.say(Text("Reconnected: the table goes on from where you were.",
                                style="green"))
                return True
            delay = min(2 * delay, 10.0)

    def _changed(self) -> None:
        """The server said something: learn it and redraw."""
        self.remote.learn()
        self._table_news()
        self.advance()
        if not self.ticking:
            self._tick()

    # ------------------------------------------------------------------ the clock
    def _tick(self) -> None:
        """Redraw while a clock runs (issue 30, finding 1), and warn once in your turn's
        last seconds: on the message line and with the terminal's bell."""
        self.ticking = False
        screen = self.screen
        clocks = self.remote.clocks()
        mine = next((c for c in clocks if c.kind == "turn"
                     and c.seat == self.remote.human_seat), None)
        if mine is not None and warns(mine) and mine.left > 0 \
                and self.warned != f"{mine.seq}":
            self.warned = f"{mine.seq}"
            screen.say(Text(f"{math.ceil(mine.left)} seconds left to act: then a bot plays "
                            "for you.", style="bold red"))
            screen.bell()
        elif clocks:
            screen.refresh_screen()
        if any(c.left > 0 for c in clocks):
            self.ticking = True
            screen.after(self.tick, self._tick)

    def _timeouts(self) -> None:
        """Say a stand-in's move on a turn whose time ran out (the server marks it), on the
        message line and in the log."""
        game, screen = self.remote, self.screen
        for event in game.events_since(self._timeouts_seen):
            self._timeouts_seen = event.seq
            if isinstance(event, ActionTaken) and game.timed_out(event):
                said = timed_out_said(game, event)
                screen.news.append((max(game.hand_number, 1), said.plain))
                screen.message = said

    # ------------------------------------------------------------------ news
    def told(self, event: ActionTaken) -> bool:
        """Everyone's bids but yours, and yours when a stand-in bot made it."""
        return event.seat != self.remote.human_seat or event.by_bot

    def hand_scored(self, event: HandScored) -> None:
        self.scored.append(event)

    def _table_news(self) -> None:
        """Chat, and seats that change hands (sat down, away, back), on the message line and
        in the log."""
        game, screen = self.remote, self.screen
        number = max(game.hand_number, 1)
        for line in game.chat[self.chats:]:
            text = f"{line.get('name')} says: {line.get('text')}"
            screen.news.append((number, text))
            screen.message = Text(text, style="cyan")
        self.chats = len(game.chat)
        for seat in game.seats():
            where = int(seat["seat"])
            state = game.seat_kind(where)
            before = self.seat_states.get(where)
            self.seat_states[where] = state
            if before is None or before == state or where == game.human_seat:
                continue
            name = str(seat.get("name") or f"Seat {where + 1}")
            if state == "away":
                text = sentence(name, "be", "away: a bot plays for them until they are back")
            elif before == "away":
                text = sentence(name, "be", "back")
            elif before == "open":
                text = f"{name} sat down at seat {where + 1}"
            else:
                continue
            screen.news.append((number, text + "."))
            screen.message = text + "."

    # ------------------------------------------------------------------ the loop
    def advance(self) -> None:
        """The server moves the game: show what it sent (a finished trick stays on the table
        as the pace says), a finished hand's result, your turn, or what others are doing."""
        screen = self.screen
        if not self.holding:
            pause = screen.trick_pause()
            if self.remote.catch_up(stop_after_trick=pause != 0):
                self.holding = screen.busy = True
                if pause is None:
                    screen.waiting = True
                else:
                    screen.after(pause, self._release)
            screen.take_events()
            self._timeouts()
            screen.token += 1
        self._title_the_win()
        if screen.result_open or screen.screen_stack_busy():
            return
        if self.scored and not screen.too_small:
            self.show_result()
            return
        if self.remote.human_to_act:
            screen.choices.keep_a_legal_card(self.remote.view())
        screen.refresh_screen()

    def top_line(self) -> Text | None:
        """Before the deal the top bar is the invite, on one line to copy; while a clock
        runs, whoever must act and their time left."""
        game = self.remote
        if game.dealt or not game.invite_url:
            clocks = game.clocks() if game.dealt and not game.over else []
            return clock_top_line(game, clocks) if clocks else None
        return Text.assemble(("Invite: ", "bold"), (game.invite_url, "bold cyan"))

    def before_the_deal(self) -> tuple[Text, Text]:
        return self.waiting_text(), self._waiting_prompt()

    def waiting_text(self) -> Text:
        """Before the first deal: the invite and who has sat down."""
        game = self.remote
        out = Text()
        if game.invite_url:
            out.append("Invite friends with the link above: they run\n", style="dim")
            out.append("pitch play --join <link>\n\n", style="dim")
        out.append("Seats\n", style="bold")
        for seat in game.seats():
            out.append(f"  {seat_line(game, seat)}\n")
        if not game.seats():
            out.append("  (connecting…)\n", style="dim")
        return out

    def _waiting_prompt(self) -> Text:
        game = self.remote
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
        self.holding = self.screen.waiting = self.screen.busy = False
        self.advance()

    def go_on(self) -> None:
        """The wait pace: Enter lets the finished trick go."""
        self._release()

    # ------------------------------------------------------------------ your actions
    def act(self, action: Action) -> None:
        """Send your action to the server (Enter, as in the local game)."""
        screen = self.screen
        view = self.remote.view()
        screen.busy = True
        screen.choices.choice = None
        screen.choices.clicked = None
        screen.message = ""
        screen.refresh_screen()
        screen.in_task(self._send(action, view), group="act")

    async def _send(self, action: Action, view: View) -> None:
        screen = self.screen
        try:
            await self.remote.act(action)
        except ServerError as exc:
            screen.busy = self.holding
            screen.say(Text(refusal_text(exc, view), style="red"))
            return
        except _NETWORK as exc:
            screen.busy = self.holding
            screen.say(Text(f"Not sent ({type(exc).__name__}): the connection is down; it "
                            "reconnects by itself, then choose again.", style="red"))
            return
        screen.busy = self.holding
        self._changed()

    def start_table(self) -> None:
        game, screen = self.remote, self.screen
        if screen.screen_stack_busy():
            return
        if not game.is_host:
            screen.say("Only the host starts the table.")
            return
        if game.status != "waiting":
            screen.say("The match has started.")
            return
        screen.say("Starting…")
        screen.in_task(self._start(), group="start")

    async def _start(self) -> None:
        try:
            await self.remote.start()
        except (*_NETWORK, ServerError) as exc:
            self.screen.say(Text(f"Not started: {exc}", style="red"))
            return
        self.screen.say("Started: the open seats have bots.")

    def undo(self) -> None:
        self.screen.say("Undo is not available at a server table: the other players have "
                        "already seen your move.")

    def setup(self) -> None:
        self.screen.say("A new game against bots is pitch play without --join or --new-table; "
                        "this table is on a server.")

    def request_quit(self) -> None:
        """q leaves the table (twice mid-game: a bot takes your seat after the grace)."""
        playing = self.remote.status == "playing" and not self.remote.over
        if not playing or self.leaving or self.connection == "gone":
            self.screen.leave()
            return
        self.leaving = True
        self.screen.say(Text("Press q again to leave the table: after the grace period a bot "
                             "plays your seat.", style="bold yellow"))

    # ------------------------------------------------------------------ results
    def show_result(self) -> None:
        """A finished hand's result, from its HandScored event (the server has already
        dealt the next one, perhaps)."""
        event = self.scored[0]
        body = result_text(self.remote, event.result)
        body.append("\n")
        winner = self.remote.winner()
        if len(self.scored) == 1 and winner is not None:
            title = win_sentence(self.remote, winner)
        else:
            title = f"Hand {event.hand + 1}"
        keys = "Enter back to the table · l log · q leave"
        self.screen.result_open = True
        screen = ResultScreen(title, body, keys, {"next", "quit", "log"})
        self._open_result = screen if winner is None and len(self.scored) == 1 else None
        self.screen.push(screen, self._result_closed)
        if winner is not None:
            self._keep_the_record()

    def _title_the_win(self) -> None:
        """The match was won after the open panel's hand was shown (its match_won came in a
        later frame): that panel is the match's end, titled so, and the record is kept."""
        screen, winner = self._open_result, self.remote.winner()
        if screen is None or winner is None or not self.screen.result_open \
                or len(self.scored) != 1:
            return
        self._open_result = None
        screen.retitle(win_sentence(self.remote, winner))
        self._keep_the_record()

    def _keep_the_record(self) -> None:
        if self.saved is None:
            self.screen.in_task(self._save_record(), group="record")

    async def _save_record(self) -> None:
        """The match is over: keep its record, as the local game does."""
        try:
            self.saved = await self.remote.save_record()
        except (*_NETWORK, ServerError) as exc:
            self.screen.save_error = f"the record was not saved: {exc}"

    def _result_closed(self, choice: str | None) -> None:
        screen = self.screen
        screen.result_open = False
        self._open_result = None
        log = screen.log_text() if choice == "log" else None
        if log is not None:
            screen.push(TextScreen("Hand log", log), lambda _: self.show_result())
            return
        if self.scored:
            self.scored.pop(0)
        if choice == "quit":
            self.request_quit()
            return
        if self.remote.over and not self.scored:
            saved = (f" Record: {self.saved}" if self.saved is not None
                     else f" Not saved: {screen.save_error}" if screen.save_error else "")
            screen.message = Text(f"The match is over. q quits.{saved}", style="bold")
        self.advance()


def online_app(game: RemoteGame, delays: Delays | None = None, pace: str | None = None,
               stats: StatsFile | None = None, retry: float = 1.0) -> PitchApp:
    """The table screen with a server table's source."""
    return PitchApp(game.config, delays=delays, pace=pace, stats=stats,
                    source=OnlineSource(game, retry=retry))


def run_online(game: RemoteGame, pace: str | None = None, **options: Any) -> int:
    """Run the table screen at a server table until you leave (``pitch play --join``)."""
    if pace is not None:
        save_pace(check_pace(pace))
    app = online_app(game, pace=pace, **options)
    app.run()
    if app.save_error is not None:
        print(f"pitch play: {app.save_error}", file=sys.stderr)
        return 1
    return app.return_code or 0

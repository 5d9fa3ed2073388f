"""The Textual app of ``pitch play``: the table screen, composed with the game source behind it.

Flow: deal → auction → six tricks (each finished trick stays as long as the pace says, or until
Enter) → the result panel → next hand, until the match has a winner (or, in the money game,
until you settle up).  The screen learns what happened — bids and plays, tricks, hands, joins
and leaves, the end — from the game's events (:meth:`PitchApp.take_events`), and draws the
rest from your View.  Keys only *choose* a bid, a pitch or a card (:mod:`.choices`); Enter (or
a second click on the same thing) does it (issue 10).  Who moves the game is the app's
*source* (:mod:`.source`): the local driver (:mod:`.local`) or a server table (:mod:`.online`).
The words of the lines are :mod:`.status`'s; the look is ``table.tcss``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Coroutine
from fractions import Fraction
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

from ..actions import Action
from ..cards import parse_card
from ..errors import PitchError
from ..events import (
    ActionTaken,
    HandDealt,
    HandScored,
    MatchWon,
    PlayerJoined,
    PlayerLeft,
    Settled,
    TrickWon,
)
from ..explain import bid_word, rules_summary
from ..rules import MOON
from ..views import View
from .calling import reveal_line
from .choices import Choices, Said, bid_key, legal_bids, legal_cards, offered, shown_cards
from .config import GameConfig
from .controller import GameController
from .game import TableGame
from .history import HandRow, earlier_rows, history_text, stats_text
from .local import LocalSource
from .pace import PACES, check_pace, load_pace, next_pace, save_pace
from .screens import QuitScreen, TextScreen
from .seats import MIN_HEIGHT, MIN_WIDTH
from .source import Delays, GameSource
from .stats import StatsFile
from .status import action_said, hint_line, info_line, news_line, prompt_line, top_line
from .text import auction_text, hand_log, is_off_jack, score_text, suit_text, table_text, trick_line
from .widgets import BidBar, BidButton, CardView, HandView, Panel
from .words import HUMAN

__all__ = ["KEYS", "Delays", "PitchApp", "run"]

#: The smallest terminal the table fits in (issue 10, item 3: say so plainly when smaller).
MIN_COLS, MIN_ROWS = 80, 24

#: The keys line of the local game (the phase's own keys are on the prompt line).
KEYS = LocalSource.keys


class PitchApp(App[None]):
    """``pitch play``: the table screen and one game source (local by default)."""

    #: the look, in a Textual stylesheet shipped as package data (pyproject.toml)
    CSS_PATH = "table.tcss"
    TITLE = "Pitch"
    # Keys mean one thing on each screen (issue 10, item 1).  In the auction 1-4, p and m
    # *choose* a bid and ←/→ a card to pitch; in play ←/→ and 1-6 choose a card; only Enter
    # (or a second click on the same card or bid) does what cannot be taken back.  The
    # ten-point family (T4, T5, T8): bids 5-9 and 0 for 10; naming trump, 1-4 choose ♣ ♦ ♥ ♠;
    # the discard, ←/→ and 1-9 choose a card to throw face down.  s starts a server table
    # (the host's; locally it does nothing).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("enter,space", "confirm", "Confirm", show=False),
        Binding("escape", "clear", "Clear", show=False),
        *[Binding(str(i % 10), f"digit({i})", str(i % 10), show=False) for i in range(1, 11)],
        Binding("p", "choose_bid('pass')", "Pass", show=False),
        Binding("m", "choose_bid('moon')", "Moon", show=False),
        Binding("h", "hint", "Hint", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("t", "last_trick", "Last trick", show=False),
        Binding("f", "pace", "Pace", show=False),
        Binding("g", "history", "Score sheet", show=False),
        Binding("i", "stats", "Statistics", show=False),
        Binding("l", "log", "Log", show=False),
        Binding("question_mark", "rules", "Rules", show=False),
        Binding("n", "setup", "New game", show=False),
        Binding("s", "start_table", "Start", show=False),
        Binding("q,ctrl+q", "request_quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, config: GameConfig | None = None,
                 controller: GameController | None = None, delays: Delays | None = None,
                 setup_first: bool = False, pace: str | None = None,
                 stats: StatsFile | None = None, source: GameSource | None = None) -> None:
        super().__init__()
        self.config = config or GameConfig()
        #: who moves the game: the local driver (a GameController) or a server table
        self.source: GameSource = source or LocalSource(controller or
                                                        GameController(self.config))
        self.delays = delays or Delays()
        self.setup_first = setup_first
        self.choices = Choices()    #: the card and the bid chosen, the last click
        self.message: Text | str = ""
        self.busy = False           #: a bot is thinking or a pause is running
        self.waiting = False        #: the "wait" pace: a finished trick waits for Enter
        self.result_open = False
        self.token = 0              #: bumps on every change, so stale answers are dropped
        self.stalled: str | None = None     #: why the bot to act could not move
        self.save_error: str | None = None  #: why the last save failed (exit code 1)
        self.settings_note: str | None = None
        self.too_small = False      #: the terminal is smaller than 80×24: only a message shows
        if pace is None:
            pace, self.settings_note = load_pace()
        self.pace = check_pace(pace)
        self.stats = stats
        # What the screen knows of the game, learnt from the game's events (take_events).
        self.seen = 0                                   #: the last event seq taken
        self.news: list[tuple[int, str]] = []           #: (hand number, joins and leaves)
        self.last_trick: tuple[int, list[int], int] | None = None
        #: CP5: whether the screen has said who the secret partner is, this hand
        self.partner_said = False
        self.rows: list[HandRow] = earlier_rows(self.ctl)

    @property
    def ctl(self) -> TableGame:
        """The game behind the screen (the source's: a local controller or a server seat)."""
        return self.source.game

    # the chosen card and bid, as the tests and the screenshots read them
    @property
    def selected(self) -> int | None:
        return self.choices.selected

    @property
    def choice(self) -> Action | None:
        return self.choices.choice

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static("", id="toosmall")
        with Vertical(id="main"):
            yield Static("", id="top")
            with Horizontal(id="middle"):
                yield Panel("", id="table")
                with Vertical(id="side"):
                    yield Panel("", id="scores")
                    yield Panel("", id="auction")
            with Horizontal(id="handrow"):
                yield Static(Text("Your\ncards", style="bold"), id="handlabel")
                yield HandView(id="hand")
            with Horizontal(id="barrow"):
                yield BidBar(id="bidbar")
                yield Static("", id="info")
            yield Static("", id="message")
            yield Static("", id="prompt")
            yield Static(Text(self.source.keys, style="bold"), id="keys")

    def on_mount(self) -> None:
        self.query_one("#table", Panel).border_title = "Table"
        self.query_one("#auction", Panel).border_title = "Auction"
        self.source.attach(self)
        if self.stats is None:
            self.stats = StatsFile()
        # a damaged settings or statistics file never stops the game: it is said once here
        # (on the message line, and kept with the news of the hand in the log)
        problems = [p for p in (self.settings_note, self.stats.problem) if p]
        if problems:
            self.message = Text(" ".join(problems), style="yellow")
            number = self.ctl.hand_number + (0 if self.ctl.in_hand else 1)
            self.news += [(number, problem) for problem in problems]
        self.take_events()
        self._check_size()
        if self.setup_first:
            self.action_setup()
        self.source.advance()
        # the panels' sizes are known after the first layout: fit the auction and the table
        self.call_after_refresh(self._refresh_if_dealt)

    async def on_unmount(self) -> None:
        with contextlib.suppress(Exception):
            await self.source.close()

    def _refresh_if_dealt(self) -> None:
        if self.ctl.dealt:
            self.refresh_screen()

    def _check_size(self, size: Size | None = None) -> None:
        """Show the table, or in a terminal smaller than 80×24 only a plain message."""
        width, height = size or self.size
        small = self.too_small = width < MIN_COLS or height < MIN_ROWS
        self.query_one("#main").display = not small
        note = self.query_one("#toosmall", Static)
        note.display = small
        if small:
            note.update(Text.assemble(
                ("The terminal is too small for the table.\n\n", "bold"),
                f"It is {width}×{height}; pitch play needs at least "
                f"{MIN_COLS}×{MIN_ROWS}.\nMake the window larger to go on, or press q to "
                "quit."))

    # ------------------------------------------------------------------ state to screen
    def view(self) -> View | None:
        return self.ctl.view() if self.ctl.dealt else None

    def cards(self, view: View) -> list[int]:
        """Your cards as shown: trumps together once trump is known (T2, T3)."""
        return shown_cards(view)

    def legal_cards(self, view: View) -> set[int]:
        return legal_cards(view)

    def legal_bids(self, view: View) -> set[str]:
        return legal_bids(view)

    def refresh_screen(self) -> None:
        keys = self.query("#keys")
        if not keys:  # the table is not on screen: the app is closing (a clock's last tick)
            return
        keys.first(Static).update(Text(self.source.keys, style="bold"))
        if self.too_small:
            return
        self._draw()
        early = None if self.ctl.dealt else self.source.before_the_deal()
        if early is not None:
            table, prompt = early
            self.query_one("#table", Panel).update(table)
            self.query_one("#prompt", Static).update(prompt)

    def _draw(self) -> None:
        ctl = self.ctl
        view = self.view()
        rules = ctl.rules
        self.query_one("#top", Static).update(
            self.source.top_line() or top_line(ctl, self.pace, self.source.top_keys))
        scores = self.query_one("#scores", Panel)
        # the money sheet's column heads sit in its border, so eight players leave the auction
        # panel room for its bids (issue 10, item 9)
        scores.border_title = (f"{'Money':<12}{'pts':>3}{'★':>3}" if ctl.money
                               else f"Score to {rules.target}")
        scores.update(score_text(ctl, view))
        if view is None:
            self.query_one("#table", Panel).update("Dealing…")
            self.query_one("#auction", Panel).update("")
            self.query_one(HandView).show([], set(), None)
            self.query_one(BidBar).display = False
            return
        table = self.query_one("#table", Panel)
        width, height = table.content_size
        self.query_one("#table", Panel).update(
            table_text(ctl, view, width or MIN_WIDTH, height or MIN_HEIGHT))
        auction = self.query_one("#auction", Panel)
        hand_number = ctl.hand_number
        news = [text for number, text in self.news if number == hand_number]
        self.query_one("#auction", Panel).update(auction_text(
            ctl, view, lines=auction.content_size.height or None,
            width=auction.content_size.width or 27, news=news))
        cards = self.cards(view)
        choices = self.choices
        choices.fit(len(cards))
        mine = view.is_my_turn and not self.busy
        legal = self.legal_cards(view) if mine else set()
        if view.phase in ("auction", "declare", "call") or (view.phase == "discard" and not mine):
            legal = set(cards)  # nothing to choose yet: show the hand plainly
        notes = {c: "=" + suit_text(view.trump).plain for c in cards if is_off_jack(view, c)}
        self.query_one(HandView).show(cards, legal, choices.selected if mine else None, notes)
        bar = self.query_one(BidBar)
        bar.display = view.phase == "auction" or (view.phase == "declare" and mine)
        chosen = bid_key(choices.choice) if mine and choices.choice is not None else None
        bar.show(self.legal_bids(view) if mine else set(), offered(view), bid_word(rules, MOON),
                 chosen)
        self.query_one("#info", Static).update(info_line(ctl, view))
        self.query_one("#message", Static).update(self.message)
        self.query_one("#prompt", Static).update(
            prompt_line(ctl, view, choices, mine, self.stalled, self.waiting))

    def say(self, message: Text | str) -> None:
        self.message = message
        self.refresh_screen()

    def _said(self, said: Said) -> None:
        """Show what a choice answered (None: the message stays)."""
        if said is not None:
            self.message = said
        self.refresh_screen()

    # ------------------------------------------------------------------ what happened
    def take_events(self) -> None:
        """Learn what happened from the game's events since the last look (issue 10): plays
        and bids, tricks (kept for the last-trick key), hands (the history and the
        statistics), joins and leaves (the news), the match's end."""
        ctl = self.ctl
        for event in ctl.events_since(self.seen):
            self.seen = event.seq
            if isinstance(event, ActionTaken) and self.source.told(event) and \
                    not event.action.startswith("play"):
                self.message = action_said(ctl, event)
            elif isinstance(event, TrickWon):
                self.last_trick = (event.leader, [parse_card(c) for c in event.cards],
                                   event.winner)
            elif isinstance(event, HandDealt):
                self.last_trick = None
                self.partner_said = False
            elif isinstance(event, HandScored):
                self._hand_scored(event)
                self.source.hand_scored(event)
            elif isinstance(event, PlayerJoined | PlayerLeft):
                # kept with the hand it comes before (shown in the auction panel and the log,
                # not just once on the message line)
                text = news_line(ctl, event)
                self.news.append((ctl.hand_number + 1, text))
                self.message = text
            elif isinstance(event, MatchWon):
                self._stats_match(event.winner == ctl.my_side)
            elif isinstance(event, Settled):
                self._stats_match(event.payouts.get(HUMAN, Fraction(0)) > 0)
        self._say_the_reveal()

    def _say_the_reveal(self) -> None:
        """CP5: the moment the called card is played, say who the partner is (once a hand)."""
        ctl = self.ctl
        if self.partner_said or not ctl.in_hand:
            return
        view = ctl.view()
        if view.partner_known and view.phase == "play":
            self.partner_said = True
            self.message = reveal_line(ctl.name, view)

    def _hand_scored(self, event: HandScored) -> None:
        ctl = self.ctl
        money = ctl.session.ledger[HUMAN] if ctl.session is not None else None
        self.rows.append(HandRow(event.hand + 1, event.result, tuple(ctl.seating),
                                 event.scores, money))
        if self.stats is not None:
            self.stats.add_hand(ctl.rules.name, event.result, ctl.human_seat, ctl.my_side)

    def _stats_match(self, won: bool) -> None:
        if self.stats is not None:
            self.stats.add_match(self.ctl.rules.name, won)

    def new_game(self) -> None:
        """Forget what was learnt of the last game: a new one starts."""
        self.config = self.ctl.config
        self.token += 1
        self.busy = self.waiting = False
        self.stalled = None
        self.choices.reset()
        self.message = ""
        self.seen = 0
        self.news = []
        self.last_trick = None
        self.partner_said = False
        self.rows = earlier_rows(self.ctl)

    def trick_pause(self) -> float | None:
        """Seconds a finished trick stays on the table; None: until Enter (the wait pace)."""
        if self.pace == "wait":
            return None
        return self.delays.trick if self.delays.trick is not None else PACES[self.pace]

    # ------------------------------------------------------------------ for the source
    def screen_stack_busy(self) -> bool:
        return len(self.screen_stack) > 1

    def push(self, screen: Screen[Any], then: Callable[[Any], None] | None = None) -> None:
        self.push_screen(screen, then)

    def in_thread(self, work: Callable[[], None], group: str) -> None:
        self.run_worker(work, thread=True, group=group, exit_on_error=False)

    def in_task(self, work: Coroutine[Any, Any, None], group: str) -> None:
        self.run_worker(work, group=group, exit_on_error=False)

    def from_thread(self, call: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(Exception):  # the app may be closing
            self.call_from_thread(call, *args)

    def later(self, call: Callable[[], None]) -> None:
        self.call_later(call)

    def after(self, seconds: float, call: Callable[[], None]) -> None:
        self.set_timer(seconds, call)

    def leave(self, message: str | None = None, return_code: int = 0) -> None:
        self.exit(return_code=return_code, message=message)

    # ------------------------------------------------------------------ your actions
    def _my_view(self) -> View | None:
        if self.busy or self.result_open or self.too_small or not self.ctl.human_to_act:
            return None
        return self.ctl.view()

    def act(self, action: Action) -> None:
        if self._my_view() is not None:
            self.source.act(action)

    def action_move(self, step: int) -> None:
        view = self._my_view()
        if view is not None and self.cards(view):
            self._said(self.choices.move(view, step))

    def action_digit(self, n: int) -> None:
        """In the auction, choose bid ``n``; in play, choose your ``n``th card (never more:
        Enter confirms)."""
        view = self._my_view()
        if view is not None:
            self._said(self.choices.digit(view, n))

    def action_choose_bid(self, key: str) -> None:
        view = self._my_view()
        if view is not None and view.phase in ("auction", "declare"):
            self._said(self.choices.choose_bid(view, key))

    def action_clear(self) -> None:
        if self._my_view() is not None and self.choices.clear():
            self.refresh_screen()

    def action_confirm(self) -> None:
        """Enter: go on after a trick (the wait pace), or do the chosen bid or card."""
        if self.waiting:
            self.source.go_on()
            return
        view = self._my_view()
        if view is None:
            return
        chosen = self.choices.confirm(view)
        if isinstance(chosen, str):
            self.say(chosen)
        else:
            self.act(chosen)

    def on_card_view_clicked(self, event: CardView.Clicked) -> None:
        """A click chooses a card; a second click on the chosen card plays (or pitches) it."""
        if self.waiting:
            self.action_confirm()
            return
        view = self._my_view()
        if view is None or event.index >= len(self.cards(view)):
            return
        if self.choices.second_click_on_card(view, event.index):
            self.action_confirm()
        else:
            self._said(self.choices.click_card(view, event.index))

    def on_bid_button_clicked(self, event: BidButton.Clicked) -> None:
        """A click chooses a bid; a second click on the chosen bid makes it."""
        view = self._my_view()
        if view is None:
            return
        if self.choices.second_click_on_bid(event.key):
            self.action_confirm()
        else:
            self._said(self.choices.click_bid(view, event.key))

    # ------------------------------------------------------------------ help, hint, pages
    def action_hint(self) -> None:
        view = self._my_view()
        if view is None:
            return
        self.say(Text("Thinking about a hint…", style="italic"))
        token = self.token
        self.in_thread(lambda: self._hint_thread(view, token), group="hint")

    def _hint_thread(self, view: View, token: int) -> None:
        try:
            action, reason = self.ctl.hint(view)
        except Exception as exc:  # a hint that cannot be had is said, never left "thinking"
            self.from_thread(self.say, Text(
                f"No hint now: {type(exc).__name__}: {str(exc)[:120]}", style="red"))
            return
        self.from_thread(self._hint_done, token, action, reason)

    def _hint_done(self, token: int, action: Action, reason: str) -> None:
        """Show the hint and choose it (Enter takes it; anything else chooses again)."""
        if token != self.token:
            return
        view = self.ctl.view()
        self.choices.take_hint(view, action)
        self.say(hint_line(view, action, reason))

    def action_undo(self) -> None:
        self.source.undo()

    def action_setup(self) -> None:
        self.source.setup()

    def action_request_quit(self) -> None:
        if not isinstance(self.screen, QuitScreen):
            self.source.request_quit()

    def action_start_table(self) -> None:
        self.source.start_table()

    def action_last_trick(self) -> None:
        """The last finished trick, as the game's events told it."""
        if self.screen_stack_busy():
            return
        if self.last_trick is None:
            self.say("No trick has been finished in this hand yet.")
            return
        leader, cards, winner = self.last_trick
        view = self.view()
        players = view.players if view is not None else len(self.ctl.seating)
        body = trick_line(self.ctl, leader, cards, winner, players)
        self.push_screen(TextScreen("Last trick", body))

    def action_pace(self) -> None:
        """Fast → normal → slow → wait for Enter → fast; remembered in the config folder."""
        self.pace = next_pace(self.pace)
        problem = save_pace(self.pace)
        seconds = PACES[self.pace]
        what = (f"a finished trick stays {seconds:g} s" if seconds is not None
                else "a finished trick stays until you press Enter")
        self.say(f"Pace {self.pace}: {what}." + (f" Not remembered: {problem}" if problem
                                                  else ""))

    def action_history(self) -> None:
        if self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Score sheet, hand by hand",
                                    history_text(self.ctl, self.rows)))

    def action_stats(self) -> None:
        if self.screen_stack_busy() or self.stats is None:
            return
        self.push_screen(TextScreen("Your statistics", stats_text(self.stats)))

    def log_text(self) -> Text | None:
        view = self.view()
        if view is None:
            return None
        return hand_log(self.ctl, view, [f"before hand {n}: {text}" for n, text in self.news])

    def action_rules(self) -> None:
        if self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Rules", rules_summary(self.ctl.rules,
                                                           len(self.ctl.seating))))

    def action_log(self) -> None:
        log = self.log_text()
        if log is None or self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Hand log", log))

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)
        if self.ctl.dealt:
            self.refresh_screen()


def run(config: GameConfig, resume: str | None = None, setup: bool = False,
        pace: str | None = None) -> int:
    """Run the game in this terminal (``pitch play``); ``pace`` overrides the remembered one
    (and is remembered)."""
    controller = GameController.load(resume, config) if resume else None
    if pace is not None:
        save_pace(check_pace(pace))
    app = PitchApp(config, controller, setup_first=setup, pace=pace)
    try:
        app.run()
    except PitchError as exc:
        print(f"pitch: {exc}", file=sys.stderr)
        return 2
    if app.save_error is not None:
        print(f"pitch play: {app.save_error}", file=sys.stderr)
        return 1
    return app.return_code or 0

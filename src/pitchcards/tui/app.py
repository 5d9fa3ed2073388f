"""The Textual app: the table, your cards, the bid bar; bots think in worker threads.

Flow: deal → auction → six tricks (each finished trick stays as long as the pace says, or until
Enter) → the result panel → next hand, until the match has a winner (or, in the money game,
until you settle up).  The screen learns what happened — bids and plays, tricks, hands, joins
and leaves, the end — from the Table's events (:meth:`PitchApp._take_events`), and draws the
rest from your View.  Keys only *choose* a bid, a pitch or a card; Enter (or a second click on
the same thing) does it (issue 10).
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widgets import Static

from ..actions import BID, BIDS, DISCARD, PASS, PITCH, PLAY, TRUMP, Action, parse_action
from ..cards import SUITS, parse_card
from ..errors import IllegalActionError, PitchError
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
from ..explain import bid_word, illegal_text, rules_summary
from ..money import cents_text
from ..rules import MOON
from ..views import View
from .analysis_screen import AnalysisScreen
from .config import GameConfig
from .controller import GameController
from .game import TableGame
from .history import HandRow, earlier_rows, history_text, stats_text
from .pace import PACES, check_pace, load_pace, next_pace, save_pace
from .screens import QuitScreen, ResultScreen, SetupScreen, TextScreen
from .seats import MIN_HEIGHT, MIN_WIDTH
from .stats import StatsFile
from .text import (
    action_text,
    auction_text,
    card_text,
    discard_prompt,
    hand_log,
    is_off_jack,
    result_text,
    score_text,
    sorted_hand,
    suit_text,
    table_text,
    trick_line,
)
from .widgets import BidBar, BidButton, CardView, HandView, Panel
from .words import HUMAN, count, sentence, verb

__all__ = ["Delays", "PitchApp", "run"]


@dataclass
class Delays:
    """Pauses that make the game readable (tests set them to 0)."""

    bot: float = 0.45            #: a bot's move takes at least this long
    #: a finished trick stays on the table this long; None: as the pace setting says
    #: (:mod:`.pace`; the ``wait`` pace always waits for a key)
    trick: float | None = None


#: The smallest terminal the table fits in (issue 10, item 3: say so plainly when smaller).
MIN_COLS, MIN_ROWS = 80, 24


#: The keys line: the same on every main screen (the phase's own keys are on the prompt line).
KEYS = "h hint  u undo  t last trick  f pace  g score sheet  i stats  l log  q quit"


class PitchApp(App[None]):
    """``pitch play``."""

    #: the look, in a Textual stylesheet shipped as package data (pyproject.toml)
    CSS_PATH = "table.tcss"
    TITLE = "Pitch"
    #: the keys for the whole game, at the end of the top bar
    TOP_KEYS = "   ? rules  n new game"
    # Keys mean one thing on each screen (issue 10, item 1).  In the auction 1-4, p and m
    # *choose* a bid and ←/→ a card to pitch; in play ←/→ and 1-6 choose a card; only Enter
    # (or a second click on the same card or bid) does what cannot be taken back.  The
    # ten-point family (T4, T5, T8): bids 5-9 and 0 for 10; naming trump, 1-4 choose ♣ ♦ ♥ ♠;
    # the discard, ←/→ and 1-9 choose a card to throw face down.
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
        Binding("q,ctrl+q", "request_quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, config: GameConfig | None = None,
                 controller: TableGame | None = None, delays: Delays | None = None,
                 setup_first: bool = False, pace: str | None = None,
                 stats: StatsFile | None = None) -> None:
        super().__init__()
        self.config = config or GameConfig()
        #: the game behind the screen: a local GameController, or a seat at a server table
        self.ctl: TableGame = controller or GameController(self.config)
        self.delays = delays or Delays()
        self.setup_first = setup_first
        self.selected: int | None = None    #: the card chosen (index into your cards)
        self.choice: Action | None = None   #: the auction: the bid, pass or pitch chosen
        #: what the last mouse click chose ("card3", "bid-2"): only a second click on the
        #: same thing acts, never one on a card that was chosen for you or by a key
        self.clicked: str | None = None
        self.message: Text | str = ""
        self.busy = False           #: a bot is thinking or a pause is running
        self.waiting = False        #: the "wait" pace: a finished trick waits for Enter
        self.result_open = False
        self._token = 0             #: bumps on every change, so stale bot answers are dropped
        self.bot_moves = 0
        self.last_saved: Path | None = None
        self.acked = 0              #: hands whose result you have seen
        self.stalled: str | None = None     #: why the bot to act could not move
        self.save_error: str | None = None  #: why the last save failed (exit code 1)
        self.settings_note: str | None = None
        self.too_small = False      #: the terminal is smaller than 80×24: only a message shows
        if pace is None:
            pace, self.settings_note = load_pace()
        self.pace = check_pace(pace)
        self.stats = stats
        # What the screen knows of the game, learnt from the Table's events (_take_events).
        self.seen = 0                                   #: the last event seq taken
        self.news: list[tuple[int, str]] = []           #: (hand number, joins and leaves)
        self.last_trick: tuple[int, list[int], int] | None = None
        self.rows: list[HandRow] = earlier_rows(self.ctl)

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
            yield Static(Text(KEYS, style="bold"), id="keys")

    def on_mount(self) -> None:
        self.query_one("#table", Panel).border_title = "Table"
        self.query_one("#auction", Panel).border_title = "Auction"
        if self.stats is None:
            self.stats = StatsFile()
        # a damaged settings or statistics file never stops the game: it is said once here
        # (on the message line, and kept with the news of the hand in the log)
        problems = [p for p in (self.settings_note, self.stats.problem) if p]
        if problems:
            self.message = Text(" ".join(problems), style="yellow")
            number = self.ctl.hand_number + (0 if self.ctl.in_hand else 1)
            self.news += [(number, problem) for problem in problems]
        self._take_events()
        self._check_size()
        if self.setup_first:
            self.action_setup()
        self.advance()
        # the panels' sizes are known after the first layout: fit the auction and the table
        self.call_after_refresh(self._refresh_if_dealt)

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
        return sorted_hand(view)

    def legal_cards(self, view: View) -> set[int]:
        cards: set[int] = set()
        for a in view.legal_actions:
            if a.kind in ("play", "pitch", "discard") and a.card is not None:
                cards.add(a.card)
        return cards

    def legal_bids(self, view: View) -> set[str]:
        return {_bid_key(a) for a in view.legal_actions if a.kind in _BAR_KINDS}

    def refresh_screen(self) -> None:
        if self.too_small:
            return
        ctl = self.ctl
        view = self.view()
        rules = ctl.rules
        self.query_one("#top", Static).update(self.top_line())
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
        if self.selected is not None and self.selected >= len(cards):
            self.selected = len(cards) - 1 if cards else None
        mine = view.is_my_turn and not self.busy
        legal = self.legal_cards(view) if mine else set()
        if view.phase in ("auction", "declare") or (view.phase == "discard" and not mine):
            legal = set(cards)  # nothing to choose yet: show the hand plainly
        notes = {c: "=" + suit_text(view.trump).plain for c in cards if is_off_jack(view, c)}
        self.query_one(HandView).show(cards, legal, self.selected if mine else None, notes)
        bar = self.query_one(BidBar)
        bar.display = view.phase == "auction" or (view.phase == "declare" and mine)
        offered = _offered(view)
        chosen = _bid_key(self.choice) if mine and self.choice is not None else None
        bar.show(self.legal_bids(view) if mine else set(), offered, bid_word(rules, MOON),
                 chosen)
        self.query_one("#info", Static).update(self.info(view))
        self.query_one("#message", Static).update(self.message)
        self.query_one("#prompt", Static).update(self.prompt(view, mine))

    def top_line(self) -> Text:
        """The top bar: the game, the hand, the pace and the keys for the whole game."""
        ctl, rules = self.ctl, self.ctl.rules
        top = Text()
        top.append("Pitch ", style="bold")
        top.append(f"· {rules.name} · ")
        top.append(f"to {rules.target} · " if rules.target else "for money · ")
        top.append(f"hand {ctl.hand_number} · pace {self.pace}")
        if ctl.config.practice:
            top.append(" · practice", style="yellow")
        top.append(self.TOP_KEYS, style="dim")
        return top

    def info(self, view: View) -> Text:
        """Beside the bid bar (in play, where it is hidden): the contract and the trick."""
        out = Text()
        if view.phase in ("declare", "discard") and view.pitcher is not None:
            who = self.ctl.name(view.pitcher)
            out.append(sentence(who, "bid (past)", bid_word(view.rules, view.contract)))
            if view.trump is not None:
                out.append(" in ")
                out.append_text(suit_text(view.trump))
        if view.phase == "play" and view.pitcher is not None:
            who = self.ctl.name(view.pitcher)
            if view.trump is None:  # setback: the pitcher's first lead names trump
                out.append(sentence(who, "bid (past)", bid_word(view.rules, view.contract))
                           + "; trump: the first lead")
            else:
                out.append(sentence(who, "bid (past)",
                                    bid_word(view.rules, view.contract) + " in "))
                out.append_text(suit_text(view.trump))
            out.append(f" · trick {min(len(view.tricks) + 1, 6)} of 6", style="dim")
        return out

    def prompt(self, view: View, mine: bool) -> Text:
        """The prompt line: what the keys do now, in the words of the keys (the legend)."""
        out = Text()
        if self.stalled is not None:  # a bot that cannot move: say so where you look
            out.append(f"{self.stalled}. n new game, q quit (and save)", style="bold red")
        elif self.waiting:
            out.append("Trick over: ", style="bold yellow")
            out.append("press Enter for the next one (pace: wait; f changes it)")
        elif view.phase == "over":
            out.append("Hand over.", style="bold")
        elif not mine:
            seat = view.seat_to_act
            if seat is not None:
                if self.ctl.level(seat) == "offline":  # a person at a server table, gone
                    out.append(f"Waiting for {self.ctl.name(seat)} (offline)…", style="italic")
                else:
                    out.append(sentence(self.ctl.name(seat), "think") + "…", style="italic")
        elif view.phase == "declare":  # T5
            self._declare_prompt(out)
        elif view.phase == "discard":  # T4
            self._discard_prompt(out, view)
        elif view.phase == "auction":
            can_pitch = any(a.kind == "pitch" for a in view.legal_actions)
            if self.choice is not None:
                out.append("Enter: ", style="bold yellow")
                out.append_text(action_text(view.rules, self.choice))
                out.append("  (choose again, or Esc)", style="dim")
            else:
                out.append("Your bid: ", style="bold yellow")
                out.append(_bid_keys(view) + " chooses a bid"
                           + (", ←→ a card to pitch" if can_pitch else "") + "; Enter confirms")
        else:
            cards = self.cards(view)
            if self.selected is not None and self.selected < len(cards):
                out.append("Enter: ", style="bold yellow")
                out.append("play ")
                out.append_text(card_text(cards[self.selected]))
                out.append("  (←→ or 1-6 chooses another)", style="dim")
            else:
                out.append("Your turn: ", style="bold yellow")
                out.append("←→ or 1-6 chooses a card; Enter plays it")
        return out

    def _declare_prompt(self, out: Text) -> None:
        """T5: the pitcher names trump."""
        if self.choice is not None:
            out.append("Enter: ", style="bold yellow")
            out.append_text(action_text(self.ctl.rules, self.choice))
            out.append("  (choose again, or Esc)", style="dim")
        else:
            out.append("Name trump: ", style="bold yellow")
            out.append("1 ♣  2 ♦  3 ♥  4 ♠ chooses a suit (h: a hint); Enter confirms")

    def _discard_prompt(self, out: Text, view: View) -> None:
        """T4: "Discard 3 cards face down (2 left)", and what Enter does."""
        out.append(discard_prompt(view) + ": ", style="bold yellow")
        cards = self.cards(view)
        if self.selected is not None and self.selected < len(cards):
            out.append("Enter discards ")
            out.append_text(card_text(cards[self.selected]))
        else:
            out.append(f"←→ or 1-{min(len(cards), 9)} chooses; Enter discards it")

    def say(self, message: Text | str) -> None:
        self.message = message
        self.refresh_screen()

    # ------------------------------------------------------------------ what happened
    def _take_events(self) -> None:
        """Learn what happened from the Table's events since the last look (issue 10): plays
        and bids, tricks (kept for the last-trick key), hands (the history and the
        statistics), joins and leaves (the news), the match's end."""
        ctl = self.ctl
        for event in ctl.events_since(self.seen):
            self.seen = event.seq
            if isinstance(event, ActionTaken) and self._told(event) and \
                    not event.action.startswith("play"):
                self.message = self._action_said(event)
            elif isinstance(event, TrickWon):
                self.last_trick = (event.leader, [parse_card(c) for c in event.cards],
                                   event.winner)
            elif isinstance(event, HandDealt):
                self.last_trick = None
            elif isinstance(event, HandScored):
                self._hand_scored(event)
            elif isinstance(event, PlayerJoined | PlayerLeft):
                self._news(event)
            elif isinstance(event, MatchWon):
                self._stats_match(event.winner == ctl.my_side)
            elif isinstance(event, Settled):
                self._stats_match(event.payouts.get(HUMAN, Fraction(0)) > 0)

    def _action_said(self, event: ActionTaken) -> Text:
        """"Ann: bid 3"; "Ann names trump ♥" (T5); "Ann discards a card face down" (T4:
        never which, whatever the event says)."""
        who = self.ctl.name(event.seat)
        if event.action.split()[0] == "discard":
            return Text(sentence(who, "discard", "a card face down") + ".", style="italic")
        action = parse_action(event.action)
        if action.kind == "trump" and action.suit is not None:
            return Text.assemble(sentence(who, "name", "trump "), suit_text(SUITS[action.suit]))
        return Text.assemble(f"{who}: ", action_text(self.ctl.rules, action))

    def _told(self, event: ActionTaken) -> bool:
        """Whether a bid or pitch is said on the message line: the bots' (yours you know)."""
        return event.by_bot

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

    def _news(self, event: PlayerJoined | PlayerLeft) -> None:
        """A join or leave, kept with the hand it comes before (shown in the auction panel
        and the log, not just once on the message line)."""
        ctl = self.ctl
        if isinstance(event, PlayerJoined):
            level = ctl.levels.get(event.name)
            who = f"{event.name} ({level})" if level else event.name
            text = sentence(who, "join", "the table, to the right of the dealer")
        else:
            text = sentence(event.name, "leave", "and " + verb(event.name, "be") +
                            f" paid {cents_text(event.cents)}")  # the engine's cents
        self.news.append((ctl.hand_number + 1, text + "."))
        self.message = text + "."

    # ------------------------------------------------------------------ the game loop
    def advance(self) -> None:
        """Move the game on: deal, let a bot act, or wait for you / the result panel."""
        if self.busy or self.result_open or self.screen_stack_busy():
            return
        ctl = self.local
        if ctl.dealt and not ctl.in_hand and self.acked < ctl.hand_number:
            self.show_result()
            return
        if ctl.over:
            return
        if not ctl.in_hand:
            ctl.deal()
            self.choice = None
            self._take_events()
        self._token += 1
        seat = ctl.to_act
        if seat is None:
            return
        if seat == ctl.human_seat:
            self._choose_a_legal_card(ctl.view())
            self.refresh_screen()
            return
        self.busy = True
        self.stalled = None
        self.refresh_screen()
        token = self._token
        view = ctl.bot_view(seat)
        self.run_worker(lambda: self._bot_thread(seat, view, token), thread=True,
                        group="bot", exit_on_error=False)

    def _choose_a_legal_card(self, view: View) -> None:
        """Your turn in play: keep the card chosen if it may be played, else choose the first
        one that may."""
        legal = self.legal_cards(view)
        cards = self.cards(view)
        if view.phase == "play" and (self.selected is None or self.selected >= len(cards)
                                     or cards[self.selected] not in legal):
            self.selected = next((i for i, c in enumerate(cards) if c in legal), None)

    @property
    def local(self) -> GameController:
        """The local game, for the loop that deals and runs the bots (an online game's app
        overrides every method that uses it: :mod:`.online`)."""
        if not isinstance(self.ctl, GameController):
            raise TypeError("the game at a server table has no local loop")
        return self.ctl

    def screen_stack_busy(self) -> bool:
        return len(self.screen_stack) > 1

    def _bot_thread(self, seat: int, view: View, token: int) -> None:
        try:
            action = self.local.choose(seat, view, self.delays.bot)
        except Exception as exc:  # a broken bot is shown, never left "thinking" forever
            with contextlib.suppress(Exception):  # the app may be closing
                self.call_from_thread(self._bot_failed, seat, token, exc)
            return
        with contextlib.suppress(Exception):  # the app may be closing
            self.call_from_thread(self._bot_done, seat, token, action)

    def _bot_failed(self, seat: int, token: int, exc: Exception) -> None:
        self.busy = False
        if token != self._token:
            return
        self.stalled = (f"{self.ctl.name(seat)} ({self.ctl.level(seat)}) cannot move: "
                        f"{type(exc).__name__}: {str(exc)[:200]}")
        self.say(Text(f"{self.stalled}. Press n for a new game, or q to quit (and save).",
                      style="bold red"))

    def _bot_done(self, seat: int, token: int, action: Action) -> None:
        self.busy = False
        if token != self._token or self.ctl.to_act != seat:
            return  # stale: undone, or a new game started meanwhile
        self.bot_moves += 1
        self._apply(action, seat)

    def trick_pause(self) -> float | None:
        """Seconds a finished trick stays on the table; None: until Enter (the wait pace)."""
        if self.pace == "wait":
            return None
        return self.delays.trick if self.delays.trick is not None else PACES[self.pace]

    def _apply(self, action: Action, seat: int) -> None:
        before = self.local.table.seq
        self.local.apply(action, seat)
        self._token += 1
        self.choice = None
        self.clicked = None
        if seat == self.ctl.human_seat:
            self.message = ""
            if action.kind == "discard":  # T4: the next discard is chosen afresh
                self.selected = None
        self._take_events()
        finished_trick = any(isinstance(e, TrickWon) for e in self.ctl.events_since(before))
        self.refresh_screen()
        pause = self.trick_pause()
        if finished_trick and pause is None:
            self.busy = self.waiting = True
            self.refresh_screen()
        elif finished_trick and pause is not None and pause > 0:
            self.busy = True
            self.set_timer(pause, self._after_pause)
        else:
            self.call_later(self.advance)

    def _after_pause(self) -> None:
        self.busy = False
        self.advance()

    # ------------------------------------------------------------------ results
    def show_result(self) -> None:
        ctl = self.local
        hand = ctl.hand
        assert hand is not None and hand.result is not None
        body = result_text(ctl, hand.result)
        body.append("\n")
        allowed = {"next", "new", "quit", "log"}
        if ctl.over:
            title = ctl.winner_text or "Match over"
            self._saved_line(body)
            keys = "Enter new match · a analyse · n setup · l log · q quit"
            allowed.add("analyse")
        elif ctl.money:
            title = f"Hand {len(ctl.results)}"
            keys = "Enter next hand · s settle up and end · l log · q quit"
            allowed.add("settle")
        else:
            title = f"Hand {len(ctl.results)}"
            keys = "Enter next hand · l log · n new game · q quit"
        self.result_open = True
        self.push_screen(ResultScreen(title, body, keys, allowed), self._result_closed)

    def _result_closed(self, choice: str | None) -> None:
        self.result_open = False
        ctl = self.local
        if choice in ("next", "settle"):
            self.acked = ctl.hand_number
        if choice == "log":
            view = self.view()
            if view is not None:
                self.push_screen(TextScreen("Hand log", self._log_text(view)),
                                 lambda _: self.show_result())
            return
        if choice == "analyse":  # issue 33: every decision of the match weighed
            self.push_screen(AnalysisScreen(ctl.record_text()), lambda _: self.show_result())
            return
        if choice == "quit":
            self.action_request_quit()
            return
        if choice == "new":
            self.action_setup()
            return
        if choice == "settle":
            self.settle()
            return
        if ctl.over:
            self.start(GameConfig(**{**ctl.config.__dict__, "seed": None}))
            return
        self.message = ""
        ctl.between_hands()
        self._take_events()
        if ctl.over:  # everyone else left
            self.show_settlement()
            return
        self.selected = None
        self.advance()

    def settle(self) -> None:
        self.local.settle()
        self._take_events()
        self.show_settlement()

    def show_settlement(self) -> None:
        ctl = self.local
        game = ctl.session
        assert game is not None
        body = Text("Final payouts (against the average):\n\n", style="bold")
        for name, amount in game.payouts.items():
            body.append(f"  {name:<8}{game.stars.get(name, 0):>2}★  ")
            # the cents actually paid: they sum to zero over the session, leavers included
            body.append(cents_text(game.payout_cents[name]), style="green" if amount > 0 else
                        "red" if amount < 0 else "")
            body.append("\n")
        self._saved_line(body)
        self.result_open = True
        self.push_screen(ResultScreen("Session settled", body,
                                      "Enter new session · n setup · q quit",
                                      {"next", "new", "quit"}), self._result_closed)

    def _saved_line(self, body: Text) -> None:
        """Save the finished game's record (once) and say where, or why it could not be."""
        ctl = self.local
        if ctl.saved_record is None:
            try:
                ctl.saved_record = ctl.save(kind="records")
            except OSError as exc:
                self.save_error = f"the record was not saved: {exc}"
                body.append(f"\nNot saved: {exc}\n", style="bold red")
                return
        body.append(f"\nRecord saved: {ctl.saved_record}\n", style="dim")

    def start(self, config: GameConfig) -> None:
        """Start a new game with these settings."""
        self.config = config
        self.ctl = GameController(config)
        self.acked = 0
        self._token += 1
        self.busy = self.waiting = False
        self.stalled = None
        self.selected = None
        self.choice = None
        self.message = ""
        self.seen = 0
        self.news = []
        self.last_trick = None
        self.rows = earlier_rows(self.ctl)
        self.advance()

    # ------------------------------------------------------------------ your actions
    def _my_view(self) -> View | None:
        if self.busy or self.result_open or self.too_small or not self.ctl.human_to_act:
            return None
        return self.ctl.view()

    def act(self, action: Action) -> None:
        view = self._my_view()
        if view is None:
            return
        try:
            self._apply(action, self.local.human_seat)
        except IllegalActionError as exc:  # refused before anything changed: say why
            self.say(Text(illegal_text(exc, view), style="red"))

    def _pick(self, view: View, index: int) -> None:
        """Choose your card ``index``: to play it, or in the auction to pitch it (nothing is
        done until Enter)."""
        if view.phase == "declare":  # T5: the cards wait until trump is named
            self.say(Text("Name trump first: 1-4 chooses a suit.", style="red"))
            return
        self.selected = index
        self.clicked = None
        if view.phase == "auction":
            card = self.cards(view)[index]
            if PITCH[card] in view.legal_actions:
                self.choice = PITCH[card]
            else:
                self.choice = None
                self.message = Text("You may not pitch a card now: " + _bid_keys(view)
                                    + " chooses a bid.", style="red")
        self.refresh_screen()

    def action_move(self, step: int) -> None:
        view = self._my_view()
        if view is None:
            return
        cards = self.cards(view)
        if not cards:
            return
        self._pick(view, 0 if self.selected is None else (self.selected + step) % len(cards))

    def action_digit(self, n: int) -> None:
        """In the auction, choose bid ``n``; in play, choose your ``n``th card (never more:
        Enter confirms)."""
        view = self._my_view()
        if view is None:
            return
        if view.phase == "declare":  # T5: 1-4 choose ♣ ♦ ♥ ♠
            if n <= len(SUITS):
                self.action_choose_bid(f"trump-{SUITS[n - 1]}")
            return
        if view.phase == "auction":
            if str(n) not in _offered(view):  # 5 and 6 pick cards in play: no bid of 4-point
                self.choice = None
                self.say(Text(f"There is no bid of {n}: {_bid_keys(view)} chooses a bid.",
                              style="red"))
                return
            self.action_choose_bid(str(n))
            return
        if n - 1 < len(self.cards(view)):
            self._pick(view, n - 1)

    def action_choose_bid(self, key: str) -> None:
        view = self._my_view()
        if view is None or view.phase not in ("auction", "declare"):
            return
        action = _bar_action(key)
        self.clicked = None
        if action not in view.legal_actions:
            self.choice = None
            self.say(Text(f"You cannot {action_text(view.rules, action).plain} now: "
                          + _choices(view) + ".", style="red"))
            return
        self.choice = action
        self.selected = None
        self.message = ""
        self.refresh_screen()

    def action_clear(self) -> None:
        if self._my_view() is not None and self.choice is not None:
            self.choice = None
            self.selected = None
            self.refresh_screen()

    def action_confirm(self) -> None:
        """Enter: go on after a trick (the wait pace), or do the chosen bid or card."""
        if self.waiting:
            self.waiting = self.busy = False
            self.advance()
            return
        view = self._my_view()
        if view is None:
            return
        if view.phase in ("auction", "declare"):
            if self.choice is None:
                self.say("Choose first: 1-4 for a suit." if view.phase == "declare" else
                         "Choose first: " + _bid_keys(view) + " for a bid"
                         + (", ←→ for a card to pitch" if any(
                             a.kind == "pitch" for a in view.legal_actions) else "") + ".")
                return
            self.act(self.choice)
            return
        cards = self.cards(view)
        if self.selected is None or self.selected >= len(cards):
            self.say(f"Choose a card first (←/→ or 1-{min(len(cards), 9)}).")
            return
        card = cards[self.selected]
        self.act(DISCARD[card] if view.phase == "discard" else PLAY[card])

    def on_card_view_clicked(self, event: CardView.Clicked) -> None:
        """A click chooses a card; a second click on the chosen card plays (or pitches) it."""
        if self.waiting:
            self.action_confirm()
            return
        view = self._my_view()
        if view is None or event.index >= len(self.cards(view)):
            return
        target = f"card{event.index + 1}"
        if self.clicked == target and self.selected == event.index and (
                view.phase in ("play", "discard") or self.choice is not None):
            self.action_confirm()
        else:
            self._pick(view, event.index)
            self.clicked = target

    def on_bid_button_clicked(self, event: BidButton.Clicked) -> None:
        """A click chooses a bid; a second click on the chosen bid makes it."""
        view = self._my_view()
        if view is None:
            return
        target = f"bid-{event.key}"
        if self.clicked == target and self.choice is not None and \
                _bid_key(self.choice) == event.key:
            self.action_confirm()
        else:
            self.action_choose_bid(event.key)
            self.clicked = target

    # ------------------------------------------------------------------ help, hint, undo
    def action_hint(self) -> None:
        view = self._my_view()
        if view is None:
            return
        self.say(Text("Thinking about a hint…", style="italic"))
        token = self._token
        self.run_worker(lambda: self._hint_thread(view, token), thread=True, group="hint",
                        exit_on_error=False)

    def _hint_thread(self, view: View, token: int) -> None:
        try:
            action, reason = self.ctl.hint(view)
        except Exception as exc:  # a hint that cannot be had is said, never left "thinking"
            with contextlib.suppress(Exception):  # the app may be closing
                self.call_from_thread(self.say, Text(
                    f"No hint now: {type(exc).__name__}: {str(exc)[:120]}", style="red"))
            return
        with contextlib.suppress(Exception):  # the app may be closing
            self.call_from_thread(self._hint_done, token, action, reason)

    def _hint_done(self, token: int, action: Action, reason: str) -> None:
        """Show the hint and choose it (Enter takes it; anything else chooses again)."""
        if token != self._token:
            return
        view = self.ctl.view()
        if view.phase in ("auction", "declare"):
            self.choice = action
            self.selected = None
        if action.card is not None:
            cards = self.cards(view)
            if action.card in cards:
                self.selected = cards.index(action.card)
        self.say(_hint_line(view, action, reason))

    def action_undo(self) -> None:
        """Take back your last action (and the bots' after it): allowed against bots in every
        game; the record counts the undos (issue 10, item 6)."""
        ctl = self.local
        if self.result_open or not ctl.can_undo():
            self.say("Nothing of yours to undo in this hand.")
            return
        ctl.undo()
        self._take_events()
        self._token += 1
        self.busy = self.waiting = False
        self.selected = None
        self.choice = None
        self.message = (f"Undone ({count(ctl.undos, 'undo')} in this game; the record "
                        "says so).")
        self.advance()

    def action_last_trick(self) -> None:
        """The last finished trick, as the Table's events told it."""
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

    def _log_text(self, view: View) -> Text:
        return hand_log(self.ctl, view, [f"before hand {n}: {text}" for n, text in self.news])

    def action_rules(self) -> None:
        if self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Rules", rules_summary(self.ctl.rules,
                                                           len(self.ctl.seating))))

    def action_log(self) -> None:
        view = self.view()
        if view is None or self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Hand log", self._log_text(view)))

    def action_setup(self) -> None:
        if len(self.screen_stack) > 1 and not self.result_open:
            return

        def chosen(config: GameConfig | None) -> None:
            if config is not None:
                self.start(config)
            elif self.ctl.dealt and not self.ctl.in_hand and not self.result_open:
                self.advance()

        self.push_screen(SetupScreen(self.config), chosen)

    def action_request_quit(self) -> None:
        if isinstance(self.screen, QuitScreen):
            return
        ctl = self.local
        started = ctl.hand is not None and (ctl.hand_number > 1 or bool(ctl.hand.history))
        if ctl.over or not started:
            self.exit()
            return

        def chosen(what: str | None) -> None:
            if what == "save":
                try:
                    self.last_saved = ctl.save()
                except OSError as exc:
                    self.save_error = f"{exc}; the game was not saved"
                    self.exit(return_code=1)
                    return
                self.exit(message=f"Saved. Resume with: pitch play --resume {self.last_saved}")
            elif what == "quit":
                self.exit()
            else:
                self.advance()

        self.push_screen(QuitScreen(), chosen)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)
        if self.ctl.dealt:
            self.refresh_screen()


#: What the bid bar offers: bids and passes, and naming trump (T5).
_BAR_KINDS = ("pass", "bid", "trump")


def _hint_line(view: View, action: Action, reason: str) -> Text:
    """"Hint: <action> — <reason>", or "Hint: <reason>" when the reason begins by naming the
    action ("bid 2 in ♣; …", "pass; …"): the message area has two lines, for the numbers."""
    said = action_text(view.rules, action)
    rest = reason[len(said.plain):]
    if reason.startswith(said.plain) and not rest[:1].isalnum():
        return Text.assemble(("Hint: ", "bold magenta"), said, rest)
    return Text.assemble(("Hint: ", "bold magenta"), said, f" — {reason}")


def _bid_key(action: Action) -> str:
    """The bar's key of a bid: ``pass``, ``1``..``10``, ``moon``; ``trump-H`` (T5)."""
    if action.kind == "pass":
        return "pass"
    if action.kind == "trump" and action.suit is not None:
        return f"trump-{SUITS[action.suit]}"
    return "moon" if action == BID[MOON] else str(action.bid)


def _bar_action(key: str) -> Action:
    """The action of a bar key (:func:`_bid_key` read back; ``bid 5``..``bid 10``: T8)."""
    if key == "pass":
        return PASS
    if key.startswith("trump-"):
        return TRUMP[SUITS.index(key[-1])]
    return BID[MOON] if key == "moon" else BIDS[int(key)]


def _offered(view: View) -> set[str]:
    """The bar's buttons under these rules: pass, the bid ladder, the moon; or the suits while
    the pitcher names trump (T5)."""
    if view.phase == "declare":
        return {f"trump-{s}" for s in SUITS}
    rules = view.rules
    offered = {"pass", *(str(v) for v in rules.bid_values if v != "moon")}
    if rules.moon != "none":
        offered.add("moon")
    return offered


def _number_keys(numbers: list[int]) -> str:
    """"2-4", "4-9 or 0 (10)": the digit keys of numeric bids (0 is 10: T8)."""
    low = [n for n in numbers if n < 10]
    said = "" if not low else str(low[0]) if len(low) == 1 else f"{low[0]}-{low[-1]}"
    if 10 in numbers:
        said += (", " if said else "") + "0 (10)"
    return said


def _bid_keys(view: View) -> str:
    """The keys that choose the bids legal now, as the legend says them: "p, 2-4 or m"."""
    keys = sorted(_bid_key(a) for a in view.legal_actions if a.kind in ("pass", "bid"))
    numbers = sorted(int(k) for k in keys if k.isdigit())
    parts = ["p"] if "pass" in keys else []
    if numbers:
        parts.append(_number_keys(numbers))
    if "moon" in keys:
        parts.append("m")
    if not parts:
        return "no key"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _choices(view: View) -> str:
    """The bids legal now as words: "you may pass, bid 3 or bid 4"."""
    words = [action_text(view.rules, a).plain for a in view.legal_actions
             if a.kind in ("pass", "bid")]
    if not words:
        return "only a card may be pitched"
    return "you may " + (words[0] if len(words) == 1 else
                         ", ".join(words[:-1]) + " or " + words[-1])


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

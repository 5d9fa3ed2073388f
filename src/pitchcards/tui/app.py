"""The Textual app: the table, your cards, the bid bar; bots think in worker threads.

Flow: deal → auction → six tricks (a short pause shows each finished trick) → the result panel
→ next hand, until the match has a winner (or, in the money game, until you settle up).
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ..actions import BID, PASS, PITCH, PLAY, Action
from ..cards import cards_of
from ..errors import IllegalActionError, PitchError
from ..events import TrickWon
from ..money import cents_text
from ..rules import MOON
from ..views import View
from .config import GameConfig
from .controller import GameController
from .screens import QuitScreen, ResultScreen, SetupScreen, TextScreen
from .text import (
    action_text,
    auction_text,
    bid_word,
    hand_log,
    illegal_text,
    result_text,
    rules_summary,
    score_text,
    suit_text,
    table_text,
)
from .widgets import BidBar, BidButton, CardView, HandView, Panel

__all__ = ["Delays", "PitchApp", "run"]


@dataclass
class Delays:
    """Pauses that make the game readable (tests set them to 0)."""

    bot: float = 0.45      #: a bot's move takes at least this long
    trick: float = 1.3     #: a finished trick stays on the table this long


CSS = """
Screen { layout: vertical; background: $background; }
#top { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
#middle { height: 1fr; }
#table { width: 1fr; height: 100%; border: round $primary; padding: 0 1; }
#side { width: 31; }
#scores { height: auto; max-height: 12; border: round $primary; padding: 0 1; }
#auction { height: 1fr; border: round $primary; padding: 0 1; }
#handrow { height: 4; }
#handlabel { width: 7; height: 4; content-align: left middle; padding: 0 1; }
HandView { width: auto; height: 4; }
CardView { width: 7; height: 4; border: round $panel-lighten-2; content-align: center top;
           text-align: center; margin: 0 1 0 0; }
CardView.legal { border: round $success; }
CardView.dim { border: round $panel; }
CardView.selected { border: heavy $warning; background: $boost; }
#bidbar { height: 1; padding: 0 1; }
BidButton { width: auto; height: 1; padding: 0 1; margin: 0 1 0 0; }
BidButton.legal { background: $success-darken-2; color: $text; text-style: bold; }
BidButton.dim { color: $text-disabled; }
#prompt { height: 2; padding: 0 1; }
#keys { height: 1; background: $primary-darken-3; padding: 0 1; }
#dialog { width: 74; max-width: 100%; height: auto; max-height: 100%; border: thick $primary;
          background: $surface; padding: 0 1; }
#dialog.small { width: 50; }
#dialog-body { height: auto; max-height: 17; }
#dialog-title { text-align: center; }
ModalScreen { align: center middle; }
.setup-row { height: 1; }
#setup-note { height: 2; }
"""


class PitchApp(App[None]):
    """``pitch play``."""

    CSS = CSS
    TITLE = "Pitch"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("enter,space", "confirm", "Play", show=False),
        *[Binding(str(i), f"digit({i})", str(i), show=False) for i in range(1, 7)],
        Binding("p", "bid('pass')", "Pass", show=False),
        Binding("m", "bid('moon')", "Moon", show=False),
        Binding("h", "hint", "Hint", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("l", "log", "Log", show=False),
        Binding("question_mark", "rules", "Rules", show=False),
        Binding("n", "setup", "New game", show=False),
        Binding("q,ctrl+q", "request_quit", "Quit", show=False, priority=True),
    ]

    def __init__(self, config: GameConfig | None = None,
                 controller: GameController | None = None, delays: Delays | None = None,
                 setup_first: bool = False) -> None:
        super().__init__()
        self.config = config or GameConfig()
        self.ctl = controller or GameController(self.config)
        self.delays = delays or Delays()
        self.setup_first = setup_first
        self.selected: int | None = None
        self.message: Text | str = ""
        self.hint_action: Action | None = None
        self.busy = False           #: a bot is thinking or a pause is running
        self.result_open = False
        self._token = 0             #: bumps on every change, so stale bot answers are dropped
        self.bot_moves = 0
        self.last_saved: Path | None = None
        self.acked = 0              #: hands whose result you have seen
        self.stalled: str | None = None     #: why the bot to act could not move
        self.save_error: str | None = None  #: why the last save failed (exit code 1)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static("", id="top")
        with Horizontal(id="middle"):
            yield Panel("", id="table")
            with Vertical(id="side"):
                yield Panel("", id="scores")
                yield Panel("", id="auction")
        with Horizontal(id="handrow"):
            yield Static(Text("Your\ncards", style="bold"), id="handlabel")
            yield HandView(id="hand")
        yield BidBar(id="bidbar")
        yield Static("", id="prompt")
        yield Static("", id="keys")

    def on_mount(self) -> None:
        self.query_one("#table", Panel).border_title = "Table"
        self.query_one("#scores", Panel).border_title = "Score sheet"
        self.query_one("#auction", Panel).border_title = "Auction"
        if self.setup_first:
            self.action_setup()
        self.advance()

    # ------------------------------------------------------------------ state to screen
    def view(self) -> View | None:
        return self.ctl.view() if self.ctl.hand is not None else None

    def cards(self, view: View) -> list[int]:
        return list(cards_of(view.hand_mask))

    def legal_cards(self, view: View) -> set[int]:
        cards: set[int] = set()
        for a in view.legal_actions:
            if a.kind in ("play", "pitch") and a.card is not None:
                cards.add(a.card)
        return cards

    def legal_bids(self, view: View) -> set[str]:
        keys: set[str] = set()
        for a in view.legal_actions:
            if a.kind == "pass":
                keys.add("pass")
            elif a.kind == "bid":
                keys.add("moon" if a.bid == MOON else str(a.bid))
        return keys

    def refresh_screen(self) -> None:
        ctl = self.ctl
        view = self.view()
        rules = ctl.rules
        top = Text()
        top.append("Pitch ", style="bold")
        top.append(f"· {rules.name} · ")
        top.append(f"target {rules.target} · " if rules.target else "money game · ")
        top.append(f"hand {len(ctl.game.hands)}")
        if view is not None and view.trump is not None:
            top.append(" · trump ")
            top.append_text(suit_text(view.trump))
        if ctl.config.practice:
            top.append(" · practice", style="yellow")
        top.append("   ? rules  n new game", style="dim")
        self.query_one("#top", Static).update(top)
        self.query_one("#scores", Panel).update(score_text(ctl, view))
        if view is None:
            self.query_one("#table", Panel).update("Dealing…")
            self.query_one("#auction", Panel).update("")
            self.query_one(HandView).show([], set(), None)
            self.query_one(BidBar).display = False
            return
        self.query_one("#table", Panel).update(table_text(ctl, view))
        height = max(1, self.query_one("#auction", Panel).size.height - 1)
        self.query_one("#auction", Panel).update(auction_text(ctl, view, lines=height))
        cards = self.cards(view)
        if self.selected is not None and self.selected >= len(cards):
            self.selected = len(cards) - 1 if cards else None
        mine = view.is_my_turn and not self.busy
        legal = self.legal_cards(view) if mine else set()
        if view.phase == "auction" and not mine:
            legal = set(cards)  # nothing to choose yet: show the hand plainly
        self.query_one(HandView).show(cards, legal, self.selected if mine else None)
        bar = self.query_one(BidBar)
        bar.display = view.phase == "auction"
        offered = {"pass", *(str(v) for v in range(rules.min_bid, 5))}
        if rules.moon != "none":
            offered.add("moon")
        bar.show(self.legal_bids(view) if mine else set(), offered, bid_word(rules, MOON))
        self.query_one("#prompt", Static).update(self.prompt(view, mine))
        self.query_one("#keys", Static).update(self.keys_line(view))

    def prompt(self, view: View, mine: bool) -> Text:
        out = Text()
        if self.message:
            out.append_text(Text(self.message) if isinstance(self.message, str)
                            else self.message)
            out.append("\n")
        if view.phase == "over":
            out.append("Hand over.", style="bold")
        elif not mine and self.stalled is None:
            seat = view.seat_to_act
            if seat is not None:
                out.append(f"{self.ctl.name(seat)} is thinking…", style="italic")
        elif view.phase == "auction":
            can_pitch = any(a.kind == "pitch" for a in view.legal_actions)
            out.append("Your bid: ", style="bold yellow")
            out.append("press a highlighted key")
            if can_pitch:
                out.append(", or pick a card (←/→) and Enter to pitch it")
        else:
            out.append("Your turn: ", style="bold yellow")
            if view.trick:
                out.append("choose a card (←/→ or 1-6), Enter to play it")
            else:
                out.append("lead any card (←/→ or 1-6, Enter)" if view.trump else
                           "lead a card: its suit becomes trump (←/→ or 1-6, Enter)")
        return out

    def keys_line(self, view: View) -> Text:
        parts = []
        if view.phase == "auction":
            parts.append("p/1-4/m bid")
        else:
            parts.append("←→/1-6 pick ⏎ play")
        parts += ["h hint"]
        if self.ctl.config.practice:
            parts.append("u undo")
        parts += ["l log", "? rules", "n new", "q quit"]
        return Text("  ".join(parts), style="bold")

    def say(self, message: Text | str) -> None:
        self.message = message
        self.refresh_screen()

    # ------------------------------------------------------------------ the game loop
    def advance(self) -> None:
        """Move the game on: deal, let a bot act, or wait for you / the result panel."""
        if self.busy or self.result_open or self.screen_stack_busy():
            return
        ctl = self.ctl
        if ctl.hand is not None and not ctl.in_hand and self.acked < len(ctl.game.hands):
            self.show_result()
            return
        if ctl.over:
            return
        if not ctl.in_hand:
            ctl.deal()
        self._token += 1
        seat = ctl.to_act
        if seat is None:
            return
        if seat == ctl.human_seat:
            view = ctl.view()
            legal = self.legal_cards(view)
            cards = self.cards(view)
            if view.phase == "play" and (self.selected is None or self.selected >= len(cards)
                                         or cards[self.selected] not in legal):
                self.selected = next((i for i, c in enumerate(cards) if c in legal), None)
            self.refresh_screen()
            return
        self.busy = True
        self.stalled = None
        self.refresh_screen()
        token = self._token
        view = ctl.bot_view(seat)
        self.run_worker(lambda: self._bot_thread(seat, view, token), thread=True,
                        group="bot", exit_on_error=False)

    def screen_stack_busy(self) -> bool:
        return len(self.screen_stack) > 1

    def _bot_thread(self, seat: int, view: View, token: int) -> None:
        try:
            action = self.ctl.choose(seat, view, self.delays.bot)
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

    def _apply(self, action: Action, seat: int) -> None:
        events = self.ctl.apply(action, seat)
        self._token += 1
        self.hint_action = None
        if seat == self.ctl.human_seat:
            self.message = ""
        elif action.kind != "play":
            self.message = Text.assemble(f"{self.ctl.name(seat)}: ",
                                         action_text(self.ctl.rules, action))
        finished_trick = any(isinstance(e, TrickWon) for e in events)
        self.refresh_screen()
        if finished_trick and self.delays.trick > 0:
            self.busy = True
            self.set_timer(self.delays.trick, self._after_pause)
        else:
            self.call_later(self.advance)

    def _after_pause(self) -> None:
        self.busy = False
        self.advance()

    # ------------------------------------------------------------------ results
    def show_result(self) -> None:
        ctl = self.ctl
        hand = ctl.hand
        assert hand is not None and hand.result is not None
        body = result_text(ctl, hand.result)
        body.append("\n")
        body.append_text(score_text(ctl, None))
        allowed = {"next", "new", "quit", "log"}
        if ctl.over:
            title = ctl.winner_text or "Match over"
            self._saved_line(body)
            keys = "Enter new match · n setup · l log · q quit"
        elif ctl.money:
            title = f"Hand {len(ctl.game.results)}"
            keys = "Enter next hand · s settle up and end · l log · q quit"
            allowed.add("settle")
        else:
            title = f"Hand {len(ctl.game.results)}"
            keys = "Enter next hand · l log · n new game · q quit"
        self.result_open = True
        self.push_screen(ResultScreen(title, body, keys, allowed), self._result_closed)

    def _result_closed(self, choice: str | None) -> None:
        self.result_open = False
        ctl = self.ctl
        if choice in ("next", "settle"):
            self.acked = len(ctl.game.hands)
        if choice == "log":
            view = self.view()
            if view is not None:
                self.push_screen(TextScreen("Hand log", hand_log(ctl, view)),
                                 lambda _: self.show_result())
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
        news = ctl.between_hands()
        if ctl.over:  # everyone else left
            self.show_settlement()
            return
        self.selected = None
        self.message = " ".join(news)
        self.advance()

    def settle(self) -> None:
        self.ctl.settle()
        self.show_settlement()

    def show_settlement(self) -> None:
        ctl = self.ctl
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
        if self.ctl.saved_record is None:
            try:
                self.ctl.saved_record = self.ctl.save(kind="records")
            except OSError as exc:
                self.save_error = f"the record was not saved: {exc}"
                body.append(f"\nNot saved: {exc}\n", style="bold red")
                return
        body.append(f"\nRecord saved: {self.ctl.saved_record}\n", style="dim")

    def start(self, config: GameConfig) -> None:
        """Start a new game with these settings."""
        self.config = config
        self.ctl = GameController(config)
        self.acked = 0
        self._token += 1
        self.busy = False
        self.stalled = None
        self.selected = None
        self.message = ""
        self.advance()

    # ------------------------------------------------------------------ your actions
    def _my_view(self) -> View | None:
        if self.busy or self.result_open or not self.ctl.human_to_act:
            return None
        return self.ctl.view()

    def act(self, action: Action) -> None:
        view = self._my_view()
        if view is None:
            return
        try:
            self._apply(action, self.ctl.human_seat)
        except IllegalActionError as exc:  # refused before anything changed: say why
            self.say(Text(illegal_text(exc, view), style="red"))

    def action_move(self, step: int) -> None:
        view = self._my_view()
        if view is None:
            return
        cards = self.cards(view)
        if not cards:
            return
        self.selected = 0 if self.selected is None else (self.selected + step) % len(cards)
        self.refresh_screen()

    def action_digit(self, n: int) -> None:
        view = self._my_view()
        if view is None:
            return
        if view.phase == "auction":
            self.action_bid(str(n))
            return
        cards = self.cards(view)
        if n - 1 < len(cards):
            if self.selected == n - 1:
                self.action_confirm()
                return
            self.selected = n - 1
            self.refresh_screen()

    def action_confirm(self) -> None:
        view = self._my_view()
        if view is None:
            return
        cards = self.cards(view)
        if self.selected is None or self.selected >= len(cards):
            self.say("Pick a card first (←/→ or 1-6).")
            return
        card = cards[self.selected]
        if view.phase == "auction":
            if not any(a.kind == "pitch" for a in view.legal_actions):
                self.say(Text("Bid with a key: " + ", ".join(
                    str(action_text(view.rules, a)) for a in view.legal_actions), style="red"))
                return
            self.act(PITCH[card])
        else:
            self.act(PLAY[card])

    def action_bid(self, key: str) -> None:
        view = self._my_view()
        if view is None or view.phase != "auction":
            return
        action = PASS if key == "pass" else BID[MOON if key == "moon" else int(key)]
        self.act(action)

    def on_card_view_clicked(self, event: CardView.Clicked) -> None:
        view = self._my_view()
        if view is None:
            return
        cards = self.cards(view)
        if event.index < len(cards):
            again = self.selected == event.index
            self.selected = event.index
            # A click plays a card; in the auction it picks one, and a second click pitches it.
            if view.phase == "play" or again:
                self.action_confirm()
            else:
                self.refresh_screen()

    def on_bid_button_clicked(self, event: BidButton.Clicked) -> None:
        self.action_bid(event.key)

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
        action, reason = self.ctl.hint(view)
        with contextlib.suppress(Exception):  # the app may be closing
            self.call_from_thread(self._hint_done, token, action, reason)

    def _hint_done(self, token: int, action: Action, reason: str) -> None:
        if token != self._token:
            return
        view = self.ctl.view()
        self.hint_action = action
        if action.card is not None:
            cards = self.cards(view)
            if action.card in cards:
                self.selected = cards.index(action.card)
        self.say(Text.assemble(("Hint: ", "bold magenta"), action_text(view.rules, action),
                               f" — {reason}"))

    def action_undo(self) -> None:
        if not self.ctl.config.practice:
            self.say("Undo is for practice games: press n and set Practice on, "
                     "or start with --practice.")
            return
        if self.result_open or not self.ctl.can_undo():
            self.say("Nothing of yours to undo in this hand.")
            return
        self.ctl.undo()
        self._token += 1
        self.busy = False
        self.selected = None
        self.message = "Undone."
        self.advance()

    def action_rules(self) -> None:
        if self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Rules", rules_summary(self.ctl.rules,
                                                           len(self.ctl.seating))))

    def action_log(self) -> None:
        view = self.view()
        if view is None or self.screen_stack_busy():
            return
        self.push_screen(TextScreen("Hand log", hand_log(self.ctl, view)))

    def action_setup(self) -> None:
        if len(self.screen_stack) > 1 and not self.result_open:
            return

        def chosen(config: GameConfig | None) -> None:
            if config is not None:
                self.start(config)
            elif self.ctl.hand is not None and not self.ctl.in_hand and not self.result_open:
                self.advance()

        self.push_screen(SetupScreen(self.config), chosen)

    def action_request_quit(self) -> None:
        if isinstance(self.screen, QuitScreen):
            return
        started = self.ctl.hand is not None and (len(self.ctl.game.hands) > 1 or
                                                 bool(self.ctl.hand.history))
        if self.ctl.over or not started:
            self.exit()
            return

        def chosen(what: str | None) -> None:
            if what == "save":
                try:
                    self.last_saved = self.ctl.save()
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

    def on_resize(self) -> None:
        if self.ctl.hand is not None:
            self.refresh_screen()


def run(config: GameConfig, resume: str | None = None, setup: bool = False) -> int:
    """Run the game in this terminal (``pitch play``)."""
    controller = GameController.load(resume, config) if resume else None
    app = PitchApp(config, controller, setup_first=setup)
    try:
        app.run()
    except PitchError as exc:
        print(f"pitch: {exc}", file=sys.stderr)
        return 2
    if app.save_error is not None:
        print(f"pitch play: {app.save_error}", file=sys.stderr)
        return 1
    return app.return_code or 0

"""The local game source: ``pitch play`` against bots on this machine.

The driver of a :class:`~.controller.GameController`: it does what the table says happens next
(:meth:`~pitchcards.table.Table.next_step`) — deals when told to, runs a bot's turn in a worker
thread and hands its answer back to the table (which drops it if the game moved on meanwhile),
waits for your key at your turn — keeps a finished trick on the table as the pace says, opens
the result panel after each hand, and does what only a local game can — undo, save and resume,
settle up, a new game.  It works the screen only through :class:`~.source.TableScreen`.
"""

from __future__ import annotations

from rich.text import Text

from ..actions import Action
from ..errors import IllegalActionError
from ..events import ActionTaken, HandScored, TrickWon
from ..explain import illegal_text
from ..money import cents_text
from ..table import BotTurn, DealNext, OutsideTurn, Over
from .analysis_screen import AnalysisScreen
from .config import GameConfig
from .controller import GameController
from .game import TableGame
from .screens import QuitScreen, ResultScreen, SetupScreen, TextScreen
from .source import TableScreen
from .text import result_text
from .words import count

__all__ = ["LocalSource"]


class LocalSource:
    """A local game with bots, driven in the app's event loop and its worker threads."""

    #: The keys line: the same on every main screen (the phase's own keys are on the prompt).
    keys = "h hint  u undo  t last trick  f pace  g score sheet  i stats  l log  q quit"
    #: the keys for the whole game, at the end of the top bar
    top_keys = "   ? rules  n new game"

    def __init__(self, controller: GameController) -> None:
        self.ctl = controller
        self.acked = 0              #: hands whose result you have seen
        self.bot_moves = 0
        self._screen: TableScreen | None = None

    @property
    def game(self) -> TableGame:
        return self.ctl

    @property
    def screen(self) -> TableScreen:
        assert self._screen is not None, "the source is attached when the screen is mounted"
        return self._screen

    def attach(self, screen: TableScreen) -> None:
        self._screen = screen

    async def close(self) -> None:
        return None

    def told(self, event: ActionTaken) -> bool:
        """The bots' bids and pitches are said on the message line (yours you know)."""
        return event.by_bot

    def hand_scored(self, event: HandScored) -> None:
        return None

    def top_line(self) -> Text | None:
        return None

    def before_the_deal(self) -> tuple[Text, Text] | None:
        return None

    def start_table(self) -> None:
        return None  # a local game has no table to start

    # ------------------------------------------------------------------ the game loop
    def advance(self) -> None:
        """Move the game on: deal, let a bot act, or wait for you / the result panel."""
        screen, ctl = self.screen, self.ctl
        if screen.busy or screen.result_open or screen.screen_stack_busy():
            return
        step = ctl.next_step()
        if isinstance(step, DealNext | Over) and ctl.dealt and self.acked < ctl.hand_number:
            self.show_result()  # a hand ended: its result first
            return
        if isinstance(step, Over):
            return
        if isinstance(step, DealNext):
            ctl.deal()
            screen.choices.choice = None
            screen.take_events()
            step = ctl.next_step()
        screen.token += 1
        if isinstance(step, OutsideTurn):  # yours: the only seat not played by a bot
            screen.choices.keep_a_legal_card(ctl.view())
            screen.refresh_screen()
            return
        if not isinstance(step, BotTurn):
            return
        screen.busy = True
        screen.stalled = None
        screen.refresh_screen()
        screen.in_thread(lambda: self._bot_thread(step), group="bot")

    def _bot_thread(self, turn: BotTurn) -> None:
        try:
            action = self.ctl.think(turn, self.screen.delays.bot)
        except Exception as exc:  # a broken bot is shown, never left "thinking" forever
            self.screen.from_thread(self._bot_failed, turn, exc)
            return
        self.screen.from_thread(self._bot_done, turn, action)

    def _bot_failed(self, turn: BotTurn, exc: Exception) -> None:
        screen, ctl = self.screen, self.ctl
        screen.busy = False
        if not ctl.table.is_current(turn):
            return  # the game moved on meanwhile: nothing is stalled
        screen.stalled = (f"{ctl.name(turn.seat)} ({ctl.level(turn.seat)}) cannot move: "
                          f"{type(exc).__name__}: {str(exc)[:200]}")
        screen.say(Text(f"{screen.stalled}. Press n for a new game, or q to quit (and save).",
                        style="bold red"))

    def _bot_done(self, turn: BotTurn, action: Action) -> None:
        self.screen.busy = False
        before = self.ctl.table.seq
        if not self.ctl.play(turn, action):
            return  # the table moved on (an undo, a new game): the answer is dropped
        self.bot_moves += 1
        self._applied(action, turn.seat, before)

    def act(self, action: Action) -> None:
        """Your action (the screen checked it is your turn)."""
        view = self.ctl.view()
        try:
            self._apply(action, self.ctl.human_seat)
        except IllegalActionError as exc:  # refused before anything changed: say why
            self.screen.say(Text(illegal_text(exc, view), style="red"))

    def _apply(self, action: Action, seat: int) -> None:
        before = self.ctl.table.seq
        self.ctl.apply(action, seat)
        self._applied(action, seat, before)

    def _applied(self, action: Action, seat: int, before: int) -> None:
        """After ``seat``'s action (events after seq ``before``): the screen catches up, a
        finished trick stays as the pace says, and the game moves on."""
        screen, ctl = self.screen, self.ctl
        screen.token += 1
        screen.choices.acted(action, seat == ctl.human_seat)
        if seat == ctl.human_seat:
            screen.message = ""
        screen.take_events()
        finished_trick = any(isinstance(e, TrickWon) for e in ctl.events_since(before))
        screen.refresh_screen()
        pause = screen.trick_pause()
        if finished_trick and pause is None:
            screen.busy = screen.waiting = True
            screen.refresh_screen()
        elif finished_trick and pause is not None and pause > 0:
            screen.busy = True
            screen.after(pause, self._after_pause)
        else:
            screen.later(self.advance)

    def _after_pause(self) -> None:
        self.screen.busy = False
        self.advance()

    def go_on(self) -> None:
        """Enter after a finished trick (the wait pace)."""
        self.screen.waiting = self.screen.busy = False
        self.advance()

    # ------------------------------------------------------------------ results
    def show_result(self) -> None:
        ctl = self.ctl
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
        self.screen.result_open = True
        self.screen.push(ResultScreen(title, body, keys, allowed), self._result_closed)

    def _result_closed(self, choice: str | None) -> None:
        screen, ctl = self.screen, self.ctl
        screen.result_open = False
        if choice in ("next", "settle"):
            self.acked = ctl.hand_number
        if choice == "log":
            log = screen.log_text()
            if log is not None:
                screen.push(TextScreen("Hand log", log), lambda _: self.show_result())
            return
        if choice == "analyse":  # issue 33: every decision of the match weighed
            screen.push(AnalysisScreen(ctl.record_text()), lambda _: self.show_result())
            return
        if choice == "quit":
            self.request_quit()
            return
        if choice == "new":
            self.setup()
            return
        if choice == "settle":
            self.settle()
            return
        if ctl.over:
            self.start(GameConfig(**{**ctl.config.__dict__, "seed": None}))
            return
        screen.message = ""
        ctl.between_hands()
        screen.take_events()
        if ctl.over:  # everyone else left
            self.show_settlement()
            return
        screen.choices.selected = None
        self.advance()

    def settle(self) -> None:
        self.ctl.settle()
        self.screen.take_events()
        self.show_settlement()

    def show_settlement(self) -> None:
        game = self.ctl.session
        assert game is not None
        body = Text("Final payouts (against the average):\n\n", style="bold")
        for name, amount in game.payouts.items():
            body.append(f"  {name:<8}{game.stars.get(name, 0):>2}★  ")
            # the cents actually paid: they sum to zero over the session, leavers included
            body.append(cents_text(game.payout_cents[name]), style="green" if amount > 0 else
                        "red" if amount < 0 else "")
            body.append("\n")
        self._saved_line(body)
        self.screen.result_open = True
        self.screen.push(ResultScreen("Session settled", body,
                                      "Enter new session · n setup · q quit",
                                      {"next", "new", "quit"}), self._result_closed)

    def _saved_line(self, body: Text) -> None:
        """Save the finished game's record (once) and say where, or why it could not be."""
        ctl = self.ctl
        if ctl.saved_record is None:
            try:
                ctl.saved_record = ctl.save(kind="records")
            except OSError as exc:
                self.screen.save_error = f"the record was not saved: {exc}"
                body.append(f"\nNot saved: {exc}\n", style="bold red")
                return
        body.append(f"\nRecord saved: {ctl.saved_record}\n", style="dim")

    def start(self, config: GameConfig) -> None:
        """Start a new game with these settings."""
        self.ctl = GameController(config)
        self.acked = 0
        self.screen.new_game()
        self.advance()

    # ------------------------------------------------------------------ keys of a local game
    def undo(self) -> None:
        """Take back your last action (and the bots' after it): allowed against bots in every
        game; the record counts the undos (issue 10, item 6)."""
        screen, ctl = self.screen, self.ctl
        if screen.result_open or not ctl.can_undo():
            screen.say("Nothing of yours to undo in this hand.")
            return
        ctl.undo()
        screen.take_events()
        screen.token += 1
        screen.busy = screen.waiting = False
        screen.choices.reset()
        screen.message = (f"Undone ({count(ctl.undos, 'undo')} in this game; the record "
                          "says so).")
        self.advance()

    def setup(self) -> None:
        """n: the setup dialog; a new game with what it chooses."""
        screen = self.screen
        if screen.screen_stack_busy() and not screen.result_open:
            return

        def chosen(config: GameConfig | None) -> None:
            if config is not None:
                self.start(config)
            elif self.ctl.dealt and not self.ctl.in_hand and not screen.result_open:
                self.advance()

        screen.push(SetupScreen(screen.config), chosen)

    def request_quit(self) -> None:
        """q: quit at once before the game starts or after it ends, else ask (save or not)."""
        screen, ctl = self.screen, self.ctl
        started = ctl.hand is not None and (ctl.hand_number > 1 or bool(ctl.hand.history))
        if ctl.over or not started:
            screen.leave()
            return

        def chosen(what: str | None) -> None:
            if what == "save":
                try:
                    saved = ctl.save()
                except OSError as exc:
                    screen.save_error = f"{exc}; the game was not saved"
                    screen.leave(return_code=1)
                    return
                screen.leave(f"Saved. Resume with: pitch play --resume {saved}")
            elif what == "quit":
                screen.leave()
            else:
                self.advance()

        screen.push(QuitScreen(), chosen)

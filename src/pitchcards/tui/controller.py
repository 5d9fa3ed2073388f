"""The game behind the screen, with no UI: a :class:`~pitchcards.table.Table` (the one game
loop), the bots' levels, undo, saving.

The app asks the table what happens next (:meth:`GameController.next_step`); for a bot's turn
it calls :meth:`GameController.think` off the UI thread (the decision reads only the turn's
view), then :meth:`GameController.play` on the UI thread, which applies it only if the table
has not moved on (an undo, a new game).  Your actions go through
:meth:`GameController.apply`, which returns the events it caused (a trick won, a hand scored)
in the human's copy.  The human only ever gets
:meth:`GameController.view`, their own seat's View.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import cast

from ..actions import Action
from ..bots import Bot, make_bot
from ..errors import OptionError, shown
from ..events import Event
from ..hand import Hand
from ..money import MoneySession, dollars_text
from ..notation import RecordError, read_record, replay, write_record
from ..rules import RuleSet
from ..scoring import HandResult
from ..session import GameSession
from ..session_kinds import new_session
from ..storage import read_text, write_atomically
from ..table import BotTurn, Step, Table
from ..views import View
from .config import BOT_NAMES, HUMAN, LEVELS, GameConfig, new_file
from .game import expert_hint, side_count, side_label, side_of, win_sentence

__all__ = ["GameController"]

_LEGACY = "# pitch-play"  # saves written before the header tags carried these comment lines


class GameController:
    """One match or money session between you (``HUMAN``) and bots, on a Table."""

    def __init__(self, config: GameConfig, game: GameSession | None = None,
                 levels: dict[str, str] | None = None, names: list[str] | None = None) -> None:
        self.config = config
        self.rules: RuleSet = game.rules if game is not None else config.rules()
        seed = config.seed if config.seed is not None else random.randrange(1, 10**6)
        self.seed = game.seed if game is not None and game.seed is not None else seed
        self.levels: dict[str, str] = {}
        self.money = self.rules.money != "none"
        if game is None:
            n = config.table()
            bot_levels = config.bot_levels()
            bot_names = list(BOT_NAMES[: n - 1])
            self.names = [HUMAN, *bot_names]
            self.levels = dict(zip(bot_names, bot_levels, strict=True))
            game = new_session(self.rules, self.names, dealer=None, seed=self.seed)
        else:
            self.levels = dict(levels or {})
            if self.money:
                self.names = list(game.names)
            else:
                self.names = list(names) if names else [HUMAN, *BOT_NAMES[: game.seat_count - 1]]
            for name in self.names:
                if name != HUMAN:
                    self.levels.setdefault(name, config.level)
        self.game: GameSession = game
        #: the money session's own calls (payouts, stars), None in a match: the rules say which
        #: (a session is made by session_kinds.new_session or the record reader, which build a
        #: MoneySession exactly when the rules play for money)
        self.session: MoneySession | None = cast(MoneySession, game) if self.money else None
        seated = list(game.names) if self.money else self.names
        # A match's seats are numbers; a money session's bots belong to players (seats move).
        self.table = Table(game, bots={s: self._new_bot(name) for s, name in enumerate(seated)
                                       if name != HUMAN}, auto_deal=False)
        self._events = random.Random(f"pitch-play/{self.seed}/events/{len(game.results)}")
        self.saved_record: Path | None = None
        #: actions taken back with undo in this game (the record's ``undos`` tag says so)
        self.undos = 0

    def _new_bot(self, name: str) -> Bot:
        index = (BOT_NAMES.index(name) + 1) if name in BOT_NAMES else len(self.levels) + 1
        return make_bot(self.levels.get(name, self.config.level), self.seed * 31 + index)

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        return self.game.hand

    @property
    def seating(self) -> list[str]:
        """Names in seat order for the current hand (the last one, between hands)."""
        return list(self.table.seating) if self.money else self.names

    @property
    def human_seat(self) -> int:
        return self.seating.index(HUMAN)

    @property
    def dealt(self) -> bool:
        return self.game.hand is not None

    @property
    def hand_number(self) -> int:
        return len(self.game.hands)

    @property
    def results(self) -> list[HandResult]:
        return list(self.game.results)

    def side_scores(self) -> list[int]:
        return list(self.game.side_scores())

    def name(self, seat: int) -> str:
        return self.seating[seat]

    def level(self, seat: int) -> str:
        name = self.name(seat)
        return "you" if name == HUMAN else self.levels.get(name, self.config.level)

    def side_name(self, side: int) -> str:
        """A side as words: a name, or in partnerships both names ("You & Cy")."""
        return side_label(self.rules, self.seating, side)

    @property
    def sides(self) -> int:
        return side_count(self.rules, len(self.seating))

    def view(self) -> View:
        """The human's view of the current hand (the only thing the screen may show)."""
        return self.table.view(self.human_seat)

    @property
    def in_hand(self) -> bool:
        return self.table.in_hand

    @property
    def to_act(self) -> int | None:
        return self.table.to_act

    @property
    def human_to_act(self) -> bool:
        return self.in_hand and self.to_act == self.human_seat

    @property
    def over(self) -> bool:
        """The match has a winner, or the money session is settled."""
        return self.table.is_over

    @property
    def winner_text(self) -> str | None:
        if self.game.winner is not None:
            return win_sentence(self, self.game.winner)
        return None

    @property
    def actions(self) -> int:
        """A token that changes with every action, undo and deal: the table's event count."""
        return self.table.seq

    # ------------------------------------------------------------------ playing
    def deal(self) -> Hand:
        """Deal the next hand."""
        return self.table.deal()

    def bot_view(self, seat: int) -> View:
        return self.table.view(seat)

    def bot(self, seat: int) -> Bot:
        bot = self.table.bot_at(seat)
        assert bot is not None, f"seat {seat} is yours"
        return bot

    def next_step(self) -> Step:
        """What happens next, as the table says (deal, a bot's turn, yours, over)."""
        return self.table.next_step()

    def think(self, turn: BotTurn, min_seconds: float = 0.0) -> Action:
        """The decision for a bot's ``turn``, taking at least ``min_seconds`` (the pace of a
        game you watch); reads only the turn's view, so it runs off the UI thread."""
        return _at_least(min_seconds, turn.choose)

    def play(self, turn: BotTurn, action: Action) -> bool:
        """Apply a bot's decision if its turn is still current (False: it moved on)."""
        return self.table.apply_if_current(turn, action)

    def choose(self, seat: int, view: View, min_seconds: float = 0.0) -> Action:
        """A bot's decision from its own view (safe to call off the UI thread)."""
        return _at_least(min_seconds, lambda: self.table.choose(seat, view))

    def apply(self, action: Action | str, seat: int) -> list[Event]:
        """Apply ``seat``'s action (checked: a stale or illegal one raises); the events it
        caused, as the human may see them (their own copy: a trick won, a hand scored …)."""
        before = self.table.seq
        if self.table.is_bot(seat):
            self.table.apply(seat, action)
        else:
            self.table.push(action, seat)
        # a money session's players move seats between hands: follow the human by name
        return self.table.events(HUMAN if self.money else self.human_seat, after=before)

    @property
    def my_side(self) -> int:
        """Your side: your seat, or your team in partnerships (index into deltas, scores)."""
        return side_of(self.rules, self.human_seat)

    def events_since(self, after: int) -> list[Event]:
        """Your copy of the Table's events after seq ``after`` (deals, plays, tricks, hands,
        joins, leaves): what the screen learns the game from."""
        return self.table.events(HUMAN if self.money else self.human_seat, after=after)

    def can_undo(self) -> bool:
        """During a hand in which you have acted.  Against bots undo is always allowed (issue
        10, item 6); the record counts the undos (``undos`` tag, docs/notation.md)."""
        hand = self.game.hand
        return (hand is not None and self.in_hand
                and any(s == self.human_seat for s, _ in hand.history))

    def undo(self) -> bool:
        """Take back your last action in this hand (and the bots' after it)."""
        if not self.can_undo():
            return False
        self.undos += 1
        hand = self.game.hand
        assert hand is not None
        me = self.human_seat
        while hand.history:
            seat, _ = hand.history[-1]
            self.table.pop()
            if seat == me:
                return True
        return True

    def hint(self, view: View) -> tuple[Action, str]:
        """The expert's choice for your view and why (slow: call off the UI thread)."""
        return expert_hint(view)

    # ------------------------------------------------------------------ money sessions
    def between_hands(self) -> None:
        """Money game: now and then a bot leaves (paid out) or a new one sits down.  The screen
        hears of it from the Table's events (:class:`~pitchcards.events.PlayerLeft`,
        :class:`~pitchcards.events.PlayerJoined`)."""
        s = self.session
        if s is None or s.finished or s.in_hand or not s.results:
            return
        if s.rules.join_leave == "never":
            return
        roll = self._events.random()
        bots = [n for n in s.players if n != HUMAN]
        limit = min(8, s.rules.player_range[1])
        if roll < 0.12 and len(s.players) > 3 and bots:
            self.table.leave(self._events.choice(bots))
        elif roll > 0.88 and len(s.players) < limit:
            used = set(s.players) | set(s.payouts) | set(self.levels)
            name = next((n for n in BOT_NAMES if n not in used), None)
            if name is not None:
                level = self._events.choice(("easy", "medium", "hard"))
                self.levels[name] = level
                self.table.join(name, self._new_bot(name))

    def settle(self) -> dict[str, Fraction]:
        return self.table.settle()

    # ------------------------------------------------------------------ records
    def record_text(self) -> str:
        """The game record, with the players' names and bot levels as header tags."""
        return write_record(self.game, names=None if self.money else self.names,
                            bots=self.levels, practice=self.config.practice,
                            undos=self.undos or None)

    def save(self, path: Path | None = None, kind: str = "saves") -> Path:
        """Write the record (default: a new file in the per-user data folder), all at once:
        :class:`~pitchcards.storage.SaveError` (an ``OSError``) if it cannot be written."""
        if path is None:
            path = new_file(kind, f"{self.rules.name}-{self.seed}")
        return write_atomically(path, self.record_text())

    @classmethod
    def load(cls, path: Path | str, config: GameConfig | None = None) -> GameController:
        """Resume a saved game (``pitch play --resume FILE``); a file that cannot be read
        (:func:`~pitchcards.storage.read_text`: missing, over 64 MiB, not UTF-8) raises
        :class:`~pitchcards.storage.ReadError` naming it."""
        text = read_text(path)
        try:
            record = read_record(text)
        except RecordError as exc:  # name the file: "pitch: SAVE: line 31: ..."
            raise OptionError(f"{path}: {exc}") from exc
        game = replay(record)
        config = config or GameConfig()
        levels = dict(record.bots)
        names = record.seat_names
        config.practice = config.practice or bool(record.practice)
        for line in text.splitlines():  # a save written before the header tags
            words = line[len(_LEGACY):].split() if line.startswith(_LEGACY) else []
            if words[:1] == ["bot"] and len(words) == 3:
                levels.setdefault(words[1], words[2])
            elif words[:1] == ["names"] and names is None:
                names = words[1:]
            elif words[:1] == ["level"] and len(words) == 4 and words[2] == "practice":
                config.level = words[1]
                config.practice = config.practice or words[3] == "1"
        levels.pop(HUMAN, None)
        # Only the levels the game offers: never oracle (it sees every card) or a name that
        # make_bot would refuse only once the bot is to act.
        for who, level in [("the default bot level", config.level),
                           *((f"bot {name}'s level", level) for name, level in levels.items())]:
            if level not in LEVELS:
                raise OptionError(f"{path}: {who} is {shown(level)}, which pitch play does not "
                                  f"offer; levels are: {', '.join(LEVELS)}")
        config.variant = game.rules.name if game.rules.name != "custom" else config.variant
        if game.rules.money == "none" and (names is None or len(names) != game.seat_count
                                           or HUMAN not in names):
            names = None
        if game.rules.money != "none" and HUMAN not in game.names:
            raise ValueError(f"{path}: this money session has no seat named {HUMAN!r} to play")
        controller = cls(config, game=game, levels=levels, names=names)
        controller.undos = record.undos or 0
        return controller


def _at_least(seconds: float, decide: Callable[[], Action]) -> Action:
    """``decide()``, returning no sooner than ``seconds`` after the call (a pace, not a wait
    for something: the bots of a watched game do not answer instantly)."""
    start = time.monotonic()
    action = decide()
    rest = seconds - (time.monotonic() - start)
    if rest > 0:
        time.sleep(rest)
    return action


#: Dollars to the cent for the screen (the money game's one rounding rule, A-R7.6).
money_text = dollars_text

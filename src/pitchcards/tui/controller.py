"""The game behind the screen, with no UI: a Match or MoneySession, the bots, undo, saving.

The app asks the controller who acts; for a bot seat it takes :meth:`GameController.bot_view`
and calls :meth:`GameController.choose` off the UI thread (the decision reads only that view),
then applies the action on the UI thread with :meth:`GameController.apply`.  The human only
ever gets :meth:`GameController.view`, their own seat's View.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from pathlib import Path

from ..actions import Action
from ..bots import Bot, make_bot
from ..errors import OptionError, shown
from ..hand import Hand
from ..match import Match
from ..money import MoneySession
from ..notation import RecordError, read_record, replay, write_record
from ..rules import RuleSet
from ..storage import ensure_folder, write_atomically
from ..views import View
from .config import BOT_NAMES, HUMAN, LEVELS, GameConfig, data_dir

__all__ = ["GameController"]

Game = Match | MoneySession
#: Saves written before records had header tags carry them as comments: ``# pitch-play bot Ann
#: easy``, ``# pitch-play names You Ann Bob``, ``# pitch-play level medium practice 0``.
_LEGACY = "# pitch-play"


class GameController:
    """One match or money session between you (``HUMAN``) and bots."""

    def __init__(self, config: GameConfig, game: Game | None = None,
                 levels: dict[str, str] | None = None, names: list[str] | None = None) -> None:
        self.config = config
        self.rules: RuleSet = game.rules if game is not None else config.rules()
        seed = config.seed if config.seed is not None else random.randrange(1, 10**6)
        self.seed = game.seed if game is not None and game.seed is not None else seed
        self.levels: dict[str, str] = {}
        if game is None:
            n = config.table()
            bot_levels = config.bot_levels()
            bot_names = list(BOT_NAMES[: n - 1])
            self.names = [HUMAN, *bot_names]
            self.levels = dict(zip(bot_names, bot_levels, strict=True))
            if self.rules.money != "none":
                game = MoneySession(self.rules, self.names, dealer=None, seed=self.seed)
            else:
                game = Match(self.rules, players=n, dealer=None, seed=self.seed)
        else:
            self.levels = dict(levels or {})
            if isinstance(game, MoneySession):
                self.names = list(game.players)
            else:
                self.names = list(names) if names else [HUMAN, *BOT_NAMES[: game.players - 1]]
            for name in self.names:
                if name != HUMAN:
                    self.levels.setdefault(name, config.level)
        self.game: Game = game
        self.money = isinstance(game, MoneySession)
        self._bots: dict[str, Bot] = {}
        self._events = random.Random(f"pitch-play/{self.seed}/events/{len(game.results)}")
        self.messages: list[str] = []   #: between-hands news (joins, leaves, payouts)
        self.saved_record: Path | None = None

    # ------------------------------------------------------------------ reading
    @property
    def hand(self) -> Hand | None:
        return self.game.hand

    @property
    def seating(self) -> list[str]:
        """Names in seat order for the current hand (or the next one, between hands)."""
        if isinstance(self.game, MoneySession):
            if self.game.hand is not None and self.game.in_hand:
                return list(self.game.hand_players[-1])
            if self.game.hand is not None and self.game.hand_players:
                return list(self.game.hand_players[-1])
            return list(self.game.players)
        return self.names

    @property
    def human_seat(self) -> int:
        return self.seating.index(HUMAN)

    def name(self, seat: int) -> str:
        return self.seating[seat]

    def level(self, seat: int) -> str:
        name = self.name(seat)
        return "you" if name == HUMAN else self.levels.get(name, self.config.level)

    def side_name(self, side: int) -> str:
        """A side as words: a name, or in partnerships both names ("You & Cy")."""
        if self.rules.partnership_mode:
            seats = [s for s in range(len(self.seating)) if s % 2 == side]
            return " & ".join(self.name(s) for s in seats)
        return self.name(side)

    @property
    def sides(self) -> int:
        return 2 if self.rules.partnership_mode else len(self.seating)

    def view(self) -> View:
        """The human's view of the current hand (the only thing the screen may show)."""
        return self.game.view(self.human_seat)

    @property
    def in_hand(self) -> bool:
        return self.game.in_hand

    @property
    def to_act(self) -> int | None:
        hand = self.game.hand
        return None if hand is None else hand.seat_to_act

    @property
    def human_to_act(self) -> bool:
        return self.in_hand and self.to_act == self.human_seat

    @property
    def over(self) -> bool:
        """The match has a winner, or the money session is settled."""
        if isinstance(self.game, MoneySession):
            return self.game.finished
        return self.game.winner is not None

    @property
    def winner_text(self) -> str | None:
        if isinstance(self.game, Match) and self.game.winner is not None:
            who = self.side_name(self.game.winner)
            return f"{who} win{'' if who == HUMAN or '&' in who else 's'} the match!"
        return None

    @property
    def actions(self) -> int:
        """Actions taken so far in all hands: a token that changes with every push and pop."""
        return sum(len(h.history) for h in self.game.hands) + 1000 * len(self.game.hands)

    # ------------------------------------------------------------------ playing
    def deal(self) -> Hand:
        """Deal the next hand (money: first let bots come and go)."""
        self.messages = []
        return self.game.deal()

    def bot_view(self, seat: int) -> View:
        return self.game.view(seat)

    def bot(self, seat: int) -> Bot:
        name = self.name(seat)
        if name not in self._bots:
            index = (BOT_NAMES.index(name) + 1) if name in BOT_NAMES else len(self._bots) + 1
            self._bots[name] = make_bot(self.levels.get(name, self.config.level),
                                        self.seed * 31 + index)
        return self._bots[name]

    def choose(self, seat: int, view: View, min_seconds: float = 0.0) -> Action:
        """A bot's decision from its own view (safe to call off the UI thread)."""
        start = time.monotonic()
        action = self.bot(seat).choose(view)
        rest = min_seconds - (time.monotonic() - start)
        if rest > 0:
            time.sleep(rest)
        return action

    def apply(self, action: Action | str, seat: int) -> None:
        """Push an action for ``seat`` (checked: a stale or illegal one raises)."""
        self.game.push(action, seat)

    def can_undo(self) -> bool:
        """Practice mode, during a hand in which you have acted."""
        hand = self.game.hand
        return (self.config.practice and hand is not None and self.in_hand
                and any(s == self.human_seat for s, _ in hand.history))

    def undo(self) -> bool:
        """Practice mode: take back your last action in this hand (and the bots' after it)."""
        if not self.can_undo():
            return False
        hand = self.game.hand
        assert hand is not None
        me = self.human_seat
        while hand.history:
            seat, _ = hand.history[-1]
            self.game.pop()
            if seat == me:
                return True
        return True

    def hint(self, view: View) -> tuple[Action, str]:
        """The expert's choice for your view and why (slow: call off the UI thread)."""
        from ..bots.hints import suggest

        return suggest(view)

    # ------------------------------------------------------------------ money sessions
    def between_hands(self) -> list[str]:
        """Money game: now and then a bot leaves (paid out) or a new one sits down."""
        news: list[str] = []
        s = self.game
        if not isinstance(s, MoneySession) or s.finished or s.in_hand or not s.results:
            return news
        if s.rules.join_leave == "never":
            return news
        roll = self._events.random()
        bots = [n for n in s.players if n != HUMAN]
        limit = min(8, s.rules.player_range[1])
        if roll < 0.12 and len(s.players) > 3 and bots:
            who = self._events.choice(bots)
            payout = s.leave(who)
            news.append(f"{who} leaves the table and is paid {money_text(payout)}.")
        elif roll > 0.88 and len(s.players) < limit:
            used = set(s.players) | set(s.payouts) | set(self.levels)
            name = next((n for n in BOT_NAMES if n not in used), None)
            if name is not None:
                level = self._events.choice(("easy", "medium", "hard"))
                s.join(name)
                self.levels[name] = level
                news.append(f"{name} ({level}) joins the table, to the right of the dealer.")
        self.messages = news
        return news

    def settle(self) -> dict[str, Fraction]:
        assert isinstance(self.game, MoneySession)
        return self.game.settle()

    # ------------------------------------------------------------------ records
    def record_text(self) -> str:
        """The game record, with the players' names and bot levels as header tags."""
        return write_record(self.game, names=None if self.money else self.names,
                            bots=self.levels, practice=self.config.practice)

    def save(self, path: Path | None = None, kind: str = "saves") -> Path:
        """Write the record (default: a new file in the per-user data folder), all at once:
        :class:`~pitchcards.storage.SaveError` (an ``OSError``) if it cannot be written."""
        if path is None:
            folder = ensure_folder(data_dir() / kind)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"{stamp}-{self.rules.name}-{self.seed}.txt"
            i = 1
            while path.exists():
                path = folder / f"{stamp}-{self.rules.name}-{self.seed}-{i}.txt"
                i += 1
        return write_atomically(path, self.record_text())

    @classmethod
    def load(cls, path: Path | str, config: GameConfig | None = None) -> GameController:
        """Resume a saved game (``pitch play --resume FILE``)."""
        text = Path(path).read_text(encoding="utf-8")
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
        if isinstance(game, Match) and (names is None or len(names) != game.players
                                        or HUMAN not in names):
            names = None
        if isinstance(game, MoneySession) and HUMAN not in game.players:
            raise ValueError(f"{path}: this money session has no seat named {HUMAN!r} to play")
        return cls(config, game=game, levels=levels, names=names)


def money_text(amount: Fraction) -> str:
    """Dollars to the cent, with a sign: ``+$0.35``, ``-$1.10``."""
    cents = amount * 100
    whole = int(abs(cents) + Fraction(1, 2))
    sign = "-" if cents < 0 and whole else "+"
    return f"{sign}${whole // 100}.{whole % 100:02d}"

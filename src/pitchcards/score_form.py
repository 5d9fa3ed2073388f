"""The hand form of the scorekeeper: one key per answer, UI-free.

A neutral module: ``pitch score`` in the terminal (:mod:`pitchcards.tui.score_app`) and the
server's score sheets (:mod:`pitchcards.server.scores`) both ask it, so neither face imports the
other.

A hand at a real table is entered in a few keys: who won the bid (a player's number or initial),
the bid (1-4, m for the moon), trump (s h d c), then who took High, Low, Jack (``-``: not out)
and Game (``-``: nobody; ``t``: a tie), and Enter; or, instead of the takers, ``p`` and the
points each player (or team) won, a digit each.  The dealer is known by rotation.  Each answer
is checked as it comes (the winning bid against the auction the rules allow) and the whole hand
once more against the rules before it is scored (:meth:`EnteredHand.enter`), so the form can say
what is wrong in the engine's own words.  Backspace goes back a step.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_SYMBOLS, SUITS, card_name, card_symbol, parse_card
from .deck import deck_model
from .errors import IllegalActionError
from .explain import bid_word
from .outcome import EnteredHand, Outcome
from .rules import MOON, RuleSet
from .scoring import HandResult

__all__ = ["QUESTIONS", "STEPS", "HandForm", "call_choices", "partner_choices", "player_keys",
           "points_question"]

#: Steps, in order (some are skipped when they do not apply).
STEPS = ("bidder", "bid", "trump", "called", "partner", "high", "low", "jack", "game", "tied",
         "points", "swept", "confirm")
QUESTIONS = {
    "bidder": "Who won the bid?", "bid": "Bid?", "trump": "Trump?",
    "called": "Which card did the bidder call?", "partner": "Who held the called card?",
    "high": "Who took High?",
    "low": "Who took Low?", "jack": "Who took the Jack?", "game": "Who took Game?",
    "tied": "Who tied for Game?", "points": "Points won, in seat order?",
    "swept": "Did the bidder's side take all six tricks?",
    "confirm": "Score this hand?",
}
NOBODY = ("-", "0")
#: CP5: the answer "nobody held the called card" (it was not dealt), in words
NOBODY_LABEL = "Nobody (not dealt)"
#: the rank keys of a called card: a k q j, t (or 1) for the ten, 2-9
RANK_KEYS = {"a": "A", "k": "K", "q": "Q", "j": "J", "t": "10", "1": "10",
             **{str(r): str(r) for r in range(2, 10)}}


def call_choices(rules: RuleSet) -> list[int]:
    """CP3: the cards a pitcher may call, as far as a scorekeeper can tell (every card of the
    deck: which ones the pitcher held is not entered)."""
    mask = deck_model(rules).mask
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def partner_choices(rules: RuleSet, players: int, bidder: int) -> list[int]:
    """CP3, CP4: who may have held the card ``bidder`` called: anyone else, and the bidder
    too under ``call_rule="alone_allowed"`` (nobody, when it was not dealt, is always
    possible)."""
    return [s for s in range(players) if s != bidder or rules.call_rule == "alone_allowed"]


def points_question(side: str) -> str:
    """The question of the points step asked a side at a time (the browser's form taps one
    answer per side): ``Points won by Cy?``."""
    return f"Points won by {side}?"


def player_keys(names: Sequence[str]) -> dict[str, int]:
    """Keys that name a player: 1-8 in seat order, and each initial that only one name has."""
    keys = {str(i + 1): i for i in range(len(names))}
    initials = [n[:1].lower() for n in names]
    for seat, initial in enumerate(initials):
        if initial.isalpha() and initials.count(initial) == 1:
            keys[initial] = seat
    return keys


class HandForm:
    """The answers so far for the next hand, and the question now."""

    def __init__(self, rules: RuleSet, names: Sequence[str], dealer: int) -> None:
        self.rules = rules
        self.names = list(names)
        self.dealer = dealer
        self.players = player_keys(names)
        self.step = "bidder"
        self.done: list[str] = []            #: the steps answered, in order
        self.bidder: int | None = None       #: None (answered): everyone passed
        self.bid: int = 0
        self.trump: str | None = None
        self.taken: dict[str, int | None] = {}  #: high, low, jack, game -> seat or None
        self.tied: tuple[int, ...] = ()
        self.swept: bool | None = None
        self.points: tuple[int, ...] | None = None  #: points per side, typed instead
        self.called: str | None = None       #: CP3: the card called ("AS")
        self.rank: str | None = None         #: the called card's rank, its suit still to come
        self.partner: int | None = None      #: CP5: who held it (None: nobody, or unanswered)
        self.result: HandResult | None = None  #: the hand scored, at the confirm step

    # ------------------------------------------------------------------ asking
    def question(self) -> str:
        return QUESTIONS[self.step]

    def choices(self) -> str:
        """The keys the step takes, in words."""
        people = "  ".join(f"{i + 1} {n}" for i, n in enumerate(self.names))
        if self.step == "bidder":
            return people + ("  - all passed" if self._all_pass_allowed() else "")
        if self.step == "bid":
            return "  ".join(("m " if v == MOON else f"{v} ") + bid_word(self.rules, v)
                             for v in self.winning_bids())
        if self.step == "trump":
            return "  ".join(f"{s.lower()} {sym}" for s, sym in zip(SUITS, SUIT_SYMBOLS,
                                                                     strict=True))
        if self.step == "called":
            if self.rank is not None:
                return f"{self.rank} of: s ♠  h ♥  d ♦  c ♣"
            return "the rank: a k q j t(10) 9-2, then the suit"
        if self.step == "partner":
            pitcher = self.bidder if self.bidder is not None else -1
            return "  ".join(f"{i + 1} {self.names[i]}" for i in
                             partner_choices(self.rules, len(self.names), pitcher)) \
                + f"  - {NOBODY_LABEL.lower()}"
        if self.step == "high":
            return people + ("  p points instead" if self._points_allowed() else "")
        if self.step == "points":
            sides = self._sides()
            typed = " ".join(map(str, self.points or ()))
            return (f"a digit 0-4 for each of {', '.join(sides)}"
                    + (f" (so far: {typed})" if typed else ""))
        if self.step == "jack":
            return people + "  - not out"
        if self.step == "game":
            return people + "  - nobody  t tie"
        if self.step == "tied":
            chosen = ", ".join(self.names[s] for s in self.tied)
            return people + f"  Enter done ({chosen or 'none yet'})"
        if self.step == "swept":
            return "y yes  n no"
        return "Enter yes  Backspace change an answer"

    def so_far(self) -> str:
        """The answers given, in words: ``Bob bid 3 in ♥; High Bob, Low Cy``."""
        out = []
        if "bidder" in self.done:
            if self.bidder is None:
                out.append("all passed")
            elif "bid" in self.done:
                out.append(f"{self.names[self.bidder]} bid {bid_word(self.rules, self.bid)}")
            else:
                out.append(f"{self.names[self.bidder]} won the bid")
        if self.trump is not None:
            out[-1] += f" in {SUIT_SYMBOLS[SUITS.index(self.trump)]}"
        if self.called is not None:
            out[-1] += f", called {card_symbol(parse_card(self.called))}"
            if "partner" in self.done:
                out[-1] += (" (not dealt)" if self.partner is None else
                            f" ({self.names[self.partner]})")
        taken = []
        for key, seat in self.taken.items():
            word = {"jack": "not out", "game": "nobody (tied)"}.get(key, "-")
            if key == "game" and self.tied:
                word = "tied (" + ", ".join(self.names[s] for s in self.tied) + ")"
            taken.append(f"{key.capitalize()} {self.names[seat] if seat is not None else word}")
        if taken:
            out.append(", ".join(taken))
        if self.points:
            out.append("points " + ", ".join(f"{side} {p}" for side, p in zip(
                self._sides(), self.points, strict=False)))
        if self.swept is not None:
            out.append("all six tricks" if self.swept else "not every trick")
        return "; ".join(out)

    # ------------------------------------------------------------------ answering
    def key(self, key: str) -> str | None:
        """Take a key; None when it was an answer, else why it was not."""
        step = self.step
        if step == "called" and key == "backspace" and self.rank is not None:
            self.rank = None  # the rank typed, its suit not yet
            return None
        if key == "backspace" and not (step == "points" and self.points):
            return self.back()
        if step == "high" and key == "p" and self._points_allowed():
            self.done.append("high")
            self.step, self.points = "points", ()
            return None
        if step == "points" and key == "backspace" and self.points:
            self.points = self.points[:-1]
            return None
        if step == "points":
            return self._point(key)
        if step in ("bidder", "high", "low", "jack", "game", "tied"):
            return self._player(step, key)
        if step == "bid":
            value = MOON if key == "m" else int(key) if key in ("1", "2", "3", "4") else None
            if value is None or value not in self.winning_bids():
                return (f"{key!r} is not a bid {self._bidder_name()} could win with here: "
                        f"{self.choices()}")
            self.bid = value
        elif step == "trump":
            suit = {"s": "S", "h": "H", "d": "D", "c": "C"}.get(key.lower())
            if suit is None:
                return "Trump is s, h, d or c"
            self.trump = suit
        elif step == "called":
            return self._called(key)
        elif step == "partner":
            pitcher = self.bidder if self.bidder is not None else -1
            if key in NOBODY:
                self.partner = None
            else:
                seat = self.players.get(key.lower())
                if seat is None or seat not in partner_choices(self.rules, len(self.names),
                                                                pitcher):
                    return f"{key!r} cannot have held the called card: {self.choices()}"
                self.partner = seat
        elif step == "swept":
            if key not in ("y", "n"):
                return "y or n"
            self.swept = key == "y"
        elif step == "confirm":
            return None if key == "enter" else "Enter scores the hand; Backspace changes it"
        return self._advance()

    def _player(self, step: str, key: str) -> str | None:
        if step == "tied":
            if key == "enter":
                if len(self.tied) < 2:
                    return "Press the players who tied (two or more), then Enter"
                return self._advance()
            seat = self.players.get(key.lower())
            if seat is None:
                return f"{key!r} is not a player: {self.choices()}"
            if seat not in self.tied:
                self.tied += (seat,)
            return None
        if key in NOBODY and step in ("jack", "game"):
            self.taken[step] = None
        elif key in NOBODY and step == "bidder" and self._all_pass_allowed():
            self.bidder = None
        elif key == "t" and step == "game" and "t" not in self.players:
            self.taken["game"] = None
            if self.rules.game_tie != "no_point":  # the rules may still give the point
                self.done.append("game")
                self.step = "tied"
                return None
        else:
            seat = self.players.get(key.lower())
            if seat is None:
                return f"{key!r} is not a player here: {self.choices()}"
            if step == "bidder":
                self.bidder = seat
            else:
                self.taken[step] = seat
        return self._advance()

    def _called(self, key: str) -> str | None:
        """CP3: the called card, its rank key then its suit key."""
        if self.rank is None:
            rank = RANK_KEYS.get(key.lower())
            if rank is None:
                return f"{key!r} is not a rank: {self.choices()}"
            self.rank = rank
            return None
        suit = {"s": "S", "h": "H", "d": "D", "c": "C"}.get(key.lower())
        if suit is None:
            return f"{key!r} is not a suit: {self.choices()}"
        card = parse_card(self.rank + suit)
        if card not in call_choices(self.rules):
            return f"{card_name(card)} is not a card of this deck"
        self.called, self.rank = card_name(card), None
        return self._advance()

    def _point(self, key: str) -> str | None:
        """One side's points, a digit; the last one moves on."""
        if key not in ("0", "1", "2", "3", "4"):
            return "Points are a digit, 0 to 4, for each in seat order"
        self.points = (*(self.points or ()), int(key))
        if len(self.points) < len(self._sides()):
            return None
        return self._advance()

    def back(self) -> str | None:
        """Go back a step, forgetting its answer."""
        if not self.done:
            return "This is the first question"
        step = self.done.pop()
        if step == "bidder":
            self.bidder = None
        elif step == "bid":
            self.bid = 0
        elif step == "trump":
            self.trump = None
        elif step == "called":
            self.called = self.rank = None
        elif step == "partner":
            self.partner = None
        elif step == "tied":
            self.tied = ()
        elif step == "swept":
            self.swept = None
        elif step == "points":
            self.points = ()
        else:
            self.taken.pop(step, None)
        if self.step == "tied":
            self.tied = ()
        if self.step == "points":  # back out of the points, to High
            self.points = None
        self.step = step
        self.result = None
        return None

    def _advance(self) -> str | None:
        """The next question, skipping those that do not apply; at the end, the whole hand is
        checked and scored (or the engine's refusal is said and the form stays)."""
        self.done.append(self.step)
        for step in STEPS[STEPS.index(self.step) + 1:]:
            if self._applies(step):
                self.step = step
                break
        if self.step == "confirm":
            try:
                hand = EnteredHand.enter(self.rules, len(self.names), self.dealer,
                                         self.outcome(), self.names)
            except IllegalActionError as exc:
                self.back()
                return str(exc)
            self.result = hand.result
        return None

    def _applies(self, step: str) -> bool:
        if self.bidder is None and self.rules.all_pass == "redeal":
            return step == "confirm"  # thrown in: nothing more to say
        if step == "bid":
            return self.bidder is not None
        if step in ("called", "partner"):  # CP3: the pitcher calls a partner
            return self.rules.calls_partner
        if step in ("low", "jack", "game"):
            return self.points is None  # points were typed instead
        if step in ("tied", "points"):
            return False  # reached only from the game step ('t') or High ('p')
        if step == "swept":
            return self._swept_decides()
        return True

    def _swept_decides(self) -> bool:
        """The pitcher's side took all four points where a moon is at stake (A-R6.2)."""
        n = len(self.names)
        pitcher = self.bidder if self.bidder is not None else (self.dealer + 1) % n
        if self.points is not None:
            mine = self.points[self._side(pitcher)] == 4
        else:
            took = [self.taken.get(k) for k in ("high", "low", "jack", "game")]
            mine = all(s is not None and self._side(s) == self._side(pitcher) for s in took)
        return mine and (self.bid == MOON or not self.rules.moon_must_be_bid)

    def _side(self, seat: int) -> int:
        if self.rules.calls_partner and seat == self.partner and self.bidder is not None:
            return self.rules.side_of(self.bidder)  # CP6: the partner is the bidder's side
        return self.rules.side_of(seat)

    def _points_allowed(self) -> bool:
        """Points may be typed instead of the takers ('p' names no player; not with a call,
        whose sides change each hand, CP6)."""
        return "p" not in self.players and not self.rules.calls_partner

    def _sides(self) -> list[str]:
        count = self.rules.side_count(len(self.names))
        return [self.side_label(s) for s in range(count)]

    def side_label(self, side: int) -> str:
        """A side's name: the player, or in partnerships ``Ann&Cy``."""
        if self.rules.partnership_mode:
            return f"{self.names[side]}&{self.names[side + self.rules.teams]}"
        return self.names[side]

    # ------------------------------------------------------------------ the hand
    def outcome(self) -> Outcome:
        """The answers as an :class:`Outcome`."""
        n = len(self.names)
        if self.bidder is None and self.rules.all_pass == "redeal":
            return Outcome(bids=("pass",) * n)
        bidder = self.bidder if self.bidder is not None else (self.dealer + 1) % n  # H4
        bid: int | str = "moon" if self.bid == MOON else self.bid
        return Outcome(bidder=bidder, bid=bid, trump=self.trump, high=self.taken.get("high"),
                       low=self.taken.get("low"), jack=self.taken.get("jack"),
                       game=self.taken.get("game"), game_tied=self.tied, swept=self.swept,
                       points=self.points, called=self.called,
                       partner=self.partner if self.called is not None else None)

    def winning_bids(self) -> list[int]:
        """The bids the chosen bidder could have won with, under these rules."""
        bidder = self.bidder
        out = []
        for value in range(1, self.rules.max_bid + 1):
            probe = Outcome(bidder=bidder, bid="moon" if value == MOON else value, trump="S",
                            high=bidder, low=bidder, jack=bidder, game=bidder, swept=True,
                            called="AS" if self.rules.calls_partner else None)  # CP4: alone
            try:
                EnteredHand.enter(self.rules, len(self.names), self.dealer, probe)
            except IllegalActionError:
                continue
            out.append(value)
        return out

    def _all_pass_allowed(self) -> bool:
        """Everyone may pass: the cards are thrown in, or the eldest pitches (not forced)."""
        return self.rules.all_pass in ("redeal", "eldest_pitches_no_contract")

    def _bidder_name(self) -> str:
        return self.names[self.bidder] if self.bidder is not None else "the bidder"

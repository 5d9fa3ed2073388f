"""What your keys and clicks have chosen, and what Enter would do (UI-free: no Textual).

Keys only *choose* a bid, a pitch or a card; Enter (or a second click on the same thing) does
it (issue 10, item 1).  :class:`Choices` holds what is chosen — a card (an index into your cards
as shown), an auction choice (a bid, a pass, a pitch, or naming trump), the last thing clicked —
and turns each key into a new choice and, when a key chooses nothing, the words that say why.
The screen (:mod:`.app`) only draws what it holds and says what it answers; every choice is
checked against the View's ``legal_actions``: the engine decides, nothing here restates a rule.

Each method answers what the message line should now say: ``None`` (leave it), ``""`` (clear
it) or the words (a red :class:`~rich.text.Text` when a key was refused).
"""

from __future__ import annotations

from rich.text import Text

from ..actions import BID, BIDS, DISCARD, PASS, PITCH, PLAY, TRUMP, Action
from ..cards import SUITS, card_suit
from ..rules import MOON
from ..views import View
from .text import action_text, sorted_hand

__all__ = [
    "BAR_KINDS",
    "Choices",
    "Said",
    "bar_action",
    "bid_choices",
    "bid_key",
    "bid_keys",
    "legal_bids",
    "legal_calls",
    "legal_cards",
    "offered",
    "shown_cards",
]

#: What the bid bar offers: bids and passes, and naming trump (T5).
BAR_KINDS = ("pass", "bid", "trump")
#: The keys of the call (CP3), as the prompt and the refusals say them.
CALL_KEYS = "←→ goes through the cards you may call, 1-4 through a suit's (♣ ♦ ♥ ♠)"
#: The message line's words: None leaves it as it is, "" clears it.
Said = Text | str | None


def shown_cards(view: View) -> list[int]:
    """Your cards as shown: trumps together once trump is known (T2, T3)."""
    return sorted_hand(view)


def legal_cards(view: View) -> set[int]:
    """The cards the View says may be played, pitched or discarded now."""
    return {a.card for a in view.legal_actions
            if a.kind in ("play", "pitch", "discard") and a.card is not None}


def legal_calls(view: View) -> list[Action]:
    """The calls the View says the pitcher may make now (CP3), in card order: clubs, diamonds,
    hearts, spades, then the jokers."""
    return sorted((a for a in view.legal_actions if a.kind == "call"),
                  key=lambda a: a.card if a.card is not None else -1)


def legal_bids(view: View) -> set[str]:
    """The bar's keys of the bids, passes and suits the View says are legal now."""
    return {bid_key(a) for a in view.legal_actions if a.kind in BAR_KINDS}


def bid_key(action: Action) -> str:
    """The bar's key of a bid: ``pass``, ``1``..``10``, ``moon``; ``trump-H`` (T5)."""
    if action.kind == "pass":
        return "pass"
    if action.kind == "trump" and action.suit is not None:
        return f"trump-{SUITS[action.suit]}"
    return "moon" if action == BID[MOON] else str(action.bid)


def bar_action(key: str) -> Action:
    """The action of a bar key (:func:`bid_key` read back; ``bid 5``..``bid 10``: T8)."""
    if key == "pass":
        return PASS
    if key.startswith("trump-"):
        return TRUMP[SUITS.index(key[-1])]
    return BID[MOON] if key == "moon" else BIDS[int(key)]


def offered(view: View) -> set[str]:
    """The bar's buttons under these rules: pass, the bid ladder, the moon; or the suits while
    the pitcher names trump (T5)."""
    if view.phase == "declare":
        return {f"trump-{s}" for s in SUITS}
    rules = view.rules
    keys = {"pass", *(str(v) for v in rules.bid_values if v != "moon")}
    if rules.moon != "none":
        keys.add("moon")
    return keys


def _number_keys(numbers: list[int]) -> str:
    """"2-4", "4-9 or 0 (10)": the digit keys of numeric bids (0 is 10: T8)."""
    low = [n for n in numbers if n < 10]
    said = "" if not low else str(low[0]) if len(low) == 1 else f"{low[0]}-{low[-1]}"
    if 10 in numbers:
        said += (", " if said else "") + "0 (10)"
    return said


def bid_keys(view: View) -> str:
    """The keys that choose the bids legal now, as the legend says them: "p, 2-4 or m"."""
    keys = sorted(bid_key(a) for a in view.legal_actions if a.kind in ("pass", "bid"))
    numbers = sorted(int(k) for k in keys if k.isdigit())
    parts = ["p"] if "pass" in keys else []
    if numbers:
        parts.append(_number_keys(numbers))
    if "moon" in keys:
        parts.append("m")
    if not parts:
        return "no key"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def bid_choices(view: View) -> str:
    """The bids legal now as words: "you may pass, bid 3 or bid 4"."""
    words = [action_text(view.rules, a).plain for a in view.legal_actions
             if a.kind in ("pass", "bid")]
    if not words:
        return "only a card may be pitched"
    return "you may " + (words[0] if len(words) == 1 else
                         ", ".join(words[:-1]) + " or " + words[-1])


def _refused(words: str) -> Text:
    return Text(words, style="red")


class Choices:
    """The card, the auction choice and the last click of the seat at the keyboard."""

    def __init__(self) -> None:
        self.selected: int | None = None    #: the card chosen (index into your cards)
        self.choice: Action | None = None   #: the auction: the bid, pass or pitch chosen
        #: what the last mouse click chose ("card3", "bid-2"): only a second click on the
        #: same thing acts, never one on a card that was chosen for you or by a key
        self.clicked: str | None = None

    def reset(self) -> None:
        """Nothing chosen (a new game, an undo, the next hand)."""
        self.selected = None
        self.choice = None

    def pick(self, view: View, index: int) -> Said:
        """Choose your card ``index``: to play it, or in the auction to pitch it (nothing is
        done until Enter)."""
        if view.phase == "declare":  # T5: the cards wait until trump is named
            return _refused("Name trump first: 1-4 chooses a suit.")
        if view.phase == "call":  # CP3: the call names a card you do not hold
            return _refused("Call a card first: " + CALL_KEYS + ".")
        self.selected = index
        self.clicked = None
        if view.phase == "auction":
            card = shown_cards(view)[index]
            if PITCH[card] in view.legal_actions:
                self.choice = PITCH[card]
            else:
                self.choice = None
                return _refused("You may not pitch a card now: " + bid_keys(view)
                                + " chooses a bid.")
        return None

    def move(self, view: View, step: int) -> Said:
        """←/→: the next card to the left or right (round the hand); in the call, the next
        card that may be called (CP3)."""
        if view.phase == "call":
            return self._step_call(view, legal_calls(view), step)
        cards = shown_cards(view)
        if not cards:
            return None
        return self.pick(view, 0 if self.selected is None else
                         (self.selected + step) % len(cards))

    def digit(self, view: View, n: int) -> Said:
        """In the auction, choose bid ``n``; in play, choose your ``n``th card (never more:
        Enter confirms)."""
        if view.phase == "declare":  # T5: 1-4 choose ♣ ♦ ♥ ♠
            return self.choose_bid(view, f"trump-{SUITS[n - 1]}") if n <= len(SUITS) else None
        if view.phase == "call":  # CP3: 1-4 go through the calls of ♣ ♦ ♥ ♠, 5 the jokers
            suit = [a for a in legal_calls(view) if a.card is not None
                    and card_suit(a.card) == n - 1]
            if not suit:
                return _refused("No card of that suit may be called: " + CALL_KEYS + ".")
            return self._step_call(view, suit, 1)
        if view.phase == "auction":
            if str(n) not in offered(view):  # 5 and 6 pick cards in play: no bid of 4-point
                self.choice = None
                return _refused(f"There is no bid of {n}: {bid_keys(view)} chooses a bid.")
            return self.choose_bid(view, str(n))
        if n - 1 < len(shown_cards(view)):
            return self.pick(view, n - 1)
        return None

    def choose_bid(self, view: View, key: str) -> Said:
        """Choose the bar's ``key`` (a bid, pass, the moon or a suit) if it is legal now."""
        if view.phase not in ("auction", "declare"):
            return None
        action = bar_action(key)
        self.clicked = None
        if action not in view.legal_actions:
            self.choice = None
            return _refused(f"You cannot {action_text(view.rules, action).plain} now: "
                            + bid_choices(view) + ".")
        self.choice = action
        self.selected = None
        return ""

    def _step_call(self, view: View, calls: list[Action], step: int) -> Said:
        """Choose the call ``step`` after the one chosen among ``calls`` (the first if the
        chosen one is not among them)."""
        if not calls:
            return None
        at = calls.index(self.choice) if self.choice in calls else -1
        self.choice = calls[0 if at < 0 and step > 0 else (at + step) % len(calls)]
        self.selected = None
        self.clicked = None
        return ""

    def clear(self) -> bool:
        """Esc: drop the auction choice (True if there was one)."""
        if self.choice is None:
            return False
        self.reset()
        return True

    def confirm(self, view: View) -> Action | str:
        """Enter: the action chosen, or what to choose first."""
        if view.phase == "call":
            if self.choice is None or self.choice not in view.legal_actions:
                return "Choose the card to call first: " + CALL_KEYS + "."
            return self.choice
        if view.phase in ("auction", "declare"):
            if self.choice is None:
                return ("Choose first: 1-4 for a suit." if view.phase == "declare" else
                        "Choose first: " + bid_keys(view) + " for a bid"
                        + (", ←→ for a card to pitch" if any(
                            a.kind == "pitch" for a in view.legal_actions) else "") + ".")
            return self.choice
        cards = shown_cards(view)
        if self.selected is None or self.selected >= len(cards):
            return f"Choose a card first (←/→ or 1-{min(len(cards), 9)})."
        card = cards[self.selected]
        return DISCARD[card] if view.phase == "discard" else PLAY[card]

    def second_click_on_card(self, view: View, index: int) -> bool:
        """A click on card ``index`` that repeats the last one: it confirms."""
        return self.clicked == f"card{index + 1}" and self.selected == index and (
            view.phase in ("play", "discard") or self.choice is not None)

    def click_card(self, view: View, index: int) -> Said:
        """A first click on card ``index``: choose it."""
        said = self.pick(view, index)
        self.clicked = f"card{index + 1}"
        return said

    def second_click_on_bid(self, key: str) -> bool:
        """A click on the bar's ``key`` that repeats the last one: it confirms."""
        return self.clicked == f"bid-{key}" and self.choice is not None and \
            bid_key(self.choice) == key

    def click_bid(self, view: View, key: str) -> Said:
        """A first click on the bar's ``key``: choose it."""
        said = self.choose_bid(view, key)
        self.clicked = f"bid-{key}"
        return said

    def take_hint(self, view: View, action: Action) -> None:
        """Choose the hint's action (Enter takes it; anything else chooses again)."""
        if view.phase in ("auction", "declare", "call"):
            self.choice = action
            self.selected = None
        if action.card is not None:
            cards = shown_cards(view)
            if action.card in cards:
                self.selected = cards.index(action.card)

    def keep_a_legal_card(self, view: View) -> None:
        """Your turn in play: keep the card chosen if it may be played, else choose the first
        one that may."""
        legal = legal_cards(view)
        cards = shown_cards(view)
        if view.phase == "play" and (self.selected is None or self.selected >= len(cards)
                                     or cards[self.selected] not in legal):
            self.selected = next((i for i, c in enumerate(cards) if c in legal), None)

    def fit(self, cards: int) -> None:
        """The hand has ``cards`` cards now: a chosen card beyond them becomes the last."""
        if self.selected is not None and self.selected >= cards:
            self.selected = cards - 1 if cards else None

    def acted(self, action: Action, yours: bool) -> None:
        """An action was taken: the auction choice and the click are spent; after your
        discard the next one is chosen afresh (T4)."""
        self.choice = None
        self.clicked = None
        if yours and action.kind == "discard":
            self.selected = None

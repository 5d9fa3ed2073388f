"""Shared helpers for the rule tests: stacked deals and scripted hands.

Every test builds the exact situation it needs from a stacked deal (``cards=[...]``: seat 0 first,
six cards each) and a script of actions.  Scripts are written as comma-separated actions
(``"bid 2, pass, pass"``); a chunk made only of cards (``"AS 2H 3D"``) plays those cards in turn,
starting with the seat to act, so one chunk per trick reads like the score sheet.

Nothing here reads the specification at run time: the tests are self-contained.
"""

from __future__ import annotations

import dataclasses
import random
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest

import pitchcards as pc
from pitchcards.bots.expert import EXPERT, HARD

_VERBS = ("pass", "bid", "pitch", "play", "call", "trump", "discard")
_RANKS = "23456789TJQKA"


def rules(variant: str | pc.RuleSet = "auction", **options: Any) -> pc.RuleSet:
    """A named variant (or a rule set), with some options changed."""
    base = variant if isinstance(variant, pc.RuleSet) else pc.find_variant(variant)
    return base.replace(**options) if options else base


def deal(cards: Sequence[str], variant: str | pc.RuleSet = "auction", dealer: int = 0,
         **options: Any) -> pc.Hand:
    """A stacked hand: ``cards[seat]`` is that seat's six cards."""
    return pc.Hand.deal(rules(variant, **options), players=len(cards), dealer=dealer,
                        cards=list(cards))


def actions(*script: str) -> list[str]:
    """Expand a script into action texts (see the module docstring)."""
    out: list[str] = []
    for chunk in script:
        for item in chunk.split(","):
            item = item.strip()
            if not item:
                continue
            if item.split()[0].lower() in _VERBS:
                out.append(item)
            else:
                out.extend("play " + card for card in item.split())
    return out


def play(target: Any, *script: str) -> Any:
    """Push a script onto a Hand, Match or MoneySession; returns ``target``."""
    for action in actions(*script):
        target.push(action)
    return target


def finish(h: pc.Hand) -> pc.Hand:
    """Play the hand out, each seat taking its first legal action."""
    while h.seat_to_act is not None:
        h.push(h.legal_actions()[0])
    return h


def legal(h: pc.Hand) -> set[str]:
    """The legal actions now, as texts."""
    return {str(a) for a in h.legal_actions()}


def names(mask: int) -> set[str]:
    """The names of the cards in a mask."""
    return {pc.card_name(c) for c in range(52) if mask >> c & 1}


def held(h: pc.Hand, seat: int) -> set[str]:
    return names(h.hand_of(seat))


def state(h: pc.Hand) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    return (list(h.history), [str(a) for a in h.legal_actions()], h.seat_to_act, h.phase,
            h.trump, h.pitcher, h.contract, h.high_bid, h.high_bidder,
            [h.hand_of(s) for s in range(h.players)], h.current_trick(),
            h.completed_tricks(), h.result)


def assert_refused(h: pc.Hand, action: Any, error: type[Exception] = pc.IllegalActionError,
                   seat: int | None = None) -> pytest.ExceptionInfo[Any]:
    """``action`` raises ``error`` and changes nothing."""
    before = state(h)
    with pytest.raises(error) as info:
        if seat is None:
            h.push(action)
        else:
            h.push(action, seat=seat)
    assert state(h) == before
    return info


def fill(*partial: str, suits: str = "CDH") -> list[str]:
    """Complete each seat's cards to six with the lowest unused cards of ``suits``.

    Filler cards are handed out from the low ranks of the first suit upwards, seat by seat.
    """
    used = {c.upper() for hand in partial for c in hand.split()}
    pool = [r + s for s in suits for r in _RANKS if r + s not in used]
    out = []
    for hand in partial:
        cards = hand.split()
        while len(cards) < 6:
            cards.append(pool.pop(0))
        out.append(" ".join(cards))
    return out


def session(names: Sequence[str] = ("A", "B", "C"), dealer: int = 0,
            **options: Any) -> pc.MoneySession:
    """A money-game session (rule set A) with some options changed."""
    return pc.MoneySession(rules("money", **options), players=list(names), dealer=dealer)


def play_hand(target: Any, cards: Sequence[str], script: Sequence[str]) -> pc.HandResult:
    """Deal a stacked hand in a Match or MoneySession, play a script, return its result."""
    target.deal(cards=cards)
    play(target, *script)
    return target.results[-1]


def seats_in(history: Iterable[tuple[int, Any]]) -> list[int]:
    return [seat for seat, _ in history]


# ---------------------------------------------------------------- shared stacked deals
# Four players, dealer 0, seat 1 bids and every hand point goes to a different seat:
# High AS held by seat 1; Low 2S (held by seat 1) captured by seat 3; Jack captured by seat 2
# (which held it); Game to seat 0 (counts 14, 7, 1, 0).
FOUR_WAY = ["2C 6D AH TD KH 3C", "2S AS 4C 5C 6C 7C", "3S JS 2H 8C 4H 9C",
            "4S 5D 3H 7D 5H 8H"]
FOUR_WAY_PLAY = ("2S 3S 4S 2C", "5D 6D 4C JS", "2H 3H AH 5C", "TD 6C 8C 7D", "KH AS 4H 5H",
                 "7C 9C 8H 3C")

# Three players, dealer 0: seat 1 bids, takes High (AS) and Game (count 19); seat 2 takes Low
# (the 2S, captured by its JS) and Jack.  Points (0, 2, 2).
H_B = ["2H 3H 4H 5H 6H 7H", "2S AS TC KC QC 9H", "JS 3D 4D 5D 6D 7D"]
H_B_PLAY = ("2S JS 2H", "3D 3H AS", "TC 4D 4H", "KC 5D 5H", "QC 6D 6H", "9H 7D 7H")

# Three players, dealer 0: seat 1 holds the top five spades and the 2S and takes all six tricks
# and all four points (a moon / smudge when bid).
SWEEP = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2S", "2H 3H 4H 5H 6H 7H"]
SWEEP_PLAY = ("AS 2H 2D", "KS 3H 3D", "QS 4H 4D", "JS 5H 5D", "TS 6H 6D", "2S 7H 7D")

# The same, but seat 1's last card is the 2H, which loses the last trick to seat 2's 8H:
# four points (the TS is Low) in five tricks.
FIVE_OF_SIX = ["2D 3D 4D 5D 6D 7D", "AS KS QS JS TS 2H", "3H 4H 5H 6H 7H 8H"]
FIVE_OF_SIX_PLAY = ("AS 3H 2D", "KS 4H 3D", "QS 5H 4D", "JS 6H 5D", "TS 7H 6D", "2H 8H 7D")

# Three hands for players A, B, C (seats 0, 1, 2) dealt by seats 0, 1, 2 in turn, with score
# changes (4, 0, 0), (3, 1, 0) and (0, 1, -3): the scores end at [7, 2, -3] (E24).
E24_HANDS = [
    (["AS KS QS JS TS 2S", "2H 3H 4H 5H 6H 7H", "2D 3D 4D 5D 6D 7D"],
     ("pass, pass, bid 2", "AS 2H 2D", "KS 3H 3D", "QS 4H 4D", "JS 5H 5D", "TS 6H 6D",
      "2S 7H 7D")),
    (["AS JS TC 9H 7C 8C", "KS 2S 3D 4D 5D 6D", "2H 3H 4H 5H 6H 7H"],
     ("pass, bid 2, pass", "AS KS 2H", "TC 3D 3H", "9H 2S 4H", "4D 5H 7C", "5D 6H 8C",
      "6D 7H JS")),
    (["2D 3D 4D 5D 6D 7D", "TH 8H 9H 7C 8C 9C", "AS 2S 3H 4H 5H 6H"],
     ("pass, bid 2, bid 3, pass", "AS 2D 7C", "2S 3D 8C", "3H 4D TH", "8H 4H 5D", "9H 5H 6D",
      "9C 6H 7D")),
]
E24_DELTAS = [(4, 0, 0), (3, 1, 0), (0, 1, -3)]

# E26: hand 1 for P (seat 0, dealer) and Q: d = (+3, +1).  Hand 2 for P, R, Q (R joined to the
# right of the dealer Q): P bids 2 and is set, R takes High and Low, Q the Game: (-2, +2, +1).
E26_HAND1 = (["AS JS 9H TC 8C 7C", "KS 2S 3D 4D 5D 6D"],
             ("pass, bid 2", "AS KS", "TC 3D", "9H 2S", "4D 7C", "5D 8C", "6D JS"))
E26_HAND2 = (["5H 2C 3C 4C 6C 7C", "AH 2D 3D 4D 5D 6D", "TD KS QS 8S 9S 7S"],
             ("bid 2, pass, pass", "5H AH 7S", "2D TD 2C", "KS 3C 3D", "QS 4C 4D", "8S 6C 5D",
              "9S 7C 6D"))


#: Each seat holds six cards of one suit (seat 0 spades, 1 hearts, 2 diamonds, 3 clubs).
SUITED = ["AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AD KD QD JD TD 9D", "AC KC QC JC TC 9C"]
CENT = Fraction(1, 100)
TEN_CENTS = Fraction(1, 10)


def random_positions(rules: pc.RuleSet, players: int, seed: int) -> Iterator[pc.Hand]:
    """Every position of one random hand (the hand itself, advanced in place)."""
    rng = random.Random(seed)
    h = pc.Hand.deal(rules, players, dealer=seed % players, seed=seed)
    while not h.is_over:
        yield h
        acts = h.legal_actions()
        h.push(acts[int(rng.random() * len(acts))])


def mutate_record(text: str, edits: Sequence[tuple[str, int, str]]) -> str:
    """``text`` with its lines damaged: each edit ``(op, i, arg)`` drops, repeats (``dup``),
    swaps (with line ``int(arg)``), replaces a word (``token``, by ``arg``), inserts ``arg`` or
    (any other op) cuts the text short at character ``i``."""
    lines = text.split("\n")
    for op, i, arg in edits:
        k = i % len(lines)
        if op == "drop":
            del lines[k]
        elif op == "dup":
            lines.insert(k, lines[k])
        elif op == "swap":
            m = int(arg) % len(lines)
            lines[k], lines[m] = lines[m], lines[k]
        elif op == "token":
            words = lines[k].split(" ")
            words[i % len(words)] = arg
            lines[k] = " ".join(words)
        elif op == "insert":
            lines.insert(k, arg)
        else:
            joined = "\n".join(lines)
            lines = joined[:i % (len(joined) + 1)].split("\n")
        if not lines:
            lines = [""]
    return "\n".join(lines)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter (to see what a plain import loads)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)


#: Counted search budgets for tests where the search bots' own play is not under test (the
#: terminal game's whole matches): a few sampled deals a decision and no wall-clock stop
#: (``time_limit`` far beyond any decision), so a move never depends on the machine's load and
#: a match takes seconds, not minutes.  The bots' play itself is tested with their real budgets
#: in tests/test_expert.py and tests/test_bots*.py.
SMALL_HARD = dataclasses.replace(HARD, worlds=2, bid_worlds=2, solve_cards=4, max_nodes=500,
                                 time_limit=3600.0)
SMALL_EXPERT = dataclasses.replace(EXPERT, worlds=3, bid_worlds=3, worlds_max=0,
                                   bid_worlds_max=0, solve_cards=4, max_nodes=500,
                                   time_limit=3600.0)


#: Every attribute of a Hand: its ``__slots__``, or in the compiled build (which has none) the
#: attribute list mypyc keeps (issue 35).
HAND_SLOTS: tuple[str, ...] = (pc.Hand.__dict__.get("__slots__")
                               or pc.Hand.__mypyc_attrs__)  # type: ignore[attr-defined]


def python_lines(call: Callable[[], Any]) -> int:
    """How many lines of Python ``call()`` runs: a measure of work that does not depend on the
    machine or its load (used to tell linear from quadratic without a clock).  An exception
    ends the count (the work until a refusal is what is measured).  The tracer that was set
    before (coverage's, a debugger's) is put back after: setting none would stop coverage for
    every later test of the process."""
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    except Exception:
        pass
    finally:
        sys.settrace(before)
    return count


def interrupted(child: subprocess.Popen[str], ready: Callable[[], None],
                timeout: float) -> tuple[str, str]:
    """Once ``ready()`` returns (it reads what the child said so far), press Ctrl+C in the
    child: its output from then on.  A child that outlives ``timeout`` is killed (the caller's
    ``communicate`` error says so)."""
    try:
        ready()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=timeout)
        return out, err
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()

"""The fitted bid model: what another seat's bids and passes say about its cards (four-point games).

The sampler (:func:`~pitchcards.bots.sampler.sample_worlds` with ``bid_model="fitted"``) weights
each sampled deal by how likely the auction is given the sampled cards.  The hand-set model
(:func:`~pitchcards.bots.sampler.bid_likelihood`) guesses that likelihood with a sigmoid; this one
is a multinomial logistic regression fitted to self-play auctions of the ``expert`` and the
``heuristic`` (``benchmarks/fit_bid_model.py``).

**The model.**  Every auction decision with a choice is a choice of a *level* among the legal
ones: 0 = pass, 1..4 = a bid (a pitch is a bid of 4, B-R4.3), 5 = the moon/smudge.  Level *l* > 0
scores ``COEF[l] . z`` (pass scores 0) and P(level) is the softmax of the scores over the legal
levels only, so a pass over a high bid of 3 says "not worth a 4", no more.  ``z`` is the intercept,
the bidder's hand (:data:`HAND_FEATURES`) and the auction state (:data:`STATE_FEATURES`).  The
hand features are of the suit the seat bids on: its best suit, or the trump it named once known.

The ten-point family keeps :func:`~pitchcards.bots.sampler.ten_point_likelihood` (the heuristic's
own bids as the model) under either name: no self-play fit was made for it.

Standard library only at run time; the constants below are written by the fitting script.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..actions import PASS_ID, Action
from ..cards import SUITS
from ..hand import Hand
from ..rules import RuleSet
from ..views import View
from .hand_features import POINT_CARDS, estimate_points, suit_estimate, suit_strength

__all__ = ["COEF", "HAND_FEATURES", "LEVELS", "STATE_FEATURES", "Decision", "auction_decisions",
           "features", "fitted_likelihood", "level_of", "level_probs", "likelihood_of",
           "state_scores"]

#: the bid levels a decision may choose besides passing (5 = the moon or smudge)
LEVELS = (1, 2, 3, 4, 5)
#: the bidder's cards, in the suit it bids on: the hand-set estimate (:func:`.suit_strength`),
#: the heuristic's chances of High, Low, Jack and Game, the number of trumps / 6, and "no A, K, Q,
#: J, 10 or 2 anywhere" (the heuristic never bids such a hand)
HAND_FEATURES = ("strength", "p_high", "p_low", "p_jack", "p_game", "trumps", "no_points")
#: the auction state: dealer, position from the eldest (0) to the dealer (1), the high bid / 4,
#: someone has bid, the partner holds the high bid, the seat may equal it (a dealer's steal), the
#: seat bid before (continuous auction), table size - 4, partnership, continuous auction
STATE_FEATURES = ("dealer", "position", "high", "opened", "partner_high", "steal", "rebid",
                  "players", "partners", "continuous")

# --- fitted constants: written by benchmarks/fit_bid_model.py --write (do not edit by hand) ---
# command: flock /tmp/pitch-bench.lock .venv/bin/python benchmarks/fit_bid_model.py --heuristic-
# deals 1500 --expert-deals 70 --l2 1.0 --write; seeds: SEED0 = 600000 (see the script); 55224
# decisions (1236 expert, 53988 heuristic), fitted on all of them after the held-out report (fit
# time: 9 min for the data under the lock, 1 min for the fits) columns: bias, strength, p_high,
# p_low, p_jack, p_game, trumps, no_points, dealer, position, high, opened, partner_high, steal,
# rebid, players, partners, continuous
COEF: dict[int, tuple[float, ...]] = {
    1: (-1.0176, -0.7872, 2.5323, 3.8159, 1.5611, 1.3277, -0.5541, -1.2839, 1.3059,
        -0.6192, 0.3265, 1.3059, 0.0195, 1.3059, 0.0000, 0.2907, -2.8471, 0.0000),
    2: (-6.8555, -0.6724, 6.6188, 4.4289, 3.7513, 3.8957, 3.0432, 0.4135, 1.1225,
        -0.2695, 4.1665, -2.7589, -1.6448, -0.4544, 0.0000, 0.2185, -2.1167, -1.1389),
    3: (-13.7636, -0.3398, 8.8366, 6.3578, 5.6031, 6.1995, 3.7176, -0.6721, -0.8108,
        -1.0096, -1.5080, -1.5808, -0.5017, 0.7612, 0.2963, -0.0804, -2.1828, -2.4403),
    4: (-19.9244, 4.5435, 3.1021, -1.7684, 5.9910, 3.7022, 4.4281, -0.0019, -0.6350,
        -0.5699, -2.6370, -2.1628, 1.7237, -0.6307, 0.4165, -0.2248, -0.5027, -2.9852),
    5: (-25.3325, 2.5685, 5.3932, 1.9567, 3.2113, 6.9566, 3.9141, -0.0015, 0.2993,
        4.0040, -5.2944, 1.0515, -0.5334, 0.2998, -2.6595, -0.6539, -1.5629, 1.5628),
}
# --- end of fitted constants ---


class Decision(NamedTuple):
    """One auction decision with a choice: who made it, which level, among which, in what state."""

    seat: int
    level: int                  #: 0 = pass, else the bid's value (a pitch is 4, the moon 5)
    legal: tuple[int, ...]      #: the levels it could have chosen
    state: tuple[float, ...]    #: :data:`STATE_FEATURES`
    suit: int | None            #: the trump it named (the pitcher, once known), else None


def level_of(a: Action) -> int:
    """The level of an auction action: 0 for a pass, else its bid value (pitch 4, moon 5)."""
    return 0 if a == PASS_ID else a.bid or 0


def auction_decisions(rules: RuleSet, dealt: Sequence[int], dealer: int,
                      auction: Sequence[tuple[int, Action]], trump: int | None = None,
                      pitcher: int | None = None) -> list[Decision]:
    """Every decision with more than one legal level in ``auction``, replayed on the engine (so
    the legal choices follow the rules exactly).  ``dealt`` must make the auction legal (a pitched
    card held); which cards the others hold changes nothing else."""
    h = Hand(rules, list(dealt), dealer)
    n = h.players
    high = 0
    high_seat = -1
    bid_before = 0
    out: list[Decision] = []
    for s, a in auction:
        legal = tuple(sorted({level_of(x) for x in h.legal_actions()}))
        if len(legal) > 1:
            partner_high = (rules.partnership_mode and high_seat >= 0
                            and rules.side_of(high_seat) == rules.side_of(s))
            state = (float(s == dealer), ((s - dealer - 1) % n) / (n - 1), high / 4,
                     float(high > 0), float(partner_high), float(high > 0 and high in legal),
                     float(bid_before >> s & 1), float(n - 4), float(rules.partnership_mode),
                     float(rules.auction != "single_round"))
            out.append(Decision(s, level_of(a), legal, state, trump if s == pitcher else None))
        if a != PASS_ID:
            high, high_seat = level_of(a), s
            bid_before |= 1 << s
        h.push_unchecked(a)
    return out


def features(mask: int, suit: int | None, rules: RuleSet, players: int) -> tuple[float, ...]:
    """:data:`HAND_FEATURES` of the dealt cards ``mask``, in ``suit`` (None: the best suit)."""
    partners = rules.partnership_mode
    low_holder = rules.low_to == "holder"
    if suit is None:
        strength = max(suit_strength(mask, s, players) for s in range(4))
        suit, probs = estimate_points(mask, players, partners, low_holder)
    else:
        strength = suit_strength(mask, suit, players)
        probs = suit_estimate(mask, suit, players, partners, low_holder)
    trumps = (mask >> (13 * suit) & 0x1FFF).bit_count()
    return (strength, *probs, min(trumps, 6) / 6, float(not mask & POINT_CARDS))


def state_scores(state: Sequence[float], legal: Sequence[int]) -> dict[int, float]:
    """Each legal level's score from the intercept and the auction state (a pass scores 0)."""
    h = 1 + len(HAND_FEATURES)
    return {lv: (COEF[lv][0] + sum(w * x for w, x in zip(COEF[lv][h:], state, strict=True))
                 if lv else 0.0) for lv in legal}


def level_probs(hand: Sequence[float], base: dict[int, float]) -> dict[int, float]:
    """P(level) over the legal levels of ``base`` (:func:`state_scores`) for a hand with the
    :data:`HAND_FEATURES` ``hand``: the softmax of the scores."""
    h = 1 + len(HAND_FEATURES)
    scores = {lv: (b + sum(w * x for w, x in zip(COEF[lv][1:h], hand, strict=True))
                   if lv else 0.0) for lv, b in base.items()}
    top = max(scores.values())
    exps = {lv: math.exp(u - top) for lv, u in scores.items()}
    total = sum(exps.values())
    return {lv: e / total for lv, e in exps.items()}


def likelihood_of(view: View) -> Callable[[list[int]], float]:
    """The fitted likelihood of ``view``'s auction as a function of every seat's dealt cards.

    The decisions (legal levels, state) are public: they are replayed once, on the first deal
    asked about, and reused for every other deal of the same view.  The own seat's decisions are
    skipped (its hand is known)."""
    rules, n = view.rules, view.players
    trump = SUITS.index(view.trump) if view.trump is not None else None
    # (decision, the state's part of each legal level's score), computed once per view
    replayed: list[tuple[Decision, dict[int, float]]] | None = None

    def like(dealt: list[int]) -> float:
        nonlocal replayed
        if replayed is None:
            replayed = [(d, state_scores(d.state, d.legal))
                        for d in auction_decisions(rules, dealt, view.dealer, view.auction,
                                                   trump, view.pitcher)
                        if d.seat != view.seat]
        cache: dict[tuple[int, int | None], tuple[float, ...]] = {}
        p = 1.0
        for d, base in replayed:
            key = (d.seat, d.suit)
            hand = cache.get(key)
            if hand is None:
                hand = cache[key] = features(dealt[d.seat], d.suit, rules, n)
            p *= level_probs(hand, base)[d.level]
        return p

    return like


def fitted_likelihood(view: View, dealt: list[int]) -> float:
    """How likely the auction in ``view`` is given every seat's dealt cards, by the fitted model
    (a product of probabilities, one per other seat's decision with a choice)."""
    return likelihood_of(view)(dealt)

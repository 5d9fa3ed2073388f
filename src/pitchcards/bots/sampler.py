"""Deals consistent with one seat's view: the determinizations PIMC and ISMCTS search.

Hard evidence (a sampled world never contradicts it):

* the seat's own hand, every card played and by whom, a pitched card still held, hand sizes;
* discards (T4): the seat's own discards are out of play and never given to anyone; every other
  seat discarded ``hand_size - 6`` cards the seat cannot see, so the unseen cards are dealt over
  the other seats' current holdings *and* their hidden discards (a void proven in play says
  nothing about a discard: a seat may have thrown that suit away);
* proven voids: a card that a player holding the led suit may not play (C6, :data:`FOLLOW_ALLOWS`)
  proves a void in the led suit (suits for following, from the deck model: a joker or the
  off-jack follows trump, T2-T3).  ``trump_anytime`` - a card that is neither the led suit nor
  trump (trumping proves nothing: a player holding the led suit may trump); ``strict_follow`` -
  any off-suit card; ``follow_trump_only`` - only failing to follow a trump lead.

Soft evidence: bids and passes.  Each sampled hand gets a likelihood under a small bidding model
(:func:`suit_strength` estimates the points a suit would take as trump; a bid of *b* is likely
when that estimate is near *b* or more, a pass is less likely from a strong hand).  Samples are
drawn by importance sampling: the seat-by-seat proposal is weighted back to uniform over all
consistent deals (the product of the binomials it drew from), times the bid likelihood, and then
resampled.  That likelihood is the hand-set model of :func:`bid_likelihood` unless
``bid_model="fitted"`` asks for the one fitted to self-play (:mod:`.bid_model`).
:func:`sample_worlds` returns full :class:`~pitchcards.hand.Hand` objects replayed to exactly the
public point of the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..actions import BIDS, CALL, DISCARD, PASS, PASS_ID, PITCH_BASE, PLAY, TRUMP, Action
from ..cards import SUIT_MASKS, SUITS
from ..deck import deck_model
from ..hand import Hand, follow_allowed
from ..rules import RuleSet
from ..views import View
from . import ten_point
from .bid_model import likelihood_of
from .hand_features import holding_strengths, suit_strength

__all__ = ["BID_MODELS", "FOLLOW_ALLOWS", "Evidence", "bid_likelihood", "bid_weight",
           "build_world", "evidence_of", "pass_weight", "sample_deal", "sample_hidden",
           "sample_worlds", "soft_evidence", "suit_strength"]

#: the bid models :func:`sample_worlds` knows: the hand-set weights of :func:`bid_likelihood`, and
#: the model fitted to self-play (:mod:`.bid_model`)
BID_MODELS = ("hand-set", "fitted")



def _allows(follow_rule: str, trump: int, led: int) -> int:
    """The engine's follow rule (``hand.follow_allowed``) as a set of suits."""
    cards = follow_allowed(follow_rule, trump, led)
    return sum(1 << suit for suit in range(4) if cards & SUIT_MASKS[suit])


#: C6 / §7.8 as evidence about the other seats: ``FOLLOW_ALLOWS[follow_rule][trump][led]`` is the
#: set of suits (bit ``1 << suit``) that a player *holding the led suit* may play.  A card of any
#: other suit proves that player void in the led suit.  The seat to act's own legal cards come from
#: ``Hand.legal_mask`` / ``View.legal_actions``; this table is only for inferring voids (the
#: heuristic and the sampler share it).
FOLLOW_ALLOWS: dict[str, tuple[tuple[int, ...], ...]] = {
    rule: tuple(tuple(_allows(rule, t, led) for led in range(4)) for t in range(4))
    for rule in RuleSet.OPTION_CHOICES["follow_rule"]}


@dataclass(slots=True)
class Evidence:
    """What one seat knows about where the unseen cards are."""

    seat: int
    players: int
    dealer: int
    trump: int                 #: trump suit index, -1 before the first lead
    held: list[int]            #: per seat: cards known to be held now (own hand; a pitched card)
    played_by: list[int]       #: per seat: cards it has played
    voids: list[int]           #: per seat: union of suit masks it is proven void in
    need: list[int]            #: per seat: hidden cards still to place
    pool: int                  #: cards whose place is unknown (includes the undealt cards)
    plays: list[Action]        #: every card played, in order (for the replay)
    #: T4: per seat, how many cards it discarded face down that this seat has not seen
    hidden_discards: list[int] = field(default_factory=list)


def evidence_of(view: View) -> Evidence:
    """Collect the hard evidence of ``view`` (which must belong to a seat)."""
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to sample around")
    n, me = view.players, view.seat
    rules = view.rules
    trump = SUITS.index(view.trump) if view.trump is not None else -1
    model = deck_model(rules)
    played_by = [0] * n
    voids = [0] * n
    plays: list[Action] = []
    allows = FOLLOW_ALLOWS[rules.follow_rule][trump] if trump >= 0 else ()
    suit_of = model.suit_of[trump] if trump >= 0 else ()
    masks = model.suit_masks[trump] if trump >= 0 else ()

    def trick(seq: list[tuple[int, int]]) -> None:
        led = suit_of[seq[0][1]]  # T2, T3: a joker or the off-jack leads trump
        for i, (s, c) in enumerate(seq):
            played_by[s] |= 1 << c
            plays.append(PLAY[c])
            if i and not allows[led] >> suit_of[c] & 1:
                voids[s] |= masks[led]  # C6: a holder of the led suit could not play this

    for leader, cards, _ in view.tricks:
        trick([((leader + i) % n, c) for i, c in enumerate(cards)])
    if view.trick:
        trick(list(view.trick))
    called = view.called_card
    if (called is not None and view.pitcher is not None and view.pitcher != me
            and view.rules.call_rule == "not_own"):
        voids[view.pitcher] |= 1 << called  # CP3: the pitcher does not hold the card it called
    held = [0] * n
    held[me] = view.hand_mask
    for s, a in view.auction:
        if PITCH_BASE <= a < PASS_ID:
            c = a - PITCH_BASE
            if not view.played_mask >> c & 1 and s != me:
                held[s] |= 1 << c
    need = [view.hand_sizes[s] - held[s].bit_count() for s in range(n)]
    need[me] = 0
    # T4: what each other seat discarded unseen (dealt, minus held now, minus played).
    hidden = [max(0, rules.hand_size - view.hand_sizes[s] - played_by[s].bit_count())
              for s in range(n)]
    hidden[me] = 0
    known = view.dealt_mask | view.played_mask  # own discards are in the own dealt cards
    for m in held:
        known |= m
    return Evidence(me, n, view.dealer, trump, held, played_by, voids, need,
                    model.mask & ~known, plays, hidden)



#: T7: a rough worth of each trump by its place from the top of a ten-point trump order
#: (A K Q J off-jack BJ LJ 10 9 ... 2; index 0 = the A); the three is worth its 3 points.
_TEN_WORTH = (1.5, 1.0, 0.7, 1.4, 1.1, 1.0, 1.0, 0.7, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 1.6, 0.9)


def ten_strength(mask: int, suit: int, rules: RuleSet) -> float:
    """A quick estimate of the points ``mask`` would take with ``suit`` as trump in the
    ten-point family (0..``rules.points_total``; see :mod:`.ten_point` for the heuristic's)."""
    order = deck_model(rules).trump_order[suit]
    top = len(order) - 1
    est = 0.0
    held = 0
    for i, c in enumerate(order):
        if mask >> c & 1:
            held += 1
            est += _TEN_WORTH[min(top - i, 15)] if c % 13 != 1 or c >= 52 else 1.6
    est += 0.25 * max(0, held - 3)
    return min(est, float(rules.points_total))


def best_strength(mask: int, players: int, rules: RuleSet | None = None) -> float:
    if rules is not None and rules.points_total != 4:
        return max(ten_strength(mask, s, rules) for s in range(4))
    table = holding_strengths(players >= 4)
    return max(table[mask & 0x1FFF], table[mask >> 13 & 0x1FFF], table[mask >> 26 & 0x1FFF],
               table[mask >> 39 & 0x1FFF])


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def pass_weight(est: float, need: int, partner_high: bool, sharpness: float = 2.0) -> float:
    """The hand-set model's weight of a pass from a hand of strength ``est`` when a bid of ``need``
    was required (a pass is less telling when the partner holds the high bid)."""
    scale = 0.4 if partner_high else 0.8
    return 1.0 - scale * _sigmoid(sharpness * (est - need - 0.6))


def bid_weight(est: float, b: int, sharpness: float = 2.0) -> float:
    """The hand-set model's weight of a bid of ``b`` from a hand of strength ``est``."""
    return 0.05 + 0.95 * _sigmoid(sharpness * (est - b + 1.0))


def bid_likelihood(view: View, dealt: list[int], sharpness: float = 2.0) -> float:
    """How likely the auction in ``view`` is, given every seat's dealt cards (soft evidence).

    ``dealt[s]`` is the sampled dealt hand of seat ``s``.  Forced bids carry no information;
    the own seat's actions are skipped (its hand is known).
    """
    rules = view.rules
    if rules.points_total != 4:
        return ten_point_likelihood(view, dealt)
    n = view.players
    trump = SUITS.index(view.trump) if view.trump is not None else -1
    high = 0
    high_seat = -1
    like = 1.0
    cache: dict[int, float] = {}
    ten = rules if rules.points_total != 4 else None
    for s, a in view.auction:
        if s == view.seat:
            pass
        elif a == PASS_ID:
            need = max(high + 1, rules.min_bid)
            if need <= rules.max_bid:
                est = cache.get(s)
                if est is None:
                    est = cache[s] = best_strength(dealt[s], n, rules)
                partner_high = (rules.partnership_mode and high_seat >= 0
                                and rules.side_of(high_seat) == rules.side_of(s))
                like *= pass_weight(est, need, partner_high, sharpness)
        else:
            forced = high == 0 and s == view.dealer
            if not forced:
                # A moon is judged like a bid of 4 (its points); the ten-point bids by value.
                value = a.bid or 0
                b = 4 if value == rules.moon_bid else value
                if trump >= 0 and s == view.pitcher:
                    est = (suit_strength(dealt[s], trump, n) if ten is None
                           else ten_strength(dealt[s], trump, ten))
                else:
                    est = cache.get(s)
                    if est is None:
                        est = cache[s] = best_strength(dealt[s], n, rules)
                like *= bid_weight(est, b, sharpness)
        if a != PASS_ID:
            high = a.bid or 0
            high_seat = s
    return like


#: ten-point family: how likely another seat's bid, pass or named trump is when the heuristic
#: would have made it from the sampled hand (1), and when it would not (the others may not play
#: like the heuristic: never 0)
_SAME, _OTHER = 1.0, 0.2


def ten_point_likelihood(view: View, dealt: list[int]) -> float:
    """The ten-point family's soft evidence (T5, T8): each other seat's bid or pass, and the
    suit the pitcher named, judged by what the heuristic would have done with the sampled hand
    (the rollouts play the others by that same policy, so the worlds and the rollouts agree)."""
    rules = view.rules
    n = view.players
    like = 1.0
    prefix: list[tuple[int, Action]] = []
    for s, a in view.auction:
        if s != view.seat:
            legal = _ten_legal(rules, prefix, s, view.dealer, n)
            if len(legal) > 1:
                mine = ten_point.choose_bid(dealt[s], s, n, view.dealer, rules, prefix, legal)
                like *= _SAME if mine == a else _OTHER
        prefix.append((s, a))
    pitcher = view.pitcher
    if view.trump is not None and rules.declares_trump and pitcher is not None \
            and pitcher != view.seat:
        named = ten_point.choose_trump(dealt[pitcher], rules, n)
        like *= _SAME if named.suit == SUITS.index(view.trump) else _OTHER
    return like


def _ten_legal(rules: RuleSet, prefix: list[tuple[int, Action]], seat: int, dealer: int,
               n: int) -> list[Action]:
    """The bids a seat had (T8): pass, and each bid above the high one (from the minimum); the
    dealer may not pass when everyone else has and may equal the high bid (a steal)."""
    high = max((a.bid or 0 for _, a in prefix), default=0)
    low = max(rules.min_bid, high + (0 if seat == dealer and high else 1))
    bids = [BIDS[v] for v in range(low, rules.max_bid + 1)]
    stuck = seat == dealer and not high
    return bids if stuck else [PASS, *bids]


def _comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def _pick(mask: int, k: int, rng: random.Random) -> int:
    """``k`` cards chosen uniformly from ``mask``."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    out = 0
    for c in rng.sample(cards, k):
        out |= 1 << c
    return out


def sample_hidden(ev: Evidence, rng: random.Random) -> tuple[list[int], float] | None:
    """One proposal: each other seat's current hand, and its importance weight (None: dead end).

    :func:`sample_deal` without the hidden discards (T4) it also draws.
    """
    got = sample_deal(ev, rng)
    return None if got is None else (got[0], got[2])


def sample_deal(ev: Evidence, rng: random.Random) -> tuple[list[int], list[int], float] | None:
    """One proposal: each other seat's current hand, its hidden discards (T4) and the
    importance weight (None: dead end).

    Seats are filled most constrained first, each drawing uniformly from the cards it may hold;
    then each other seat's unseen discards are drawn from the cards left (a void proven in play
    does not bind a discard).  The weight (product of the binomials drawn from) makes the
    proposal uniform over all deals consistent with the hard evidence.
    """
    n = ev.players
    order = sorted((s for s in range(n) if ev.need[s] > 0),
                   key=lambda s: (ev.pool & ~ev.voids[s]).bit_count() - ev.need[s])
    pool = ev.pool
    hands = ev.held[:]
    weight = 1.0
    for s in order:
        allowed = pool & ~ev.voids[s]
        k = ev.need[s]
        avail = allowed.bit_count()
        if avail < k:
            return None
        weight *= _comb(avail, k)
        got = _pick(allowed, k, rng)
        hands[s] |= got
        pool &= ~got
    discards = [0] * n
    for s, k in enumerate(ev.hidden_discards):
        if k:
            avail = pool.bit_count()
            if avail < k:
                return None
            weight *= _comb(avail, k)
            discards[s] = _pick(pool, k, rng)
            pool &= ~discards[s]
    return hands, discards, weight


def build_world(view: View, hands: list[int], ev: Evidence | None = None,
                discards: list[int] | None = None) -> Hand:
    """A full :class:`Hand` from current hands (and the other seats' hidden ``discards``, T4),
    replayed to the exact public point of ``view``: the auction, trump named (T5), every
    discard made so far (the seat's own from the view), then the cards played."""
    if ev is None:
        ev = evidence_of(view)
    n = ev.players
    if discards is None:
        discards = [0] * n
    dealt = [hands[s] | ev.played_by[s] | discards[s] for s in range(n)]
    dealt[ev.seat] = view.dealt_mask
    discards = discards[:]
    discards[ev.seat] = view.discarded_mask
    h = Hand(view.rules, dealt, view.dealer)
    push = h.push_unchecked
    for _, a in view.auction:
        push(a)
    if h.phase == "declare" and view.trump is not None:
        push(TRUMP[SUITS.index(view.trump)])
    if h.phase == "call" and view.called_card is not None:
        push(CALL[view.called_card])  # CP3: the partner is whoever holds it in this world
    while h.phase == "discard":
        left = discards[h.seat_to_act or 0] & ~h.discarded(h.seat_to_act or 0)
        if not left:
            break  # the view's point: this seat has not discarded yet
        push(DISCARD[(left & -left).bit_length() - 1])
    skip = len(h.current_trick())  # a pitched card is led by the engine when the auction ends
    for a in ev.plays[skip:]:
        push(a)
    return h


def sample_worlds(view: View, count: int, rng: random.Random, soft: bool = True,
                  proposals: int | None = None, bid_model: str = "hand-set") -> list[Hand]:
    """``count`` worlds consistent with ``view`` (hard evidence exactly, bids softly).

    Draws ``proposals`` (default ``3 * count``) candidates, weights each by its importance
    weight times the bid likelihood, and resamples ``count`` of them (systematic resampling).
    """
    likelihood = soft_evidence(view, bid_model)
    ev = evidence_of(view)
    tries = proposals if proposals is not None else (3 * count if soft else count)
    cands: list[tuple[list[int], list[int]]] = []
    weights: list[float] = []
    attempts = 0
    while len(cands) < tries and attempts < 50 * tries:
        attempts += 1
        got = sample_deal(ev, rng)
        if got is None:
            continue
        hands, discards, w = got
        if soft and len(view.auction) > 0:
            w *= likelihood(dealt_of(view, ev, hands, discards))
        cands.append((hands, discards))
        weights.append(w)
    if not cands:
        raise RuntimeError("no deal is consistent with this view")  # cannot happen for real views
    total = sum(weights)
    if total <= 0:
        weights = [1.0] * len(cands)
        total = float(len(cands))
    if not soft and len(cands) == count and max(weights) == min(weights):
        chosen = cands
    else:
        step = total / count
        u = rng.random() * step
        chosen = []
        acc = 0.0
        i = 0
        for k in range(count):
            target = u + k * step
            while i < len(cands) - 1 and acc + weights[i] < target:
                acc += weights[i]
                i += 1
            chosen.append(cands[i])
    return build_worlds(view, chosen, ev)


def build_worlds(view: View, deals: list[tuple[list[int], list[int]]],
                 ev: Evidence | None = None) -> list[Hand]:
    """:func:`build_world` for each ``(hands, discards)``, replaying the view's history once:
    the first world is replayed, the others are copies of it given their own cards
    (:meth:`Hand.redeal`), the same state a replay reaches.  A deal with another seat's hidden
    discards (T4) is replayed on its own, as those cards change what the seat was dealt."""
    if ev is None:
        ev = evidence_of(view)
    template: Hand | None = None
    out: list[Hand] = []
    for hands, discards in deals:
        if any(discards[s] for s in range(ev.players) if s != ev.seat):
            out.append(build_world(view, hands, ev, discards))
        elif template is None:
            template = build_world(view, hands, ev, discards)
            out.append(template)
        else:  # copied before any world is searched: the template is still at the view
            world = template.copy()
            world.redeal(hands, check=False)  # hands[seat] is the seat's own (Evidence.held)
            out.append(world)
    return out


def soft_evidence(view: View, bid_model: str = "hand-set") -> Callable[[list[int]], float]:
    """The likelihood of ``view``'s auction as a function of every seat's dealt cards, under
    ``bid_model`` (one of :data:`BID_MODELS`).  The ten-point family keeps
    :func:`ten_point_likelihood` under either model (no fit was made for it)."""
    if bid_model not in BID_MODELS:
        raise ValueError(f"unknown bid model {bid_model!r}: choose one of {', '.join(BID_MODELS)}")
    if bid_model == "hand-set" or view.rules.points_total != 4:
        return lambda dealt: bid_likelihood(view, dealt)
    return likelihood_of(view)


def dealt_of(view: View, ev: Evidence, hands: list[int], discards: list[int]) -> list[int]:
    """Every seat's dealt cards in a sampled deal (what it bid on): held, played, discarded."""
    dealt = [hands[s] | ev.played_by[s] | discards[s] for s in range(ev.players)]
    dealt[ev.seat] = view.dealt_mask
    return dealt

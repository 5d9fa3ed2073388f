"""The ``heuristic`` bot: a fast rule-based player, and the rollout policy of the search bots.

It decides from one seat's :class:`~pitchcards.views.View` (what that seat may know), in tens of
microseconds, so it doubles as the playout policy of the expert bot: :func:`rollout_action` plays
the same policy straight on a (determinized) :class:`~pitchcards.hand.Hand` for the seat to act,
reading only what that seat could know (its own cards, the public play, the auction) without
building a view.

**Bidding.**  For each suit the bot estimates the chance that its side takes each of the four
points if it pitches that suit (:func:`suit_estimate`):

* High: the A is sure, a K is High unless an opponent holds the A, and so on down;
* Low: the 2 is sure under ``low_to="holder"``; under ``"capturer"`` the lowest trump must also
  be brought home, which needs protection (more trumps, a master trump to win the trick);
* Jack: the J with protection (higher trumps or length) is likely; without it the bot may still
  catch an opponent's J with the A;
* Game: tens, aces and face cards held, and trump length (tricks).

The four chances give the distribution of points (a Poisson-binomial), hence for each legal bid
its expected score change: all points won if made, minus the bid if set, minus what the other
side is expected to take.  That is weighed against passing, whose value depends on who holds the
bid (a partner's bid is good news, an opponent's is not, the more so the higher it is), on
position (the dealer bids last and may steal by equalling: it takes the bid whenever its
estimate covers it) and on the scores: the bot bids more readily when an opponent could go out
by getting the bid, values a bid that would take its own side out, and avoids a risky bid when a
set could hand the game over.  A bid of 4 is made by pitching the opening lead when that lead is
a good one (the top trump); the moon/smudge only with a near-certain sweep (A K Q J and six
trumps).

**Card play** (:func:`choose_card`), by sound rules:

* The pitcher leads its top trump to fix High and draw trumps (a spare low trump first when the
  top trump is the J or 10), keeps drawing with master trumps while opponents may hold trumps,
  and brings the J home once it is master.
* Following, the bot wins with the lowest card that wins (and that the players still to play
  cannot beat, as far as it knows), ducks its cheapest card when the trick is lost or not worth
  the price, feeds the J, tens, Low, then side aces and kings to a trick its partner has safely
  won, and never throws a ten, the J or (under ``low_to="capturer"``) its Low into an
  opponent's trick if it can help it.
* Defenders try to set the pitcher: they catch the J and tens with master trumps, cash safe aces
  and keep count away from the pitcher's side.
* It tracks every card seen and the proven voids: a void is proven only by a discard of a third
  suit while not trumping (the rules let a player trump while holding the led suit), or by not
  following a trump lead; under ``strict_follow`` any off-suit card proves it.  The rule is read
  from one table shared with the sampler (:data:`~.sampler.FOLLOW_ALLOWS`, C6); the seat's own
  legal cards come from the engine (the view's legal actions, or ``Hand.legal_mask`` in
  rollouts), and trick strength from the rules' deck model (C7).

**The ten-point family** (T1-T8): bidding, naming trump and discarding are in
:mod:`.ten_point`; card play reads per-trump tables (:mod:`.tables`: suits for following, the
trump order with the jokers and the off-jack, the cards whose capture scores), and treats every
scoring card as the J above (the three, worth 3, most of all).  The 52-card tables are the old
ones, so the four-point game plays exactly as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..actions import BID, PASS, PASS_ID, PITCH, PITCH_BASE, PLAY, Action
from ..cards import SUIT_MASKS, SUITS
from ..deck import CLASSIC, DeckModel
from ..hand import Hand
from ..rules import MOON, VARIANTS, RuleSet
from ..views import View
from . import ten_point as _ten
from .base import Bot
from .call_sides import defender_sides, suspects
from .hand_features import POINT_CARDS, estimate_points, suit_estimate
from .sampler import FOLLOW_ALLOWS
from .tables import COUNT, Tables, tables

__all__ = [
    "EasyBot",
    "HeuristicBot",
    "choose_bid",
    "choose_card",
    "estimate_points",
    "proven_voids",
    "rollout_action",
    "suit_estimate",
]

_SUIT = SUIT_MASKS
_RANK_OF = tuple(c % 13 for c in range(52))
_COUNT = COUNT  # C9, T7: game count of each card (jokers 0)
#: the rules card play assumes when none are given: the four-point game's 52 cards
_FOUR_POINT = VARIANTS["auction"]
_JACK, _TEN = 9, 8


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ----------------------------------------------------------------------------- bidding
def _distribution(probs: Sequence[float]) -> list[float]:
    """P(exactly k points), k = 0..4, for independent points with these chances."""
    dist = [1.0, 0.0, 0.0, 0.0, 0.0]
    for i, p in enumerate(probs):
        q = 1.0 - p
        for k in range(i + 1, 0, -1):
            dist[k] = dist[k] * q + dist[k - 1] * p
        dist[0] *= q
    return dist


def _sure_sweep(hand: int, suit: int) -> bool:
    """All six cards are trumps, with the A K Q J: the moon is (nearly) certain."""
    trumps = hand & _SUIT[suit]
    top4 = 0xF << (13 * suit + 9)
    return trumps == hand and trumps.bit_count() >= 6 and trumps & top4 == top4


def choose_bid(hand: int, seat: int, players: int, dealer: int, rules: RuleSet,
               auction: Sequence[tuple[int, Action]], legal: Sequence[Action],
               scores: Sequence[int] | None = None, aggression: float = 0.0) -> Action:
    """The heuristic bid (see the module docstring) among the ``legal`` auction actions.

    ``aggression`` (points) is added to the value of every bid against passing.
    """
    partners = rules.partnership_mode
    teams = rules.teams
    sides = rules.side_count(players)
    low_holder = rules.low_to == "holder"
    suit, probs = estimate_points(hand, players, partners, low_holder)
    dist = _distribution(probs)
    expected = sum(probs)
    w = 1.0 / (sides - 1) if sides > 1 else 1.0
    # What the others take when we pitch: High, Low, Game and (if dealt) the Jack we miss.
    others = (3.0 + (1.0 if hand >> (13 * suit + _JACK) & 1 else 0.45)) - expected

    may_pass = False
    values: list[int] = []
    pitches = False
    for a in legal:
        if a == PASS_ID:
            may_pass = True
        elif a > PASS_ID:
            values.append(a - PASS_ID)
        elif a >= PITCH_BASE:
            pitches = True
    high = 0
    high_seat = -1
    for s, a in auction:
        if a != PASS_ID:
            high = 4 if a < PASS_ID else a - PASS_ID
            high_seat = s
    my_side = seat % teams if teams else seat

    def side(s: int) -> int:
        return s % teams if teams else s  # TT1: seat % 3 in three teams

    # Value of passing (score change of my side minus the others', in points).
    if high == 0:
        pass_value = -0.3 * w
    elif side(high_seat) == my_side:
        pass_value = 0.5 + 0.1 * high  # my partner pitches
    else:
        pass_value = -w * (0.2 + 0.35 * (high - 1))

    target = rules.target
    goes_out = rules.win_rule == "bidder_goes_out"
    my_score = opp_score = 0
    if scores is not None and target is not None and len(scores) == sides:
        my_score = scores[my_side]
        opp_score = max((v for i, v in enumerate(scores) if i != my_side), default=0)
        if high and side(high_seat) != my_side and (
                scores[side(high_seat)] + high >= target
                or (not goes_out and opp_score + 2 >= target)):
            pass_value -= 1.5  # the bidder would go out if it makes its bid: stop it
        elif not high and opp_score + 3 >= target:
            pass_value -= 0.5
        elif my_score - opp_score >= 4 and opp_score + 4 < target:
            pass_value += 0.3  # well ahead: no need to gamble

    best: int | None = None
    best_value = -1e9
    for b in values:
        if b == MOON:
            continue
        made = dist[b] * b + sum(dist[k] * k for k in range(b + 1, 5))
        miss = sum(dist[:b])
        value = made - b * miss - w * others + aggression
        if target is not None and scores is not None and len(scores) == sides:
            if goes_out and my_score + b >= target:
                value += 1.5 * (1.0 - miss)  # making it takes us out
            if not goes_out and opp_score + 2 >= target:
                value -= 1.0 * miss  # a set leaves the others free to get there
        if value > best_value + 1e-9:
            best, best_value = b, value
    if MOON in values and _sure_sweep(hand, suit):
        return BID[MOON]
    if best is None or (may_pass and not hand & POINT_CARDS):
        return PASS  # no A, K, Q, J, 10 or 2 anywhere: never a voluntary bid
    single = rules.auction == "single_round"
    if may_pass and best_value <= pass_value:
        return PASS
    bid = best
    if single and seat != dealer:
        # Bid the hand: a higher bid we are confident of shuts out the players after us.
        for b in sorted(values, reverse=True):
            if b > bid and b != MOON and sum(dist[b:]) >= 0.72:
                bid = b
                break
    if bid == 4 and pitches and rules.dealer_steal != "equal_any_incl_pitched":
        lead = _opening_lead(hand, suit, low_holder)
        if _RANK_OF[lead] >= 11 and lead == (hand & _SUIT[suit]).bit_length() - 1:
            return PITCH[lead]  # B-R4.3: pitch the top trump as the bid of 4
    return BID[bid]


# ----------------------------------------------------------------------------- card play
def proven_voids(tricks: Sequence[tuple[int, Sequence[int], int]], leader: int,
                 current: Sequence[int], players: int, trump: int,
                 follow_rule: str, model: DeckModel = CLASSIC) -> list[int]:
    """Per seat, a 4-bit mask of the suits that seat has proven it does not hold.

    A card that a player holding the led suit may not play proves the void (C6, §7.8; the rule
    is :data:`~.sampler.FOLLOW_ALLOWS`): under trump-any-time a seat proves a void in the led
    suit only by playing a third suit (a trump proves nothing), and a trump lead not followed
    proves a trump void; under strict follow any off-suit card proves it; under
    follow-trump-only only a trump lead can.  Suits are suits for following (T2, T3: a joker or
    the off-jack follows trump), from ``model``.
    """
    allows = FOLLOW_ALLOWS[follow_rule][trump]
    suit_of = model.suit_of[trump]
    voids = [0] * players
    for ldr, cards, _ in tricks:
        _voids_of(voids, ldr, cards, players, allows, suit_of)
    if current:
        _voids_of(voids, leader, current, players, allows, suit_of)
    return voids


def _voids_of(voids: list[int], leader: int, cards: Sequence[int], players: int,
              allows: Sequence[int], suit_of: Sequence[int]) -> None:
    """Add the voids one trick proves; ``allows`` is ``FOLLOW_ALLOWS[follow_rule][trump]``."""
    led = suit_of[cards[0]]
    may = allows[led]
    for i in range(1, len(cards)):
        if not may >> suit_of[cards[i]] & 1:  # C6: a holder of the led suit could not play it
            seat = leader + i
            voids[seat - players if seat >= players else seat] |= 1 << led


def _opening_lead(hand: int, suit: int, low_holder: bool) -> int:
    """The pitcher's first card: its top trump, unless that is the J or 10 (a count card that a
    higher trump would catch) and a spare trump can go first - a low one that is not a likely
    Low if it has one (Low is worth keeping under ``low_to="capturer"``).  Printed suits only:
    before the first lead a joker names no suit and cannot open (T6).
    """
    trumps = hand & _SUIT[suit]
    top = trumps.bit_length() - 1
    if _RANK_OF[top] not in (_JACK, _TEN) or trumps == 1 << top:
        return top
    lowest = (trumps & -trumps).bit_length() - 1
    spare = trumps & ~(1 << top) & ~(1 << (13 * suit + _JACK)) & ~(1 << (13 * suit + _TEN))
    if not spare:
        return top
    keep_low = not low_holder and _RANK_OF[lowest] <= 3
    plain = spare & ~(1 << lowest) if keep_low else spare
    pick = plain if plain else spare
    return (pick & -pick).bit_length() - 1


def choose_card(seat: int, players: int, teams: int, pitcher: int, trump: int, hand: int,
                legal: int, leader: int, trick: Sequence[int], played: int,
                voids: Sequence[int], low_holder: bool, rules: RuleSet | None = None,
                sides: Sequence[int] | None = None) -> int:
    """The heuristic card to play (see the module docstring).

    ``trump`` is -1 before the first lead; ``trick`` the cards of the current trick in play
    order from ``leader``; ``played`` every card played so far; ``voids`` from
    :func:`proven_voids`; ``rules`` (default: the four-point game) give the deck model and the
    point cards (T1-T3, T7).  ``teams``: 0 each for themselves, else the teams of two, partners
    ``teams`` seats apart (``RuleSet.teams``: 2, or 3 for six players, TT1).  ``sides``, if
    given, is each seat's side as this seat knows it, instead (call-your-partner, CP5: the
    partner knows it plays with the pitcher; a seat that does not know treats each seat alone).
    """
    if sides is None:
        sides = [s % teams if teams else s for s in range(players)]
    partners = teams > 0 or sides.count(sides[seat]) > 1
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1  # one legal card
    if trump < 0:
        if rules is not None and rules.is_ten_point:
            return _ten.opening_lead(hand, legal, rules, players, partners)
        suit, _ = estimate_points(hand, players, partners, low_holder)
        return _opening_lead(hand, suit, low_holder)
    tb = tables(rules if rules is not None else _FOUR_POINT, trump)
    suit_of, rank_of, above, below = tb.suit_of, tb.rank, tb.above, tb.below
    my_side = sides[seat]
    pitcher_side = sides[pitcher]
    attacking = pitcher_side == my_side
    tmask = tb.tmask
    unseen = tb.full & ~(hand | played)
    unseen_trumps = unseen & tmask
    special_mask = tb.special
    worth = tb.worth
    # The lowest trump still possible: Low candidates are cards with no unseen/played trump below.
    trumps_gone = played & tmask

    def low_candidate(c: int) -> bool:
        if low_holder or suit_of[c] != trump:
            return False
        lower = below[c]
        return not lower & trumps_gone and (lower & unseen).bit_count() <= 1 and rank_of[c] <= 4

    def opp_may_trump(seats: Sequence[int]) -> bool:
        if not unseen_trumps:
            return False
        return any(not voids[s] >> trump & 1 for s in seats)

    n = players
    opp_seats = [s for s in range(n) if sides[s] != my_side]
    if not trick:
        partner = next((s for s in range(n) if s != seat and sides[s] == my_side), -1)
        return _lead(tb, hand, legal, unseen, attacking, opp_may_trump(opp_seats), opp_seats,
                     partner, voids, low_candidate)

    # ---------------------------------------------------------------- following
    led = suit_of[trick[0]]
    power = tb.model.strength[trump][led]  # C7
    win_i = tb.model.trick_winner(trick, trump)
    win_str = power[trick[win_i]]
    win_seat = (leader + win_i) % n
    later = [(leader + i) % n for i in range(len(trick) + 1, n)]
    later_opps = [s for s in later if sides[s] != my_side]
    win_side = sides[win_seat]
    ally_winning = partners and win_side == my_side
    value = 0
    special = False
    extra = 0  # T7: points beyond the jack on the table (off-jack, jokers, the three)
    for c in trick:
        value += _COUNT[c]
        if special_mask >> c & 1 or low_candidate(c):
            special = True
        extra += worth[c] if c != tb.jack else 0

    def safe(card: int) -> bool:
        """No player still to play can beat this card (as far as the seat knows)."""
        if not later_opps:
            return True
        if suit_of[card] == trump:
            higher = unseen_trumps & above[card]
            if not higher:
                return True
            return not any(not voids[s] >> trump & 1 for s in later_opps)
        if opp_may_trump(later_opps):
            return False
        higher = unseen & above[card] if suit_of[card] == led else unseen & tb.suits[led]
        if not higher:
            return True
        return not any(not voids[s] >> led & 1 for s in later_opps)

    cards = _bits(legal)
    if ally_winning and safe(trick[win_i]):
        # Feed my partner's safe trick: the J (T7: the three, jokers, off-jack), a ten, Low, then
        # side aces and kings.
        best_card, best_cost = -1, 1e9
        for c in cards:
            if special_mask >> c & 1:
                cost = -100.0 - 10.0 * (worth[c] - 1)
            elif rank_of[c] == _TEN:
                cost = -50.0 - (suit_of[c] == trump)
            elif low_candidate(c):
                cost = -40.0
            else:
                # Count cards (a K, an A...) go to my partner's trick before small cards; what is
                # kept is trick-taking power (trumps, masters).
                cost = rank_of[c] - 4.0 * _COUNT[c]
                if suit_of[c] == trump:
                    cost += 14 + rank_of[c]
                elif not unseen & above[c]:
                    cost += 2
            if cost < best_cost:
                best_card, best_cost = c, cost
        return best_card

    winners = [c for c in cards if power[c] > win_str]
    if winners:
        trick_value = value + (10 if special else 0) + 8 * extra + (3 if attacking else 1)
        if ally_winning:
            trick_value -= 8  # my partner may hold it anyway
        elif not attacking and win_side != pitcher_side:
            trick_value -= 3  # another defender has it: no need to spend much
        best_card, best_cost = -1, 1e9
        for c in winners:
            if not safe(c):
                continue
            cost = _win_cost(tb, c, low_candidate)
            if cost < best_cost:
                best_card, best_cost = c, cost
        if best_card >= 0 and (trick_value >= 3 or best_cost < 12 or not later_opps):
            return best_card
        if best_card < 0 and trick_value >= 10:
            # No sure winner: try the strongest winner that is not itself a point card at risk.
            risky = [c for c in winners
                     if not special_mask >> c & 1 and rank_of[c] != _TEN and not low_candidate(c)]
            if risky:
                return max(risky, key=power.__getitem__)
    # Duck: the cheapest card to lose.
    best_card, best_cost = -1, 1e9
    for c in cards:
        cost = _duck_cost(tb, c, unseen)
        if special_mask >> c & 1:
            cost += 40 + 20 * (worth[c] - 1)
        elif low_candidate(c):
            cost += 25
        if cost < best_cost:
            best_card, best_cost = c, cost
    return best_card


def _duck_cost(tb: Tables, c: int, unseen: int) -> float:
    """What losing this card costs: its count, its trump value, its chance to win later."""
    rank = tb.rank[c]
    cost = rank + 2.5 * _COUNT[c]
    if tb.suit_of[c] == tb.trump:
        cost += 14 + rank
    elif not unseen & tb.above[c]:
        cost += 4  # a master card of its suit
    return cost


def _win_cost(tb: Tables, c: int, low_candidate: object) -> float:
    """What winning with this card costs (lowest card that wins; point cards won are gains)."""
    rank = tb.rank[c]
    if tb.suit_of[c] == tb.trump:
        cost = 10.0 + rank
        if tb.special >> c & 1:
            cost -= 20  # winning with the J (T7: a joker, the off-jack, the three) secures it
        elif rank == _TEN:
            cost -= 12
        elif callable(low_candidate) and low_candidate(c):
            cost -= 15
        return cost
    cost = float(rank)
    if rank == _TEN:
        cost -= 10
    return cost


def _lead(tb: Tables, hand: int, legal: int, unseen: int, attacking: bool, opps_trump: bool,
          opp_seats: Sequence[int], partner: int, voids: Sequence[int],
          low_candidate: object) -> int:
    trump, tmask, above = tb.trump, tb.tmask, tb.above
    rank_of = tb.rank
    unseen_trumps = unseen & tmask
    special_mask = tb.special
    my_trumps = legal & tmask
    if my_trumps:
        top = _top(tb, my_trumps)
        master = not unseen_trumps & above[top]
        if master and opps_trump:
            worth = (attacking or unseen_trumps & special_mask
                     or unseen_trumps >> (13 * trump + _TEN) & 1)
            if worth:
                return top
        if attacking and not opps_trump and hand & special_mask & tmask and master:
            return top
    side = legal & ~tmask
    if side:
        # Safe winners first: master of its suit and nobody can trump it.
        if not opps_trump:
            best, best_val = -1, -1
            for c in _bits(side):
                if not unseen & above[c] and _COUNT[c] + rank_of[c] > best_val:
                    best, best_val = c, _COUNT[c] + rank_of[c]
            if best >= 0:
                return best
        # Otherwise the cheapest side card (no tens, keep masters), best in a suit my partner
        # can ruff and not in one an opponent can.
        ruff = 0  # suits (bits) a player is proven void in while trumps may remain
        if unseen_trumps:
            tbit = 1 << trump
            if partner >= 0 and not voids[partner] & tbit:
                ruff = voids[partner]
            opp_ruff = 0
            for o in opp_seats:
                if not voids[o] & tbit:
                    opp_ruff |= voids[o]
        else:
            opp_ruff = 0
        best, best_cost = -1, 1e9
        for c in _bits(side):
            cost = _duck_cost(tb, c, unseen)
            if rank_of[c] == _TEN:
                cost += 10
            suit_bit = 1 << tb.suit_of[c]
            if ruff & suit_bit:
                cost -= 6
            if opp_ruff & suit_bit:
                cost += 6
            if cost < best_cost:
                best, best_cost = c, cost
        if best >= 0 and (not attacking or not my_trumps or opps_trump):
            return best
    # Only trumps (or the pitcher with trumps left and nothing to fear): lead from the top if
    # it is master, else the cheapest trump that is not a point card.
    if my_trumps:
        top = _top(tb, my_trumps)
        if not unseen_trumps & above[top]:
            return top
        best, best_cost = -1, 1e9
        for c in _bits(my_trumps):
            cost = float(rank_of[c])
            if special_mask >> c & 1:
                cost += 30 + 10 * (tb.worth[c] - 1)
            elif rank_of[c] == _TEN:
                cost += 20
            elif callable(low_candidate) and low_candidate(c):
                cost += 15
            if cost < best_cost:
                best, best_cost = c, cost
        return best
    return legal.bit_length() - 1


def _top(tb: Tables, trumps: int) -> int:
    """The highest trump of a non-empty mask, by the trump order (T3)."""
    if tb.model.classic:
        return trumps.bit_length() - 1
    return max(_bits(trumps), key=tb.rank.__getitem__)


# ----------------------------------------------------------------------------- entry points
def _legal_mask(actions: Sequence[Action]) -> int:
    mask = 0
    for a in actions:
        if a.kind == "play":
            mask |= 1 << a.card  # type: ignore[operator]
    return mask


def _choose_bid(hand: int, seat: int, players: int, dealer: int, rules: RuleSet,
                auction: Sequence[tuple[int, Action]], legal: Sequence[Action],
                scores: Sequence[int] | None, aggression: float) -> Action:
    """The four-point bidding, or the ten-point family's (T8) when the rules score more."""
    if rules.is_ten_point or rules.points_total != 4:
        return _ten.choose_bid(hand, seat, players, dealer, rules, auction, legal, aggression)
    return choose_bid(hand, seat, players, dealer, rules, auction, legal, scores, aggression)


def _before_play(phase: str, hand: int, rules: RuleSet, players: int,
                 trump: int | None) -> Action:
    """T5: name trump; T4: discard one card (the trump is named by then)."""
    if phase == "declare":
        return _ten.choose_trump(hand, rules, players)
    assert trump is not None, "a discard comes after trump is named (T4)"
    return _ten.choose_discard(hand, rules, trump)


def choose_call(hand: int, rules: RuleSet, players: int, trump: int | None,
                legal: Sequence[Action]) -> Action:
    """CP3: call the best card the pitcher lacks in the suit it means to make trump (the one
    named, T5, else its best suit): the partner then holds a top trump (TricksterBots #98:
    never one's own card unless nothing else is callable)."""
    if trump is None:
        trump = _ten.best_suit(hand, rules, players)[0]
    order = tables(rules, trump).model.trump_order[trump]  # lowest trump first
    callable_ = {a.card: a for a in legal if a.kind == "call"}
    for card in reversed(order):
        if card in callable_ and not hand >> card & 1:
            return callable_[card]
    return legal[0]


def known_sides(players: int, pitcher: int, partner: int | None) -> list[int] | None:
    """CP5: each seat's side as a seat knows it in call-your-partner: the pitcher and the
    partner together once it knows the partner (``partner``), else None (each seat alone)."""
    if partner is None or partner == pitcher:
        return None
    return [pitcher if s == partner else s for s in range(players)]


def defence(rules: RuleSet, players: int, pitcher: int, seat: int, called: int | None,
            holds: bool, played: int, trump: int, voids: Sequence[int],
            tricks: Iterable[tuple[int, Sequence[int], int]]) -> list[int] | None:
    """CP5, TricksterBots #97: the sides a defender plays by before the reveal
    (:func:`.call_sides.defender_sides`: the pitcher against it and the seats it cannot
    suspect), or None when ``seat`` is no such defender: the pitcher, the holder of the called
    card, or once the card is played (then the sides are known) or before trump is fixed."""
    if called is None or seat == pitcher or holds or played >> called & 1 or trump < 0:
        return None
    tb = tables(rules, trump)
    return defender_sides(players, pitcher, seat, tb.suit_of[called], voids,
                          suspects(tricks, pitcher, players, tb.worth),
                          rules.call_defenders == "side")


def _hand_sides(hand: Hand, seat: int, played: int, trump: int = -1,
                voids: Sequence[int] = ()) -> list[int] | None:
    """:func:`known_sides` for ``seat`` on a hand (a rollout): the partner knows it holds the
    called card; the others learn it when the card is played (CP5); until then a defender
    plays by :func:`defence` (given the ``trump`` and the ``voids`` the play proved)."""
    called, partner, pitcher = hand.called_card, hand.partner, hand.pitcher
    if called is None or pitcher is None:
        return None
    if seat != partner and not played >> called & 1:
        if not voids:
            return None
        return defence(hand.rules, hand.players, pitcher, seat, called, False, played, trump,
                       voids, hand.completed_tricks())
    if partner is None:
        return None
    return known_sides(hand.players, pitcher, partner)


def decide(view: View, aggression: float = 0.0, defend: bool = True) -> Action:
    """The heuristic action for the seat of ``view`` (whose turn it must be); ``defend``:
    a call-your-partner defender reasons who its allies are (:func:`defence`), else it plays
    each seat alone until the reveal (the bot before TricksterBots #97, for measuring)."""
    legal = view.legal_actions
    seat = view.seat
    assert seat is not None and legal
    rules = view.rules
    trump = -1 if view.trump is None else SUITS.index(view.trump)
    if view.phase == "auction":
        return _choose_bid(view.hand_mask, seat, view.players, view.dealer, rules, view.auction,
                           legal, view.scores, aggression)
    if view.phase == "call":
        pitch = view.pitched_card  # B-R4.3: a pitched card names the suit it will lead
        suit = trump if trump >= 0 else None if pitch is None else pitch // 13
        return choose_call(view.hand_mask, rules, view.players, suit, legal)
    if view.phase in ("declare", "discard"):
        action = _before_play(view.phase, view.hand_mask, rules, view.players,
                              trump if trump >= 0 else None)
        return action if action in legal else legal[0]
    mask = _legal_mask(legal)
    trick = [c for _, c in view.trick]
    leader = view.leader if view.leader is not None else seat
    voids = (proven_voids(view.tricks, leader, trick, view.players, trump, rules.follow_rule,
                          _model_of(rules))
             if trump >= 0 else [0] * view.players)
    pitcher = view.pitcher if view.pitcher is not None else seat
    sides = known_sides(view.players, pitcher, view.known_partner)
    if sides is None and defend:
        sides = defence(rules, view.players, pitcher, seat, view.called_card,
                        view.holds_called, view.played_mask, trump, voids, view.tricks)
    card = choose_card(seat, view.players, rules.teams, pitcher, trump,
                       view.hand_mask, mask, leader, trick, view.played_mask, voids,
                       rules.low_to == "holder", rules, sides)
    return PLAY[card] if mask >> card & 1 else legal[0]


def _model_of(rules: RuleSet) -> DeckModel:
    return CLASSIC if not rules.is_ten_point else tables(rules, 0).model


def rollout_action(hand: Hand) -> Action:
    """The heuristic action for the seat to act, played straight on a ``Hand`` (no view).

    For search bots' playouts on determinized hands: the policy reads only what the seat to act
    could know — its own cards, the auction, the cards played and who led them — never another
    seat's cards, so a rollout on a sampled world plays as the real bot would.
    """
    seat = hand.seat_to_act
    assert seat is not None, "the hand is over"
    rules = hand.rules
    phase = hand.phase
    if phase == "auction":
        history = [(s, a) for s, a in hand.history]
        return _choose_bid(hand.hand_of(seat), seat, hand.players, hand.dealer, rules, history,
                           hand.legal_actions(), None, 0.0)
    if phase == "call":
        pitch = hand.pitched_card
        return choose_call(hand.hand_of(seat), rules, hand.players,
                           hand.trump_suit if pitch is None else pitch // 13,
                           hand.legal_actions())
    if phase != "play":
        return _before_play(phase, hand.hand_of(seat), rules, hand.players, hand.trump_suit)
    legal = hand.legal_mask()
    mine = hand.hand_of(seat)
    n = hand.players
    trump_suit = hand.trump_suit
    trump = -1 if trump_suit is None else trump_suit
    lead = hand.leader
    leader = -1 if lead is None else lead
    trick = list(hand.trick_cards)
    played, voids = _seen(hand, trump) if trump >= 0 else (0, [0] * n)
    pitcher = hand.pitcher
    card = choose_card(seat, n, rules.teams, pitcher if pitcher is not None else seat,
                       trump, mine, legal, leader, trick, played, voids,
                       rules.low_to == "holder", rules,
                       _hand_sides(hand, seat, played, trump, voids))
    return PLAY[card]


def playout(hand: Hand, stop_at: int = 0) -> int:
    """Play ``hand`` to its end with :func:`rollout_action`'s choices; how many actions were
    pushed (``pop`` them to undo).  With ``stop_at`` > 0 the card play stops once at most that
    many cards are left in the hands (for an exact search to take over).

    The search bots' rollouts spend most of their time here, so the card play keeps what
    :func:`rollout_action` rebuilds on every call — the cards played and the proven voids —
    up to date card by card, and takes a forced card without asking; the actions are exactly
    :func:`rollout_action`'s (tests/test_bots.py checks it)."""
    depth = 0
    push = hand.push_unchecked
    while hand.result is None and hand.phase != "play":
        push(rollout_action(hand))
        depth += 1
    rules = hand.rules
    n = hand.players
    teams = rules.teams
    calls = hand.called_card is not None  # CP5: who knows the partner changes with the play
    low_holder = rules.low_to == "holder"
    pitcher = hand.pitcher
    trump = -1
    played = 0
    voids = [0] * n
    allows: Sequence[int] = ()
    suit_of: Sequence[int] = ()
    # the cards to play before stopping at ``stop_at`` left (-1: play to the end)
    to_play = max(0, sum(hand.hand_of(s).bit_count() for s in range(n)) - stop_at) \
        if stop_at else -1
    while hand.result is None and to_play:
        to_play -= 1
        if trump < 0 and hand.trump_suit is not None:  # named, or fixed by the first lead
            trump = hand.trump_suit
            allows = FOLLOW_ALLOWS[rules.follow_rule][trump]
            suit_of = hand.model.suit_of[trump]
            played, voids = _seen(hand, trump)
        seat = hand.seat_to_act
        assert seat is not None
        legal = hand.legal_mask()
        trick = hand.trick_cards
        if legal & (legal - 1) == 0:
            card = legal.bit_length() - 1  # choose_card's first rule: the one legal card
        else:
            lead = hand.leader
            card = choose_card(seat, n, teams, pitcher if pitcher is not None else seat,
                               trump, hand.hand_of(seat), legal, -1 if lead is None else lead,
                               list(trick), played, voids, low_holder, rules,
                               _hand_sides(hand, seat, played, trump, voids)
                               if calls else None)
        push(PLAY[card])
        depth += 1
        if trump >= 0:
            played |= 1 << card
            if trick and not allows[suit_of[trick[0]]] >> suit_of[card] & 1:  # C6
                voids[seat] |= 1 << suit_of[trick[0]]
    return depth


def _seen(hand: Hand, trump: int) -> tuple[int, list[int]]:
    """The cards played so far and the voids they prove, as :func:`rollout_action` counts
    them once trump is known."""
    n = hand.players
    allows = FOLLOW_ALLOWS[hand.rules.follow_rule][trump]
    suit_of = hand.model.suit_of[trump]
    played = 0
    voids = [0] * n
    for ldr, cards, _ in hand.completed_tricks():
        for c in cards:
            played |= 1 << c
        _voids_of(voids, ldr, cards, n, allows, suit_of)
    trick = hand.trick_cards
    if trick:
        lead = hand.leader
        for c in trick:
            played |= 1 << c
        _voids_of(voids, -1 if lead is None else lead, trick, n, allows, suit_of)
    return played, voids


class HeuristicBot(Bot):
    """Rule-based play from the seat's view (see the module docstring)."""

    name = "heuristic"
    #: chance of a uniformly random legal action instead (0 for the plain heuristic)
    noise = 0.0
    #: points added to the value of bidding against passing (a bolder or shyer bidder)
    aggression = 0.0
    #: a call-your-partner defender reasons who its allies are (TricksterBots #97)
    defend = True

    def choose(self, view: View) -> Action:
        if self.noise and self.rng.random() < self.noise:
            actions = view.legal_actions
            return actions[int(self.rng.random() * len(actions))]
        return decide(view, self.aggression, self.defend)


class EasyBot(HeuristicBot):
    """The ``easy`` level: the heuristic, but a third of its actions are random."""

    name = "easy"
    noise = 0.35

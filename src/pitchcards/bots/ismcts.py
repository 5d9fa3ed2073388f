"""``expert-ismcts``: Single-Observer Information-Set MCTS on the expert's deal sampler.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo Tree Search"): one
tree for the deciding seat, whose nodes are the observer's information sets.  In Pitch every
action after the deal is public (bids, passes, pitches, cards), so an information set of the
observer below the root is exactly the sequence of actions taken since the root, and the tree is
keyed by action sequences.  Each iteration

1. **determinizes**: draws one deal consistent with the view from :mod:`.sampler` (hard evidence
   exactly; bids and passes as soft evidence: three proposals from :func:`~.sampler.sample_hidden`
   weighted by importance weight x :func:`~.sampler.bid_likelihood`, one kept by weight), and
   re-deals the hidden cards of one reusable world (:func:`redeal`, the same state as
   :func:`~.sampler.build_world` without replaying the history);
2. **selects** down the tree among the actions legal in *this* determinization (subset-armed
   bandit: a child's availability count grows each time it was legal when its parent was
   visited, and UCB1 uses ``sqrt(ln(availability) / visits)``);
3. **expands** one untried legal action;
4. **rolls out** the hand with the heuristic policy (:mod:`.policy`) for every seat;
5. **backpropagates** the hand's :class:`~.utility.Utility` *for the side that acted* at each
   node (every side gets its own match-aware utility), so each seat maximises its own side.

The most visited root action is played (ties: higher mean, then the rollout policy's choice).
At the root only the expert's candidates are searched (in the auction: pass, each bid, and a
pitch of each suit's top card only).  A ``time_limit`` and an iteration cap bound each decision.

By default (``pimc_bidding``) the auction is left to the PIMC expert, whose bids measured
stronger; ``expert-ismcts-pure`` bids by ISMCTS too.  Measured against PIMC in ``docs/bots.md``
(weaker at equal time per decision, so ``expert`` stays PIMC).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ..actions import Action
from ..hand import Hand
from ..views import View
from .base import Bot
from .expert import ExpertBot, candidates
from .policy import playout, rollout_action
from .sampler import Evidence, bid_likelihood, build_world, dealt_of, evidence_of, sample_deal
from .utility import Utility

__all__ = ["ISMCTS", "ISMCTSBot", "ISMCTSBudget", "Node", "redeal"]


@dataclass(frozen=True, slots=True)
class ISMCTSBudget:
    """How much ``expert-ismcts`` thinks per decision."""

    iterations: int = 20_000     #: iteration cap per decision
    time_limit: float = 0.012    #: seconds per card-play decision
    bid_time_limit: float = 0.09  #: seconds per auction decision
    exploration: float = 0.7     #: UCB1 constant (utilities in 0..1; scaled in points/money)
    proposals: int = 3           #: sampler proposals per determinization (soft evidence)
    soft: bool = True            #: weight determinizations by the bidding evidence
    pimc_bidding: bool = True    #: bid with the PIMC expert (ISMCTS bids measured weaker)


ISMCTS = ISMCTSBudget()


class Node:
    """One information set of the observer: statistics of the action that led here."""

    __slots__ = ("avail", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side          #: the side that chose the action leading to this node
        self.visits = 0
        self.total = 0.0          #: summed utility for ``side``
        self.avail = 1            #: times this action was legal when the parent was visited
        self.children: dict[Action, Node] = {}


def redeal(world: Hand, view: View, hands: list[int], ev: Evidence) -> None:
    """Give ``world`` (at the view's public point) the hidden cards ``hands`` in place.

    Equivalent to ``build_world(view, hands, ev)`` (every card played so far is the same in every
    determinization, so only the current holdings and the dealt masks change), without the
    replay.
    """
    me = ev.seat
    holdings = [world.hand_of(s) if s == me else hands[s] for s in range(ev.players)]
    world.redeal(holdings, check=False)


class ISMCTSBot(Bot):
    """SO-ISMCTS with the heuristic rollout policy and the match-aware utility."""

    name = "expert-ismcts"
    budget: ISMCTSBudget = ISMCTS

    def __init__(self, seed: int | None = None, budget: ISMCTSBudget | None = None) -> None:
        super().__init__(seed)
        if budget is not None:
            self.budget = budget
        self.last_iterations = 0
        self._bidder = ExpertBot(seed)
        self._bidder.rng = self.rng

    def choose(self, view: View) -> Action:
        acts = list(view.legal_actions)
        if not acts:
            raise ValueError("it is not this seat's turn: no legal actions")
        if len(acts) == 1:
            self.last_iterations = 0
            return acts[0]
        if view.phase in ("declare", "discard") or (
                view.phase == "auction" and self.budget.pimc_bidding):
            # T4, T5: naming trump and the hidden discards are left to the PIMC expert (a
            # discard is hidden, so it cannot key an information set of the others).
            self.last_iterations = 0
            return self._bidder.choose(view)
        stats, policy_choice = self.search(view)
        return max(stats, key=lambda a: (stats[a][0], stats[a][1], a == policy_choice))

    def search(self, view: View) -> tuple[dict[Action, tuple[int, float]], Action]:
        """Run the search: (visits, mean utility) per root candidate, and the rollout policy's
        choice in the first determinization (the tie-break)."""
        assert view.seat is not None
        b = self.budget
        start = time.perf_counter()
        limit = b.bid_time_limit if view.phase == "auction" else b.time_limit
        rng = self.rng
        ev = evidence_of(view)
        n = view.players
        sides = view.rules.side_count(n)
        utils = [Utility(view.rules, s, n, view.scores) for s in range(sides)]
        scale = 1.0 if utils[0].mode == "match" else 3.0
        c = b.exploration * scale
        soft = b.soft and len(view.auction) > 0
        side_of = view.side_of
        cands = candidates(view)
        root_allowed = set(cands)

        def draw_k() -> tuple[list[int], list[int]]:
            best: tuple[list[int], list[int]] | None = None
            total = 0.0
            got_n = 0
            tries = 0
            while got_n < max(1, b.proposals) and tries < 50 * max(1, b.proposals):
                tries += 1
                got = sample_deal(ev, rng)
                if got is None:
                    continue
                got_n += 1
                hands, discards, w = got
                if soft:
                    w *= bid_likelihood(view, dealt_of(view, ev, hands, discards))
                total += w
                if best is None or (total > 0 and rng.random() * total < w):
                    best = (hands, discards)
            if best is None:
                raise RuntimeError("no deal is consistent with this view")
            return best

        hands, discards = draw_k()
        world = build_world(view, hands, ev, discards)
        hidden = any(ev.hidden_discards)  # T4: the discards differ per determinization
        policy_choice = rollout_action(world)
        root = Node(-1)
        push = world.push_unchecked
        pop = world.pop
        log = math.log
        sqrt = math.sqrt
        iters = 0
        while iters < b.iterations:
            if iters >= 2 and time.perf_counter() - start > limit:
                break
            iters += 1
            if iters > 1:
                if hidden:
                    hands, discards = draw_k()
                    world = build_world(view, hands, ev, discards)
                    push, pop = world.push_unchecked, world.pop
                else:
                    redeal(world, view, draw_k()[0], ev)
            node = root
            path = [root]
            depth = 0
            # selection / expansion
            while world.result is None:
                legal = world.legal_actions()
                if depth == 0:
                    legal = [a for a in legal if a in root_allowed]
                kids = node.children
                untried = [a for a in legal if a not in kids]
                if untried:
                    a = untried[int(rng.random() * len(untried))]
                    seat = world.seat_to_act
                    assert seat is not None
                    child = Node(side_of(seat))
                    kids[a] = child
                    for other in legal:
                        if other != a and other in kids:
                            kids[other].avail += 1
                    push(a)
                    depth += 1
                    path.append(child)
                    node = child
                    break
                best_a = legal[0]
                best_v = -math.inf
                for a in legal:
                    ch = kids[a]
                    ch.avail += 1
                    v = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if v > best_v:
                        best_v = v
                        best_a = a
                push(best_a)
                depth += 1
                node = kids[best_a]
                path.append(node)
            depth += playout(world)  # the rollout
            r = world.result
            assert r is not None
            vals = [u(r) for u in utils]
            for nd in path:
                nd.visits += 1
                if nd.side >= 0:
                    nd.total += vals[nd.side]
            for _ in range(depth):
                pop()
        self.last_iterations = iters
        out = {a: (ch.visits, ch.total / ch.visits) for a, ch in root.children.items()}
        for a in cands:
            out.setdefault(a, (0, -math.inf))
        return out, policy_choice


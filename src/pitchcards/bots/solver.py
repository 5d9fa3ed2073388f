"""Exact open-hand (double-dummy) solving of the rest of a hand.

The value of a finished hand is a number for one *root side* (a seat, or a team in partnerships)
given by a utility function of the :class:`~pitchcards.scoring.HandResult` - the side's score
delta, a match-win estimate, money... (see :mod:`pitchcards.bots.utility`).  The root side's seats
maximise it and every other seat minimises it: exact minimax for two teams (zero-sum), the
*paranoid* reduction for cutthroat tables.

Alpha-beta with a transposition table at trick boundaries (keyed by the hands, the leader and
the cards each side has captured so far), best-move ordering from the table, and equivalent-card
pruning: two cards of one hand in the same suit, with no live card of another hand between them,
that count nothing (ranks 2-9, not the lowest trump; in the ten-point family never a joker or
a card whose capture scores, T7) are searched once.

The search lives on ``Hand.push_unchecked``/``Hand.pop``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action
from ..hand import Hand
from ..scoring import HandResult
from .tables import tables

__all__ = ["BudgetExceeded", "Solver", "action_values", "solve"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = float("inf")


class BudgetExceeded(Exception):
    """The node budget ran out before the search finished."""


class Solver:
    """Solves positions of one hand for one root side under one utility."""

    def __init__(self, hand: Hand, root_side: int, utility: Callable[[HandResult], float],
                 max_nodes: int | None = None) -> None:
        self.hand = hand
        self.root_side = root_side
        self.utility = utility
        self.max_nodes = max_nodes
        self.nodes = 0
        self.n = hand.players
        self.sides = tuple(hand.side_of(s) for s in range(self.n))
        # Two teams: the root team's captures fix the other team's too (a smaller key); with
        # three teams (TT1) or each for themselves, every seat's captures count.
        self.partners = hand.rules.teams == 2
        self.tt: dict[tuple[int, ...], tuple[int, float, int]] = {}
        self._leaf: dict[tuple[object, ...], float] = {}
        self._low_card = -1
        self._keep = 0  # cards never pruned as equivalent (T7: the point cards, the jokers)

    # --------------------------------------------------------------------------------- public
    def value(self, alpha: float = -_INF, beta: float = _INF) -> float:
        """The minimax value of the current position for the root side."""
        self._prepare()
        return self._search(len(self.hand.current_trick()), alpha, beta)

    def action_values(self) -> dict[Action, float]:
        """The exact value of each legal action of the seat to act."""
        self._prepare()
        h = self.hand
        pos = len(h.current_trick())
        out: dict[Action, float] = {}
        for a in h.legal_actions():
            h.push_unchecked(a)
            try:
                out[a] = self._search((pos + 1) % self.n, -_INF, _INF)
            finally:
                h.pop()
        return out

    # --------------------------------------------------------------------------------- search
    def _prepare(self) -> None:
        h = self.hand
        t = h.trump_suit
        if t is not None:
            in_play = 0
            for s in range(self.n):
                in_play |= h.dealt[s] & ~h.discarded(s)  # T4: a discard is out of play
            tb = tables(h.rules, t)
            trumps = in_play & tb.tmask
            if h.model.classic:
                self._low_card = (trumps & -trumps).bit_length() - 1
            else:
                order = [c for c in h.model.trump_order[t] if trumps >> c & 1]
                self._low_card = order[0] if order else -1
                self._keep = tb.special | ~((1 << 52) - 1)

    def _leaf_value(self, r: HandResult) -> float:
        key = (r.deltas, r.made, r.moon, r.pitcher_side, r.points)
        v = self._leaf.get(key)
        if v is None:
            v = self._leaf[key] = self.utility(r)
        return v

    def _moves(self, pos: int) -> list[Action]:
        """Legal moves with equivalent cards pruned, likely-best first."""
        h = self.hand
        moves = h.legal_actions()
        if len(moves) <= 1:
            return moves
        seat = h.seat_to_act
        assert seat is not None
        live = 0
        for s in range(self.n):
            if s != seat:
                live |= h.hand_of(s)
        for _, c in h.current_trick():
            live |= 1 << c
        low = self._low_card
        keep = self._keep
        out: list[Action] = []
        prev = -1
        for a in moves:  # ascending card ids: suit by suit, low rank first
            c = a.card if a >= 52 else int(a)  # type: ignore[assignment]
            if (prev >= 0 and prev // 13 == c // 13 and c % 13 < 8 and prev != low
                    and c != low and h.trump_suit is not None
                    and not (keep >> c & 1 or keep >> prev & 1)):
                between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
                if not between & live:
                    prev = c
                    continue  # touching a card already kept: same outcome
            out.append(a)
            prev = c
        if pos == 0:
            out.reverse()  # leads: high cards first
        return out

    def _search(self, pos: int, alpha: float, beta: float) -> float:
        h = self.hand
        r = h.result
        if r is not None:
            return self._leaf_value(r)
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded
        seat = h.seat_to_act
        assert seat is not None
        maxing = self.sides[seat] == self.root_side
        key: tuple[int, ...] | None = None
        best_move = -1
        if pos == 0:
            n = self.n
            if self.partners:
                cap = h.captured(self.root_side) | h.captured(self.root_side + 2)
                key = (*[h.hand_of(s) for s in range(n)], seat, cap)
            else:
                key = (*[h.hand_of(s) for s in range(n)], seat,
                       *[h.captured(s) for s in range(n)])
            entry = self.tt.get(key)
            if entry is not None:
                flag, val, best_move = entry
                if flag == _EXACT:
                    return val
                if flag == _LOWER:
                    if val >= beta:
                        return val
                    alpha = max(alpha, val)
                elif val <= alpha:
                    return val
                else:
                    beta = min(beta, val)
        a0, b0 = alpha, beta
        moves = self._moves(pos)
        if best_move >= 0:
            for i, m in enumerate(moves):
                if m == best_move:
                    if i:
                        moves.insert(0, moves.pop(i))
                    break
        nxt = (pos + 1) % self.n
        push, pop = h.push_unchecked, h.pop
        best = -_INF if maxing else _INF
        chosen = -1
        for m in moves:
            push(m)
            try:
                v = self._search(nxt, alpha, beta)
            finally:
                pop()
            if maxing:
                if v > best:
                    best, chosen = v, int(m)
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, chosen = v, int(m)
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            if best <= a0:
                flag = _UPPER
            elif best >= b0:
                flag = _LOWER
            else:
                flag = _EXACT
            self.tt[key] = (flag, best, chosen)
        return best


def solve(hand: Hand, root_side: int, utility: Callable[[HandResult], float],
          max_nodes: int | None = None) -> float:
    """The exact open-hand value of ``hand`` (in the play phase) for ``root_side``."""
    return Solver(hand, root_side, utility, max_nodes).value()


def action_values(hand: Hand, root_side: int, utility: Callable[[HandResult], float],
                  max_nodes: int | None = None) -> dict[Action, float]:
    """The exact open-hand value of each legal action of the seat to act."""
    return Solver(hand, root_side, utility, max_nodes).action_values()

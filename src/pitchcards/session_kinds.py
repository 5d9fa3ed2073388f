"""The one way to make a session: :func:`new_session` picks the kind the rules play.

A rule set played for money (``money`` other than ``"none"``, rule set A) makes a
:class:`~pitchcards.MoneySession`; any other makes a :class:`~pitchcards.Match` played to its
target.  Every face, the arena and the record reader start a session here, so which kind a rule
set plays is decided in one place, and what they do with it goes through the
:class:`~pitchcards.session.GameSession` protocol.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import IllegalActionError, shown
from .match import Match
from .money import MoneySession
from .rules import RuleSet
from .session import GameSession

__all__ = ["new_session"]


def new_session(rules: RuleSet, names: Sequence[str] | None = None, *,
                players: int | None = None, dealer: int | None = None,
                seed: int | None = None, scores: Sequence[int] | None = None) -> GameSession:
    """A session for ``rules``: the players ``names`` in seat order (or, for a match only,
    ``players`` seats with the default names), ``dealer`` the first dealer (None: drawn, A-R2.1
    / B-R2.1), ``seed`` for the deals, ``scores`` each side's starting score (a match only).

    Bad arguments raise :class:`~pitchcards.IllegalActionError` (``bad_setup``) or
    :class:`~pitchcards.OptionError` as the sessions do, naming the argument.  (Returning either
    class as a :class:`GameSession` is also where mypy checks that both satisfy the protocol.)
    """
    if not isinstance(rules, RuleSet) or rules.money == "none":
        # Match checks the rules and the rest, and names what is wrong.
        count = players if players is not None else len(names) if names is not None else 0
        return Match(rules, players=count, dealer=dealer, seed=seed, scores=scores, names=names)
    if names is None:
        raise IllegalActionError(f"a money session needs its players' names, not only a number "
                                 f"of seats ({shown(players)})", reason="bad_setup",
                                 phase="setup")
    if scores is not None:
        raise IllegalActionError(f"a money session starts every player at 0, not at "
                                 f"{shown(scores)} (A-R8.3)", reason="bad_setup", phase="setup")
    return MoneySession(rules, names, dealer=dealer, seed=seed)

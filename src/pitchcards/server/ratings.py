"""Ratings (issue 32, item 2): Weng-Lin (OpenSkill's Plackett-Luce model) in one pool per kind
of game, teams rated as teams and a table of several sides as a ranking of them.

* **Pools** (:data:`POOLS`, :func:`pool_of`): four-point partnerships (``auction-partners``,
  ``setback``), four-point each for themselves (``auction``, 3 to 7 players), ten-point
  partners (``ten-point``), ten-point each for themselves (``ten-point-cutthroat``), the money
  game (``money``, ranked by money at the settlement), six players as three teams of two
  (``three-teams``, a ranking of three teams), and five calling a partner each hand
  (``call-partner``, a ranking of the five seats: partners change every hand).  A rating in
  one says nothing of another: a Setback partner's skill and a cutthroat player's are not
  one number.
* **The model**: :class:`~openskill.models.PlackettLuce` with its defaults (μ 25, σ 25/3,
  β 25/6, τ 25/300).  Plackett-Luce rates any number of sides of any size from their finishing
  order, in one update: a partnership is one team of two (its players move together, each by
  their own σ), a cutthroat table of five is a ranking of five sides of one, and ties share a
  place.  Chosen over Bradley-Terry/Thurstone-Mosteller "full" pairing (which cost a pair of
  sides each, and fit worse for 3+ sides per Weng & Lin) and over Elo/Glicko (two sides of one
  player only).  τ keeps a long-rated player's σ from freezing, so a rating can still move.
* **The number shown** (:func:`shown`): ``round(60 × μ)`` — 1500 for a new player, on the
  scale people know from Elo and lichess — with a **provisional** mark ``?`` while σ > 6
  (:data:`PROVISIONAL_SIGMA`; a new player's σ is 8.33, and it falls below 6 after some
  ten to fifteen matches against players as new, fewer against settled ones).  μ itself, not a
  conservative μ − kσ: with μ − 3σ a player's number rises in their first matches even when
  they lose (σ shrinks faster than μ falls), which reads as a bug; the uncertainty is shown by
  the mark instead, and the leaderboards leave provisional ratings out.  docs/accounts.md says
  the same for players.
* **Bots** have accounts of their own in every pool, one per level (``Easy bot`` …); a match
  against bots is rated as any other, the bot's side moving too, so the bots' numbers place
  each level on the ladder.

Everything here is pure (no storage): :mod:`.rating_store` rates a match in the database.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["MODEL", "POOLS", "POOL_WORDS", "PROVISIONAL_SIGMA", "SCALE", "Rating", "Side", "number",
           "pool_of", "rate", "shown"]

#: pool -> its variants (the variants' names in pitchcards.rules.VARIANTS)
POOLS: dict[str, tuple[str, ...]] = {
    "four-point-partners": ("auction-partners", "setback"),
    "four-point-cutthroat": ("auction",),
    "four-point-three-teams": ("three-teams",),
    "four-point-call-partner": ("call-partner",),
    "ten-point-partners": ("ten-point",),
    "ten-point-cutthroat": ("ten-point-cutthroat",),
    "money": ("money",),
}
#: each pool in words, for the pages
POOL_WORDS: dict[str, str] = {
    "four-point-partners": "Four-point, partners",
    "four-point-cutthroat": "Four-point, each for themselves",
    "four-point-three-teams": "Four-point, three teams",
    "four-point-call-partner": "Four-point, call your partner",
    "ten-point-partners": "Ten-point, partners",
    "ten-point-cutthroat": "Ten-point, each for themselves",
    "money": "The money game",
}
_POOL_OF = {variant: pool for pool, variants in POOLS.items() for variant in variants}

#: OpenSkill's Plackett-Luce model with its published defaults
MODEL = PlackettLuce()
#: points shown per unit of μ (μ 25: 1500)
SCALE = 60
#: a rating is provisional while its σ is above this (a new one's is 25/3)
PROVISIONAL_SIGMA = 6.0


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma


@dataclasses.dataclass(frozen=True, slots=True)
class Side:
    """One side of a match: its players' ratings (a partnership's two, a cutthroat player's
    one) and its place (0: first; sides that tie share a place)."""

    ratings: tuple[Rating, ...]
    place: int


def pool_of(variant: str) -> str | None:
    """The pool a variant's matches are rated in (None: a variant no pool rates)."""
    return _POOL_OF.get(variant)


def rate(sides: Sequence[Side], model: PlackettLuce = MODEL) -> list[tuple[Rating, ...]]:
    """Each side's players' new ratings, in the order given.  At least two sides, each with a
    player; ValueError otherwise (nothing to rate)."""
    if len(sides) < 2 or any(not side.ratings for side in sides):
        raise ValueError(f"rate: a match is at least two sides of at least one player each, "
                         f"not {[len(s.ratings) for s in sides]}")
    teams = [[model.rating(mu=r.mu, sigma=r.sigma) for r in side.ratings] for side in sides]
    rated: list[list[PlackettLuceRating]] = model.rate(teams, ranks=[s.place for s in sides])
    return [tuple(Rating(p.mu, p.sigma) for p in team) for team in rated]


def number(rating: Rating) -> int:
    """The rating's number on the shown scale, without its mark: ``round(60 × μ)``."""
    return round(SCALE * rating.mu)


def shown(rating: Rating) -> str:
    """The number a player sees: ``1500``, or ``1500?`` while the rating is provisional."""
    return f"{number(rating)}?" if rating.sigma > PROVISIONAL_SIGMA else str(number(rating))

"""Tournaments: duplicate Pitch, progressive Pitch and Swiss, as formats without a face.

Standard library only, like the rest of the core: the formats take entrants and results and
say who sits where next and who leads.  docs/tournaments.md describes each format, the
movements and the scoring::

    from pitchcards.tournament import Duplicate, Progressive, Swiss
    event = Duplicate([f"pair {i}" for i in range(8)], boards_per_round=2, seed=7)
    for play in event.schedule:       # deal_board(rules, play.board) is the same at every table
        ...
    event.record(board=1, table=0, deltas=(3, -1))
    print([s.text() for s in event.standings(through_round=0)])
"""

from __future__ import annotations

from .boards import Board, board_cards, board_scores, deal_board, make_boards, play_board
from .duplicate import Duplicate, Play
from .errors import TournamentError
from .layout import fill_with_bots, progressive_sizes, swiss_sizes
from .movements import Sitting, individual, mitchell
from .progressive import Progressive
from .scoring import Standing, matchpoints
from .seeding import derive_seed
from .swiss import Swiss, SwissRound

__all__ = [
    "Board",
    "Duplicate",
    "Play",
    "Progressive",
    "Sitting",
    "Standing",
    "Swiss",
    "SwissRound",
    "TournamentError",
    "board_cards",
    "board_scores",
    "deal_board",
    "derive_seed",
    "fill_with_bots",
    "individual",
    "make_boards",
    "matchpoints",
    "mitchell",
    "play_board",
    "progressive_sizes",
    "swiss_sizes",
]

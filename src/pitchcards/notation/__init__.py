"""Game records: a whole :class:`Match` or :class:`MoneySession` as text, read back and replayed.

A record is the game's rules, its deals and its actions, in the spirit of python-chess's PGN and
OpenSpiel's serialized history: any state is rebuilt by dealing the recorded cards and pushing
the recorded actions (:func:`replay`).  Everything else in a record (results, running totals,
payouts, the winner) is a *check*: optional on reading, always written, and compared with the
replay, so a record that no longer replays to what it says raises :class:`RecordMismatchError`.
``docs/notation.md`` describes the format with an example; in brief::

    pitchcards-record 2
    game match                         # or: game money
    variant auction
    option target 11                   # every option that differs from the variant
    players 4                          # money: players Alice Bob Cy
    dealer 0                           # the first dealer's seat
    scores 0 0 3 0                     # match only, if the starting scores are not all zero
    seed 7                             # informational

    hand 1 dealer 0
    deal 0 AS KS 2S 9H 3D TC           # one line per seat, six cards each
    deal 1 ...
    1 pass                             # acting seat, then the action as str(action) writes it
    2 bid 2
    ...
    result pitcher 2, bid 2, trump H, made, high 2, low 1, jack -, game 2, tricks 0 2 4 0, ...
    total 0 1 3 0                      # running score per side after the hand
    winner 2                           # match only, once a side has won

    end 41 3f2a9c01b4e6d7a8            # lines before it and their checksum (version 2)

A hand entered by its outcome (a real table's, ``Match.enter``) has one ``outcome`` line instead
of its deal and action lines: ``outcome bidder 1, bid 3, trump H, high 1, low 2, jack -, game
1``. Money sessions add ``seats NAME...`` (who sits in each hand, a check), the between-hands
events ``join NAME``, ``leave NAME`` and ``settle``, and after a ``leave``/``settle`` the check
lines ``payout NAME AMOUNT`` (exact dollars, e.g. ``-2/15``). ``#`` starts a comment; blank
lines are ignored. A record may stop anywhere between or inside hands: a saved game in progress.
A version-2 record (what :func:`write_record` writes) then ends with ``end LINES CHECKSUM``, so
that a record cut short (an interrupted save) is refused; version 1 has no end line and is still
read. The header tags ``names``, ``bot NAME LEVEL``, ``practice`` and ``undos`` say who is who
and whether actions were taken back.

The seed is informational: a replayed game restarts its random generator from the seed, so hands
dealt at random after a replay are not the ones the original game would have dealt next.
"""

from __future__ import annotations

from .describe import replay_text
from .format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    EventRecord,
    HandRecord,
    OptionValue,
    Record,
    RecordDamagedError,
    RecordError,
    RecordMismatchError,
    RecordReplayError,
    RecordSyntaxError,
    result_fields,
)
from .reader import parse_record
from .replay import read_record, replay
from .writer import write_record

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "EventRecord",
    "HandRecord",
    "OptionValue",
    "Record",
    "RecordDamagedError",
    "RecordError",
    "RecordMismatchError",
    "RecordReplayError",
    "RecordSyntaxError",
    "parse_record",
    "read_record",
    "replay",
    "replay_text",
    "result_fields",
    "write_record",
]

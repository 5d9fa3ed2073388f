"""A money table's memory as its hands go on (issue 31): a four-player money session played by
random bots through a Table, the events window moved as a server room moves it (keep 1,000 of
at most 2,000), with and without ``MoneySession.forget_hands``.  Prints the most traced memory
(``tracemalloc``, sampled at each deal) over hands 100-200 and over the last 100 hands, and
the growth per hand between.

    .venv/bin/python benchmarks/bench_money_memory.py --hands 1000
"""

from __future__ import annotations

import argparse
import tracemalloc

from pitchcards.bots import make_bot
from pitchcards.money import MoneySession
from pitchcards.rules import find_variant
from pitchcards.table import Table

WINDOW = 1000  #: the server's default replay_limit


def traced(hands: int, forget: bool) -> tuple[int, int]:
    """The most bytes traced at a deal over hands 100-200 and over the last 100 hands."""
    tracemalloc.start()
    try:
        session = MoneySession(find_variant("money"), ["A", "B", "C", "D"], seed=1)
        table = Table(session, {s: make_bot("random", seed=s) for s in range(4)},
                      auto_deal=False)
        early = late = 0
        while session.hands_dealt < hands or session.in_hand:
            if session.in_hand:
                table.step()
                continue
            table.deal()
            if table.seq >= 2 * WINDOW:  # as RoomState.forget moves the window
                table.forget(WINDOW)
                if forget:
                    session.forget_hands(1)
            now = session.hands_dealt
            if 100 < now <= 200:
                early = max(early, tracemalloc.get_traced_memory()[0])
            elif now > hands - 100:
                late = max(late, tracemalloc.get_traced_memory()[0])
        return early, late
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands to play (> 300)")
    args = parser.parse_args()
    print(f"| hands kept | MB, hands 100-200 | MB, hands {args.hands - 100}-{args.hands} "
          "| bytes per hand |")
    print("|---|---|---|---|")
    for forget in (False, True):
        first, last = traced(args.hands, forget)
        print(f"| {'current only' if forget else 'all'} | {first / 1e6:.2f} | {last / 1e6:.2f} "
              f"| {(last - first) / (args.hands - 200):.0f} |")


if __name__ == "__main__":
    main()

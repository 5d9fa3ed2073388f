"""Run OpenSpiel's ISMCTS on Pitch: one team searches, the other plays at random or heuristically.

    python examples/openspiel_ismcts.py                          # 20 hands, ~30 s
    python examples/openspiel_ismcts.py --hands 100 --simulations 200 --vs heuristic

The game is ``pyspiel.load_game("python_pitch", {"variant": ..., "dealer": ...})`` (importing
``pitchcards.envs.openspiel`` registers it): one hand, chance nodes for the deal, the 110 engine
actions, returns = each side's score change.  Seats 0 and 2 are OpenSpiel's Python
``ISMCTSBot`` (UCT, random rollouts, hidden cards redrawn by the game's
``resample_from_infostate``); seats 1 and 3 pick uniformly at random (``--vs random``) or are
our heuristic bot, which decides from its seat's view (``--vs heuristic``).  Hands are not
played in duplicate here (``pitch arena --bots expert,openspiel-ismcts`` does that).  Needs
``pip install pitchcards[rl]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import pitchcards.envs.openspiel  # noqa: F401  (registers "python_pitch")
from pitchcards.bots import make_bot


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="auction-partners",
                    help="auction-partners or setback (two teams)")
    ap.add_argument("--hands", type=int, default=20, help="hands to play (default 20)")
    ap.add_argument("--simulations", type=int, default=100,
                    help="ISMCTS simulations per decision (default 100)")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--vs", choices=("random", "heuristic"), default="random")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    np_rng = np.random.RandomState(args.seed)
    margins: list[float] = []
    start = time.perf_counter()
    for k in range(args.hands):
        game = pyspiel.load_game("python_pitch", {"variant": args.variant, "dealer": k % 4})
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), args.uct_c,
                               args.simulations, random_state=np_rng)
        other = make_bot("heuristic", args.seed + k)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if state.is_chance_node():
                cards, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(np_rng.choice(cards, p=probs)))
            elif player % 2 == 0:
                state.apply_action(int(bot.step(state)))
            elif args.vs == "random":
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(int(other.choose(state.view(player))))
        returns = state.returns()
        margins.append(returns[0] - returns[1])
        result = state.hand.result
        print(f"hand {k + 1:3d}: {result.summary() if result else ''}")
    mean = statistics.fmean(margins)
    half = (1.96 * statistics.stdev(margins) / len(margins) ** 0.5) if len(margins) > 1 else 0.0
    print(f"ISMCTS team ({args.simulations} simulations) vs {args.vs}: "
          f"{mean:+.2f} ± {half:.2f} points per hand over {len(margins)} hands "
          f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

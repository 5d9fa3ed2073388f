"""The OpenSpiel adapter: OpenSpiel's random-simulation test, resampling, ISMCTS and MCTS play,
the ``openspiel-ismcts`` arena bot and the example."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import pitchcards as pc  # noqa: E402
from helpers import run_python  # noqa: E402
from pitchcards.bots import BOTS, make_bot  # noqa: E402
from pitchcards.bots.arena import run_arena  # noqa: E402
from pitchcards.envs.ismcts_bot import OpenSpielISMCTSBot  # noqa: E402
from pitchcards.envs.openspiel import GAME_NAME, PitchGame, PitchState, state_from_hand  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PARAMS = [{}, {"variant": "auction", "players": 3, "dealer": 2},
          {"variant": "money", "players": 6, "dealer": 5}, {"variant": "setback", "dealer": 1},
          {"variant": "ten-point", "dealer": 3},
          {"variant": "ten-point-cutthroat", "players": 5, "dealer": 1}]


@pytest.mark.parametrize("params", PARAMS)
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = pyspiel.load_game(GAME_NAME)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == pc.NUM_ACTIONS
    assert game.max_chance_outcomes() == 52
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


@pytest.mark.parametrize("variant,players,deck", [
    ("ten-point", 4, 54), ("ten-point-cutthroat", 6, 54), ("ten-point-cutthroat", 3, 53)])
def test_ten_point_game_facts_and_deal(variant: str, players: int, deck: int) -> None:
    rules = pc.find_variant(variant)
    if deck != rules.deck:
        # one joker: off-jack + joker = 6 points, at most 5 players (53 // 9)
        rules = rules.replace(deck=deck, extra_points="off_jack_jokers", max_players=5)
    game = PitchGame.from_rules(rules, players, dealer=players - 1)
    assert game.num_distinct_actions() == pc.actions.MAX_ACTIONS == 176
    assert game.max_chance_outcomes() == deck
    assert game.max_utility() == rules.points_total and game.min_utility() == -rules.max_bid
    state = game.new_initial_state()
    rng = random.Random(deck + players)
    for dealt in range(9 * players):  # T4: nine cards each, from the whole deck
        assert state.is_chance_node()
        outcomes = [c for c, _ in state.chance_outcomes()]
        assert outcomes == [c for c in range(deck) if not any(m >> c & 1 for m in state.dealt)]
        assert len(outcomes) == deck - dealt
        state.apply_action(rng.choice(outcomes))
    assert not state.is_chance_node() and state.hand is not None
    assert [m.bit_count() for m in state.hand.dealt] == [9] * players
    length = 9 * players
    while not state.is_terminal():
        assert len(state.information_state_tensor(state.current_player())) == \
            game.information_state_tensor_size()
        state.apply_action(rng.choice(state.legal_actions()))
        length += 1
    assert length <= game.max_game_length()
    assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= \
        game.max_utility()


def _random_state(game: object, rng: random.Random, decisions: int) -> PitchState:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal() and (state.is_chance_node() or decisions > 0):
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state  # type: ignore[no-any-return]


@pytest.mark.parametrize("params", PARAMS)
def test_resample_keeps_the_players_information_and_changes_the_rest(
        params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    rng = random.Random(7)
    changed = 0
    for k in range(25):
        state = _random_state(game, rng, decisions=k % 20)
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            assert other.information_state_string(player) == state.information_state_string(
                player)
            assert other.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.legal_actions() == state.legal_actions()
            changed += other.hand.dealt != state.hand.dealt
    assert changed > 30


def test_state_from_hand_replays_a_hand() -> None:
    rules = pc.find_variant("auction")
    hand = pc.Hand.deal(rules, 4, dealer=1, seed=3)
    rng = random.Random(3)
    while hand.seat_to_act is not None:
        hand.push(rng.choice(hand.legal_actions()))
    state = state_from_hand(PitchGame.from_rules(rules, 4, 1), hand)
    assert state.is_terminal()
    assert state.returns() == [float(d) for d in hand.result.deltas]  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="another table"):
        state_from_hand(PitchGame.from_rules(rules, 4, 0), hand)


def test_openspiel_ismcts_and_mcts_play_whole_hands() -> None:
    game = pyspiel.load_game(GAME_NAME, {"dealer": 3})
    np_rng = np.random.RandomState(1)
    ev = mcts.RandomRolloutEvaluator(1, np_rng)
    is_bot = ismcts.ISMCTSBot(game, ev, 2.0, 20, random_state=np_rng)
    # MCTS searches the true state (it sees every card): it is here to show that it runs.
    mc_bot = mcts.MCTSBot(game, 2.0, 20, ev, random_state=np_rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(np_rng.choice(cards, p=probs)))
        else:
            bot = is_bot if state.current_player() % 2 == 0 else mc_bot
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.hand.result is not None


@pytest.mark.parametrize("variant,players", [("auction-partners", 4),
                                             ("ten-point-cutthroat", 3)])
def test_arena_bot_is_registered_and_decides_from_the_view(variant: str, players: int) -> None:
    assert "openspiel-ismcts" in BOTS
    bot = make_bot("openspiel-ismcts", 1)
    assert isinstance(bot, OpenSpielISMCTSBot)
    bot.auction_time = bot.play_time = 0.002
    match = pc.Match(pc.find_variant(variant), players, dealer=0, seed=1)
    hand = match.deal()
    while hand.seat_to_act is not None:
        view = match.view(hand.seat_to_act)
        action = bot.choose(view)
        assert action in view.legal_actions
        assert bot.last_simulations >= (bot.min_simulations if len(view.legal_actions) > 1
                                        else 0)
        match.push(action)


def test_arena_runs_openspiel_ismcts() -> None:
    result = run_arena("auction-partners", ["heuristic", "openspiel-ismcts"], games=1, jobs=1,
                       seed=2, max_hands=2)
    assert [s.bot for s in result.stats] == ["heuristic", "openspiel-ismcts"]
    assert result.stats[1].decisions > 0


def test_openspiel_ismcts_example_runs() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "openspiel_ismcts.py"), "--hands", "2",
         "--simulations", "5", "--vs", "heuristic"],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    assert "points per hand over 2 hands" in run.stdout


def test_resample_while_dealing_keeps_own_cards() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    for card in (5, 17, 30, 44, 2, 9, 12):
        state.apply_action(card)
    for player in range(4):
        other = state.resample(player, random.Random(player))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.dealt[player] == state.dealt[player]
        assert other.is_chance_node() and len(other.history()) == len(state.history())


def test_the_core_and_the_bots_import_no_third_party_package() -> None:
    code = ("import sys, pitchcards, pitchcards.bots, pitchcards.bots.arena, pitchcards.cli\n"
            "bad = [m for m in ('numpy', 'gymnasium', 'pettingzoo', 'pyspiel', 'open_spiel')\n"
            "       if m in sys.modules]\n"
            "assert not bad, bad\n"
            "assert 'openspiel-ismcts' in pitchcards.bots.BOTS\n")
    run = run_python(code)
    assert run.returncode == 0, run.stderr

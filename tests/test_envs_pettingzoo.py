"""The PettingZoo adapter: PettingZoo's own API and seed tests, rewards, and no hidden-card leak."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import pitchcards as pc  # noqa: E402
from pitchcards.actions import MAX_ACTIONS, NUM_ACTIONS  # noqa: E402
from pitchcards.envs.encoding import (  # noqa: E402
    Encoder,
    action_mask,
)
from pitchcards.envs.pettingzoo import env, raw_env  # noqa: E402
from pitchcards.hand import Hand  # noqa: E402
from pitchcards.views import view_of  # noqa: E402

CONFIGS = [
    {},                                                              # auction-partners
    {"variant": "auction", "players": 3, "reward": "win"},
    {"variant": "money", "players": 5, "max_hands": 2},
    {"variant": "setback", "episode": "hand", "low_to": "holder"},  # a rules option
    {"reward": "points"},
    {"variant": "ten-point", "max_hands": 2},                       # 54 cards, 176 actions
    {"variant": "ten-point-cutthroat", "players": 5, "episode": "hand"},
]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", CONFIGS)
def test_pettingzoo_api_test(kwargs: dict[str, object]) -> None:
    api_test(env(**kwargs), num_cycles=200)


@pytest.mark.parametrize("kwargs", [*CONFIGS[:2], CONFIGS[-2]])
def test_pettingzoo_seed_test(kwargs: dict[str, object]) -> None:
    seed_test(lambda: env(**kwargs), num_cycles=200)


def _play(e: raw_env, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(10_000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(rng.choice([int(a) for a in np.flatnonzero(obs["action_mask"])]))
    return totals


# Changed with issue 17: "points" is no longer the default reward, so this test asks for it.
def test_points_rewards_add_up_to_the_match_scores() -> None:
    e = raw_env(reward="points")
    totals = _play(e, seed=3)
    match = e.table.match
    assert match is not None and match.winner is not None
    for seat in range(4):
        assert totals[f"player_{seat}"] == match.scores[seat % 2]


def test_win_rewards_go_to_the_winning_side() -> None:
    e = raw_env(variant="auction", players=3, reward="win")
    totals = _play(e, seed=4)
    winner = e.table.match.winner  # type: ignore[union-attr]
    assert totals == {f"player_{s}": 1.0 if s == winner else -0.5 for s in range(3)}


@pytest.mark.parametrize("kwargs", [
    {},
    {"variant": "auction", "players": 3},
    {"variant": "auction", "players": 5, "max_hands": 20},
    {"variant": "setback", "episode": "hand"},
])
def test_zero_sum_rewards_sum_to_zero_across_sides_every_hand(kwargs: dict[str, object]) -> None:
    e = raw_env(**kwargs)  # type: ignore[arg-type]
    for seed in range(3):
        e.reset(seed=seed)
        rng = random.Random(seed)
        sides = e.table.sides
        totals = [0.0] * sides
        for _agent in e.agent_iter(20_000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice([int(a) for a in np.flatnonzero(obs["action_mask"])]))
            # one seat per side: partners share their side's reward
            side_rewards = [e.rewards[f"player_{s}"] for s in range(sides)]
            assert sum(side_rewards) == pytest.approx(0.0, abs=1e-9)
            for s in range(sides):
                totals[s] += side_rewards[s]
        match = e.table.match
        assert match is not None
        scores = match.scores
        for s in range(sides):
            others = (sum(scores) - scores[s]) / (sides - 1)
            bonus = 0.0 if match.winner is None or kwargs.get("episode") == "hand" else \
                1.0 if match.winner == s else -1.0 / (sides - 1)
            assert totals[s] == pytest.approx(scores[s] - others + bonus)


def test_results_in_every_agents_info_at_the_end() -> None:
    e = raw_env(variant="auction", players=3)
    e.reset(seed=4)
    rng = random.Random(4)
    results = {}
    for agent in e.agent_iter(20_000):
        obs, _, term, trunc, info = e.last()
        assert ("result" in info) == (term or trunc)
        if term or trunc:
            results[agent] = info["result"]
            e.step(None)
        else:
            e.step(rng.choice([int(a) for a in np.flatnonzero(obs["action_mask"])]))
    match = e.table.match
    assert match is not None and set(results) == set(e.possible_agents)
    for result in results.values():
        assert result["winner"] == match.winner
        assert result["hands"] == len(match.results)
        assert result["scores"] == list(match.scores)
        assert len(result["made"]) == len(result["set"]) == 3


def test_action_masks_per_agent_are_the_legal_actions() -> None:
    e = raw_env()
    e.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        for agent in e.possible_agents:
            mask = e.action_masks(agent)
            assert mask.dtype == np.bool_
            legal = e.table.view(int(agent[-1])).legal_actions
            assert np.flatnonzero(mask).tolist() == sorted(map(int, legal))
        assert np.array_equal(e.action_masks(), e.action_masks(e.agent_selection))
        e.step(rng.choice(np.flatnonzero(e.action_masks()).tolist()))


def test_a_positions_view_is_built_once_and_never_outlives_it() -> None:
    """issue 35: observe() then action_masks() of one position build the seat's view once
    (the env's Table keeps it while the game table's ``moves`` is unchanged); every step,
    deal and reset makes it new, equal to the view the game table builds now."""
    e = raw_env()
    rng = random.Random(5)
    for seed in (5, 6):
        e.reset(seed=seed)
        while not e.table.done:
            seat = e.table.seat_to_act
            assert seat is not None
            view = e.table.view(seat)
            assert e.table.view(seat) is view
            assert e.table.view((seat + 1) % 4) is not view  # another seat: its own view
            assert e.table.view(seat) == view == e.table.game.view(seat)  # type: ignore[union-attr]
            e.observe(e.agent_selection)
            assert np.array_equal(e.action_masks(), e.observe(e.agent_selection)["action_mask"])
            e.step(rng.choice(np.flatnonzero(e.action_masks()).tolist()))
            assert e.table.game.view(seat) == e.table.view(seat)  # type: ignore[union-attr]


@pytest.mark.parametrize("variant,actions", [("auction", NUM_ACTIONS),
                                             ("ten-point-cutthroat", MAX_ACTIONS)])
def test_mask_is_the_legal_actions_and_zero_off_turn(variant: str, actions: int) -> None:
    e = raw_env(variant=variant, players=4)
    e.reset(seed=9)
    assert e.action_space(e.possible_agents[0]).n == actions
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (actions,)
        seat = int(agent[-1])
        legal = e.table.view(seat).legal_actions
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(map(int, legal))
        assert bool(legal) == (agent == e.agent_selection)


def test_reset_with_a_seed_is_reproducible() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.agent_selection == b.agent_selection
    for agent in a.possible_agents:
        assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])


def test_env_is_pettingzoos_wrappers_reading_the_raw_envs_attributes() -> None:
    """``env()`` wraps as PettingZoo's classic games do (its own wrapper classes, in that order);
    the attributes read every step are the raw env's own objects at every level, and reading
    them before ``reset()`` is refused as ``OrderEnforcingWrapper`` refuses it."""
    from pettingzoo.utils import wrappers

    e = env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.env.env, wrappers.TerminateIllegalWrapper)
    raw = e.unwrapped
    assert isinstance(raw, raw_env) and e.env.env.env is raw
    for name in ("rewards", "terminations", "truncations", "infos", "agent_selection",
                 "agents"):  # OrderEnforcingWrapper's list
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(e, name)
    e.reset(seed=3)
    for wrapper in (e, e.env, e.env.env):
        for name in ("agents", "agent_selection", "terminations", "truncations", "rewards",
                     "infos", "_cumulative_rewards"):
            assert getattr(wrapper, name) is getattr(raw, name), name
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e.rewards is raw.rewards and e.agent_selection == raw.agent_selection
    with pytest.raises(AttributeError, match="private attribute"):
        e._skip_agent_selection  # noqa: B018  (BaseWrapper's rule, unchanged)


@pytest.mark.parametrize("n", [NUM_ACTIONS, MAX_ACTIONS])
def test_action_space_answers_contains_as_gymnasiums_discrete(n: int) -> None:
    """``ActionIds`` (the action space, with a fast ``contains`` for ints) is a ``Discrete(n)``
    and answers every value as Gymnasium's does: ints in and out of range and of int64, bools,
    numpy integers and arrays, floats, text, None."""
    from gymnasium.spaces import Discrete

    from pitchcards.envs.spaces import ActionIds

    ours, theirs = ActionIds(n), Discrete(n)
    assert isinstance(ours, Discrete) and ours == theirs and theirs == ours
    values = [0, 1, n - 1, n, -1, 2**63, -2**64, 2**80, True, False, np.int64(n - 1),
              np.int64(n), np.int8(-1), np.uint8(3), np.array(4), np.array([4]), 3.0, "3", None]
    for x in values:
        assert ours.contains(x) == theirs.contains(x), x


def test_bad_arguments_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="players"):
        raw_env(variant="auction-partners", players=3)
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="money")
    with pytest.raises(pc.OptionError):
        raw_env(low_to="nobody")


# --------------------------------------------------------------------------- no leak
def _suit(hand: Hand, card: int) -> int:
    """The suit a card follows as: its printed suit (4 for a joker) until trump is known, then
    the deck model's (the off-jack and the jokers follow trump in ten-point, T2)."""
    trump = hand.trump_suit
    return min(card // 13, 4) if trump is None else hand.model.suit_of[trump][card]


def _swap_hidden(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """The same public history with two other seats' unplayed same-suit cards exchanged."""
    others = [s for s in range(hand.players) if s != seat]
    rng.shuffle(others)
    a, b = others[0], others[1]
    pitched = hand.pitched_card
    pairs = [(x, y) for x in pc.cards.cards_of(hand.hand_of(a))
             for y in pc.cards.cards_of(hand.hand_of(b))
             if _suit(hand, x) == _suit(hand, y) and pitched not in (x, y)]
    if not pairs:
        return None
    x, y = rng.choice(pairs)
    dealt = list(hand.dealt)
    dealt[a] = dealt[a] ^ (1 << x) ^ (1 << y)
    dealt[b] = dealt[b] ^ (1 << x) ^ (1 << y)
    other = Hand(hand.rules, dealt, hand.dealer)
    for _, action in hand.history:
        other.push(action)  # checked: the swap keeps every past action legal
    return other


@pytest.mark.parametrize("variant,players", [("auction-partners", 4), ("auction", 3),
                                             ("money", 5), ("setback", 4), ("ten-point", 4),
                                             ("ten-point-cutthroat", 5)])
def test_observation_does_not_change_when_hidden_cards_are_swapped(variant: str,
                                                                   players: int) -> None:
    rules = pc.find_variant(variant)
    enc = Encoder(rules, players)
    rng = random.Random(variant)
    compared = 0
    for deal in range(30):
        hand = Hand.deal(rules, players, dealer=deal % players, seed=deal)
        while hand.seat_to_act is not None:
            for seat in range(players):
                swapped = _swap_hidden(hand, seat, rng)
                if swapped is None:
                    continue
                assert swapped.dealt != hand.dealt
                mine, theirs = view_of(hand, seat, (2, 3)), view_of(swapped, seat, (2, 3))
                assert np.array_equal(enc.encode(mine), enc.encode(theirs))
                assert np.array_equal(enc.encode_infostate(mine), enc.encode_infostate(theirs))
                assert np.array_equal(action_mask(mine), action_mask(theirs))
                compared += 1
            hand.push(rng.choice(hand.legal_actions()))
    assert compared > 500


def test_observation_changes_with_own_cards() -> None:
    rules = pc.find_variant("auction-partners")
    enc = Encoder(rules, 4)
    a = Hand.deal(rules, 4, seed=1)
    b = Hand.deal(rules, 4, seed=2)
    assert not np.array_equal(enc.encode(view_of(a, 0)), enc.encode(view_of(b, 0)))
    obs = enc.encode(view_of(a, 0))
    assert obs.dtype == np.float32 and obs.shape == (enc.size,)
    assert obs.min() >= -1.0 and obs.max() <= 1.0
    assert obs[:52].sum() == 6  # the own hand segment comes first

"""Bots: legal play everywhere, views only, the heuristic's rules of thumb, and the arena."""

from __future__ import annotations

import dataclasses
import gc
import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from typing import Any, ClassVar

import pytest

import pitchcards as pc
from helpers import HAND_SLOTS, python_lines, run_python
from pitchcards.actions import Action
from pitchcards.bots import BOTS, Bot, BotRegistry, RandomBot, make_bot, register
from pitchcards.bots.arena import ArenaResult, run_arena, wilson
from pitchcards.bots.heuristic import (
    HeuristicBot,
    choose_card,
    decide,
    playout,
    proven_voids,
    rollout_action,
)
from pitchcards.bots.sampler import build_world, build_worlds, evidence_of, sample_deal
from pitchcards.cli import main
from pitchcards.hand import Hand
from pitchcards.match import Match
from pitchcards.money import MoneySession
from pitchcards.views import View, view_of

# Variants with option combinations: (variant, players, options).
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("auction", 4, {}),
    ("auction", 3, {"low_to": "holder", "follow_rule": "strict_follow"}),
    ("auction", 5, {"follow_rule": "follow_trump_only", "dealer_steal": "none", "min_bid": 2}),
    ("auction", 2, {"allow_two_players": True, "game_tie": "elder_hand", "target": 11}),
    ("auction", 4, {"auction": "continuous", "moon": "smudge_wins",
                    "all_pass": "eldest_pitches_no_contract", "win_rule": "higher_score"}),
    ("auction-partners", 4, {}),
    ("auction-partners", 4, {"low_to": "holder", "pitch_as_bid_4": False,
                             "win_rule": "first_to_target_HLJG_order"}),
    ("auction-partners", 4, {"dealer_steal": "equal_any_incl_pitched",
                             "follow_rule": "strict_follow", "all_pass": "redeal"}),
    ("setback", 4, {}),
    ("setback", 4, {"low_to": "holder", "follow_rule": "follow_trump_only",
                    "win_rule": "pitcher_counted_first"}),
    ("money", 4, {}),
    ("money", 2, {"forced_dealer_bid": "at_least", "dealer_steal": "none"}),
    ("money", 8, {"low_to": "holder", "pass_is_final": False, "moon_fail_points": 5}),
]
#: bots cheap enough to play whole matches in every seat; any other bot (search bots think for
#: a while per decision) plays one hand per variant in one seat
CHEAP = frozenset({"random", "heuristic", "easy", "medium"})


def _rules(variant: str, options: dict[str, Any]) -> pc.RuleSet:
    rules = pc.find_variant(variant)
    return rules.replace(**options) if options else rules


def _play_match(name: str, variant: str, players: int, options: dict[str, Any],
                seed: int) -> int:
    """Play ``name`` in a match; returns the number of decisions checked."""
    cheap = name in CHEAP
    rules = _rules(variant, options)
    bots = [make_bot(name if cheap or s == 0 else "heuristic", seed + s) for s in range(players)]
    game: Match | MoneySession
    if rules.money != "none":
        game = MoneySession(rules, [f"p{s}" for s in range(players)], dealer=None, seed=seed)
    else:
        game = Match(rules, players, dealer=None, seed=seed)
    checked = 0
    hands = 0
    while hands < (60 if cheap else 1):
        if isinstance(game, Match) and game.winner is not None:
            break
        hand = game.deal()
        hands += 1
        while hand.seat_to_act is not None:
            seat = hand.seat_to_act
            view = game.view(seat)
            bot = bots[seat]
            action = bot.choose_open(hand) if bot.sees_all else bot.choose(view)
            assert isinstance(action, Action)
            assert action in view.legal_actions, (name, variant, options, str(action))
            game.push(action, seat)
            checked += 1
    return checked


#: one case per variant, for bots too slow for all of them (search bots think for a while)
SLOW_CASES = (1, 7, 9, 12)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_every_bot_plays_only_legal_actions_in_every_variant(name: str) -> None:
    """Cheap bots play whole matches in every seat; slow ones a hand per variant in one seat."""
    checked = 0
    for i, (variant, players, options) in enumerate(CASES):
        if name in CHEAP or i in SLOW_CASES:
            checked += _play_match(name, variant, players, options, seed=100 + i)
    assert checked > (1000 if name in CHEAP else 20)


# --------------------------------------------------------------------------- views only
def _reachable(root: object, depth: int = 6) -> Iterator[object]:
    """Objects reachable from ``root`` through containers, dataclasses and referents."""
    seen: set[int] = set()
    frontier = [root]
    for _ in range(depth):
        nxt: list[object] = []
        for obj in frontier:
            if id(obj) in seen or isinstance(obj, type | str | int | float):
                continue
            seen.add(id(obj))
            yield obj
            nxt.extend(gc.get_referents(obj))
            if dataclasses.is_dataclass(obj):
                nxt.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        frontier = nxt


def test_a_view_holds_no_reference_to_the_hand_or_the_match() -> None:
    match = Match(pc.find_variant("auction-partners"), 4, dealer=0, seed=5)
    hand = match.deal()
    bots = [make_bot("heuristic", s) for s in range(4)]
    while hand.seat_to_act is not None:
        seat = hand.seat_to_act
        view = match.view(seat)
        assert isinstance(view, View)
        for obj in _reachable(view):
            assert not isinstance(obj, Hand | Match | MoneySession), type(obj)
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.hand_mask = 0  # type: ignore[misc]
        match.push(bots[seat].choose(view), seat)


@pytest.mark.parametrize("name", ["random", "heuristic", "easy", "medium"])
def test_choose_works_on_a_view_built_for_the_seat_and_changes_nothing(name: str) -> None:
    rules = pc.find_variant("auction")
    rng = random.Random(4)
    for seed in range(20):
        h = Hand.deal(rules, 4, dealer=seed % 4, seed=seed)
        steps = rng.randrange(20)
        while h.seat_to_act is not None and steps:
            h.push(h.legal_actions()[0])
            steps -= 1
        if h.seat_to_act is None:
            continue
        seat = h.seat_to_act
        before = (h.history, [h.hand_of(s) for s in range(4)])
        action = make_bot(name, seed).choose(view_of(h, seat))
        assert action in h.legal_actions()
        assert (h.history, [h.hand_of(s) for s in range(4)]) == before


class _Spy(Bot):
    """Records what the arena hands it, then plays like the heuristic."""

    name = "spy"
    seen: ClassVar[list[str]] = []

    def choose(self, view: View) -> Action:
        self.seen.append(type(view).__name__)
        return decide(view)


class _OpenSpy(_Spy):
    name = "open-spy"
    sees_all = True

    def choose_open(self, hand: Hand) -> Action:
        self.seen.append(type(hand).__name__)
        return rollout_action(hand)


def test_the_arena_gives_bots_views_and_only_a_sees_all_bot_the_hand() -> None:
    register("spy", _Spy)
    register("open-spy", _OpenSpy)
    try:
        _Spy.seen = []
        run_arena("auction", ["spy", "open-spy"], games=1, seed=1, jobs=1)
        assert _Spy.seen and set(_Spy.seen) == {"View", "Hand"}
        _Spy.seen = []
        run_arena("auction", ["spy", "random"], games=1, seed=1, jobs=1)
        assert _Spy.seen and set(_Spy.seen) == {"View"}
    finally:
        BOTS.pop("spy")
        BOTS.pop("open-spy")


# --------------------------------------------------------------------------- the heuristic
def _hand(cards: list[str], variant: str = "auction-partners", dealer: int = 3,
          script: tuple[str, ...] = (), **options: Any) -> Hand:
    h = Hand.deal(_rules(variant, options), len(cards), dealer=dealer, cards=cards)
    for a in script:
        h.push(a)
    return h


def test_rollout_action_is_the_bot_policy_without_a_view() -> None:
    checked = 0
    for variant in ("auction", "auction-partners", "setback", "money"):
        rules = pc.find_variant(variant)
        for seed in range(15):
            h = Hand.deal(rules, 4, dealer=seed % 4, seed=seed)
            while h.seat_to_act is not None:
                action = rollout_action(h)
                assert action == decide(view_of(h, h.seat_to_act))
                h.push(action)
                checked += 1
    assert checked > 1000


def test_no_point_cards_no_bid() -> None:
    h = _hand(["9S 7S 3H 4D 6C 5C", "AS KS 2S 9H 3D TC", "QS JS 3S 9D 5D TD",
               "AH KH 2H 8C 6D TH"])
    assert str(decide(view_of(h, 0))) == "pass"
    # Not even a bid of 1 at a 0-0 score, or against an opponent about to go out; forced, the
    # dealer bids the least it may.
    assert str(decide(view_of(h, 0, scores=[0, 6]))) == "pass"
    h = _hand(["AS KS 2S 9H 3D TC", "QS JS 3S 9D 5D TD", "AH KH 2H 8C 6D TH",
               "9S 7S 3H 4D 6C 5C"], script=("pass", "pass", "pass"))
    assert str(decide(view_of(h, 3))) == "bid 2"


def test_a_strong_hand_bids_and_pitches_its_top_trump() -> None:
    h = _hand(["AS KS JS 2S 4D 6C", "9S 7S 3H 5D 9C 5C", "QS 8S 3S 9D 4H TD",
               "AH KH 2H 8C 6D TH"])
    assert str(decide(view_of(h, 0))) == "pitch AS"
    # Without pitching, the same hand bids and then leads the A of its suit.
    h = _hand(["AS KS JS 2S 4D 6C", "9S 7S 3H 5D 9C 5C", "QS 8S 3S 9D 4H TD",
               "AH KH 2H 8C 6D TH"], pitch_as_bid_4=False)
    bid = decide(view_of(h, 0))
    assert bid.kind == "bid"
    h.push(bid)
    while h.phase == "auction":
        h.push("pass")
    assert h.pitcher == 0
    assert str(decide(view_of(h, 0))) == "play AS"


def test_moon_only_with_a_sure_sweep() -> None:
    sweep = ["AS KS QS JS TS 2S", "9S 7S 3H 5D 9C 5C", "8S 3S 9D 4H TD 7D",
             "AH KH 2H 8C 6D TH"]
    assert str(decide(view_of(_hand(sweep, "money"), 0))) == "bid moon"
    strong = ["AS KS QS JS TS 2H", "9S 7S 3H 5D 9C 5C", "8S 3S 9D 4H TD 7D",
              "AH KH 2S 8C 6D TH"]
    assert str(decide(view_of(_hand(strong, "money"), 0))) != "bid moon"


def test_the_dealer_steals_by_equalling_when_its_hand_covers_the_bid() -> None:
    h = _hand(["9S 7S 3H 4D 6C 5C", "8S 6S 4H 9D 3C 2C", "QS JS 3S 9H 4S TD",
               "AH KH 2H JH 6D TH"], script=("bid 2", "pass", "pass"))
    assert str(decide(view_of(h, 3))) == "bid 2"
    # A junk dealer hand lets the bid go.
    h = _hand(["AH KH 2H JH 6D TH", "8S 6S 4H 9D 3C 2C", "QS JS 3S 9H 4S TD",
               "9S 7S 3H 4D 6C 5C"], script=("bid 2", "pass", "pass"))
    assert str(decide(view_of(h, 3))) == "pass"


def test_score_aware_bidding_stops_an_opponent_about_to_go_out() -> None:
    # A poor hand for seat 3 (dealer): it lets an opponent's 2 go at 0-0, but steals it when
    # that opponent would go out by making it.
    cards = ["9S 7S 3H 4D 2C 5C", "8S 6S 4H 9D 3C 2D", "QS JS 3S TH 4S TD",
             "9H 8H 7H 8D 6D QC"]
    h = _hand(cards, script=("bid 2", "pass", "pass"))
    calm = decide(view_of(h, 3, scores=[0, 0]))
    urgent = decide(view_of(h, 3, scores=[6, 2]))
    assert str(calm) == "pass"
    assert str(urgent) == "bid 2"


def test_feeding_a_ten_to_partners_master_trump() -> None:
    # Seat 2 holds no spade: it may discard anything on partner's master A of trumps.
    h = _hand(["AS KS 9S 2S 4D 6C", "9H 7S 3H 5D 9C 5C", "TC 8C 3C 9D 4H 7D",
               "AH KH 2H JC 6D TH"], dealer=3, script=("bid 3", "pass", "pass", "pass"))
    h.push("play AS")
    h.push("play 7S")
    assert str(decide(view_of(h, 2))) == "play TC"


def test_win_with_the_lowest_card_that_wins_and_duck_when_lost() -> None:
    # Cutthroat, hearts trump.  Seat 3 is last to a diamond trick: it wins with its lowest
    # winner; when it cannot win, it plays its cheapest card, never its ten.
    rules = _rules("auction", {})
    h = Hand.deal(rules, 4, dealer=3, cards=["AH 2H 5D 9C 4S 3C", "KH 3H 6D 7C 5S 4C",
                                             "QH 4H 8D 8C 6S 5C", "JH TD QD KD 7S 6C"])
    for a in ("bid 2", "pass", "pass", "pass", "play AH", "play 3H", "play 4H", "play JH"):
        h.push(a)
    h.push("play 5D")
    h.push("play 6D")
    h.push("play 8D")
    assert str(decide(view_of(h, 3))) == "play TD"  # last to play: the ten wins safely
    h2 = Hand.deal(rules, 4, dealer=3, cards=["AH 2H 5D 9C 4S 3C", "KH 3H AD 7C 5S 4C",
                                              "QH 4H 8D 8C 6S 5C", "JH TD 2D 3D 7S 6C"])
    for a in ("bid 2", "pass", "pass", "pass", "play AH", "play 3H", "play 4H", "play JH"):
        h2.push(a)
    h2.push("play 5D")
    h2.push("play AD")
    h2.push("play 8D")
    assert str(decide(view_of(h2, 3))) == "play 2D"


def test_proven_voids_follow_the_rules_of_following() -> None:
    # Trump is spades (suit 3); a heart lead (suit 2).
    trick = [13 * 2 + 5, 13 * 3 + 2, 13 * 0 + 4, 13 * 2 + 7]  # 7H, 4S (trump), 6C, 9H
    voids = proven_voids([], 0, trick, 4, 3, "trump_anytime")
    assert voids == [0, 0, 1 << 2, 0]  # trumping proves nothing; the club discard does
    strict = proven_voids([], 0, trick, 4, 3, "strict_follow")
    assert strict == [0, 1 << 2, 1 << 2, 0]  # strict follow: any off-suit card proves it
    only = proven_voids([], 0, trick, 4, 3, "follow_trump_only")
    assert only == [0, 0, 0, 0]  # follow-trump-only: a plain lead proves nothing
    trump_lead = [13 * 3 + 12, 13 * 0 + 3, 13 * 3 + 1, 13 * 2 + 0]  # AS, 5C, 3S, 2H
    for follow in ("trump_anytime", "strict_follow", "follow_trump_only"):
        assert proven_voids([], 0, trump_lead, 4, 3, follow) == [0, 1 << 3, 0, 1 << 3]


def test_choose_card_never_throws_the_jack_into_a_lost_trump_trick() -> None:
    # Spades trump; an opponent leads the master A of spades; seat 1 holds JS and 4S.
    hand = (1 << (13 * 3 + 9)) | (1 << (13 * 3 + 2)) | (1 << 5)
    card = choose_card(seat=1, players=4, teams=2, pitcher=0, trump=3, hand=hand,
                       legal=hand & (0x1FFF << 39), leader=0, trick=[13 * 3 + 12],
                       played=1 << (13 * 3 + 12), voids=[0, 0, 0, 0], low_holder=False)
    assert card == 13 * 3 + 2


def test_heuristic_is_fast() -> None:
    # Not a clock (the machine is shared; benchmarks/ time things): the Python lines a decision
    # runs, on whole hands through views — about 150 now; a gross slowdown (a search, a copy of
    # the hand per card) would be thousands.
    rules = pc.find_variant("auction-partners")
    bot = HeuristicBot(1)
    views = []
    for seed in range(30):
        h = Hand.deal(rules, 4, dealer=seed % 4, seed=seed)
        while h.seat_to_act is not None:
            v = view_of(h, h.seat_to_act)
            views.append(v)
            h.push(bot.choose(v))
    lines = python_lines(lambda: [bot.choose(v) for v in views])
    assert lines / len(views) < 1500, f"{lines / len(views):.0f} lines a decision"


# --------------------------------------------------------------------------- the arena
def _numbers(r: ArenaResult) -> dict[str, Any]:
    d = r.to_dict()
    d.pop("elapsed")
    d.pop("jobs")
    for s in d["stats"]:
        s.pop("ms_median")
        s.pop("ms_p99")
    return d


def test_heuristic_beats_random_on_duplicate_deals() -> None:
    r = run_arena("auction-partners", ["heuristic", "random"], games=12, seed=3, jobs=1)
    heur, rand = r.stats
    assert heur.bot == "heuristic" and rand.bot == "random"
    assert heur.games == rand.games == 24
    assert heur.point_diff_ci is not None and heur.point_diff_ci[0] > 1.0
    assert heur.point_diff == pytest.approx(-rand.point_diff)
    assert heur.win_rate >= 0.9 and heur.win_ci[0] > 0.7
    assert heur.make_rate is not None and heur.make_rate > rand.make_rate  # type: ignore[operator]
    r = run_arena("auction", ["heuristic", "random"], games=6, seed=3, jobs=1, players=3)
    assert r.stats[0].point_diff_ci is not None and r.stats[0].point_diff_ci[0] > 0
    r = run_arena("money", ["heuristic", "random"], games=6, seed=3, jobs=1, hands=6)
    assert r.stats[0].money is not None and r.stats[0].money > 0 > r.stats[1].money  # type: ignore[operator]


def test_arena_is_reproducible_from_the_seed_with_any_number_of_jobs() -> None:
    one = run_arena("auction", ["heuristic", "easy", "random"], games=3, seed=9, jobs=1)
    two = run_arena("auction", ["heuristic", "easy", "random"], games=3, seed=9, jobs=2)
    assert _numbers(one) == _numbers(two)
    other = run_arena("auction", ["heuristic", "easy", "random"], games=3, seed=10, jobs=1)
    assert _numbers(other) != _numbers(one)
    assert one.seatings == 3 and one.stats[0].games == 9


def test_arena_json_shape() -> None:
    r = run_arena("setback", ["heuristic", "heuristic"], games=2, seed=1, jobs=1,
                  options={"low_to": "holder"})
    d = json.loads(r.to_json())
    assert d["variant"] == "setback" and d["options"] == {"low_to": "holder"}
    assert d["bots"] == ["heuristic#1", "heuristic#2"]
    assert {"players", "games", "seatings", "seed", "jobs", "unfinished", "elapsed",
            "hands_per_game"} <= set(d)
    assert len(d["stats"]) == 2
    for s in d["stats"]:
        assert set(s) == {"bot", "games", "wins", "win_rate", "win_ci", "hands", "point_diff",
                          "point_diff_ci", "contracts", "made", "make_rate", "defended", "sets",
                          "set_rate", "avg_bid", "money", "decisions", "ms_median", "ms_p99"}
        assert len(s["win_ci"]) == 2 and s["win_ci"][0] <= s["win_rate"] <= s["win_ci"][1]
        assert s["decisions"] > 0 and s["ms_median"] <= s["ms_p99"]
    # Same bot on both sides: the point differences cancel exactly.
    assert d["stats"][0]["point_diff"] == pytest.approx(-d["stats"][1]["point_diff"])


def test_arena_refuses_bad_input_and_says_what_is_allowed() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'nobody'.*heuristic.*random"):
        run_arena("auction", ["heuristic", "nobody"], games=1)
    with pytest.raises(ValueError, match=r"unknown variant 'bridge'.*auction-partners"):
        run_arena("bridge", ["heuristic", "random"], games=1)
    with pytest.raises(ValueError, match="two bots"):
        run_arena("auction-partners", ["heuristic", "random", "easy"], games=1)
    with pytest.raises(ValueError, match="at least two bots"):
        run_arena("auction", ["heuristic"], games=1)
    with pytest.raises(ValueError, match="games"):
        run_arena("auction", ["heuristic", "random"], games=0)
    with pytest.raises(ValueError, match="low_to"):
        run_arena("auction", ["heuristic", "random"], games=1, options={"low_to": "x"})
    with pytest.raises(ValueError, match="players"):
        run_arena("auction", ["heuristic", "random"], games=1, players=9)


def test_the_arena_takes_a_search_bots_budget_changes_by_name() -> None:
    """``pitch arena --bots "expert[deep_cards=8],expert"``: the names make_bot takes, budget
    changes included, and its refusal of a field that is not one."""
    result = run_arena("auction-partners", ["hard[worlds=2,bid_worlds=2]", "random"], games=1,
                       jobs=1)
    assert [s.bot for s in result.stats] == ["hard[worlds=2,bid_worlds=2]", "random"]
    with pytest.raises(ValueError, match=r"'nope=1' is not field=value.*deep_cards"):
        run_arena("auction", ["expert[nope=1]", "random"], games=1)


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert lo == pytest.approx(0.8882, abs=1e-3) and hi == pytest.approx(0.9785, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_pitch_arena_command() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["arena", "--variant", "auction-partners", "--bots", "heuristic,random",
                     "--games", "2", "--jobs", "1", "--seed", "1", "--json", "--quiet"])
    assert code == 0
    d = json.loads(out.getvalue())
    assert [s["bot"] for s in d["stats"]] == ["heuristic", "random"]
    proc = subprocess.run(
        [sys.executable, "-m", "pitchcards.cli", "arena", "--variant", "auction", "--bots",
         "heuristic,random", "--games", "2", "--jobs", "2", "--seed", "1",
         "--option", "low_to=holder"],
        capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "heuristic" in proc.stdout and "win%" in proc.stdout and "low_to=holder" in proc.stdout
    assert "2/" in proc.stderr or "4/4" in proc.stderr  # the progress bar
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(["arena", "--bots", "heuristic,nobody", "--games", "1"])
    assert code == 2 and "unknown bot 'nobody'" in err.getvalue() and "random" in err.getvalue()


def test_the_bots_do_not_import_the_research_adapters_which_register_their_own() -> None:
    code = ("import importlib.util, sys\n"
            "import pitchcards.bots, pitchcards.bots.arena\n"
            "assert 'pitchcards.envs' not in sys.modules, 'the bots imported pitchcards.envs'\n"
            "has_spiel = importlib.util.find_spec('pyspiel') is not None\n"
            "assert ('openspiel-ismcts' in pitchcards.bots.BOTS) == has_spiel\n"
            "assert 'pitchcards.envs' in sys.modules  # asked for a name: the plugin registered\n"
            "assert 'pyspiel' not in sys.modules and 'numpy' not in sys.modules\n")
    run = run_python(code)
    assert run.returncode == 0, run.stderr


def test_the_registry_loads_its_plugins_once_and_only_when_a_name_is_missing(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import pitchcards.bots

    registry = BotRegistry({"random": RandomBot}, plugins=["pitch_plugin_probe"])
    monkeypatch.setattr(pitchcards.bots, "probe_registry", registry, raising=False)
    (tmp_path / "pitch_plugin_probe.py").write_text(
        "import pitchcards.bots as b\nb.probe_registry['probe'] = b.RandomBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry["random"] is RandomBot and "pitch_plugin_probe" not in sys.modules
    assert "probe" in registry and "pitch_plugin_probe" in sys.modules
    del sys.modules["pitch_plugin_probe"]
    assert "nothing" not in registry and sorted(registry) == ["probe", "random"]
    assert "pitch_plugin_probe" not in sys.modules  # loaded once only


#: every case above and the ten-point family
EVERY_FAMILY = [*CASES, ("ten-point", 4, {}),
                ("ten-point-cutthroat", 5, {"follow_rule": "strict_follow"})]


def _random_points(rules: pc.RuleSet, players: int, rng: random.Random, hands: int, seed: int,
                   moves: int) -> Iterator[Hand]:
    """``hands`` hands dealt from ``seed`` on, each played at random for up to ``moves``
    moves; those not over yet."""
    for k in range(hands):
        h = Hand.deal(rules, players, dealer=k % players, seed=seed + k)
        for _ in range(rng.randrange(0, moves)):
            if h.result is not None:
                break
            h.push(rng.choice(h.legal_actions()))
        if h.result is None:
            yield h


@pytest.mark.parametrize("variant,players,options", EVERY_FAMILY)
def test_playout_plays_exactly_as_rollout_action(variant: str, players: int,
                                                  options: dict[str, Any]) -> None:
    """The search bots' fast rollout keeps the cards played and the voids card by card; its
    actions and results are exactly those of one :func:`rollout_action` call a move, from
    random points of random hands (before trump, mid-trick, after a pitch)."""
    rules = pc.find_variant(variant).replace(**options)
    rng = random.Random(len(variant) * 31 + players)
    checked = 0
    for h in _random_points(rules, players, rng, 12, 900, 3 * players + 6):
        one_by_one, fast = h.copy(), h.copy()
        moves = []
        while one_by_one.result is None:
            moves.append(rollout_action(one_by_one))
            one_by_one.push_unchecked(moves[-1])
        depth = playout(fast)
        assert [a for _, a in fast.history[len(fast.history) - depth:]] == moves
        assert fast.result == one_by_one.result
        for _ in range(depth):
            fast.pop()
        assert fast.history == h.history
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("variant,players,options", EVERY_FAMILY)
def test_worlds_redealt_from_one_replay_are_the_worlds_a_replay_builds(
        variant: str, players: int, options: dict[str, Any]) -> None:
    """``build_worlds`` replays a view's history once and gives the other worlds their cards
    with ``redeal``: every sampled world is, slot for slot, the one ``build_world`` replays,
    and plays out alike — at random points of random hands (the auction, trump named, part of
    the discard, mid-trick)."""
    rules = pc.find_variant(variant).replace(**options)
    rng = random.Random(len(variant) * 17 + players)
    checked = 0
    for h in _random_points(rules, players, rng, 10, 1300, 4 * players + 8):
        assert h.seat_to_act is not None
        view = view_of(h, h.seat_to_act)
        ev = evidence_of(view)
        deals = [d for d in (sample_deal(ev, rng) for _ in range(6)) if d is not None]
        chosen = [(hands, discards) for hands, discards, _ in deals]
        fast = build_worlds(view, chosen, ev)
        for world, (hands, discards) in zip(fast, chosen, strict=True):
            replayed = build_world(view, hands, ev, discards)
            for name in HAND_SLOTS:
                assert getattr(world, name) == getattr(replayed, name), (variant, h.history, name)
            assert playout(world) == playout(replayed)
            assert world.result == replayed.result
        checked += 1
    assert checked >= 5

"""RULES §7: every option the engine exposes changes behaviour as described; bad options and
values raise ``pc.OptionError``; bad actions raise the right error and change nothing."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import pitchcards as pc
from helpers import (
    E24_HANDS,
    FIVE_OF_SIX,
    FIVE_OF_SIX_PLAY,
    H_B,
    H_B_PLAY,
    SUITED,
    SWEEP,
    SWEEP_PLAY,
    TEN_CENTS,
    assert_refused,
    deal,
    finish,
    held,
    legal,
    play,
    play_hand,
    rules,
    session,
)
from pitchcards.match import first_dealer

TIED = ["2S 2C 3C 4C 5C 6C", "4S TC 7H 7D 8D 9D", "3S TH 2H 3H 4H 5H"]


def h_b_match(scores, bid=2, **options):
    m = pc.Match(rules("auction", **options), players=3, dealer=0, scores=scores)
    play_hand(m, H_B, (f"bid {bid}, pass, pass", *H_B_PLAY))
    return m


# ---------------------------------------------------------------- follow_rule
# Seat 1 pitches AS and leads KD in trick 2; seat 2 holds a trump (3S), diamonds and hearts.
FOLLOW = ["2C 3C 4C 5C 6C 7C", "AS KD 8H 9H TH JH", "2S 3S 4D 5D 2H 3H"]


@pytest.mark.parametrize("follow_rule,allowed", [
    ("trump_anytime", {"3S", "4D", "5D"}),                 # follow or trump (C6)
    ("strict_follow", {"4D", "5D"}),                       # trump only when void
    ("follow_trump_only", {"3S", "4D", "5D", "2H", "3H"}),  # a plain lead need not be followed
])
def test_option_follow_rule_on_a_plain_lead(follow_rule, allowed):
    h = play(deal(FOLLOW, follow_rule=follow_rule), "pitch AS")
    assert legal(h) == {"play 2S", "play 3S"}  # a trump lead must be followed under all three
    assert_refused(h, "play 2H")
    play(h, "2S 2C", "KD")
    assert legal(h) == {"play " + c for c in allowed}
    for card in {"3S", "4D", "5D", "2H", "3H"} - allowed:
        assert_refused(h, "play " + card)


# ---------------------------------------------------------------- low_to, game_tie
@pytest.mark.parametrize("low_to,low", [("capturer", 0), ("holder", 1)])
def test_option_low_to(low_to, low):
    h = play(deal(["AS 3D 4D 5D 6D 7D", "2S TC KC QC 9H 8H", "JS 2H 3H 4H 5H 6H"],
                  low_to=low_to), "pitch 2S", "JS AS")
    finish(h)
    assert h.result.low == low


@pytest.mark.parametrize("game_tie,dealer,game", [
    ("no_point", 0, None), ("elder_hand", 0, 1), ("pitcher", 0, 1),
    ("no_point", 1, None), ("elder_hand", 1, 2), ("pitcher", 1, 1),
])
def test_option_game_tie(game_tie, dealer, game):
    # seats 1 (the pitcher) and 2 tie at 10; with dealer 1 the elder hand is seat 2
    auction = "pitch 4S" if dealer == 0 else "pass, pass, pitch 4S"
    h = play(deal(TIED, dealer=dealer, game_tie=game_tie), auction, "3S 2S", "TC 2H 2C",
             "7H TH 3C")
    finish(h)
    assert h.result.game_counts == (0, 10, 10)
    assert h.result.game == game


def test_option_game_tie_pitcher_only_when_the_pitcher_is_tied():
    # seats 0 and 2 tie at 10; the pitcher (seat 1) counts 0
    cards = ["2S 5S TD 2C 3C 4C", "4S 7H 7D 8D 9D 6D", "3S TH 2H 3H 4H 5H"]
    outcome = {}
    for game_tie in ("no_point", "elder_hand", "pitcher"):
        h = play(deal(cards, game_tie=game_tie), "pitch 4S", "3S 2S", "7H TH 2C", "2H 5S 6D",
                 "TD 7D 3H", "3C 8D 4H", "4C 9D 5H")
        assert h.result.game_counts == (10, 0, 10)
        outcome[game_tie] = h.result.game
    assert outcome == {"no_point": None, "elder_hand": 2, "pitcher": None}


@pytest.mark.parametrize("game_tie", ["no_point", "elder_hand", "pitcher"])
def test_option_game_tie_never_awards_a_game_point_when_nothing_counts(game_tie):
    # no A, K, Q, J or 10 dealt: everyone counts 0, even the pitcher who took every trick
    zero = ["2D 3D 4D 5D 6D 7D", "9S 8S 7S 6S 5S 2S", "2H 3H 4H 5H 6H 7H"]
    r = play(deal(zero, game_tie=game_tie), "bid 2, pass, pass", "9S 2H 2D", "8S 3H 3D",
             "7S 4H 4D", "6S 5H 5D", "5S 6H 6D", "2S 7H 7D").result
    assert r.game_counts == (0, 0, 0) and r.game is None


# ---------------------------------------------------------------- all_pass
@pytest.mark.parametrize("variant", ["auction", "money"])
def test_option_all_pass_force_dealer_exact2(variant):
    h = play(deal(SUITED, variant, all_pass="force_dealer_exact2"), "pass, pass, pass")
    assert legal(h) == {"bid 2"}
    assert_refused(h, "bid 3")


@pytest.mark.parametrize("variant,top", [("auction", "bid 4"), ("money", "bid moon")])
def test_option_all_pass_force_dealer_atleast2(variant, top):
    h = play(deal(SUITED, variant, all_pass="force_dealer_atleast2"), "pass, pass, pass")
    assert {a for a in legal(h) if a.startswith("bid")} >= {"bid 2", "bid 3", "bid 4", top}
    assert "pass" not in legal(h) and "bid 1" not in legal(h)


@pytest.mark.parametrize("variant", ["auction", "money"])
def test_option_all_pass_redeal_throws_the_hand_in(variant):
    h = play(deal(SUITED, variant, all_pass="redeal"), "pass, pass, pass")
    assert "pass" in legal(h)
    play(h, "pass")
    assert h.phase == "over" and h.pitcher is None and h.result.thrown_in
    assert h.result.deltas == (0, 0, 0, 0)
    m = pc.Match(rules(variant, all_pass="redeal", target=7), players=4, dealer=0)
    play_hand(m, SUITED, ("pass, pass, pass, pass",))
    assert m.scores == [0, 0, 0, 0] and m.winner is None and m.next_dealer == 1


@pytest.mark.parametrize("variant", ["auction", "money"])
def test_option_all_pass_eldest_pitches_with_no_contract(variant):
    h = play(deal(SUITED, variant, all_pass="eldest_pitches_no_contract"),
             "pass, pass, pass, pass")
    assert h.phase == "play" and h.pitcher == 1 and h.contract == 0 and h.seat_to_act == 1
    finish(h)
    assert h.result.bid == 0 and h.result.made
    assert h.result.deltas == h.result.points


# ---------------------------------------------------------------- dealer_steal
@pytest.mark.parametrize("variant", ["auction", "money"])
def test_option_dealer_steal_none(variant):
    h = play(deal(SUITED, variant, dealer_steal="none"), "bid 2, pass, pass")
    assert "bid 2" not in legal(h) and "bid 3" in legal(h)
    assert_refused(h, "bid 2")


def test_option_dealer_steal_equal_below_max():
    h = play(deal(SUITED, "auction"), "bid 3, pass, pass")
    assert "bid 3" in legal(h)
    h = play(deal(SUITED, "auction"), "pitch AH")
    assert h.phase == "play"  # a 4 (the top) cannot be taken
    h = play(deal(SUITED, "money"), "bid 4, pass, pass")
    assert "bid 4" in legal(h)
    h = play(deal(SUITED, "money"), "bid moon")
    assert h.phase == "play"  # nor a moon


def test_option_dealer_steal_equal_any_incl_pitched():
    r = rules("auction", dealer_steal="equal_any_incl_pitched")
    h = play(pc.Hand.deal(r, players=4, dealer=0, cards=SUITED), "pitch AH")
    assert h.phase == "auction" and h.seat_to_act == 0  # the dealer may take the pitch
    assert "bid 4" in legal(h) and "pitch AS" in legal(h)
    taken = play(h.copy(), "bid 4")
    assert (taken.pitcher, taken.contract, taken.seat_to_act) == (0, 4, 0)
    assert "AH" in held(taken, 1) and taken.trump is None  # the pitcher takes its card back
    kept = play(h.copy(), "pass")
    assert kept.pitcher == 1 and kept.trump == "H" and "AH" not in held(kept, 1)
    h = play(deal(SUITED, "money", dealer_steal="equal_any_incl_pitched"), "bid moon")
    assert h.seat_to_act == 0 and legal(h) == {"pass", "bid moon"}
    play(h, "bid moon")
    assert (h.pitcher, h.contract) == (0, 5)


# ---------------------------------------------------------------- pitch_as_bid_4
def test_option_pitch_as_bid_4():
    h = deal(SUITED, "auction", pitch_as_bid_4=False)
    assert not any(a.startswith("pitch") for a in legal(h))
    assert_refused(h, "pitch AH")
    h = deal(SUITED, "money", pitch_as_bid_4=True)
    assert "pitch AH" in legal(h)
    play(h, "pitch AH, pass, pass")
    assert h.phase == "auction"  # 4 is not the top: the auction goes on
    assert {a for a in legal(h) if not a.startswith("pitch")} == {"pass", "bid 4", "bid moon"}
    play(h, "pass")
    assert h.pitcher == 1 and h.trump == "H" and h.current_trick()[0][1] == pc.parse_card("AH")


# ---------------------------------------------------------------- moon / smudge
def test_option_moon_none_has_no_moon_bid():
    h = deal(SUITED, "auction")
    assert "bid moon" not in legal(h)
    assert_refused(h, "bid moon")


@pytest.mark.parametrize("moon,made_delta", [("moon", 4), ("smudge", 5), ("smudge_wins", 4)])
def test_option_moon_values(moon, made_delta):
    r = rules("auction", moon=moon)
    assert r.bid_values[-1] == "moon"
    h = play(pc.Hand.deal(r, players=3, dealer=0, cards=SWEEP), "bid 4")
    assert h.phase == "auction"  # 4 is no longer the top bid
    h = play(pc.Hand.deal(r, players=3, dealer=0, cards=SWEEP), "bid moon", *SWEEP_PLAY)
    assert h.result.moon and h.result.deltas == (0, made_delta, 0)
    m = pc.Match(r, players=3, dealer=0)
    play_hand(m, SWEEP, ("bid moon", *SWEEP_PLAY))
    assert m.winner == (1 if moon == "smudge_wins" else None)


@pytest.mark.parametrize("fail", [4, 5])
@pytest.mark.parametrize("variant", ["money", "setback-like"])
def test_option_moon_fail_points(variant, fail):
    r = rules("money") if variant == "money" else rules("auction", moon="smudge")
    r = r.replace(moon_fail_points=fail)
    h = play(pc.Hand.deal(r, players=3, dealer=0, cards=FIVE_OF_SIX), "bid moon",
             *FIVE_OF_SIX_PLAY)
    assert h.result.points[1] == 4 and not h.result.made
    assert h.result.deltas == (0, -fail, 0)


def test_option_moon_must_be_bid():
    s = session()
    r = play_hand(s, SWEEP, ("bid 4, pass, pass", *SWEEP_PLAY))
    assert not r.moon and s.stars["B"] == 0
    s = session(moon_must_be_bid=False)
    r = play_hand(s, SWEEP, ("bid 4, pass, pass", *SWEEP_PLAY))
    assert r.moon and s.stars["B"] == 1 and r.deltas == (0, 4, 0)
    assert s.ledger["B"] == 2 + TEN_CENTS * Fraction(8, 3)


# ---------------------------------------------------------------- auction shape
def test_option_pass_is_final():
    h = play(deal(SUITED[:3], "money"), "pass, bid 2, pass")
    assert h.phase == "play" and h.pitcher == 2  # seat 1 passed for good
    h = play(deal(SUITED[:3], "money", pass_is_final=False), "pass, bid 2, pass")
    assert h.phase == "auction" and h.seat_to_act == 1
    play(h, "bid 3, pass, pass")
    assert h.pitcher == 1 and h.contract == 3


@pytest.mark.parametrize("min_bid", [1, 2, 3, 4])
def test_option_min_bid(min_bid):
    h = deal(SUITED, "auction", min_bid=min_bid)
    assert {a for a in legal(h) if a.startswith("bid")} == {f"bid {v}"
                                                            for v in range(min_bid, 5)}
    h = deal(SUITED, "money", min_bid=min_bid)
    bids = {a for a in legal(h) if a.startswith("bid")}
    assert bids == {f"bid {v}" for v in range(min_bid, 5)} | {"bid moon"}


def test_option_min_bid_raises_the_forced_dealer_bid():
    h = play(deal(SUITED, "money", min_bid=3), "pass, pass, pass")
    assert legal(h) == {"bid 3"}


def test_option_bid_values_shorthand():
    r = rules("auction", bid_values="2-4+smudge")
    assert (r.min_bid, r.moon) == (2, "smudge") and r.bid_values == (2, 3, 4, "moon")
    assert rules("money", bid_values=[2, 3, 4]).moon == "none"
    with pytest.raises(pc.OptionError, match="bid_values"):
        rules("auction", bid_values="0-9")


# ---------------------------------------------------------------- end of game
def test_option_target():
    assert h_b_match([0, 5, 0]).winner == 1
    assert h_b_match([0, 5, 0], target=11).winner is None
    assert h_b_match([0, 9, 0], target=11).winner == 1
    assert h_b_match([0, 50, 50], target=None).winner is None


@pytest.mark.parametrize("win_rule,winner", [
    ("bidder_goes_out", None), ("first_to_target_HLJG_order", 2),
    ("pitcher_counted_first", 2), ("higher_score", 2),
])
def test_option_win_rule_when_the_pitcher_is_set(win_rule, winner):
    m = h_b_match([0, 5, 6], bid=3, win_rule=win_rule)  # pitcher set to 2, seat 2 to 8
    assert m.scores == [0, 2, 8]
    assert m.winner == winner


@pytest.mark.parametrize("win_rule,winner", [
    ("bidder_goes_out", 1), ("first_to_target_HLJG_order", 2),
    ("pitcher_counted_first", 1), ("higher_score", 1),
])
def test_option_win_rule_when_both_reach_7(win_rule, winner):
    assert h_b_match([0, 5, 5], win_rule=win_rule).winner == winner


def test_option_win_requires_made_bid():
    assert h_b_match([0, 10, 0], bid=3).winner is None
    assert h_b_match([0, 10, 0], bid=3, win_requires_made_bid=False).winner == 1


def test_option_pitcher_set_keeps_points():
    r = play(deal(H_B), "bid 3, pass, pass", *H_B_PLAY).result
    assert r.deltas == (0, -3, 2)
    r = play(deal(H_B, pitcher_set_keeps_points=True), "bid 3, pass, pass", *H_B_PLAY).result
    assert not r.made and r.deltas == (0, -1, 2)


# ---------------------------------------------------------------- money options
def test_option_money_none_refuses_a_money_session():
    with pytest.raises(pc.IllegalActionError):
        pc.MoneySession(rules("auction"), players=["A", "B", "C"])
    with pytest.raises(pc.IllegalActionError):
        session(money="none")


def test_option_money_per_point_flat_settles_every_pair():
    s = session()
    play_hand(s, *E24_HANDS[0])  # d = (4, 0, 0)
    assert s.ledger == {"A": Fraction(4, 15), "B": Fraction(-2, 15), "C": Fraction(-2, 15)}
    s = session(money="per_point_flat")
    play_hand(s, *E24_HANDS[0])
    assert s.ledger == {"A": Fraction(8, 10), "B": Fraction(-4, 10), "C": Fraction(-4, 10)}


def test_option_stake_per_point_and_moon_payment():
    s = session(stake_per_point=Fraction(1, 4), moon_payment="0.50")
    play_hand(s, SWEEP, ("bid moon", *SWEEP_PLAY))
    assert s.ledger["B"] == Fraction(1, 4) * Fraction(8, 3) + 1
    assert rules("money", stake_per_point=0.1).stake_per_point == Fraction(1, 10)
    assert rules("money", stake_per_point="0.05").stake_per_point == Fraction(1, 20)


def test_option_average_mode():
    ledgers = {}
    for mode in ("per_hand", "snapshot"):
        s = session(("A", "B"), average_mode=mode)
        play_hand(s, ["AS JS 9H TC 8C 7C", "KS 2S 3D 4D 5D 6D"],
                  ("pass, bid 2", "AS KS", "TC 3D", "9H 2S", "4D 7C", "5D 8C", "6D JS"))
        s.join("C")
        ledgers[mode] = s.ledger["C"]
    assert ledgers["per_hand"] == 0  # C sat in no hand
    assert ledgers["snapshot"] == TEN_CENTS * (0 - Fraction(4, 3))  # against today's mean


def test_option_join_leave_never():
    s = session(join_leave="never")
    with pytest.raises(pc.IllegalActionError):
        s.join("D")
    with pytest.raises(pc.IllegalActionError):
        s.leave("A")
    assert s.players == ["A", "B", "C"]


@pytest.mark.parametrize("join_score,score", [("zero", 0), ("table_average", 2)])
def test_option_join_score_in_snapshot_mode(join_score, score):
    s = session(average_mode="snapshot", join_score=join_score)
    for cards, script in E24_HANDS:
        play_hand(s, cards, script)  # scores 7, 2, -3: mean 2
    s.join("D")
    assert s.scores["D"] == score
    assert s.ledger["D"] == TEN_CENTS * (score - Fraction(6 + score, 4))


# ---------------------------------------------------------------- dealing options
def test_option_deal_batch_changes_who_gets_which_card_not_which_cards():
    differ = 0
    for seed in range(10):
        deals = [pc.Hand.deal(rules("auction", deal_batch=b), players=4, dealer=0,
                              seed=seed).dealt for b in (1, 2, 3)]
        unions = [sum(d) for d in deals]  # disjoint masks: the sum is the union
        assert unions[0] == unions[1] == unions[2]
        differ += deals[0] != deals[2]
    assert differ == 10


class _StubRng:
    """Draws prescribed cards for a cut and a prescribed seat for a random choice."""

    def __init__(self, cuts, seat=0):
        self.cuts = list(cuts)
        self.seat = seat

    def sample(self, population, k):
        cards = pc.parse_cards(self.cuts.pop(0))
        assert len(cards) == k
        return cards

    def randrange(self, n):
        return self.seat


def test_option_first_dealer_random_or_cut():
    r = rules("auction")
    assert first_dealer(r, 4, _StubRng([], seat=3)) == 3
    cut = r.replace(first_dealer="cut")
    assert first_dealer(cut, 4, _StubRng(["KS 5H 9D AC"])) == 1  # the lowest card deals
    # a tie for lowest is cut again among the tied seats
    assert first_dealer(cut, 4, _StubRng(["3S 5H 3D AC", "9C 4H"])) == 2
    dealers = {pc.Match(cut, players=4, dealer=None, seed=s).first_dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}


def test_option_allow_two_players_and_partnership():
    with pytest.raises(pc.IllegalActionError):
        pc.Hand.deal(rules("auction"), players=2, seed=1)
    assert pc.Hand.deal(rules("auction", allow_two_players=True), players=2, seed=1).sides == 2
    assert pc.Hand.deal(rules("auction", partnership="2x2", min_players=4, max_players=4),
                        players=4, seed=1).sides == 2


# ---------------------------------------------------------------- bad options
def test_option_error_is_a_value_error():
    assert issubclass(pc.OptionError, ValueError)
    assert issubclass(pc.IllegalActionError, ValueError)
    assert issubclass(pc.InvalidActionError, ValueError)


@pytest.mark.parametrize("option", sorted(pc.RuleSet.OPTION_CHOICES))
def test_option_bad_value_names_the_option_and_lists_allowed_values(option):
    allowed = pc.RuleSet.OPTION_CHOICES[option]
    for bad in ("bogus", 99, 3.0, None, [1]):
        if any(bad == a for a in allowed) and not isinstance(bad, float):
            continue
        with pytest.raises(pc.OptionError) as info:
            rules("auction").replace(**{option: bad})
        message = str(info.value)
        assert option in message
        for value in allowed:
            assert repr(value) in message


@pytest.mark.parametrize("option", ["allow_two_players", "pass_is_final", "pitch_as_bid_4",
                                    "moon_must_be_bid", "pitcher_set_keeps_points",
                                    "win_requires_made_bid"])
def test_option_bad_boolean_names_the_option(option):
    with pytest.raises(pc.OptionError) as info:
        rules("auction").replace(**{option: "yes"})
    assert option in str(info.value) and "True" in str(info.value)


@pytest.mark.parametrize("option,bad", [("target", 0), ("target", 7.5), ("target", "7"),
                                        ("min_players", 1), ("max_players", 9),
                                        ("stake_per_point", "ten cents"),
                                        ("moon_payment", True), ("forced_dealer_bid", "most")])
def test_option_bad_numbers_name_the_option(option, bad):
    with pytest.raises(pc.OptionError) as info:
        rules("money").replace(**{option: bad})
    assert option in str(info.value)


def test_option_unknown_option_and_variant():
    with pytest.raises(pc.OptionError) as info:
        rules("auction").replace(colour="red")
    assert "colour" in str(info.value) and "low_to" in str(info.value)
    with pytest.raises(pc.OptionError) as info:
        pc.find_variant("bridge")
    assert "bridge" in str(info.value) and "money" in str(info.value)


def test_option_inconsistent_combinations_are_refused():
    with pytest.raises(pc.OptionError):
        rules("auction", min_players=6, max_players=5)
    with pytest.raises(pc.OptionError):
        rules("auction-partners", money="per_point_vs_average")
    with pytest.raises(pc.OptionError):
        rules("auction", partnership="2x2", min_players=5, max_players=7)


def test_option_rule_sets_are_frozen_and_replace_validates():
    r = rules("auction")
    with pytest.raises(AttributeError):
        r.low_to = "holder"  # type: ignore[misc]
    assert r.replace(low_to="holder").low_to == "holder" and r.low_to == "capturer"


# ---------------------------------------------------------------- bad actions
def test_unreadable_actions_raise_invalid_action_error_and_change_nothing():
    for h in (deal(SUITED), play(deal(SUITED), "pitch AH")):
        for bad in ("bid 11", "bid", "pitch", "pitch 1X", "pitch BJ", "discard", "trump X",
                    "play", "fold", "", None, True, -1, 999, 2.5):
            assert_refused(h, bad, error=pc.InvalidActionError)


def test_illegal_actions_raise_illegal_action_error_with_the_legal_list():
    h = deal(SUITED)
    info = assert_refused(h, "play AH")
    assert info.value.seat == 1 and info.value.phase == "auction"
    assert set(info.value.legal) == legal(h)
    h = finish(h)
    assert_refused(h, "pass")


def test_a_random_illegal_action_never_changes_anything():
    rng = random.Random(1)
    for seed in range(30):
        h = pc.Hand.deal(rules(rng.choice(["auction", "money"])), players=4, seed=seed)
        while h.seat_to_act is not None:
            legal_now = set(h.legal_actions())
            bad = [a for a in pc.ACTIONS if a not in legal_now]
            assert_refused(h, rng.choice(bad))
            h.push(rng.choice(sorted(legal_now)))

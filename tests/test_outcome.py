"""Hands entered by their outcome (issue 16): every validation error, one test each, and the
scoring, undo, JSON and record of entered hands."""

from __future__ import annotations

from fractions import Fraction

import pytest

import pitchcards as pc
from pitchcards.notation import RecordReplayError, RecordSyntaxError
from pitchcards.outcome import Outcome

MONEY = pc.find_variant("money")
AUCTION = pc.find_variant("auction")
SETBACK = pc.find_variant("setback")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def money(**options: object) -> pc.MoneySession:
    return pc.MoneySession(MONEY.replace(**options) if options else MONEY, NAMES, dealer=0)


def hand(**fields: object) -> Outcome:
    """Bob bids 2 and wins it; High, Low, Game to Bob, the Jack not out (unless changed)."""
    base: dict[str, object] = {"bidder": 1, "bid": 2, "trump": "H", "high": 1, "low": 1,
                               "jack": None, "game": 1}
    base.update(fields)
    return Outcome(**base)  # type: ignore[arg-type]


def refused(session: pc.Match | pc.MoneySession, outcome: object, reason: str,
            *words: str) -> pc.IllegalActionError:
    """The entry is refused with ``reason``, its message says ``words``, nothing changed."""
    before = pc.write_record(session)
    with pytest.raises(pc.IllegalActionError) as info:
        session.enter(outcome)  # type: ignore[arg-type]
    assert info.value.reason == reason, str(info.value)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert pc.write_record(session) == before
    return info.value


# ----------------------------------------------------------------------------- validation
def test_a_dealer_out_of_rotation_is_refused() -> None:
    s = money()
    err = refused(s, hand(dealer=3), "wrong_dealer", "Ann (seat 0)", "rotation")
    assert err.legal == ("0",)


def test_a_bidder_who_is_not_a_player_is_refused() -> None:
    refused(money(), hand(bidder=7), "no_such_seat", "bidder: 7", "Eve (seat 4)")


def test_a_point_taker_who_is_not_a_player_is_refused() -> None:
    refused(money(), hand(jack=9), "no_such_seat", "Jack: 9")


def test_high_must_be_given() -> None:
    refused(money(), hand(high=None), "no_such_seat", "High: say who took it")


def test_trump_must_be_a_suit() -> None:
    refused(money(), hand(trump="X"), "bad_outcome", "trump", "C, D, H, S")


def test_trump_as_a_symbol_is_read() -> None:
    assert money().enter(hand(trump="♠")).trump == "S"


def test_every_bid_or_the_winner_not_both() -> None:
    refused(money(), hand(bids=("pass", "2")), "bad_outcome", "not both")


def test_a_bid_that_is_not_a_bid_is_refused() -> None:
    refused(money(), Outcome(bids=("pass", "play QH"), trump="H", high=1, low=1, game=1),
            "bad_outcome", "bid 2", "is not a bid")


def test_a_bid_below_the_high_bid_is_refused_by_the_auction() -> None:
    refused(money(), Outcome(bids=("3", "2"), trump="H", high=1, low=1, game=1),
            "bid_too_low", "bid 2", "Cy (seat 2)")


def test_a_winning_bid_above_the_ladder_is_refused() -> None:
    refused(money(moon="none"), hand(bid="moon"), "bid_too_high", "could win with 2, 3, 4")


def test_a_winning_bid_below_the_ladder_is_refused() -> None:
    refused(money(), hand(bid=1), "bid_too_low", "could win with 2, 3, 4, moon")


def test_the_forced_dealer_may_not_pass() -> None:
    refused(money(), Outcome(bids=("pass",) * 5, trump="H", high=1, low=1, game=1),
            "must_bid", "bid 5", "Ann (seat 0)")


def test_the_forced_dealer_bids_exactly_two_under_exact2() -> None:
    refused(money(), Outcome(bids=("pass",) * 4 + ("3",), trump="H", high=0, low=0, game=0),
            "bid_too_high", "bid 5")
    s = money()
    assert s.enter(Outcome(bids=("pass",) * 4 + ("2",), trump="H", high=0, low=0,
                           game=0)).result.deltas[0] == 3  # type: ignore[union-attr]


def test_a_forced_dealer_wins_only_at_two_when_named_as_the_winner() -> None:
    # exact2: the dealer may still outbid a 2 with a 3 (someone else bid first).
    s = money()
    entered = s.enter(hand(bidder=0, bid=3, high=0, low=0, game=0))
    assert entered.contract == 3 and [str(a) for _, a in entered.history] == [
        "bid 2", "pass", "pass", "pass", "bid 3", "pass"]


def test_bids_after_the_auction_ended_are_refused() -> None:
    refused(money(), Outcome(bids=("moon", "pass"), trump="H", high=1, low=1, game=1),
            "bad_outcome", "already over after 1 bids")


def test_bids_that_stop_before_the_auction_ends_are_refused() -> None:
    refused(money(), Outcome(bids=("2",), trump="H", high=1, low=1, game=1),
            "auction_in_progress", "Cy (seat 2) is still to bid")


def test_the_winning_bid_cannot_be_a_pass() -> None:
    refused(money(), hand(bid="pass"), "bad_outcome", "cannot be a pass")


def test_the_winning_bid_must_be_given() -> None:
    refused(money(), hand(bid=None), "bad_outcome", "say the winning bid")


def test_points_need_one_number_per_player() -> None:
    refused(money(), hand(high=None, low=None, game=None, points=(2, 1)), "bad_outcome",
            "5 whole numbers", "one per player")


def test_points_need_one_number_per_team_in_partnerships() -> None:
    m = pc.Match(SETBACK, 4, dealer=0)
    refused(m, hand(high=None, low=None, game=None, points=(2, 0, 1, 0)), "bad_outcome",
            "2 whole numbers", "one per team")


def test_more_than_four_points_in_a_hand_are_refused() -> None:
    refused(money(), hand(high=None, low=None, game=None, points=(2, 2, 1, 0, 0)),
            "bad_outcome", "5 in all", "2 to 4")


def test_fewer_than_two_points_in_a_hand_are_refused() -> None:
    refused(money(), hand(high=None, low=None, game=None, points=(0, 1, 0, 0, 0)),
            "bad_outcome", "1 in all")


def test_points_alone_cannot_decide_an_HLJG_race() -> None:
    m = pc.Match(AUCTION.replace(win_rule="first_to_target_HLJG_order"), 4, dealer=0)
    refused(m, hand(high=None, low=None, game=None, points=(0, 2, 0, 1)), "bad_outcome",
            "order High, Low, Jack, Game")


def test_points_and_takers_not_both() -> None:
    refused(money(), hand(points=(0, 3, 0, 0, 0)), "bad_outcome", "not both")


def test_a_moon_needs_to_know_about_the_tricks() -> None:
    refused(money(), hand(bid="moon", jack=1), "bad_outcome", "all six tricks", "A-R6.2")


def test_a_sweep_leaves_no_point_to_another_player() -> None:
    refused(money(), hand(bid="moon", high=2, jack=1, swept=True), "bad_outcome",
            "captured every card", "High")


def test_a_sweep_by_points_leaves_no_point_to_another_player() -> None:
    refused(money(), hand(high=None, low=None, game=None, points=(1, 3, 0, 0, 0), swept=True),
            "bad_outcome", "the other points")


def test_swept_is_true_or_false() -> None:
    refused(money(), hand(swept="yes"), "bad_outcome", "swept must be true or false")


def test_a_game_tie_needs_two_players() -> None:
    refused(money(), hand(game=None, game_tied=(1, 1)), "bad_outcome", "a tie needs two")


def test_a_game_tie_in_partnerships_needs_two_teams() -> None:
    m = pc.Match(SETBACK, 4, dealer=0)
    refused(m, hand(game=None, game_tied=(0, 2)), "bad_outcome", "two teams")


def test_game_or_its_tie_not_both() -> None:
    refused(money(), hand(game_tied=(1, 2)), "bad_outcome", "not both")


def test_a_hand_thrown_in_has_no_points() -> None:
    m = pc.Match(AUCTION.replace(all_pass="redeal"), 4, dealer=0)
    refused(m, Outcome(bids=("pass",) * 4, trump="H", high=1, low=1), "bad_outcome",
            "thrown in", "trump")
    thrown = m.enter(Outcome(bids=("pass",) * 4))
    assert thrown.result is not None and thrown.result.thrown_in and m.next_dealer == 1


def test_not_an_outcome_is_refused() -> None:
    refused(money(), {"bidder": 1}, "bad_outcome", "an Outcome")


def test_entering_during_a_played_hand_is_refused() -> None:
    s = money()
    s.deal()
    refused(s, hand(), "hand_in_progress")


def test_entering_after_the_match_is_won_is_refused() -> None:
    m = pc.Match(AUCTION.replace(target=2), 4, dealer=0)
    m.enter(hand(bid=2))
    assert m.winner == 1
    refused(m, hand(), "game_over")


def test_entering_after_the_session_is_settled_is_refused() -> None:
    s = money()
    s.settle()
    refused(s, hand(), "game_over")


def test_an_entry_cannot_be_undone_once_someone_joined() -> None:
    s = money()
    s.enter(hand())
    s.join("Flo")
    with pytest.raises(pc.IllegalActionError) as info:
        s.pop()
    assert info.value.reason == "undo_blocked"


def test_an_unknown_json_field_is_refused() -> None:
    with pytest.raises(pc.IllegalActionError) as info:
        Outcome.from_dict({"bidder": 1, "trumps": "H"})
    assert info.value.reason == "bad_outcome" and "'trumps'" in str(info.value)


def test_an_entered_hand_is_not_undone_action_by_action() -> None:
    entered = money().enter(hand())
    with pytest.raises(pc.IllegalActionError):
        entered.pop()


# ----------------------------------------------------------------------------- scoring
def test_a_made_moon_earns_a_star_and_a_dollar_from_everyone() -> None:
    s = money()
    s.enter(hand(bid="moon", jack=1, swept=True))
    assert s.stars["Bob"] == 1 and s.scores["Bob"] == 4
    assert s.ledger["Bob"] == 4 * MONEY.moon_payment + MONEY.stake_per_point * Fraction(16, 5)


def test_a_moon_with_all_four_points_but_not_every_trick_is_set() -> None:
    s = money()
    result = s.enter(hand(bid="moon", jack=1, swept=False)).result
    assert result is not None and not result.made and result.deltas[1] == -4
    assert s.ledger["Bob"] < -4


def test_partnership_points_go_to_the_takers_team() -> None:
    m = pc.Match(SETBACK, 4, dealer=0)
    m.enter(Outcome(bids=("pass", "2", "pass", "pass"), trump="S", high=3, low=1, jack=0,
                    game=2))
    assert m.scores == [2, 2]  # team 1 (Bob's) bid 2 and took High and Low; team 0 Jack, Game


def test_a_game_tie_goes_to_the_elder_hand_under_elder_hand() -> None:
    s = money(game_tie="elder_hand")
    result = s.enter(hand(game=None, game_tied=(3, 2))).result
    assert result is not None and result.game == 2  # Cy sits before Dee from Ann's left


def test_a_game_tie_goes_nowhere_under_no_point() -> None:
    result = money().enter(hand(game=None, game_tied=(3, 2))).result
    assert result is not None and result.game is None


def test_pop_undoes_an_entered_hand_whole() -> None:
    s = money()
    s.enter(hand())
    before = (pc.write_record(s), dict(s.scores), s.ledger, s.next_dealer, s.tie_order())
    s.enter(hand(bidder=2, high=2, low=2, game=2))
    assert str(s.pop()) == "pass"
    assert (pc.write_record(s), dict(s.scores), s.ledger, s.next_dealer, s.tie_order()) == before


def test_the_winning_bid_alone_builds_a_legal_auction() -> None:
    h = money().enter(hand(bidder=0, bid=4, high=0, low=0, game=0))
    assert h.pitcher == 0 and h.contract == 4
    # exact2: the forced dealer may bid only 2, so the eldest hand opened and Ann raised.
    assert [str(a) for _, a in h.history] == ["bid 2", "pass", "pass", "pass", "bid 4", "pass"]


def test_an_outcome_is_json() -> None:
    entered = money().enter(hand(bids=None, bidder=2, bid="moon", high=2, low=2, game=2,
                                 jack=2, swept=True))
    data = entered.outcome.to_dict()
    assert data == {"bidder": 2, "bid": "moon", "trump": "H", "high": 2, "low": 2, "jack": 2,
                    "game": 2, "swept": True}
    assert Outcome.from_dict(data) == entered.outcome


# ----------------------------------------------------------------------------- records
def test_a_record_with_entered_hands_replays() -> None:
    s = money()
    s.enter(hand())
    s.leave("Dee")
    s.enter(Outcome(bids=("pass", "pass", "3", "pass"), trump="C", high=2, low=0, jack=2,
                    game=None, game_tied=(0, 1)))
    s.join("Flo")
    s.enter(hand(bidder=3, high=None, low=None, jack=None, game=None, points=(1, 0, 1, 2, 0)))
    s.settle()
    text = pc.write_record(s)
    assert "outcome bidder 1, bid 2, trump H, high 1, low 1, jack -, game 1\n" in text
    assert "outcome bids pass pass 3 pass, trump C, high 2, low 0, jack 2, game tie 0 1\n" in text
    assert "outcome bidder 3, bid 2, trump H, points 1 0 1 2 0\n" in text
    again = pc.replay(pc.read_record(text))
    assert pc.write_record(again) == text
    assert again.payouts == s.payouts and again.payout_cents == s.payout_cents


def test_a_record_may_not_mix_deal_lines_into_an_entered_hand() -> None:
    text = pc.write_record(money()).replace("\nend", "\nhand 1 dealer 0\noutcome bidder 1, bid 2, "
                                    "trump H, high 1, low 1, jack -, game 1\ndeal 0 AS KS QS "
                                    "JS TS 9S\nend")
    with pytest.raises(RecordSyntaxError, match="no 'deal' lines"):
        pc.read_record(text.replace("pitchcards-record 2", "pitchcards-record 1")
                       .rsplit("\nend", 1)[0] + "\n")


def test_a_record_with_an_impossible_outcome_names_its_line() -> None:
    text = ("pitchcards-record 1\ngame money\nvariant money\nplayers Ann Bob Cy\ndealer 0\n"
            "hand 1 dealer 0\noutcome bidder 1, bid 2, trump H, points 3 3 0\n")
    with pytest.raises(RecordReplayError) as info:
        pc.read_record(text)
    assert info.value.line == 7 and info.value.reason == "bad_outcome"


def test_an_unknown_outcome_field_is_a_syntax_error() -> None:
    text = ("pitchcards-record 1\ngame money\nvariant money\nplayers Ann Bob Cy\ndealer 0\n"
            "hand 1 dealer 0\noutcome bidder 1, bid 2, trumps H\n")
    with pytest.raises(RecordSyntaxError, match="unknown outcome field 'trumps'"):
        pc.read_record(text)


def test_pitch_replay_describes_an_entered_hand() -> None:
    s = money()
    s.enter(hand())
    text = pc.notation.replay_text(pc.write_record(s))
    assert "entered by its outcome: bidder 1, bid 2, trump H, high 1, low 1, jack -, game 1" in text
    assert "Bob bid 2 in ♥: made" in text

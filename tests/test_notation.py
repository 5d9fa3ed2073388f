"""Game records (pitchcards.notation): write, read back, replay; errors with line numbers."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pitchcards as pc
from helpers import mutate_record
from pitchcards import cli
from pitchcards.cards import card_name, cards_of
from pitchcards.notation import (
    EventRecord,
    HandRecord,
    Record,
    RecordError,
    RecordMismatchError,
    RecordReplayError,
    RecordSyntaxError,
    read_record,
    replay,
    replay_text,
    write_record,
)

Game = pc.Match | pc.MoneySession
VARIANTS = ("money", "auction", "auction-partners", "setback")


# ------------------------------------------------------------------------------ random play
def stacked(rng: random.Random, players: int) -> list[list[int]]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [deck[6 * s:6 * s + 6] for s in range(players)]


def choose(rng: random.Random, hand: pc.Hand) -> pc.Action:
    """A random legal action, passing often in the auction so that bids get made."""
    legal = hand.legal_actions()
    if hand.phase == "auction" and rng.random() < 0.5:
        passes = [a for a in legal if a.kind == "pass"]
        if passes:
            return passes[0]
    return rng.choice(legal)


def seats(game: Game) -> int:
    return game.players if isinstance(game, pc.Match) else len(game.players)


def play_hand(game: Game, rng: random.Random, actions: int | None = None,
              deal_stacked: bool = True) -> None:
    """Deal (stacked from ``rng`` or from the game's seed) and play; stop after ``actions``."""
    hand = game.deal(cards=stacked(rng, seats(game))) if deal_stacked else game.deal()
    done = 0
    while hand.seat_to_act is not None and (actions is None or done < actions):
        game.push(choose(rng, hand))
        done += 1


def finish_hand(game: Game, rng: random.Random) -> None:
    hand = game.hand
    assert hand is not None
    while hand.seat_to_act is not None:
        game.push(choose(rng, hand))


def play_match(variant: str, seed: int, players: int = 4, hands: int = 60,
               **options: Any) -> pc.Match:
    rules = pc.find_variant(variant).replace(**options)
    rng = random.Random(seed)
    match = pc.Match(rules, players=players, dealer=None, seed=seed)
    while match.winner is None and len(match.results) < hands:
        play_hand(match, rng)
    return match


def play_session(seed: int, **options: Any) -> pc.MoneySession:
    rules = pc.find_variant("money").replace(**options)
    rng = random.Random(seed)
    s = pc.MoneySession(rules, players=["Ann", "Bob", "Cy"], dealer=1, seed=seed)
    play_hand(s, rng)
    s.join("Dan")
    play_hand(s, rng)
    play_hand(s, rng)
    s.leave("Ann")
    s.join("Eve Lee")
    play_hand(s, rng)
    s.leave("Cy")
    play_hand(s, rng)
    s.settle()
    return s


# ------------------------------------------------------------------------------ comparisons
def assert_same_game(a: Game, b: Game) -> None:
    assert type(a) is type(b)
    assert a.rules == b.rules
    assert a.seed == b.seed
    assert a.results == b.results
    assert len(a.hands) == len(b.hands)
    for ha, hb in zip(a.hands, b.hands, strict=True):
        assert ha.dealer == hb.dealer
        assert ha.dealt == hb.dealt
        assert ha.history == hb.history
        assert ha.result == hb.result
        assert ha.seat_to_act == hb.seat_to_act
        assert ha.legal_actions() == hb.legal_actions()
    assert a.in_hand == b.in_hand
    assert a.next_dealer == b.next_dealer
    if isinstance(a, pc.Match):
        assert isinstance(b, pc.Match)
        assert a.scores == b.scores
        assert a.winner == b.winner
        assert a.first_dealer == b.first_dealer
        assert a.starting_scores == b.starting_scores
    else:
        assert isinstance(b, pc.MoneySession)
        assert a.scores == b.scores
        assert a.stars == b.stars
        assert a.players == b.players
        assert a.hand_players == b.hand_players
        assert a.payouts == b.payouts
        assert a.finished == b.finished
        assert a.pot == b.pot
        assert a.events == b.events
        if not a.finished:
            assert a.ledger == b.ledger


def round_trip(game: Game) -> tuple[str, Game]:
    text = write_record(game)
    again = replay(read_record(text))
    assert write_record(again) == text
    assert_same_game(game, again)
    return text, again


# ------------------------------------------------------------------------------ round trips
@pytest.mark.parametrize("variant", VARIANTS)
def test_complete_match_round_trips(variant: str) -> None:
    match = play_match(variant, seed=5, players=4)
    text, _ = round_trip(match)
    assert text.startswith("pitchcards-record 2\ngame match\n")
    assert re.search(r"\n\nend \d+ [0-9a-f]{16}\n\Z", text)
    assert f"\nvariant {variant}\n" in text
    assert "\noption " not in text
    if match.winner is not None:
        assert text.split("\n\nend ")[0].endswith(f"\nwinner {match.winner}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_match_dealt_from_its_seed_round_trips(variant: str) -> None:
    rng = random.Random(9)
    match = pc.Match(pc.find_variant(variant), players=4, dealer=None, seed=9)
    for _ in range(3):
        play_hand(match, rng, deal_stacked=False)
    text, _ = round_trip(match)
    assert "\nseed 9\n" in text


OPTION_CASES: dict[str, dict[str, Any]] = {
    "money": {"stake_per_point": Fraction(1, 3), "moon_payment": "0.25", "moon_fail_points": 5,
              "average_mode": "snapshot", "join_score": "table_average", "low_to": "holder"},
    "auction": {"low_to": "holder", "target": None, "follow_rule": "strict_follow",
                "game_tie": "elder_hand", "deal_batch": 2, "allow_two_players": True},
    "auction-partners": {"target": 11, "win_rule": "higher_score", "dealer_steal": "none",
                         "all_pass": "redeal", "win_requires_made_bid": False},
    "setback": {"moon": "smudge_wins", "pitch_as_bid_4": True, "min_bid": 1,
                "all_pass": "eldest_pitches_no_contract", "stake_per_point": Fraction(7, 200)},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_option_changes_round_trip_exactly(variant: str) -> None:
    options = OPTION_CASES[variant]
    match = play_match(variant, seed=3, hands=8, **options)
    text, again = round_trip(match)
    rules = match.rules
    assert again.rules == rules
    assert again.rules.changes() == rules.changes()
    assert set(rules.changes()) == set(options)
    record = read_record(text)
    assert record.options == rules.changes()
    assert record.rules == rules
    for name, value in rules.changes().items():
        if value is None or isinstance(value, bool):
            written = {None: "none", True: "true", False: "false"}[value]
        else:
            written = str(value)
        assert f"\noption {name} {written}\n" in text
    if variant == "money":
        assert "\noption stake_per_point 1/3\n" in text
        assert "\noption moon_payment 1/4\n" in text
        assert record.options["stake_per_point"] == Fraction(1, 3)
    if variant == "auction":
        assert "\noption target none\n" in text and record.rules.target is None


def test_custom_rule_set_writes_every_option() -> None:
    rules = pc.RuleSet(name="house rules", target=5, low_to="holder")
    rng = random.Random(2)
    match = pc.Match(rules, players=3, dealer=2, seed=None)
    play_hand(match, rng)
    text, again = round_trip(match)
    assert '\nvariant "house rules"\n' in text
    assert text.count("\noption ") == len(rules.options())
    assert again.rules == rules and again.rules.name == "house rules"


def test_variant_alias_and_lenient_spellings_are_read() -> None:
    text = write_record(play_match("auction", seed=4, hands=1), version=1)  # edited by hand
    text = text.replace("variant auction", "variant Auction-Pitch")
    text = re.sub(r"\bplay T([SHDC])", r"play 10\1", text)
    text = text.replace("deal 0 ", "deal 0  ").replace(" pass\n", " PASS\n")
    record = read_record(text)
    assert record.variant == "auction"
    game = replay(record)
    assert write_record(game) == write_record(play_match("auction", seed=4, hands=1))


def test_starting_scores_and_no_seed() -> None:
    rules = pc.find_variant("auction-partners")
    match = pc.Match(rules, players=4, dealer=3, seed=None, scores=[5, -2])
    play_hand(match, random.Random(1))
    text, again = round_trip(match)
    assert "\nscores 5 -2\n" in text and "\nseed" not in text
    assert isinstance(again, pc.Match) and again.starting_scores == (5, -2)
    zero = pc.Match(rules, players=4, dealer=0, seed=1, scores=[0, 0])
    assert "\nscores" not in write_record(zero)


def test_money_session_with_join_leave_settle_round_trips() -> None:
    session = play_session(seed=8)
    text, again = round_trip(session)
    body = [line for line in text.splitlines() if line.split(" ")[0] in
            ("hand", "join", "leave", "settle", "payout")]
    kinds = [line.split(" ")[0] for line in body]
    assert kinds == ["hand", "join", "hand", "hand", "leave", "payout", "join", "hand", "leave",
                     "payout", "hand", "settle", "payout", "payout", "payout"]
    assert '\njoin "Eve Lee"\n' in text
    assert "\nplayers Ann Bob Cy\n" in text
    assert "\nseats " + " ".join(f'"{n}"' if " " in n else n
                                for n in session.hand_players[3]) + "\n" in text
    assert set(session.hand_players[3]) == {"Bob", "Cy", "Dan", "Eve Lee"}
    record = read_record(text)
    assert record.game == "money" and record.names == ["Ann", "Bob", "Cy"]
    assert [e.kind for e in record.events] == ["join", "leave", "join", "leave", "settle"]
    assert isinstance(again, pc.MoneySession) and again.finished


def test_money_snapshot_joiner_starts_at_the_table_average() -> None:
    rng = random.Random(1)
    rules = pc.find_variant("money").replace(average_mode="snapshot",
                                             join_score="table_average")
    s = pc.MoneySession(rules, players=["A", "B"], dealer=0)
    for _ in range(3):
        play_hand(s, rng)
    s.join("C")
    play_hand(s, rng)
    round_trip(s)


def test_money_leave_that_ends_the_session_settles_once() -> None:
    rng = random.Random(4)
    s = pc.MoneySession(pc.find_variant("money"), players=["A", "B"], dealer=0, seed=4)
    play_hand(s, rng)
    s.leave("B")  # one player left: the session settles itself (A-R8.5)
    assert s.finished
    text, _ = round_trip(s)
    assert text.count("\nsettle\n") == 1
    assert text.split("\n\nend ")[0].endswith(f"leave B\npayout B {s.payouts['B']}\n\nsettle\n"
                                              f"payout A {s.payouts['A']}")
    # The settle line may also be left out: the leave settles the session anyway.
    old = write_record(s, version=1)
    again = replay(read_record(old.split("\nsettle\n")[0] + "\n"))
    assert isinstance(again, pc.MoneySession) and again.finished


def test_money_names_that_need_quoting() -> None:
    names = ["Zoë", "Ann Lee", 'say "hi"', "#1", "a  b", "back\\slash"]
    s = pc.MoneySession(pc.find_variant("money"), players=names, dealer=2)
    play_hand(s, random.Random(3))
    s.leave("#1")
    s.join("new # line")
    play_hand(s, random.Random(4), actions=5)
    text, _ = round_trip(s)
    assert "\nplayers Zoë \"Ann Lee\" \"say \\\"hi\\\"\" \"#1\"" in text


def test_session_between_hands_and_before_any_hand() -> None:
    s = pc.MoneySession(pc.find_variant("money"), players=["A", "B", "C"], dealer=1)
    round_trip(s)
    s.join("D")
    s.leave("A")
    round_trip(s)  # the first event is a join: seating order must still come out the same
    play_hand(s, random.Random(1))
    s.join("E")
    text, _ = round_trip(s)
    assert text.split("\n\nend ")[0].endswith("\njoin E")


# ------------------------------------------------------------------------------ unfinished
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("cut", [0, 1, 3, 7, 20])
def test_unfinished_hand_replays_and_plays_on_identically(variant: str, cut: int) -> None:
    """A saved game in progress: replay it, play on, and get the same game as the original."""
    rules = pc.find_variant(variant)
    original = pc.Match(rules, players=4, dealer=1, seed=6)
    rng = random.Random(cut)
    play_hand(original, rng)
    play_hand(original, rng, actions=cut)
    assert original.in_hand or cut == 20
    text = write_record(original)
    assert "result" not in text.split("\nhand 2 ")[1]
    resumed = replay(read_record(text))
    assert_same_game(original, resumed)
    # Play on both with identical random streams (stacked deals: the seed's stream differs).
    state = rng.getstate()
    for game in (original, resumed):
        rng.setstate(state)
        if game.in_hand:
            finish_hand(game, rng)
        for _ in range(2):
            if isinstance(game, pc.Match) and game.winner is not None:
                break
            play_hand(game, rng)
    assert write_record(original) == write_record(resumed)
    assert_same_game(original, resumed)


def test_unfinished_money_hand_round_trips() -> None:
    s = pc.MoneySession(pc.find_variant("money"), players=["A", "B", "C"], dealer=0)
    rng = random.Random(2)
    play_hand(s, rng)
    play_hand(s, rng, actions=4)
    assert s.in_hand
    text, again = round_trip(s)
    assert isinstance(again, pc.MoneySession)
    assert again.ledger == s.ledger
    assert "(hand in progress:" in replay_text(text)


# ------------------------------------------------------------------------------ reading
def test_comments_and_blank_lines_are_ignored() -> None:
    match = play_match("auction", seed=2, hands=2)
    text = write_record(match)
    noisy = "# a saved game\n\n" + "\n".join(
        f"{line}   # note {i}" if line and not line.startswith("#") else f"{line}\n  # x"
        for i, line in enumerate(text.splitlines())) + "\n\n# the end\n"
    assert write_record(replay(read_record(noisy))) == text


def test_windows_line_endings_and_bom() -> None:
    text = write_record(play_match("setback", seed=2, hands=1))
    assert write_record(replay(read_record("\ufeff" + text.replace("\n", "\r\n")))) == text


def test_record_content() -> None:
    match = play_match("auction", seed=1, hands=2, target=11)
    text = write_record(match)
    record = read_record(text)
    assert isinstance(record, Record)
    assert record.game == "match" and record.players == 4 and record.names is None
    assert record.dealer == match.first_dealer and record.seed == 1
    assert record.options == {"target": 11}
    assert [h.number for h in record.hands] == [1, 2]
    first = record.hands[0]
    assert isinstance(first, HandRecord)
    assert first.dealer == match.hands[0].dealer
    assert first.cards == [pc.format_cards(m) for m in match.hands[0].dealt]
    assert first.actions == match.hands[0].history
    assert first.result is not None and first.result["deltas"].count(" ") == 3
    assert first.total is not None
    assert record.events == []
    assert not any(isinstance(i, EventRecord) for i in record.items)


def test_public_api_exports() -> None:
    assert pc.write_record is write_record
    assert pc.read_record is read_record
    assert pc.replay is replay
    for name in ("write_record", "read_record", "replay"):
        assert name in pc.__all__


def test_write_record_refuses_other_objects() -> None:
    with pytest.raises(TypeError):
        write_record(pc.Hand.deal(pc.find_variant("auction")))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ errors
def _good() -> str:
    """A version-1 record (no checksum): the tests below edit it to make one error at a time."""
    return write_record(play_match("auction", seed=2, hands=2), version=1)


def _line_of(text: str, prefix: str, nth: int = 0) -> int:
    numbers = [i for i, line in enumerate(text.split("\n"), 1) if line.startswith(prefix)]
    return numbers[nth]


def _replace_line(text: str, lineno: int, new: str) -> str:
    lines = text.split("\n")
    lines[lineno - 1] = new
    return "\n".join(lines)


def _expect(text: str, error: type[Exception], line: int | None, *words: str) -> RecordError:
    with pytest.raises(error) as info:
        read_record(text)
    err = info.value
    assert isinstance(err, RecordError) and isinstance(err, pc.PitchError)
    assert isinstance(err, ValueError)
    assert err.line == line
    message = str(err)
    if line is not None:
        assert message.startswith(f"line {line}: ")
    for word in words:
        assert word in message, message
    return err


def test_error_empty_and_foreign_text() -> None:
    _expect("", RecordSyntaxError, 1, "empty record")
    _expect("# only a comment\n", RecordSyntaxError, 1, "empty record")
    _expect("[Event \"chess\"]\n", RecordSyntaxError, 1, "not a pitchcards record")
    _expect("pitchcards-record 3\n", RecordSyntaxError, 1, "unsupported format version 3",
            "reads versions 1 and 2")
    _expect("\n\npitchcards-record one\n", RecordSyntaxError, 3, "whole number")


def test_error_header_problems() -> None:
    good = _good()
    line = _line_of(good, "variant")
    _expect(_replace_line(good, line, "variant auctoin"), RecordSyntaxError, line,
            "unknown variant 'auctoin'")
    _expect(_replace_line(good, line, "option colour red"), RecordSyntaxError, line,
            "unknown option 'colour'")
    bad_opt = good.replace("players 4", "option low_to sideways\nplayers 4")
    _expect(bad_opt, RecordSyntaxError, line + 1, "low_to='sideways' is not allowed")
    bad_bool = good.replace("players 4", "option pass_is_final maybe\nplayers 4")
    _expect(bad_bool, RecordSyntaxError, line + 1, "true or false")
    bad_frac = good.replace("players 4", "option stake_per_point ten\nplayers 4")
    _expect(bad_frac, RecordSyntaxError, line + 1, "stake_per_point", "not an amount of dollars")
    twice = good.replace("players 4", "option target 9\noption target 11\nplayers 4")
    _expect(twice, RecordSyntaxError, line + 2, "given twice")
    pline = _line_of(good, "players")
    _expect(_replace_line(good, pline, "# no players"), RecordSyntaxError,
            _line_of(good, "hand 1"), "lacks its 'players' line")
    _expect(_replace_line(good, pline, "players 12"), RecordReplayError, pline, "12 players")
    dline = _line_of(good, "dealer")
    _expect(_replace_line(good, dline, "dealer 4"), RecordReplayError, dline,
            "dealer 4 is not a seat")
    late = good.replace("\nhand 2 ", "\nseed 3\nhand 2 ")
    _expect(late, RecordSyntaxError, _line_of(late, "seed", 1), "the header comes first")
    gline = _line_of(good, "game")
    _expect(_replace_line(good, gline, "game chess"), RecordSyntaxError, gline, "'match'")


def test_error_deal_problems() -> None:
    good = _good()
    line = _line_of(good, "deal 1")
    cards = good.split("\n")[line - 1].split()[2:]
    _expect(_replace_line(good, line, "deal 1 " + " ".join(cards[:5])), RecordSyntaxError,
            line, "hand 1", "5 cards")
    _expect(_replace_line(good, line, "deal 1 ZZ " + " ".join(cards[1:])), RecordSyntaxError,
            line, "cannot read card 'ZZ'")
    first = good.split("\n")[line - 2].split()[2]
    _expect(_replace_line(good, line, f"deal 1 {first} " + " ".join(cards[1:])),
            RecordSyntaxError, line, "dealt twice")
    _expect(_replace_line(good, line, "deal 2 " + " ".join(cards)), RecordSyntaxError, line,
            "expected 'deal 1 CARDS'")
    last_deal = _line_of(good, "deal 3")
    _expect(_replace_line(good, last_deal, "# seat 3 forgotten"), RecordReplayError,
            last_deal - 1, "deals 3 seats, but 4 players")


def test_error_action_problems() -> None:
    good = _good()
    first_action = _line_of(good, "deal 3") + 1
    seat = good.split("\n")[first_action - 1].split()[0]
    _expect(_replace_line(good, first_action, f"{seat} bid seven"), RecordSyntaxError,
            first_action, "hand 1", "cannot read action 'bid seven'")
    wrong = (int(seat) + 1) % 4
    err = _expect(_replace_line(good, first_action, f"{wrong} pass"), RecordReplayError,
                  first_action, "hand 1", "not this seat's turn")
    # out of turn: the acting seat's legal actions (its cards) are not told to another seat
    assert isinstance(err, pc.IllegalActionError) and err.seat == wrong and err.legal == ()
    play = _line_of(good, f"{seat} play", 0) if f"\n{seat} play" in good else None
    play = next(i for i, ln in enumerate(good.split("\n"), 1) if " play " in ln)
    acting = good.split("\n")[play - 1].split()[0]
    held = good.split("\n")[_line_of(good, f"deal {acting}") - 1].split()[2:]
    foreign = next(c for c in ("2C", "3C", "4C", "5C", "6C", "7C", "8C") if c not in held)
    _expect(_replace_line(good, play, f"{acting} play {foreign}"), RecordReplayError, play,
            "not a card this seat holds")
    hline = _line_of(good, "hand 2")
    _expect(_replace_line(good, hline, "hand 2 dealer 0"), RecordReplayError, hline,
            "hand 2: the deal is seat")
    _expect(_replace_line(good, hline, "hand 3 dealer 0"), RecordSyntaxError, hline,
            "expected hand 2")
    _expect(_replace_line(good, hline, "hand two"), RecordSyntaxError, hline,
            "'hand N dealer SEAT'")
    extra = good.replace("\nresult", "\n0 pass\nresult", 1)
    _expect(extra, RecordReplayError, _line_of(extra, "result") - 1, "hand 1")


def test_error_result_total_winner_mismatch() -> None:
    good = write_record(play_match("auction", seed=2, hands=60), version=1)
    assert "\nwinner " in good
    rline = _line_of(good, "result", 1)
    original = good.split("\n")[rline - 1]
    tampered = re.sub(r"deltas .*", "deltas +1 +1 +1 +1", original)
    err = _expect(_replace_line(good, rline, tampered), RecordMismatchError, rline, "hand 2",
                  "replayed result differs", "deltas")
    assert isinstance(err, RecordMismatchError) and err.hand == 2
    trump = re.search(r"trump (\w)", original)
    assert trump is not None
    other = "S" if trump.group(1) != "S" else "H"
    _expect(_replace_line(good, rline, original.replace(f"trump {trump.group(1)}",
                                                        f"trump {other}")),
            RecordMismatchError, rline, "hand 2", "trump")
    tline = _line_of(good, "total", 1)
    _expect(_replace_line(good, tline, "total 99 0 0 0"), RecordMismatchError, tline, "hand 2",
            "recorded totals 99 0 0 0")
    wline = _line_of(good, "winner")
    winner = int(good.split("\n")[wline - 1].split()[1])
    _expect(_replace_line(good, wline, f"winner {(winner + 1) % 4}"), RecordMismatchError,
            wline, f"side {winner} wins")
    _expect(_replace_line(good, rline, "result pitcher 0, colour red"), RecordSyntaxError,
            rline, "unknown result field 'colour'")
    _expect(_replace_line(good, rline, "result pitcher 0, made, set"), RecordSyntaxError,
            rline, "given twice")
    # A partial result line checks only the fields it gives.
    pitcher = re.search(r"pitcher (\d)", original)
    assert pitcher is not None
    read_record(_replace_line(good, rline, f"result pitcher {pitcher.group(1)}"))


def test_error_result_on_unfinished_hand_and_hand_after_it() -> None:
    match = play_match("auction", seed=3, hands=1)
    text = write_record(match, version=1)
    last_play = max(i for i, ln in enumerate(text.split("\n"), 1) if " play " in ln)
    cut = _replace_line(text, last_play, "# taken back")
    _expect(cut, RecordMismatchError, _line_of(cut, "result"), "hand 1",
            "not finished after")
    no_result = "\n".join(ln for ln in cut.split("\n")
                          if not ln.startswith(("result", "total", "winner")))
    more = no_result + "\nhand 2 dealer 0\n" + "\n".join(
        ln for ln in text.split("\n") if ln.startswith("deal ")) + "\n"
    _expect(more, RecordReplayError, _line_of(more, "hand 2"), "hand 1 is unfinished")
    read_record(no_result)  # without its result line, it is a game in progress


def test_error_money_events() -> None:
    session = play_session(seed=3)
    good = write_record(session, version=1)
    pline = _line_of(good, "payout Ann")
    _expect(_replace_line(good, pline, "payout Ann 1000"), RecordMismatchError, pline,
            "pays 'Ann' 1000")
    _expect(_replace_line(good, pline, "payout Ann lots"), RecordSyntaxError, pline,
            "exact dollars")
    sline = _line_of(good, "seats", 1)
    _expect(_replace_line(good, sline, "seats Bob Cy Dan"), RecordMismatchError, sline,
            "hand 2", "the replay seats " + " ".join(session.hand_players[1]))
    jline = _line_of(good, "join Dan")
    _expect(_replace_line(good, jline, "join Bob"), RecordReplayError, jline,
            "'Bob' is already at the table")
    lline = _line_of(good, "leave Ann")
    _expect(_replace_line(good, lline, "leave Zed"), RecordReplayError, lline,
            "'Zed' is not seated")
    _expect(_replace_line(good, lline, "leave"), RecordSyntaxError, lline, "exactly one name")
    twice = good + "settle\n"
    _expect(twice, RecordReplayError, len(twice.split("\n")) - 1, "already been settled")
    after = good + "\nhand 6 dealer 0\n"
    _expect(after, RecordSyntaxError, len(after.split("\n")) - 1, "no 'deal' lines")
    match_text = _good().replace("\nhand 2 ", "\njoin Dan\nhand 2 ")
    _expect(match_text, RecordSyntaxError, _line_of(match_text, "join"), "money sessions only")
    quote = _replace_line(good, jline, 'join "Dan')
    _expect(quote, RecordSyntaxError, jline, "malformed quoted text")


def test_errors_are_the_package_error_types() -> None:
    assert issubclass(RecordSyntaxError, pc.InvalidActionError)
    assert issubclass(RecordReplayError, pc.IllegalActionError)
    for cls in (RecordError, RecordSyntaxError, RecordReplayError, RecordMismatchError):
        assert issubclass(cls, pc.PitchError) and issubclass(cls, ValueError)


def test_replay_checks_a_record_built_in_code() -> None:
    record = read_record(_good())
    record.hands[0].total = [0, 0, 0, 0]
    with pytest.raises(RecordMismatchError, match="hand 1"):
        replay(record)


# ------------------------------------------------------------------------------ replay text
def test_replay_text_for_a_match(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    match = play_match("auction", seed=2, hands=60, target=5)
    text = write_record(match)
    out = replay_text(text)
    assert out.startswith("auction (target=5): 4 players")
    assert out.count("\nhand ") == len(match.hands)
    assert out.count("  trick 6: ") == len(match.hands)
    # one result line per hand, naming seats and sides (not bare numbers that read as points)
    results = [line for line in out.splitlines() if ": made" in line or ": set" in line]
    assert len(results) == len(match.results)
    for line, result in zip(results, match.results, strict=True):
        assert line.strip().startswith(f"seat {result.pitcher} bid {result.bid} in ")
        assert "Jack not out" in line if result.jack is None else f"Jack seat {result.jack}" in line
        assert ", ".join(f"seat {s} {d:+d}" for s, d in enumerate(result.deltas)) in line
    assert f"winner: seat {match.winner} after {len(match.results)} hands" in out
    assert "final scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(match.scores)) \
        in out
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().out == out
    path.write_text(text.replace("variant auction", "variant nope"), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 2
    assert "line 3: unknown variant 'nope'" in capsys.readouterr().err


def test_replay_text_for_a_money_session() -> None:
    session = play_session(seed=8)
    out = replay_text(write_record(session))
    assert "Dan joins" in out and "Eve Lee joins" in out
    assert "Ann leaves and is paid " in out and "the session is settled" in out
    assert "\nsession settled\n" in out
    for word in ("scores: ", "stars: ", "payouts: ", "pot: $0.00"):
        assert word in out
    s = pc.MoneySession(pc.find_variant("money"), players=["A", "B", "C"], dealer=0)
    play_hand(s, random.Random(1))
    out = replay_text(write_record(s))
    assert "session in progress" in out and "ledger: " in out


# ------------------------------------------------------------------------------ properties
OPTION_STRATEGY = st.fixed_dictionaries({}, optional={
    "low_to": st.sampled_from(["capturer", "holder"]),
    "follow_rule": st.sampled_from(["trump_anytime", "strict_follow", "follow_trump_only"]),
    "game_tie": st.sampled_from(["no_point", "elder_hand", "pitcher"]),
    "deal_batch": st.sampled_from([1, 2, 3]),
    "target": st.sampled_from([None, 3, 7, 11]),
    "win_rule": st.sampled_from(["bidder_goes_out", "first_to_target_HLJG_order",
                                 "pitcher_counted_first", "higher_score"]),
    "win_requires_made_bid": st.booleans(),
    "pitcher_set_keeps_points": st.booleans(),
    "dealer_steal": st.sampled_from(["none", "equal_below_max", "equal_any_incl_pitched"]),
    "all_pass": st.sampled_from(["force_dealer_exact2", "force_dealer_atleast2", "redeal",
                                 "eldest_pitches_no_contract"]),
    "auction": st.sampled_from(["single_round", "continuous"]),
    "pass_is_final": st.booleans(),
    "min_bid": st.sampled_from([1, 2, 3, 4]),
    "moon": st.sampled_from(["none", "moon", "smudge", "smudge_wins"]),
    "moon_fail_points": st.sampled_from([4, 5]),
    "pitch_as_bid_4": st.booleans(),
    "first_dealer": st.sampled_from(["random", "cut"]),
    "stake_per_point": st.fractions(min_value=0, max_value=2, max_denominator=1000),
    "moon_payment": st.fractions(min_value=0, max_value=5, max_denominator=100),
})


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), options=OPTION_STRATEGY, seed=st.integers(0, 2**32),
       hands=st.integers(0, 8), cut=st.integers(0, 40), players=st.integers(2, 8),
       scores=st.booleans())
def test_random_matches_round_trip(variant: str, options: dict[str, Any], seed: int, hands: int,
                                   cut: int, players: int, scores: bool) -> None:
    rules = pc.find_variant(variant).replace(**options)
    low, high = rules.player_range
    players = min(max(players, low), high)
    nsides = 2 if rules.partnership_mode else players
    rng = random.Random(seed)
    start = [rng.randint(-5, 5) for _ in range(nsides)] if scores else None
    match = pc.Match(rules, players=players, dealer=None, seed=seed, scores=start)
    for k in range(hands):
        if match.winner is not None:
            break
        play_hand(match, rng, actions=cut if k == hands - 1 else None,
                  deal_stacked=k % 2 == 0)
    text = write_record(match)
    again = replay(read_record(text))
    assert write_record(again) == text
    assert_same_game(match, again)


#: Names the engine accepts (printable, no space at either end), many needing quotes.
NAMES = st.text(min_size=1, max_size=6).filter(lambda n: n.isprintable() and n == n.strip())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), names=st.lists(NAMES, min_size=2, max_size=8, unique=True),
       steps=st.lists(st.sampled_from(["hand", "hand", "join", "leave", "part"]), max_size=10),
       settle=st.booleans(),
       options=st.fixed_dictionaries({}, optional={
           "average_mode": st.sampled_from(["per_hand", "snapshot"]),
           "join_score": st.sampled_from(["zero", "table_average"]),
           "money": st.sampled_from(["per_point_vs_average", "per_point_flat"]),
           "stake_per_point": st.fractions(min_value=0, max_value=1, max_denominator=60),
           "moon_must_be_bid": st.booleans(),
       }))
def test_random_money_sessions_round_trip(seed: int, names: list[str], steps: list[str],
                                          settle: bool, options: dict[str, Any]) -> None:
    rules = pc.find_variant("money").replace(**options)
    rng = random.Random(seed)
    seated, extra = names[:max(2, len(names) // 2)], names[max(2, len(names) // 2):]
    s = pc.MoneySession(rules, players=seated, dealer=rng.randrange(len(seated)), seed=seed)
    for step in steps:
        if s.finished:
            break
        if s.in_hand:
            finish_hand(s, rng)
        if step == "hand":
            play_hand(s, rng)
        elif step == "part":
            play_hand(s, rng, actions=rng.randrange(30))
        elif step == "join" and extra and len(s.players) < 8:
            s.join(extra.pop())
        elif step == "leave":
            s.leave(rng.choice(s.players))
    if settle and not s.finished:
        if s.in_hand:
            finish_hand(s, rng)
        s.settle()
    text = write_record(s)
    again = replay(read_record(text))
    assert write_record(again) == text
    assert_same_game(s, again)


# ------------------------------------------------------------------------------ special hands
def _all_pass_match(all_pass: str) -> pc.Match:
    rules = pc.find_variant("auction").replace(all_pass=all_pass)
    match = pc.Match(rules, players=4, dealer=0, seed=None)
    hand = match.deal(cards=stacked(random.Random(1), 4))
    for _ in range(4):
        match.push("pass")
    while hand.seat_to_act is not None:
        match.push(hand.legal_actions()[0])
    return match


def test_thrown_in_hand_round_trips() -> None:
    match = _all_pass_match("redeal")
    assert match.results[0].thrown_in
    text, _ = round_trip(match)
    assert "\nresult thrown in\ntotal 0 0 0 0\n" in text
    assert read_record(text).hands[0].result == {"outcome": "thrown in"}
    assert "all passed: thrown in" in replay_text(text)


@pytest.mark.parametrize("variant", ["auction", "ten-point"])
def test_finding9_a_thrown_in_hand_is_public_by_its_bids_alone(variant: str) -> None:
    """Issue 31, finding 9: a hand everyone passed and threw in (all_pass="redeal") showed
    every seat's dealt cards in the public record, though none was played.  Public, it is
    an outcome line of its passes; the record replays to the same game (scores, dealers, the
    next hand's cards and play) in both rule families."""
    rules = pc.find_variant(variant).replace(all_pass="redeal")
    match = pc.Match(rules, players=rules.default_players, dealer=0, seed=31)
    thrown = match.deal()
    while thrown.phase == "auction":
        match.push("pass")
    assert thrown.result is not None and thrown.result.thrown_in
    rng = random.Random(31)
    played = match.deal()
    while played.seat_to_act is not None:
        match.push(rng.choice(played.legal_actions()))
    text = write_record(match, public=True)
    hand_1 = text.split("\nhand 1 ")[1].split("\nhand 2 ")[0]
    assert "\noutcome bids pass pass pass pass" in hand_1
    assert "deal " not in hand_1 and "\nresult thrown in\n" in hand_1
    for mask in thrown.dealt:  # no card dealt in it is anywhere in the record (but those
        for card in cards_of(mask):  # dealt again in the next hand)
            if not any(m >> card & 1 for m in played.dealt):
                assert f" {card_name(card)}" not in text, card_name(card)
    again = replay(read_record(text))
    assert again.results == match.results and again.scores == match.scores
    assert [h.dealer for h in again.hands] == [h.dealer for h in match.hands]
    # the next hand as a public record shows it (T4: the cards kept, the discards never)
    kept = [m & ~played.discarded(s) for s, m in enumerate(played.dealt)]
    assert list(again.hands[1].dealt) == kept
    assert again.hands[1].history == [(s, a) for s, a in played.history if a.kind != "discard"]
    assert write_record(again, public=True) == text
    assert "seed" not in text


def test_no_contract_hand_round_trips() -> None:
    match = _all_pass_match("eldest_pitches_no_contract")
    text, _ = round_trip(match)
    assert "bid 0, " in text


def test_dealer_takes_a_pitched_bid() -> None:
    rules = pc.find_variant("auction").replace(dealer_steal="equal_any_incl_pitched")
    match = pc.Match(rules, players=3, dealer=0)
    hand = match.deal(cards=["AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AD KD QD JD TD 9D"])
    match.push("pitch AH", 1)
    match.push("bid 4", 0)  # the dealer takes the pitched bid; seat 1 takes back its card
    match.push("play 9S", 0)
    text, _ = round_trip(match)
    assert "\n1 pitch AH\n0 bid 4\n0 play 9S\n" in text
    assert hand.pitcher == 0


# ------------------------------------------------------------------------------ the docs
def test_examples_in_the_docs_are_valid_records() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "notation.md").read_text("utf-8")
    blocks = re.findall(r"```text\n(pitchcards-record 2\n.*?)```", doc, re.S)
    assert len(blocks) == 2
    games = [replay(read_record(block)) for block in blocks]
    for block, game in zip(blocks, games, strict=True):
        assert write_record(game) == block
    match, session = games
    assert isinstance(match, pc.Match) and match.in_hand
    assert isinstance(session, pc.MoneySession) and session.finished
    broken = blocks[0].replace("deltas +4 +0", "deltas +1 +1")
    message = "line 31: hand 1: the replayed result differs from the record: deltas: "
    with pytest.raises(RecordMismatchError) as info:
        read_record(broken)
    assert str(info.value).startswith(message)
    assert str(info.value) in doc


# ------------------------------------------------------------------------------ fuzzing
_FUZZ_BASES = {
    "match": write_record(play_match("auction-partners", seed=1, hands=2, target=None)),
    "money": write_record(play_session(seed=2)),
}


@settings(max_examples=150, deadline=None)
@given(base=st.sampled_from(sorted(_FUZZ_BASES)),
       edits=st.lists(st.tuples(st.sampled_from(["drop", "dup", "swap", "token", "junk"]),
                                st.integers(0, 10**6), st.integers(0, 10**6)),
                      min_size=1, max_size=3),
       junk=st.text(max_size=8))
def test_damaged_records_fail_cleanly(base: str, edits: list[tuple[str, int, int]],
                                      junk: str) -> None:
    """Any damage gives a RecordError with a line number (or, rarely, still a valid record)."""
    tokens = _FUZZ_BASES[base].split()
    text = mutate_record(_FUZZ_BASES[base], [
        ("token", i, junk) if op == "junk" else
        (op, i, tokens[j % len(tokens)] if op == "token" else str(j)) for op, i, j in edits])
    lines = text.split("\n")
    try:
        record = read_record(text)
    except RecordError as err:
        assert err.line is not None and str(err).startswith(f"line {err.line}: ")
        assert 1 <= err.line <= len(lines)
    else:
        write_record(replay(record))

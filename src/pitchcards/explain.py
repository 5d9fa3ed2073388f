"""Words for players that every face shares: the rules page's sentence for each option's
value (:data:`OPTION_TEXT`, :func:`rules_summary`) and the sentence for each refused action
(:data:`ILLEGAL_TEXT`, :func:`illegal_text`).  Plain text, no terminal or browser markup: the
terminal game, the server's refusals and the browser table's new-table form all say the same.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .actions import Action
from .cards import DECK_SIZE, HIGH_JOKER, LOW_JOKER, SUIT_SYMBOLS, SUITS, card_symbol
from .deck import deck_model
from .errors import IllegalActionError
from .money import dollars_text
from .rules import MOON, RuleSet
from .views import View

__all__ = ["ILLEGAL_TEXT", "JOKER_WORDS", "OPTION_SECTIONS", "OPTION_TEXT", "action_words",
           "bid_word", "card_words", "extra_cards_text", "illegal_text", "option_text",
           "rules_summary", "shown_options", "trump_order_text"]

#: The jokers' names where words are used (T1): ☆ the low joker, ★ the high joker.
JOKER_WORDS = {LOW_JOKER: "low joker", HIGH_JOKER: "high joker"}


def bid_word(rules: RuleSet, value: int | str | None) -> str:
    """A bid's word under these rules: ``"3"``, ``"moon"`` or ``"smudge"`` (``"-"``: none).
    A bid of 5 is the moon only where there is one (``rules.moon_bid``; T8: in ten-point it
    is five points)."""
    if value is None:
        return "-"
    if value == "moon" or (value == rules.moon_bid and rules.moon_bid is not None):
        return "smudge" if rules.moon.startswith("smudge") else "moon"
    return str(value)


def card_words(card: int) -> str:
    """A card as shown: ``K♥``, or ``☆ low joker`` / ``★ high joker`` (T1)."""
    symbol = card_symbol(card)
    return f"{symbol} {JOKER_WORDS[card]}" if card in JOKER_WORDS else symbol


def action_words(rules: RuleSet, action: Action) -> str:
    """``pass``, ``bid 3``, ``bid moon``, ``pitch K♥``, ``K♥``, ``★ high joker``,
    ``discard K♥`` (T4), ``trump ♥`` (T5)."""
    if action.kind in ("play", "pitch", "discard"):
        assert action.card is not None
        card = card_words(action.card)
        return card if action.kind == "play" else f"{action.kind} {card}"
    if action.kind == "trump":
        assert action.suit is not None
        return f"trump {SUIT_SYMBOLS[action.suit]}"
    if action.kind == "pass":
        return "pass"
    return f"bid {bid_word(rules, action.bid)}"


#: A player-facing sentence for every value of every rules option (the options and their values
#: are ``RuleSet.OPTION_CHOICES`` and the True/False options; docs/rules.md §3 gives the meaning
#: of each).  ``""``: nothing to say for that value.  Fields filled from the rule set:
#: ``{players}``, ``{side}`` (player or team), ``{ladder}``, ``{forced}`` (the forced dealer's
#: lowest bid), ``{top}`` (the top bid), ``{moon}`` (moon or smudge), ``{moon_value}``,
#: ``{target}``, ``{stake}``.
OPTION_TEXT: dict[str, dict[Any, str]] = {
    # Players and the deal (B-R1, C3, C4).
    "partnership": {
        "off": "{players} players, each for themselves.",
        "2x2": "Four players in two partnerships: you and the player opposite (seats 0 & 2) "
               "against the other two. Points and scores are per team.",
        "3x2": "Six players in three partnerships: you and the player opposite (seats 0 & 3, "
               "1 & 4, 2 & 5) against two other teams. Points and scores are per team; only "
               "the bidder's team can go out.",
        "call": "Five players, each with their own score. Each hand the pitcher calls a card: "
                "whoever holds it is the pitcher's secret partner, known to the table when that "
                "card is played. The partners score together; the pitcher goes out first, "
                "otherwise the partner."},
    # Call-your-partner (CP3, CP4, CP6).
    "call_rule": {
        "not_own": "The pitcher calls a card they do not hold, before the first lead.",
        "alone_allowed": "The pitcher calls any card before the first lead; calling one's own "
                         "card is playing alone against four (nobody knows until it is "
                         "played)."},
    "called_not_dealt": {
        "alone": "If nobody was dealt the called card, the pitcher plays alone (shown when the "
                 "hand ends)."},
    "call_set": {
        "both": "Set, the pitcher and the partner both lose the bid.",
        "pitcher_only": "Set, only the pitcher loses the bid; the partner scores nothing."},
    "call_defenders": {
        "each": "The other three each score the points they win.",
        "side": "The other three play as a side: they pool their points, and each scores the "
                "side's total."},
    "allow_two_players": {True: "Two players may also play.", False: ""},
    "hand_size": {
        6: "Everyone gets 6 cards.",
        **{n: f"Everyone gets {n} cards; once trump is named, everyone in turn from the "
              f"dealer's left discards {n - 6} face down, keeping 6 (nobody else sees them)."
           for n in (7, 8, 9)}},
    "deal_batch": {1: "The cards are dealt one at a time.",
                   2: "The cards are dealt two at a time.",
                   3: "The cards are dealt three at a time."},
    # The deck (T1, T2).
    "deck": {52: "",
             53: "One joker (☆) is added to the 52 cards: it is always a trump.",
             54: "Two jokers are added to the 52 cards, the low joker ☆ and the high joker ★: "
                 "both are always trumps."},
    "off_jack": {True: "The off-jack (the other jack of trump's colour) is a trump, just below "
                       "the jack of trumps.",
                 False: ""},
    "first_dealer": {"random": "The first dealer is drawn at random; the deal passes left.",
                     "cut": "The first dealer is chosen by a cut; the deal passes left."},
    # The auction (A-R4, B-R4).
    "min_bid": {b: "Bids: {ladder}." for b in RuleSet.OPTION_CHOICES["min_bid"]},
    "auction": {
        "single_round": "One turn each from the dealer's left, the dealer last. Each bid must "
                        "be higher than the last.",
        "continuous": "The auction goes round and round from the dealer's left until nobody "
                      "bids higher. Each bid must be higher than the last."},
    "pass_is_final": {True: "A pass is final.",
                      False: "A player who passed may bid again on a later round."},
    "pitch_as_bid_4": {
        True: "Pitching: instead of bidding 4 you may put a card face up: a bid of 4, and that "
              "card is the opening lead.",
        False: "There is no pitching a card as a bid."},
    "all_pass": {
        "force_dealer_exact2": "If everyone else passes, the dealer must bid exactly {forced}.",
        "force_dealer_atleast2": "If everyone else passes, the dealer must bid at least "
                                 "{forced}.",
        "redeal": "If everyone passes, the hand is thrown in.",
        "eldest_pitches_no_contract": "If everyone passes, the player left of the dealer leads "
                                      "with no bid to make."},
    "dealer_steal": {
        "none": "The dealer may not steal the bid.",
        "equal_below_max": "The dealer may steal the bid by equalling it (any bid below "
                           "{top}).",
        "equal_any_incl_pitched": "The dealer may steal the bid by equalling it (any bid, "
                                  "{top} and a pitched 4 included)."},
    "moon": {
        "none": "{top} is the top bid{all_points}.",
        "moon": "Moon: a bid above 4 promising all 4 points and all 6 tricks; made, it scores "
                "{moon_value}.",
        "smudge": "Smudge: a bid above 4 promising all 4 points and all 6 tricks; made, it "
                  "scores {moon_value}.",
        "smudge_wins": "Smudge: a bid above 4 promising all 4 points and all 6 tricks; made, it "
                       "wins the game outright."},
    "moon_fail_points": {4: "A failed {moon} loses 4 points.",
                         5: "A failed {moon} loses 5 points."},
    "moon_must_be_bid": {
        True: "Only a bid {moon} counts as a {moon}.",
        False: "Taking all 4 points and all 6 tricks on any bid counts as a {moon} too."},
    # Play (C5, C6, §7.8).
    "trump_selection": {
        "first_lead": "The high bidder (the pitcher) leads; that card's suit is trump{joker}.",
        "declare_then_lead_any": "After the auction the high bidder (the pitcher) names trump, "
                                 "then leads any card.",
        "declare_then_lead_trump": "After the auction the high bidder (the pitcher) names "
                                   "trump, then must lead a trump if holding one."},
    "follow_rule": {
        "trump_anytime": "Holding the suit led, you must follow it or play a trump; without "
                         "it, play any card.",
        "strict_follow": "Holding the suit led, you must follow it; without it, play any card.",
        "follow_trump_only": "When trump is led you must play a trump if you have one; when "
                             "another suit is led you may play any card."},
    # Points (C8, C10, B-R6, B-R7).
    "high_to": {"holder": "High: the highest trump in play, to whoever held it."},
    "low_to": {"capturer": "Low: the lowest trump in play, to whoever captures it.",
               "holder": "Low: the lowest trump in play, to whoever held it."},
    "jack_not_dealt": {
        "no_point": "Jack: the J of trumps, to whoever captures it; nobody scores it if it was "
                    "not dealt."},
    "game_tie": {
        "no_point": "Game: the most game count in the tricks taken (10=10, A=4, K=3, Q=2, J=1); "
                    "a tie gives nobody the point.",
        "elder_hand": "Game: the most game count in the tricks taken (10=10, A=4, K=3, Q=2, "
                      "J=1); a tie goes to the tied {side} first from the dealer's left.",
        "pitcher": "Game: the most game count in the tricks taken (10=10, A=4, K=3, Q=2, J=1); "
                   "a tie goes to the pitcher if tied, else to nobody."},
    "extra_points": {
        "none": "",
        "off_jack_jokers": "Also a point each, to whoever captures it: {extras}. "
                           "{total} points a hand.",
        "off_jack_jokers_three": "Also, to whoever captures it: {extras} (1 point each) and "
                                 "the three of trumps (3 points). {total} points a hand."},
    "pitcher_set_keeps_points": {
        False: "The pitcher must win at least the bid, or is set back by the bid and scores "
               "none of the points won; the others always score what they win.",
        True: "The pitcher must win at least the bid, or is set back by the bid but keeps the "
              "points won; the others always score what they win."},
    # End of the game (B-R8).
    "win_rule": {
        "bidder_goes_out": "Only the pitcher can go out: reaching {target} on a hand they bid "
                           "wins.",
        "first_to_target_HLJG_order": "The first to reach {target} wins, counting High, Low, "
                                      "Jack and Game in that order.",
        "pitcher_counted_first": "The pitcher's points are counted first; otherwise the first "
                                 "to reach {target}, counting High, Low, Jack, Game in order, "
                                 "wins.",
        "higher_score": "The higher score at or past {target} wins; a tie goes to the pitcher "
                        "who made the bid."},
    "win_requires_made_bid": {True: "The pitcher must make the bid to go out.",
                              False: "The pitcher may go out even when set."},
    # Money (A-R7, A-R8).
    "money": {
        "none": "",
        "per_point_vs_average": "No target: after every hand each player wins or pays "
                                "{stake} per point against the average.",
        "per_point_flat": "No target: after every hand every two players settle {stake} per "
                          "point between them."},
    "average_mode": {
        "per_hand": "The money is reckoned hand by hand.",
        "snapshot": "The money is reckoned from the scores against the table average when a "
                    "player leaves or the session ends."},
    "join_leave": {"between_hands": "Players may join or leave between hands.",
                   "never": "Nobody joins or leaves during the session."},
    "join_score": {"zero": "A player who joins starts at 0 points.",
                   "table_average": "A player who joins starts at the table's average score."},
}


def shown_options(rules: RuleSet, option: str) -> bool:
    """Whether an option matters under the others (a pass in a single round is always final)."""
    moon = rules.moon != "none"
    money = rules.money != "none"
    return {
        "pass_is_final": rules.auction == "continuous",
        "moon_fail_points": moon,
        "moon_must_be_bid": (moon or not rules.moon_must_be_bid) and rules.points_total == 4,
        "extra_points": rules.off_jack or rules.deck > DECK_SIZE,
        "deck": rules.deck > DECK_SIZE,
        "off_jack": rules.off_jack,
        "win_rule": not money and rules.target is not None,
        "win_requires_made_bid": (not money and rules.target is not None and rules.win_rule in
                                  ("bidder_goes_out", "pitcher_counted_first")),
        "average_mode": money,
        "join_leave": money,
        "join_score": (money and rules.average_mode == "snapshot"
                       and rules.join_leave == "between_hands"),
        **dict.fromkeys(_CALL_OPTIONS, rules.calls_partner),
    }.get(option, True)


#: Call-your-partner's options (CP3, CP4, CP6): said only where the pitcher calls a partner.
_CALL_OPTIONS = ("call_rule", "called_not_dealt", "call_set", "call_defenders")


#: The rules page's sections and the options each explains, in order.
OPTION_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("", ("partnership", "allow_two_players", "deck", "off_jack", "hand_size", "deal_batch",
          "first_dealer")),
    ("AUCTION", ("min_bid", "auction", "pass_is_final", "pitch_as_bid_4", "all_pass",
                 "dealer_steal", "moon", "moon_fail_points", "moon_must_be_bid")),
    ("PARTNER", _CALL_OPTIONS),
    ("PLAY", ("trump_selection", "follow_rule")),
    ("POINTS", ("high_to", "low_to", "jack_not_dealt", "game_tie", "extra_points",
                "pitcher_set_keeps_points")),
    ("GOAL", ("win_rule", "win_requires_made_bid")),
    ("MONEY", ("money", "average_mode", "join_leave", "join_score")),
)
#: What the rules page says beyond the options: facts of every variant (C1, C7).
_FIXED = {
    "": "Ranks: A K Q J 10 9 ... 2.",
    "PLAY": "Highest trump wins, else the highest card of the suit led.",
}


def option_text(rules: RuleSet, option: str, players: int = 4) -> str:
    """The rules page's sentence for one option's value under ``rules`` ("" if none)."""
    moon = bid_word(rules, MOON)
    fields = {
        "players": players, "side": "team" if rules.partnership_mode else "player",
        "ladder": ", ".join(bid_word(rules, v) for v in rules.bid_values),
        "forced": max(2, rules.min_bid), "top": bid_word(rules, rules.max_bid),
        "moon": moon, "moon_value": rules.moon_value, "target": rules.target,
        "stake": _dollars(rules.stake_per_point),
        "all_points": (f" (all {rules.points_total} points: shooting the moon)"
                       if rules.points_total > 4 else ""),
        "joker": ("; a joker may not lead first (it names no suit)"
                  if rules.deck > DECK_SIZE else ""),
        "extras": extra_cards_text(rules), "total": rules.points_total,
    }
    return OPTION_TEXT[option][getattr(rules, option)].format(**fields)


def extra_cards_text(rules: RuleSet) -> str:
    """T7: the cards worth a point besides High, Low, Jack and Game: "the off-jack, the high
    joker ★ and the low joker ☆"."""
    names = ["the off-jack"] if rules.off_jack else []
    names += [f"the {JOKER_WORDS[j]} {card_symbol(j)}"
              for j in reversed(deck_model(rules).jokers)]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def trump_order_text(rules: RuleSet) -> str:
    """T3: the trumps from high to low in words, e.g. "A K Q J, the off-jack, ★ high joker,
    ☆ low joker, 10 9 … 2" (the four-point game: the ranks)."""
    parts = ["A K Q J"]
    if rules.off_jack:
        parts.append("the off-jack")
    parts += [card_words(j) for j in reversed(deck_model(rules).jokers)]
    parts.append("10 9 … 2")
    return ", ".join(parts)


def _ten_point_facts(rules: RuleSet) -> str:
    """What the rules page says of the ten-point family's cards beyond the options (T3, T7)."""
    said = f"Trumps, high to low: {trump_order_text(rules)}."
    if rules.deck > DECK_SIZE:
        said += " Jokers count 0 for Game."
    if rules.off_jack:
        said += " The off-jack counts 1 for Game, as a jack."
    return said


def _dollars(amount: Fraction) -> str:
    return dollars_text(amount).lstrip("+")


def rules_summary(rules: RuleSet, players: int) -> str:
    """The rules of this variant with its options, in a screenful: a sentence per option value
    that matters (:data:`OPTION_TEXT`)."""
    lines = [f"Rules: {rules.name}" + (" (custom options)" if rules.changes() else "")]
    for heading, options in OPTION_SECTIONS:
        said = [option_text(rules, o, players) for o in options if shown_options(rules, o)]
        said = [t for t in said if t]
        if heading == "GOAL" and rules.money == "none" and rules.target is None:
            said = ["No target: play as long as you like."]
        elif heading == "GOAL" and said:
            said.insert(0, f"First to {rules.target} points.")
        if heading == "MONEY" and said:
            if rules.moon != "none" or not rules.moon_must_be_bid:  # A-R6.4, A-R7.2
                said.append(f"A made {bid_word(rules, MOON)} earns a ★ and "
                            f"{_dollars(rules.moon_payment)} from each player"
                            + ("; a failed bid pays each." if rules.moon != "none" else "."))
            said.append("Press s between hands to settle up.")
        if heading in _FIXED:
            said.append(_FIXED[heading])
        if heading == "PLAY" and rules.is_ten_point:
            said.append(_ten_point_facts(rules))
        if said:
            lines += ["", (f"{heading}  " if heading else "") + " ".join(said)]
    return "\n".join(lines)


#: What a player is told when the engine refuses an action, for every
#: ``IllegalActionError.reason`` (errors.REASONS).  Fields from the player's view (empty or
#: generic without one): ``{led}`` (the led suit's symbol), ``{a_trump}`` ("a trump (♠)"),
#: ``{may}`` (" You may: pass, bid 3."), ``{highest}`` (": the highest bid now is 4").
ILLEGAL_TEXT: dict[str, str] = {
    "not_your_turn": "It is not your turn.",
    "not_your_seat": "That seat is not yours to play.",
    "bad_seq": "That is not an event of this table.",
    "no_such_seat": "There is no such seat at this table.",
    "card_not_held": "You do not hold that card.",
    "must_follow_suit": "You must follow {led}.",  # strict_follow; trump_anytime: see below
    "must_follow_trump": "Trump was led: you must play {a_trump}.",
    "bid_too_low": "Bid higher than that.{may}",
    "bid_too_high": "That bid is too high{highest}.",
    "must_bid": "Everyone else passed: the dealer must bid.{may}",
    "pitch_not_allowed": "You may not pitch a card now.{may}",
    "auction_over": "The auction is over: play a card.",
    "auction_in_progress": "The auction is still on: bid or pass first.",
    "hand_over": "The hand is over.",
    "game_over": "The game is over.",
    "no_hand": "No hand is being played: deal first.",
    "hand_in_progress": "Not during a hand: wait until it is over.",
    "nothing_to_undo": "There is nothing to undo.",
    "undo_blocked": "Players joined or left since then: that cannot be undone.",
    "bad_setup": "The table cannot be set up that way.",
    "bad_deal": "That is not a deal of this table.",
    "join_leave_not_allowed": "These rules do not let players join or leave.",
    "name_taken": "That name is already taken at this table.",
    "not_seated": "That player is not at the table.",
    "table_full": "The table is full.",
    "wrong_dealer": "It is not that player's deal: the deal passes left.",
    "bad_outcome": "No hand can end that way under these rules.",
    # The ten-point family (T4–T6).
    "must_name_trump": "The pitcher must name trump first: choose a suit.",
    "must_discard": "Discard first: throw {left} face down, down to 6.",
    "joker_cannot_open": "A joker cannot open the hand: it names no suit. Lead a card of the "
                         "suit you want as trump.",
    "must_lead_trump": "The first lead must be a trump while you hold one: lead {a_trump}.",
    # Call-your-partner (CP3).
    "must_call": "The pitcher must call a card first: its holder is the partner.",
    "bad_call": "Call a card you do not hold: its holder is your partner.",
    "called_card": "Keep the called card: it may not be discarded.",
}
def _led_suit(view: View) -> int | None:
    """The suit led to the trick now, for following (C6; a joker or the off-jack leads
    trump: T2, T3), or None before a lead."""
    if not view.trick:
        return None
    card = view.trick[0][1]
    if view.trump is None:
        return card // 13
    return deck_model(view.rules).suit_of[SUITS.index(view.trump)][card]


def _discards_left(view: View) -> str:
    """T4: "2 more cards" for a seat discarding now (its own discards are in its view)."""
    if not any(a.kind == "discard" for a in view.legal_actions):
        return "the cards you must"
    left = view.rules.hand_size - 6 - view.discarded_mask.bit_count()
    return f"{left} more card{'s' if left != 1 else ''}"


#: C6 under trump_anytime: holding the led suit, a trump may be played instead.
_FOLLOW_OR_TRUMP = "You must follow {led} or play {a_trump}."


def illegal_text(error: IllegalActionError, view: View | None = None) -> str:
    """The sentence for a refused action, from the error's ``reason`` and the rules in force
    (``view``: the player's view when the action was tried)."""
    text = ILLEGAL_TEXT[error.reason]
    if view is None:
        return text.format(led="the suit led", a_trump="a trump", may="", highest="",
                           left="the cards you must")
    led_suit = _led_suit(view)
    trump_led = led_suit is not None and view.trump is not None \
        and led_suit == SUITS.index(view.trump)
    if error.reason == "must_follow_suit" and view.rules.follow_rule == "trump_anytime" \
            and not trump_led:  # "follow ♦ or play a trump (♦)" says one thing twice
        text = _FOLLOW_OR_TRUMP
    led = SUIT_SYMBOLS[led_suit] if led_suit is not None else "the suit led"
    left = _discards_left(view)
    a_trump = (f"a trump ({SUIT_SYMBOLS[SUITS.index(view.trump)]})" if view.trump is not None
               else "a trump")
    bids = [a for a in view.legal_actions if a.kind in ("bid", "pass")]
    choices = ", ".join(action_words(view.rules, a) for a in bids)
    if any(a.kind == "pitch" for a in view.legal_actions):
        choices += " or pitch a card" if choices else "pitch a card"
    top = max((a.bid for a in bids if a.bid is not None), default=None)
    return text.format(led=led, a_trump=a_trump, left=left,
                       may=f" You may: {choices}." if choices else "",
                       highest=f": the highest bid now is {bid_word(view.rules, top)}"
                       if top is not None else "")

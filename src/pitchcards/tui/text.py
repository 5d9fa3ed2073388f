"""Text for the screen, built only from the human's View and public results (no Textual here).

Cards show their suit symbol, hearts and diamonds in red.  Nothing here reads another seat's
hidden cards: the table shows how many cards each seat holds, never which.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.text import Text

from ..actions import Action
from ..cards import SUIT_SYMBOLS, SUITS, card_symbol, cards_of, parse_card, trick_winner
from ..errors import IllegalActionError
from ..money import MoneySession
from ..rules import MOON, RuleSet
from ..scoring import HandResult
from ..views import View
from .controller import money_text
from .game import TableGame
from .seats import LABEL, MIN_HEIGHT, MIN_WIDTH, Canvas, places
from .words import HUMAN, count, sentence, verb

__all__ = ["ILLEGAL_TEXT", "OPTION_TEXT", "action_text", "auction_text", "card_style",
           "card_text", "hand_log", "illegal_text", "option_text", "outcome_text", "result_text",
           "rules_summary", "score_text", "table_text", "trick_line"]

RED = "bold red1"
BLACK = "bold bright_white"


def card_style(card: int) -> str:
    return RED if card // 13 in (1, 2) else BLACK


def card_text(card: int, dim: bool = False) -> Text:
    return Text(card_symbol(card), style="dim" if dim else card_style(card))


def suit_text(suit: str | None) -> Text:
    if suit is None:
        return Text("not yet", style="dim")
    i = SUITS.index(suit)
    return Text(SUIT_SYMBOLS[i], style=RED if i in (1, 2) else BLACK)


def bid_word(rules: RuleSet, value: int | str | None) -> str:
    if value is None:
        return "-"
    if value in (MOON, "moon"):
        return "smudge" if rules.moon.startswith("smudge") else "moon"
    return str(value)


def action_text(rules: RuleSet, action: Action) -> Text:
    """``pass``, ``bid 3``, ``bid moon``, ``pitch K♥``, ``K♥``."""
    if action.kind == "play":
        assert action.card is not None
        return card_text(action.card)
    if action.kind == "pitch":
        assert action.card is not None
        return Text.assemble("pitch ", card_text(action.card))
    if action.kind == "pass":
        return Text("pass", style="dim")
    return Text(f"bid {bid_word(rules, action.bid)}", style="bold")


def _last_bids(view: View) -> dict[int, Action]:
    last: dict[int, Action] = {}
    for seat, action in view.auction:
        last[seat] = action
    return last


def table_text(ctl: TableGame, view: View, width: int = MIN_WIDTH,
               height: int = MIN_HEIGHT) -> Text:
    """The table seen from your chair (:mod:`.seats`): each seat's name, level, bid or
    contract and tricks won, and the card it played in front of it; in the centre, trump and
    the trick (or the high bid in the auction)."""
    canvas = Canvas(max(width, MIN_WIDTH), max(height, MIN_HEIGHT))
    bids = _last_bids(view)
    trick = dict(view.trick)
    showing_last = not view.trick and bool(view.tricks) and view.phase != "auction"
    winner_now: int | None = None
    if showing_last:
        leader, cards, winner_now = view.tricks[-1]
        trick = {(leader + i) % view.players: c for i, c in enumerate(cards)}
    elif view.trick and view.trump is not None:
        winner_now = _winning(view)
    if view.phase == "auction" and view.pitched_card is not None and view.pitcher is not None:
        trick = {view.pitcher: view.pitched_card}
    me = view.seat if view.seat is not None else 0
    spots = places(view.players, canvas.width, canvas.height)
    for k, place in enumerate(spots):
        seat = (me + k) % view.players
        canvas.put(place.row, place.col, _seat_line(ctl, view, seat, me), LABEL)
        canvas.put(place.row + 1, place.col, _seat_detail(ctl, view, seat, bids), LABEL)
        card = trick.get(seat)
        if card is not None:
            shown = card_text(card, dim=showing_last and seat != winner_now)
            if seat == winner_now:
                shown.append(" ✓" if showing_last else " ←",
                             style="green" if showing_last else "cyan")
            canvas.put(place.card_row, place.card_col, shown)
    # a row below the side seats' labels, above the bottom seats' cards
    canvas.put_centred(canvas.height // 2 + 1,
                       _centre_line(ctl, view, showing_last, winner_now))
    return canvas.text()


def _seat_line(ctl: TableGame, view: View, seat: int, me: int) -> Text:
    """"▶ Ann D": the seat to act marked, the name, D for the dealer, your partner said."""
    to_act = seat == view.seat_to_act
    line = Text("▶" if to_act else " ", style="bold yellow")
    style = "bold yellow" if to_act else ("bold" if seat == me else "")
    line.append(ctl.name(seat), style=style)
    if seat == view.dealer:
        line.append(" D", style="dim")
    if view.rules.partnership_mode and seat != me and seat % 2 == me % 2:
        line.append(" partner", style="cyan")
    return line


def _seat_detail(ctl: TableGame, view: View, seat: int, bids: dict[int, Action]) -> Text:
    """The second line: the bot's level (whole), its bid (the contract ★ once it is the
    pitcher's) and the tricks it has won."""
    out = Text(" ")
    if seat != view.seat:
        out.append(ctl.level(seat) + " ", style="dim")
    if view.pitcher == seat and view.contract is not None:
        out.append(f"★{bid_word(view.rules, view.contract)}", style="bold green")
    elif view.phase == "auction" and seat in bids:
        out.append_text(action_text(view.rules, bids[seat]))
    won = view.tricks_won[seat]
    if won:
        out.append(f" {won}✓", style="green")
    return out


def _centre_line(ctl: TableGame, view: View, showing_last: bool,
                 winner_now: int | None) -> Text:
    """Trump and where the hand is: "trump ♠ · trick 2", or the high bid in the auction."""
    rules = view.rules
    out = Text()
    if view.phase == "auction":
        if view.high_bid is not None and view.high_bidder is not None:
            out.append(f"high {bid_word(rules, view.high_bid)} "
                       f"{ctl.name(view.high_bidder)}", style="bold")
        else:
            out.append("no bid yet", style="dim")
        return out
    out.append("trump ")
    out.append_text(suit_text(view.trump))
    if view.phase == "play":
        if showing_last and winner_now is not None:
            out.append(f" {ctl.name(winner_now)} ✓", style="green")
        else:
            out.append(f" trick {min(len(view.tricks) + 1, 6)}")
    return out


def _winning(view: View) -> int | None:
    """Who is winning the current trick (public: trump, led suit and the cards played; C7)."""
    if not view.trick or view.trump is None:
        return None
    return view.trick[trick_winner([c for _, c in view.trick], SUITS.index(view.trump))][0]


def _pad(text: Text, width: int) -> Text:
    text = text.copy()
    text.truncate(width, pad=True)
    return text


def score_text(ctl: TableGame, view: View | None) -> Text:
    """The score sheet: per side (or player) the score and the last change; money: stars and
    the ledger too.  The hand-by-hand history is :func:`history_text`."""
    out = Text()
    results = ctl.results
    game = ctl.session
    if ctl.money:
        assert isinstance(game, MoneySession)
        ledger = game.ledger  # the column heads are the panel's title (app.refresh_screen)
        for name in game.players:
            style = "bold" if name == HUMAN else ""
            out.append(f"{name:<12}{game.scores[name]:>4}{game.stars[name]:>3}", style=style)
            out.append(f"{money_text(ledger[name]):>8}\n", style=_sign_style(ledger[name]))
        for name, paid in game.payouts.items():
            if name not in game.players:
                out.append(f"{name:<12} left {money_text(paid):>8}\n", style="dim")
    else:
        scores = ctl.side_scores()  # "Score to N" is the panel's title
        for side in range(ctl.sides):
            label = ctl.side_name(side)
            style = "bold" if HUMAN in label else ""
            out.append(f"{label[:15]:<15}{scores[side]:>4}", style=style)
            if results:
                d = results[-1].deltas[side]
                out.append(f" {d:+d}", style=_sign_style(d))
            out.append("\n")
    out.rstrip()
    return out


def _sign_style(amount: int | Fraction) -> str:
    return "green" if amount > 0 else "red" if amount < 0 else "dim"


def auction_text(ctl: TableGame, view: View, lines: int | None = None,
                 width: int = 27, news: list[str] | None = None) -> Text:
    """The auction so far, several bids a line ("Ann pass  Bob 2  Cy 3"), after this hand's
    news (joins, leaves); trimmed to the last ``lines`` lines (None: all of them)."""
    out_lines: list[Text] = [Text(item, style="italic") for item in news or []]
    line = Text()
    for seat, action in view.auction:
        # "Ann 2", "Bob pass", "Cy moon", "Dee pitch K♥": the panel is titled Auction
        entry = Text(f"{ctl.name(seat)} ")
        shown = action_text(view.rules, action)
        entry.append_text(Text(shown.plain[4:], style="bold") if action.kind == "bid" else shown)
        if line.plain and len(line.plain) + 2 + len(entry.plain) > width:
            out_lines.append(line)
            line = Text()
        if line.plain:
            line.append("  ")
        line.append_text(entry)
    if line.plain:
        out_lines.append(line)
    if not view.auction:
        first = ctl.name((view.dealer + 1) % view.players)
        out_lines.append(Text(sentence(first, "bid", "first"), style="dim"))
    if lines is not None and len(out_lines) > lines:
        hidden = len(out_lines) - lines + 1
        out_lines = [Text(f"… {count(hidden, 'earlier line')}", style="dim"),
                     *out_lines[-(lines - 1):]] if lines > 1 else out_lines[-1:]
    return Text("\n").join(out_lines)


def outcome_text(ctl: TableGame, result: HandResult) -> Text:
    """"You bid 2 in ♣ and were set." / "Ann bid 3 in ♠ and made it." (one place, for "you"
    and for others: :mod:`.words`)."""
    out = Text()
    if result.thrown_in or result.pitcher is None:
        out.append("Everyone passed: the hand is thrown in.", style="bold")
        return out
    who = ctl.name(result.pitcher)
    out.append(sentence(who, "bid (past)", f"{bid_word(ctl.rules, result.bid)} in "),
               style="bold")
    out.append_text(suit_text(result.trump))
    if result.made:
        out.append(" and made it", style="bold green")
    else:
        out.append(f" and {verb(who, 'be (past)')} set", style="bold red")
    if result.moon:
        out.append(" — shot the moon! ★", style="bold yellow")
    out.append(".")
    return out


def result_text(ctl: TableGame, result: HandResult) -> Text:
    """The hand's result, compact enough for eight players without scrolling: the outcome,
    who took High, Low, Jack and Game (two a line), then one row per side with the change
    and the new score (money: stars and money too)."""
    out = outcome_text(ctl, result)
    out.append("\n")
    if not (result.thrown_in or result.pitcher is None):
        cards = (result.high_card, result.low_card, result.jack_card, None)
        cells = []
        for label, side, card in zip(("High", "Low", "Jack", "Game"),
                                     (result.high, result.low, result.jack, result.game),
                                     cards, strict=True):
            cell = Text(f"  {label:<5}")
            cell.append_text(_pad(card_text(parse_card(card)), 4) if card else Text(" " * 4))
            if side is None:
                cell.append("nobody" if label != "Jack" or card else "not dealt", style="dim")
            else:
                name = ctl.side_name(side)
                cell.append(name, style="bold" if HUMAN in name else "")
            cells.append(cell)
        out.append_text(_pad(cells[0], 34))
        out.append_text(cells[1])
        out.append("\n")
        out.append_text(_pad(cells[2], 34))
        out.append_text(cells[3])
        counts = " · ".join(f"{ctl.side_name(side)} {c}"
                            for side, c in enumerate(result.game_counts))
        out.append(f"\n  Game count: {counts}\n", style="dim")
    out.append("\n")
    out.append_text(_sides_table(ctl, result))
    return out


def _sides_table(ctl: TableGame, result: HandResult) -> Text:
    """One row per side: the hand's change and the score after it (money: ★ and $)."""
    game = ctl.session
    out = Text()
    if ctl.money:
        assert isinstance(game, MoneySession)
        out.append(f"  {'':<12}{'change':>7}{'pts':>5}{'★':>3}{'$':>9}\n", style="bold")
        ledger = game.ledger
        for seat, name in enumerate(ctl.seating):
            if name not in game.players:
                continue
            d = result.deltas[seat] if seat < len(result.deltas) else 0
            out.append(f"  {name:<12}", style="bold" if name == HUMAN else "")
            out.append(f"{d:>+7d}", style=_sign_style(d))
            out.append(f"{game.scores[name]:>5}{game.stars[name]:>3}")
            out.append(f"{money_text(ledger[name]):>9}\n", style=_sign_style(ledger[name]))
    else:
        scores = ctl.side_scores()
        out.append(f"  {'':<16}{'change':>7}{'score':>7}\n", style="bold")
        for side, d in enumerate(result.deltas):
            name = ctl.side_name(side)
            out.append(f"  {name[:16]:<16}", style="bold" if HUMAN in name else "")
            out.append(f"{d:>+7d}", style=_sign_style(d))
            out.append(f"{scores[side]:>7}\n")
    out.rstrip()
    return out


def trick_line(ctl: TableGame, leader: int, cards: list[int] | tuple[int, ...],
               winner: int | None, players: int) -> Text:
    """"Ann K♥  Bob 2♥  You A♥ → You": a trick in play order, and who took it."""
    out = Text()
    for k, c in enumerate(cards):
        out.append(f"{ctl.name((leader + k) % players)} ")
        out.append_text(card_text(c))
        out.append("  ")
    if winner is not None:
        out.append(f"→ {ctl.name(winner)}", style="green")
    return out


def hand_log(ctl: TableGame, view: View, news: list[str] | None = None) -> Text:
    """The hand so far from your seat: the table's news (joins and leaves), your cards, the
    auction, every trick."""
    out = Text()
    if news:
        out.append("Table news\n", style="bold")
        for item in news:
            out.append(f"  {item}\n")
        out.append("\n")
    out.append(f"Hand {ctl.hand_number} — {ctl.name(view.dealer)} dealt\n", style="bold")
    out.append("Your cards were: ")
    for c in cards_of(view.dealt_mask):
        out.append_text(card_text(c))
        out.append(" ")
    out.append("\n\nAuction\n", style="bold")
    for seat, action in view.auction:
        out.append(f"  {ctl.name(seat)}: ")
        out.append_text(action_text(view.rules, action))
        out.append("\n")
    if view.tricks or view.trick:
        out.append("\nTricks\n", style="bold")
    for i, (leader, cards, winner) in enumerate(view.tricks, 1):
        out.append(f"  {i}. ")
        out.append_text(trick_line(ctl, leader, cards, winner, view.players))
        out.append("\n")
    if view.trick:
        out.append(f"  {len(view.tricks) + 1}. ")
        out.append_text(trick_line(ctl, view.trick[0][0], [c for _, c in view.trick], None,
                                   view.players))
        out.append("\n")
    if view.result is not None:
        out.append("\n")
        out.append_text(result_text(ctl, view.result))
    return out


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
               "against the other two. Points and scores are per team."},
    "allow_two_players": {True: "Two players may also play.", False: ""},
    "deal_batch": {1: "Everyone gets 6 cards, dealt one at a time.",
                   2: "Everyone gets 6 cards, dealt two at a time.",
                   3: "Everyone gets 6 cards, dealt three at a time."},
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
        "none": "4 is the top bid.",
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
        "first_lead": "The high bidder (the pitcher) leads; that card's suit is trump."},
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


def _shown(rules: RuleSet, option: str) -> bool:
    """Whether an option matters under the others (a pass in a single round is always final)."""
    moon = rules.moon != "none"
    money = rules.money != "none"
    return {
        "pass_is_final": rules.auction == "continuous",
        "moon_fail_points": moon,
        "moon_must_be_bid": moon or not rules.moon_must_be_bid,
        "win_rule": not money and rules.target is not None,
        "win_requires_made_bid": (not money and rules.target is not None and rules.win_rule in
                                  ("bidder_goes_out", "pitcher_counted_first")),
        "average_mode": money,
        "join_leave": money,
        "join_score": (money and rules.average_mode == "snapshot"
                       and rules.join_leave == "between_hands"),
    }.get(option, True)


_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("", ("partnership", "allow_two_players", "deal_batch", "first_dealer")),
    ("AUCTION", ("min_bid", "auction", "pass_is_final", "pitch_as_bid_4", "all_pass",
                 "dealer_steal", "moon", "moon_fail_points", "moon_must_be_bid")),
    ("PLAY", ("trump_selection", "follow_rule")),
    ("POINTS", ("high_to", "low_to", "jack_not_dealt", "game_tie", "pitcher_set_keeps_points")),
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
    }
    return OPTION_TEXT[option][getattr(rules, option)].format(**fields)


def _dollars(amount: Fraction) -> str:
    return money_text(amount).lstrip("+")


def rules_summary(rules: RuleSet, players: int) -> str:
    """The rules of this variant with its options, in a screenful: a sentence per option value
    that matters (:data:`OPTION_TEXT`)."""
    lines = [f"Rules: {rules.name}" + (" (custom options)" if rules.changes() else "")]
    for heading, options in _SECTIONS:
        said = [option_text(rules, o, players) for o in options if _shown(rules, o)]
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
}
#: C6 under trump_anytime: holding the led suit, a trump may be played instead.
_FOLLOW_OR_TRUMP = "You must follow {led} or play {a_trump}."


def illegal_text(error: IllegalActionError, view: View | None = None) -> str:
    """The sentence for a refused action, from the error's ``reason`` and the rules in force
    (``view``: the player's view when the action was tried)."""
    text = ILLEGAL_TEXT[error.reason]
    if view is None:
        return text.format(led="the suit led", a_trump="a trump", may="", highest="")
    trick = view.trick
    trump_led = bool(trick) and view.trump is not None \
        and trick[0][1] // 13 == SUITS.index(view.trump)
    if error.reason == "must_follow_suit" and view.rules.follow_rule == "trump_anytime" \
            and not trump_led:  # "follow ♦ or play a trump (♦)" says one thing twice
        text = _FOLLOW_OR_TRUMP
    led = SUIT_SYMBOLS[trick[0][1] // 13] if trick else "the suit led"
    a_trump = (f"a trump ({SUIT_SYMBOLS[SUITS.index(view.trump)]})" if view.trump is not None
               else "a trump")
    bids = [a for a in view.legal_actions if a.kind in ("bid", "pass")]
    choices = ", ".join(str(action_text(view.rules, a)) for a in bids)
    if any(a.kind == "pitch" for a in view.legal_actions):
        choices += " or pitch a card" if choices else "pitch a card"
    top = max((a.bid for a in bids if a.bid is not None), default=None)
    return text.format(led=led, a_trump=a_trump, may=f" You may: {choices}." if choices else "",
                       highest=f": the highest bid now is {bid_word(view.rules, top)}"
                       if top is not None else "")

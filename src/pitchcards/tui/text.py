"""Text for the screen, built only from the human's View and public results (no Textual here).

Cards show their suit symbol, hearts and diamonds in red.  Nothing here reads another seat's
hidden cards: the table shows how many cards each seat holds, never which.
"""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

from ..actions import Action
from ..cards import SUIT_SYMBOLS, SUITS, card_symbol
from ..rules import MOON, RuleSet
from ..scoring import HandResult
from ..views import View
from .controller import GameController, money_text

__all__ = ["action_text", "card_style", "card_text", "hand_log", "result_text", "rules_summary",
           "score_text", "table_text"]

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


def table_text(ctl: GameController, view: View) -> Text:
    """The table: each seat with its bid, cards left, tricks won and card in this trick."""
    rules = view.rules
    out = Text()
    out.append(f"{'':2}{'Seat':<12}{'Bid':<9}{'Held':>4}{'Won':>4}  Trick\n", style="bold")
    bids = _last_bids(view)
    trick = dict(view.trick)
    showing_last = not view.trick and bool(view.tricks) and view.phase != "auction"
    winner_now: int | None = None
    if showing_last:
        leader, cards, winner_now = view.tricks[-1]
        trick = {(leader + i) % view.players: c for i, c in enumerate(cards)}
    elif view.trick and view.trump is not None:
        winner_now = _winning(view)
    me = view.seat
    start = (me + 1) if me is not None else 0
    for seat in [(start + k) % view.players for k in range(view.players)]:
        to_act = seat == view.seat_to_act
        mark = "▶ " if to_act else "  "
        name = ctl.name(seat)
        who = "You" if seat == me else f"{name} {ctl.level(seat)[:3]}"
        if rules.partnership_mode:
            who += " ¹" if seat % 2 == (me or 0) % 2 and seat != me else ""
        dealer = " D" if seat == view.dealer else ""
        style = "bold yellow" if to_act else ("bold" if seat == me else "")
        out.append(mark, style="bold yellow")
        out.append(f"{(who + dealer)[:11]:<12}", style=style)
        bid = bids.get(seat)
        bid_cell = Text("")
        if bid is not None:
            bid_cell = action_text(rules, bid)
        if view.pitcher == seat and view.contract is not None:
            bid_cell = Text(f"★ {bid_word(rules, view.contract)}", style="bold green")
        out.append_text(_pad(bid_cell, 9))
        out.append(f"{view.hand_sizes[seat]:>4}")
        out.append(f"{view.tricks_won[seat]:>4}  ")
        card = trick.get(seat)
        if card is not None:
            out.append_text(card_text(card, dim=showing_last and seat != winner_now))
            if seat == winner_now:
                out.append(" ✓" if showing_last else " ←",
                           style="green" if showing_last else "cyan")
        out.append("\n")
    out.append("\n")
    out.append("Trump ")
    out.append_text(suit_text(view.trump))
    if view.phase == "auction":
        if view.high_bid is not None and view.high_bidder is not None:
            out.append(f"   high bid {bid_word(rules, view.high_bid)} by "
                       f"{ctl.name(view.high_bidder)}")
        else:
            out.append("   no bid yet")
        if view.pitched_card is not None:
            out.append("   pitched ")
            out.append_text(card_text(view.pitched_card))
    elif view.phase == "play":
        n = len(view.tricks) + (1 if view.trick else 0)
        if showing_last:
            assert winner_now is not None
            out.append(f"   trick {len(view.tricks)} ✓ {ctl.name(winner_now)}")
        else:
            out.append(f"   trick {max(n, 1)} of 6")
        if view.pitcher is not None:
            out.append(f"   {ctl.name(view.pitcher)} bid {bid_word(rules, view.contract)}")
    if rules.partnership_mode:
        out.append("\n¹ your partner", style="dim")
    return out


def _winning(view: View) -> int | None:
    """Who is winning the current trick (public: trump, led suit and the cards played)."""
    if not view.trick or view.trump is None:
        return None
    trump = SUITS.index(view.trump)
    led = view.trick[0][1] // 13

    def power(card: int) -> int:
        suit, rank = divmod(card, 13)
        return 100 + rank if suit == trump else rank if suit == led else -1

    return max(view.trick, key=lambda sc: power(sc[1]))[0]


def _pad(text: Text, width: int) -> Text:
    text = text.copy()
    text.truncate(width, pad=True)
    return text


def score_text(ctl: GameController, view: View | None) -> Text:
    """The score sheet: per side (or player) the score; money: stars and the ledger too."""
    out = Text()
    game = ctl.game
    rules = ctl.rules
    results = game.results
    if ctl.money:
        from ..money import MoneySession

        assert isinstance(game, MoneySession)
        out.append(f"{'Money game':<12}{'pts':>4}{'★':>3}{'$':>8}\n", style="bold")
        ledger = game.ledger
        for name in game.players:
            style = "bold" if name == "You" else ""
            out.append(f"{name:<12}{game.scores[name]:>4}{game.stars[name]:>3}", style=style)
            out.append(f"{money_text(ledger[name]):>8}\n",
                       style="green" if ledger[name] > 0 else "red" if ledger[name] < 0 else "")
        for name, paid in game.payouts.items():
            if name not in game.players:
                out.append(f"{name:<12} left {money_text(paid):>8}\n", style="dim")
    else:
        target = rules.target
        out.append(f"Score to {target}\n", style="bold")
        scores = list(game.scores)
        for side in range(ctl.sides):
            label = ctl.side_name(side)
            style = "bold" if "You" in label else ""
            out.append(f"{label[:15]:<15}{scores[side]:>4}", style=style)
            if results:
                d = results[-1].deltas[side]
                out.append(f" {d:+d}", style="green" if d > 0 else "red" if d < 0 else "dim")
            out.append("\n")
    out.append(f"Hands played: {len(results)}", style="dim")
    return out


def auction_text(ctl: GameController, view: View, lines: int = 8) -> Text:
    """The auction so far, newest last (trimmed to the last ``lines``)."""
    out = Text()
    items = list(view.auction)
    if len(items) > lines:
        out.append(f"… {len(items) - lines} earlier\n", style="dim")
        items = items[-lines:]
    for seat, action in items:
        out.append(f"{ctl.name(seat):<5} ")
        out.append_text(action_text(view.rules, action))
        out.append("\n")
    if not items:
        out.append(f"{ctl.name((view.dealer + 1) % view.players)} bids first\n", style="dim")
    out.rstrip()
    return out


def result_text(ctl: GameController, result: HandResult) -> Text:
    """The hand's result: who bid, made or set, who took High, Low, Jack and Game, the deltas."""
    rules = ctl.rules
    out = Text()
    if result.thrown_in or result.pitcher is None:
        out.append("Everyone passed: the hand is thrown in.\n", style="bold")
        return out
    seat = result.pitcher
    who = ctl.name(seat)
    verb = "made" if result.made else "was SET"
    out.append(f"{who} bid {bid_word(rules, result.bid)} in ", style="bold")
    out.append_text(suit_text(result.trump))
    out.append(f" and {verb}", style="bold green" if result.made else "bold red")
    if result.moon:
        out.append(" — shot the moon! ★", style="bold yellow")
    out.append("\n\n")
    cards = {"High": result.high_card, "Low": result.low_card, "Jack": result.jack_card}
    for label, side in (("High", result.high), ("Low", result.low), ("Jack", result.jack),
                        ("Game", result.game)):
        out.append(f"  {label:<6}")
        card = cards.get(label)
        if card:
            from ..cards import parse_card

            out.append_text(_pad(card_text(parse_card(card)), 5))
        else:
            out.append(" " * 5)
        if side is None:
            out.append("nobody" if label != "Jack" or card else "not dealt", style="dim")
        else:
            out.append(ctl.side_name(side), style="bold" if "You" in ctl.side_name(side) else "")
        if label == "Game":
            counts = " ".join(str(c) for c in result.game_counts)
            out.append(f"   (counts {counts})", style="dim")
        out.append("\n")
    out.append("\n")
    out.append("  Change: ")
    for side, d in enumerate(result.deltas):
        out.append(f"{ctl.side_name(side)} ")
        out.append(f"{d:+d}", style="green" if d > 0 else "red" if d < 0 else "dim")
        out.append("  ")
    out.append("\n")
    return out


def hand_log(ctl: GameController, view: View) -> Text:
    """The hand so far from your seat: your cards, the auction, every trick."""
    out = Text()
    out.append(f"Hand {len(ctl.game.hands)} — dealer {ctl.name(view.dealer)}\n", style="bold")
    out.append("Your cards were: ")
    from ..cards import cards_of

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
        for k, c in enumerate(cards):
            out.append(f"{ctl.name((leader + k) % view.players)} ")
            out.append_text(card_text(c))
            out.append("  ")
        out.append(f"→ {ctl.name(winner)}\n", style="green")
    if view.trick:
        out.append(f"  {len(view.tricks) + 1}. ")
        for seat, c in view.trick:
            out.append(f"{ctl.name(seat)} ")
            out.append_text(card_text(c))
            out.append("  ")
        out.append("\n")
    if view.result is not None:
        out.append("\n")
        out.append_text(result_text(ctl, view.result))
    return out


def rules_summary(rules: RuleSet, players: int) -> str:
    """The rules of this variant with its options, in a screenful."""
    moon = bid_word(rules, MOON)
    ladder = ", ".join(bid_word(rules, v) for v in rules.bid_values)
    lines = [f"Rules: {rules.name}" + (" (custom options)" if rules.changes() else ""), ""]
    if rules.partnership_mode:
        lines.append("Four players in two partnerships: you and the player opposite (seats 0 "
                     "& 2) against the other two. Points and scores are per team.")
    else:
        lines.append(f"{players} players, each for themselves.")
    lines += [
        "Everyone gets 6 cards. Ranks: A K Q J 10 9 ... 2.",
        "",
        "AUCTION  Bids: " + ladder + ".",
    ]
    if rules.auction == "continuous":
        lines.append("The auction goes round and round from the dealer's left; a pass is final. "
                     "Each bid must be higher than the last.")
    else:
        lines.append("One turn each from the dealer's left, the dealer last. Each bid must be "
                     "higher than the last.")
    if rules.pitch_as_bid_4 and rules.auction != "continuous":
        lines.append("Pitching: instead of bidding 4 you may put a card face up: a bid of 4, "
                     "and that card is the opening lead.")
    forced = ("must bid exactly 2" if rules.all_pass == "force_dealer_exact2" else
              f"must bid at least {max(2, rules.min_bid)}"
              if rules.all_pass == "force_dealer_atleast2" else
              "throws the hand in" if rules.all_pass == "redeal" else "leads with no contract")
    lines.append(f"If everyone else passes, the dealer {forced}.")
    if rules.dealer_steal != "none":
        top = bid_word(rules, rules.max_bid)
        which = (f"any bid below {top}" if rules.dealer_steal == "equal_below_max"
                 else "any bid, a pitched 4 included")
        lines.append(f"The dealer may steal the bid by equalling it ({which}).")
    if rules.moon != "none":
        what = "all 4 points and all 6 tricks" if rules.moon == "moon" else (
            "all six tricks and all four points")
        lines.append(f"{moon.capitalize()}: promises {what}; scores {rules.moon_value} "
                     f"(set: -{rules.moon_fail_points})"
                     + ("; a made smudge wins outright" if rules.moon == "smudge_wins" else "")
                     + ".")
    low_to = "holder" if rules.low_to == "holder" else "capturer"
    follow = {"trump_anytime": "follow the suit led or play a trump; if void, play anything",
              "strict_follow": "follow the suit led if you can; if void, play anything",
              "follow_trump_only": "you must follow trump when trump is led; otherwise "
                                   "follow suit or trump"}[rules.follow_rule]
    lines += [
        "",
        "PLAY  The high bidder (the pitcher) leads; that card's suit is trump. "
        f"You must {follow}. Highest trump wins, else the highest card of the suit led.",
        "",
        "POINTS  High: the highest trump in play (to its holder). "
        f"Low: the lowest trump in play (to its {low_to}). "
        "Jack: the J of trumps (to its capturer; none if not dealt). "
        "Game: most game count in tricks taken (10=10, A=4, K=3, Q=2, J=1); a tie gives nobody "
        "the point.",
        "The pitcher must win at least the bid or is set back by the bid; the others always "
        "score what they win.",
        "",
    ]
    if rules.money != "none":
        lines.append(f"MONEY  No target: ${rules.stake_per_point} per point against the average "
                     f"after every hand; a made moon earns a ★ and ${rules.moon_payment} from "
                     "each player, a failed one pays each. Players come and go between hands; "
                     "press s between hands to settle up.")
    else:
        goal = {"bidder_goes_out": "only the pitcher's side can win, by making its bid",
                "first_to_target_HLJG_order": "the first to reach it, counting High, Low, Jack, "
                                              "Game in order",
                "pitcher_counted_first": "the pitcher's side counts first",
                "higher_score": "the higher score past the target"}[rules.win_rule]
        lines.append(f"GOAL  First to {rules.target}: {goal}.")
    return "\n".join(lines)


def fraction_text(amount: Fraction) -> str:
    return money_text(amount)

"""Text for the screen, built only from the human's View and public results (no Textual here).

Cards show their suit symbol, hearts and diamonds in red.  Nothing here reads another seat's
hidden cards: the table shows how many cards each seat holds, never which.
"""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

from ..actions import Action
from ..cards import DECK_SIZE, SUIT_SYMBOLS, SUITS, card_symbol, cards_of, parse_card
from ..deck import deck_model, off_jack_of
from ..explain import bid_word
from ..money import cents_text
from ..rules import RuleSet, first_to_bid, trick_seats
from ..scoring import HandResult
from ..views import View, hand_order
from .game import TableGame
from .seats import LABEL, MIN_HEIGHT, MIN_WIDTH, Canvas, places
from .words import HUMAN, count, sentence, verb

__all__ = ["action_text", "auction_text", "card_label", "card_style", "card_text",
           "discard_prompt", "hand_log", "is_off_jack", "outcome_text", "result_text",
           "score_text", "sorted_hand", "table_text", "trick_line"]

RED = "bold red1"
BLACK = "bold bright_white"
JOKER = "bold magenta"
#: T1: the jokers as drawn: ☆ the low joker, ★ the high joker, with their short names.
_JOKER_LABELS = {52: "☆LJ", 53: "★BJ"}


def card_style(card: int) -> str:
    if card >= DECK_SIZE:
        return JOKER
    return RED if card // 13 in (1, 2) else BLACK


def card_label(card: int) -> str:
    """A card as drawn: ``K♥``, ``☆LJ`` (the low joker) or ``★BJ`` (the high joker)."""
    return _JOKER_LABELS.get(card) or card_symbol(card)


def card_text(card: int, dim: bool = False) -> Text:
    return Text(card_label(card), style="dim" if dim else card_style(card))


def is_off_jack(view: View, card: int) -> bool:
    """T2: the off-jack, a trump once trump is known (it follows trump's suit, not its own)."""
    return (view.rules.off_jack and view.trump is not None
            and card == off_jack_of(SUITS.index(view.trump)))


def sorted_hand(view: View) -> list[int]:
    """Your cards in the order the engine shows them (:func:`pitchcards.views.hand_order`)."""
    return hand_order(view)


def discard_prompt(view: View) -> str:
    """T4: "Discard 3 cards face down (2 left)"."""
    total = view.rules.hand_size - 6
    left = total - view.discarded_mask.bit_count()
    return f"Discard {count(total, 'card')} face down ({left} left)"


def suit_text(suit: str | None) -> Text:
    if suit is None:
        return Text("not yet", style="dim")
    i = SUITS.index(suit)
    return Text(SUIT_SYMBOLS[i], style=RED if i in (1, 2) else BLACK)


def action_text(rules: RuleSet, action: Action) -> Text:
    """``pass``, ``bid 3``, ``bid moon``, ``pitch K♥``, ``K♥``, ``discard K♥`` (T4),
    ``trump ♥`` (T5), ``call A♥`` (CP3)."""
    if action.kind == "play":
        assert action.card is not None
        return card_text(action.card)
    if action.kind in ("pitch", "discard"):
        assert action.card is not None
        return Text.assemble(f"{action.kind} ", card_text(action.card))
    if action.kind == "trump":
        assert action.suit is not None
        return Text.assemble("trump ", suit_text(SUITS[action.suit]))
    if action.kind == "call":  # CP3
        assert action.card is not None
        return Text.assemble("call ", card_text(action.card))
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
        trick = dict(zip(trick_seats(leader, len(cards), view.players), cards, strict=True))
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
    if view.rules.partnership_mode and seat != me and view.side_of(seat) == view.side_of(me):
        line.append(" partner", style="cyan")
    # CP5: the pitcher's partner, once the table knows it (or to the holder, its own seat)
    partner = view.known_partner
    if view.rules.calls_partner and partner is not None and partner != view.pitcher and (
            seat == partner or (seat == view.pitcher and view.partner_known)):
        line.append(" partner", style="bold magenta")
    return line


def _seat_detail(ctl: TableGame, view: View, seat: int, bids: dict[int, Action]) -> Text:
    """The second line: the bot's level (whole), its bid (the contract ★ once it is the
    pitcher's) and the tricks it has won."""
    out = Text(" ")
    if seat != view.seat:
        out.append(ctl.level(seat) + " ", style="dim")
    if view.pitcher == seat and view.contract is not None:
        out.append(f"★{bid_word(view.rules, view.contract)}", style="bold green")
    if view.phase == "discard" and seat == view.seat_to_act and seat != view.seat:
        out.append(" discarding", style="italic")  # T4: face down, never which cards
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
    if view.phase == "declare" and view.pitcher is not None:
        out.append(sentence(ctl.name(view.pitcher), "name", "trump…"), style="bold")
        return out
    if view.phase == "call" and view.pitcher is not None:  # CP3
        out.append(sentence(ctl.name(view.pitcher), "be", "calling a partner…"), style="bold")
        return out
    out.append("trump ")
    out.append_text(suit_text(view.trump))
    if view.phase == "discard":
        out.append(" · discarding face down", style="dim")
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
    cards = [c for _, c in view.trick]
    return view.trick[deck_model(view.rules).trick_winner(cards, SUITS.index(view.trump))][0]


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
        assert game is not None  # a money game: the controller's MoneySession
        # the column heads are the panel's title (app.refresh_screen); the amounts are the
        # engine's cents, reconciled with what leavers were paid, so they add up (A-R7.6)
        cents = game.settle_cents()
        for name in game.players:
            style = "bold" if name == HUMAN else ""
            out.append(f"{name:<12}{game.scores[name]:>4}{game.stars[name]:>3}", style=style)
            out.append(f"{cents_text(cents[name]):>8}\n", style=_sign_style(cents[name]))
        for name, paid in game.payout_cents.items():
            if name not in game.players:
                out.append(f"{name:<12} left {cents_text(paid):>8}\n", style="dim")
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
        first = ctl.name(first_to_bid(view.dealer, view.players))
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
        out.append_text(_extra_cells(ctl, result))
        counts = " · ".join(f"{ctl.side_name(side)} {c}"
                            for side, c in enumerate(result.game_counts))
        out.append(f"\n  Game count: {counts}\n", style="dim")
    out.append("\n")
    out.append_text(_sides_table(ctl, result))
    return out


def _extra_cells(ctl: TableGame, result: HandResult) -> Text:
    """T7: the ten-point family's extra points (Off-jack, High joker, Low joker, Three = 3),
    two a line, each with who took it; nothing in the four-point game."""
    out = Text()
    for i, (label, side, value) in enumerate(result.extra):
        if i % 2 == 0:
            out.append("\n")
        cell = Text(f"  {label}{f' = {value}' if value != 1 else ''}: ")
        if side is None:
            cell.append("nobody", style="dim")
        else:
            name = ctl.side_name(side)
            cell.append(name, style="bold" if HUMAN in name else "")
        out.append_text(_pad(cell, 34) if i % 2 == 0 else cell)
    return out


def _sides_table(ctl: TableGame, result: HandResult) -> Text:
    """One row per side: the hand's change and the score after it (money: ★ and $)."""
    game = ctl.session
    out = Text()
    if ctl.money:
        assert game is not None  # a money game: the controller's MoneySession
        out.append(f"  {'':<12}{'change':>7}{'pts':>5}{'★':>3}{'$':>9}\n", style="bold")
        cents = game.settle_cents()  # the engine's reconciled cents (A-R7.6)
        for seat, name in enumerate(ctl.seating):
            if name not in game.players:
                continue
            d = result.deltas[seat] if seat < len(result.deltas) else 0
            out.append(f"  {name:<12}", style="bold" if name == HUMAN else "")
            out.append(f"{d:>+7d}", style=_sign_style(d))
            out.append(f"{game.scores[name]:>5}{game.stars[name]:>3}")
            out.append(f"{cents_text(cents[name]):>9}\n", style=_sign_style(cents[name]))
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
    for seat, c in zip(trick_seats(leader, len(cards), players), cards, strict=True):
        out.append(f"{ctl.name(seat)} ")
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
    if view.discarded_mask:  # T4: your own discards (nobody else's is ever known)
        out.append("\nYou discarded: ")
        for c in cards_of(view.discarded_mask):
            out.append_text(card_text(c))
            out.append(" ")
    out.append("\n\nAuction\n", style="bold")
    for seat, action in view.auction:
        out.append(f"  {ctl.name(seat)}: ")
        out.append_text(action_text(view.rules, action))
        out.append("\n")
    if view.rules.declares_trump and view.trump is not None and view.pitcher is not None:
        out.append(f"  {ctl.name(view.pitcher)} named trump ")  # T5
        out.append_text(suit_text(view.trump))
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

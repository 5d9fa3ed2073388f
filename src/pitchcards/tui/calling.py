"""Call-your-partner in words (docs/rules.md 2.8): the called card, the holder's secret and the
reveal, built from the seat's View only (``called_card``, ``holds_called``, ``partner`` and
``partner_known``): nothing here works out who holds the card (CP5)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ..views import View
from .text import card_text
from .words import possessive, sentence

__all__ = ["call_line", "reveal_line"]

#: A seat's name as the screen says it ("You" for yours).
Namer = Callable[[int], str]


def call_line(name: Namer, view: View) -> Text:
    """"Ann called A♥: its holder is Ann's secret partner." (CP3); to the holder "You hold
    A♥: you are Ann's secret partner." (CP5); once the table knows, who the partner was.
    Empty before a call and under other rules."""
    card, pitcher = view.called_card, view.pitcher
    if card is None or pitcher is None:
        return Text()
    who = name(pitcher)
    shown = card_text(card)
    if view.partner_known:
        if view.partner is None:  # CP4: nobody was dealt it
            return Text.assemble("Nobody was dealt ", shown, ": "
                                 + sentence(who, "play (past)", "alone", start=False) + ".")
        if view.partner == pitcher:  # CP3 alone_allowed: the pitcher's own card
            return Text.assemble(sentence(who, "hold (past)") + " ", shown, ": "
                                 + sentence(who, "play (past)", "alone", start=False) + ".")
        tense = "be (past)" if view.phase == "over" else "be"
        return Text.assemble(
            (sentence(name(view.partner), tense, f"{possessive(who)} partner"), "bold"),
            " (", shown, ").")
    if view.holds_called:
        if view.seat == pitcher:
            return Text.assemble("You called your own ", shown,
                                 ": you play alone (the table learns it when you play it).")
        return Text.assemble(("You hold ", "bold"), shown,
                             (f": you are {possessive(who)} secret partner.", "bold"))
    return Text.assemble(sentence(who, "call (past)") + " ", shown,
                         f": its holder is {possessive(who)} secret partner.")


def reveal_line(name: Namer, view: View) -> Text:
    """The moment the called card is played (CP5): "A♥ is out: Bob is Ann's partner!"."""
    card, pitcher = view.called_card, view.pitcher
    if card is None or pitcher is None or not view.partner_known:
        return Text()
    if view.partner is None:
        return Text.assemble("Nobody held ", card_text(card), ".")
    if view.partner == pitcher:
        return Text.assemble(card_text(card), " is out: ",
                             (sentence(name(pitcher), "play", "alone", start=False) + "!", "bold"))
    return Text.assemble(card_text(card), " is out: ", (sentence(
        name(view.partner), "be", f"{possessive(name(pitcher))} partner", start=False) + "!",
        "bold yellow"))

"""Widgets: your cards, the bid bar, and simple text panels (table, score sheet, auction)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static

from ..cards import SUIT_SYMBOLS, SUITS
from .text import card_label, card_style

__all__ = ["BidBar", "BidButton", "CardView", "HandView", "Panel"]


class Panel(Static):
    """A bordered text panel (table, score sheet, auction)."""


class CardView(Static):
    """One of your cards: drawn with its suit; ``legal``/``dim``/``selected`` classes."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int) -> None:
        super().__init__("", classes="card", id=f"card{index + 1}")
        self.index = index
        self.card: int | None = None

    def show(self, card: int | None, legal: bool, selected: bool, note: str = "") -> None:
        """``note``: what the card is beside its face, e.g. ``=♥`` for the off-jack, a trump
        once trump is known (T2)."""
        self.card = card
        self.display = card is not None
        if card is None:
            return
        self.set_class(legal, "legal")
        self.set_class(not legal, "dim")
        self.set_class(selected, "selected")
        style = card_style(card) if legal else "dim"
        label = Text(f"{(self.index + 1) % 10}", style="dim")  # the tenth key is 0
        if note:
            label.append(f" {note}", style="bold yellow")
        self.update(Text.assemble(Text(f"{card_label(card):^3}", style=style), "\n", label))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


class HandView(Horizontal):
    """Your cards in a row: six, or up to nine before the discard (T4)."""

    SLOTS = 9

    def compose(self) -> ComposeResult:
        for i in range(self.SLOTS):
            yield CardView(i)

    def show(self, cards: list[int], legal: set[int], selected: int | None,
             notes: dict[int, str] | None = None) -> None:
        for i, widget in enumerate(self.query(CardView)):
            card = cards[i] if i < len(cards) else None
            note = (notes or {}).get(card, "") if card is not None else ""
            widget.show(card, card in legal, selected == i, note)


class BidButton(Static):
    """A bid (``pass``, ``1``..``4``, ``moon``): clickable; legal ones highlighted."""

    class Clicked(Message):
        def __init__(self, key: str) -> None:
            self.key = key
            super().__init__()

    def __init__(self, key: str, label: str) -> None:
        super().__init__(label, classes="bid", id=f"bid-{key}")
        self.key = key

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.key))


class BidBar(Horizontal):
    """The bids, one key each to *choose* it: p pass, 1-4, m moon/smudge (Enter confirms);
    the ten-point family's bids 5-9 and 0 for 10 (T8); naming trump, 1-4 for the four suits
    (T5: the keys ``trump-C`` ...)."""

    KEYS = (("pass", "p Pass"), *((str(v), str(v)) for v in range(1, 11)),
            ("moon", "m Moon"),
            *((f"trump-{s}", f"{i + 1} {SUIT_SYMBOLS[i]}") for i, s in enumerate(SUITS)))

    def compose(self) -> ComposeResult:
        for key, label in self.KEYS:
            yield BidButton(key, label)

    def show(self, legal: set[str], offered: set[str], moon_word: str,
             chosen: str | None = None) -> None:
        for button in self.query(BidButton):
            button.set_class(button.key == chosen, "chosen")
            button.display = button.key in offered
            if button.key == "moon":
                button.update(f"m {moon_word.capitalize()}")
            button.set_class(button.key in legal, "legal")
            button.set_class(button.key not in legal, "dim")

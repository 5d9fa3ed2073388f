"""Widgets: your cards, the bid bar, and simple text panels (table, score sheet, auction)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Static

from ..cards import card_symbol
from .text import card_style

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

    def show(self, card: int | None, legal: bool, selected: bool) -> None:
        self.card = card
        self.display = card is not None
        if card is None:
            return
        self.set_class(legal, "legal")
        self.set_class(not legal, "dim")
        self.set_class(selected, "selected")
        style = card_style(card) if legal else "dim"
        label = Text(f"{self.index + 1}", style="dim")
        self.update(Text.assemble(Text(f"{card_symbol(card):^3}", style=style), "\n", label))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


class HandView(Horizontal):
    """Your six cards in a row."""

    def compose(self) -> ComposeResult:
        for i in range(6):
            yield CardView(i)

    def show(self, cards: list[int], legal: set[int], selected: int | None) -> None:
        for i, widget in enumerate(self.query(CardView)):
            card = cards[i] if i < len(cards) else None
            widget.show(card, card in legal, selected == i)


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
    """The bids, one key each to *choose* it: p pass, 1-4, m moon/smudge (Enter confirms)."""

    KEYS = (("pass", "p Pass"), ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4"),
            ("moon", "m Moon"))

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

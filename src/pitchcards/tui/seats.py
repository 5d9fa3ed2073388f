"""Seats laid around a table, as text: you at the bottom, the player on your left to the
left, your partner (or the player opposite) across, each seat's card played in front of it
(issue 10, item 3).  No Textual here: :func:`layout` places labels and cards on a character
canvas the size of the table panel, for 2 to 8 seats.

Slots, clockwise from you (play passes to the left, so the next seat is on your left)::

    TL        TC        TR          rows: top band, middle band, bottom band;
    ML                  MR          the card a seat plays sits between its label
    BL        BC        BR          and the centre
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

__all__ = ["LABEL", "MIN_HEIGHT", "MIN_WIDTH", "SLOTS", "Canvas", "Place", "places"]

#: A seat's label is two lines of at most this many columns.
LABEL = 15
#: The smallest canvas the three bands fit in without overlapping.
MIN_WIDTH, MIN_HEIGHT = 3 * LABEL, 12

#: The slots used for each table size, clockwise from you (BC): the player on your left next.
SLOTS: dict[int, tuple[str, ...]] = {
    2: ("BC", "TC"),
    3: ("BC", "ML", "MR"),
    4: ("BC", "ML", "TC", "MR"),
    5: ("BC", "ML", "TL", "TR", "MR"),
    6: ("BC", "ML", "TL", "TC", "TR", "MR"),
    7: ("BC", "BL", "ML", "TL", "TR", "MR", "BR"),
    8: ("BC", "BL", "ML", "TL", "TC", "TR", "MR", "BR"),
}


@dataclass(frozen=True)
class Place:
    """Where a seat's label (top-left corner) and its played card (left end) go."""

    row: int
    col: int
    card_row: int
    card_col: int


def places(seats: int, width: int, height: int) -> list[Place]:
    """The place of each seat, ``k`` seats to your left (``k = 0``: you), on a canvas of
    ``width`` × ``height`` (at least :data:`MIN_WIDTH` × :data:`MIN_HEIGHT`)."""
    width, height = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
    top, middle, bottom = 0, height // 2 - 1, height - 2
    left, centre, right = 0, (width - LABEL) // 2, width - LABEL
    card_top, card_bottom = max(3, height // 4), min(height - 4, height - height // 4 - 1)
    mid = width // 2
    spots = {
        "TL": Place(top, left, card_top, left + 5), "TC": Place(top, centre, card_top, mid - 1),
        "TR": Place(top, right, card_top, right + 5),
        "ML": Place(middle, left, middle, mid - 7), "MR": Place(middle, right, middle, mid + 3),
        "BL": Place(bottom, left, card_bottom, left + 5),
        "BC": Place(bottom, centre, card_bottom, mid - 1),
        "BR": Place(bottom, right, card_bottom, right + 5),
    }
    return [spots[slot] for slot in SLOTS[min(max(seats, 2), 8)]]


class Canvas:
    """A grid of styled characters; later writes overwrite earlier ones."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]

    def put(self, row: int, col: int, text: Text, limit: int | None = None) -> None:
        """Write ``text`` (one line) at ``row``, ``col``, cut to ``limit`` columns."""
        if not 0 <= row < self.height:
            return
        plain = text.plain
        end = len(plain) if limit is None else min(len(plain), limit)
        for i in range(end):
            c = col + i
            if 0 <= c < self.width:
                styles = [str(text.style)] if text.style else []
                styles += [str(span.style) for span in text.spans if span.start <= i < span.end]
                style = " ".join(styles)
                self.cells[row][c] = (plain[i], style)

    def put_centred(self, row: int, text: Text) -> None:
        self.put(row, max(0, (self.width - len(text.plain)) // 2), text)

    def text(self) -> Text:
        out = Text()
        for r, line in enumerate(self.cells):
            for char, style in line:
                out.append(char, style=style or None)
            if r < self.height - 1:
                out.append("\n")
        out.rstrip()
        return out

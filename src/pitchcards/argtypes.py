"""argparse ``type`` helpers shared by every ``pitch`` subcommand (the main command line,
``pitch arena``, ``pitch serve``): a neutral module, so that the command lines import it rather
than each other."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .errors import shown

__all__ = ["seed_number", "whole_number"]


def whole_number(low: int | None = 1, high: int | None = None,
                 digits: int = 20) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``; ``low=None``: any sign)
    of at most ``digits`` digits, else a usage error (exit code 2) that says what is allowed
    and quotes the input cut short (:func:`~pitchcards.errors.shown`)."""
    if low is None:
        allowed = f"a whole number of at most {digits} digits"
    else:
        allowed = f"a whole number from {low}" + (f" to {high}" if high is not None else " up")

    def parse(text: str) -> int:
        try:
            value = int(text) if len(text.strip().lstrip("+-")) <= digits else None
        except ValueError:
            value = None
        if value is None or (low is not None and value < low) or (high is not None
                                                                 and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, not {shown(text)}")
        return value

    parse.__name__ = allowed  # argparse names the type by it
    return parse


#: ``--seed``: any whole number short enough to read and print (30 digits).
seed_number = whole_number(None, digits=30)

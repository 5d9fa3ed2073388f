"""argparse ``type`` helpers shared by every ``pitch`` subcommand (the main command line,
``pitch arena``, ``pitch serve``): a neutral module, so that the command lines import it rather
than each other."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from .errors import shown

__all__ = ["TOKEN_ENV", "add_token_argument", "api_token", "seed_number", "whole_number"]


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


#: The environment variable an API token may come from instead of ``--token`` (a command
#: line is visible to the machine's other users in ``ps``; the environment is not)
TOKEN_ENV = "PITCH_TOKEN"


def add_token_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--token``: the API token of an account (``pat_…``, made on its profile page), so the
    seat taken is that account's — a ranked table's seats must be (docs/accounts.md)."""
    parser.add_argument("--token", default=None, metavar="API_TOKEN",
                        help="your account's API token (made on your profile page): sit as "
                             "that account, which a ranked table needs (default: "
                             f"${TOKEN_ENV}, if set)")


def api_token(args: argparse.Namespace) -> str | None:
    """The API token ``--token`` gave, else ``$PITCH_TOKEN``'s, else None (a guest)."""
    import os

    token: str | None = args.token or os.environ.get(TOKEN_ENV) or None
    return token

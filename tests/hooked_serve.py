"""A test server: ``pitch serve`` with the test-only hooks (src/pitchcards/server/testing.py) —
a table's seed chosen by the test, bots that act only when the test says so.

Run only by the test fixtures (``ServerProcess(..., hooked=True)`` in tests/server_helpers.py):
``python tests/hooked_serve.py [--hold-bots] <pitch serve's flags>``.  ``pitch serve`` itself has
no way to switch the hooks on; tests/test_server_hooks.py proves it."""

from __future__ import annotations

import argparse
import sys

from pitchcards.server.cli import add_server_parsers, serve
from pitchcards.server.testing import TestHooks


def main(argv: list[str]) -> int:
    hold_bots = "--hold-bots" in argv  # every table's bots held, also after a restart
    rest = [a for a in argv if a != "--hold-bots"]
    die = None  # --die-when-rating POINT: kill -9 of itself as it rates a ranked match
    if "--die-when-rating" in rest:
        at = rest.index("--die-when-rating")
        die = rest[at + 1]
        del rest[at:at + 2]
    parser = argparse.ArgumentParser(prog="hooked_serve")
    add_server_parsers(parser.add_subparsers())
    args = parser.parse_args(["serve", *rest])
    return serve(args, hooks=TestHooks(hold_bots=hold_bots, die_when_rating=die))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""tests/js/engine.json, the engine's facts that ``node --test tests/js/`` checks the browser's
pure modules against (issue 29), is what the engine makes now: a change to a view, an event, the
rules' JSON or the engine's words fails here until the file is written again
(``.venv/bin/python tests/engine_fixtures.py``), and the page's tests then run on the new facts."""

from __future__ import annotations

import json

import engine_fixtures
import pitchcards as pc
from pitchcards.events import event_from_dict


def test_the_checked_in_engine_fixtures_are_current() -> None:
    committed = engine_fixtures.TARGET.read_text(encoding="utf-8")
    assert committed == engine_fixtures.text(), \
        "tests/js/engine.json is stale: .venv/bin/python tests/engine_fixtures.py"


def test_the_fixtures_cover_what_the_pages_tests_need() -> None:
    """Several variants (partners, ten-point, money), each copy's events readable by the
    engine, in order, with the engine's view after each."""
    data = json.loads(engine_fixtures.TARGET.read_text(encoding="utf-8"))
    variants = {g["variant"] for g in data["games"]}
    assert {"auction", "auction-partners", "ten-point", "money"} <= variants
    assert any(pc.find_variant(v).partnership_mode for v in variants)
    for game in data["games"]:
        for copy in game["copies"]:
            seqs = [event_from_dict(e).seq for e in copy["events"]]
            assert seqs == list(range(1, len(seqs) + 1)), game["variant"]
            assert len(copy["after"]) == len(copy["events"])
            assert copy["after"][-1]["view"] is not None

"""docs/protocol.md and docs/protocol.schema.json say what the server does: the committed schema
is the one the models generate, and every reason and message type is documented."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

from pitchcards import REASONS
from pitchcards.server.protocol import CLIENT_TYPES, SERVER_REASONS, json_schema

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_the_committed_schema_is_current():
    script = runpy.run_path(str(ROOT / "scripts" / "protocol_schema.py"))
    committed = (ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8")
    assert committed == script["text"](), \
        "regenerate it: .venv/bin/python scripts/protocol_schema.py"
    assert json.loads(committed)["protocol"] == json_schema()["protocol"]


def test_every_server_reason_is_documented_and_distinct_from_the_engines():
    for reason in SERVER_REASONS:
        assert f"| `{reason}` |" in DOC, reason
        assert reason not in REASONS


def test_every_message_type_is_documented():
    server_types = {"welcome", "event", "snapshot", "table", "chat", "error", "rematch", "ping",
                    "pong"}
    for kind in (*CLIENT_TYPES, *server_types):
        assert f'"type": "{kind}"' in DOC, kind

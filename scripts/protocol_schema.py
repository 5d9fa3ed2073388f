"""Write docs/protocol.schema.json: the JSON Schema of every protocol message, generated from
the pydantic models (tests/test_server_protocol_doc.py checks the committed file is current).

    .venv/bin/python scripts/protocol_schema.py
"""

from __future__ import annotations

import json
from pathlib import Path

from pitchcards.server.protocol import json_schema

TARGET = Path(__file__).resolve().parent.parent / "docs" / "protocol.schema.json"


def text() -> str:
    return json.dumps(json_schema(), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    TARGET.write_text(text(), encoding="utf-8")
    print(f"wrote {TARGET}")

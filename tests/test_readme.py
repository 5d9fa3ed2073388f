"""The README's library example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has a python example"
    namespace: dict[str, object] = {}
    for block in blocks:  # in order, in one namespace, as a reader would type them
        exec(compile(block, "README.md", "exec"), namespace)
    hand = namespace["h"]
    assert hand.seat_to_act is not None  # the example popped the hand's last action
    assert "auction-partners" in str(namespace["text"])  # the record names its variant
    table = namespace["t"]
    assert table.seq > 0 and table.snapshot(0)["seq"] == table.seq  # type: ignore[attr-defined]

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


def test_readme_top_has_the_two_commands_and_the_browser_tables_picture() -> None:
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first_block is not None
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[fast]' "
        "&& .venv/bin/python scripts/build_fast.py --or-pure && .venv/bin/pitch serve",
        "bash scripts/test.sh"]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/test.sh" in ci
    picture = re.search(r"!\[[^\]]*\]\((docs/img/browser-table\.png)\)", text)
    assert picture is not None and (README.parent / picture.group(1)).stat().st_size > 10_000

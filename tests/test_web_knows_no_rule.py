"""The browser knows no rule (issue 29): the table's JavaScript reads no rules option and
computes no seat, side, table size, bid ladder, discard or money — the server sends each as a
fact (the rules' ``points_total``, ``bids``, ``moon``, ``partners``, ``teams``, ``players``,
``discards``; a finished trick's ``plays``; a view's
``first_to_bid``, ``sides``, ``side_names``, ``discards_left``, ``off_jack``, the hand in the
order to show it, money as the engine's cents; a seat's copy of each action carries its view).

A scan of every module under src/pitchcards/server/web/js for the shapes such copies take, with
a short allow-list, each entry with its reason (docs/web.md, "The browser knows no rule"); and
a self-check that the scan catches each kind of copy when one is planted."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "src" / "pitchcards" / "server" / "web" / "js"

#: What a copy of a rule looks like, by kind.
COPIES: dict[str, re.Pattern[str]] = {
    "reads a rules option": re.compile(
        r"ruleOption\(|\brules\??\.options\??(\.|\[)|\.resolved\??(\.|\[)|VARIANT_DEFAULTS"),
    "computes a seat": re.compile(r"%\s*\(?[\w.]*players\b|dealer\s*\+\s*1"),
    "computes a side": re.compile(r"[\w.]*\b(seat|s|me|mine)\s*%\s*2"),
    "computes the table sizes": re.compile(
        r"=== \"2x2\"|\ballow_two_players\b\s*[?&|]|\.allow_two_players\b|\[4,\s*4\]"),
    "computes the discard": re.compile(r"hand\.length\s*-\s*\d|hand_size[^;]*\)\s*-\s*6"),
    "builds the bid ladder": re.compile(
        r"[<>]=?\s*pointsTotal\(|\bmin_bid\b\W*\)|MOON_WORDS"),
    "computes money": re.compile(r"parseFloat|toFixed\(2\)|Math\.round\([^)]*100"),
    "translates an action": re.compile(r"kind === \"moon\"|=== \"moon\" \?|\"moon\" \? \"bid"),
    "decides which bid is the moon": re.compile(r"===?\s*\"?5\"?\s*\)?\s*&&\s*hasMoon|hasMoon\(|"
                                                r"value\s*===?\s*5\b"),
    # the review of issue 36 (section 4): the server sends these as facts or words
    "picks the best by chance": re.compile(r"\.reduce\(.*\bchance\b"),
    "says which trick a step is in": re.compile(r"[Tt]rick 1 of"),
    "words who held the called card": re.compile(
        r"\bpartner\s*===?\s*(null|undefined)\s*\|\|[^?]*\?\s*\"not dealt\"|"
        r"choice\(\"Nobody \(not dealt"),
}

#: The allowed lines: (module, a piece of the line, why).  docs/web.md lists each.
ALLOWED: list[tuple[str, str, str]] = [
    ("seats.js", "(seat - scene.me + scene.players) % scene.players",
     "where a seat sits around the felt (you at the bottom): layout, not a rule"),
    ("trick.js", "(seat - scene.me + scene.players) % scene.players",
     "where a seat sits around the felt: layout, not a rule"),
    ("stats.js", "(s.points / s.hands).toFixed(2)",
     "the statistics' points a hand: an average of the server's numbers, no game money"),
    ("home.js", "Math.abs(n * 100 - Math.round(n * 100)) < 1e-9 ? n.toFixed(2)",
     "the new-table form echoes the stake the host typed (no game money)"),
    ("home.js", "Math.abs(n * 100 - Math.round(n * 100)) < 1e-9",
     "the same"),
    ("home.js", "`${Math.round(n * 100)}¢`", "the same"),
    ("analysis.js", "`${Math.round(100 * x)}%`",
     "a chance the server computed, as a whole percentage: no money"),
    ("player.js", 'n === null ? "—" : n.toFixed(2)',
     "the server's points a hand, to two places: no money"),
]


def scan(text: str, module: str) -> list[tuple[str, int, str, str]]:
    """Every line of ``text`` that looks like a copy of a rule and is not allowed: (module,
    line number, kind, line)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("//")[0]
        if code.lstrip().startswith("*"):  # a JSDoc line: words, not code
            continue
        for kind, pattern in COPIES.items():
            if pattern.search(code) and not any(
                    module == m and piece in line for m, piece, _ in ALLOWED):
                found.append((module, number, kind, line.strip()))
    return found


def test_the_browsers_javascript_restates_no_rule() -> None:
    modules = sorted(JS.glob("*.js"))
    assert len(modules) > 20
    found = [hit for path in modules for hit in scan(path.read_text(encoding="utf-8"),
                                                     path.name)]
    assert found == [], "\n".join(f"{m}:{n}: {kind}: {line}" for m, n, kind, line in found)


def test_every_allowed_line_is_there_and_documented() -> None:
    """The allow-list stays short and true: each entry matches a line, and docs/web.md says
    why."""
    docs = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    for module, piece, _ in ALLOWED:
        assert piece in (JS / module).read_text(encoding="utf-8"), (module, piece)
        assert f"`{module}`" in docs and piece in docs, (module, piece)


@pytest.mark.parametrize(("kind", "planted"), [
    ("reads a rules option", 'const low = ruleOption(view.rules, "min_bid", 1);'),
    ("reads a rules option", "const moon = view.rules.options.moon;"),
    ("reads a rules option", 'if (rules?.options?.partnership === "2x2") {}'),
    ("reads a rules option", "const all = view.rules.resolved.target;"),
    ("computes a seat", "const first = (view.dealer + 1) % view.players;"),
    ("computes a seat", "const next = (seat + 1) % players;"),
    ("computes a side", "const mine = view.seat % 2 === side;"),
    ("computes the table sizes", 'if (opts.partnership === "2x2") return [4, 4];'),
    ("computes the table sizes", "const low = opts.allow_two_players ? 2 : v.players.min;"),
    ("computes the discard", "return Math.max(0, view.hand.length - 6);"),
    ("computes the discard", 'const n = Number(ruleOption(rules, "hand_size", 6)) - 6;'),
    ("builds the bid ladder", "if (n > pointsTotal(view.rules)) return;"),
    ("builds the bid ladder", 'const low = Number(option("min_bid")) || 1;'),
    ("computes money", "const dollars = parseFloat(view.money[0]);"),
    ("computes money", "return `$${(cents / 100).toFixed(2)}`;"),
    ("translates an action", 'const legal = action === "moon" ? "bid moon" : action;'),
    ("translates an action", 'if (kind === "moon") return "Moon";'),
    ("decides which bid is the moon",
     'if ((value === 5 || value === "5") && hasMoon(rules)) return moonWord(rules);'),
    ("decides which bid is the moon", 'return value === 5 ? "moon" : String(value);'),
    ("picks the best by chance", "const best = weighed.reduce((a, c) => (c.chance > a.chance"),
    ("says which trick a step is in", "return `Partner called, trick 1 of ${TRICKS}`;"),
    ("words who held the called card",
     'r.partner === null || r.partner === undefined ? "not dealt"'),
    ("words who held the called card",
     'buttons.push(choice("Nobody (not dealt)", "none", () => answer({ partner: null })));'),
])
def test_the_scan_catches_each_kind_of_copy(kind: str, planted: str) -> None:
    found = scan(f"// a planted copy\n{planted}\n", "planted.js")
    assert [k for _, _, k, _ in found] and kind in [k for _, _, k, _ in found], found

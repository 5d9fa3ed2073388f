"""Screens over the table: setup, the hand's result, text pages (rules, log), quit-and-save."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..errors import OptionError
from ..rules import VARIANTS, find_variant
from .config import LEVELS, GameConfig

__all__ = ["QuitScreen", "ResultScreen", "SetupScreen", "TextScreen"]


class TextScreen(ModalScreen[None]):
    """A page of text (the rules summary, the hand log); any of Esc, q, Enter closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,question_mark,l,space", "close", "Close")]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self.body)
            yield Static(Text("↑/↓ scroll · Esc close", style="dim"), id="dialog-keys")

    def action_close(self) -> None:
        self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The hand's result (or the match's end); returns the key chosen: next, new, settle, quit,
    log, analyse."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose('next')", "Next"),
        Binding("n", "choose('new')", "New game"),
        Binding("s", "choose('settle')", "Settle"),
        Binding("l", "choose('log')", "Log"),
        Binding("a", "choose('analyse')", "Analyse"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]

    def __init__(self, title: str, body: Text, keys: str, allowed: set[str]) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.keys = keys
        self.allowed = allowed

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="result"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self.body, id="result-body")
            yield Static(Text(self.keys, style="bold cyan"), id="dialog-keys")

    def retitle(self, title: str) -> None:
        """A new title for the open panel (a hand's result that turned out to end the match)."""
        self.title_text = title
        if self.is_mounted:
            self.query_one("#dialog-title", Static).update(Text(title, style="bold"))

    def action_choose(self, what: str) -> None:
        if what in self.allowed:
            self.dismiss(what)


class QuitScreen(ModalScreen[str]):
    """Quitting mid-game: y saves and quits, n quits, Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,s", "choose('save')", "Save"),
        Binding("n,q", "choose('quit')", "Quit"),
        Binding("escape", "choose('stay')", "Back"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(Text("Quit", style="bold"), id="dialog-title")
            yield Static("Save this game so you can resume it later?\n\n"
                         "  y  save and quit\n  n  quit without saving\n  Esc  keep playing")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


#: Setup rows: (label, config key, choices).  "default" means the variant's own value.
_ROWS: list[tuple[str, str, tuple[Any, ...]]] = [
    ("Variant", "variant", tuple(VARIANTS)),
    ("Players", "players", (2, 3, 4, 5, 6, 7, 8)),
    ("Bots", "level", LEVELS),
    ("Target", "target", ("default", 5, 7, 11, 15, 21, 52)),
    ("Low goes to", "low_to", ("capturer", "holder")),
    ("Following", "follow_rule", ("trump_anytime", "strict_follow", "follow_trump_only")),
    ("Practice", "practice", (False, True)),  # undo works in every game (issue 10, item 6)
]


class SetupScreen(ModalScreen[GameConfig | None]):
    """Choose the game: ↑/↓ a row, ←/→ its value, Enter to start, Esc to go back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", priority=True),
        Binding("down", "move(1)", "Down", priority=True),
        Binding("left", "change(-1)", "Less", priority=True),
        Binding("right,space", "change(1)", "More", priority=True),
        Binding("enter", "start", "Start", priority=True),
        Binding("escape", "cancel", "Back", priority=True),
    ]

    def __init__(self, config: GameConfig) -> None:
        super().__init__()
        rules = config.rules()
        players = config.players or rules.default_players
        self.values: dict[str, Any] = {
            "variant": rules.name if rules.name in VARIANTS else config.variant,
            "players": players,
            "level": config.level,
            "target": config.target if config.target is not None else "default",
            "low_to": rules.low_to,
            "follow_rule": rules.follow_rule,
            "practice": config.practice,
        }
        self.base = config
        self.row = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="setup"):
            yield Static(Text("New game", style="bold"), id="dialog-title")
            for i in range(len(_ROWS)):
                yield Static("", id=f"row{i}", classes="setup-row")
            yield Static("", id="setup-note")
            yield Static(Text("↑/↓ choose · ←/→ change · Enter start · Esc back",
                              style="bold cyan"), id="dialog-keys")

    def on_mount(self) -> None:
        self._render_rows()

    def _fix(self) -> None:
        rules = find_variant(self.values["variant"])
        low, high = rules.player_range
        if low > 2 and self.values["players"] == 2:
            low = 2 if rules.partnership == "off" else low
        self.values["players"] = min(max(self.values["players"], low), high)

    def _render_rows(self) -> None:
        self._fix()
        for i, (label, key, _choices) in enumerate(_ROWS):
            value = self.values[key]
            shown = ("on" if value else "off") if key == "practice" else str(value)
            if key == "target" and find_variant(self.values["variant"]).target is None:
                shown = "none (money)"
            elif key == "target" and value == "default":
                shown = f"default ({find_variant(self.values['variant']).target})"
            line = Text.assemble(("▶ " if i == self.row else "  ", "bold yellow"),
                                 (f"{label:<16}", "bold" if i == self.row else ""),
                                 ("◀ ", "dim"), (shown, "bold cyan" if i == self.row else ""),
                                 (" ▶", "dim"))
            self.query_one(f"#row{i}", Static).update(line)
        note = ""
        try:
            self._config().check()
        except OptionError as exc:
            note = str(exc)
        self.query_one("#setup-note", Static).update(Text(note, style="red"))

    def _config(self) -> GameConfig:
        v = self.values
        rules = find_variant(v["variant"])
        options: dict[str, Any] = {}
        if v["low_to"] != rules.low_to:
            options["low_to"] = v["low_to"]
        if v["follow_rule"] != rules.follow_rule:
            options["follow_rule"] = v["follow_rule"]
        if v["players"] == 2 and not rules.allow_two_players:
            options["allow_two_players"] = True
        target = None if v["target"] == "default" or rules.target is None else int(v["target"])
        return GameConfig(variant=v["variant"], players=int(v["players"]), level=v["level"],
                          target=target, seed=None, practice=bool(v["practice"]),
                          options=options)

    def action_move(self, step: int) -> None:
        self.row = (self.row + step) % len(_ROWS)
        self._render_rows()

    def action_change(self, step: int) -> None:
        _label, key, choices = _ROWS[self.row]
        i = choices.index(self.values[key]) if self.values[key] in choices else 0
        self.values[key] = choices[(i + step) % len(choices)]
        self._render_rows()

    def on_click(self, event: Any) -> None:
        widget = getattr(event, "widget", None)
        wid = getattr(widget, "id", None) or ""
        if wid.startswith("row"):
            self.row = int(wid[3:])
            self.action_change(1)

    def action_start(self) -> None:
        config = self._config()
        try:
            config.check()
        except OptionError:
            return
        self.dismiss(config)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""``pitch score``: keep the score of a real table's Pitch, keyboard first (Textual).

The main screen is the score sheet (:mod:`.score_sheet`); Enter opens the form for the next
hand (:mod:`pitchcards.score_form`: a key per answer); j and l seat and pay out players, u undoes
the last entry, s settles up in the fewest payments, q quits.  Every change is saved at once, and
``pitch score --resume`` (or starting ``pitch score`` again) takes the sheet up where it was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..errors import IllegalActionError, OptionError, PitchError
from ..explain import illegal_text
from ..money import MoneySession
from ..rules import RuleSet, find_variant, parse_money
from ..score_form import HandForm, player_keys
from ..scoresheet import ScoreSheet
from ..storage import SaveError
from .config import parse_option
from .score_sheet import (
    SavedSheet,
    latest_open,
    leave_text,
    load_sheet,
    money_line,
    new_sheet_path,
    payments_text,
    sheet_lines,
)
from .screens import TextScreen

__all__ = ["KEYS", "ScoreApp", "new_sheet", "score_main"]

KEYS = "Enter next hand  j join  l leave  u undo  s settle  q quit"


class HandScreen(ModalScreen["HandForm | None"]):
    """The form for one hand: a key per answer; Enter scores it, Esc drops it."""

    def __init__(self, form: HandForm, title: str) -> None:
        super().__init__()
        self.form = form
        self.title_text = title
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Static("", id="form-so-far")
            yield Static("", id="form-question")
            yield Static("", id="form-choices")
            yield Static("", id="form-error")
            yield Static(Text("Backspace back · Esc drop this hand", style="dim"),
                         id="dialog-keys")

    def on_mount(self) -> None:
        self.refresh_form()

    def refresh_form(self) -> None:
        form = self.form
        so_far = form.so_far()
        if form.step == "confirm" and form.result is not None:
            result = form.result
            outcome = "thrown in" if result.thrown_in else (
                ("made the moon" if result.moon else "made") if result.made else "set")
            changes = ", ".join(f"{form.side_label(side)} {d:+d}"
                                for side, d in enumerate(result.deltas) if d)
            so_far += f"\n→ {outcome}" + (f": {changes}" if changes else "")
        self.query_one("#form-so-far", Static).update(so_far or "")
        self.query_one("#form-question", Static).update(form.question())
        self.query_one("#form-choices", Static).update(form.choices())
        self.query_one("#form-error", Static).update(self.error)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "escape":
            self.dismiss(None)
            return
        key = event.key if event.key in ("enter", "backspace") else (event.character or "")
        if not key:
            return
        if key == "enter" and self.form.step == "confirm":
            self.dismiss(self.form)
            return
        self.error = self.form.key(key) or ""
        self.refresh_form()


class AskScreen(ModalScreen["str | None"]):
    """One line of text (a joining player's name); Enter gives it, Esc drops it."""

    def __init__(self, title: str, note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Input(id="ask")
            yield Static(self.note, id="ask-note")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            event.stop()
            self.dismiss(None)


class PickScreen(ModalScreen["int | None"]):
    """Pick a player by number or initial (who leaves); Esc drops it."""

    def __init__(self, title: str, names: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.names = names
        self.keys = player_keys(names)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Static("  ".join(f"{i + 1} {n}" for i, n in enumerate(self.names)))
            yield Static(Text("Esc: nobody", style="dim"))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "escape":
            self.dismiss(None)
        elif (event.character or "").lower() in self.keys:
            self.dismiss(self.keys[(event.character or "").lower()])


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question: y or Enter yes, n or Esc no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="small"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Static(self.body + "\n\n  y  yes\n  n  no", id="confirm-body")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class SetupScreen(ModalScreen["ScoreSheet | None"]):
    """A new sheet: the players in seat order (the first deals first), the variant, the
    stake.  Enter on the last field starts; Esc quits."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("A new score sheet", style="bold"), id="dialog-title")
            yield Static("Players, in seat order round the table (the first deals first):")
            yield Input(placeholder="Ann Bob Cy Dee Eve", id="setup-names")
            yield Static("Variant (money, auction, auction-partners, setback):")
            yield Input(value="money", id="setup-variant")
            yield Static("Stake per point in dollars (money game):")
            yield Input(value="0.10", id="setup-stake")
            yield Static("", id="setup-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "setup-stake":
            self.focus_next()
            return
        names = self.query_one("#setup-names", Input).value.replace(",", " ").split()
        variant = self.query_one("#setup-variant", Input).value.strip() or "money"
        stake = self.query_one("#setup-stake", Input).value.strip() or "0.10"
        try:
            sheet = new_sheet(names, variant, stake)
        except (PitchError, OptionError) as exc:
            self.query_one("#setup-error", Static).update(Text(str(exc), style="bold red"))
            return
        self.dismiss(sheet)

    def on_key(self, event: events.Key) -> None:
        if event.key == "escape":
            event.stop()
            self.dismiss(None)


def new_sheet(names: list[str], variant: str = "money", stake: str | None = None,
              options: dict[str, object] | None = None, dealer: int = 0) -> ScoreSheet:
    """A new sheet for ``names`` (in seat order) under ``variant`` with its options."""
    rules: RuleSet = find_variant(variant)
    changes = dict(options or {})
    if stake is not None and rules.money != "none":
        changes["stake_per_point"] = parse_money(stake, what="the stake")
    if changes:
        rules = rules.replace(**changes)
    return ScoreSheet.new(rules, names, dealer=dealer)


class ScoreApp(App[None]):
    """``pitch score``."""

    #: the table's look (table.tcss) and the sheet's and form's own (score.tcss), as package data
    CSS_PATH: ClassVar[list[str | PurePath]] = ["table.tcss", "score.tcss"]
    TITLE = "Pitch score"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "hand", "Next hand"),
        Binding("j", "join", "Join"),
        Binding("l", "leave", "Leave"),
        Binding("u", "undo", "Undo"),
        Binding("s", "settle", "Settle"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, saved: SavedSheet | None = None, offer: bool = True) -> None:
        super().__init__()
        self.saved = saved
        self.offer = offer

    @property
    def sheet(self) -> ScoreSheet:
        assert self.saved is not None
        return self.saved.sheet

    def compose(self) -> ComposeResult:
        yield Static("", id="top")
        with VerticalScroll(id="sheetbox"):
            yield Static("", id="sheet")
        yield Static("", id="message")
        yield Static("", id="prompt")
        yield Static(KEYS, id="keys")

    def on_mount(self) -> None:
        if self.saved is not None:
            self.show()
            return
        found = latest_open() if self.offer else None
        if found is not None:
            path, players, hands = found
            self.push_screen(ConfirmScreen(
                "Resume?", f"An open sheet: {', '.join(players)}, {hands} hands so far.\n"
                "Go on with it?"), lambda yes: self._resumed(path) if yes else self._setup())
        else:
            self._setup()

    def _resumed(self, path: Path) -> None:
        try:
            self.saved = SavedSheet(load_sheet(path), path)
        except (OSError, PitchError) as exc:
            self.say(f"Could not resume {path}: {exc}")
            self._setup()
            return
        self.show(f"Resumed {path.name}")

    def _setup(self) -> None:
        def started(sheet: ScoreSheet | None) -> None:
            if sheet is None:
                self.exit()
                return
            self.saved = SavedSheet(sheet, new_sheet_path())
            self.changed("A new sheet: press Enter for the first hand")
        self.push_screen(SetupScreen(), started)

    # ------------------------------------------------------------------ showing
    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def show(self, message: str | None = None) -> None:
        sheet = self.sheet
        session = sheet.session
        kind = session.rules.name
        self.query_one("#top", Static).update(Text(
            f"Pitch score — {kind}, {money_line(sheet)} — {', '.join(session.names)}",
            style="bold"))
        self.query_one("#sheet", Static).update("\n".join(sheet_lines(sheet)))
        self.query_one("#sheetbox", VerticalScroll).scroll_end(animate=False)  # the last hand
        if session.is_over:
            prompt = "The sheet is closed." + (
                f" Settle: {payments_text(sheet.settlement()) or 'nobody owes anything'}"
                if sheet.money is not None else "")
        else:
            dealer = session.names[session.next_dealer]
            prompt = f"Hand {len(session.results) + 1}: {dealer} deals — Enter to enter it"
        self.query_one("#prompt", Static).update(prompt)
        if message is not None:
            self.say(message)

    def changed(self, message: str) -> None:
        """Save the sheet at once, then show it."""
        assert self.saved is not None
        try:
            self.saved.save()
        except SaveError as exc:
            message += f" (NOT SAVED: {exc})"
        self.show(message)

    def _refusal(self, exc: PitchError) -> str:
        if isinstance(exc, IllegalActionError):
            return f"{illegal_text(exc)} {exc}"
        return str(exc)

    # ------------------------------------------------------------------ keys
    def _open(self) -> bool:
        if self.saved is None:
            return False
        if self.sheet.session.is_over:
            self.say("The sheet is closed: u undoes the settlement, q quits")
            return False
        return True

    def _do(self, change: Callable[[], str]) -> None:
        """Make a change to the sheet and save it; a refusal is said, nothing changed."""
        try:
            message = change()
        except PitchError as exc:
            self.say(self._refusal(exc))
            return
        self.changed(message)

    def _money_open(self) -> MoneySession | None:
        """The money session, when the sheet is open and plays for money."""
        if not self._open():
            return None
        session = self.sheet.money
        if session is None:
            self.say("Players join, leave and settle in the money game only")
            return None
        return session

    def action_hand(self) -> None:
        if not self._open():
            return
        session = self.sheet.session
        form = HandForm(session.rules, list(session.names), session.next_dealer)
        title = (f"Hand {len(session.results) + 1} — "
                 f"{session.names[session.next_dealer]} deals")

        def entered(done: HandForm | None) -> None:
            if done is None:
                self.say("Hand dropped")
                return

            def enter() -> str:
                self.sheet.enter(done.outcome())
                return f"Hand {len(session.results)}: {done.so_far()}"
            self._do(enter)
        self.push_screen(HandScreen(form, title), entered)

    def action_join(self) -> None:
        if self._money_open() is None:
            return

        def joined(name: str | None) -> None:
            def join() -> str:
                self.sheet.join(name or "")
                return f"{name} joins, to the right of the next dealer"
            if name:
                self._do(join)
        self.push_screen(AskScreen("Who joins?", "Their name; Enter seats them, Esc drops it"),
                         joined)

    def action_leave(self) -> None:
        session = self._money_open()
        if session is None:
            return

        def picked(seat: int | None) -> None:
            if seat is not None:
                self._do(lambda: leave_text(self.sheet.leave(session.players[seat])))
        self.push_screen(PickScreen("Who leaves?", list(session.players)), picked)

    def action_undo(self) -> None:
        if self.saved is not None:
            self._do(lambda: f"Undone: {self.sheet.undo()}")

    def action_settle(self) -> None:
        if self._money_open() is None:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            payments = self.sheet.settle()
            text = payments_text(payments) or "Nobody owes anything."
            self.changed(f"Settled: {text}")
            self.push_screen(TextScreen("Settle up", "\n".join(
                [p.text() for p in payments] or ["Nobody owes anything."])))
        self.push_screen(ConfirmScreen("Settle up?", "End the session and pay everyone?"),
                         answered)

    async def action_quit(self) -> None:
        self.exit()


def score_main(names: list[str], variant: str, stake: str | None, options: list[str],
               resume: str | None) -> int:
    """``pitch score`` from the command line: a new sheet for ``names``, the sheet in
    ``resume`` (``""``: the last open one), or the setup form (offering the last open sheet)."""
    saved: SavedSheet | None = None
    try:
        if resume is not None:
            if names:
                raise OptionError("give players for a new sheet, or --resume, not both")
            if resume:
                path = Path(resume)
            else:
                found = latest_open()
                if found is None:
                    raise OptionError("no open score sheet to resume; start one with "
                                      "pitch score NAME NAME ...")
                path = found[0]
            saved = SavedSheet(load_sheet(path), path)
        elif names:
            changes = dict(parse_option(text) for text in options)
            saved = SavedSheet(new_sheet(names, variant, stake, changes), new_sheet_path())
            saved.save()
    except (PitchError, OSError) as exc:
        print(f"pitch score: {exc}", file=sys.stderr)
        return 2
    ScoreApp(saved).run()
    return 0

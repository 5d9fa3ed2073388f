"""The analysis of a finished match in ``pitch play`` (``a`` on the match's result, issue 33):
computed on a worker thread with its progress shown; Esc cancels it and closes the page."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["AnalysisCancelled", "AnalysisScreen", "analyse_text"]

#: ``analyse(record_text, progress)`` -> the report; ``progress(done, total)`` after each
#: decision (it raises :class:`AnalysisCancelled` once the page is closed)
Analyse = Callable[[str, Callable[[int, int], None]], str]


#: sampled deals per decision (None: the default, :data:`~pitchcards.analysis.ANALYSIS_BUDGET`)
DEALS: int | None = None


class AnalysisCancelled(Exception):
    """The page was closed before the analysis finished."""


def analyse_text(record_text: str, progress: Callable[[int, int], None]) -> str:
    """The whole record's analysis, as ``pitch analyze`` prints it (imported only when asked
    for: the search is not loaded to play)."""
    from ..analysis import ANALYSIS_BUDGET, AnalysisBudget, analyse_record
    from ..analysis_text import report
    from ..notation import read_record

    budget = ANALYSIS_BUDGET if DEALS is None else AnalysisBudget(DEALS, DEALS)
    return report(analyse_record(read_record(record_text), budget, progress=progress))


class AnalysisScreen(ModalScreen[None]):
    """The analysis page: progress while the worker runs, then the report; Esc closes it (and
    stops the worker at its next decision)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", "Close")]

    def __init__(self, record_text: str, analyse: Analyse = analyse_text) -> None:
        super().__init__()
        self.record_text = record_text
        self.analyse = analyse
        self.cancel = threading.Event()
        self.outcome: str | None = None    #: "done", "cancelled" or "failed", once the worker ends

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("Analysis of the match", style="bold"), id="dialog-title")
            yield Static("Analysing…", id="analysis-progress")
            with VerticalScroll(id="dialog-body"):
                yield Static("", id="analysis-body")
            yield Static(Text("↑/↓ scroll · Esc close (stops the analysis)", style="dim"),
                         id="dialog-keys")

    def on_mount(self) -> None:
        # the app's worker, not the page's: closing the page stops it through ``cancel`` at
        # its next decision, and the app still knows when the thread has ended
        self.app.run_worker(self._work, thread=True, group="analysis", exit_on_error=False)

    def _work(self) -> None:
        def progress(done: int, total: int) -> None:
            if self.cancel.is_set():
                raise AnalysisCancelled
            self.app.call_from_thread(self._progress, done, total)

        try:
            text = self.analyse(self.record_text, progress)
        except AnalysisCancelled:
            self.outcome = "cancelled"
            return
        except Exception as exc:  # said on the page, never left "analysing"
            self.outcome = "failed"
            if not self.cancel.is_set():
                self.app.call_from_thread(self._show, "The analysis failed",
                                          f"{type(exc).__name__}: {exc}")
            return
        self.outcome = "done"
        if not self.cancel.is_set():
            self.app.call_from_thread(self._show, "Analysis done", text)

    def _progress(self, done: int, total: int) -> None:
        if not self.cancel.is_set():
            self.query_one("#analysis-progress", Static).update(
                f"Analysing: decision {done} of {total}…")

    def _show(self, status: str, body: str) -> None:
        self.query_one("#analysis-progress", Static).update(Text(status, style="bold"))
        self.query_one("#analysis-body", Static).update(Text(body))

    def action_close(self) -> None:
        self.cancel.set()
        self.dismiss(None)

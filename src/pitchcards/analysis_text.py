"""The analysis of a game as text (``pitch analyze``): each hand with its decisions annotated in
the terminal game's words, then a summary per player."""

from __future__ import annotations

from .analysis import LABELS, NOISE_Z, PLURALS, Decision, GameAnalysis, PlayerSummary

__all__ = ["report"]


def report(analysis: GameAnalysis) -> str:
    """The whole report: a heading, every hand's decisions, the summary per player."""
    b = analysis.budget
    thresholds = ", ".join(f"{name} from {least:g}" for name, least in analysis.thresholds.items())
    lines = [f"Analysis from each player's own view: {b.bid_worlds} sampled deals a bid, "
             f"{b.worlds} a card, seed {analysis.seed}; values are the expected net score "
             f"change (your side's points minus the best other side's).",
             f"A loss is labelled only beyond {NOISE_Z:g} standard errors: {thresholds} points. "
             f"Open-hand values (every card seen) are hindsight."]
    if any(d.chance_loss is not None for d in analysis.decisions):
        lines.append("Near the match's end, [match ...] gives the chance to win the match "
                     "the choice leaves, and the best's where it is higher; points given up "
                     "for a better chance to win the match are never labelled.")
    by_hand: dict[int, list[Decision]] = {}
    for d in analysis.decisions:
        by_hand.setdefault(d.hand, []).append(d)
    for info in analysis.hands:
        number = info["hand"]
        lines += ["", f"hand {number}, dealer {info['dealer_name']}"]
        lines += [f"  {_decision_line(d)}" for d in by_hand.get(number, [])]
        if info["result"]:
            lines.append(f"  result: {info['result']}")
    lines += ["", "summary (points lost against the best choice, from each player's view)"]
    width = max([len(s.player) for s in analysis.summaries] + [6])
    lines.append(f"  {'player':<{width}}  choices  auction   play  total  "
                 + "  ".join(PLURALS[name] for name, _ in reversed(LABELS)))
    for s in analysis.summaries:
        lines.append(_summary_line(s, width))
    if any(d.chance_loss is not None for d in analysis.decisions):
        lines.append("  most chance to win the match given up in one decision: " + ", ".join(
            f"{s.player} {s.chance_loss:.0%}" for s in analysis.summaries))
    for s in analysis.summaries:
        if s.costliest:
            worst = "; ".join(f"hand {d.hand} {d.candidate(d.action).label} "
                              f"(best {d.candidate(d.best).label}) -{d.loss:.2f}"
                              for d in s.costliest)
            lines.append(f"  {s.player} costliest: {worst}")
    return "\n".join(lines) + "\n"


def _decision_line(d: Decision) -> str:
    """One decision: who, what, its value; the loss, label and best where it was not the best."""
    chosen = d.candidate(d.action)
    head = f"{d.player}: {chosen.label}"
    if d.forced:
        return f"{head} (the only legal choice)"
    text = f"{head} {chosen.value:+.2f}"
    if d.best != d.action:
        best = d.candidate(d.best)
        label = (f" {d.label.upper()}" if d.label
                 else ", for the match (it wins the match more often)" if d.for_the_match
                 else "")
        text += (f", loss {d.loss:.2f} ± {d.loss_se:.2f}{label}; best {best.label} "
                 f"{best.value:+.2f}: {d.words}")
    if d.chance_loss is not None:
        text += _chance_text(d)
    sights = [c.hindsight for c in d.candidates if c.hindsight is not None]
    if chosen.hindsight is not None and sights:
        text += f" [open hand {chosen.hindsight:+.1f}, best {max(sights):+.1f}]"
    return text


def _chance_text(d: Decision) -> str:
    """The chance to win the match the choice leaves, and the best's where it is higher."""
    chosen = d.candidate(d.action).chance
    assert chosen is not None and d.chance_loss is not None
    if d.chance_loss <= 0:
        return f" [match {chosen:.0%}]"
    top = max(d.candidates, key=lambda c: c.chance or 0.0)
    return f" [match {chosen:.0%}, {top.label} {top.chance or 0.0:.0%}]"


def _summary_line(s: PlayerSummary, width: int) -> str:
    counts = "  ".join(f"{s.labels.get(name, 0):>{len(PLURALS[name])}}"
                       for name, _ in reversed(LABELS))
    return (f"  {s.player:<{width}}  {s.choices:>7}  {s.auction_loss:>7.2f}  {s.play_loss:>5.2f}"
            f"  {s.loss:>5.2f}  {counts}")

"""The table screen's lines of words: the top bar, the contract beside the bid bar, the prompt
(what the keys do now), the hint, and what a bid, a join or a leave says on the message line.

UI-free (rich text, no Textual): each is built from the game (:class:`~.game.TableGame`), your
View and what is chosen (:class:`~.choices.Choices`), so the screen only puts them in place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from ..actions import Action, parse_action
from ..cards import SUITS
from ..events import ActionTaken, PlayerJoined, PlayerLeft
from ..explain import bid_word
from ..money import cents_text
from ..views import View
from .calling import call_line
from .choices import CALL_KEYS, Choices, bid_keys, shown_cards
from .game import TableGame
from .text import action_text, card_text, discard_prompt, suit_text
from .words import possessive, sentence, verb

if TYPE_CHECKING:
    from .remote import Clock

__all__ = ["WARN_S", "action_said", "clock_top_line", "clock_words", "hint_line", "info_line",
           "news_line", "prompt_line", "timed_out_said", "top_line", "warns"]

#: The last seconds in which the player to act is warned (the browser's too: clock.js).
WARN_S = 10


def top_line(game: TableGame, pace: str, keys: str) -> Text:
    """The top bar: the game, the hand, the pace and the keys for the whole game."""
    rules = game.rules
    top = Text()
    top.append("Pitch ", style="bold")
    top.append(f"· {rules.name} · ")
    top.append(f"to {rules.target} · " if rules.target else "for money · ")
    top.append(f"hand {game.hand_number} · pace {pace}")
    if game.config.practice:
        top.append(" · practice", style="yellow")
    top.append(keys, style="dim")
    return top


def clock_words(seconds: float) -> str:
    """"0:42", "1:05:00": whole seconds, rounded up (a clock at 0.2 s has not run out)."""
    s = max(0, math.ceil(seconds))
    hours, minutes, rest = s // 3600, s % 3600 // 60, s % 60
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def warns(clock: Clock) -> bool:
    """A turn clock in its last seconds (the last third of a short timer)."""
    return clock.kind == "turn" and clock.left <= min(WARN_S, clock.total / 3)


def clock_top_line(game: TableGame, clocks: Sequence[Clock]) -> Text:
    """The top bar while a clock runs at a server table: the game and hand, then whoever must
    act and their time left (yours in red in its last seconds), and a dropped player's grace
    (issue 30, finding 1).  It replaces the pace and the keys, which the bar has no room for."""
    top = Text(no_wrap=True, overflow="ellipsis")
    top.append(f"{game.rules.name} · hand {game.hand_number}", style="bold")
    for clock in sorted(clocks, key=lambda c: c.kind != "turn"):
        mine = clock.seat == game.human_seat
        top.append(" · ")
        if clock.kind == "turn" and mine:
            top.append(f"Your turn: {clock_words(clock.left)} left",
                       style="bold white on red" if warns(clock) else "bold yellow")
        elif clock.kind == "turn":
            top.append(f"{clock.name}: {clock_words(clock.left)} to act")
        elif not mine:
            top.append(f"{clock.name} offline: a bot plays "
                       + (f"in {clock_words(clock.left)}" if clock.left > 0 else "now"),
                       style="dim")
    return top


def timed_out_said(game: TableGame, event: ActionTaken) -> Text:
    """A stand-in's move because the turn timer ran out (the server's ``timed_out``): "Time
    ran out — a bot played for you." and what it played."""
    if event.seat == game.human_seat:
        head = "Time ran out — a bot played for you."
    else:
        head = f"Time ran out for {game.name(event.seat)} — a bot played for them."
    return Text.assemble((head, "bold yellow"), " ", action_said(game, event))


def info_line(game: TableGame, view: View) -> Text:
    """Beside the bid bar (in play, where it is hidden): the contract and the trick."""
    out = Text()
    if view.phase in ("declare", "discard") and view.pitcher is not None:
        who = game.name(view.pitcher)
        out.append(sentence(who, "bid (past)", bid_word(view.rules, view.contract)))
        if view.trump is not None:
            out.append(" in ")
            out.append_text(suit_text(view.trump))
    if view.phase == "play" and view.pitcher is not None:
        who = game.name(view.pitcher)
        if view.trump is None:  # setback: the pitcher's first lead names trump
            out.append(sentence(who, "bid (past)", bid_word(view.rules, view.contract))
                       + "; trump: the first lead")
        else:
            out.append(sentence(who, "bid (past)",
                                bid_word(view.rules, view.contract) + " in "))
            out.append_text(suit_text(view.trump))
        out.append(f" · trick {min(len(view.tricks) + 1, 6)} of 6", style="dim")
    called = call_line(game.name, view)  # CP3, CP5: the called card, the secret, the reveal
    if called.plain:
        out.append("\n" if out.plain else "")
        out.append_text(called)
    return out


def prompt_line(game: TableGame, view: View, choices: Choices, mine: bool,
                stalled: str | None = None, waiting: bool = False) -> Text:
    """The prompt line: what the keys do now, in the words of the keys (the legend)."""
    out = Text()
    if stalled is not None:  # a bot that cannot move: say so where you look
        out.append(f"{stalled}. n new game, q quit (and save)", style="bold red")
    elif waiting:
        out.append("Trick over: ", style="bold yellow")
        out.append("press Enter for the next one (pace: wait; f changes it)")
    elif view.phase == "over":
        out.append("Hand over.", style="bold")
    elif not mine:
        seat = view.seat_to_act
        if seat is not None:
            if game.level(seat) == "offline":  # a person at a server table, gone
                out.append(f"Waiting for {game.name(seat)} (offline)…", style="italic")
            else:
                out.append(sentence(game.name(seat), "think") + "…", style="italic")
    elif view.phase == "declare":  # T5
        _declare_prompt(out, view, choices)
    elif view.phase == "call":  # CP3
        if choices.choice is not None:
            _enter_does(out, view, choices.choice)
        else:
            out.append("Call your partner's card: ", style="bold yellow")
            out.append(CALL_KEYS + " (h: a hint); Enter calls it")
    elif view.phase == "discard":  # T4
        _discard_prompt(out, view, choices)
    elif view.phase == "auction":
        can_pitch = any(a.kind == "pitch" for a in view.legal_actions)
        if choices.choice is not None:
            _enter_does(out, view, choices.choice)
        else:
            out.append("Your bid: ", style="bold yellow")
            out.append(bid_keys(view) + " chooses a bid"
                       + (", ←→ a card to pitch" if can_pitch else "") + "; Enter confirms")
    else:
        cards = shown_cards(view)
        if choices.selected is not None and choices.selected < len(cards):
            out.append("Enter: ", style="bold yellow")
            out.append("play ")
            out.append_text(card_text(cards[choices.selected]))
            out.append("  (←→ or 1-6 chooses another)", style="dim")
        else:
            out.append("Your turn: ", style="bold yellow")
            out.append("←→ or 1-6 chooses a card; Enter plays it")
    return out


def _enter_does(out: Text, view: View, action: Action) -> None:
    """"Enter: bid 3  (choose again, or Esc)": the auction's choice, and how to change it."""
    out.append("Enter: ", style="bold yellow")
    out.append_text(action_text(view.rules, action))
    out.append("  (choose again, or Esc)", style="dim")


def _declare_prompt(out: Text, view: View, choices: Choices) -> None:
    """T5: the pitcher names trump."""
    if choices.choice is not None:
        _enter_does(out, view, choices.choice)
    else:
        out.append("Name trump: ", style="bold yellow")
        out.append("1 ♣  2 ♦  3 ♥  4 ♠ chooses a suit (h: a hint); Enter confirms")


def _discard_prompt(out: Text, view: View, choices: Choices) -> None:
    """T4: "Discard 3 cards face down (2 left)", and what Enter does."""
    out.append(discard_prompt(view) + ": ", style="bold yellow")
    cards = shown_cards(view)
    if choices.selected is not None and choices.selected < len(cards):
        out.append("Enter discards ")
        out.append_text(card_text(cards[choices.selected]))
    else:
        out.append(f"←→ or 1-{min(len(cards), 9)} chooses; Enter discards it")


def hint_line(view: View, action: Action, reason: str) -> Text:
    """"Hint: <action> — <reason>", or "Hint: <reason>" when the reason begins by naming the
    action ("bid 2 in ♣; …", "pass; …"): the message area has two lines, for the numbers."""
    said = action_text(view.rules, action)
    rest = reason[len(said.plain):]
    if reason.startswith(said.plain) and not rest[:1].isalnum():
        return Text.assemble(("Hint: ", "bold magenta"), said, rest)
    return Text.assemble(("Hint: ", "bold magenta"), said, f" — {reason}")


def action_said(game: TableGame, event: ActionTaken) -> Text:
    """"Ann: bid 3"; "Ann names trump ♥" (T5); "Ann discards a card." (T4: never
    which, whatever the event says)."""
    who = game.name(event.seat)
    if event.action.split()[0] == "discard":
        # "face down" is the table's and the prompt's to say: once each, not on every card
        return Text(sentence(who, "discard", "a card") + ".", style="italic")
    action = parse_action(event.action)
    if action.kind == "trump" and action.suit is not None:
        return Text.assemble(sentence(who, "name", "trump "), suit_text(SUITS[action.suit]))
    if action.kind == "call" and action.card is not None:  # CP3: the call is public
        return Text.assemble(sentence(who, "call (past)") + " ", card_text(action.card),
                             f": its holder is {possessive(who)} secret partner.")
    return Text.assemble(f"{who}: ", action_text(game.rules, action))


def news_line(game: TableGame, event: PlayerJoined | PlayerLeft) -> str:
    """A join or a leave in words: "Dee joins the table, to the right of the dealer."."""
    if isinstance(event, PlayerJoined):
        level = game.levels.get(event.name)
        who = f"{event.name} ({level})" if level else event.name
        text = sentence(who, "join", "the table, to the right of the dealer")
    else:
        text = sentence(event.name, "leave", "and " + verb(event.name, "be") +
                        f" paid {cents_text(event.cents)}")  # the engine's cents
    return text + "."

"""The rules and help pages (``/rules``, ``/help``; issue 30): plain HTML, no script.  The rules
are the engine's own sentences for each variant (:func:`pitchcards.explain.rules_summary`, the
terminal game's rules page and the new-table form say the same); the help says how to play at
the browser table."""

from __future__ import annotations

from html import escape

from fastapi.responses import HTMLResponse

from ..explain import rules_summary
from ..rules import VARIANTS
from .pages import page_shell
from .scores import VARIANT_WORDS

__all__ = ["help_page", "rules_page"]

_NAV = ('<p class="page-links"><a href="/">Play</a> · <a href="/rules">Rules</a> · '
        '<a href="/help">Help</a> · <a href="/score">Scorekeeper</a> · '
        '<a href="/leaderboards">Leaderboards</a></p>')


def _summary_html(text: str) -> str:
    """rules_summary's text as HTML: its title line left out, a heading per section
    ("AUCTION  Bids: …"), a paragraph for the rest."""
    out = []
    for block in text.split("\n\n")[1:]:
        head, sep, rest = block.partition("  ")
        if sep and head.isupper():
            out.append(f"<h3>{escape(head.capitalize())}</h3><p>{escape(rest)}</p>")
        else:
            out.append(f"<p>{escape(block)}</p>")
    return "".join(out)


def rules_page() -> HTMLResponse:
    """Each variant's rules at its usual table size, in the engine's words."""
    parts = [_NAV, "<p>Pitch is a trick-taking game: bid for the right to name trump, then win "
             "the points you bid — High, Low, Jack and Game. Each game below is played here "
             "as it is written; the new-table form says what each option changes.</p>",
             "<nav aria-label=\"Games\"><ul>"]
    parts += [f'<li><a href="#{escape(name)}">{escape(VARIANT_WORDS.get(name, name))}</a></li>'
              for name in VARIANTS]
    parts.append("</ul></nav>")
    for name, rules in VARIANTS.items():
        parts.append(f'<section id="{escape(name)}"><h2>{escape(VARIANT_WORDS.get(name, name))}'
                     f"</h2>{_summary_html(rules_summary(rules, rules.default_players))}"
                     "</section>")
    return page_shell("The rules", "rules", "".join(parts), styles=("home",), script=False)


_HELP = """
<h2>Start a game</h2>
<p><strong>Play against bots</strong> on the home page starts a game of Auction pitch with three
bots at once. <strong>More options</strong> makes any table: the game, the number of players,
each seat a bot or a friend, the rules, a turn timer, a listed table anyone may watch. Send the
invite link to friends; they take a seat from it.</p>
<h2>At the table</h2>
<p>Tap a card to pick it and tap it again to play it (or press Enter). A card you may not play
is dimmed; tapping it says why the server refuses it. In the auction tap a bid or Pass. The
star ★ beside a bid marks the pitcher, the player who won the bid.</p>
<p>The settings (under the score sheet) change the theme, the four-colour deck, card motion,
sounds, whether the chat is shown, and how long a finished trick stays on the felt: 0.6 s,
1.5 s, 3 s, or until you tap. The trick's winner is named in the middle of the felt.</p>
<p>The chat has quick reactions ("Good game", "Thanks"…); they are ordinary chat lines.</p>
<p><strong>Your statistics</strong> on the home page count the matches this browser played:
per game, matches, wins, contracts made and points per hand. They stay on this device.</p>
<h2>An account, if you want one</h2>
<p>You never need one to play. <a href="/account">Sign in</a> (the link at the top of the home
page) to register a name that stays yours: it gets a rating in each kind of game, a profile
with your rating over time and your recent rated matches, and a place on the
<a href="/leaderboards">leaderboards</a> once the rating is settled. On the same page you sign
out (here or everywhere), change your password, make API tokens for the terminal game or a
bot, and delete the account.</p>
<h2>Keys</h2>
<p>← → or 1–6 choose a card, p pass, m the moon, Enter or Space play or bid, Esc forget the
choice, t the last trick, g the score sheet, f card motion, ? the list of keys.</p>
<h2>Keeping score of a real game</h2>
<p>The <a href="/score">scorekeeper</a> keeps the score sheet of a game played with real cards,
and a second phone can follow it.</p>
"""


def help_page() -> HTMLResponse:
    """How to play at the browser table."""
    return page_shell("Help", "help", _NAV + _HELP, styles=("home",), script=False)

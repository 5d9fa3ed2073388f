"""Every sentence the screen says about a player, with the grammar for "you" and for others.

One place decides "You bid" / "Ann bids", "you were set" / "Ann was set", "1 player" /
"3 players", so no screen text builds a sentence around a name by hand (issue 10, item 8).
A *who* is a player's name, ``HUMAN`` ("You"), or a partnership "You & Cy" (plural).
"""

from __future__ import annotations

__all__ = ["HUMAN", "VERBS", "count", "is_plural", "possessive", "sentence", "verb", "who_word"]

#: Your name at the table (game records carry it; the grammar below treats it as "you").
HUMAN = "You"

#: verb -> (third person singular, plural / "you").  Irregular forms are listed whole.
VERBS: dict[str, tuple[str, str]] = {
    "bid": ("bids", "bid"),
    "bid (past)": ("bid", "bid"),
    "be": ("is", "are"),
    "be (past)": ("was", "were"),
    "win": ("wins", "win"),
    "take": ("takes", "take"),
    "lead": ("leads", "lead"),
    "pass": ("passes", "pass"),
    "pass (past)": ("passed", "passed"),
    "pitch": ("pitches", "pitch"),
    "play": ("plays", "play"),
    "join": ("joins", "join"),
    "leave": ("leaves", "leave"),
    "deal": ("deals", "deal"),
    "make": ("makes", "make"),
    "make (past)": ("made", "made"),
    "think": ("is thinking", "are thinking"),
    "have": ("has", "have"),
    "name": ("names", "name"),              # T5: the pitcher names trump
    "name (past)": ("named", "named"),
    "discard": ("discards", "discard"),     # T4: face down
    "call (past)": ("called", "called"),    # CP3: the pitcher's call
    "play (past)": ("played", "played"),
    "hold (past)": ("held", "held"),
}


def is_plural(who: str) -> bool:
    """"You" takes plural verbs ("you bid"), and so does a partnership ("You & Cy win")."""
    return who == HUMAN or " & " in who


def verb(who: str, name: str) -> str:
    """The form of verb ``name`` (a key of :data:`VERBS`) that agrees with ``who``."""
    singular, plural = VERBS[name]
    return plural if is_plural(who) else singular


def who_word(who: str, start: bool = True) -> str:
    """``who`` as the subject: "You" at the start of a sentence, "you" inside one."""
    if who == HUMAN:
        return HUMAN if start else HUMAN.lower()
    return who


def possessive(who: str) -> str:
    """"your" / "Ann's"."""
    return "your" if who == HUMAN else f"{who}'s"


def sentence(who: str, name: str, rest: str = "", start: bool = True) -> str:
    """``who`` + the agreeing verb + ``rest``: ``sentence("You", "bid", "first")`` is
    "You bid first", ``sentence("Ann", "bid", "first")`` "Ann bids first"."""
    out = f"{who_word(who, start)} {verb(who, name)}"
    return f"{out} {rest}" if rest else out


def count(n: int, noun: str, plural: str | None = None) -> str:
    """"1 player", "3 players" (``plural`` for irregular nouns)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"

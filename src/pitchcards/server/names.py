"""When two display names are the same name: a key that sees through lookalikes.

``Аlpha`` (a Cyrillic А), ``Ａlpha`` (full-width) and ``alpha`` must not sit beside ``Alpha``
(issue 31, finding 11).  Standard library only (``unicodedata``), in three steps:

1. **NFKC** folds compatibility forms (full-width, ligatures, superscripts) to plain letters;
2. **case folding** (``str.casefold``) makes ``alpha`` and ``ALPHA`` one name;
3. a **mixed-script check** refuses a name whose letters come from more than one script (Latin
   with Cyrillic or Greek …; Han, Hiragana, Katakana and Hangul count as one script, as
   Japanese and Korean names mix them), and a small **skeleton** maps the Cyrillic and Greek
   letters that look like Latin ones (a subset of Unicode's confusables, UTS #39) to those, so a
   name written wholly in Cyrillic lookalikes (``Аре``) is the same as its Latin twin (``Ape``).

Not the full UTS #39 skeleton (its data is not in the standard library): lookalikes from other
scripts (Armenian, Cherokee …) written wholly in that script are not matched.
"""

from __future__ import annotations

import unicodedata

__all__ = ["mixed_scripts", "name_key"]

#: Scripts written together in one name (Japanese, Korean)
_EAST_ASIAN = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL", "KATAKANA-HIRAGANA"})

#: Cyrillic and Greek letters (after NFKC and case folding) that look like Latin ones
_SKELETON = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s",
    "т": "t", "ц": "u", "ѵ": "v", "ԝ": "w", "х": "x", "у": "y", "ү": "y", "з": "3",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u", "ω": "w",
    # Latin letters that look like others
    "ı": "i", "ł": "l", "ø": "o",
})


def _script(ch: str) -> str | None:
    """The script of a letter, from its Unicode name (``CYRILLIC CAPITAL LETTER A``:
    ``CYRILLIC``); None for what is not a letter (digits, spaces, ``.'-``)."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    word = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return "CJK" if word in _EAST_ASIAN else word


def mixed_scripts(name: str) -> list[str]:
    """The scripts of ``name``'s letters if there are more than one (a lookalike in the
    making: ``Аlpha`` is Cyrillic and Latin), else ``[]``."""
    scripts = sorted({s for ch in unicodedata.normalize("NFKC", name)
                      if (s := _script(ch)) is not None})
    return scripts if len(scripts) > 1 else []


def name_key(name: str) -> str:
    """The name two display names share when people would take them for one: NFKC, case
    folding, the lookalike skeleton, accents kept (``Zoë`` and ``Zoe`` are two names)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded.translate(_SKELETON))

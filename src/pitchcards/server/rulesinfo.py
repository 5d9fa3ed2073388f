"""What the browser's new-table form shows about the rules: each variant with its table sizes,
every option with its choices, and — for the options as chosen — the rules page's sentence for
each (:mod:`pitchcards.explain`, the same words as the terminal game's rules page)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..explain import OPTION_SECTIONS, option_text, rules_summary, shown_options
from ..rules import VARIANTS, RuleSet
from ..views import rules_to_dict

__all__ = ["fit_players", "rules_info", "variants_info"]

#: Options outside the rules page's sentences, with how the form asks for them.
_NUMBERS = (("GOAL", "target", "number"), ("MONEY", "stake_per_point", "money"),
            ("MONEY", "moon_payment", "money"))


def _json(value: Any) -> Any:
    return str(value) if isinstance(value, Fraction) else value


def _options() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for section, names in OPTION_SECTIONS:
        for name in names:
            choices = RuleSet.OPTION_CHOICES.get(name)
            out.append({"name": name, "section": section or "TABLE",
                        "kind": "choice" if choices is not None else "bool",
                        "choices": list(choices) if choices is not None else [True, False]})
    out += [{"name": n, "section": s, "kind": k, "choices": None} for s, n, k in _NUMBERS]
    return out


def variants_info() -> dict[str, Any]:
    """``GET /api/variants``: every named variant (its options' values, table sizes) and every
    option (its section of the rules page, kind and choices)."""
    options = _options()
    variants = []
    for name, rules in VARIANTS.items():
        low, high = rules.player_range
        variants.append({
            "name": name, "money": rules.money != "none",
            "players": {"min": low, "max": high, "default": rules.default_players},
            "teams": rules_to_dict(rules)["teams"],
            "values": {o["name"]: _json(getattr(rules, o["name"])) for o in options}})
    return {"variants": variants, "options": options}


def fit_players(rules: RuleSet, asked: int | None) -> int:
    """The table size nearest ``asked`` that ``rules`` allow (their default without one): what
    ``POST /api/rules`` explains under ``fit_players``, so the form's options may move the
    range without a refusal."""
    if asked is None:
        return rules.default_players
    low, high = rules.player_range
    return rules.check_players(min(max(asked, low), high))


def rules_info(rules: RuleSet, players: int) -> dict[str, Any]:
    """``POST /api/rules``: the rules as chosen — each option's value, the sentence that says
    it, and whether it matters under the others — and the whole rules page."""
    options = {}
    for o in _options():
        name = o["name"]
        text = option_text(rules, name, players) if o["kind"] in ("choice", "bool") else ""
        options[name] = {"value": _json(getattr(rules, name)), "text": text,
                         "shown": shown_options(rules, name)}
    return {"rules": rules_to_dict(rules, resolved=True), "players": players, "options": options,
            "summary": rules_summary(rules, players)}

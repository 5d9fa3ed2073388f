"""The scorekeeper on ``pitch serve`` (``/score``, issue 16): score sheets of real tables, kept
on the server so a second phone can follow them.

Routes (docs/protocol.md, "HTTP"; docs/web.md, "The scorekeeper at /score")::

    POST /api/scores                 a new sheet (NewSheet) -> {id, token, url, version}
    GET  /api/scores/{id}            the sheet, laid out (?since=n: {"version": n} if unchanged)
    POST /api/scores/{id}/hands      a hand's outcome (EnterHand; preview: checked, not kept)
    POST /api/scores/{id}/join       a player sits down (money)           (Bearer edit token)
    POST /api/scores/{id}/leave      a player leaves and is paid (money)  (Bearer edit token)
    POST /api/scores/{id}/settle     the end: the fewest payments (money) (Bearer edit token)
    POST /api/scores/{id}/undo       take back the last entry             (Bearer edit token)
    GET  /score, /score/{id}         the pages (js/score.js)

The sheet is a :class:`~pitchcards.scoresheet.ScoreSheet`, stored as its JSON (its game record)
by :mod:`.score_store`.  Everything the page shows is worked out on the server — each hand's row
(bidder, bid, made or set, who took each point, every change), joins and leaves with who pays
whom, scores, stars and money against the average (the core's row model,
:mod:`pitchcards.sheet_rows`, which ``pitch score`` lays out too, serialised here), the
settlement in the fewest payments, and for the hand form the bids each player could win with —
so the browser knows no rule.

Every write names the ``version`` it was based on; a stale one is refused (409 ``stale``, with
the sheet as it is now) and changes nothing, as does every refusal of the engine (422, its
reason and words).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..cards import SUIT_SYMBOLS, SUITS, card_name, card_symbol, parse_card
from ..errors import IllegalActionError, OptionError, PitchError
from ..explain import ILLEGAL_TEXT, bid_word, illegal_text
from ..money import MAX_SEATS, cents_text, dollars_text
from ..outcome import Outcome
from ..rules import MOON, RuleSet, find_variant, parse_money
from ..score_form import (
    NOBODY_LABEL,
    QUESTIONS,
    HandForm,
    call_choices,
    partner_choices,
    points_question,
)
from ..scoresheet import Leave, ScoreSheet
from ..settlement import Payment
from ..sheet_rows import (
    HandLine,
    JoinLine,
    LeaveLine,
    Side,
    columns,
    hand_line,
    leave_sentence,
    sheet_lines,
    side_members,
    standings,
)
from .hub import Hub
from .limits import AddressLimits
from .pages import missing_page, page_shell
from .protocol import DisplayName, check_display_name
from .room import Refused
from .score_store import StoredSheet, create_sheet, load_sheet, save_sheet, sheet_version
from .store import hash_secret

__all__ = ["EnterHand", "NamedChange", "NewSheet", "SheetChange", "present", "scores_router"]

#: The words for each variant (as the browser table's site.js says them).
VARIANT_WORDS = {"money": "Money game", "auction": "Auction pitch",
                 "auction-partners": "Auction pitch, partners", "setback": "Setback (partners)",
                 "three-teams": "Auction pitch, three teams of two",
                 "call-partner": "Auction pitch, call your partner",
                 "ten-point": "Ten-point pitch (partners)",
                 "ten-point-cutthroat": "Ten-point pitch, cutthroat"}
#: Laid-out sheets by (id, version): a version never changes, so polls and repeated reads of a
#: sheet cost no replay.
CACHE_SIZE = 256


# ------------------------------------------------------------------------------ requests
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NewSheet(_Body):
    """``POST /api/scores``: a new sheet."""

    players: list[DisplayName] = Field(min_length=1, max_length=8,
                                       description="the players' names in seat order round the "
                                                   "table; the first deals first")
    variant: str = Field("money", max_length=40, description="money, auction, "
                                                             "auction-partners, setback, "
                                                             "three-teams or call-partner")
    stake: str | None = Field(None, max_length=40,
                              description="dollars a point (money game), e.g. \"0.10\"")
    options: dict[Annotated[str, Field(max_length=40)], str | int | bool] = Field(
        default_factory=dict, max_length=40, description="rules options (docs/rules.md)")
    dealer: int = Field(0, ge=0, le=7, description="the first dealer's seat")


class SheetChange(_Body):
    """A write: the version of the sheet it was based on."""

    version: int = Field(ge=0, le=2**31, description="the sheet's version this change was "
                                                     "made on (a stale one: 409 stale)")


class EnterHand(SheetChange):
    """``POST /api/scores/{id}/hands``: the next hand by its outcome (docs/notation.md)."""

    outcome: dict[Annotated[str, Field(max_length=40)], Any] = Field(
        max_length=20, description="Outcome.to_dict(): bidder and bid (or bids), trump, the "
                                   "called card and its holder (call-your-partner: called, "
                                   "partner), who took high, low, jack, game (or game_tied, "
                                   "or points), swept")
    preview: bool = Field(False, description="check and lay out the hand, keep nothing")


class NamedChange(SheetChange):
    """``POST /api/scores/{id}/join`` and ``/leave``: who."""

    name: DisplayName


Auth = Annotated[str | None, Header(description="Bearer <edit token>")]


# ------------------------------------------------------------------------------ laying out
def _label(side: Side) -> str:
    """A column's name: a player, or a team ("Ann & Cy")."""
    return " & ".join(side)


def _side_names(sheet: ScoreSheet) -> list[str]:
    """Who gets a column: everyone who ever sat (money), or each side (a match)."""
    return [_label(side) for side in columns(sheet)]


def _suit(trump: str | None) -> str:
    return SUIT_SYMBOLS[SUITS.index(trump)] if trump else ""


def _payment(p: Payment) -> dict[str, Any]:
    return {**p.to_dict(), "amount": cents_text(p.cents)[1:], "text": p.text()}


def _hand_row(rules: RuleSet, line: HandLine) -> dict[str, Any]:
    """One hand: who dealt and bid what in which suit, made or set, who took each point and
    every change (the core's row, :mod:`pitchcards.sheet_rows`, as JSON)."""
    row: dict[str, Any] = {"kind": "hand", "number": line.number, "dealer": line.dealer}
    if line.bidder is None:
        return {**row, "outcome": "thrown in", "bidder": None, "bid": None, "trump": None,
                "takers": {}, "changes": {}, "text": "All passed: thrown in"}
    bid = bid_word(rules, line.bid) if line.bid else "no contract"
    takers = {point: None if side is None else _label(side)
              for point, side in line.takers.items()}
    changes = {_label(side): d for side, d in zip(line.sides, line.changes, strict=True)}
    said = {"moon": f"made the {bid}", "made": "made it", "set": "set"}[line.outcome]
    change_text = ", ".join(f"{n} {d:+d}" for n, d in changes.items() if d)
    call = ""
    if line.called is not None:  # CP3, CP5: the call and who held the card, public by now
        row["called"], row["called_symbol"] = line.called, card_symbol(parse_card(line.called))
        row["partner"] = line.partner
        row["call_text"] = (f"called {row['called_symbol']}, "
                            + ("not dealt: alone" if line.partner is None else "alone"
                               if line.partner == line.bidder else f"{line.partner}'s"))
        call = f", {row['call_text']}"
    return {**row, "outcome": line.outcome, "bidder": line.bidder, "bid": bid,
            "trump": line.trump, "trump_symbol": _suit(line.trump), "takers": takers,
            "changes": changes,
            "text": f"{line.bidder} bid {bid} {_suit(line.trump)}{call}: {said}"
                    + (f" ({change_text})" if change_text else "")}


def leave_row(leave: Leave) -> dict[str, Any]:
    """``Dee leaves: paid $1.20 — Cy pays Dee $0.40, Bob pays Dee $0.80``."""
    return {"kind": "leave", "name": leave.name, "cents": leave.cents,
            "amount": cents_text(leave.cents)[1:],
            "payments": [_payment(p) for p in leave.payments], "text": leave_sentence(leave)}


def _rows(sheet: ScoreSheet) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for line in sheet_lines(sheet):
        if isinstance(line, HandLine):
            rows.append(_hand_row(sheet.session.rules, line))
        elif isinstance(line, JoinLine):
            rows.append({"kind": "join", "name": line.name, "score": line.score,
                         "text": f"{line.name} joins at {line.score}"})
        elif isinstance(line, LeaveLine):
            rows.append(leave_row(line.leave))
        else:
            rows.append({"kind": "settle", "text": "Settled"})
    return rows


def _standings(sheet: ScoreSheet) -> list[dict[str, Any]]:
    if sheet.money is None:
        return [{"name": _label(s.side), "score": s.score, "seated": True, "winner": s.winner}
                for s in standings(sheet)]
    out = []
    for s in standings(sheet):
        money = s.cents if s.cents is not None else 0
        entry: dict[str, Any] = {
            "name": _label(s.side), "score": s.score, "stars": s.stars, "seated": s.seated,
            "cents": money, "money": cents_text(money)}
        if s.to_settle is not None:
            entry["to_settle"] = cents_text(s.to_settle)
        out.append(entry)
    return out


def stakes_text(rules: RuleSet) -> str:
    """``$0.10 a point, $1.00 a moon`` (money), ``to 11`` (a match)."""
    if rules.money == "none":
        return f"to {rules.target}" if rules.target is not None else "no target"
    stake = dollars_text(rules.stake_per_point)[1:]
    moon = dollars_text(rules.moon_payment)[1:] if rules.moon != "none" else ""
    return f"{stake} a point" + (f", {moon} a {bid_word(rules, MOON)}" if moon else "")


def _next_hand(sheet: ScoreSheet) -> dict[str, Any]:
    """What the hand form asks about the next hand, worked out by the engine: who deals, the
    bids each player could win with, whether everyone may pass, whether a tied Game still
    gives the point (then the form asks who tied), the sides points are typed for (the
    players, or the two teams), and each step's question in the scorekeeper's words
    (:data:`pitchcards.score_form.QUESTIONS`; the points step asked a side at a time)."""
    session = sheet.session
    rules = session.rules
    names = list(session.names)
    form = HandForm(rules, names, session.next_dealer)
    bids = []
    for seat in range(len(names)):
        form.bidder = seat
        bids.append([{"value": "moon" if v == MOON else v, "label": bid_word(rules, v)}
                     for v in form.winning_bids()])
    all_pass: dict[str, Any] | None = None
    if rules.all_pass == "redeal":
        all_pass = {"outcome": {"bids": ["pass"] * len(names)}, "thrown_in": True,
                    "label": "All passed (thrown in)"}
    elif rules.all_pass == "eldest_pitches_no_contract":
        eldest = (session.next_dealer + 1) % len(names)
        all_pass = {"outcome": {"bidder": eldest, "bid": 0}, "thrown_in": False,
                    "label": f"All passed ({names[eldest]} pitches, no contract)"}
    sides = [" & ".join(side) for side in side_members(names, rules)]
    call: dict[str, Any] | None = None
    if rules.calls_partner:  # CP3, CP4: the cards that may be called, who may have held one
        call = {"cards": [{"value": card_name(c), "label": card_symbol(c)}
                          for c in call_choices(rules)],
                "holders": [partner_choices(rules, len(names), seat)
                            for seat in range(len(names))],
                # CP5: a called card never dealt is held by nobody (always possible)
                "nobody": {"label": NOBODY_LABEL}}
    return {"number": len(session.results) + 1, "dealer": names[session.next_dealer],
            "dealer_seat": session.next_dealer, "players": names, "sides": sides, "bids": bids,
            "all_pass": all_pass, "game_tie": rules.game_tie != "no_point",
            "partners": rules.partnership_mode, "call": call,
            "points_instead": not rules.calls_partner,
            # the scorekeeper's questions, as the terminal's form asks them (issue 28)
            "questions": dict(QUESTIONS), "points_asked": [points_question(s) for s in sides]}


def present(sheet: ScoreSheet) -> dict[str, Any]:
    """The sheet as the page shows it (everything but its id and version)."""
    session = sheet.session
    rules = session.rules
    money_session = sheet.money
    money = money_session is not None
    is_open = not session.is_over
    out: dict[str, Any] = {
        "variant": rules.name, "title": VARIANT_WORDS.get(rules.name, rules.name),
        "stakes": stakes_text(rules), "money": money, "players": list(session.names),
        "columns": _side_names(sheet), "rows": _rows(sheet), "standings": _standings(sheet),
        "over": session.is_over, "hands": len(session.results),
        "next": _next_hand(sheet) if is_open else None,
        "winner": None, "settlement": None,
    }
    if money_session is None and session.winner is not None:
        out["winner"] = _side_names(sheet)[session.winner]
    if money_session is not None:
        payments = sheet.settlement()
        out["settlement"] = {"final": money_session.finished,
                             "payments": [_payment(p) for p in payments],
                             "text": ", ".join(p.text() for p in payments)
                                     or "Nobody owes anything."}
    allowed = money and is_open and rules.join_leave != "never"
    full = len(session.names) >= min(MAX_SEATS, rules.player_range[1])
    undo = (len(money_session.events) > len(money_session.scores) + 1
            if money_session is not None else bool(session.hands))
    out["can"] = {"enter": is_open, "join": allowed and not full,
                  "leave": allowed and len(session.names) > 0, "settle": money and is_open,
                  "undo": undo}
    return out


def new_sheet(request: NewSheet) -> ScoreSheet:
    """The sheet a :class:`NewSheet` asks for, checked by the engine."""
    rules = find_variant(request.variant)
    changes: dict[str, Any] = dict(request.options)
    if request.stake is not None and rules.money != "none":
        changes["stake_per_point"] = parse_money(request.stake, what="the stake")
    if changes:
        rules = rules.replace(**changes)
    return ScoreSheet.new(rules, list(request.players), dealer=request.dealer)


# ------------------------------------------------------------------------------ refusals
def refusal(exc: PitchError) -> JSONResponse:
    """The engine's refusal: 422, its reason, its account (``message``) and the short sentence
    a player is told (``words``)."""
    if isinstance(exc, IllegalActionError):
        reason = exc.reason
        words = illegal_text(exc) if exc.reason in ILLEGAL_TEXT else str(exc)
    else:
        reason = "bad_setup" if isinstance(exc, OptionError) else "bad_outcome"
        words = str(exc)
    return JSONResponse({"reason": reason, "message": str(exc), "words": words},
                        status_code=422)


# ------------------------------------------------------------------------------ the router
def scores_router(hub: Hub) -> APIRouter:
    """The scorekeeper's pages and API, mounted by :func:`pitchcards.server.app.create_app`."""
    router = APIRouter()
    config = hub.config
    # The same per-address bucket as the other HTTP writes (app.py's is not reachable from
    # here, so the scorekeeper's writes have one of their own, at the same rate).
    limits = AddressLimits(config.max_connections_per_address, config.http_writes_per_minute)
    laid_out: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def writes(request: Request) -> None:
        if not limits.write(request.client.host if request.client else "unknown"):
            raise Refused("rate_limited", "too many requests from your address: wait a "
                                          "minute", 429)

    Writes = Depends(writes)

    async def stored(sheet_id: str) -> StoredSheet:
        found = (await hub.db(load_sheet, hub.store.engine, sheet_id)
                 if len(sheet_id) <= 32 else None)
        if found is None:
            raise Refused("not_found", f"no score sheet {sheet_id[:40]!r}", 404)
        return found

    async def view(row: StoredSheet, sheet: ScoreSheet | None = None) -> dict[str, Any]:
        """The sheet laid out (``sheet``: the row's sheet, already replayed)."""
        key = (row.id, row.version)
        shown = laid_out.get(key)
        if shown is None:
            shown = await asyncio.to_thread(
                lambda: present(sheet if sheet is not None else ScoreSheet.from_json(row.sheet)))
            laid_out[key] = shown
            while len(laid_out) > CACHE_SIZE:
                laid_out.popitem(last=False)
        return {"id": row.id, "version": row.version, "url": f"{config.url}/score/{row.id}",
                "updated": row.updated, **shown}

    def editor(row: StoredSheet, authorization: str | None) -> None:
        token = ""
        if authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        if not token or not hmac.compare_digest(hash_secret(token), row.edit_token_hash):
            raise Refused("bad_token", "that is not this sheet's edit token: only the phone "
                                       "that made the sheet can change it", 401)

    async def change(sheet_id: str, base: int, authorization: str | None,
                     make: Callable[[ScoreSheet], str]) -> Any:
        """Make a change to the sheet as it is at ``base`` and keep it as ``base + 1``."""
        row = await stored(sheet_id)
        editor(row, authorization)
        if base != row.version:
            return await stale(row, base)
        sheet = await asyncio.to_thread(ScoreSheet.from_json, row.sheet)
        try:
            said = await asyncio.to_thread(make, sheet)
        except PitchError as exc:
            return refusal(exc)
        data = sheet.to_json()
        if not await hub.db(save_sheet, hub.store.engine, sheet_id, base, data):
            return await stale(await stored(sheet_id), base)
        saved = dataclasses.replace(row, sheet=data, version=base + 1, updated=time.time())
        return {**await view(saved, sheet), "said": said}

    async def stale(row: StoredSheet, base: int) -> JSONResponse:
        return JSONResponse({"reason": "stale", "message": f"the sheet changed since version "
                             f"{base}: it is at version {row.version} now (look again and "
                             "enter it again if it is still needed)",
                             "sheet": await view(row)}, status_code=409)

    # -------------------------------------------------------------------- pages
    @router.get("/score", response_class=HTMLResponse, include_in_schema=False)
    async def score_home() -> HTMLResponse:
        return page_shell("Scorekeeper", "score", (
            "<p class=\"noscript\">This page needs JavaScript. Without it, keep score in a "
            "terminal: <code>pitch score Ann Bob Cy</code>.</p>"), styles=("score",))

    @router.get("/score/{sheet_id}", response_class=HTMLResponse, include_in_schema=False)
    async def score_page(sheet_id: str) -> HTMLResponse:
        try:
            await stored(sheet_id)
        except Refused:
            return missing_page("No such score sheet: check the link.")
        return page_shell("Score sheet", "score", "<p class=\"noscript\">This page needs "
                          "JavaScript.</p>", styles=("score",), data={"sheet": sheet_id})

    # -------------------------------------------------------------------- API
    @router.post("/api/scores", status_code=201, dependencies=[Writes])
    async def create(request: NewSheet) -> Any:
        names = []
        for name in request.players:
            try:
                names.append(check_display_name(name))
            except ValueError as exc:
                raise Refused("bad_name", str(exc), 422) from None
        try:
            sheet = new_sheet(request.model_copy(update={"players": names}))
        except PitchError as exc:
            return refusal(exc)
        sheet_id, token = secrets.token_urlsafe(12), secrets.token_urlsafe(32)
        await hub.db(create_sheet, hub.store.engine, sheet_id, hash_secret(token),
                     sheet.to_json())
        return {"id": sheet_id, "token": token, "url": f"{config.url}/score/{sheet_id}",
                "version": 1}

    @router.get("/api/scores/{sheet_id}")
    async def read(sheet_id: str, since: int | None = None) -> Any:
        if since is not None and len(sheet_id) <= 32:
            version = await hub.db(sheet_version, hub.store.engine, sheet_id)
            if version == since:
                return JSONResponse({"version": version},
                                    headers={"Cache-Control": "no-store"})
        return JSONResponse(await view(await stored(sheet_id)),
                            headers={"Cache-Control": "no-store"})

    @router.post("/api/scores/{sheet_id}/hands", dependencies=[Writes])
    async def enter(sheet_id: str, request: EnterHand, authorization: Auth = None) -> Any:
        outcome_data = dict(request.outcome)

        def make(sheet: ScoreSheet) -> str:
            outcome = Outcome.from_dict(outcome_data)
            sheet.enter(outcome)
            return str(_hand_row(sheet.session.rules, hand_line(sheet))["text"])

        if request.preview:
            row = await stored(sheet_id)
            editor(row, authorization)
            if request.version != row.version:
                return await stale(row, request.version)
            return await asyncio.to_thread(preview, row.sheet, outcome_data)
        return await change(sheet_id, request.version, authorization, make)

    @router.post("/api/scores/{sheet_id}/join", dependencies=[Writes])
    async def join(sheet_id: str, request: NamedChange, authorization: Auth = None) -> Any:
        try:
            name = check_display_name(request.name)
        except ValueError as exc:
            raise Refused("bad_name", str(exc), 422) from None

        def make(sheet: ScoreSheet) -> str:
            sheet.join(name)
            assert sheet.money is not None  # join refuses a match
            return f"{name} joins at {sheet.money.scores[name]}"

        return await change(sheet_id, request.version, authorization, make)

    @router.post("/api/scores/{sheet_id}/leave", dependencies=[Writes])
    async def leave(sheet_id: str, request: NamedChange, authorization: Auth = None) -> Any:
        return await change(sheet_id, request.version, authorization,
                            lambda sheet: str(leave_row(sheet.leave(request.name))["text"]))

    @router.post("/api/scores/{sheet_id}/settle", dependencies=[Writes])
    async def settle(sheet_id: str, request: SheetChange, authorization: Auth = None) -> Any:
        def make(sheet: ScoreSheet) -> str:
            payments = sheet.settle()
            return "Settled: " + (", ".join(p.text() for p in payments)
                                  or "nobody owes anything")

        return await change(sheet_id, request.version, authorization, make)

    @router.post("/api/scores/{sheet_id}/undo", dependencies=[Writes])
    async def undo(sheet_id: str, request: SheetChange, authorization: Auth = None) -> Any:
        return await change(sheet_id, request.version, authorization,
                            lambda sheet: f"Undone: {sheet.undo()}")

    return router


def preview(data: dict[str, Any], outcome_data: dict[str, Any]) -> Any:
    """A hand checked and laid out as it would be entered, nothing kept: ``{"hand": row}``;
    ``{"needs": "swept"}`` when the sweep decides it and was not said; or the refusal."""
    def entered(fields: dict[str, Any]) -> dict[str, Any]:
        sheet = ScoreSheet.from_json(data)
        sheet.enter(Outcome.from_dict(fields))
        return _hand_row(sheet.session.rules, hand_line(sheet))

    try:
        return {"needs": None, "hand": entered(outcome_data)}
    except PitchError as exc:
        if "swept" not in outcome_data:
            try:
                entered({**outcome_data, "swept": True})
                entered({**outcome_data, "swept": False})
            except PitchError:
                pass
            else:
                return {"needs": "swept", "hand": None}
        return refusal(exc)

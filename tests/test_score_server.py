"""The scorekeeper's API on a real ``pitch serve`` (issue 16, part 3; docs/protocol.md, "HTTP"):
sheets made, hands entered by their outcome, a stale version or a bad outcome refused with
nothing changed, joins, leaves with their payments, the settlement, undo, read-only without the
edit token — on SQLite and on PostgreSQL, and still there after the server restarts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from pitchcards.outcome import Outcome
from pitchcards.rules import find_variant, parse_money
from pitchcards.score_form import QUESTIONS, points_question
from pitchcards.scoresheet import ScoreSheet
from server_helpers import QUICK_LIMITS, app_fixture, running_app

pytestmark = pytest.mark.timeout(120)

server = app_fixture()

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
HAND = {"bidder": 1, "bid": 3, "trump": "H", "high": 1, "low": 2, "jack": 1, "game": 1}


class Sheet:
    """One sheet seen through the API, with its edit token."""

    def __init__(self, http: httpx.Client, **fields: Any) -> None:
        self.http = http
        body = {"players": NAMES, "stake": "0.10", **fields}
        reply = http.post("/api/scores", json=body)
        assert reply.status_code == 201, reply.text
        made = reply.json()
        self.id, self.token, self.url = made["id"], made["token"], made["url"]
        assert made["version"] == 1 and self.url.endswith(f"/score/{self.id}")

    def get(self, **params: Any) -> dict[str, Any]:
        reply = self.http.get(f"/api/scores/{self.id}", params=params)
        assert reply.status_code == 200, reply.text
        assert reply.headers["cache-control"] == "no-store"
        return dict(reply.json())

    def post(self, path: str, body: dict[str, Any], token: str | None = "mine",
             version: int | None = None) -> httpx.Response:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {self.token if token == 'mine' else token}"
        if version is None:
            version = self.get()["version"]
        return self.http.post(f"/api/scores/{self.id}/{path}",
                              json={"version": version, **body}, headers=headers)

    def ok(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.post(path, body or {})
        assert reply.status_code == 200, reply.text
        return dict(reply.json())


def _core() -> ScoreSheet:
    rules = find_variant("money").replace(stake_per_point=parse_money("0.10", what="stake"))
    return ScoreSheet.new(rules, NAMES)


def _money(sheet: dict[str, Any]) -> dict[str, int]:
    return {s["name"]: s["cents"] for s in sheet["standings"]}


def _core_money(core: ScoreSheet) -> dict[str, int]:
    session = core.money
    assert session is not None
    cents = session.settle_cents()
    return {n: cents.get(n, session.payout_cents.get(n, 0)) for n in session.scores}


def _a_session(url: str) -> tuple[Sheet, ScoreSheet]:
    """A sheet of five through a whole session — hands, a refused stale write and a refused
    bad outcome (nothing changed), a leave, a join, undo, the settlement — checked against the
    core ScoreSheet at every step."""
    http = httpx.Client(base_url=url, timeout=30)
    sheet, core = Sheet(http), _core()
    first = sheet.get()
    assert first["players"] == NAMES and first["money"] and first["rows"] == []
    assert first["next"]["dealer"] == "Ann" and first["stakes"] == "$0.10 a point, $1.00 a moon"
    assert {"value": "moon", "label": "moon"} in first["next"]["bids"][1]
    # the form's questions are the scorekeeper's own (issue 28: one set of words)
    assert first["next"]["questions"] == QUESTIONS
    assert first["next"]["points_asked"] == [points_question(n) for n in NAMES]
    assert first["can"] == {"enter": True, "join": True, "leave": True, "settle": True,
                            "undo": False}

    entered = sheet.ok("hands", {"outcome": HAND})
    core.enter(Outcome.from_dict(HAND))
    assert entered["version"] == 2 and entered["said"] == "Bob bid 3 ♥: made it (Bob +3, Cy +1)"
    row = entered["rows"][0]
    assert row["outcome"] == "made" and row["bidder"] == "Bob" and row["dealer"] == "Ann"
    assert row["takers"] == {"high": "Bob", "low": "Cy", "jack": "Bob", "game": "Bob"}
    assert row["changes"] == {"Ann": 0, "Bob": 3, "Cy": 1, "Dee": 0, "Eve": 0}
    assert _money(entered) == _core_money(core)

    # A write based on version 1 is stale: refused with the sheet as it is now.
    stale = sheet.post("hands", {"outcome": HAND}, version=1)
    assert stale.status_code == 409 and stale.json()["reason"] == "stale"
    assert stale.json()["sheet"]["version"] == 2 and len(stale.json()["sheet"]["rows"]) == 1

    # A bad outcome: the engine's reason and words, nothing changed.
    for outcome, reason, words in (
            ({**HAND, "bid": 1}, "bid_too_low", "no auction under these rules ends with Bob"),
            ({**HAND, "high": 9}, "no_such_seat", "High: 9 is not a player here"),
            ({**HAND, "trump": "X"}, "bad_outcome", "is not a suit"),
            ({**HAND, "colour": 1}, "bad_outcome", "unknown outcome field"),
            ({**HAND, "high": 3, "low": 3, "jack": 3, "game": 3, "bidder": 3, "bid": "moon"},
             "bad_outcome", "say whether it also took all six tricks")):
        reply = sheet.post("hands", {"outcome": outcome})
        assert reply.status_code == 422, reply.text
        refusal = reply.json()
        assert refusal["reason"] == reason and words in refusal["message"], refusal
        assert refusal["words"] and " " in refusal["words"]
        assert sheet.get()["version"] == 2 and len(sheet.get()["rows"]) == 1

    # A preview checks and lays out the hand, keeping nothing; it asks for the sweep when that
    # decides a moon.
    moon = {"bidder": 3, "bid": "moon", "trump": "D", "high": 3, "low": 3, "jack": 3,
            "game": 3}
    asked = sheet.ok("hands", {"outcome": moon, "preview": True})
    assert asked == {"needs": "swept", "hand": None}
    shown = sheet.ok("hands", {"outcome": {**moon, "swept": True}, "preview": True})
    assert shown["hand"]["outcome"] == "moon" and shown["hand"]["changes"]["Dee"] == 4
    assert sheet.get()["version"] == 2
    sheet.ok("hands", {"outcome": {**moon, "swept": True}})
    core.enter(Outcome.from_dict({**moon, "swept": True}))
    assert _money(sheet.get()) == _core_money(core)

    # Undo takes back the last entry.
    undone = sheet.ok("undo")
    assert undone["said"] == "Undone: hand 2" and undone["hands"] == 1
    core.undo()
    assert _money(undone) == _core_money(core)
    sheet.ok("hands", {"outcome": {**moon, "swept": True}})
    core.enter(Outcome.from_dict({**moon, "swept": True}))

    # Dee leaves and is paid; Fay joins; the settlement is the core's, to the cent.
    left = sheet.ok("leave", {"name": "Dee"})
    leave = core.leave("Dee")
    row = left["rows"][-1]
    assert row["kind"] == "leave" and row["cents"] == leave.cents
    assert [p["text"] for p in row["payments"]] == [p.text() for p in leave.payments]
    assert left["said"] == row["text"] and row["text"].startswith("Dee leaves: paid $")
    assert sheet.post("leave", {"name": "Dee"}).json()["reason"] == "not_seated"
    joined = sheet.ok("join", {"name": "Fay"})
    core.join("Fay")
    assert joined["players"] == list(core.session.names) and joined["rows"][-1] == {
        "kind": "join", "name": "Fay", "score": 0, "text": "Fay joins at 0"}
    assert sheet.post("join", {"name": "Bob"}).json()["reason"] == "name_taken"
    assert sheet.post("join", {"name": "no\u0000pe"}).json()["reason"] in ("bad_name",
                                                                             "bad_message")
    after = {"bidder": 0, "bid": 2, "trump": "S", "high": 0, "low": 1, "jack": None,
             "game": 0}
    sheet.ok("hands", {"outcome": after})
    core.enter(Outcome.from_dict(after))
    before = sheet.get()
    assert [p["text"] for p in before["settlement"]["payments"]] == [
        p.text() for p in core.settlement()]
    assert before["settlement"]["final"] is False
    settled = sheet.ok("settle")
    payments = core.settle()
    assert settled["over"] and settled["next"] is None
    assert settled["settlement"]["final"] is True
    assert [(p["payer"], p["payee"], p["cents"]) for p in settled["settlement"]["payments"]] \
        == [(p.payer, p.payee, p.cents) for p in payments]
    assert _money(settled) == _core_money(core)
    assert settled["can"] == {"enter": False, "join": False, "leave": False, "settle": False,
                              "undo": True}
    assert sheet.post("hands", {"outcome": after}).json()["reason"] == "game_over"
    return sheet, core


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_a_session_kept_on_the_server_survives_a_restart(tmp_path, db):
    with running_app(tmp_path, db, extra=QUICK_LIMITS) as started:
        sheet, core = _a_session(started.url)
        before = sheet.get()  # laid out from the sheet as each change left it
        started.stop()
        started.start()
        sheet.http = httpx.Client(base_url=started.url, timeout=30)
        again = sheet.get()  # replayed from the stored record
        assert {k: v for k, v in again.items() if k != "updated"} == {
            k: v for k, v in before.items() if k != "updated"}
        assert _money(again) == _core_money(core)
        assert [p["text"] for p in again["settlement"]["payments"]] == [
            p.text() for p in core.settlement()]
        # Still the keeper's to change: undo the settlement after the restart.
        assert sheet.ok("undo")["said"] == "Undone: the settlement"


def test_without_the_edit_token_the_sheet_is_read_only(server):
    http = httpx.Client(base_url=server.url, timeout=30)
    sheet = Sheet(http)
    for token in (None, "not-the-token", "x" * 500):
        for path, body in (("hands", {"outcome": HAND}), ("join", {"name": "Fay"}),
                           ("leave", {"name": "Ann"}), ("settle", {}), ("undo", {}),
                           ("hands", {"outcome": HAND, "preview": True})):
            reply = sheet.post(path, body, token=token, version=1)
            assert reply.status_code == 401, (path, reply.text)
            assert reply.json()["reason"] == "bad_token"
    assert sheet.get()["version"] == 1 and sheet.get()["rows"] == []
    # Anyone with the id follows it; when nothing changed the answer is only the version.
    assert sheet.get(since=1) == {"version": 1}
    sheet.ok("hands", {"outcome": HAND})
    assert len(sheet.get(since=1)["rows"]) == 1
    assert sheet.get(since=2) == {"version": 2}


def test_two_phones_entering_at_once_one_wins_the_others_are_stale(server):
    """Optimistic concurrency: eight writes on version 1 at once — one is kept (version 2),
    every other is refused 409 stale with the sheet as it is, whether the version check or the
    conditional UPDATE caught it."""
    http = httpx.Client(base_url=server.url, timeout=30)
    sheet = Sheet(http)

    def enter(_: int) -> httpx.Response:
        with httpx.Client(base_url=server.url, timeout=30) as own:
            return own.post(f"/api/scores/{sheet.id}/hands",
                            json={"version": 1, "outcome": HAND},
                            headers={"Authorization": f"Bearer {sheet.token}"})

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(enter, range(8)))
    codes = sorted(r.status_code for r in replies)
    assert codes == [200] + [409] * 7, codes
    assert all(r.json()["sheet"]["version"] == 2 for r in replies if r.status_code == 409)
    assert sheet.get()["version"] == 2 and len(sheet.get()["rows"]) == 1


def test_refusals_of_a_new_sheet_and_of_no_such_sheet(server):
    http = httpx.Client(base_url=server.url, timeout=30)
    for body, status, reason in (
            ({"players": ["Ann", "Ann"]}, 422, "bad_setup"),
            ({"players": ["Ann"]}, 422, "bad_setup"),
            ({"players": ["Ann", "Bob"], "variant": "bridge"}, 422, "bad_setup"),
            ({"players": ["Ann", "Bob"], "stake": "lots"}, 422, "bad_setup"),
            ({"players": ["Ann", "Bob"], "options": {"moon": "sometimes"}}, 422, "bad_setup"),
            ({"players": ["Ann", "<b>"]}, 422, "bad_name"),
            ({"players": [f"P{i}" for i in range(9)]}, 422, "bad_message"),
            ({"players": ["Ann", "Bob"], "dealer": 5}, 422, "bad_setup")):
        reply = http.post("/api/scores", json=body)
        assert (reply.status_code, reply.json()["reason"]) == (status, reason), (body, reply.text)
        assert " " in reply.json()["message"]
    for address in ("/api/scores/nope", "/api/scores/" + "x" * 300):
        assert http.get(address).json()["reason"] == "not_found"
    reply = http.post("/api/scores/nope/hands", json={"version": 1, "outcome": HAND})
    assert (reply.status_code, reply.json()["reason"]) == (404, "not_found")
    assert http.get("/score/nope").status_code == 404
    page = http.get("/score")
    assert page.status_code == 200 and '/static/js/score.js' in page.text


def test_a_match_to_a_target_has_no_money(server):
    """Auction pitch to 7: hands entered, a winner; nobody joins, leaves or settles."""
    http = httpx.Client(base_url=server.url, timeout=30)
    sheet = Sheet(http, players=["Ann", "Bob", "Cy"], variant="auction", stake=None)
    first = sheet.get()
    assert not first["money"] and first["settlement"] is None and first["stakes"] == "to 7"
    assert first["can"]["join"] is False and first["can"]["settle"] is False
    reply = sheet.post("join", {"name": "Dee"})
    assert (reply.status_code, reply.json()["reason"]) == (422, "join_leave_not_allowed")
    sweep = {"bidder": 1, "bid": 4, "trump": "C", "high": 1, "low": 1, "jack": 1, "game": 1}
    while not sheet.get()["over"]:
        sheet.ok("hands", {"outcome": sweep})
    over = sheet.get()
    assert over["winner"] == "Bob" and over["standings"][1]["winner"] is True


def test_writes_are_rate_limited_like_the_other_http_writes(tmp_path):
    with running_app(tmp_path, extra=("--http-writes-per-minute", "8")) as strict:
        http = httpx.Client(base_url=strict.url, timeout=30)
        replies = [http.post("/api/scores", json={"players": ["Ann", "Bob"]})
                   for _ in range(6)]
        codes = [r.status_code for r in replies]
        assert 201 in codes and 429 in codes, codes
        assert {r.json()["reason"] for r in replies if r.status_code == 429} == {"rate_limited"}

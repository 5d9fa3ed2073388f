"""The routes of the analyses of a table's game (issue 33; docs/protocol.md, "Analysis")::

    POST /api/tables/{id}/analysis          ask for it (queued once, kept) -> Analysis
    GET  /api/tables/{id}/analysis          its status, progress and, once done, the result
    GET  /api/tables/{id}/analysis/puzzles  the requester's own costliest decisions (Bearer)

Who may ask: a player of the table (its seat token) while the game goes on, anyone with the
table's id once it is over (:func:`.ops.analysis_source`).  Only finished hands are analysed —
the table's public record, which hides nothing its players cannot see in the hand viewer — and
every decision is weighed from its own seat's view.  A puzzle's position is the requester's own
view at their decision: their cards, never another seat's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request

from ..analysis import decision_view
from ..notation import read_record
from . import analysis_store as jobs_db
from .analysis_jobs import AnalysisJobs
from .config import ServerConfig
from .hub import Hub
from .limits import TokenBucket
from .room import Refused
from .shared_limits import AnalysisGate, SharedBuckets
from .store import hash_secret

__all__ = ["PUZZLES", "analysis_router", "puzzles_of"]

#: The most puzzles a player is given: their costliest labelled decisions.
PUZZLES = 5

Auth = Annotated[str | None, Header(description="Bearer <seat token>")]


class _PerAddress:
    """New analyses one address may ask for: ``per_hour``, in bursts of up to a third of it."""

    def __init__(self, per_hour: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_hour = per_hour
        self.clock = clock  #: (a test's own: no refill by chance)
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 10_000:  # forget the idle (full) buckets, not grow
                self._buckets = {a: b for a, b in self._buckets.items()
                                 if not b.holds(b.burst)}
            rate, burst = AnalysisGate.shape(self.per_hour)  # the same as in Redis
            bucket = self._buckets[address] = TokenBucket(rate, burst, clock=self.clock)
        return bucket.take()


def analysis_router(hub: Hub, jobs: AnalysisJobs, config: ServerConfig, writes: Any,
                    reads: Any, address: Callable[[Request], str]) -> APIRouter:
    """The routes; ``writes``/``reads``: the dependencies that count an address's requests.
    With ``--redis`` an address's new analyses are counted across the processes."""
    router = APIRouter(tags=["analysis"])
    engine = hub.store.engine
    per_address = AnalysisGate(
        config.analyses_per_hour, _PerAddress(config.analyses_per_hour).take,
        SharedBuckets(hub.cluster.bus.redis) if hub.cluster is not None else None)

    def bearer(authorization: str | None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
            return hash_secret(token) if token else None
        return None

    async def source(table_id: str, authorization: str | None) -> dict[str, Any]:
        """The public record, who asks, and the last finished hand (the analysis's key)."""
        got: dict[str, Any] = await hub.on_owner(table_id, "analysis_source",
                                                 token_hash=bearer(authorization))
        numbers = await asyncio.to_thread(
            lambda: [h.number for h in read_record(got["record"]).hands])
        if not numbers:
            raise Refused("no_hands", "no hand is finished yet: a game is analysed by its "
                                      "finished hands", 409)
        got["upto"] = numbers[-1]
        return got

    def answer(table_id: str, upto: int, row: dict[str, Any] | None) -> dict[str, Any]:
        if row is None:
            return {"table": table_id, "upto": upto, "status": "none", "done": 0, "total": 0,
                    "worlds": config.analysis_worlds, "error": None, "analysis": None}
        return {"table": table_id, "upto": upto, "status": row["status"], "done": row["done"],
                "total": row["total"], "worlds": row["worlds"], "error": row["error"],
                "analysis": row["result"]}

    @router.post("/api/tables/{table_id}/analysis", dependencies=[writes, reads])
    async def ask(table_id: str, request: Request, authorization: Auth = None
                  ) -> dict[str, Any]:
        """Ask for the analysis of the table's finished hands: queued once (a second request,
        from anyone, finds the first's job), kept for good once done."""
        got = await source(table_id, authorization)
        upto = got["upto"]
        row = await hub.db(jobs_db.get, engine, table_id, upto)
        if row is None or row["status"] == "failed":
            if not await per_address.take(address(request)):
                raise Refused("rate_limited", f"your address has asked for "
                                              f"{config.analyses_per_hour} analyses this hour: "
                                              f"wait a while", 429)
            if await hub.db(jobs_db.queued_count, engine) >= config.analysis_queue:
                raise Refused("busy", f"{config.analysis_queue} analyses are waiting already: "
                                      f"try again in a few minutes", 503)
            row, _created = await hub.db(jobs_db.request, engine, table_id, upto,
                                         got["record"], config.analysis_worlds)
            jobs.wake()
        return answer(table_id, upto, row)

    @router.get("/api/tables/{table_id}/analysis", dependencies=[reads])
    async def status(table_id: str, authorization: Auth = None) -> dict[str, Any]:
        """The analysis of the table's finished hands so far: ``none`` (not asked for),
        ``queued``, ``running`` (``done`` of ``total`` decisions), ``done`` (``analysis``) or
        ``failed`` (``error``)."""
        got = await source(table_id, authorization)
        row = await hub.db(jobs_db.get, engine, table_id, got["upto"])
        return answer(table_id, got["upto"], row)

    @router.get("/api/tables/{table_id}/analysis/puzzles", dependencies=[reads])
    async def puzzles(table_id: str, authorization: Auth = None) -> dict[str, Any]:
        """The requester's costliest decisions as puzzles, from the done analysis."""
        got = await source(table_id, authorization)
        if got["name"] is None:
            raise Refused("bad_token", "puzzles are a player's own decisions: send your "
                                       "seat's token", 401)
        row = await hub.db(jobs_db.get, engine, table_id, got["upto"])
        if row is None or row["status"] != "done":
            raise Refused("not_analysed", "this game has not been analysed yet: ask for its "
                                          "analysis first", 409)
        found = await asyncio.to_thread(puzzles_of, row["record"], row["result"], got["name"])
        return {"table": table_id, "upto": got["upto"], "player": got["name"],
                "puzzles": found}

    return router


def puzzles_of(record_text: str, analysis: dict[str, Any], player: str,
               most: int = PUZZLES) -> list[dict[str, Any]]:
    """``player``'s labelled decisions, costliest first (at most ``most``): each the position
    as that player saw it (their own view: :func:`~pitchcards.analysis.decision_view`), the
    choices weighed, and the answer (what was chosen, the best, the loss and the label)."""
    record = read_record(record_text)
    mine = [d for d in analysis["decisions"] if d["player"] == player and d["label"]]
    mine.sort(key=lambda d: (-d["loss"], d["hand"], d["index"]))
    out = []
    for d in mine[:most]:
        view = decision_view(record, d["hand"], d["index"])
        out.append({"hand": d["hand"], "index": d["index"], "seat": d["seat"],
                    "phase": d["phase"], "view": view.to_dict(),
                    # in the order of the legal actions: the analysis lists the best first
                    "choices": [{"action": c["action"], "label": c["label"]}
                                for a in view.legal_actions for c in d["candidates"]
                                if c["action"] == str(a)],
                    "answer": {k: d.get(k) for k in ("action", "best", "loss", "loss_se",
                                                     "label", "words", "candidates",
                                                     "chance_loss", "chance_loss_se",
                                                     "chance_best")}})
    return out

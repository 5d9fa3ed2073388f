"""A ranked tournament (issue 34, "ranked or not"): every entrant a signed-in account, one
player an entry; each round's table is a ranked table (server/ranked.py) rated once at its end,
and no forfeit ends it early.  The app in process (FastAPI's TestClient) on a SQLite file; eight
accounts, none connected (their stand-ins play at once: a grace of 0), one round of one hand."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import select

from account_helpers import OWN, app_client, other, register
from pitchcards.server.account_store import accounts, rated_matches, rating_changes
from pitchcards.server.store import Store

HANG_S = 60.0  # only catches a hang


def test_a_ranked_tournament_seats_accounts_and_rates_each_table(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    with app_client(db) as client:
        body = {"name": "Dora", "format": "progressive", "rounds": 1, "boards_per_round": 1,
                "pause": 0, "fill": "random", "ranked": True,
                "settings": {"bot_delay": 0, "hand_pause": 0, "grace": 0}}
        pairs = client.post("/api/tournaments", json={**body, "format": "pairs"})
        assert pairs.status_code == 422 and pairs.json()["reason"] == "bad_tournament"
        changed = client.post("/api/tournaments", json={**body, "options": {"target": 21}})
        assert changed.status_code == 422, changed.text
        assert changed.json()["reason"] == "unranked_options"
        made = client.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        tid, director = made.json()["tournament"], made.json()["director_token"]
        base = f"/api/tournaments/{tid}"
        guest = other(client, "10.0.0.2").post(f"{base}/entries", json={"names": ["Bo"]})
        assert guest.status_code == 401 and guest.json()["reason"] == "account_needed"
        players = [f"Player {i}" for i in range(8)]
        for name in players:
            register(client, name)  # signed in as this account: the session cookie
            entered = client.post(f"{base}/entries", json={"names": [name]}, headers=OWN)
            assert entered.status_code == 201, entered.text
        started = client.post(f"{base}/start", headers={"Authorization": f"Bearer {director}"})
        assert started.status_code == 200, started.text
        tables = [t["id"] for t in started.json()["tables"]]
        for table_id in tables:
            shown = client.get(f"/api/tables/{table_id}").json()
            assert shown["ranked"] is True and shown["settings"]["turn_timer"], shown
        deadline = time.monotonic() + HANG_S
        while client.get(base).json()["status"] != "over":  # away: stand-ins play
            assert time.monotonic() < deadline, "the tournament did not end"
            time.sleep(0.05)
        store = Store(db)
        try:
            with store.engine.connect() as conn:
                keys = set(conn.execute(select(rated_matches.c.key)).scalars())
                rated = conn.execute(select(accounts.c.name, rating_changes.c.match_key).join(
                    accounts, accounts.c.id == rating_changes.c.account_id)).all()
        finally:
            store.close()
        # each table rated once, as its four accounts' match (away is no forfeit here)
        assert keys == {f"table:{t}" for t in tables}, keys
        assert sorted(r.name for r in rated) == players
        assert {r.match_key for r in rated} == keys

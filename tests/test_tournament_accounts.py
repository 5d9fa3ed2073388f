"""Accounts as tournament entrants (issue 34): a signed-in player registers under their
account — its name, its id on every seat they take — once a tournament, and finds where to
sit by the account (an API token, or the session cookie on this server's own pages) as well as
by the player secret.  The app in process (FastAPI's TestClient) on a SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from account_helpers import OWN, app_client, other, register
from pitchcards.server.account_store import find_account
from pitchcards.server.names import name_key
from pitchcards.server.store import Store

FAST = {"bot_delay": 0, "hand_pause": 0, "grace": 3600}


def test_a_signed_in_player_enters_as_their_account(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.db'}"
    with app_client(db) as client:
        register(client, "Ann")  # signed in: the session cookie
        pat = client.post("/api/me/tokens", json={}, headers=OWN).json()["token"]
        as_ann = {"Authorization": f"Bearer {pat}"}
        made = client.post("/api/tournaments", json={
            "name": "Dora", "format": "progressive", "rounds": 1, "boards_per_round": 1,
            "pause": 0, "fill": "random", "settings": FAST}).json()
        tid, director = made["tournament"], made["director_token"]
        base = f"/api/tournaments/{tid}"
        # the name given is not the one kept: the account's is
        entered = client.post(f"{base}/entries", json={"names": ["Someone"]}, headers=as_ann)
        assert entered.status_code == 201, entered.text
        assert entered.json()["entrant"] == "Ann" and list(entered.json()["tokens"]) == ["Ann"]
        again = client.post(f"{base}/entries", json={"names": ["Ann again"]}, headers=as_ann)
        assert again.status_code == 409 and again.json()["reason"] == "bad_name", again.text
        guest = other(client, "10.0.0.2").post(f"{base}/entries", json={"names": ["Bo"]})
        assert guest.status_code == 201 and guest.json()["entrant"] == "Bo", guest.text
        # where Ann sits: by her API token, and by her session cookie on the server's pages
        assert client.get(f"{base}/me", headers=as_ann).json()["name"] == "Ann"
        assert client.get(f"{base}/me", headers=OWN).json()["name"] == "Ann"
        stranger = client.get(f"{base}/me", headers={"Origin": "http://evil.example"})
        assert stranger.status_code == 401, stranger.text  # another page: no account
        started = client.post(f"{base}/start", headers={"Authorization": f"Bearer {director}"})
        assert started.status_code == 200, started.text
        me: dict[str, Any] = client.get(f"{base}/me", headers=as_ann).json()
        assert me["table_id"] is not None and me["round"] == 0, me
        # her seat at the round's table is her account's; Bo's is a guest's
        store = Store(db)
        try:
            seats = {p.name: p.account_id for t in started.json()["tables"]
                     for p in store.load(t["id"]).players}
            ann = find_account(store.engine, name_key("Ann"))
        finally:
            store.close()
        assert ann is not None and seats["Ann"] == ann.id and seats["Bo"] is None

"""Idle rooms leave memory: a table nobody is connected to that waits for its start or is over
is dropped after ``room_idle`` seconds, and comes back from the database, whole, when asked."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from pitchcards.server import ServerConfig, create_app

pytestmark = pytest.mark.timeout(120)


def test_an_idle_room_leaves_memory_and_comes_back(tmp_path):
    app = create_app(ServerConfig(db_url=f"sqlite:///{tmp_path / 'server.db'}", room_idle=0.0))
    hub = app.state.hub
    with TestClient(app) as client:
        ann = client.post("/api/tables", json={"name": "Ann"}).json()
        bob = client.post(f"/api/invites/{ann['invite']}/seats", json={"name": "Bob"}).json()
        playing = client.post("/api/tables", json={
            "name": "Cy", "bots": {"1": "random", "2": "random", "3": "random"},
            "settings": {"bot_delay": 0, "hand_pause": 0}}).json()
        assert client.post(f"/api/tables/{playing['table']}/start",
                           headers={"Authorization": f"Bearer {playing['token']}"}
                           ).status_code == 200
        assert {ann["table"], playing["table"]} <= set(hub.rooms)

        with client.websocket_connect(f"/ws/{ann['table']}") as ws:  # someone is there: it stays
            ws.send_json({"type": "hello", "protocol": 1, "token": bob["token"]})
            assert ws.receive_json()["type"] == "welcome"
            assert ann["table"] not in hub.unload_idle(time.monotonic() + 1)
        gone = hub.unload_idle(time.monotonic() + 1)
        assert ann["table"] in gone and ann["table"] not in hub.rooms
        assert playing["table"] not in gone  # a table in play keeps its room (its bots run)

        info = client.get(f"/api/tables/{ann['table']}").json()  # loaded again, whole
        assert [s["name"] for s in info["seats"][:2]] == ["Ann", "Bob"]
        assert info["status"] == "waiting"
        assert client.post(f"/api/tables/{ann['table']}/start",
                           headers={"Authorization": f"Bearer {ann['token']}"}
                           ).json()["status"] == "playing"

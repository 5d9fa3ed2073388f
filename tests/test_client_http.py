"""The client's HTTP half against a server that drops a connection as a request arrives (what a
server closing an idle keep-alive connection looks like to the client that reused it): a read
is sent again on a new connection, a write is never sent twice."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from pitchcards.client import Client

pytestmark = pytest.mark.timeout(60)


class DropFirst:
    """A raw HTTP/1.1 server on 127.0.0.1: the first request's connection is closed unanswered,
    later ones get a JSON reply; it counts the requests it saw."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.decode().split("\r\n"):
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        if length:
            await reader.readexactly(length)
        self.requests.append(head.decode().split(" ", 2)[1])
        if len(self.requests) > 1:
            body = json.dumps({"table": "t1", "status": "playing"}).encode()
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                         b"content-length: " + str(len(body)).encode() +
                         b"\r\nconnection: close\r\n\r\n" + body)
            await writer.drain()
        writer.close()


def test_a_read_dropped_by_the_server_is_sent_again_once():
    async def run() -> None:
        server = DropFirst()
        async with server as url, Client(url) as api:
            assert (await api.table("t1"))["status"] == "playing"
        assert server.requests == ["/api/tables/t1", "/api/tables/t1"]

    asyncio.run(run())


def test_a_write_dropped_by_the_server_is_not_sent_twice():
    async def run() -> None:
        server = DropFirst()
        async with server as url, Client(url) as api:
            with pytest.raises((httpx.ReadError, httpx.RemoteProtocolError)):
                await api.create_table("Ann")
        assert server.requests == ["/api/tables"]

    asyncio.run(run())

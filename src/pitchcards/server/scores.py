"""The scorekeeper on ``pitch serve`` (``/score``, issue 16): score sheets of real tables, kept
on the server so a second phone can follow them.  (Being built: the routes come here.)"""

from __future__ import annotations

from fastapi import APIRouter

from .hub import Hub

__all__ = ["scores_router"]


def scores_router(hub: Hub) -> APIRouter:
    """The scorekeeper's pages and API, mounted by :func:`pitchcards.server.app.create_app`."""
    del hub
    return APIRouter()

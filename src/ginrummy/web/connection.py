"""One WebSocket client of the browser app: its seat, its rate limit and its send queue."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from .protocol import RateLimiter, dumps
from .table import Table

__all__ = ["SEND_QUEUE", "Connection", "Tap"]

SEND_QUEUE = 256  # messages waiting for a slow client before it is disconnected
Tap = Callable[["Connection", dict[str, Any], str], None]


class Connection:
    """One WebSocket client: its seat (once attached), its rate limit and its send queue."""

    _next_id = 0

    def __init__(
        self, websocket: WebSocket, *, owner: bool, rate: float, burst: float, tap: Tap | None, client: str = ""
    ) -> None:
        Connection._next_id += 1
        self.id = Connection._next_id
        self.websocket = websocket
        self.owner = owner  # on this computer: may list and resume saved games
        self.client = client  # the client's address (quotas are per address)
        self.limiter = RateLimiter(rate, burst)
        self.table: Table | None = None
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.tap = tap
        self.overflow = False
        self.lang = "en"  # the language of its texts (set by the app: ?lang=, else Accept-Language)
        self.limited = False  # counted against its address's quotas
        self.games: RateLimiter = RateLimiter(0.0, 1e9)  # new games on this connection (set by the app)

    def send(self, msg: dict[str, Any]) -> None:
        """Queue one message for this client (never blocks the game)."""
        text = dumps(msg)
        if self.tap is not None:
            self.tap(self, msg, text)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflow = True  # the client stopped reading: drop it, it will reconnect

    def error(self, code: str, message: str, *, ref: str | None = None, seq: int | None = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            msg["ref"] = ref
        if seq is not None:
            msg["seq"] = seq
        self.send(msg)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.overflow:
                with contextlib.suppress(Exception):
                    await self.websocket.close(code=1008 if self.overflow else 1000)
                return
            await self.websocket.send_text(text)

"""Saving the browser's games: a background writer that coalesces bursts of changes and writes
the moments that matter first; shutting down flushes every pending save."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, cast

from ..errors import GinRummyError, StoreError
from ..session import Session
from ..store import Store
from .table import Table

__all__ = ["Saver"]

log = logging.getLogger("ginrummy.web")


class _Snapshot:
    """A frozen copy of a session for the saver thread (the live one keeps changing)."""

    def __init__(self, session: Session) -> None:
        self.state = session.state.clone()
        self.seats = list(session.seats)
        self.watched = session.watched  # computer players only: filed in nobody's history
        self.takebacks = session.takebacks
        self._json = session.to_json()

    def to_json(self) -> dict[str, Any]:
        return self._json


class Saver:
    """Writes changed games to the store in the background, one at a time, newest state only.

    Bursts coalesce: a game changed ten times while others were being written is written once.
    Moments that matter are written first (a game created or joined, a deal, the end of a hand:
    the commitment shown for the next deal must survive a crash).  While more than two games wait,
    the saver pauses ``pace`` seconds between writes so that, under heavy load, saving never
    crowds out play; a flush (shutting down) writes everything at once.
    """

    def __init__(self, store: Store, pace: float = 0.05) -> None:
        self.store = store
        self.pace = pace
        self.dirty: dict[str, Table] = {}
        self.urgent: set[str] = set()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._hurry = False
        self._task: asyncio.Task[None] | None = None
        self.errors = 0
        self.saves = 0

    def start(self) -> None:
        # Fresh primitives for the running event loop (an app may be started more than once).
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._hurry = False
        if self.dirty:
            self._wake.set()
        else:
            self._idle.set()
        self._task = asyncio.create_task(self._run())

    def mark(self, table: Table, urgent: bool = False) -> None:
        self.dirty[table.game_id] = table
        if urgent:
            self.urgent.add(table.game_id)
        self._idle.clear()
        self._wake.set()

    def _next(self) -> str:
        for game_id in self.urgent:
            if game_id in self.dirty:
                self.urgent.discard(game_id)
                return game_id
        self.urgent.clear()
        return next(iter(self.dirty))

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.dirty:
                game_id = self._next()
                table = self.dirty.pop(game_id)
                async with table.lock:
                    snap = _Snapshot(table.session)
                try:
                    if snap.watched and snap.state.game_over:  # nobody's game: into no history
                        await asyncio.to_thread(self.store.delete_game, game_id)
                    else:
                        await asyncio.to_thread(self.store.save_game, game_id, cast(Session, snap))
                    self.saves += 1
                except (StoreError, GinRummyError, OSError) as exc:  # keep serving; report it
                    self.errors += 1
                    log.error("could not save game %s: %s", game_id, exc)
                if len(self.dirty) > 2 and self.pace and not self._hurry and not self.urgent:
                    await asyncio.sleep(self.pace)  # busy: let play go first, coalesce more
            self._idle.set()

    async def flush(self) -> None:
        """Wait until every change made so far is on disk."""
        if self.dirty:
            self._hurry = True
            self._idle.clear()
            self._wake.set()
        await self._idle.wait()
        self._hurry = False

    async def stop(self) -> None:
        await self.flush()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

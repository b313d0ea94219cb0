"""Tables of the browser app: one game, its seats (people with seat tokens, computer players),
the connections at each seat, and the rules of who may see what.

Every game in the browser is a :class:`Table`: a game against the computer is a table with one
person, a table for friends has an invitation code.  The server is authoritative: clients send
requests, the table checks them against :class:`~ginrummy.session.Session`, and each connection
receives only :meth:`Session.observation` of its own seat plus the table's public facts
(:meth:`Table.public`).  Seat tokens come from :func:`secrets.token_urlsafe` and only their
SHA-256 digests are stored (``web.sqlite3`` beside the saved-games database).

Games are saved with :class:`ginrummy.store.Store` (the terminal app's database) by a background
:class:`Saver` that writes each changed game once at a time and coalesces bursts, so a slow disk
never delays an answer; shutting the server down flushes every pending save.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..actions import Action
from ..agents import available_agents
from ..errors import GinRummyError, IllegalAction, StoreError
from ..names import BadName, distinct_name, safe_display_name
from ..session import HUMAN, ComputerPlayerError, Session
from ..store import GameInUse, Store, new_game_id
from ..variants import find_variant, seats_of, solo_variants, variant_names
from ..words import computer_failed, default_players, move_text
from .protocol import TABLE_VARIANTS, ProtocolError, variant_facts

if TYPE_CHECKING:
    from .server import Connection

__all__ = ["JOKER_SEAT", "Quotas", "SeatBook", "Table", "TableManager", "default_opponent"]

log = logging.getLogger("ginrummy.web")
SOLO = solo_variants()  # the solitaires (one person against the Joker), from the registry

JOKER_SEAT = "joker"
_OPPONENT_PREFERENCE = ("expert", "planner", "greedy", "random")
Tap = Callable[["Connection", dict[str, Any], str], None]


def default_opponent(variant: str) -> str | None:
    """The strongest computer player available for ``variant`` (None in the solitaires)."""
    if variant in SOLO:
        return None
    agents = available_agents(variant)
    for name in _OPPONENT_PREFERENCE:
        if name in agents:
            return name
    return agents[0] if agents else None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


class SeatBook:
    """Which seat token opens which seat of which game, which invitation opens which seat, who is
    ready for the next deal, and which games are web tables.

    A small SQLite file of the web server's own (``web.sqlite3`` in the data directory); tokens are
    stored as SHA-256 digests, so a copy of the file does not let anyone take a seat.  Each open
    seat of a table has its own invitation code (``web_invites``); a code opens that seat only,
    once.  (``web_games.invite`` is the one code per table of older versions: no longer honoured.)
    """

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "web.sqlite3"
        self._lock = threading.Lock()
        # One connection for the server's life: closing the last connection of a WAL database
        # checkpoints it with an fsync, which would cost ~20 ms a write.
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        with self._conn() as c:
            c.execute("PRAGMA journal_mode = WAL")
            c.execute("PRAGMA synchronous = NORMAL")
            c.executescript(
                """
                CREATE TABLE IF NOT EXISTS web_games (
                    game_id TEXT PRIMARY KEY, kind TEXT NOT NULL, invite TEXT UNIQUE,
                    hints INTEGER NOT NULL, created REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS web_seats (
                    token_sha256 TEXT PRIMARY KEY, game_id TEXT NOT NULL, seat INTEGER NOT NULL,
                    created REAL NOT NULL);
                CREATE INDEX IF NOT EXISTS web_seats_by_game ON web_seats (game_id);
                CREATE TABLE IF NOT EXISTS web_invites (
                    code TEXT PRIMARY KEY, game_id TEXT NOT NULL, seat INTEGER NOT NULL,
                    UNIQUE (game_id, seat));
                CREATE TABLE IF NOT EXISTS web_ready (game_id TEXT PRIMARY KEY, seats TEXT NOT NULL);
                """
            )

    @contextlib.contextmanager
    def _conn(self) -> Any:
        with self._lock:
            yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_game(self, game_id: str, kind: str, hints: bool) -> None:
        with self._conn() as c:
            c.execute(
                "INSERT OR REPLACE INTO web_games (game_id, kind, invite, hints, created) VALUES (?, ?, NULL, ?, ?)",
                (game_id, kind, int(hints), time.time()),
            )

    def game(self, game_id: str) -> tuple[str, bool] | None:
        """(kind, hints) of a web game, or None."""
        with self._conn() as c:
            row = c.execute("SELECT kind, hints FROM web_games WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else (row[0], bool(row[1]))

    def games_created_before(self, when: float) -> list[str]:
        with self._conn() as c:
            rows = c.execute("SELECT game_id FROM web_games WHERE created < ?", (when,)).fetchall()
        return [str(r[0]) for r in rows]

    def forget(self, game_id: str) -> None:
        """Everything about one game: its seats, tokens, invitations and readiness."""
        with self._conn() as c:
            c.execute("BEGIN")
            for table in ("web_games", "web_seats", "web_invites", "web_ready"):
                c.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            c.execute("COMMIT")

    # -- invitations ------------------------------------------------------------------------------
    def issue_invite(self, game_id: str, seat: int) -> str:
        """A new invitation code for ``seat`` (the seat's previous code stops working)."""
        code = secrets.token_urlsafe(12)
        with self._conn() as c:
            c.execute("BEGIN")
            c.execute("DELETE FROM web_invites WHERE game_id = ? AND seat = ?", (game_id, seat))
            c.execute("INSERT INTO web_invites (code, game_id, seat) VALUES (?, ?, ?)", (code, game_id, seat))
            c.execute("COMMIT")
        return code

    def drop_invite(self, game_id: str, seat: int) -> None:
        with self._conn() as c:
            c.execute("DELETE FROM web_invites WHERE game_id = ? AND seat = ?", (game_id, seat))

    def invites(self, game_id: str) -> dict[int, str]:
        with self._conn() as c:
            rows = c.execute("SELECT seat, code FROM web_invites WHERE game_id = ?", (game_id,)).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def seat_by_invite(self, code: str) -> tuple[str, int] | None:
        with self._conn() as c:
            row = c.execute("SELECT game_id, seat FROM web_invites WHERE code = ?", (code,)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def legacy_invite(self, code: str) -> str | None:
        """The game of a one-per-table invitation code of an older version."""
        with self._conn() as c:
            row = c.execute("SELECT game_id FROM web_games WHERE invite = ?", (code,)).fetchone()
        return None if row is None else str(row[0])

    # -- seat tokens ------------------------------------------------------------------------------
    def add_token(self, game_id: str, seat: int) -> str:
        """A new unguessable token for ``seat`` of ``game_id`` (the only copy goes to the client)."""
        token = secrets.token_urlsafe(24)
        with self._conn() as c:
            c.execute(
                "INSERT INTO web_seats (token_sha256, game_id, seat, created) VALUES (?, ?, ?, ?)",
                (_digest(token), game_id, seat, time.time()),
            )
        return token

    def claim(self, game_id: str, seat: int) -> str:
        """Take ``seat`` by its invitation: a new token, and the seat's code is used up (one step)."""
        token = secrets.token_urlsafe(24)
        with self._conn() as c:
            c.execute("BEGIN")
            c.execute("DELETE FROM web_invites WHERE game_id = ? AND seat = ?", (game_id, seat))
            c.execute(
                "INSERT INTO web_seats (token_sha256, game_id, seat, created) VALUES (?, ?, ?, ?)",
                (_digest(token), game_id, seat, time.time()),
            )
            c.execute("COMMIT")
        return token

    def revoke_seat(self, game_id: str, seat: int) -> None:
        """Every token of ``seat``: they open nothing any more."""
        with self._conn() as c:
            c.execute("DELETE FROM web_seats WHERE game_id = ? AND seat = ?", (game_id, seat))

    def seat_of(self, game_id: str, token: str) -> int | None:
        with self._conn() as c:
            row = c.execute(
                "SELECT seat FROM web_seats WHERE token_sha256 = ? AND game_id = ?", (_digest(token), game_id)
            ).fetchone()
        return None if row is None else int(row[0])

    def claimed_seats(self, game_id: str) -> set[int]:
        with self._conn() as c:
            rows = c.execute("SELECT DISTINCT seat FROM web_seats WHERE game_id = ?", (game_id,)).fetchall()
        return {int(r[0]) for r in rows}

    # -- ready for the next deal ------------------------------------------------------------------
    def set_ready(self, game_id: str, seats: set[int]) -> None:
        with self._conn() as c:
            if seats:
                c.execute(
                    "INSERT OR REPLACE INTO web_ready (game_id, seats) VALUES (?, ?)",
                    (game_id, json.dumps(sorted(seats))),
                )
            else:
                c.execute("DELETE FROM web_ready WHERE game_id = ?", (game_id,))

    def ready(self, game_id: str) -> set[int]:
        with self._conn() as c:
            row = c.execute("SELECT seats FROM web_ready WHERE game_id = ?", (game_id,)).fetchone()
        if row is None:
            return set()
        try:
            return {int(x) for x in json.loads(row[0])}
        except (ValueError, TypeError):
            return set()


class _Snapshot:
    """A frozen copy of a session for the saver thread (the live one keeps changing)."""

    def __init__(self, session: Session) -> None:
        self.state = session.state.clone()
        self.seats = list(session.seats)
        self._json = session.to_json()

    def to_json(self) -> dict[str, Any]:
        return self._json


_WORKER_AGENTS: dict[tuple[str, str], Any] = {}


def _warm_worker(parent: int | None = None) -> None:
    """Worker start: exit when the server is gone (even if it was killed and could not stop its
    workers), and import the computer players (and their tables) once."""
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="ginrummy-parent-watch", daemon=True).start()
    available_agents()


def _watch_parent(parent: int, interval: float = 0.5) -> None:
    """In a worker: end this process as soon as ``parent`` is no longer its parent (a killed
    parent's children are handed to another process)."""
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(interval)


def _decide_in_worker(kind: str, variant: str, observation: dict[str, Any], legal: list[str]) -> tuple[str, str | None]:
    """A computer player's decision, computed in a worker process: the action as a string and its
    reasons (which the session's move log keeps private until the hand is over)."""
    from ..agents import make_agent

    agent = _WORKER_AGENTS.get((kind, variant))
    if agent is None:
        agent = _WORKER_AGENTS[(kind, variant)] = make_agent(kind, variant)
    decision = agent.decide(observation, [Action.parse(a) for a in legal])
    return str(decision.action), decision.explanation


def _analyse_in_worker(session: Session) -> dict[str, Any] | None:
    """The solitaire post-game analysis, the terminal's own (:func:`ginrummy.finish.solitaire_analysis`)."""
    from ..finish import solitaire_analysis

    return solitaire_analysis(session)


def _advise_in_worker(variant: str, observation: dict[str, Any], legal: list[str]) -> dict[str, Any]:
    from ..agents.advisor import advise

    return advice_json(advise(observation, [Action.parse(a) for a in legal], variant))


class Thinker:
    """Where the computer players and the advisor think: in worker processes, so that a long
    think never holds up the event loop (``workers`` > 0, as ``ginrummy serve`` does), or inline
    in the event loop (``workers`` = 0: tests, tiny machines).

    The pool starts when it is first needed (an idle server holds no workers), is joined when the
    server stops (a worker still thinking is given ``join_timeout`` seconds, then terminated), and
    each worker ends itself when the server process is gone."""

    def __init__(self, workers: int = 0, join_timeout: float = 5.0) -> None:
        self.workers = workers
        self.join_timeout = join_timeout
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False
        self._warmed = False

    def start(self) -> None:
        """Nothing to do until a computer player or a hint needs a worker (see :meth:`_pool`)."""
        self.broken = False

    def _pool(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0 or self.broken:
            return None
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_worker,
                initargs=(os.getpid(),),
            )
        return self.pool

    def warm(self) -> None:
        """Start the workers now (a table with computer players was opened), so that the first
        computer move does not wait for them."""
        pool = self._pool()
        if pool is not None and not self._warmed:
            self._warmed = True
            for _ in range(self.workers):
                pool.submit(_warm_worker)

    def stop(self) -> None:
        """Stop the pool and wait for every worker to end (terminate one that will not)."""
        pool, self.pool = self.pool, None
        self._warmed = False
        if pool is None:
            return
        procs = [p for p in (getattr(pool, "_processes", None) or {}).values() if p is not None]
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + self.join_timeout
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in procs:
            if proc.is_alive():
                log.warning("a worker process did not stop in %g s: terminating it", self.join_timeout)
                proc.terminate()
                proc.join(2)
            if proc.is_alive():
                proc.kill()
                proc.join(2)
        with contextlib.suppress(Exception):
            pool.shutdown(wait=True)

    async def computer_step(self, session: Session) -> None:
        """The computer seat to act takes one action (:class:`ComputerPlayerError` if it fails)."""
        seat = session.to_act
        assert seat is not None
        pool = self._pool()
        if pool is not None:
            st = session.state
            obs, legal = st.observation(seat), [str(a) for a in st.legal_actions()]
            try:
                loop = asyncio.get_running_loop()
                action, reason = await loop.run_in_executor(
                    pool, _decide_in_worker, session.seats[seat], st.variant, obs, legal
                )
            except BrokenProcessPool:
                log.error("the computer players' worker process died; thinking in the server from now on")
                self.broken = True
            except Exception as exc:  # the agent failed in the worker: its error may list its hand
                raise ComputerPlayerError(computer_failed(st.players[seat])) from exc
            else:
                session.play_computer(seat, action, reason)
                return
        session.computer_step()

    async def advise(self, variant: str, observation: dict[str, Any], legal: list[str]) -> dict[str, Any]:
        """The advisor's advice as a message, from inputs taken under the table's lock (see
        :func:`hint_inputs`); the advisor itself runs without holding the table up."""
        pool = self._pool()
        if pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(pool, _advise_in_worker, variant, observation, legal)
            except BrokenProcessPool:
                log.error("the hints' worker process died; thinking in the server from now on")
                self.broken = True
        return _advise_in_worker(variant, observation, legal)

    async def analyse(self, session: Session) -> dict[str, Any] | None:
        """A finished solitaire's analysis, worked out in a worker process (or a thread)."""
        pool = self._pool()
        if pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(pool, _analyse_in_worker, session)
            except BrokenProcessPool:
                log.error("the analysis' worker process died; thinking in the server from now on")
                self.broken = True
        return await asyncio.to_thread(_analyse_in_worker, session)


def hint_inputs(session: Session, seat: int) -> tuple[str, dict[str, Any], list[str]]:
    """What the advisor needs for ``seat`` (see :meth:`Session.advised_seat`), taken here so that
    the advice itself can be worked out in a worker process."""
    st = session.state
    target = session.advised_seat(seat)
    return st.variant, st.observation(target), [str(a) for a in st.legal_actions()]


class Table:
    """One game in the browser: its session, seats, connections and the sitter's suggestion."""

    def __init__(
        self,
        game_id: str,
        session: Session,
        *,
        kind: str,
        hints: bool,
        claimed: set[int],
        invites: dict[int, str] | None = None,
        ready: set[int] | None = None,
    ) -> None:
        self.game_id = game_id
        self.session = session
        self.kind = kind  # "solo" (one person and computers) or "table" (people invited)
        self.invites = dict(invites or {})  # open seat -> its own invitation code (the creator sees them)
        self.hints = hints
        self.claimed = set(claimed)  # person seats that have a token
        self.conns: dict[int, set[Connection]] = {}
        self.ready: set[int] = set(ready or ())  # kept in the seat book: survives a restart
        now = time.monotonic()
        self.away_since: dict[int, float] = {i: now for i in self.claimed}  # person seats with no connection
        self.replace_after = 120.0  # seconds a person may be away before the creator may replace them
        self.wakeups: dict[int, asyncio.TimerHandle] = {}
        self.suggestion: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.failure: str | None = None
        self.suggested_at: tuple[int, int] | None = None  # the position a computer sitter advised on
        self.last_seen = time.monotonic()
        self.analysis: dict[str, Any] | None = None  # a finished solitaire's analysis, once worked out
        self.analysing: asyncio.Task[None] | None = None

    # -- who sits where ---------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.session.state.variant

    def person_seats(self) -> list[int]:
        return [i for i, k in enumerate(self.session.seats) if k == HUMAN]

    def open_seats(self) -> list[int]:
        return [i for i in self.person_seats() if i not in self.claimed]

    def seat_kind(self, seat: int) -> str:
        kind = self.session.seats[seat]
        if kind == HUMAN:
            return "person" if seat in self.claimed else "open"
        if kind == JOKER_SEAT or (self.variant in SOLO and seat == 1):
            return "joker"
        return "computer"

    @property
    def creator(self) -> int | None:
        """The seat of the person who created a table for friends (they manage its invitations)."""
        return 0 if self.kind == "table" else None

    @property
    def invite(self) -> str | None:
        """The invitation of the first open seat (the one to share when only one seat is open)."""
        return self.invites[min(self.invites)] if self.invites else None

    def replaceable(self) -> list[int]:
        """The creator may give these seats to a computer or a new link: open seats, and seats whose
        person has been away ``replace_after`` seconds."""
        if self.kind != "table":
            return []
        now = time.monotonic()
        out = []
        for seat in self.person_seats():
            if seat == self.creator:
                continue
            away = self.away_since.get(seat)
            if seat not in self.claimed or (away is not None and now - away >= self.replace_after):
                out.append(seat)
        return out

    def roles(self) -> dict[str, int] | None:
        """Box, captain and sitter of the hand in play (three only)."""
        st = self.session.state
        if not find_variant(st.variant).roles or not st.logs:
            return None
        box, captain = st.hand_dealer, st.hand_nondealer
        return {"box": box, "captain": captain, "sitter": 3 - box - captain}

    # -- what a seat is told ----------------------------------------------------------------------
    def public(self, seat: int) -> dict[str, Any]:
        """The table's facts for ``seat``: seats, presence, the score sheet, the invitation, and the
        sitter's suggestion for the captain and the sitter only."""
        st = self.session.state
        seats = []
        for i in range(st.num_seats):
            kind = self.seat_kind(i)
            entry: dict[str, Any] = {"name": st.players[i], "kind": kind, "you": i == seat}
            if kind == "computer":
                entry["agent"] = self.session.seats[i]
            if kind in ("person", "open"):
                entry["connected"] = bool(self.conns.get(i))
                entry["ready"] = i in self.ready
            seats.append(entry)
        sheet = [{"hand": n, "result": r.result, "points": list(r.points)} for n, r in enumerate(st.results, start=1)]
        info: dict[str, Any] = {
            "game": self.game_id,
            "kind": self.kind,
            "seat": seat,
            "seats": seats,
            "invite": self.invite if seat == self.creator else None,
            "hints": self.hints,
            "sheet": sheet,
            "waiting_for": self.open_seats(),
            "facts": variant_facts(st.variant),
        }
        roles = self.roles()
        if self.suggestion is not None and roles is not None and seat in (roles["captain"], roles["sitter"]):
            info["suggestion"] = self.suggestion
        if self.failure:
            info["failure"] = self.failure
        if st.game_over:  # the final total of each seat line by line: every bonus on its own line
            info["final_parts"] = [[[what, points] for what, points in seat] for seat in st.final_parts()]
        if self.analysing is not None or self.analysis is not None:
            # a finished solitaire: its accuracy and the analysis' lines for people (None: still working)
            a = self.analysis
            info["analysis"] = None if a is None else {"accuracy": a.get("accuracy"), "summary": a.get("summary", [])}
        if seat == self.creator:
            info["invites"] = {str(k): v for k, v in sorted(self.invites.items())}
            info["replaceable"] = self.replaceable()
            info["replace_after"] = self.replace_after
        return info

    def state_message(self, seat: int, seq: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "state", "obs": self.session.observation(seat), "table": self.public(seat)}
        msg["log"] = self.session.log_text(seat)  # this hand's moves in words, as this seat may read them
        if seq is not None:
            msg["seq"] = seq
        return msg

    def broadcast(self, acting: Connection | None = None, seq: int | None = None) -> None:
        """Send every connection its own seat's state (the acting one gets its ``seq`` back)."""
        for seat, conns in self.conns.items():
            if not conns:
                continue
            msg = self.state_message(seat)
            for conn in list(conns):
                if conn is acting and seq is not None:
                    conn.send({**msg, "seq": seq})
                else:
                    conn.send(msg)

    def computer_to_act(self) -> bool:
        seat = self.session.to_act
        return seat is not None and not self.session.is_human(seat)


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


@dataclass(frozen=True)
class Quotas:
    """What one client may use, and how long unused things are kept.

    A *client* is a network address (behind a reverse proxy: the address the proxy forwards).
    Clients on this computer are not limited unless ``limit_loopback`` is set (tests do)."""

    connections_per_client: int = 16  # open WebSockets at once
    games_per_client: int = 10  # games a client may start in a burst...
    game_refill_seconds: float = 60.0  # ...and one more each this many seconds
    max_tables: int = 2000  # tables held in memory; the idle ones go first beyond this
    idle_seconds: float = 600.0  # a table nobody is connected to leaves memory after this (it stays saved)
    unplayed_expiry: float = 24 * 3600.0  # a browser game never dealt is deleted after this
    sweep_seconds: float = 60.0  # how often the above are looked at
    limit_loopback: bool = False


class TableManager:
    """All tables of one server: creating, joining, attaching, acting, and the computer players."""

    def __init__(
        self,
        store: Store,
        *,
        computer_delay: float = 0.6,
        tap: Tap | None = None,
        workers: int = 0,
        quotas: Quotas | None = None,
        replace_after: float = 120.0,
        deal_seed: int | None = None,
    ) -> None:
        self.store = store
        self.book = SeatBook(store.data_dir)
        self.computer_delay = computer_delay
        self.tap = tap
        self.tables: dict[str, Table] = {}
        self.saver = Saver(store)
        self.thinker = Thinker(workers)
        self.quotas = quotas or Quotas()
        self.replace_after = replace_after
        self.deal_seed = deal_seed  # tests: every game's deals follow from this seed (never in real play)
        self._games_made = 0
        self._sweeper: asyncio.Task[None] | None = None
        self._releasing: dict[str, asyncio.Future[None]] = {}  # game locks being given up

    async def start(self) -> None:
        self.tables.clear()  # tables belong to one event loop; they reload from the store on demand
        self.saver.dirty.clear()
        self.saver.start()
        self.thinker.start()
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def shutdown(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
            for handle in table.wakeups.values():
                handle.cancel()
        await self.saver.stop()
        for pending in list(self._releasing.values()):
            await pending
        await asyncio.to_thread(self.store.release_all)  # other programs may open these games now
        await asyncio.to_thread(self.thinker.stop)  # every worker process joined before we return

    # -- creating ---------------------------------------------------------------------------------
    def _new_session(self, variant: str, options: dict[str, Any] | None, seats: list[str], names: list[str]) -> Session:
        seed = None
        if self.deal_seed is not None:
            self._games_made += 1
            seed = self.deal_seed + 1000 * self._games_made
        try:
            return Session.new(variant, options, players=names, seats=seats, deal_seed=seed)
        except GinRummyError as exc:
            raise ProtocolError("bad_options", str(exc)) from None

    async def create_solo(
        self, variant: str, options: dict[str, Any] | None, opponent: str | None, name: str | None
    ) -> tuple[Table, int, str]:
        """A game of one person (seat 0) against computer players (or the Joker)."""
        n = seats_of(variant) if variant in variant_names() else 2
        if variant in SOLO:
            if opponent not in (None, JOKER_SEAT):
                raise ProtocolError("bad_message", f"{variant} is played against the Joker; leave out 'opponent'")
            seats, names = [HUMAN, JOKER_SEAT], ["Joker"]
        else:
            agent = opponent or default_opponent(variant)
            self._check_agent(variant, agent)
            assert agent is not None
            seats = [HUMAN] + [agent] * (n - 1)
            names = default_players(variant, seats)[1:]  # the names every front end gives
        you = name or "You"
        try:
            distinct_name(you, ["", *names], 0)
        except BadName as exc:
            raise ProtocolError("name_taken", str(exc)) from None
        session = self._new_session(variant, options, seats, [you, *names])
        return await self._register(session, kind="solo", hints=True)

    async def create_table(
        self, variant: str, others: list[str], options: dict[str, Any] | None, hints: bool, name: str | None
    ) -> tuple[Table, int, str]:
        """A table for several people; the creator takes seat 0, ``others`` fill seats 1, 2...; each
        open seat gets its own invitation."""
        if variant not in TABLE_VARIANTS:
            raise ProtocolError("bad_message", f"tables are for {', '.join(TABLE_VARIANTS)}, not {variant}")
        n = seats_of(variant)
        if len(others) != n - 1:
            raise ProtocolError("bad_message", f"a {variant} table has {n - 1} other seats, got {len(others)}")
        seats, names = [HUMAN], [name or "Player 1"]
        for i, kind in enumerate(others, start=2):
            if kind == "person":
                seats.append(HUMAN)
                names.append(f"Player {i}")
            else:
                self._check_agent(variant, kind)
                seats.append(kind)
                names.append(default_players(variant, seats)[-1])  # as every front end names it
        if seats.count(HUMAN) < 2:
            raise ProtocolError(
                "bad_message", "a table needs at least one other person; play against the computer with 'new'"
            )
        try:
            distinct_name(names[0], names, 0)
        except BadName as exc:
            raise ProtocolError("name_taken", str(exc)) from None
        session = self._new_session(variant, options, seats, names)
        return await self._register(session, kind="table", hints=hints)

    def _check_agent(self, variant: str, agent: str | None) -> None:
        agents = available_agents(variant)
        if agent is None or agent not in agents:
            raise ProtocolError(
                "bad_message",
                f"no computer player {agent!r} for {variant}; choose one of {', '.join(agents) or '(none installed)'}",
            )

    async def _register(self, session: Session, *, kind: str, hints: bool) -> tuple[Table, int, str]:
        self._make_room()
        game_id = new_game_id()
        while game_id in self.tables:
            game_id = new_game_id()
        self.book.add_game(game_id, kind, hints)
        token = self.book.add_token(game_id, 0)
        invites = {}
        if kind == "table":
            for seat, seat_kind in enumerate(session.seats):
                if seat != 0 and seat_kind == HUMAN:
                    invites[seat] = self.book.issue_invite(game_id, seat)
        table = Table(game_id, session, kind=kind, hints=hints, claimed={0}, invites=invites)
        table.replace_after = self.replace_after
        self.tables[game_id] = table
        self.saver.mark(table, urgent=True)
        self._warm(table)
        return table, 0, token

    def _warm(self, table: Table) -> None:
        """Start the worker processes now if this table will need them (computer players)."""
        if any(not table.session.is_human(i) for i in range(table.session.state.num_seats)):
            self.thinker.warm()

    async def join(self, invite: str, seat: int | None, name: str | None) -> tuple[Table, int, str]:
        """Take the seat that ``invite`` opens (each open seat has its own invitation)."""
        found = self.book.seat_by_invite(invite)
        if found is None:
            if self.book.legacy_invite(invite) is not None:
                raise ProtocolError(
                    "unknown_invite",
                    "this invitation link is from an older version: ask the table's creator for your seat's link",
                )
            raise ProtocolError("unknown_invite", "no seat has this invitation (it may have been replaced or used)")
        game_id, invited = found
        table = await self._load(game_id)
        if table is None:
            raise ProtocolError("unknown_invite", "no table has this invitation (it may have ended)")
        async with table.lock:
            if seat is not None and seat != invited:
                raise ProtocolError("seat_taken", f"this invitation opens seat {invited}, not seat {seat}")
            if table.invites.get(invited) != invite or invited not in table.open_seats():
                raise ProtocolError("unknown_invite", "this invitation has been used or replaced")
            st = table.session.state
            if name and not st.logs:  # names are fixed once the first hand is dealt
                try:
                    distinct_name(name, st.players, invited)
                except BadName as exc:
                    raise ProtocolError("name_taken", str(exc)) from None
            token = self.book.claim(table.game_id, invited)
            table.claimed.add(invited)
            del table.invites[invited]
            table.away_since[invited] = time.monotonic()
            if name and not st.logs:
                st.players[invited] = name
            self.saver.mark(table, urgent=True)
            table.broadcast()
        return table, invited, token

    async def reissue(
        self, table: Table, seat: int, by: int, conn: Connection | None = None, seq: int | None = None
    ) -> None:
        """The creator gives ``seat`` a new invitation: the old link stops working; a seat whose
        person has been away long enough opens again (their token stops working)."""
        async with table.lock:
            self._check_replaceable(table, seat, by)
            if seat in table.claimed:
                self.book.revoke_seat(table.game_id, seat)
                table.claimed.discard(seat)
                table.away_since.pop(seat, None)
                table.ready.discard(seat)
                self.book.set_ready(table.game_id, table.ready)
                for conn in list(table.conns.pop(seat, set())):
                    conn.error("seat_reissued", "the table's creator gave your seat to someone else")
                    conn.table = conn.seat = None
            table.invites[seat] = self.book.issue_invite(table.game_id, seat)
            table.broadcast(conn, seq)

    async def seat_computer(
        self,
        table: Table,
        seat: int,
        agent: str | None,
        by: int,
        conn: Connection | None = None,
        seq: int | None = None,
    ) -> None:
        """The creator lets a computer player take an open seat or one whose person is away."""
        async with table.lock:
            self._check_replaceable(table, seat, by)
            s = table.session
            agent = agent or default_opponent(s.state.variant)
            self._check_agent(s.state.variant, agent)
            assert agent is not None
            seats = list(s.seats)
            seats[seat] = agent
            try:
                session = Session.from_json({**s.to_json(), "seats": seats})
            except GinRummyError as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
            table.session = session
            self.book.revoke_seat(table.game_id, seat)
            self.book.drop_invite(table.game_id, seat)
            table.claimed.discard(seat)
            table.invites.pop(seat, None)
            table.away_since.pop(seat, None)
            table.ready.discard(seat)
            self.book.set_ready(table.game_id, table.ready)
            for conn in list(table.conns.pop(seat, set())):
                conn.error("seat_reissued", "the table's creator gave your seat to a computer player")
                conn.table = conn.seat = None
            self._warm(table)
            self._maybe_deal(table)
            self._changed(table, conn, seq, urgent=True)

    def _check_replaceable(self, table: Table, seat: int, by: int) -> None:
        if table.kind != "table" or by != table.creator:
            raise ProtocolError("not_allowed", "only the table's creator manages its seats")
        if seat not in table.person_seats() or seat == table.creator:
            raise ProtocolError("not_allowed", f"seat {seat} is not a seat for a friend")
        if seat not in table.replaceable():
            left = table.replace_after - (time.monotonic() - table.away_since.get(seat, time.monotonic()))
            raise ProtocolError(
                "waiting",
                f"{table.session.state.players[seat]} is still at the table or left only lately: "
                f"a seat can be given away after {table.replace_after:g} s away ({max(1, round(left))} s to go)",
            )

    async def resume(self, game_id: str) -> tuple[Table, int, str]:
        """Take up a saved game (terminal or browser) of one person: a new token for that seat."""
        info = self.book.game(game_id)
        if info is not None and info[0] == "table":
            raise ProtocolError("not_allowed", "this is a table for several people: use your invitation link")
        table = await self._load(game_id)
        if table is None or table.session.state.game_over:
            raise ProtocolError("unknown_game", f"no saved game {game_id!r}")
        people = table.person_seats()
        if len(people) != 1:
            raise ProtocolError(
                "not_allowed", "this game has several people at one screen: resume it in the terminal app"
            )
        if info is None:
            self.book.add_game(game_id, "solo", True)
        token = self.book.add_token(game_id, people[0])
        table.claimed.add(people[0])
        return table, people[0], token

    async def delete(self, game_id: str) -> bool:
        """The owner deletes a saved game (not one somebody is playing now); False if there is none."""
        table = self.tables.get(game_id)
        if table is not None and any(table.conns.values()):
            raise ProtocolError("not_allowed", "this game is open in a browser now: close it first")
        exists = any(g.id == game_id for g in await asyncio.to_thread(self.store.saved_games))
        if table is not None:
            self._drop(table)
        self.saver.dirty.pop(game_id, None)
        try:
            await asyncio.to_thread(self.store.delete_game, game_id)
        except GameInUse as exc:  # open in the terminal app, plain mode or another server
            raise ProtocolError("game_in_use", str(exc)) from None
        self.book.forget(game_id)
        return exists

    def _drop(self, table: Table) -> None:
        if table.driver is not None:
            table.driver.cancel()
        for handle in table.wakeups.values():
            handle.cancel()
        if self.tables.pop(table.game_id, None) is table:
            self._release(table.game_id)

    def _release(self, game_id: str) -> None:
        """Let other programs open ``game_id`` (its table left memory); :meth:`_load` waits for this."""
        done = asyncio.ensure_future(asyncio.to_thread(self.store.release_game, game_id))
        self._releasing[game_id] = done

        def finished(f: asyncio.Future[None]) -> None:
            if self._releasing.get(game_id) is f:
                del self._releasing[game_id]

        done.add_done_callback(finished)

    # -- attaching --------------------------------------------------------------------------------
    async def attach_token(self, game_id: str, token: str) -> tuple[Table, int]:
        seat = self.book.seat_of(game_id, token)
        table = None if seat is None else await self._load(game_id)
        if table is None or seat is None:
            raise ProtocolError("bad_token", "this seat token does not open a seat of that game")
        return table, seat

    async def _load(self, game_id: str) -> Table | None:
        """The table of ``game_id``, from memory or from the store (after a restart, or after
        everyone left it).  Loading locks the game for this server: ``game_in_use`` if another
        program (the terminal app, plain mode, another server) has it open."""
        pending = self._releasing.get(game_id)
        if pending is not None:
            await pending  # the lock being given up: take it again after that
        table = self.tables.get(game_id)
        if table is not None:
            return table
        info = self.book.game(game_id)
        try:
            session = await asyncio.to_thread(self.store.open_game, game_id)
        except GameInUse as exc:
            raise ProtocolError("game_in_use", str(exc)) from None
        except StoreError as exc:  # a damaged or unreadable saved game: say so, change nothing
            log.warning("cannot load game %s: %s", game_id, exc)
            raise ProtocolError("unknown_game", str(exc)) from None
        if session is None:
            session = await asyncio.to_thread(self._finished_session, game_id)
        if session is None:
            return None
        table = self.tables.get(game_id)  # loaded meanwhile by another connection
        if table is not None:
            return table
        st = session.state
        for i, name in enumerate(st.players):  # a name saved before the rules of ginrummy.names
            st.players[i] = safe_display_name(name, f"Player {i + 1}")
        kind, hints = info if info is not None else ("solo", True)
        claimed = self.book.claimed_seats(game_id)
        invites = self.book.invites(game_id) if kind == "table" else {}
        if kind == "table" and not st.game_over:
            for seat, seat_kind in enumerate(session.seats):  # a table of an older version: one code per seat
                if seat_kind == HUMAN and seat not in claimed and seat not in invites:
                    invites[seat] = self.book.issue_invite(game_id, seat)
        try:
            self._make_room()
        except ProtocolError:
            self._release(game_id)  # not kept here after all: others may open it
            raise
        table = Table(
            game_id, session, kind=kind, hints=hints, claimed=claimed, invites=invites, ready=self.book.ready(game_id)
        )
        table.replace_after = self.replace_after
        self.tables[game_id] = table
        for seat in claimed:  # nobody is connected yet: the seats of friends may be given away in time
            self._wake_creator(table, seat)
        self._warm(table)
        return table

    def _finished_session(self, game_id: str) -> Session | None:
        """A finished game, rebuilt from the history so that its last screen can be shown again."""
        from ..record import replay

        for game in reversed(self.store.history()):
            if game.id == game_id:
                state = replay(game.record)
                try:
                    return Session(state, game.seats)
                except GinRummyError:  # a computer player no longer installed: the game is over anyway
                    return Session(state, [HUMAN] * state.num_seats)
        return None

    async def attach(self, table: Table, seat: int, conn: Connection) -> None:
        async with table.lock:
            table.conns.setdefault(seat, set()).add(conn)
            table.last_seen = time.monotonic()
            table.away_since.pop(seat, None)
            handle = table.wakeups.pop(seat, None)
            if handle is not None:
                handle.cancel()
            table.broadcast()
            self._kick(table)

    async def detach(self, table: Table, seat: int, conn: Connection) -> None:
        async with table.lock:
            conns = table.conns.get(seat)
            if conns is not None:
                conns.discard(conn)
            now = table.last_seen = time.monotonic()
            if not conns and seat in table.claimed and seat not in table.away_since:
                table.away_since[seat] = now
                self._wake_creator(table, seat)
            table.broadcast()
        if not any(table.conns.values()):
            # Everyone left: once the computers have moved and the game is written, close it here
            # so that another program may open it (one game, one process); it reloads from the
            # store when someone comes back.
            if table.driver is not None:
                await asyncio.wait([table.driver])
            saver = self.saver._task
            if saver is not None and not saver.done():
                await self.saver.flush()
                if self._idle(table) and self.tables.get(table.game_id) is table:
                    self._drop(table)
        self._evict_idle()

    def _wake_creator(self, table: Table, seat: int) -> None:
        """Send the creator a fresh state when ``seat`` (away) may be given away, so that the page
        offers it without being asked."""
        if table.kind != "table" or seat == table.creator:
            return
        old = table.wakeups.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = table.replace_after - (time.monotonic() - table.away_since.get(seat, time.monotonic()))
        table.wakeups[seat] = asyncio.get_running_loop().call_later(max(0.0, delay) + 0.05, table.broadcast)

    # -- memory and expiry ------------------------------------------------------------------------
    def _idle(self, table: Table) -> bool:
        return not any(table.conns.values()) and table.game_id not in self.saver.dirty and table.driver is None

    def _evict_idle(self) -> None:
        """Tables nobody has used for ``idle_seconds`` leave memory (they stay saved)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if self._idle(table) and now - table.last_seen > self.quotas.idle_seconds:
                self._drop(table)

    def _make_room(self) -> None:
        """Keep at most ``max_tables`` tables in memory: the longest idle go first."""
        if len(self.tables) < self.quotas.max_tables:
            return
        idle = sorted((t for t in self.tables.values() if self._idle(t)), key=lambda t: t.last_seen)
        for table in idle[: len(self.tables) - self.quotas.max_tables + 1]:
            self._drop(table)
        if len(self.tables) >= self.quotas.max_tables:
            raise ProtocolError("server_busy", "the server has as many games open as it can hold: try again later")

    async def sweep(self) -> list[str]:
        """Evict idle tables and delete browser games never dealt within ``unplayed_expiry``; the
        ids of the deleted games."""
        self._evict_idle()
        cutoff = time.time() - self.quotas.unplayed_expiry
        candidates = set(self.book.games_created_before(cutoff))
        if not candidates:
            return []
        saved = {g.id: g for g in await asyncio.to_thread(self.store.saved_games)}
        deleted = []
        for game_id in sorted(candidates):
            table = self.tables.get(game_id)
            if table is not None and (not self._idle(table) or table.session.state.logs):
                continue
            game = saved.get(game_id)
            if game is None or game.hand_number > 0:
                continue
            if table is not None:
                self._drop(table)
            try:
                await asyncio.to_thread(self.store.delete_game, game_id)
            except GameInUse:  # taken up in another program meanwhile: it is that program's now
                continue
            self.book.forget(game_id)
            deleted.append(game_id)
        if deleted:
            log.info("deleted %d browser games that were never dealt", len(deleted))
        return deleted

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.quotas.sweep_seconds)
            try:
                await self.sweep()
            except (StoreError, sqlite3.Error, OSError) as exc:
                log.error("could not tidy up old games: %s", exc)

    # -- playing ----------------------------------------------------------------------------------
    async def act(self, table: Table, seat: int, text: str, conn: Connection, seq: int | None) -> None:
        async with table.lock:
            s = table.session
            try:
                action = Action.parse(text)
            except GinRummyError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            if s.state.game_over:
                raise ProtocolError("game_over", "the game is over")
            if s.state.needs_deal:
                raise ProtocolError("not_your_turn", "the hand is over: press Deal for the next one")
            if s.to_act != seat:
                raise ProtocolError("not_your_turn", "it is not your turn")
            legal = {str(a) for a in s.state.legal_actions()}
            base = str(Action(action.kind, action.card)) if action.melds is not None else str(action)
            if base not in legal:
                listed = ", ".join(sorted(legal))
                if action.kind == "layoff":
                    why = "layoffs are made for you when the hand ends"
                elif action.card is not None and action.card not in s.state.hand(seat):
                    why = f"you can only {action.kind} a card you hold"  # the card is not echoed back
                else:
                    why = f"{base} is not legal now"
                raise ProtocolError("illegal_action", f"{why}; legal: {listed}")
            try:
                s.act(seat, action)
            except IllegalAction as exc:
                raise ProtocolError("illegal_action", str(exc)) from None
            table.suggestion = None
            self._changed(table, conn, seq)
            self._maybe_analyse(table)

    async def deal(self, table: Table, seat: int, conn: Connection, seq: int | None) -> None:
        """``seat`` is ready for the next hand; deal it once every person is ready."""
        async with table.lock:
            s = table.session
            if s.state.game_over:
                raise ProtocolError("game_over", "the game is over")
            if not s.state.needs_deal:
                raise ProtocolError("not_allowed", "the hand in play is not over")
            if table.open_seats():
                n = len(table.open_seats())
                raise ProtocolError(
                    "waiting", f"waiting for {n} more {'person' if n == 1 else 'people'}: share the invitation links"
                )
            table.ready.add(seat)
            if not self._maybe_deal(table):
                self.book.set_ready(table.game_id, table.ready)  # who is ready survives a restart
            self._maybe_analyse(table)
            self._changed(table, conn, seq, urgent=True)

    # -- the solitaires' analysis -----------------------------------------------------------------
    def _maybe_analyse(self, table: Table) -> None:
        """A solitaire just finished: analyse it (as the terminal app does) and file the analysis
        with the game, so that browser games get an accuracy figure too (call with the lock held)."""
        st = table.session.state
        if st.game_over and st.variant in SOLO and table.analysis is None and table.analysing is None:
            table.analysing = asyncio.create_task(self._analyse(table))

    async def _analyse(self, table: Table) -> None:
        session = table.session  # over: it changes no more
        try:
            analysis = await self.thinker.analyse(session)
        except Exception:  # the analysis never loses the game
            log.exception("the analysis of game %s failed", table.game_id)
            analysis = None
        analysis = analysis or {"error": "no analysis", "summary": ["(No analysis of this game.)"]}
        await self.saver.flush()  # the game is filed first (without analysis)...
        if analysis.get("accuracy") is not None:
            try:  # ...then with it
                await asyncio.to_thread(self.store.finish_game, table.game_id, session, analysis)
            except (StoreError, OSError) as exc:
                log.error("could not file the analysis of game %s: %s", table.game_id, exc)
        async with table.lock:
            table.analysis = analysis
            table.broadcast()

    def _maybe_deal(self, table: Table) -> bool:
        """Deal the next hand if every person is ready (call with the lock held)."""
        s = table.session
        if not s.state.needs_deal or s.state.game_over or table.open_seats():
            return False
        if not set(table.person_seats()) <= table.ready:
            return False
        table.ready.clear()
        self.book.set_ready(table.game_id, table.ready)
        table.suggestion = None
        table.failure = None
        s.start_hand()
        return True

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        async with table.lock:
            if not table.hints:
                raise ProtocolError("not_allowed", "hints are turned off at this table")
            try:
                inputs = hint_inputs(table.session, seat)
                actor = table.session.advised_seat(seat)
            except IllegalAction as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
            players = list(table.session.state.players)
        try:
            advice = await self.thinker.advise(*inputs)
        except ImportError:
            raise ProtocolError("not_available", "hints are not available in this installation") from None
        except ValueError as exc:  # the advisor has nothing to advise on
            raise ProtocolError("not_allowed", f"no hint: {exc}") from None
        return advice_words(advice, players, actor, seat, inputs[0])

    async def suggest(
        self, table: Table, seat: int, text: str, note: str | None, conn: Connection, seq: int | None = None
    ) -> None:
        """Three: the sitter suggests an action to the captain, who alone decides (rule 2.2)."""
        async with table.lock:
            roles = table.roles()
            st = table.session.state
            if roles is None or st.is_hand_over:
                raise ProtocolError("not_allowed", "suggestions are for the sitter in three-player gin, during a hand")
            if seat != roles["sitter"]:
                raise ProtocolError("not_allowed", "only the sitter makes suggestions; the captain decides")
            if st.current_player != roles["captain"]:
                raise ProtocolError("not_allowed", "the captain is not to act")
            try:
                action = str(Action.parse(text))
            except GinRummyError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            legal = {str(a) for a in st.legal_actions()}
            if action not in legal:
                raise ProtocolError("illegal_action", f"{action} is not legal for the captain now")
            table.suggestion = {"from": seat, "action": action, "text": note or ""}
            table.broadcast(conn, seq)

    def _changed(
        self, table: Table, acting: Connection | None = None, seq: int | None = None, urgent: bool = False
    ) -> None:
        table.last_seen = time.monotonic()
        self.saver.mark(table, urgent=urgent or table.session.state.is_hand_over)
        table.broadcast(acting, seq)
        self._kick(table)

    # -- computer players -------------------------------------------------------------------------
    def _kick(self, table: Table) -> None:
        """Start the table's computer driver if a computer is to act (call with the lock held)."""
        if table.driver is None and (table.computer_to_act() or self._wants_auto_suggestion(table)):
            table.driver = asyncio.create_task(self._drive(table))

    def _wants_auto_suggestion(self, table: Table) -> bool:
        """Three: a computer sitter suggests once per position when a person captains (and hints are on)."""
        roles = table.roles()
        if roles is None or table.suggestion is not None or table.session.state.is_hand_over:
            return False
        s = table.session
        sitter, captain = roles["sitter"], roles["captain"]
        if not (s.to_act == captain and s.is_human(captain) and not s.is_human(sitter) and table.hints):
            return False
        return table.suggested_at != _position(table)

    async def _drive(self, table: Table) -> None:
        """Let the computer seats play, one action every ``computer_delay`` seconds; a computer
        sitter's suggestion is worked out without holding the table up."""
        try:
            while True:
                if self.computer_delay:
                    await asyncio.sleep(self.computer_delay)
                async with table.lock:
                    s = table.session
                    if table.computer_to_act():
                        try:
                            await self.thinker.computer_step(s)
                        except Exception as exc:  # an agent's bug must not take the server down
                            log.exception("computer player failed in game %s", table.game_id)
                            seat = s.to_act
                            name = s.state.players[seat] if seat is not None else "?"
                            # the agent's own error may list its hand: the table is told only who failed
                            table.failure = str(exc) if isinstance(exc, ComputerPlayerError) else computer_failed(name)
                            table.broadcast()
                            table.driver = None
                            return
                        table.suggestion = None
                        table.last_seen = time.monotonic()
                        self.saver.mark(table, urgent=s.state.is_hand_over)
                        table.broadcast()
                        continue
                    inputs = None
                    if self._wants_auto_suggestion(table):
                        roles = table.roles()
                        assert roles is not None
                        sitter, position = roles["sitter"], _position(table)
                        table.suggested_at = position  # once per position, even if the advisor fails
                        with contextlib.suppress(GinRummyError):
                            inputs = hint_inputs(s, sitter)
                    if inputs is None:
                        table.driver = None
                        return
                advice = None
                with contextlib.suppress(GinRummyError, ImportError, ValueError):
                    advice = await self.thinker.advise(*inputs)
                async with table.lock:
                    if advice is not None and table.suggestion is None and _position(table) == position:
                        table.suggestion = {"from": sitter, "action": advice["best"], "text": advice["why"]}
                        table.broadcast()
        except asyncio.CancelledError:
            table.driver = None
            raise


def _position(table: Table) -> tuple[int, int]:
    """Which position a table is in: the hand and the number of actions taken in it."""
    st = table.session.state
    return st.hand_number, len(st.logs[-1].actions) if st.logs else 0


def advice_json(advice: Any) -> dict[str, Any]:
    """The advisor's Advice as a message (its best action, the ranked options and why)."""
    ranked = []
    for item in list(getattr(advice, "ranked", []) or [])[:12]:
        action, value = item[0], item[1]
        ranked.append([str(action), round(float(value), 3)])
    return {"type": "hint", "best": str(advice.best), "ranked": ranked, "why": str(getattr(advice, "why", "") or "")}


def advice_words(advice: dict[str, Any], players: list[str], actor: int, viewer: int, variant: str) -> dict[str, Any]:
    """The hint message with words for people: ``best_words`` and ``ranked_words``
    (``[[words, value], ...]``, in the words of the move log) and ``unit``, what the values mean
    (the units of :class:`ginrummy.agents.advisor.Advice`)."""

    def words(action: str) -> str:
        try:
            return move_text(players, actor, Action.parse(action), viewer=viewer)
        except GinRummyError:
            return action

    if variant in SOLO:
        unit = "a score of each option (higher is better; going out ranks first)"
    else:
        unit = "points: the hand's expected score for the player to act (above 0: expects to score)"
    return {
        **advice,
        "best_words": words(str(advice.get("best", ""))),
        "ranked_words": [[words(str(a)), v] for a, v in advice.get("ranked", [])],
        "unit": unit,
    }


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))

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
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..actions import Action
from ..agents import available_agents
from ..engine import SOLO
from ..errors import GinRummyError, IllegalAction, StoreError
from ..session import HUMAN, Session
from ..store import Store, new_game_id
from .protocol import TABLE_VARIANTS, ProtocolError

if TYPE_CHECKING:
    from .server import Connection

__all__ = ["JOKER_SEAT", "SeatBook", "Table", "TableManager", "default_opponent"]

log = logging.getLogger("ginrummy.web")

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
    """Which seat token opens which seat of which game, and which games are web tables.

    A small SQLite file of the web server's own (``web.sqlite3`` in the data directory); tokens are
    stored as SHA-256 digests, so a copy of the file does not let anyone take a seat.
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
                """
            )

    @contextlib.contextmanager
    def _conn(self) -> Any:
        with self._lock:
            yield self._db

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add_game(self, game_id: str, kind: str, invite: str | None, hints: bool) -> None:
        with self._conn() as c:
            c.execute(
                "INSERT OR REPLACE INTO web_games (game_id, kind, invite, hints, created) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, invite, int(hints), time.time()),
            )

    def game(self, game_id: str) -> tuple[str, str | None, bool] | None:
        """(kind, invite, hints) of a web game, or None."""
        with self._conn() as c:
            row = c.execute("SELECT kind, invite, hints FROM web_games WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else (row[0], row[1], bool(row[2]))

    def game_by_invite(self, invite: str) -> str | None:
        with self._conn() as c:
            row = c.execute("SELECT game_id FROM web_games WHERE invite = ?", (invite,)).fetchone()
        return None if row is None else str(row[0])

    def add_token(self, game_id: str, seat: int) -> str:
        """A new unguessable token for ``seat`` of ``game_id`` (the only copy goes to the client)."""
        token = secrets.token_urlsafe(24)
        with self._conn() as c:
            c.execute(
                "INSERT INTO web_seats (token_sha256, game_id, seat, created) VALUES (?, ?, ?, ?)",
                (_digest(token), game_id, seat, time.time()),
            )
        return token

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


class _Snapshot:
    """A frozen copy of a session for the saver thread (the live one keeps changing)."""

    def __init__(self, session: Session) -> None:
        self.state = session.state.clone()
        self.seats = list(session.seats)
        self._json = session.to_json()

    def to_json(self) -> dict[str, Any]:
        return self._json


_WORKER_AGENTS: dict[tuple[str, str], Any] = {}


def _warm_worker() -> None:
    """Worker start: import the computer players (and their tables) once."""
    available_agents()


def _decide_in_worker(kind: str, variant: str, observation: dict[str, Any], legal: list[str]) -> str:
    """A computer player's decision, computed in a worker process; the action as a string."""
    from ..agents import make_agent

    agent = _WORKER_AGENTS.get((kind, variant))
    if agent is None:
        agent = _WORKER_AGENTS[(kind, variant)] = make_agent(kind, variant)
    return str(agent.decide(observation, [Action.parse(a) for a in legal]).action)


def _advise_in_worker(variant: str, observation: dict[str, Any], legal: list[str]) -> dict[str, Any]:
    from ..agents.advisor import advise

    return advice_json(advise(observation, [Action.parse(a) for a in legal], variant))


class Thinker:
    """Where the computer players and the advisor think: in worker processes, so that a long
    think never holds up the event loop (``workers`` > 0, as ``ginrummy serve`` does), or inline
    in the event loop (``workers`` = 0: tests, tiny machines)."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self.workers > 0 and self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm_worker
            )
            for _ in range(self.workers):
                self.pool.submit(_warm_worker)

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def computer_step(self, session: Session) -> None:
        """The computer seat to act takes one action."""
        seat = session.to_act
        assert seat is not None
        if self.pool is not None:
            st = session.state
            obs, legal = st.observation(seat), [str(a) for a in st.legal_actions()]
            try:
                loop = asyncio.get_running_loop()
                action = await loop.run_in_executor(
                    self.pool, _decide_in_worker, session.seats[seat], st.variant, obs, legal
                )
            except BrokenProcessPool:
                log.error("the computer players' worker process died; thinking in the server from now on")
                self.pool = None
            else:
                session.act(seat, action)
                return
        session.computer_step()

    async def advise(self, variant: str, observation: dict[str, Any], legal: list[str]) -> dict[str, Any]:
        """The advisor's advice as a message, from inputs taken under the table's lock (see
        :func:`hint_inputs`); the advisor itself runs without holding the table up."""
        if self.pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self.pool, _advise_in_worker, variant, observation, legal)
            except BrokenProcessPool:
                log.error("the hints' worker process died; thinking in the server from now on")
                self.pool = None
        return _advise_in_worker(variant, observation, legal)


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
        invite: str | None,
        hints: bool,
        claimed: set[int],
    ) -> None:
        self.game_id = game_id
        self.session = session
        self.kind = kind  # "solo" (one person and computers) or "table" (people invited)
        self.invite = invite
        self.hints = hints
        self.claimed = set(claimed)  # person seats that have a token
        self.conns: dict[int, set[Connection]] = {}
        self.ready: set[int] = set()
        self.suggestion: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.failure: str | None = None
        self.suggested_at: tuple[int, int] | None = None  # the position a computer sitter advised on
        self.last_seen = time.monotonic()

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

    def roles(self) -> dict[str, int] | None:
        """Box, captain and sitter of the hand in play (three only)."""
        st = self.session.state
        if st.variant != "three" or not st.logs:
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
            "invite": self.invite,
            "hints": self.hints,
            "sheet": sheet,
            "waiting_for": self.open_seats(),
        }
        roles = self.roles()
        if self.suggestion is not None and roles is not None and seat in (roles["captain"], roles["sitter"]):
            info["suggestion"] = self.suggestion
        if self.failure:
            info["failure"] = self.failure
        return info

    def state_message(self, seat: int, seq: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "state", "obs": self.session.observation(seat), "table": self.public(seat)}
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


class TableManager:
    """All tables of one server: creating, joining, attaching, acting, and the computer players."""

    def __init__(self, store: Store, *, computer_delay: float = 0.6, tap: Tap | None = None, workers: int = 0) -> None:
        self.store = store
        self.book = SeatBook(store.data_dir)
        self.computer_delay = computer_delay
        self.tap = tap
        self.tables: dict[str, Table] = {}
        self.saver = Saver(store)
        self.thinker = Thinker(workers)

    async def start(self) -> None:
        self.tables.clear()  # tables belong to one event loop; they reload from the store on demand
        self.saver.dirty.clear()
        self.saver.start()
        self.thinker.start()

    async def shutdown(self) -> None:
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
        await self.saver.stop()
        self.thinker.stop()

    # -- creating ---------------------------------------------------------------------------------
    def _new_session(self, variant: str, options: dict[str, Any] | None, seats: list[str], names: list[str]) -> Session:
        try:
            return Session.new(variant, options, players=names, seats=seats)
        except GinRummyError as exc:
            raise ProtocolError("bad_options", str(exc)) from None

    async def create_solo(
        self, variant: str, options: dict[str, Any] | None, opponent: str | None, name: str | None
    ) -> tuple[Table, int, str]:
        """A game of one person (seat 0) against computer players (or the Joker)."""
        n = 3 if variant == "three" else 2
        you = name or "You"
        if variant in SOLO:
            if opponent not in (None, JOKER_SEAT):
                raise ProtocolError("bad_message", f"{variant} is played against the Joker; leave out 'opponent'")
            seats, names = [HUMAN, JOKER_SEAT], [you, "Joker"]
        else:
            agent = opponent or default_opponent(variant)
            self._check_agent(variant, agent)
            assert agent is not None
            seats = [HUMAN] + [agent] * (n - 1)
            names = [you] + (["Computer"] if n == 2 else ["Computer 1", "Computer 2"])
        session = self._new_session(variant, options, seats, names)
        return await self._register(session, kind="solo", invite=None, hints=True)

    async def create_table(
        self, variant: str, others: list[str], options: dict[str, Any] | None, hints: bool, name: str | None
    ) -> tuple[Table, int, str]:
        """A table for several people; the creator takes seat 0, ``others`` fill seats 1, 2..."""
        if variant not in TABLE_VARIANTS:
            raise ProtocolError("bad_message", f"tables are for {', '.join(TABLE_VARIANTS)}, not {variant}")
        n = 3 if variant == "three" else 2
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
                names.append(f"Computer {i}")
        if seats.count(HUMAN) < 2:
            raise ProtocolError(
                "bad_message", "a table needs at least one other person; play against the computer with 'new'"
            )
        session = self._new_session(variant, options, seats, names)
        return await self._register(session, kind="table", invite=secrets.token_urlsafe(9), hints=hints)

    def _check_agent(self, variant: str, agent: str | None) -> None:
        agents = available_agents(variant)
        if agent is None or agent not in agents:
            raise ProtocolError(
                "bad_message",
                f"no computer player {agent!r} for {variant}; choose one of {', '.join(agents) or '(none installed)'}",
            )

    async def _register(
        self, session: Session, *, kind: str, invite: str | None, hints: bool
    ) -> tuple[Table, int, str]:
        game_id = new_game_id()
        while game_id in self.tables:
            game_id = new_game_id()
        self.book.add_game(game_id, kind, invite, hints)
        token = self.book.add_token(game_id, 0)
        table = Table(game_id, session, kind=kind, invite=invite, hints=hints, claimed={0})
        self.tables[game_id] = table
        self.saver.mark(table, urgent=True)
        return table, 0, token

    async def join(self, invite: str, seat: int | None, name: str | None) -> tuple[Table, int, str]:
        """Take an open seat at the table of ``invite`` (the first open one unless ``seat`` is given)."""
        game_id = self.book.game_by_invite(invite)
        table = None if game_id is None else await self._load(game_id)
        if table is None:
            raise ProtocolError("unknown_invite", "no table has this invitation (it may have ended)")
        async with table.lock:
            open_seats = table.open_seats()
            if not open_seats:
                raise ProtocolError("table_full", "every seat at this table is taken")
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise ProtocolError(
                    "seat_taken", f"seat {seat} is not open; open seats: {', '.join(map(str, open_seats))}"
                )
            token = self.book.add_token(table.game_id, seat)
            table.claimed.add(seat)
            if name and not table.session.state.logs:
                table.session.state.players[seat] = name  # names are fixed once the first hand is dealt
            self.saver.mark(table, urgent=True)
            table.broadcast()
        return table, seat, token

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
            self.book.add_game(game_id, "solo", None, True)
        token = self.book.add_token(game_id, people[0])
        table.claimed.add(people[0])
        return table, people[0], token

    # -- attaching --------------------------------------------------------------------------------
    async def attach_token(self, game_id: str, token: str) -> tuple[Table, int]:
        seat = self.book.seat_of(game_id, token)
        table = None if seat is None else await self._load(game_id)
        if table is None or seat is None:
            raise ProtocolError("bad_token", "this seat token does not open a seat of that game")
        return table, seat

    async def _load(self, game_id: str) -> Table | None:
        """The table of ``game_id``, from memory or from the store (after a restart)."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        info = self.book.game(game_id)
        try:
            session = await asyncio.to_thread(self.store.load_game, game_id)
        except StoreError as exc:
            log.error("cannot load game %s: %s", game_id, exc)
            return None
        if session is None:
            session = await asyncio.to_thread(self._finished_session, game_id)
        if session is None:
            return None
        table = self.tables.get(game_id)  # loaded meanwhile by another connection
        if table is not None:
            return table
        kind, invite, hints = info if info is not None else ("solo", None, True)
        table = Table(game_id, session, kind=kind, invite=invite, hints=hints, claimed=self.book.claimed_seats(game_id))
        self.tables[game_id] = table
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
            table.broadcast()
            self._kick(table)

    async def detach(self, table: Table, seat: int, conn: Connection) -> None:
        async with table.lock:
            conns = table.conns.get(seat)
            if conns is not None:
                conns.discard(conn)
            table.last_seen = time.monotonic()
            table.broadcast()
        self._evict_idle()

    def _evict_idle(self, idle_seconds: float = 900.0) -> None:
        now = time.monotonic()
        for game_id, table in list(self.tables.items()):
            if any(table.conns.values()) or game_id in self.saver.dirty or table.driver is not None:
                continue
            if now - table.last_seen > idle_seconds:
                del self.tables[game_id]

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
                    "waiting", f"waiting for {n} more {'person' if n == 1 else 'people'}: share the invitation link"
                )
            table.ready.add(seat)
            if set(table.person_seats()) <= table.ready:
                table.ready.clear()
                table.suggestion = None
                table.failure = None
                s.start_hand()
            self._changed(table, conn, seq, urgent=True)

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        async with table.lock:
            if not table.hints:
                raise ProtocolError("not_allowed", "hints are turned off at this table")
            try:
                inputs = hint_inputs(table.session, seat)
            except IllegalAction as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
        try:
            return await self.thinker.advise(*inputs)
        except ImportError:
            raise ProtocolError("not_available", "hints are not available in this installation") from None
        except ValueError as exc:  # the advisor has nothing to advise on
            raise ProtocolError("not_allowed", f"no hint: {exc}") from None

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
                            table.failure = f"the computer player failed: {exc}"
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


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))

"""Saved games, finished games and statistics in one SQLite file (stdlib :mod:`sqlite3`).

The database lives in the user data directory (``platformdirs.user_data_dir("ginrummy")``), or
in a directory given by the caller (``ginrummy --data-dir DIR``) or by the environment variable
``GINRUMMY_DATA_DIR``.  Writes are single transactions (``BEGIN IMMEDIATE``) in WAL mode with
``synchronous=FULL``: when :meth:`Store.save_game` returns, the game is on disk and survives a
SIGKILL.

Connections: a :class:`Store` keeps one SQLite connection per thread (and per process), opened on
the thread's first call and reused by its later calls, so a save is one transaction and one fsync
rather than an open, a checkpoint and a close.  A :class:`Store` may be shared by threads (each
uses its own connection; SQLite's locks order their writes) and several processes may use the same
file at once.  :meth:`Store.close` (or leaving ``with store:``) closes the calling thread's
connection; the next call opens a new one.  A thread's connection is also closed when the thread
ends or the :class:`Store` is garbage collected (a :func:`weakref.finalize` on the per-thread
entry), and the connections still open are closed at interpreter exit, which lets SQLite fold the
WAL back into the database file.  The cache is keyed on the process id as well: a child made by
``fork`` never uses, and never closes, a connection it inherited (SQLite forbids carrying one
across ``fork``); it opens its own.  A connection that raised an SQLite error is closed and
replaced on the next call.

A file that is not a ginrummy database (another program's SQLite file, a text file, a damaged
file) raises :class:`~ginrummy.errors.StoreError` and is left exactly as it was; only
:meth:`Store.fresh` (the user said "start a new database") moves it aside.

>>> import tempfile
>>> from ginrummy.session import Session
>>> store = Store(tempfile.mkdtemp())
>>> s = Session.new("solitaire", seats=["human", "joker"], deal_seed=1); s.start_hand()
>>> gid = new_game_id(); store.save_game(gid, s)
>>> [g.variant for g in store.saved_games()]
['solitaire']
>>> store.load_game(gid).state.to_record() == s.state.to_record()
True
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .errors import GinRummyError, StoreError

if TYPE_CHECKING:
    from .session import Session

__all__ = ["DB_NAME", "SCHEMA_VERSION", "FinishedGame", "SavedGame", "Store", "default_data_dir", "new_game_id"]

DB_NAME = "ginrummy.sqlite3"
SCHEMA_VERSION = 1
APP_ID = "ginrummy"
_SQLITE_HEADER = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    players TEXT NOT NULL,
    seats TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    hand_number INTEGER NOT NULL,
    totals TEXT NOT NULL,
    session TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS finished (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    players TEXT NOT NULL,
    seats TEXT NOT NULL,
    player_seat INTEGER NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL NOT NULL,
    hands INTEGER NOT NULL,
    totals TEXT NOT NULL,
    final_totals TEXT NOT NULL,
    winner INTEGER,
    hand_points TEXT NOT NULL,
    record TEXT NOT NULL,
    summary TEXT NOT NULL,
    accuracy REAL,
    analysis TEXT
);
CREATE INDEX IF NOT EXISTS finished_by_variant ON finished (variant, finished_at);
"""


# Connections this process must not close: inherited across fork (SQLite forbids using a connection
# in a forked child, and closing it may checkpoint or unlink the WAL the parent is using), or in the
# middle of another thread's transaction at interpreter exit.  The OS closes their files at exit.
_KEPT_OPEN: list[sqlite3.Connection] = []


class _ThreadConnection:
    """A thread's cached connection, stored in the :class:`Store`'s :class:`threading.local`.
    When this entry dies (the thread ended, the Store was collected) its finalizer closes the
    connection; the finalizer also runs at interpreter exit."""

    __slots__ = ("__weakref__", "conn", "finalizer", "pid")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.pid = os.getpid()
        self.finalizer = weakref.finalize(self, _release, conn, self.pid)

    def close(self) -> None:
        """Close now, by the owning thread (a transaction left open by an error is discarded)."""
        if self.finalizer.detach() is None:
            return  # already closed
        if self.pid != os.getpid():
            _KEPT_OPEN.append(self.conn)
            return
        with contextlib.suppress(sqlite3.Error):
            self.conn.close()


def _release(conn: sqlite3.Connection, pid: int) -> None:
    """The finalizer: close a cached connection whose entry died (its thread ended, its Store was
    collected) or that is still open at interpreter exit; but never one that belongs to another
    process (we are a forked child), nor one that another thread is using (at exit, a daemon
    thread in the middle of a transaction)."""
    if pid != os.getpid() or conn.in_transaction:
        _KEPT_OPEN.append(conn)
        return
    with contextlib.suppress(sqlite3.Error):
        conn.close()


def default_data_dir() -> Path:
    """``$GINRUMMY_DATA_DIR`` if set, else the platform's user data directory for ginrummy."""
    env = os.environ.get("GINRUMMY_DATA_DIR")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("ginrummy", appauthor=False))


def new_game_id() -> str:
    """A new game id: sortable by time, unique (``20250101-120000-3fa2c1``)."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game that can be resumed."""

    id: str
    variant: str
    players: list[str]
    seats: list[str]
    updated_at: str  # ISO 8601, UTC
    hand_number: int
    totals: list[int]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class FinishedGame:
    """A game in the history: its record, its summary and the points of each hand."""

    id: str
    variant: str
    players: list[str]
    seats: list[str]
    player_seat: int  # the person's seat (the first human seat; 0 if every seat was a computer)
    started_at: str
    finished_at: str
    hands: int
    totals: list[int]
    final_totals: list[int]
    winner: int | None
    hand_points: list[list[int]]
    record: dict[str, Any] = field(repr=False)
    summary: dict[str, Any] = field(repr=False)
    accuracy: float | None = None
    analysis: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def won(self) -> bool:
        return self.winner == self.player_seat

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Store:
    """The saved-games database.  See the module documentation."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.data_dir = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
        self.path = self.data_dir / DB_NAME
        self._local = threading.local()  # .entry: this thread's _ThreadConnection
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {self.data_dir}: {exc.strerror}") from None
        self._check_file()
        self._init_schema()

    @classmethod
    def fresh(cls, data_dir: str | os.PathLike[str] | None = None) -> Store:
        """Start a new database: a bad file (and its -wal/-shm companions) is moved aside to
        ``ginrummy.sqlite3.bad-<timestamp>``, then a new database is created.  A good database is
        kept as it is."""
        directory = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
        try:
            return cls(directory)
        except StoreError:
            pass
        path = directory / DB_NAME
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.bad-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm", "-journal"):
            src = Path(str(path) + suffix)
            if src.exists():
                os.replace(src, Path(str(aside) + suffix))
        return cls(directory)

    # -- opening and checking ---------------------------------------------------------------------
    def _check_file(self) -> None:
        """Raise StoreError if the file exists and is not a usable ginrummy database.  Reads only."""
        p = self.path
        if not p.exists():
            return
        if p.is_dir():
            raise StoreError(f"{p} is a directory, not a ginrummy database")
        try:
            with open(p, "rb") as f:
                head = f.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(f"cannot read the database {p}: {exc.strerror}") from None
        if not head:
            return  # an empty file: SQLite treats it as a new database
        if head != _SQLITE_HEADER:
            raise StoreError(
                f"{p} is not a ginrummy database (not an SQLite file); it was left untouched. "
                "Move it away, or start a new database (ginrummy play --new-database)."
            )
        try:
            conn = sqlite3.connect(f"{p.as_uri()}?mode=ro", uri=True, timeout=30)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {p}: {exc}") from None
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
            if [r[0] for r in rows] != ["ok"]:
                detail = "; ".join(str(r[0]) for r in rows[:3])
                raise StoreError(
                    f"the database {p} is damaged ({detail}); it was left untouched. "
                    "Start a new database (ginrummy play --new-database) to move it aside."
                )
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables:
                return
            if "meta" not in tables:
                raise StoreError(
                    f"{p} is an SQLite database of another program (tables: {', '.join(sorted(tables))}); "
                    "it was left untouched. Start a new database (ginrummy play --new-database) to move it aside."
                )
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("app") != APP_ID:
                raise StoreError(f"{p} is an SQLite database of another program; it was left untouched.")
            version = int(meta.get("schema_version", "0"))
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{p} was written by a newer ginrummy (schema {version}, this one reads {SCHEMA_VERSION}); "
                    "it was left untouched. Upgrade ginrummy."
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"the database {p} is damaged ({exc}); it was left untouched. "
                "Start a new database (ginrummy play --new-database) to move it aside."
            ) from None
        except ValueError:
            raise StoreError(f"the database {p} has a bad schema version; it was left untouched.") from None
        finally:
            conn.close()

    def _connect(self) -> sqlite3.Connection:
        """A new connection (``check_same_thread=False`` only so that a finalizer running in another
        thread may close it: each connection is used by the thread that opened it)."""
        try:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        return conn

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use (again after a fork or :meth:`close`)."""
        entry: _ThreadConnection | None = getattr(self._local, "entry", None)
        if entry is not None and entry.pid == os.getpid():
            return entry.conn
        if entry is not None:  # inherited across fork: leave it alone, open our own
            self._local.entry = None
            entry.close()
        entry = _ThreadConnection(self._connect())
        self._local.entry = entry
        return entry.conn

    def close(self) -> None:
        """Close the calling thread's connection (if it has one).  The Store stays usable: the next
        call opens a new connection.  Other threads' connections are closed when those threads end
        or the Store is garbage collected."""
        entry: _ThreadConnection | None = getattr(self._local, "entry", None)
        self._local.entry = None
        if entry is not None:
            entry.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def _tx(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction (BEGIN IMMEDIATE for writes) on this thread's connection, committed at the
        end or rolled back if the body raises.  After an SQLite error the connection is closed (which
        also discards any transaction left open) and the next call opens a new one."""
        conn = self._connection()
        try:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:  # the body raised, or COMMIT failed
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"database error in {self.path}: {exc}") from None

    def _init_schema(self) -> None:
        conn = self._connection()
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        conn.execute(stmt)
                conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('app', ?)", (APP_ID,))
                conn.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
                conn.execute("COMMIT")
            finally:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot set up the database {self.path}: {exc}") from None

    # -- saved games ------------------------------------------------------------------------------
    def save_game(self, game_id: str, session: Session) -> None:
        """Save ``session`` under ``game_id`` (one atomic transaction).  A game that is over is
        filed in the history at once (:meth:`finish_game` may be called later to add analysis)."""
        state = session.state
        if state.game_over:
            self.finish_game(game_id, session)
            return
        data = json.dumps(session.to_json(), separators=(",", ":"))
        now = time.time()
        with self._tx(write=True) as c:
            c.execute(
                """INSERT INTO games (id, variant, players, seats, created_at, updated_at, hand_number, totals, session)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT(id) DO UPDATE SET variant=excluded.variant, players=excluded.players,
                     seats=excluded.seats, updated_at=excluded.updated_at, hand_number=excluded.hand_number,
                     totals=excluded.totals, session=excluded.session""",
                (
                    game_id,
                    state.variant,
                    json.dumps(list(state.players)),
                    json.dumps(list(session.seats)),
                    now,
                    now,
                    state.hand_number,
                    json.dumps(list(state.totals)),
                    data,
                ),
            )

    def load_game(self, game_id: str) -> Session | None:
        """The saved game ``game_id``, or None if there is none (finished games are not loaded)."""
        from .session import Session

        with self._tx() as c:
            row = c.execute("SELECT session FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return Session.from_json(json.loads(row[0]))
        except (GinRummyError, ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"saved game {game_id} cannot be resumed: {exc}") from None

    def saved_games(self) -> list[SavedGame]:
        """Unfinished games, the most recently played first."""
        with self._tx() as c:
            rows = c.execute(
                "SELECT id, variant, players, seats, updated_at, hand_number, totals FROM games "
                "ORDER BY updated_at DESC, rowid DESC"
            ).fetchall()
        return [
            SavedGame(r[0], r[1], json.loads(r[2]), json.loads(r[3]), _iso(r[4]), int(r[5]), json.loads(r[6]))
            for r in rows
        ]

    def delete_game(self, game_id: str) -> None:
        """Forget a saved (unfinished) game."""
        with self._tx(write=True) as c:
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # -- history ----------------------------------------------------------------------------------
    def finish_game(self, game_id: str, session: Session, analysis: dict[str, Any] | None = None) -> None:
        """Move a game to the history with its record, summary, the points of each hand and, for the
        solitaires, the accuracy from ``analysis`` (its ``accuracy`` entry, 0..1 or a percentage)."""
        from .record import summary

        state = session.state
        record = state.to_record()
        player_seat = next((i for i, k in enumerate(session.seats) if k == "human"), 0)
        hand_points = [list(r.points) for r in state.results if r.result != "redeal"]
        accuracy = _accuracy(analysis)
        now = time.time()
        with self._tx(write=True) as c:
            row = c.execute("SELECT created_at FROM games WHERE id = ?", (game_id,)).fetchone()
            old = c.execute("SELECT started_at FROM finished WHERE id = ?", (game_id,)).fetchone()
            started = row[0] if row else old[0] if old else now
            c.execute(
                """INSERT OR REPLACE INTO finished (id, variant, players, seats, player_seat, started_at, finished_at,
                     hands, totals, final_totals, winner, hand_points, record, summary, accuracy, analysis)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    game_id,
                    state.variant,
                    json.dumps(list(state.players)),
                    json.dumps(list(session.seats)),
                    player_seat,
                    started,
                    now,
                    len(hand_points),
                    json.dumps(list(state.totals)),
                    json.dumps(state.final_totals()),
                    state.winner,
                    json.dumps(hand_points),
                    json.dumps(record),
                    json.dumps(summary(state)),
                    accuracy,
                    None if analysis is None else json.dumps(analysis, default=str),
                ),
            )
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def history(self, variant: str | None = None) -> list[FinishedGame]:
        """Finished games, oldest first (optionally of one variant)."""
        sql = (
            "SELECT id, variant, players, seats, player_seat, started_at, finished_at, hands, totals, final_totals,"
            " winner, hand_points, record, summary, accuracy, analysis FROM finished"
        )
        args: tuple[Any, ...] = ()
        if variant is not None:
            sql += " WHERE variant = ?"
            args = (variant,)
        sql += " ORDER BY finished_at, rowid"
        with self._tx() as c:
            rows = c.execute(sql, args).fetchall()
        return [
            FinishedGame(
                id=r[0],
                variant=r[1],
                players=json.loads(r[2]),
                seats=json.loads(r[3]),
                player_seat=int(r[4]),
                started_at=_iso(r[5]),
                finished_at=_iso(r[6]),
                hands=int(r[7]),
                totals=json.loads(r[8]),
                final_totals=json.loads(r[9]),
                winner=r[10],
                hand_points=json.loads(r[11]),
                record=json.loads(r[12]),
                summary=json.loads(r[13]),
                accuracy=r[14],
                analysis=None if r[15] is None else json.loads(r[15]),
            )
            for r in rows
        ]

    def stats(self, variant: str | None = None) -> dict[str, dict[str, Any]]:
        """Per variant: ``games``, ``wins``, ``win_rate``, ``hands``, ``points_per_hand`` (the
        person's points minus the opponents', per hand), ``scored_per_hand`` (the person's own
        points per hand), ``running_average`` (points per hand over all games so far, one value per
        game in order), ``accuracy`` (mean, where analysed) and ``accuracy_history``."""
        out: dict[str, dict[str, Any]] = {}
        for g in self.history(variant):
            s = out.setdefault(
                g.variant,
                {
                    "games": 0,
                    "wins": 0,
                    "win_rate": 0.0,
                    "hands": 0,
                    "points_per_hand": 0.0,
                    "scored_per_hand": 0.0,
                    "running_average": [],
                    "accuracy": None,
                    "accuracy_history": [],
                    "_net": 0,
                    "_scored": 0,
                },
            )
            s["games"] += 1
            s["wins"] += int(g.won)
            s["hands"] += g.hands
            for pts in g.hand_points:
                mine = pts[g.player_seat] if g.player_seat < len(pts) else 0
                s["_scored"] += mine
                s["_net"] += mine - (sum(pts) - mine)
            s["running_average"].append(round(s["_net"] / s["hands"], 3) if s["hands"] else 0.0)
            if g.accuracy is not None:
                s["accuracy_history"].append(g.accuracy)
        for s in out.values():
            s["win_rate"] = s["wins"] / s["games"] if s["games"] else 0.0
            s["points_per_hand"] = s["_net"] / s["hands"] if s["hands"] else 0.0
            s["scored_per_hand"] = s["_scored"] / s["hands"] if s["hands"] else 0.0
            acc = s["accuracy_history"]
            s["accuracy"] = sum(acc) / len(acc) if acc else None
            del s["_net"], s["_scored"]
        return out

    def export_records(self, variant: str | None = None) -> list[dict[str, Any]]:
        """The records (RECORD.md) of the finished games, oldest first."""
        return [g.record for g in self.history(variant)]


def _accuracy(analysis: dict[str, Any] | None) -> float | None:
    if not analysis:
        return None
    value = analysis.get("accuracy")
    if isinstance(value, dict):  # e.g. {"value": 0.93, ...}
        value = value.get("value", value.get("accuracy"))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value / 100 if value > 1 else value

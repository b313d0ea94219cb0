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
:meth:`Store.fresh` (the user said "start a new database") moves it aside.  A read-only directory
or file is reported as read-only; ``Store(dir, read_only=True)`` (``stats``, ``export``) reads it.

One game, one process.  A saved game is open in at most one process: :meth:`Store.open_game`
(resuming) and :meth:`Store.save_game` take the game's lock, a row of the ``locks`` table written in
the same transaction as the check, so two processes cannot both win it.  Another process gets
:class:`GameInUse`, which says where the game is open (the front end, the process, the computer,
since when); its saves and deletes of that game are refused too, so the last writer never wins.
The lock ends with :meth:`Store.release_game`, when the game is finished or deleted, or when its
process dies.  What is guaranteed:

- On one machine (same host name, boot and pid namespace, and Linux's /proc), a lock whose process
  is gone is free at once, and a pid reused by another process does not keep it (the lock records
  the process's start time).  A live owner keeps its lock however long it waits for input, even
  stopped (Ctrl-Z).
- Elsewhere (another computer or container sharing the directory, or no /proc to ask), the owner
  renews its locks every :data:`LEASE_SECONDS` / 4 from a background thread, and a lock not renewed
  for :data:`LEASE_SECONDS` is free.  This assumes clocks agree to well within that time, and an
  owner that was stopped longer than that finds its lock taken: its next save is refused (nothing
  lost, nothing overwritten).  SQLite's WAL mode itself needs every process on one machine (shared
  memory), so a directory shared over a network file system is not supported for playing.

Finished games are never resumed: a game in the history cannot be saved as unfinished again.

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

import atexit
import contextlib
import json
import logging
import os
import secrets
import socket
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

__all__ = [
    "DB_NAME",
    "LEASE_SECONDS",
    "SCHEMA_VERSION",
    "FinishedGame",
    "GameInUse",
    "GameLock",
    "SavedGame",
    "Store",
    "default_data_dir",
    "new_game_id",
]

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
CREATE TABLE IF NOT EXISTS locks (
    game_id TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    front_end TEXT NOT NULL,
    host TEXT NOT NULL,
    machine TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL,
    since REAL NOT NULL,
    renewed REAL NOT NULL
);
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


def _when(value: Any, name: str) -> str:
    """A stored time as ISO 8601; :class:`_BadValue` if it is not one."""
    try:
        return _iso(_number(value, name))
    except (OverflowError, ValueError, OSError):
        raise _BadValue(f"{name} is not a time") from None


# -- one game, one process -------------------------------------------------------------------------
LEASE_SECONDS = 120.0
"""A lock of another computer (or container, or boot) that has not been renewed for this long is
stale.  Holders renew theirs every quarter of it (:func:`_heartbeat`)."""


@dataclass(frozen=True)
class _Process:
    """Who holds a lock: a token unique to this process, the host name, the machine (host, boot
    and pid namespace: where a pid means the same process), the pid and its start time."""

    token: str
    host: str
    machine: str
    pid: int
    started: str


_ME: _Process | None = None


def _me() -> _Process:
    """This process (recomputed in a forked child, which is another process with its own locks)."""
    global _ME
    pid = os.getpid()
    if _ME is None or _ME.pid != pid:
        host = socket.gethostname()
        _ME = _Process(secrets.token_hex(8), host, _machine(host), pid, _started(pid) or "")
    return _ME


def _machine(host: str) -> str:
    """``host|boot id|pid namespace``: two processes see each other's pids only when all three are
    equal.  Without /proc (macOS, Windows) the last two are empty."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    try:
        ns = os.readlink("/proc/self/ns/pid")
    except (OSError, AttributeError):
        ns = ""
    return f"{host}|{boot}|{ns}"


def _started(pid: int) -> str | None:
    """The start time of process ``pid`` (Linux: clock ticks after boot, from /proc), which tells a
    reused pid from the process that took a lock; ``""`` when this system cannot tell, None when
    there is no such process."""
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except FileNotFoundError:
        return None if Path("/proc/self/stat").exists() else ""
    except OSError:
        return ""
    fields = data.rsplit(b")", 1)[-1].split()  # the name in parentheses may hold spaces
    return fields[19].decode() if len(fields) > 19 else ""


def _alive(token: str, machine: str, pid: int, started: str, renewed: float, now: float) -> bool:
    """Whether the process that took a lock still holds it.  On this machine (same host, boot and
    pid namespace, known through /proc) the pid must be running and have started when the lock's
    owner did, so a dead owner's lock is free at once and a reused pid does not keep it.  Anywhere
    else (another computer sharing the directory, another container) the owner must have renewed
    it within :data:`LEASE_SECONDS`."""
    me = _me()
    if token == me.token:
        return True
    if machine == me.machine and not machine.endswith("||"):
        now_started = _started(pid)
        if now_started is None:
            return False  # no such process: it died without releasing
        if started and now_started:
            return now_started == started  # a different start time: the pid was reused
    elif machine == me.machine and os.name == "posix":  # this host, no /proc: the pid, then the lease
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:
            pass  # it exists (another user's process)
    return now - renewed < LEASE_SECONDS


@dataclass(frozen=True)
class GameLock:
    """Where a game is open: the front end, the process and since when."""

    game_id: str
    front_end: str
    host: str
    pid: int
    since: float
    here: bool  # on this computer

    def where(self) -> str:
        """``play --plain (process 1234 on this computer) since 2026-01-02 14:05``."""
        place = "on this computer" if self.here else f"on {self.host}"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.since))
        return f"{self.front_end} (process {self.pid} {place}) since {when}"


class GameInUse(StoreError):
    """The game is open in another process: it may be played in one place at a time."""

    def __init__(self, lock: GameLock) -> None:
        self.lock = lock
        super().__init__(
            f"game {lock.game_id} is open in {lock.where()}; a game is played in one place at a time: "
            "finish or quit it there, or choose another game"
        )


_LOCK_COLUMNS = "token, machine, pid, started, renewed, front_end, host, pid, since"


def _other_holder(game_id: str, row: tuple[Any, ...] | None, now: float) -> GameLock | None:
    """The live holder of a lock row (:data:`_LOCK_COLUMNS`) if it is another process, else None."""
    if row is None or row[0] == _me().token:
        return None
    if not _alive(str(row[0]), str(row[1]), int(row[2]), str(row[3]), float(row[4]), now):
        return None
    return GameLock(game_id, str(row[5]), str(row[6]), int(row[7]), float(row[8]), row[6] == _me().host)


_EXITING = False  # set at interpreter exit, before the connections are closed
_WATCHING_EXIT = False


def _exiting() -> None:
    global _EXITING
    _EXITING = True


def _watch_exit() -> None:
    """Set :data:`_EXITING` at exit before the connection finalizers run: atexit calls the last
    registered first, and this is registered after them (a lock needs a connection)."""
    global _WATCHING_EXIT
    if not _WATCHING_EXIT:
        _WATCHING_EXIT = True
        atexit.register(_exiting)


def _heartbeat(ref: weakref.ref[Store]) -> None:
    """A daemon thread per Store that holds locks: renews them every quarter lease, and ends when
    the Store holds none (or is gone, or the interpreter is exiting)."""
    while True:
        time.sleep(LEASE_SECONDS / 4)
        store = ref()
        if store is None or _EXITING:
            return
        with store._held_guard:
            held = sorted(store._held) if store._held_pid == os.getpid() else []
            if not held:
                store._beat = None
                return
        try:
            store._renew(held)
        except StoreError as exc:
            if _EXITING:
                return  # the process is ending: its locks end with it
            _log.warning("could not renew the locks of %s: %s", held, exc)
        del store


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
    open_in: str | None = None  # where another process has it open ("play --plain (process 12 ...)")

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

    @property
    def takebacks(self) -> int:
        """Moves the person took back in this game (0: none; such a game is marked in the stats)."""
        n = self.summary.get("takebacks", 0)
        return n if isinstance(n, int) and not isinstance(n, bool) else 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Store:
    """The saved-games database.  See the module documentation."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None = None,
        *,
        read_only: bool = False,
        front_end: str = "a ginrummy program",
    ) -> None:
        self.data_dir = _resolve(data_dir)
        self.front_end = front_end  # named to whoever finds a game of ours open: "play --plain"
        self._held: set[str] = set()  # games this Store locked (in this process)
        self._held_pid = os.getpid()
        self._held_guard = threading.Lock()
        self._beat: threading.Thread | None = None
        self.path = self.data_dir / DB_NAME
        self.read_only = read_only
        self._uri: str | None = None  # read-only: the URI every connection opens
        self._tables: set[str] = set()  # read-only: the tables the file has
        self._local = threading.local()  # .entry: this thread's _ThreadConnection
        if read_only:
            self._check_file()  # sets self._uri, or leaves it None when there is no database yet
            return
        reason = self._unwritable()
        if reason:
            raise StoreError(reason)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {self.data_dir}: {exc.strerror}") from None
        self._check_file()
        self._init_schema()

    @classmethod
    def fresh(cls, data_dir: str | os.PathLike[str] | None = None, *, front_end: str = "a ginrummy program") -> Store:
        """Start a new database: a bad file (and its -wal/-shm companions) is moved aside to
        ``ginrummy.sqlite3.bad-<timestamp>``, then a new database is created.  A good database is
        kept as it is.  A read-only directory is reported as such (nothing can be moved there)."""
        directory = _resolve(data_dir)
        try:
            return cls(directory, front_end=front_end)
        except StoreError:
            pass
        path = directory / DB_NAME
        reason = cls._unwritable_at(directory)
        if reason:
            raise StoreError(reason)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.bad-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
        moved: list[tuple[Path, Path]] = []
        try:
            for suffix in ("", "-wal", "-shm", "-journal"):
                src = Path(str(path) + suffix)
                if src.exists():
                    dst = Path(str(aside) + suffix)
                    os.replace(src, dst)
                    moved.append((src, dst))
        except OSError as exc:
            for src, dst in reversed(moved):  # all or nothing: put back what was moved
                with contextlib.suppress(OSError):
                    os.replace(dst, src)
            raise StoreError(f"cannot move the database {path} aside: {exc.strerror}") from None
        return cls(directory, front_end=front_end)

    # -- read-only directories --------------------------------------------------------------------
    def _unwritable(self) -> str | None:
        return self._unwritable_at(self.data_dir)

    @staticmethod
    def _unwritable_at(directory: Path) -> str | None:
        """Why games cannot be saved in ``directory`` (read-only directory or database file), or None."""
        advice = (
            "games cannot be saved there. Give a writable directory with --data-dir; "
            "ginrummy stats and ginrummy export can still read it."
        )
        path = directory / DB_NAME
        if directory.is_dir() and not os.access(directory, os.W_OK | os.X_OK):
            return f"the data directory {directory} is read-only: {advice}"
        if path.is_file() and not os.access(path, os.W_OK):
            return f"the database {path} is read-only: {advice}"
        return None

    # -- opening and checking ---------------------------------------------------------------------
    def _check_file(self) -> None:
        """Raise StoreError if the file exists and is not a usable ginrummy database.  Reads only."""
        p = self.path
        if not p.exists():
            return
        if p.is_dir():
            raise StoreError(f"{p} is a directory, not a ginrummy database")
        # Only SQLite opens the file while it may be in use: closing any other descriptor of it
        # would drop every POSIX lock this process holds on it (another Store's connections), and
        # another process could then delete the WAL under them.  Its header is read only once
        # SQLite has refused the file.
        conn, rows = self._open_read_only(p)
        try:
            if [r[0] for r in rows] != ["ok"]:
                detail = "; ".join(str(r[0]) for r in rows[:3])
                raise StoreError(
                    f"the database {p} is damaged ({detail}); it was left untouched. "
                    "Start a new database (ginrummy play --new-database) to move it aside."
                )
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            self._tables = tables
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

    def _open_read_only(self, p: Path) -> tuple[sqlite3.Connection, list[Any]]:
        """Open ``p`` read-only and run ``PRAGMA quick_check``.  A WAL database in a directory we
        cannot write to cannot be opened with ``mode=ro`` (SQLite must create its -shm file), so then
        it is opened ``immutable=1``: read as it is, no locks (nobody who may write can be writing
        there through this directory's permissions).  Read-only Stores keep that URI."""
        uri = p.as_uri()
        last: sqlite3.Error | None = None
        for query in ("mode=ro", "immutable=1"):
            try:
                conn = sqlite3.connect(f"{uri}?{query}", uri=True, timeout=30)
            except sqlite3.Error as exc:
                last = exc
                continue
            try:
                rows = conn.execute("PRAGMA quick_check").fetchall()
            except sqlite3.OperationalError as exc:
                conn.close()
                last = exc
                if "readonly" in str(exc) or "read-only" in str(exc) or "unable to open" in str(exc):
                    continue  # cannot create the -shm file here: read it as it is
                break
            except sqlite3.DatabaseError as exc:
                conn.close()
                last = exc
                break
            if self.read_only:
                self._uri = f"{uri}?{query}"
            return conn, rows
        if isinstance(last, sqlite3.OperationalError) and "unable to open" in str(last):
            raise StoreError(f"cannot open the database {p}: {last}")
        try:
            with open(p, "rb") as f:
                head = f.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(f"cannot read the database {p}: {exc.strerror}") from None
        if head != _SQLITE_HEADER:
            raise StoreError(
                f"{p} is not a ginrummy database (not an SQLite file); it was left untouched. "
                "Move it away, or start a new database (ginrummy play --new-database)."
            )
        raise StoreError(
            f"the database {p} is damaged ({last}); it was left untouched. "
            "Start a new database (ginrummy play --new-database) to move it aside."
        )

    def _connect(self) -> sqlite3.Connection:
        """A new connection (``check_same_thread=False`` only so that a finalizer running in another
        thread may close it: each connection is used by the thread that opened it)."""
        try:
            if self._uri is not None:
                conn = sqlite3.connect(self._uri, uri=True, timeout=30, isolation_level=None, check_same_thread=False)
            else:
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
        if write and self.read_only:
            raise StoreError(f"the database {self.path} was opened read-only: nothing can be saved")
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
            if "readonly" in str(exc):
                raise StoreError(
                    f"the database {self.path} is read-only ({exc}): games cannot be saved there. Give a writable "
                    "directory with --data-dir; ginrummy stats and ginrummy export can still read it."
                ) from None
            raise StoreError(f"cannot set up the database {self.path}: {exc}") from None

    # -- saved games ------------------------------------------------------------------------------
    def save_game(self, game_id: str, session: Session) -> None:
        """Save ``session`` under ``game_id`` (one atomic transaction).  A game that is over is
        filed in the history at once (:meth:`finish_game` may be called later to add analysis).
        Saving takes the game's lock for this process (:meth:`lock_game`): :class:`GameInUse` if
        another live process has it open; a finished game is never saved as unfinished again."""
        state = session.state
        if state.game_over:
            self.finish_game(game_id, session)
            return
        data = json.dumps(session.to_json(), separators=(",", ":"))
        now = time.time()
        with self._tx(write=True) as c:
            if c.execute("SELECT 1 FROM finished WHERE id = ?", (game_id,)).fetchone() is not None:
                raise StoreError(f"game {game_id} is over and filed in your history: it cannot be played on")
            self._claim(c, game_id)
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

    def autosave(self, game_id: str, session: Session) -> None:
        """Save ``session`` after every change (its ``on_change``), all or nothing: if a save fails
        (a full disk, say), the session is put back as it was at its last save and the
        :class:`~ginrummy.errors.StoreError` reaches the caller of the action, so an error means
        nothing changed, in memory as in the file.  ``session`` must be as saved when this is called."""
        last = session.to_json()

        def save(s: Session) -> None:
            nonlocal last
            now = s.to_json()
            try:
                self.save_game(game_id, s)
            except StoreError as exc:  # GameInUse stays a GameInUse
                _restore(s, last)
                exc.args = (f"the game could not be saved ({exc}); nothing changed: the action was undone",)
                raise
            last = now

        session.on_change = save

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

    # -- one game, one process --------------------------------------------------------------------
    def open_game(self, game_id: str) -> Session | None:
        """Lock the saved game ``game_id`` for this process and load it.  :class:`GameInUse` (which
        says where and since when) if another live process has it open; None, and no lock, if there
        is no such saved game (finished games are not saved games)."""
        from .session import Session

        with self._tx(write=True) as c:
            row = c.execute(
                "SELECT session FROM games WHERE id = ? AND id NOT IN (SELECT id FROM finished)", (game_id,)
            ).fetchone()
            if row is not None:
                self._claim(c, game_id)
        if row is None:
            return None
        try:
            return Session.from_json(json.loads(row[0]))
        except (GinRummyError, ValueError, KeyError, TypeError, RecursionError) as exc:
            self.release_game(game_id)
            raise StoreError(f"saved game {game_id} cannot be resumed: {exc}") from None

    def lock_game(self, game_id: str) -> None:
        """Hold ``game_id`` for this process (again: it is re-entrant): :class:`GameInUse` if another
        live process has it open.  The lock ends with :meth:`release_game`, when the game is
        finished or deleted, or when this process dies (see :func:`_alive`)."""
        with self._tx(write=True) as c:
            self._claim(c, game_id)

    def lock_of(self, game_id: str) -> GameLock | None:
        """Where another live process has ``game_id`` open, or None."""
        if not self._has("locks"):
            return None
        with self._tx() as c:
            row = c.execute(f"SELECT {_LOCK_COLUMNS} FROM locks WHERE game_id = ?", (game_id,)).fetchone()
        return _other_holder(game_id, row, time.time())

    def release_game(self, game_id: str) -> None:
        """Let other processes open ``game_id`` (if this process holds it).  Never raises: a lock
        that cannot be removed now is free when this process ends."""
        self._unhold(game_id)
        if self.read_only:
            return
        try:
            with self._tx(write=True) as c:
                c.execute("DELETE FROM locks WHERE game_id = ? AND token = ?", (game_id, _me().token))
        except StoreError as exc:
            _log.warning("could not release game %s: %s", game_id, exc)

    def release_all(self) -> None:
        """Release every game this Store holds (a server shutting down)."""
        with self._held_guard:
            held = sorted(self._held) if self._held_pid == os.getpid() else []
        for game_id in held:
            self.release_game(game_id)

    def _claim(self, c: sqlite3.Connection, game_id: str, *, take: bool = True) -> None:
        """In a write transaction: :class:`GameInUse` if another live process holds ``game_id``;
        else, with ``take``, hold it (a dead owner's lock is taken over)."""
        me = _me()
        now = time.time()
        row = c.execute(f"SELECT {_LOCK_COLUMNS} FROM locks WHERE game_id = ?", (game_id,)).fetchone()
        holder = _other_holder(game_id, row, now)
        if holder is not None:
            raise GameInUse(holder)
        if not take:
            return
        if row is not None and row[0] == me.token:
            c.execute("UPDATE locks SET renewed = ? WHERE game_id = ?", (now, game_id))
        else:
            c.execute(
                "INSERT OR REPLACE INTO locks (game_id, token, front_end, host, machine, pid, started, since, renewed)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, me.token, self.front_end, me.host, me.machine, me.pid, me.started, now, now),
            )
        self._hold(game_id)

    def _hold(self, game_id: str) -> None:
        with self._held_guard:
            if self._held_pid != os.getpid():  # a forked child: the parent's locks are not ours
                self._held, self._held_pid, self._beat = set(), os.getpid(), None
            self._held.add(game_id)
            if self._beat is None:
                _watch_exit()
                self._beat = threading.Thread(
                    target=_heartbeat, args=(weakref.ref(self),), name="ginrummy-lock-heartbeat", daemon=True
                )
                self._beat.start()

    def _unhold(self, game_id: str) -> None:
        with self._held_guard:
            self._held.discard(game_id)

    def _renew(self, held: list[str]) -> None:
        with self._tx(write=True) as c:
            c.executemany(
                "UPDATE locks SET renewed = ? WHERE game_id = ? AND token = ?",
                [(time.time(), g, _me().token) for g in held],
            )

    def saved_games(self, problems: list[str] | None = None) -> list[SavedGame]:
        """Unfinished games, the most recently played first, each with ``open_in`` saying where
        another process has it open (None if nobody else does).  A finished game is never listed.
        A row whose values are damaged is skipped and described in ``problems`` (or logged)."""
        if not self._has("games"):
            return []
        locks = self._has("locks")
        with self._tx() as c:
            rows = c.execute(
                "SELECT g.id, g.variant, g.players, g.seats, g.updated_at, g.hand_number, g.totals, g.rowid, "
                + (
                    "l.token, l.machine, l.pid, l.started, l.renewed, l.front_end, l.host, l.pid, l.since "
                    "FROM games g LEFT JOIN locks l ON l.game_id = g.id "
                    if locks
                    else "NULL FROM games g "
                )
                + "WHERE g.id NOT IN (SELECT id FROM finished) ORDER BY g.updated_at DESC, g.rowid DESC"
            ).fetchall()
        out = []
        now = time.time()
        for r in rows:
            holder = _other_holder(r[0], r[8:] if locks and r[8] is not None else None, now)
            open_in = None if holder is None else holder.where()
            try:
                out.append(
                    SavedGame(
                        _text(r[0], "id"),
                        _text(r[1], "variant"),
                        _json_list(r[2], "players", str),
                        _json_list(r[3], "seats", str),
                        _when(r[4], "updated_at"),
                        _integer(r[5], "hand_number"),
                        _json_list(r[6], "totals", int),
                        open_in,
                    )
                )
            except _BadValue as exc:
                _report(problems, f"saved game {r[0]!r} (row {r[7]} of the games table) is damaged: {exc}; skipped")
        return out

    def delete_game(self, game_id: str) -> None:
        """Forget a saved (unfinished) game (:class:`GameInUse` if another process has it open)."""
        with self._tx(write=True) as c:
            self._claim(c, game_id, take=False)
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))
            c.execute("DELETE FROM locks WHERE game_id = ?", (game_id,))
        self._unhold(game_id)

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
            self._claim(c, game_id, take=False)
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
                    json.dumps(
                        {**summary(state), "takebacks": getattr(session, "takebacks", 0)}
                    ),  # a snapshot may lack it
                    accuracy,
                    None if analysis is None else json.dumps(analysis, default=str),
                ),
            )
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))
            c.execute("DELETE FROM locks WHERE game_id = ?", (game_id,))  # a finished game is not open anywhere
        self._unhold(game_id)

    def history(self, variant: str | None = None, problems: list[str] | None = None) -> list[FinishedGame]:
        """Finished games, oldest first (optionally of one variant).  A row whose values are damaged
        (bad JSON, a wrong type) is skipped and described in ``problems`` (or logged): one bad row
        never hides the others."""
        if not self._has("finished"):
            return []
        sql = (
            "SELECT id, variant, players, seats, player_seat, started_at, finished_at, hands, totals, final_totals,"
            " winner, hand_points, record, summary, accuracy, analysis, rowid FROM finished"
        )
        args: tuple[Any, ...] = ()
        if variant is not None:
            sql += " WHERE variant = ?"
            args = (variant,)
        sql += " ORDER BY finished_at, rowid"
        with self._tx() as c:
            rows = c.execute(sql, args).fetchall()
        out = []
        for r in rows:
            try:
                out.append(_finished(r))
            except _BadValue as exc:
                _report(problems, f"finished game {r[0]!r} (row {r[16]} of the history) is damaged: {exc}; skipped")
        return out

    def stats(
        self, variant: str | None = None, problems: list[str] | None = None, *, takebacks: bool = True
    ) -> dict[str, dict[str, Any]]:
        """Per variant: ``games``, ``wins``, ``win_rate``, ``hands``, ``points_per_hand`` (the
        person's points minus the opponents', per hand), ``scored_per_hand`` (the person's own
        points per hand), ``running_average`` (points per hand over all games so far, one value per
        game in order), ``accuracy`` (mean, where analysed), ``accuracy_history`` and
        ``takeback_games`` (games in which moves were taken back; ``takebacks=False`` leaves them out)."""
        out: dict[str, dict[str, Any]] = {}
        for g in self.history(variant, problems):
            if not takebacks and g.takebacks:
                continue
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
                    "takeback_games": 0,
                    "_net": 0,
                    "_scored": 0,
                },
            )
            s["games"] += 1
            s["takeback_games"] += int(g.takebacks > 0)
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

    def export_records(self, variant: str | None = None, problems: list[str] | None = None) -> list[dict[str, Any]]:
        """The records (RECORD.md) of the finished games, oldest first (damaged rows skipped)."""
        return [g.record for g in self.history(variant, problems)]

    def _has(self, table: str) -> bool:
        """Whether ``table`` can be read: always in a writable Store (it made its schema); in a
        read-only one, only if the file has it (no file, or an empty one, has no games)."""
        return not self.read_only or table in self._tables


def _resolve(data_dir: str | os.PathLike[str] | None) -> Path:
    """The data directory as an absolute path (a relative ``--data-dir`` is taken from the current
    directory once, here: SQLite URIs need absolute paths)."""
    return (Path(data_dir).expanduser() if data_dir is not None else default_data_dir()).absolute()


_log = logging.getLogger("ginrummy.store")


class _BadValue(ValueError):
    """A value in a row that is not what ginrummy wrote (damaged JSON, a wrong type)."""


def _report(problems: list[str] | None, text: str) -> None:
    if problems is None:
        _log.warning("%s", text)
    else:
        problems.append(text)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise _BadValue(f"{name} is not text")
    return value


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadValue(f"{name} is not an integer")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _BadValue(f"{name} is not a number")
    return float(value)


def _json(value: Any, name: str) -> Any:
    if not isinstance(value, (str, bytes)):
        raise _BadValue(f"{name} is not JSON text")
    try:
        return json.loads(value)
    except (ValueError, RecursionError) as exc:
        raise _BadValue(f"{name} is not valid JSON ({exc})") from None


def _json_list(value: Any, name: str, kind: type) -> list[Any]:
    data = _json(value, name)
    if not isinstance(data, list) or not all(isinstance(x, kind) and not isinstance(x, bool) for x in data):
        raise _BadValue(f"{name} is not a list of {kind.__name__}")
    return data


def _json_object(value: Any, name: str) -> dict[str, Any]:
    data = _json(value, name)
    if not isinstance(data, dict):
        raise _BadValue(f"{name} is not a JSON object")
    return data


def _finished(r: tuple[Any, ...]) -> FinishedGame:
    """A history row as a :class:`FinishedGame`; :class:`_BadValue` names the first damaged value."""
    hand_points = _json(r[11], "hand_points")
    if not isinstance(hand_points, list) or not all(
        isinstance(p, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in p) for p in hand_points
    ):
        raise _BadValue("hand_points is not a list of lists of integers")
    accuracy = r[14]
    if accuracy is not None:
        accuracy = _number(accuracy, "accuracy")
    winner = r[10]
    if winner is not None:
        winner = _integer(winner, "winner")
    return FinishedGame(
        id=_text(r[0], "id"),
        variant=_text(r[1], "variant"),
        players=_json_list(r[2], "players", str),
        seats=_json_list(r[3], "seats", str),
        player_seat=_integer(r[4], "player_seat"),
        started_at=_when(r[5], "started_at"),
        finished_at=_when(r[6], "finished_at"),
        hands=_integer(r[7], "hands"),
        totals=_json_list(r[8], "totals", int),
        final_totals=_json_list(r[9], "final_totals", int),
        winner=winner,
        hand_points=hand_points,
        record=_json_object(r[12], "record"),
        summary=_json_object(r[13], "summary"),
        accuracy=accuracy,
        analysis=None if r[15] is None else _json_object(r[15], "analysis"),
    )


def _restore(session: Session, saved: dict[str, Any]) -> None:
    """Put ``session`` back to ``saved`` (its :meth:`~ginrummy.session.Session.to_json` at the last
    save): the state and the committed next seed; its seats and computer players stay."""
    session.restore(saved)


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

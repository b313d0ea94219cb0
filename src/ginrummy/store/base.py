"""The database file: its schema, opening and checking it, one connection per thread, transactions."""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from ..errors import StoreError, system_reason
from ..i18n import _

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


_NEW_DATABASE = "ginrummy play --new-database"
_COMMANDS = {"option": "--data-dir", "stats": "ginrummy stats", "export": "ginrummy export"}


def _damaged(path: Path, detail: object) -> str:
    return _(
        "the database {path} is damaged ({detail}); it was left untouched. Start a new database ({command}) to "
        "move it aside."
    ).format(path=path, detail=detail, command=_NEW_DATABASE)


def new_game_id() -> str:
    """A new game id: sortable by time, unique (``20250101-120000-3fa2c1``)."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def _resolve(data_dir: str | os.PathLike[str] | None) -> Path:
    """The data directory as an absolute path (a relative ``--data-dir`` is taken from the current
    directory once, here: SQLite URIs need absolute paths)."""
    return (Path(data_dir).expanduser() if data_dir is not None else default_data_dir()).absolute()


class _Base:
    """The database file and its connections (see :mod:`ginrummy.store`)."""

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
        self._beat: threading.Thread | None = None  # the lock heartbeat (ginrummy.store.locks)
        self._beat_stop = threading.Event()  # set: that heartbeat ends
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
            raise StoreError(
                _("cannot create the data directory {path}: {reason}").format(
                    path=self.data_dir, reason=system_reason(exc)
                )
            ) from None
        self._check_file()
        self._init_schema()

    @classmethod
    @classmethod
    def fresh(cls, data_dir: str | os.PathLike[str] | None = None, *, front_end: str = "a ginrummy program") -> Self:
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
            raise StoreError(
                _("cannot move the database {path} aside: {reason}").format(path=path, reason=system_reason(exc))
            ) from None
        return cls(directory, front_end=front_end)

    # -- read-only directories --------------------------------------------------------------------
    def _unwritable(self) -> str | None:
        return self._unwritable_at(self.data_dir)

    @staticmethod
    def _unwritable_at(directory: Path) -> str | None:
        """Why games cannot be saved in ``directory`` (read-only directory or database file), or None."""
        path = directory / DB_NAME
        if directory.is_dir() and not os.access(directory, os.W_OK | os.X_OK):
            return _(
                "the data directory {path} is read-only: games cannot be saved there. Give a writable directory "
                "with {option}; {stats} and {export} can still read it."
            ).format(path=directory, **_COMMANDS)
        if path.is_file() and not os.access(path, os.W_OK):
            return _(
                "the database {path} is read-only: games cannot be saved there. Give a writable directory "
                "with {option}; {stats} and {export} can still read it."
            ).format(path=path, **_COMMANDS)
        return None

    # -- opening and checking ---------------------------------------------------------------------
    def _check_file(self) -> None:
        """Raise StoreError if the file exists and is not a usable ginrummy database.  Reads only."""
        p = self.path
        if not p.exists():
            return
        if p.is_dir():
            raise StoreError(_("{path} is a directory, not a ginrummy database").format(path=p))
        # Only SQLite opens the file while it may be in use: closing any other descriptor of it
        # would drop every POSIX lock this process holds on it (another Store's connections), and
        # another process could then delete the WAL under them.  Its header is read only once
        # SQLite has refused the file.
        conn, rows = self._open_read_only(p)
        try:
            if [r[0] for r in rows] != ["ok"]:
                detail = "; ".join(str(r[0]) for r in rows[:3])
                raise StoreError(_damaged(p, detail))
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            self._tables = tables
            if not tables:
                return
            if "meta" not in tables:
                raise StoreError(
                    _(
                        "{path} is an SQLite database of another program (tables: {tables}); it was left "
                        "untouched. Start a new database ({command}) to move it aside."
                    ).format(path=p, tables=", ".join(sorted(tables)), command=_NEW_DATABASE)
                )
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("app") != APP_ID:
                raise StoreError(
                    _("{path} is an SQLite database of another program; it was left untouched.").format(path=p)
                )
            version = int(meta.get("schema_version", "0"))
            if version > SCHEMA_VERSION:
                raise StoreError(
                    _(
                        "{path} was written by a newer ginrummy (schema {version}, this one reads {readable}); "
                        "it was left untouched. Upgrade ginrummy."
                    ).format(path=p, version=version, readable=SCHEMA_VERSION)
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(_damaged(p, system_reason(exc))) from None
        except ValueError:
            raise StoreError(
                _("the database {path} has a bad schema version; it was left untouched.").format(path=p)
            ) from None
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
            raise StoreError(_("cannot open the database {path}: {error}").format(path=p, error=system_reason(last)))
        try:
            with open(p, "rb") as f:
                head = f.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(
                _("cannot read the database {path}: {reason}").format(path=p, reason=system_reason(exc))
            ) from None
        if head != _SQLITE_HEADER:
            raise StoreError(
                _(
                    "{path} is not a ginrummy database (not an SQLite file); it was left untouched. "
                    "Move it away, or start a new database ({command})."
                ).format(path=p, command=_NEW_DATABASE)
            )
        raise StoreError(_damaged(p, system_reason(last) if last is not None else "?"))

    def _connect(self) -> sqlite3.Connection:
        """A new connection (``check_same_thread=False`` only so that a finalizer running in another
        thread may close it: each connection is used by the thread that opened it)."""
        try:
            if self._uri is not None:
                conn = sqlite3.connect(self._uri, uri=True, timeout=30, isolation_level=None, check_same_thread=False)
            else:
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(
                _("cannot open the database {path}: {error}").format(path=self.path, error=system_reason(exc))
            ) from None
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(
                _("cannot open the database {path}: {error}").format(path=self.path, error=system_reason(exc))
            ) from None
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
        self._drop_connection()

    def _drop_connection(self) -> None:
        """Close the calling thread's connection, and nothing else (after an SQLite error)."""
        entry: _ThreadConnection | None = getattr(self._local, "entry", None)
        self._local.entry = None
        if entry is not None:
            entry.close()

    def __enter__(self) -> Self:
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
            raise StoreError(_("the database {path} was opened read-only: nothing can be saved").format(path=self.path))
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
            self._drop_connection()
            raise StoreError(
                _("database error in {path}: {error}").format(path=self.path, error=system_reason(exc))
            ) from None

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
            self._drop_connection()
            if "readonly" in str(exc):
                raise StoreError(
                    _(
                        "the database {path} is read-only ({error}): games cannot be saved there. Give a writable "
                        "directory with {option}; {stats} and {export} can still read it."
                    ).format(path=self.path, error=system_reason(exc), **_COMMANDS)
                ) from None
            raise StoreError(
                _("cannot set up the database {path}: {error}").format(path=self.path, error=system_reason(exc))
            ) from None

    def _has(self, table: str) -> bool:
        """Whether ``table`` can be read: always in a writable Store (it made its schema); in a
        read-only one, only if the file has it (no file, or an empty one, has no games)."""
        return not self.read_only or table in self._tables

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

from .base import APP_ID, DB_NAME, SCHEMA_VERSION, default_data_dir, new_game_id
from .finished import FinishedGame
from .games import SavedGame, Store
from .locks import LEASE_SECONDS, GameInUse, GameLock

__all__ = [
    "APP_ID",
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

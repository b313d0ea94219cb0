"""One game, one process: the ``locks`` table, who holds a lock and whether it is alive, and the
heartbeat that renews a Store's locks."""

from __future__ import annotations

import atexit
import os
import secrets
import socket
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..i18n import N_, _
from .base import _Base
from .values import _log

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
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.since))
        name = _(self.front_end) if self.front_end == _SOME_PROGRAM else self.front_end
        if self.here:
            return _("{program} (process {pid} on this computer) since {when}").format(
                program=name, pid=self.pid, when=when
            )
        return _("{program} (process {pid} on {host}) since {when}").format(
            program=name, pid=self.pid, host=self.host, when=when
        )


_SOME_PROGRAM = N_("a ginrummy program")  # the front end of a Store that names none


class GameInUse(StoreError):
    """The game is open in another process: it may be played in one place at a time."""

    def __init__(self, lock: GameLock) -> None:
        self.lock = lock
        super().__init__(
            _(
                "game {id} is open in {where}; a game is played in one place at a time: finish or quit it there, "
                "or choose another game"
            ).format(id=lock.game_id, where=lock.where())
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
# The heartbeats running in this process, with the event that ends each: all are ended and
# joined at exit, so that no heartbeat thread is left to wake while the interpreter shuts down
# (a daemon thread waking then is the classic way to crash the interpreter's exit; a test run had
# 230 of them asleep at its end, one per Store that had locked a game in the last half minute).
_BEATS: dict[threading.Thread, threading.Event] = {}
_BEATS_GUARD = threading.Lock()


def _forked() -> None:
    """A forked child has none of its parent's threads (and the guard may have been held)."""
    global _BEATS_GUARD
    _BEATS.clear()
    _BEATS_GUARD = threading.Lock()


os.register_at_fork(after_in_child=_forked)


def _exiting() -> None:
    """At exit, before the connections' finalizers: no more renewals, and every heartbeat ended."""
    global _EXITING
    _EXITING = True
    with _BEATS_GUARD:
        beats = list(_BEATS.items())
        _BEATS.clear()
    for _thread, stop in beats:
        stop.set()
    for thread, _stop in beats:
        if thread.is_alive() and thread is not threading.current_thread():
            thread.join(timeout=10)  # one in the middle of a renewal finishes it (SQLite's busy wait at most)


def _watch_exit() -> None:
    """Set :data:`_EXITING` at exit before the connection finalizers run: atexit calls the last
    registered first, and this is registered after them (a lock needs a connection)."""
    global _WATCHING_EXIT
    if not _WATCHING_EXIT:
        _WATCHING_EXIT = True
        atexit.register(_exiting)


def _heartbeat(ref: weakref.ref[_Locks], stop: threading.Event) -> None:
    """A daemon thread per Store that holds locks: renews them every quarter lease, and ends when
    the Store holds none (or is gone, or closed: ``stop`` is set, or the interpreter is exiting)."""
    try:
        _beat(ref, stop)
    finally:
        with _BEATS_GUARD:
            _BEATS.pop(threading.current_thread(), None)


def _beat(ref: weakref.ref[_Locks], stop: threading.Event) -> None:
    while True:
        if stop.wait(LEASE_SECONDS / 4):
            return
        store = ref()
        if store is None or _EXITING or stop.is_set():
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


class _Locks(_Base):
    """The lock methods of :class:`~ginrummy.store.Store`."""

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
                self._beat_stop = stop = threading.Event()
                self._beat = threading.Thread(
                    target=_heartbeat,
                    args=(weakref.ref(self), stop),
                    name="ginrummy-lock-heartbeat",
                    daemon=True,
                )
                weakref.finalize(self, stop.set)  # a Store collected ends its heartbeat now, not at its next wake
                with _BEATS_GUARD:
                    _BEATS[self._beat] = stop
                self._beat.start()

    def close(self) -> None:
        """Close the calling thread's connection, after stopping the lock heartbeat (which would
        otherwise go on renewing through a Store its owner has closed).  The locks stay taken: on
        this machine they hold while this process lives; the heartbeat starts again with the next
        lock this Store takes (a save, say)."""
        with self._held_guard:
            beat, self._beat = self._beat, None
            self._beat_stop.set()
        if beat is not None and beat is not threading.current_thread():
            beat.join(timeout=30)
        super().close()

    def _unhold(self, game_id: str) -> None:
        with self._held_guard:
            self._held.discard(game_id)

    def _renew(self, held: list[str]) -> None:
        with self._tx(write=True) as c:
            c.executemany(
                "UPDATE locks SET renewed = ? WHERE game_id = ? AND token = ?",
                [(time.time(), g, _me().token) for g in held],
            )

"""The seat book of the browser app: which seat token opens which seat, the invitations, who is
ready for the next deal, and which games are web tables (``web.sqlite3`` beside the saved games).

Seat tokens come from :func:`secrets.token_urlsafe` and only their SHA-256 digests are stored."""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

__all__ = ["SeatBook"]


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

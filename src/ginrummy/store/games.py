"""Saved (unfinished) games, and :class:`Store` itself."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..errors import GinRummyError, StoreError, json_reason
from ..i18n import _
from .history import _History
from .locks import _other_holder
from .values import _BadValue, _integer, _json_list, _report, _text, _when

if TYPE_CHECKING:
    from ..session import Session


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


class Store(_History):
    """The saved-games database.  See the module documentation (:mod:`ginrummy.store`)."""

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
                raise StoreError(
                    _("game {id} is over and filed in your history: it cannot be played on").format(id=game_id)
                )
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
                exc.args = (
                    _("the game could not be saved ({error}); nothing changed: the action was undone").format(
                        error=exc
                    ),
                )
                raise
            last = now

        session.on_change = save

    def load_game(self, game_id: str) -> Session | None:
        """The saved game ``game_id``, or None if there is none (finished games are not loaded)."""
        # Imported when first needed: the stats and export commands, which never load a game, start light.
        from ..session import Session

        with self._tx() as c:
            row = c.execute("SELECT session FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return Session.from_json(json.loads(row[0]))
        except (GinRummyError, ValueError, KeyError, TypeError, RecursionError) as exc:
            raise _unresumable(game_id, exc) from None

    # -- one game, one process --------------------------------------------------------------------
    def open_game(self, game_id: str) -> Session | None:
        """Lock the saved game ``game_id`` for this process and load it.  :class:`GameInUse` (which
        says where and since when) if another live process has it open; None, and no lock, if there
        is no such saved game (finished games are not saved games)."""
        # Imported when first needed: the stats and export commands, which never load a game, start light.
        from ..session import Session

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
            raise _unresumable(game_id, exc) from None

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
                _report(
                    problems,
                    _("saved game {id} (row {row} of the games table) is damaged: {error}; skipped").format(
                        id=repr(r[0]), row=r[7], error=exc
                    ),
                )
        return out

    def delete_game(self, game_id: str) -> None:
        """Forget a saved (unfinished) game (:class:`GameInUse` if another process has it open)."""
        with self._tx(write=True) as c:
            self._claim(c, game_id, take=False)
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))
            c.execute("DELETE FROM locks WHERE game_id = ?", (game_id,))
        self._unhold(game_id)


def _restore(session: Session, saved: dict[str, Any]) -> None:
    """Put ``session`` back to ``saved`` (its :meth:`~ginrummy.session.Session.to_json` at the last
    save): the state and the committed next seed; its seats and computer players stay."""
    session.restore(saved)


def _unresumable(game_id: str, exc: BaseException) -> StoreError:
    """Why a saved game's data cannot be loaded, in the reader's language: the library's own refusal
    as worded, the JSON reader's reason from its table, else what kind of fault Python found (its
    own text, ``KeyError: 'players'``, is English)."""
    if isinstance(exc, GinRummyError):
        error = str(exc)
    elif isinstance(exc, json.JSONDecodeError):
        error = json_reason(exc.msg)
    elif isinstance(exc, KeyError):
        error = _("the field {field} is missing").format(field=repr(exc.args[0]) if exc.args else "?")
    elif isinstance(exc, RecursionError):
        error = _("the data is nested too deeply")
    else:
        error = _("a value has the wrong type or form")
    return StoreError(_("saved game {id} cannot be resumed: {error}").format(id=game_id, error=error))

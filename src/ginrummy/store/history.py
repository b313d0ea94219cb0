"""The history of finished games and the statistics made from it."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from ..i18n import _
from .finished import FinishedGame, _finished
from .locks import _Locks
from .stats import opponent_of, variant_stats
from .values import _BadValue, _report

if TYPE_CHECKING:
    from ..session import Session


class _History(_Locks):
    """The history methods of :class:`~ginrummy.store.Store`."""

    def finish_game(self, game_id: str, session: Session, analysis: dict[str, Any] | None = None) -> None:
        """Move a game to the history with its record, summary, the points of each hand and, for the
        solitaires, the accuracy from ``analysis`` (its ``accuracy`` entry, 0..1 or a percentage)."""
        # Imported when first needed: the stats and export commands, which file no game, start light.
        from ..record import summary

        state = session.state
        record = state.to_record()
        player_seat = next((i for i, k in enumerate(session.seats) if k == "human"), -1)  # -1: watched
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
                    json.dumps(_filed_summary(session, summary(state))),
                    accuracy,
                    None if analysis is None else json.dumps(analysis, default=str),
                ),
            )
            c.execute("DELETE FROM games WHERE id = ?", (game_id,))
            c.execute("DELETE FROM locks WHERE game_id = ?", (game_id,))  # a finished game is not open anywhere
        self._unhold(game_id)

    def history(
        self, variant: str | None = None, problems: list[str] | None = None, *, watched: bool = False
    ) -> list[FinishedGame]:
        """The person's finished games, oldest first (optionally of one variant); with ``watched``
        also the games only computers played (which are in nobody's history).  A row whose values
        are damaged (bad JSON, a wrong type) is skipped and described in ``problems`` (or logged):
        one bad row never hides the others."""
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
                g = _finished(r)
                if watched or not g.watched:
                    out.append(g)
            except _BadValue as exc:
                _report(
                    problems,
                    _("finished game {id} (row {row} of the history) is damaged: {error}; skipped").format(
                        id=repr(r[0]), row=r[16], error=exc
                    ),
                )
        return out

    def stats(
        self,
        variant: str | None = None,
        problems: list[str] | None = None,
        *,
        opponent: str | None = None,
        takebacks: bool = True,
    ) -> dict[str, dict[str, Any]]:
        """The statistics of the person's finished games (watched games are nobody's): per variant,
        the figures of :func:`ginrummy.store.stats.summarise` (games, wins, points per hand, gins,
        undercuts, streaks, best and worst hands and games, the running average, accuracy), with
        ``by_opponent`` and ``by_level`` (the same per opponent, and per playing level of the
        computer opponent).  ``opponent`` keeps only the games against that opponent
        (:func:`~ginrummy.store.stats.opponent_of`); ``takebacks=False`` leaves out the games played
        with takebacks (undo).  The one query every front end asks."""
        # Imported when first needed (the levels module loads the expert): the other commands start light.
        from ..agents.levels import LEVELS

        games = self.history(variant, problems)
        if opponent is not None:
            games = [g for g in games if opponent_of(g) == opponent]
        if not takebacks:
            games = [g for g in games if not g.takebacks]
        return variant_stats(games, LEVELS)

    def export_records(self, variant: str | None = None, problems: list[str] | None = None) -> list[dict[str, Any]]:
        """The records (RECORD.md) of the finished games, oldest first (damaged rows skipped)."""
        return [g.record for g in self.history(variant, problems)]


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


def _filed_summary(session: Session, summ: dict[str, Any]) -> dict[str, Any]:
    """The replay summary filed with a game, each hand with its ``knocker`` (the seat that knocked
    or went gin, None if nobody did: what the statistics need to tell a gin or an undercut of the
    person's from one against them), and the game's ``takebacks`` (decisions taken back with undo)."""
    for hand, result in zip(summ.get("hands", ()), session.state.results, strict=False):
        hand["knocker"] = result.knocker
    # From the saved JSON: the web's saver files a frozen copy that has the JSON, state and seats only.
    summ["takebacks"] = int(session.to_json().get("takebacks") or 0)
    return summ

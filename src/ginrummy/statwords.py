"""Statistics in words: the lines every front end shows for :meth:`ginrummy.store.Store.stats`
(the ``stats`` command, the terminal's statistics screen, the page's statistics), so the figures
are worded once, in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .i18n import _, ngettext
from .words import result_name, seat_kind

__all__ = ["chart_choices", "chart_line", "opponent_name", "opponent_sections", "stats_lines", "streak_line"]


def streak_line(st: Mapping[str, Any]) -> str:
    """The current streak and the longest ones, in words."""
    cur = st["streak"]["current"]
    if cur > 0:
        now = ngettext("{n} win in a row", "{n} wins in a row", cur).format(n=cur)
    elif cur < 0:
        now = ngettext("{n} loss in a row", "{n} losses in a row", -cur).format(n=-cur)
    else:
        now = _("none")
    return _("streak now {now}; longest {best} wins, {worst} losses").format(
        now=now, best=st["streak"]["best"], worst=st["streak"]["worst"]
    )


def stats_lines(st: Mapping[str, Any]) -> list[str]:
    """One variant's (or one opponent's) figures of :meth:`ginrummy.store.Store.stats`, line by line:
    games and wins, points per hand, gins, knocks and undercuts, streaks, the best and worst hand
    and game."""
    lines = [
        _("games {games}, wins {wins} ({rate}), hands {hands}").format(
            games=st["games"], wins=st["wins"], rate=f"{st['win_rate']:.0%}", hands=st["hands"]
        ),
        _("points per hand {points} (yours minus the opponents'), scored per hand {scored}").format(
            points=f"{st['points_per_hand']:+.2f}", scored=f"{st['scored_per_hand']:.2f}"
        ),
        _("gins {gins} (big gins {big}), knocks {knocks} (undercut {undercut}), undercuts {undercuts}").format(
            gins=st["gins"], big=st["big_gins"], knocks=st["knocks"], undercut=st["undercut"], undercuts=st["undercuts"]
        ),
        streak_line(st),
    ]
    best, worst = st["best_hand"], st["worst_hand"]
    if best is not None and worst is not None:
        lines.append(
            _("best hand {best} ({best_result}, game {best_game} hand {best_hand}), worst {worst} "
                "({worst_result}, game {worst_game} hand {worst_hand})").format(
                best=f"{best['points']:+d}", best_result=result_name(str(best["result"])), best_game=best["game"],
                best_hand=best["hand"], worst=f"{worst['points']:+d}", worst_result=result_name(str(worst["result"])),
                worst_game=worst["game"], worst_hand=worst["hand"],
            )
        )  # fmt: skip
    if st.get("takeback_games"):
        lines.append(
            ngettext(
                "{n} of these games had takebacks (moves taken back)",
                "{n} of these games had takebacks (moves taken back)",
                st["takeback_games"],
            ).format(n=st["takeback_games"])
        )
    bg, wg = st["best_game"], st["worst_game"]
    if bg is not None and wg is not None:
        lines.append(
            _("best game {best} (game {best_game}), worst {worst} (game {worst_game})").format(
                best=f"{bg['margin']:+d}", best_game=bg["game"], worst=f"{wg['margin']:+d}", worst_game=wg["game"]
            )
        )
    return lines


def opponent_name(name: str) -> str:
    """An opponent as :func:`ginrummy.store.stats.opponent_of` names it (``expert``, ``beginner +
    expert``), in the current language."""
    return " + ".join(seat_kind(part) for part in name.split(" + "))


def _heading(name: str, levels: Mapping[str, Any]) -> str:
    return (_("against {name} (level)") if name in levels else _("against {name}")).format(name=opponent_name(name))


def opponent_sections(st: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """Per opponent (and so per playing level) when there was more than one: a heading and its
    :func:`stats_lines`."""
    by_opponent = st.get("by_opponent") or {}
    if len(by_opponent) < 2:
        return []
    levels = st.get("by_level") or {}
    return [(_heading(name, levels), stats_lines(ost)) for name, ost in by_opponent.items()]


def chart_choices(st: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The running-average charts of one variant's figures, for the statistics screens' choice of
    chart: first over all its games (``key`` ""), then, when there was more than one opponent, one
    per opponent (and so per playing level; ``key`` the opponent as
    :func:`ginrummy.store.stats.opponent_of` names it).  Each has its ``label`` in words, its
    ``values`` (points per hand over the games so far, one a game, oldest first), its ``games``
    and the ``line`` that says it in words (:func:`chart_line`)."""
    out = [_chart("", _("all opponents"), st)]
    by_opponent = st.get("by_opponent") or {}
    if len(by_opponent) >= 2:
        levels = st.get("by_level") or {}
        out += [_chart(name, _heading(name, levels), ost) for name, ost in by_opponent.items()]
    return out


def _chart(key: str, label: str, st: Mapping[str, Any]) -> dict[str, Any]:
    values = [float(x) for x in st["running_average"]]
    return {"key": key, "label": label, "values": values, "games": st["games"], "line": chart_line(values)}


def chart_line(values: Sequence[float]) -> str:
    """A running-average chart in words: its latest values (for those who do not see the chart)."""
    return _("running average of points per hand, game by game (chart: oldest to newest): {values}").format(
        values=" ".join(f"{x:+.1f}" for x in values[-8:])
    )

"""``ginrummy stats``: your history per variant: games, win rate, points per hand, gins and
undercuts, streaks, your best and worst hand and game, the running average over time (a small
chart), and for the solitaires the accuracy of your play; then the same per opponent (and so per
playing level).  ``--opponent NAME`` keeps the games against one opponent, ``--no-takebacks``
those played without undo; ``--json`` prints
:meth:`ginrummy.store.Store.stats` as it is.  Games only computers played are in nobody's history.

The database is opened read-only (a read-only data directory works).  A finished game whose row is
damaged is named on stderr and left out; the others are counted, and the exit status is 1."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import StoreError
from ..i18n import _, ngettext
from ..variants import variant_names

BARS = "▁▂▃▄▅▆▇█"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=variant_names(), help=_("only this variant"))
    p.add_argument(
        "--opponent", metavar="NAME", help=_("only the games against this opponent (expert, beginner, joker...)")
    )
    p.add_argument("--no-takebacks", action="store_true", help=_("leave out the games played with takebacks (undo)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def sparkline(values: list[float], width: int = 40) -> str:
    """``▁▃▅█``: the running average over time, the last ``width`` games."""
    values = values[-width:]
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return BARS[3] * len(values)
    return "".join(BARS[round((v - lo) / (hi - lo) * (len(BARS) - 1))] for v in values)


def _streak(st: dict[str, Any]) -> str:
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


def _figures(st: dict[str, Any], indent: str) -> list[str]:
    lines = [
        indent
        + _("games {games}, wins {wins} ({rate}), hands {hands}").format(
            games=st["games"], wins=st["wins"], rate=f"{st['win_rate']:.0%}", hands=st["hands"]
        ),
        indent
        + _("points per hand {points} (yours minus the opponents'), scored per hand {scored}").format(
            points=f"{st['points_per_hand']:+.2f}", scored=f"{st['scored_per_hand']:.2f}"
        ),
        indent
        + _("gins {gins} (big gins {big}), knocks {knocks} (undercut {undercut}), undercuts {undercuts}").format(
            gins=st["gins"], big=st["big_gins"], knocks=st["knocks"], undercut=st["undercut"], undercuts=st["undercuts"]
        ),
        indent + _streak(st),
    ]
    best, worst = st["best_hand"], st["worst_hand"]
    if best is not None and worst is not None:
        lines.append(
            indent
            + _("best hand {best} ({best_result}, game {best_game} hand {best_hand}), worst {worst} "
                "({worst_result}, game {worst_game} hand {worst_hand})").format(
                best=f"{best['points']:+d}", best_result=best["result"], best_game=best["game"],
                best_hand=best["hand"], worst=f"{worst['points']:+d}", worst_result=worst["result"],
                worst_game=worst["game"], worst_hand=worst["hand"],
            )
        )  # fmt: skip
    bg, wg = st["best_game"], st["worst_game"]
    if bg is not None and wg is not None:
        lines.append(
            indent
            + _("best game {best} (game {best_game}), worst {worst} (game {worst_game})").format(
                best=f"{bg['margin']:+d}", best_game=bg["game"], worst=f"{wg['margin']:+d}", worst_game=wg["game"]
            )
        )
    return lines


def format_stats(stats: dict[str, dict[str, Any]]) -> str:
    if not stats:
        return _("No finished games yet.")
    lines = []
    for variant in [v for v in variant_names() if v in stats]:
        st = stats[variant]
        lines.append(f"{variant}")
        lines.extend(_figures(st, "  "))
        ra = st["running_average"]
        if ra:
            lines.append(
                "  "
                + _("running average {chart} from {first} to {last}").format(
                    chart=sparkline(ra), first=f"{ra[0]:+.2f}", last=f"{ra[-1]:+.2f}"
                )
            )
        if st.get("accuracy") is not None:
            n = len(st["accuracy_history"])
            lines.append(
                "  "
                + ngettext(
                    "accuracy {accuracy} over {n} analysed game {chart}",
                    "accuracy {accuracy} over {n} analysed games {chart}",
                    n,
                ).format(accuracy=f"{st['accuracy']:.0%}", n=n, chart=sparkline(st["accuracy_history"]))
            )
        by_opponent = st.get("by_opponent") or {}
        if len(by_opponent) > 1:
            for name, ost in by_opponent.items():
                level = name in (st.get("by_level") or {})
                lines.append("  " + (_("against {name} (level)") if level else _("against {name}")).format(name=name))
                lines.extend(_figures(ost, "    "))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..store import Store

    problems: list[str] = []
    try:  # read-only: statistics never write, and work on a read-only directory
        stats = Store(getattr(args, "data_dir", None), read_only=True).stats(
            args.variant,
            problems,
            opponent=getattr(args, "opponent", None),
            takebacks=not getattr(args, "no_takebacks", False),
        )
    except StoreError as exc:
        print(f"ginrummy stats: {exc}", file=sys.stderr)
        return 2
    for problem in problems:  # a damaged row is named and left out; the rest is counted
        print(f"ginrummy stats: {problem}", file=sys.stderr)
    print(json.dumps(stats, indent=1) if args.json else format_stats(stats))
    return 1 if problems else 0

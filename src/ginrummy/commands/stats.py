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
from ..statwords import opponent_sections, stats_lines
from ..variants import variant_names
from ..words import variant_title

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


def format_stats(stats: dict[str, dict[str, Any]]) -> str:
    if not stats:
        return _("No finished games yet.")
    lines = []
    for variant in [v for v in variant_names() if v in stats]:
        st = stats[variant]
        # the game's title, and its name as --variant takes it
        lines.append(_("{game} ({variant})").format(game=variant_title(variant, short=True), variant=variant))
        lines.extend("  " + line for line in stats_lines(st))
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
        for heading, figures in opponent_sections(st):
            lines.append("  " + heading)
            lines.extend("    " + line for line in figures)
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

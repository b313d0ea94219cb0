"""``ginrummy replay FILE [--json]``: replay a game record and print its summary (RECORD.md).

Without ``--json`` the summary is a table, hand by hand (result, deadwood, points, the count down
to the joker), each hand followed by the engine's explanation of its score; then the totals and
whether the game is over.  ``FILE`` may be ``-`` for standard input.  An invalid record exits with
status 1 and one line on standard error naming the record's field, hand and action, and what was
wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RecordError

EXIT_INVALID = 1


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="the record (JSON), or - to read it from standard input")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..record import load, loads, replay, summary

    try:
        record = loads(sys.stdin.read()) if args.file == "-" else load(args.file)
        state = replay(record)
    except RecordError as exc:
        name = "stdin" if args.file == "-" else args.file
        message = " ".join(str(exc).split())  # always exactly one line
        print(f"ginrummy replay: {name}: {message}", file=sys.stderr)
        return EXIT_INVALID
    out = summary(state)
    if args.json:
        print(json.dumps(out))
    else:
        print(render(out, state))
    return 0


def render(out: dict[str, Any], state: Any) -> str:
    """The summary as a readable table, each hand followed by its explanation."""
    names = [n if len(n) <= 12 else n[:11] + "." for n in state.players]
    w = max(5, *(len(n) for n in names))
    block = len(names) * (w + 1) - 1
    counted = any("counted" in h for h in out["hands"])

    def seats(values: list[Any]) -> str:
        return " ".join(f"{'-' if v is None else v:>{w}}" for v in values)

    def row(hand: str, result: str, dead: str, points: str, count: str = "") -> str:
        line = f"{hand:>4}  {result:<10}  {dead:>{block}}  {points:>{block}}"
        return (line + f"  {count:>7}" if counted else line).rstrip()

    n = len(out["hands"])
    status = "complete" if out["complete"] else "stopped inside a hand (a saved game)"
    lines = [
        f"{out['variant']}: {' v '.join(state.players)}; {n} hand{'' if n == 1 else 's'}, {status}",
        "",
        row("", "", f"{'deadwood':^{block}}", f"{'points':^{block}}"),
        row("hand", "result", seats(names), seats(names), "counted"),
    ]
    for i, h in enumerate(out["hands"]):
        lines.append(row(str(i + 1), h["result"], seats(h["deadwood"]), seats(h["points"]), str(h.get("counted", ""))))
        if i < len(state.results):
            lines += [f"{'':6}{text}" for text in state.results[i].explanation]
    lines += ["", row("", "totals", "", seats(out["totals"]))]
    if "final" in out:
        lines.append(row("", "+ bonuses", "", seats(out["final"])))
    if "hollywood" in out:
        sheet = out["hollywood"]
        for g, (game, closed) in enumerate(zip(sheet["games"], sheet["closed"], strict=True), 1):
            lines.append(row("", f"game {g}", "closed" if closed else "open", seats(game)))
    if out["game_over"]:
        winner = out["winner"]
        lines.append("game over: " + ("a tie" if winner is None else f"{state.players[winner]} wins"))
    else:
        lines.append("game not over")
    return "\n".join(lines)

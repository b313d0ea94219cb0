"""``ginrummy replay FILE [--json | --view]``: replay a game record and print its summary (RECORD.md),
or with ``--view`` step through it in the terminal's replay viewer.

Without ``--json`` the summary is a table under the variant's short title in the current language
(``Classic gin``, ``클래식 진``; the record and ``--json`` keep its name, ``classic``), hand by hand
(result, deadwood, points, the count down to the joker), each hand followed by the engine's
explanation of its score; then the totals and whether the game is over.  ``FILE`` may be ``-``
for standard input.  It may hold one record or, as ``ginrummy export`` writes them, a JSON list of
records or one record a line; each is replayed (``--json`` then prints a list).  An invalid record
exits with status 1 and one line on standard error naming the record's field, hand and action, and
what was wrong.

``--view`` opens the terminal app's replay viewer on the record (:mod:`ginrummy.tui.records`):
every hand face up, → ← a move, PgDn PgUp a hand, Home End, Escape to leave; a file of several
records lists them first.  The records are checked whole before the viewer opens: a bad one gets
the same one line and exit status, and nothing is shown.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RecordError
from ..i18n import _, ngettext
from ..variants import find_variant
from ..words import display_name, result_lines, result_name, variant_title
from . import error, printable

EXIT_INVALID = 1


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file",
        metavar="FILE",
        help=_("the record (JSON; a list of records or JSON lines as ginrummy export writes), or - for standard input"),
    )
    shown = p.add_mutually_exclusive_group()
    shown.add_argument(
        "--json", action="store_true", help=_("print the summary as one JSON object (a list for several)")
    )
    shown.add_argument(
        "--view",
        action="store_true",
        help=_("step through the record in the terminal's replay viewer, forwards and back, every hand face up"),
    )
    look = p.add_argument_group(_("replay viewer display (--view)"))
    look.add_argument("--four-colour", "--four-color", action="store_true", help=_("clubs green, diamonds blue"))
    look.add_argument("--high-contrast", action="store_true", help=_("high-contrast theme"))


def run(args: argparse.Namespace) -> int:
    from ..record import load_records, replay, summary

    name = "stdin" if args.file == "-" else args.file
    if args.view:
        return _view(args, name)
    try:
        records = load_records(_stdin() if args.file == "-" else args.file)
        states = []
        for i, record in enumerate(records):
            try:
                states.append(replay(record))
            except RecordError as exc:
                if len(records) == 1:
                    raise
                raise RecordError(_("records[{i}] (record {n}): {error}").format(i=i, n=i + 1, error=exc)) from None
    except RecordError as exc:
        error("replay", f"{name}: {exc}")
        return EXIT_INVALID
    outs = [summary(state) for state in states]
    if args.json:
        print(json.dumps(outs[0] if len(outs) == 1 else outs))
        return 0
    blocks = [render(out, state) for out, state in zip(outs, states, strict=True)]
    if len(blocks) > 1:
        head = _("record {i} of {n}")
        blocks = [head.format(i=i, n=len(blocks)) + f"\n{block}" for i, block in enumerate(blocks, 1)]
    print(printable("\n\n".join(blocks)))
    return 0


def _view(args: argparse.Namespace, name: str) -> int:
    """The terminal's replay viewer on the file's records, once every one of them is checked."""
    from ..record import load_records
    from ..tui.records import RecordsApp

    if args.file == "-":
        error("replay", _("--view reads a file, not standard input (the viewer needs the terminal)"))
        return EXIT_INVALID
    try:
        records = load_records(args.file)
        look = {"four_colour": args.four_colour, "high_contrast": args.high_contrast}
        app = RecordsApp(records, source=printable(name), **look)
    except RecordError as exc:
        error("replay", f"{name}: {exc}")
        return EXIT_INVALID
    app.run()
    return int(app.return_code or 0)


def render(out: dict[str, Any], state: Any) -> str:
    """The summary as a readable table, each hand followed by its explanation."""
    players = [printable(display_name(n)) for n in state.players]  # "Expert 2" in the current language
    names = [n if len(n) <= 12 else n[:11] + "." for n in players]
    w = max(5, *(len(n) for n in names))
    block = len(names) * (w + 1) - 1
    counted = any("counted" in h for h in out["hands"])

    def seats(values: list[Any]) -> str:
        return " ".join(f"{'-' if v is None else v:>{w}}" for v in values)

    def row(hand: str, result: str, dead: str, points: str, count: str = "") -> str:
        line = f"{hand:>4}  {result:<10}  {dead:>{block}}  {points:>{block}}"
        return (line + f"  {count:>7}" if counted else line).rstrip()

    n = len(out["hands"])
    if out["complete"]:
        title = ngettext("{variant}: {players}; {n} hand, complete", "{variant}: {players}; {n} hands, complete", n)
    else:
        title = ngettext(
            "{variant}: {players}; {n} hand, stopped inside a hand (a saved game)",
            "{variant}: {players}; {n} hands, stopped inside a hand (a saved game)",
            n,
        )
    dead_head, points_head = _("deadwood"), _("points")
    lines = [
        title.format(variant=variant_title(out["variant"], short=True), players=_(" v ").join(players), n=n),
        "",
        row("", "", f"{dead_head:^{block}}", f"{points_head:^{block}}"),
        row(_("hand"), _("result"), seats(names), seats(names), _("counted")),
    ]
    for i, h in enumerate(out["hands"]):
        result = result_name(str(h["result"]))  # how the hand ended, in the current language
        lines.append(row(str(i + 1), result, seats(h["deadwood"]), seats(h["points"]), str(h.get("counted", ""))))
        if i < len(state.results):
            explained = result_lines(state.results[i].explanation, state.players, ["human"])  # in the language
            lines += [f"{'':6}{text}" for text in explained]
    lines += ["", row("", _("totals"), "", seats(out["totals"]))]
    if "final" in out:
        # The game's result: in Hollywood the three games settled, elsewhere the totals with the
        # end-of-game bonuses (game, boxes, shutout) -- a total, not the bonuses themselves.
        lines.append(row("", _("final"), "", seats(out["final"])))
    three_games = find_variant(out["variant"]).three_games
    if three_games:
        sheet = out["hollywood"]
        for g, (game, closed) in enumerate(zip(sheet["games"], sheet["closed"], strict=True), 1):
            lines.append(
                row("", _("game {number}").format(number=g), _("closed") if closed else _("open"), seats(game))
            )
    if "final" in out:
        lines.append(
            _("final: the three games settled, each with its game and box bonuses (rule 1c.3)")
            if three_games
            else _("final: the totals with the end-of-game bonuses: game, boxes and shutout (rules 1.10, 2.7)")
        )
    if out["game_over"]:
        winner = out["winner"]
        lines.append(
            _("game over: a tie") if winner is None else _("game over: {name} wins").format(name=players[winner])
        )
    else:
        lines.append(_("game not over"))
    return "\n".join(lines)


def _stdin() -> Any:
    """Standard input as bytes (its buffer), so that invalid UTF-8 is reported, not raised."""
    return getattr(sys.stdin, "buffer", sys.stdin)

"""``ginrummy verify RECORD``: check every hand's deal against its fairness commitment, and that
the play replays on it.

For each hand: the seed hashes to the commitment shown before the deal (``ginrummy.fair``), the
deck the seed shuffles to is the deck the record keeps beside it (compared card by card, in any
spelling ``replay`` reads), and the hand's actions replay on that deal.  ``RECORD`` may be ``-``
for standard input, and may hold several records as ``ginrummy export`` writes them (a JSON list,
or one record a line).  Exit status 0 if every hand of every record verifies, 1 if one does not
or the record is not valid (one line on standard error naming the field), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RecordError
from ..i18n import N_, _, ngettext
from . import error, printable

WHAT = N_("each seed matches its commitment, deals the deck played, and the play replays")  # in English in --json


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record",
        metavar="RECORD",
        help=_(
            "a game record (JSON; a list of records or JSON lines as ginrummy export writes), or - for standard input"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print the verdicts as JSON (a list for several records)"))


def run(args: argparse.Namespace) -> int:
    from ..fair import HandCheck, verify_record
    from ..record import load_records

    name = "stdin" if args.record == "-" else args.record
    verdicts: list[list[HandCheck]] = []
    try:
        records = load_records(_stdin() if args.record == "-" else args.record)
        for i, record in enumerate(records):
            try:
                verdicts.append(verify_record(record))
            except RecordError as exc:
                if len(records) == 1:
                    raise
                raise RecordError(_("records[{i}] (record {n}): {error}").format(i=i, n=i + 1, error=exc)) from None
    except RecordError as exc:
        error("verify", f"{name}: {exc}")
        return 1
    ok = all(c.ok for checks in verdicts for c in checks)
    if args.json:
        objs = [_json(checks) for checks in verdicts]
        print(json.dumps(objs[0] if len(objs) == 1 else objs))
        return 0 if ok else 1
    lines: list[str] = []
    for r, checks in enumerate(verdicts, 1):
        several = len(verdicts) > 1
        for c in checks:
            if c.ok:
                msg = _("record {record}, hand {hand}: ok - {message}") if several else _("hand {hand}: ok - {message}")
            else:
                msg = (
                    _("record {record}, hand {hand}: FAILED - {message}")
                    if several
                    else _("hand {hand}: FAILED - {message}")
                )
            lines.append(msg.format(record=r, hand=c.hand, message=c.words or c.message))
        bad = [c.hand for c in checks if not c.ok]
        n = len(checks)
        if not checks:
            text = _("no hands to verify")
        elif not bad:
            text = ngettext("all {n} hand verify: {what}", "all {n} hands verify: {what}", n).format(n=n, what=_(WHAT))
        else:
            which = ngettext("hand {hands}", "hands {hands}", len(bad)).format(hands=", ".join(str(h) for h in bad))
            text = ngettext(
                "{bad} of {n} hand do not verify: {which}", "{bad} of {n} hands do not verify: {which}", n
            ).format(bad=len(bad), n=n, which=which)
        lines.append(_("record {record}: {text}").format(record=r, text=text) if several else text)
    print(printable("\n".join(lines)))
    return 0 if ok else 1


def _json(checks: list[Any]) -> dict[str, Any]:
    return {
        "ok": all(c.ok for c in checks),
        "checked": WHAT,
        "hands": [
            {"hand": c.hand, "ok": c.ok, "fair": c.fair, "replays": c.replays, "message": c.message} for c in checks
        ],
    }


def _stdin() -> Any:
    """Standard input as bytes (its buffer), so that invalid UTF-8 is reported, not raised."""
    return getattr(sys.stdin, "buffer", sys.stdin)

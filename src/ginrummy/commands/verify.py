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
from . import error, printable

WHAT = "each seed matches its commitment, deals the deck played, and the play replays"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record",
        metavar="RECORD",
        help="a game record (JSON; a list of records or JSON lines as ginrummy export writes), or - for standard input",
    )
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON (a list for several records)")


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
                raise RecordError(f"records[{i}] (record {i + 1}): {exc}") from None
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
        prefix = f"record {r}, " if len(verdicts) > 1 else ""
        for c in checks:
            lines.append(f"{prefix}hand {c.hand}: {'ok' if c.ok else 'FAILED'} - {c.message}")
        bad = [c.hand for c in checks if not c.ok]
        n = len(checks)
        head = f"record {r}: " if len(verdicts) > 1 else ""
        if not checks:
            lines.append(f"{head}no hands to verify")
        elif not bad:
            lines.append(f"{head}all {n} hand{'' if n == 1 else 's'} verify: {WHAT}")
        else:
            which = f"hand{'' if len(bad) == 1 else 's'} " + ", ".join(str(h) for h in bad)
            lines.append(f"{head}{len(bad)} of {n} hand{'' if n == 1 else 's'} do not verify: {which}")
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

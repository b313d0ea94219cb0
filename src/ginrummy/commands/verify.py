"""``ginrummy verify RECORD``: check every hand's deal against its fairness commitment."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import RecordError
from ..fair import verify_record
from ..record import load, loads


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", metavar="RECORD", help="a game record (JSON), or - for standard input")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        record = loads(sys.stdin.read()) if args.record == "-" else load(args.record)
        checks = verify_record(record)
    except RecordError as exc:
        print(f"ginrummy verify: {exc}", file=sys.stderr)
        return 1
    bad = [c for c in checks if not c.ok]
    if args.json:
        print(json.dumps({"ok": not bad, "hands": [c.__dict__ for c in checks]}))
    else:
        for c in checks:
            label = f"hand {c.hand}" if c.hand else "record"
            print(f"{label}: {'ok' if c.ok else 'MISMATCH'} - {c.message}")
        print(
            "all hands verify"
            if not bad
            else f"{len(bad)} check(s) failed: hands {', '.join(str(c.hand) for c in bad)}"
        )
    return 0 if not bad else 1

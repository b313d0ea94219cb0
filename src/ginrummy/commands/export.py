"""``ginrummy export``: write your finished games as game records (RECORD.md).

Without ``-o`` a JSON list of records is printed.  ``-o FILE`` writes that list to a file (one
record a line if the name ends in ``.jsonl``); ``-o DIR`` (an existing directory, or a path ending
in ``/``) writes each game to its own file ``<game id>.json``, which ``ginrummy replay`` reads.

The database is opened read-only (a read-only data directory works).  A finished game whose row is
damaged is named on stderr and left out; the others are written, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import StoreError, system_reason
from ..i18n import _, ngettext
from ..record import save
from ..variants import variant_names


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=variant_names(), help=_("only this variant"))
    p.add_argument("-o", "--output", metavar="FILE|DIR", help=_("write to a file, or one file a game into a directory"))


def run(args: argparse.Namespace) -> int:
    from ..store import Store

    problems: list[str] = []
    try:  # read-only: exporting never writes the database, and works on a read-only directory
        games = Store(getattr(args, "data_dir", None), read_only=True).history(args.variant, problems)
    except StoreError as exc:
        print(f"ginrummy export: {exc}", file=sys.stderr)
        return 2
    for problem in problems:  # a damaged row is named and left out; the others are exported
        print(f"ginrummy export: {problem}", file=sys.stderr)
    status = 1 if problems else 0
    if args.output is None:
        sys.stdout.write(json.dumps([g.record for g in games], ensure_ascii=False, indent=1) + "\n")
        return status
    out = Path(args.output)
    try:
        if out.is_dir() or args.output.endswith(("/", "\\")):
            out.mkdir(parents=True, exist_ok=True)
            for g in games:
                save(g.record, out / f"{g.id}.json")
            n = len(games)
            print(
                ngettext("wrote {n} record to {path}", "wrote {n} records to {path}", n).format(n=n, path=f"{out}/"),
                file=sys.stderr,
            )
        else:
            records = [g.record for g in games]
            if out.suffix == ".jsonl":
                text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
            else:
                text = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
            tmp = out.with_name(f".{out.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out)
            n = len(games)
            print(
                ngettext("wrote {n} record to {path}", "wrote {n} records to {path}", n).format(n=n, path=out),
                file=sys.stderr,
            )
    except OSError as exc:
        print(
            "ginrummy export: " + _("cannot write {path}: {error}").format(path=out, error=system_reason(exc)),
            file=sys.stderr,
        )
        return 2
    return status

"""``ginrummy export``: write your finished games as game records (RECORD.md).

Without ``-o`` a JSON list of records is printed.  ``-o FILE`` writes that list to a file (one
record a line if the name ends in ``.jsonl``); ``-o DIR`` (an existing directory, or a path ending
in ``/``) writes each game to its own file ``<game id>.json``, which ``ginrummy replay`` reads.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import StoreError
from ..options import VARIANTS
from ..record import save


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", choices=VARIANTS, help="only this variant")
    p.add_argument("-o", "--output", metavar="FILE|DIR", help="write to a file, or one file a game into a directory")


def run(args: argparse.Namespace) -> int:
    from ..store import Store

    try:
        games = Store(getattr(args, "data_dir", None)).history(args.variant)
    except StoreError as exc:
        print(f"ginrummy export: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(json.dumps([g.record for g in games], ensure_ascii=False, indent=1) + "\n")
        return 0
    out = Path(args.output)
    try:
        if out.is_dir() or args.output.endswith(("/", "\\")):
            out.mkdir(parents=True, exist_ok=True)
            for g in games:
                save(g.record, out / f"{g.id}.json")
            print(f"wrote {len(games)} record{'s' if len(games) != 1 else ''} to {out}/", file=sys.stderr)
        else:
            records = [g.record for g in games]
            if out.suffix == ".jsonl":
                text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
            else:
                text = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
            tmp = out.with_name(f".{out.name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(out)
            print(f"wrote {len(games)} record{'s' if len(games) != 1 else ''} to {out}", file=sys.stderr)
    except OSError as exc:
        print(f"ginrummy export: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0

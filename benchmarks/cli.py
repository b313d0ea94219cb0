#!/usr/bin/env python
"""The command line's batch path against a Python loop over OpenSpiel's utils, as whole processes.

    python benchmarks/cli.py [--hands 100000] [--rounds 7] [--seed 1]

Writes ``--hands`` random 10-card hands (one a line, cards like ``As Td 7h``) to a temporary file
and times, in alternating rounds (``benchmarks/rounds.py``), two whole processes reading it on
standard input and writing one JSON object a hand to /dev/null:

* ``ginrummy deadwood --json -`` (run as ``python -m ginrummy.cli``; fields ``cards``,
  ``deadwood``, ``melds``, ``unmatched``);
* a Python loop over OpenSpiel's ``GinRummyUtils``: ``card_strings_to_card_ints``,
  ``min_deadwood``, ``best_meld_group`` and the cards left out of it, written with ``json.dumps``
  (fields ``deadwood``, ``melds``, ``unmatched``: one fewer than ours).

Both run with this interpreter; the time is the child processes' CPU time (start-up included).
Checks: our output is the reference path's (``analyse`` + ``json.dumps``) on every hand, and our
deadwood is OpenSpiel's on every hand.  Needs ``pip install open_spiel``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate, fmt_ratio

from ginrummy.cards import CARDS

TARGET = 1.5

OPENSPIEL_LOOP = """\
import json, sys
import pyspiel
u = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
write = sys.stdout.write
for line in sys.stdin:
    toks = line.split()
    if not toks:
        continue
    ints = u.card_strings_to_card_ints(toks)
    melds = u.best_meld_group(ints)
    inm = {c for m in melds for c in m}
    write(json.dumps({"deadwood": u.min_deadwood(ints), "melds": [u.card_ints_to_card_strings(m) for m in melds],
                      "unmatched": u.card_ints_to_card_strings([c for c in ints if c not in inm])}) + "\\n")
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed (pip install open_spiel): nothing to compare with")
        return 1
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        hands = Path(tmp, "hands.txt")
        deals = (rng.sample(range(52), 10) for _ in range(args.hands))
        hands.write_text("".join(" ".join(str(CARDS[c]) for c in d) + "\n" for d in deals))
        anchor = Path(tmp, "openspiel_loop.py")
        anchor.write_text(OPENSPIEL_LOOP)
        ours_cmd = [sys.executable, "-m", "ginrummy.cli", "deadwood", "--json", "-"]
        theirs_cmd = [sys.executable, str(anchor)]

        def runner(cmd: list[str]) -> Callable[[], None]:
            def run() -> None:
                with hands.open("rb") as f:
                    subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, env=env, check=True)

            return run

        # Checks first (one run each, output kept).
        with hands.open("rb") as f:
            ours_out = subprocess.run(ours_cmd, stdin=f, capture_output=True, env=env, check=True).stdout
        with hands.open("rb") as f:
            theirs_out = subprocess.run(theirs_cmd, stdin=f, capture_output=True, env=env, check=True).stdout
        from ginrummy.commands.deadwood import analyse

        lines = hands.read_text().splitlines()
        ours_lines = ours_out.decode().splitlines()
        same = sum(json.dumps(analyse(t.split())) == o for t, o in zip(lines, ours_lines, strict=True))
        dw_same = sum(
            json.loads(o)["deadwood"] == json.loads(t)["deadwood"]
            for o, t in zip(ours_lines, theirs_out.decode().splitlines(), strict=True)
        )
        cases = [
            Case("ginrummy deadwood --json -", runner(ours_cmd), args.hands),
            Case("Python loop over OpenSpiel utils", runner(theirs_cmd), args.hands),
        ]
        show = (lambda m: print("  " + m, flush=True)) if args.verbose else None
        rr = alternate(cases, rounds=args.rounds, clock="cpu", warmup=False, progress=show)
    print(f"ginrummy deadwood batch path, {datetime.date.today()}, {args.hands} random 10-card hands, whole processes")
    print(f"  ginrummy: {' '.join(ours_cmd[1:])}; OpenSpiel: the loop in this script's OPENSPIEL_LOOP")
    print(rr.describe())
    for c in cases:
        print(f"  {c.name:<36} {fmt_rate(c)} hands a second of CPU (start-up included)")
    r = rr.ratio(cases[0].name, cases[1].name)
    print(f"ratio: {fmt_ratio(r)}; target >= {TARGET}x: {'met' if r[0] >= TARGET else 'NOT met'}")
    print(
        f"checks: our output is the reference path's on {same}/{len(lines)} hands; "
        f"our deadwood is OpenSpiel's on {dw_same}"
    )
    return 0 if same == dw_same == len(lines) else 1


if __name__ == "__main__":
    raise SystemExit(main())

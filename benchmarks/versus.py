"""Two versions of ginrummy timed against each other in alternating rounds: the check of a speed
change (this checkout against an older one, say main before the change).

    git archive main src | tar -x -C /tmp/before        # the version to compare with
    python benchmarks/versus.py --old /tmp/before/src --work expert-greedy --units 40 --rounds 9
    python benchmarks/versus.py --old /tmp/before/src --work aec --units 30

Each version runs in a child process of its own (``PYTHONPATH`` set to its ``src``), started once
and warmed up; in each round both are asked for the same work, one after the other (the order
reversed every other round, ``benchmarks/rounds.py``), and each child times its own work in CPU
seconds, so start-up is not counted.  Both children play the same deals in the same round.

Work (``--units`` of it a run):

* ``expert-greedy``: whole hands of ``expert`` against ``greedy`` (the expert in seat 0 and 1 in
  turn), agents' decisions through ``Agent.act`` as the simulator calls them;
* ``expert-greedy-decide``: the same through ``Agent.decide`` (with the reasons and values the
  advisor and the apps' hints get);
* ``aec``: hands of ``make_aec(--variant)`` with random legal actions from the action mask (as
  ``benchmarks/envs.py``), counted in steps.

The rates are the median of the rounds with their range, and the ratio new/old per round.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------- the child
def _expert_greedy(variant: str, decide: bool = False) -> Callable[[int, int], int]:
    from ginrummy.agents import make_agent
    from ginrummy.engine import State

    agents = [make_agent("expert", variant, seed=1), make_agent("greedy", variant, seed=2)]

    def run(n: int, seed: int) -> int:
        for i in range(n):
            try:
                st = State.new(variant, undo=False)
            except TypeError:  # a version before the undo stack could be left out
                st = State.new(variant)
            seats = agents if i % 2 == 0 else agents[::-1]
            st.deal(seed=seed + i)
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                agent = seats[seat]
                obs, legal = st.observation(seat), st.legal_actions()
                st.apply(agent.decide(obs, legal).action if decide else agent.act(obs, legal))
        return n

    return run


def _aec(variant: str) -> Callable[[int, int], int]:
    import numpy as np

    from ginrummy.envs import make_aec

    env = make_aec(variant)

    def run(n: int, seed: int) -> int:
        rng = np.random.default_rng(seed)
        steps = 0
        for _ in range(n):
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


WORK: dict[str, Callable[[str], Callable[[int, int], int]]] = {
    "expert-greedy": _expert_greedy,
    "expert-greedy-decide": lambda variant: _expert_greedy(variant, decide=True),
    "aec": _aec,
}


def child(work: str, variant: str) -> None:
    run = WORK[work](variant)
    for line in sys.stdin:
        n, seed = (int(x) for x in line.split())
        t0 = time.process_time()
        units = run(n, seed)
        print(f"{units} {time.process_time() - t0!r}", flush=True)


# ---------------------------------------------------------------------------- the parent
class Version:
    def __init__(self, name: str, src: Path, work: str, variant: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(src))
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--child", "--work", work, "--variant", variant],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def ask(self, n: int, seed: int) -> tuple[float, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{n} {seed}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name}: the child process ended")
        units, secs = line.split()
        return float(units), float(secs)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--old", type=Path, help="the src folder of the version to compare with")
    ap.add_argument("--new", type=Path, default=HERE.parent / "src", help="the src folder of the new version")
    ap.add_argument("--work", choices=sorted(WORK), default="expert-greedy")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--units", type=int, default=40, help="hands a run (default 40)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--runs", type=int, default=1, help="timed runs a round for each version")
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.work, args.variant)
        return 0
    if args.old is None:
        ap.error("--old is required")
    sys.path.insert(0, str(HERE))
    from rounds import Case, alternate, fmt_rate, fmt_ratio

    versions = [Version("new", args.new, args.work, args.variant), Version("old", args.old, args.work, args.variant)]
    seeds = {v.name: args.seed for v in versions}

    def runner(v: Version) -> Callable[[], Any]:
        def run() -> tuple[float, float]:
            got = v.ask(args.units, seeds[v.name])
            seeds[v.name] += args.units  # the next run plays the next deals, the same in both
            return got

        return run

    try:
        for v in versions:
            v.ask(max(1, args.units // 4), 1)  # warm-up: imports, tables, caches
        cases = [Case(v.name, runner(v), None, self_timed=True) for v in versions]
        show = lambda m: print("  " + m, flush=True)  # noqa: E731
        rr = alternate(cases, rounds=args.rounds, runs=args.runs, warmup=False, progress=show)
    finally:
        for v in versions:
            v.close()
    unit = "steps" if args.work == "aec" else "hands"
    print(f"{args.work} ({args.variant}), {args.units} {unit} a run; {rr.describe()}")
    for c in cases:
        print(f"  {c.name:4} {fmt_rate(c)} {unit}")
    print(f"  new / old: {fmt_ratio(rr.ratio('new', 'old'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Are the search's verdicts right?  Both choices of every disputed decision, played out from the
true position by the expert itself.

    python benchmarks/strength_search.py --deals 300 --seed 7 --rollouts 16
    python benchmarks/strength_search.py --deals 300 --candidate expert:search=24:search_z=1 --rules default

The expert without search (``--baseline``, default ``expert:search=0``) plays both seats of each
deal in ginrummy's engine (EAAI scoring by default: no box or game bonus; ``--rules default`` for
the default rules).  At every decision the candidate (``--candidate``, default ``expert``: today's
expert, which searches) is asked too; where it would choose otherwise, the two choices are each
played out from the true position to the end of the hand by the baseline for both seats,
``--rollouts`` times (the first with the true stock, the others with the stock cards reshuffled:
neither seat knows their order), and the difference of the deciding seat's net points (candidate's
choice minus the baseline's) is one sample.  The game then goes on with the baseline's choice.  This
measures the search's change of policy exactly where it acts, against the expert's own
continuation, far more cheaply than whole games: the figure is the gain a disputed decision and the
gain a hand (the sum over disputed decisions divided by the hands played), with 95% intervals
over disputed decisions.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.agents.base import Agent
from ginrummy.engine import State
from ginrummy.sim import parse_agent

EAAI = {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}
Z95 = 1.959963984540054


def _play_out(s: State, agents: list[Agent], seat: int) -> int:
    """Play the hand in ``s`` to its end; the net points of ``seat``."""
    while not s.is_hand_over:
        who = s.current_player
        assert who is not None
        s.apply(agents[who].act(s.observation(who), s.legal_actions()))
    res = s.hand_result
    assert res is not None
    return int(res.points[seat]) - int(res.points[1 - seat])


def run_chunk(args: tuple[str, str, int, int, int, int, str]) -> dict[str, Any]:
    base_spec, cand_spec, seed, start, count, rollouts, rules = args
    options = EAAI if rules == "eaai" else {}
    diffs: list[float] = []
    kinds: dict[str, int] = {}
    decisions = 0
    cand_cpu = 0.0
    base_cpu = 0.0
    for d in range(start, start + count):
        base = [parse_agent(base_spec).make("classic", 1000 * seed + 2 * d + i) for i in range(2)]
        cand = [parse_agent(cand_spec).make("classic", 1000 * seed + 2 * d + i) for i in range(2)]
        s = State.new("classic", options=options, undo=False)
        s.deal(seed=seed * 100_003 + d)
        rng = random.Random(f"{seed}|{d}")
        while not s.is_hand_over:
            who = s.current_player
            assert who is not None
            obs, legal = s.observation(who), s.legal_actions()
            t0 = time.process_time()
            a = base[who].act(obs, legal)
            t1 = time.process_time()
            b = cand[who].act(obs, legal)
            t2 = time.process_time()
            base_cpu += t1 - t0
            cand_cpu += t2 - t1
            decisions += 1
            if a != b:
                kinds[f"{a.kind}/{b.kind}"] = kinds.get(f"{a.kind}/{b.kind}", 0) + 1
                total = 0.0
                for r in range(rollouts):
                    order = None
                    for choice, sign in ((b, 1), (a, -1)):
                        c = s.clone()
                        if r:
                            if order is None:
                                order = list(c.stock)
                                rng.shuffle(order)
                            c.stock = list(order)
                        c.apply(choice)
                        total += sign * _play_out(c, base, who)
                diffs.append(total / rollouts)
            s.apply(a)
    return {
        "diffs": diffs,
        "kinds": kinds,
        "decisions": decisions,
        "hands": count,
        "cand_cpu": cand_cpu,
        "base_cpu": base_cpu,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidate", default="expert")
    ap.add_argument("--baseline", default="expert:search=0")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--rollouts", type=int, default=4)
    ap.add_argument("--rules", choices=("eaai", "default"), default="eaai")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    chunk = max(1, min(25, math.ceil(args.deals / max(1, args.workers))))
    jobs = [
        (args.baseline, args.candidate, args.seed, s, min(chunk, args.deals - s), args.rollouts, args.rules)
        for s in range(0, args.deals, chunk)
    ]
    t0 = time.perf_counter()
    diffs: list[float] = []
    kinds: dict[str, int] = {}
    decisions = hands = 0
    cand_cpu = base_cpu = 0.0
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        for got in pool.map(run_chunk, jobs):
            diffs += got["diffs"]
            decisions += got["decisions"]
            hands += got["hands"]
            cand_cpu += got["cand_cpu"]
            base_cpu += got["base_cpu"]
            for key, n in got["kinds"].items():
                kinds[key] = kinds.get(key, 0) + n
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    h = Z95 * sd / math.sqrt(n) if n else 0.0
    head = f"{args.candidate} against {args.baseline}, {args.rules} rules, seed {args.seed}"
    print(f"{head}: {hands} hands, {decisions:,} decisions")
    print(f"  disputed decisions: {n} ({kinds})")
    print(f"  gain a disputed decision: {mean:+.3f} points (95% CI {mean - h:+.3f}..{mean + h:+.3f})")
    lo, hi = (mean - h) * n / hands, (mean + h) * n / hands
    print(f"  gain a hand: {mean * n / hands:+.3f} points (95% CI {lo:+.3f}..{hi:+.3f})")
    print(f"  CPU ms a decision: candidate {1000 * cand_cpu / decisions:.2f}, expert {1000 * base_cpu / decisions:.2f}")
    print(f"  {time.perf_counter() - t0:.0f} s; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)


if __name__ == "__main__":
    main()

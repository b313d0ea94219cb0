"""A/B test of the ``expert`` agent: a candidate set of :class:`~ginrummy.agents.expert.Params`
against a frozen baseline, on mirrored deals.

    python benchmarks/expert_ab.py --variant classic --deals 2000 --workers 2 --a knock_bias=2
    python benchmarks/expert_ab.py --variant oklahoma --deals 1000 --a wall_guard=true

Every deal is played twice with the seats swapped (``ginrummy.sim``), so the luck of the deal
cancels; the figure is the candidate's points minus the baseline's per hand, with a 95% interval
clustered by deal pair.  ``--a`` and ``--b`` are ``key=value`` lists of ``Params`` fields; both
start from :data:`BASELINE`, the expert as it was before the A/B series of 2026-12-02 (changes
that were accepted later are pinned back here, so the baseline stays the same player).  The
candidate's CPU time per decision is measured afterwards in this process on a few deals.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import Any

from ginrummy.agents.base import register
from ginrummy.agents.expert import DEFAULT, TABLE_VARIANTS, ExpertAgent, Params
from ginrummy.engine import State
from ginrummy.sim import SimJob, _value, deal_seed, simulate

# The expert before the A/B series: fields whose default changed since are pinned back here.
BASELINE_FIELDS: dict[str, Any] = {"u_took": 0.0}
BASELINE = dataclasses.replace(DEFAULT, **BASELINE_FIELDS)


@register("expert_ab", TABLE_VARIANTS)
class ABExpert(ExpertAgent):
    """The expert with :data:`BASELINE` changed by keyword arguments (``Params`` fields)."""

    name = "expert_ab"

    def __init__(self, variant: str, seed: int | None = None, **fields: Any) -> None:
        super().__init__(variant, seed, dataclasses.replace(BASELINE, **fields))


def parse_fields(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, val = part.partition("=")
        if key not in {f.name for f in dataclasses.fields(Params)}:
            raise SystemExit(f"not a Params field: {key}")
        out[key] = _value(val)
    return out


def spec(fields: dict[str, Any]) -> str:
    return ":".join(["expert_ab", *(f"{k}={v}" for k, v in fields.items())])


def time_decisions(variant: str, a: ExpertAgent, b: ExpertAgent, deals: int, seed: int) -> tuple[float, float]:
    """(mean, max) CPU seconds per decision of ``a`` over ``deals`` mirrored deals against ``b``."""
    times: list[float] = []
    for i in range(deals):
        for swap in (False, True):
            st = State.new(variant)
            st.deal(seed=deal_seed(seed + 1, i))
            n = st.num_seats
            seats = [a if (s == 0) != swap else b for s in range(n)]
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                obs, legal = st.observation(seat), st.legal_actions()
                ag = seats[seat]
                t0 = time.process_time()
                act = ag.act(obs, legal)
                if ag is a and len(legal) > 1:
                    times.append(time.process_time() - t0)
                st.apply(act)
    return sum(times) / max(1, len(times)), max(times, default=0.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic", choices=TABLE_VARIANTS)
    ap.add_argument("--deals", type=int, default=2000, help="mirrored deals (hands = 2 x deals; three: 3 x)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--a", default="", help="candidate: Params fields as key=value,...")
    ap.add_argument("--b", default="", help="reference: Params fields as key=value,... (default: the baseline)")
    ap.add_argument("--timing-deals", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    fa, fb = parse_fields(args.a), parse_fields(args.b)
    if args.variant == "three":
        agents: tuple[str, ...] = (spec(fa), spec(fb), spec(fb))
    else:
        agents = (spec(fa), spec(fb))
    job = SimJob(args.variant, agents, args.deals, seed=args.seed)
    res = simulate(job, workers=args.workers)
    row = res.rows[0]
    hands = row.hands
    # Two seats: A's points minus B's in the same hand (three: minus the mean of the other two).
    net, lo, hi = row.net if row.net is not None else (float("nan"),) * 3
    mean_t, max_t = time_decisions(
        args.variant, ABExpert(args.variant, 1, **fa), ABExpert(args.variant, 2, **fb), args.timing_deals, args.seed
    )
    out = {
        "variant": args.variant,
        "a": fa,
        "b": fb,
        "deals": args.deals,
        "hands": hands,
        "seed": args.seed,
        "a_minus_b_per_hand": net,
        "ci95": [lo, hi],
        "a_points_per_hand": row.points[0],
        "a_win_rate": row.win[0],
        "a_ms_per_decision": 1000 * mean_t,
        "a_ms_max": 1000 * max_t,
        "seconds": round(res.seconds, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{args.variant} A={fa or 'baseline'} B={fb or 'baseline'}: "
            f"{hands} hands ({args.deals} deals, seed {args.seed}); "
            f"A - B = {net:+.3f} points/hand (95% CI {lo:+.3f}..{hi:+.3f}); "
            f"A {1000 * mean_t:.2f} ms/decision (max {1000 * max_t:.1f}); {res.seconds:.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

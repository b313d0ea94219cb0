#!/usr/bin/env python
"""Paired A/B of two solitaire planners (or any solitaire agents) on the same deals.

    python benchmarks/planner.py --config solitaire-none --deals 3000 --seed 31 \\
        --a planner:depth=3 --b planner:depth=2 [--workers 2] [--json out.json]

Both agents play every deal (the same deals, :func:`ginrummy.sim._deck` with ``--seed``), each
scored exactly over the joker's place (:class:`ginrummy.sim.SoloLine`, the method of
``benchmarks/strength.py`` and DESIGN.md): the chance of gin before the joker and the expected net
points.  The figure that decides is the difference A - B per deal, with its 95% interval over the
deals; most deals are played identically by close variants, so the paired interval is far
narrower than either agent's own.

Configurations are those of ``benchmarks/strength.py``: ``solitaire-none`` (Solitaire Gin Rummy,
``scoring=none``), ``solitaire-knock`` (default rules), ``gin-solitaire`` (default rules),
``gin-solitaire-win`` (Gin Solitaire, playing for gin: the agents get ``objective=win`` unless their
spec sets it).

Decision times are CPU seconds of this process per call of the agent (``time.process_time``), so
other work on a shared machine counts little against them; the load average is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.agents.solitaire import SoloRules
from ginrummy.sim import SimJob, _deck, mean_ci, parse_agent, solo_line

CONFIGS: dict[str, tuple[str, dict[str, Any], str]] = {
    "solitaire-none": ("solitaire", {"scoring": "none"}, "auto"),
    "solitaire-knock": ("solitaire", {}, "auto"),
    "gin-solitaire": ("gin-solitaire", {}, "auto"),
    "gin-solitaire-win": ("gin-solitaire", {}, "win"),
}


class _Timed:
    """An agent whose every call of ``act`` is timed in process CPU seconds."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.times: list[float] = []

    def act(self, observation: Any, legal: Any) -> Any:
        t0 = time.process_time()
        a = self.agent.act(observation, legal)
        self.times.append(time.process_time() - t0)
        return a


_AGENTS: dict[str, Any] = {}


def _make(spec: str, variant: str, objective: str) -> Any:
    key = f"{spec}|{variant}|{objective}"
    if key not in _AGENTS:
        parsed = parse_agent(spec)
        kwargs = dict(parsed.kwargs)
        if parsed.name == "planner" and objective != "auto":
            kwargs.setdefault("objective", objective)
        from ginrummy.agents import make_agent

        _AGENTS[key] = make_agent(parsed.name, variant, seed=1, **kwargs)
    return _AGENTS[key]


def run_chunk(config: str, seed: int, specs: tuple[str, str], indices: list[int]) -> list[dict[str, Any]]:
    variant, options, objective = CONFIGS[config]
    job = SimJob(variant, ("greedy",), 1, seed, options)
    rules = SoloRules.of(variant, options)
    rows = []
    for i in indices:
        deck, _ = _deck(job, i)
        row: dict[str, Any] = {"index": i}
        for tag, spec in zip("ab", specs, strict=True):
            timed = _Timed(_make(spec, variant, objective))
            line = solo_line(variant, options, timed, deck)  # type: ignore[arg-type]
            pts, gin = line.expected(rules)
            row[tag] = {"points": pts, "gin": gin, "times": timed.times}
        rows.append(row)
    return rows


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def summarise(config: str, specs: tuple[str, str], rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"config": config, "deals": len(rows), "a": specs[0], "b": specs[1]}
    for key in ("gin", "points"):
        a = [r["a"][key] for r in rows]
        b = [r["b"][key] for r in rows]
        out[key] = {
            "a": mean_ci(a),
            "b": mean_ci(b),
            "a_minus_b": mean_ci([x - y for x, y in zip(a, b, strict=True)]),
            "deals_differing": sum(1 for x, y in zip(a, b, strict=True) if abs(x - y) > 1e-12),
        }
    for tag in "ab":
        ts = [t for r in rows for t in r[tag]["times"]]
        out[f"time_{tag}"] = {
            "decisions": len(ts),
            "mean_ms": 1e3 * sum(ts) / max(1, len(ts)),
            "median_ms": 1e3 * _pct(ts, 0.5),
            "p99_ms": 1e3 * _pct(ts, 0.99),
            "max_ms": 1e3 * max(ts, default=math.nan),
        }
    return out


def _fmt(ci: tuple[float, float, float], digits: int) -> str:
    m, lo, hi = ci
    return f"{m:+.{digits}f} ({lo:+.{digits}f}..{hi:+.{digits}f})"


def report(s: dict[str, Any]) -> str:
    lines = [f"{s['config']}: {s['deals']} deals, A = {s['a']}, B = {s['b']}"]
    for key, digits in (("gin", 4), ("points", 2)):
        f = s[key]
        lines.append(
            f"  {key:6}  A {_fmt(f['a'], digits)}  B {_fmt(f['b'], digits)}  "
            f"A - B {_fmt(f['a_minus_b'], digits)}  (deals differing: {f['deals_differing']})"
        )
    for tag in "ab":
        t = s[f"time_{tag}"]
        lines.append(
            f"  {tag.upper()} decision CPU ms: mean {t['mean_ms']:.2f}, median {t['median_ms']:.2f}, "
            f"p99 {t['p99_ms']:.2f}, max {t['max_ms']:.2f} ({t['decisions']} decisions)"
        )
    lines.append(f"  load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    p.add_argument("--config", choices=sorted(CONFIGS), default="solitaire-none")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--start", type=int, default=0, help="index of the first deal")
    p.add_argument("--seed", type=int, default=31)
    p.add_argument("--a", default="planner:depth=3")
    p.add_argument("--b", default="planner:depth=2")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--chunk", type=int, default=25)
    p.add_argument("--json", help="write the summary and the per-deal figures here")
    args = p.parse_args(argv)
    specs = (args.a, args.b)
    indices = list(range(args.start, args.start + args.deals))
    chunks = [indices[i : i + args.chunk] for i in range(0, len(indices), args.chunk)]
    rows: list[dict[str, Any]] = []
    t0 = time.time()
    if args.workers <= 1:
        for ch in chunks:
            rows.extend(run_chunk(args.config, args.seed, specs, ch))
    else:
        with ProcessPoolExecutor(args.workers) as ex:
            for got in ex.map(run_chunk, *zip(*[(args.config, args.seed, specs, ch) for ch in chunks], strict=True)):
                rows.extend(got)
    s = summarise(args.config, specs, rows)
    s["wall_seconds"] = time.time() - t0
    s["seed"] = args.seed
    s["start"] = args.start
    print(report(s))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": s, "deals": [{k: v for k, v in r.items()} for r in rows]}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())

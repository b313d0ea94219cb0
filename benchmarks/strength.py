#!/usr/bin/env python
"""Solitaire strength: random, greedy, planner and the clairvoyant bound on the same deals.

    python benchmarks/strength.py [--deals N] [--seed S] [--workers K] [--configs a,b,c] [--json OUT]

Every deal is scored exactly over the joker's place (the trick of DESIGN.md): the joker's place is
independent of the cards and of the player's choices, so each agent plays the deal once with the
joker moved to the bottom, and its outcome for every place of the joker follows from that one line
(:class:`ginrummy.sim.SoloLine`).  A deal's figure is the average over the places: the chance of
gin before the joker, and the expected net points (player minus Joker).  The clairvoyant's figure is
its exact best result for each place (:func:`ginrummy.agents.solitaire.clairvoyant_value`).

Configurations (``--configs``):

* ``solitaire-none``: Solitaire Gin Rummy, ``scoring=none`` (gin wins): the planner plays for gin.
* ``solitaire-knock``: Solitaire Gin Rummy, default rules (knock scoring): the planner plays for points.
* ``gin-solitaire``: Gin Solitaire, default rules: the planner plays for points.
* ``gin-solitaire-win``: Gin Solitaire, the planner and the bound play for gin only (``objective=win``).

Paired figures (the same deals for every agent) come with 95% normal intervals; the planner's share
of the bound is the ratio of the means, its interval from the delta method on the paired deals.
Decisions per second are measured in the line runs (engine time included) in process CPU time, so
that other work on a shared machine does not count against them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from ginrummy.agents import make_agent
from ginrummy.agents.solitaire import ClairvoyantAgent, SoloRules, clairvoyant_value
from ginrummy.cards import JOKER
from ginrummy.sim import SimJob, _deck, mean_ci, solo_line

CONFIGS: dict[str, tuple[str, dict[str, Any], str]] = {
    # name: (variant, options, planner objective)
    "solitaire-none": ("solitaire", {"scoring": "none"}, "auto"),
    "solitaire-knock": ("solitaire", {}, "auto"),
    "gin-solitaire": ("gin-solitaire", {}, "auto"),
    "gin-solitaire-win": ("gin-solitaire", {}, "win"),
}
AGENTS = ("random", "greedy", "planner")
CLAIRVOYANT_TIMED = 20  # deals on which the clairvoyant also plays through the engine, for its speed
Z = 1.959963984540054


def _agent(name: str, variant: str, objective: str) -> Any:
    if name == "planner":
        return make_agent(name, variant, seed=1, objective=objective)
    return make_agent(name, variant, seed=1)


_CACHE: dict[tuple[str, str, str], Any] = {}


def run_deal(config: str, seed: int, index: int) -> dict[str, Any]:
    """Every agent's exact figures on deal ``index``, and the clairvoyant's."""
    variant, options, objective = CONFIGS[config]
    job = SimJob(variant, ("greedy",), 1, seed, options)
    deck, _ = _deck(job, index)
    points_rules = SoloRules.of(variant, options)
    out: dict[str, Any] = {"index": index}
    for name in AGENTS:
        key = (name, variant, objective)
        if key not in _CACHE:
            _CACHE[key] = _agent(name, variant, objective)
        t0 = time.process_time()
        line = solo_line(variant, options, _CACHE[key], deck)
        dt = time.process_time() - t0
        pts, gin = line.expected(points_rules)
        out[name] = {"points": pts, "gin": gin, "decisions": line.decisions, "seconds": dt}
    dealt = 11 if variant == "gin-solitaire" else 10
    order = [c for c in deck[dealt:] if c != JOKER]
    t0 = time.process_time()
    bound_rules = SoloRules.of(variant, options, objective)
    res = clairvoyant_value(bound_rules, deck[:dealt], order)
    clair: dict[str, Any] = {"seconds": time.process_time() - t0}
    if bound_rules.objective == "win":
        clair["gin"] = res.mean
    else:
        clair["points"] = res.mean
        clair["gin"] = clairvoyant_value(SoloRules.of(variant, options, "win"), deck[:dealt], order).mean
    if index < CLAIRVOYANT_TIMED:
        # The clairvoyant as a player (analysis only), on the deal with the joker at the bottom.
        agent = ClairvoyantAgent(variant, deck=[*deck[:dealt], *order, JOKER], objective=objective)
        t0 = time.process_time()
        line = solo_line(variant, options, agent, deck)
        clair["agent_decisions"] = line.decisions
        clair["agent_seconds"] = time.process_time() - t0
    out["clairvoyant"] = clair
    return out


def run_chunk(config: str, seed: int, indices: list[int]) -> list[dict[str, Any]]:
    return [run_deal(config, seed, i) for i in indices]


def ratio_ci(num: list[float], den: list[float]) -> tuple[float, float, float]:
    n = len(num)
    mn, md = sum(num) / n, sum(den) / n
    r = mn / md
    resid = [a - r * b for a, b in zip(num, den, strict=True)]
    mr = sum(resid) / n
    var = sum((x - mr) ** 2 for x in resid) / (n - 1)
    h = Z * math.sqrt(var / n) / abs(md)
    return r, r - h, r + h


def summarise(config: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    variant, options, objective = CONFIGS[config]
    scored = SoloRules.of(variant, options, objective).objective == "points"
    out: dict[str, Any] = {"config": config, "variant": variant, "options": options, "deals": len(rows)}
    agents: dict[str, Any] = {}
    for name in (*AGENTS, "clairvoyant"):
        a: dict[str, Any] = {}
        for metric in ("gin", "points"):
            xs = [r[name][metric] for r in rows if metric in r[name]]
            if xs:
                m, lo, hi = mean_ci(xs)
                a[metric] = {"mean": m, "ci95": [lo, hi]}
        secs = sum(r[name]["seconds"] for r in rows)
        if name != "clairvoyant":
            dec = sum(r[name]["decisions"] for r in rows)
            a["decisions_per_second"] = dec / secs if secs else 0.0
            a["decisions_per_deal"] = dec / len(rows)
        else:
            a["seconds_per_deal"] = secs / len(rows)
            timed = [r[name] for r in rows if "agent_decisions" in r[name]]
            dec = sum(x["agent_decisions"] for x in timed)
            secs2 = sum(x["agent_seconds"] for x in timed)
            a["decisions_per_second"] = dec / secs2 if secs2 else 0.0
        agents[name] = a
    out["agents"] = agents
    metric = "points" if scored else "gin"
    out["metric"] = metric
    plan = [r["planner"][metric] for r in rows]
    for other in ("greedy", "random"):
        diff = [p - r[other][metric] for p, r in zip(plan, rows, strict=True)]
        m, lo, hi = mean_ci(diff)
        out[f"planner_minus_{other}"] = {"mean": m, "ci95": [lo, hi]}
    bound = [r["clairvoyant"][metric] for r in rows]
    diff = [b - p for p, b in zip(plan, bound, strict=True)]
    m, lo, hi = mean_ci(diff)
    out["bound_minus_planner"] = {"mean": m, "ci95": [lo, hi], "min_per_deal": min(diff)}
    r, lo, hi = ratio_ci(plan, bound)
    out["planner_share_of_bound"] = {"ratio": r, "ci95": [lo, hi]}
    if scored:
        # The share of the way from random to the bound (points can be negative).
        rnd = [r["random"][metric] for r in rows]
        num = [p - q for p, q in zip(plan, rnd, strict=True)]
        den = [b - q for b, q in zip(bound, rnd, strict=True)]
        r2, lo2, hi2 = ratio_ci(num, den)
        out["planner_share_random_to_bound"] = {"ratio": r2, "ci95": [lo2, hi2]}
    return out


def markdown(summary: dict[str, Any]) -> str:
    a = summary["agents"]
    scored = summary["metric"] == "points"
    lines = [
        f"**{summary['config']}** ({summary['variant']}"
        + (", " + ", ".join(f"{k}={v}" for k, v in summary["options"].items()) if summary["options"] else "")
        + f"), {summary['deals']:,} deals",
        "",
        "| agent | gin before the joker | 95% CI |"
        + (" net points per hand | 95% CI |" if scored else "")
        + " decisions/s |",
        "| --- | ---: | ---: |" + (" ---: | ---: |" if scored else "") + " ---: |",
    ]
    for name in (*AGENTS, "clairvoyant"):
        x = a[name]
        g = x.get("gin")
        row = f"| {name} | {g['mean']:.4f} | {g['ci95'][0]:.4f}..{g['ci95'][1]:.4f} |" if g else "| {name} | | |"
        if scored:
            p = x["points"]
            row += f" {p['mean']:+.2f} | {p['ci95'][0]:+.2f}..{p['ci95'][1]:+.2f} |"
        row += f" {x['decisions_per_second']:,.0f} |"
        lines.append(row)
    s = summary["planner_share_of_bound"]
    lines.append("")
    unit = "points" if scored else "gin chance"
    pg = summary["planner_minus_greedy"]
    lines.append(
        f"Planner minus greedy: {pg['mean']:+.4f} {unit} (95% CI {pg['ci95'][0]:+.4f}..{pg['ci95'][1]:+.4f}); "
        f"planner / bound: {s['ratio']:.3f} ({s['ci95'][0]:.3f}..{s['ci95'][1]:.3f})"
        + (
            f"; share of the way from random to the bound: {summary['planner_share_random_to_bound']['ratio']:.3f}"
            if scored
            else ""
        )
        + f"; smallest per-deal bound minus planner: {summary['bound_minus_planner']['min_per_deal']:+.4f}."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--json", default=None, help="write the summaries here")
    args = ap.parse_args(argv)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    for c in configs:
        if c not in CONFIGS:
            ap.error(f"unknown config {c!r}; choose from {', '.join(CONFIGS)}")
    report: dict[str, Any] = {
        "seed": args.seed,
        "deals": args.deals,
        "workers": args.workers,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "summaries": [],
    }
    for config in configs:
        t0 = time.time()
        size = max(1, min(25, args.deals // (args.workers * 8) or 1))
        chunks = [list(range(i, min(args.deals, i + size))) for i in range(0, args.deals, size)]
        rows: list[dict[str, Any]] = []
        if args.workers == 1:
            for ch in chunks:
                rows.extend(run_chunk(config, args.seed, ch))
        else:
            with ProcessPoolExecutor(args.workers) as pool:
                futs = [pool.submit(run_chunk, config, args.seed, ch) for ch in chunks]
                for k, fut in enumerate(as_completed(futs), 1):
                    rows.extend(fut.result())
                    if k % max(1, len(futs) // 10) == 0:
                        print(f"  {config}: {len(rows)}/{args.deals} deals", file=sys.stderr, flush=True)
        rows.sort(key=lambda r: r["index"])
        summary = summarise(config, rows)
        summary["seconds"] = round(time.time() - t0, 1)
        report["summaries"].append(summary)
        print(markdown(summary))
        print(f"({summary['seconds']} s)\n", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

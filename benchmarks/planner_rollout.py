#!/usr/bin/env python
"""How much would rollouts of the planner itself gain?  An experiment, not a player: far too slow
to play (about a second a decision), it measures the gain a faster (compiled) planner could buy.

    python benchmarks/planner_rollout.py --deals 300 --seed 131 --candidates 3 --orders 16 --horizon 10 --workers 2
    python benchmarks/planner_rollout.py --deals 200 --seed 137 --orders 32 --horizon 20 --z 2 --workers 2

Solitaire Gin Rummy, ``scoring=none`` (the chance of gin before the joker, exact over the joker's
place as :class:`ginrummy.sim.SoloLine` scores it).  Every deal (``ginrummy.sim._deck``, the deals
of ``benchmarks/planner.py`` for the same seed) is played twice:

* **base**: the planner's discard, the best :func:`ginrummy.agents.planner.hold_value` of its
  two-draw model (the ``planner`` agent's own choice when playing for gin);
* **rollout**: at every discard, the model's ``--candidates`` best discards are each played on by
  the base policy over the same ``--orders`` orders of the unseen cards (common random numbers,
  seeded by the deal and the draw), for ``--horizon`` draws or until gin; a line that has not gone
  gin by then is worth the model's value of the hand it holds, times the chance that the joker
  has not come yet.  The discard with the best mean is played; with ``--z``, only a candidate
  whose mean gain over the model's best, order by order, exceeds that many standard errors.

The figure is the difference rollout - base per deal with its 95% interval over the deals.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.agents.knowledge import iter_cards
from ginrummy.agents.planner import _evaluate_model
from ginrummy.agents.solitaire import SoloRules
from ginrummy.cards import JOKER
from ginrummy.melds import best_discards
from ginrummy.sim import SimJob, _deck, mean_ci

RULES = SoloRules.of("solitaire", {"scoring": "none"}, "win")


class _Key:
    """A stand-in for a discard action: the model ranks keys by ``id``."""

    __slots__ = ("card", "id")

    def __init__(self, card: int) -> None:
        self.card = card
        self.id = card

    def __str__(self) -> str:
        return str(self.card)


_KEYS = [_Key(c) for c in range(53)]


def model_values(hand11: int, um: int, n: int) -> dict[int, float]:
    """The planner's model value of each discard of an eleven-card hand (``n`` unseen cards)."""
    cont = {_KEYS[c]: hand11 & ~(1 << c) for c in iter_cards(hand11)}
    values, _ = _evaluate_model(RULES, hand11, um, n, cont, 4)  # type: ignore[arg-type]
    return {k.card: v for k, v in values.items()}


def base_discard(hand11: int, um: int, n: int) -> int:
    vals = model_values(hand11, um, n)
    return max(vals, key=lambda c: vals[c])


def hold(hand10: int, um: int, n: int) -> float:
    """The model's value of holding a ten-card hand with ``n`` unseen cards."""
    values, _ = _evaluate_model(RULES, hand10, um, n, {_KEYS[52]: hand10}, 1)  # type: ignore[arg-type]
    return min(1.0, next(iter(values.values())))


def is_gin(hand11: int) -> bool:
    return best_discards(hand11)[0] == 0


def rollout(hand10: int, order: list[int], slots: int, drawn: int, horizon: int) -> float:
    """The base policy from ``hand10`` with ``order`` to come: its share of the joker's places
    (``slots`` in all, ``drawn`` cards drawn so far) in which it goes gin first."""
    um = 0
    for c in order:
        um |= 1 << c
    for t, c in enumerate(order):
        if t == horizon:
            left = slots - drawn - t
            return left / slots * hold(hand10, um, len(order) - t)
        um &= ~(1 << c)
        hand11 = hand10 | (1 << c)
        if is_gin(hand11):
            return (slots - (drawn + t + 1)) / slots
        hand10 = hand11 & ~(1 << base_discard(hand11, um, len(order) - t - 1))
    return 0.0


def rollout_discard(
    hand11: int, unseen: list[int], slots: int, drawn: int, args: argparse.Namespace, rng: random.Random
) -> tuple[int, bool]:
    um = 0
    for c in unseen:
        um |= 1 << c
    vals = model_values(hand11, um, len(unseen))
    ranked = sorted(vals, key=lambda c: -vals[c])
    best = ranked[0]
    cands = ranked[: args.candidates]
    if len(cands) < 2 or not unseen:
        return best, False
    orders = []
    n = len(unseen)
    # each card comes first once before any comes first twice (stratified, as the planner's rollouts)
    cards = list(unseen)
    rng.shuffle(cards)
    for i in range(args.orders):
        first = cards[i % n]
        rest = [c for c in cards if c != first]
        rng.shuffle(rest)
        orders.append([first, *rest])
    got_values = {}
    for d in cands:
        h = hand11 & ~(1 << d)
        got_values[d] = [rollout(h, o, slots, drawn, args.horizon) for o in orders]
    # a candidate replaces the model's best only when its mean difference, order by order, is
    # more than ``--z`` standard errors above zero (``--z 0``: the best mean)
    got, top = best, 0.0
    for d in cands[1:]:
        diffs = [a - b for a, b in zip(got_values[d], got_values[best], strict=True)]
        m = sum(diffs) / len(diffs)
        var = sum((x - m) ** 2 for x in diffs) / max(1, len(diffs) - 1)
        se = (var / len(diffs)) ** 0.5
        if m > top and m > args.z * se:
            got, top = d, m
    return got, got != best


def play(deck: list[int], policy: str, args: argparse.Namespace, seed: int) -> tuple[float, int, int]:
    real = [c for c in deck if c != JOKER]
    hand10 = sum(1 << c for c in real[:10])
    order = real[10:]
    slots = 53 - 10
    changed = decisions = 0
    for t, c in enumerate(order):
        hand11 = hand10 | (1 << c)
        if is_gin(hand11):
            return (slots - (t + 1)) / slots, changed, decisions
        unseen = sorted(order[t + 1 :])  # the cards to come, never their order
        decisions += 1
        if policy == "base":
            um = 0
            for u in unseen:
                um |= 1 << u
            d = base_discard(hand11, um, len(unseen))
        else:
            d, ch = rollout_discard(hand11, unseen, slots, t + 1, args, random.Random(seed * 1000 + t))
            changed += ch
        hand10 = hand11 & ~(1 << d)
    return 0.0, changed, decisions


def run_chunk(args: argparse.Namespace, indices: list[int]) -> list[dict[str, Any]]:
    job = SimJob("solitaire", ("greedy",), 1, args.seed, {"scoring": "none"})
    rows = []
    for i in indices:
        deck, dseed = _deck(job, i)
        b, _, _ = play(deck, "base", args, dseed)
        t0 = time.process_time()
        r, changed, decisions = play(deck, "rollout", args, dseed)
        rows.append(
            {
                "index": i,
                "base": b,
                "rollout": r,
                "changed": changed,
                "decisions": decisions,
                "cpu": time.process_time() - t0,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=131)
    ap.add_argument("--candidates", type=int, default=3)
    ap.add_argument("--orders", type=int, default=16)
    ap.add_argument("--horizon", type=int, default=10, help="draws played out before the model values the hand")
    ap.add_argument("--z", type=float, default=0.0, help="standard errors a candidate must gain by to be played")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    idx = list(range(args.start, args.start + args.deals))
    chunks = [idx[k :: max(1, args.workers * 8)] for k in range(max(1, args.workers * 8))]
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.workers) as ex:
        for got in ex.map(run_chunk, [args] * len(chunks), chunks):
            rows.extend(got)
    rows.sort(key=lambda r: r["index"])
    base = [r["base"] for r in rows]
    roll = [r["rollout"] for r in rows]
    diff = [a - b for a, b in zip(roll, base, strict=True)]
    dec = sum(r["decisions"] for r in rows)
    out = {
        "args": vars(args),
        "base": mean_ci(base),
        "rollout": mean_ci(roll),
        "diff": mean_ci(diff),
        "decisions": dec,
        "changed": sum(r["changed"] for r in rows),
        "cpu_per_decision": sum(r["cpu"] for r in rows) / max(1, dec),
        "load": os.getloadavg(),
        "rows": rows,
    }
    print(f"deals {len(rows)}, seed {args.seed}: base {out['base']}, rollout {out['rollout']}")
    print(
        f"rollout - base: {out['diff']}; {out['changed']} of {dec} discards changed; "
        f"{out['cpu_per_decision'] * 1000:.0f} ms of CPU a decision; load {out['load']}"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())

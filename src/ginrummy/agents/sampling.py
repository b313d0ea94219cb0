"""The expert's sampled showdowns (``Params.knock_model = "sample"``, an experiment): plausible
opponent hands drawn from what the seat knows, and a knock valued over them with their layoffs."""

from __future__ import annotations

import math
import random

from ..melds import best_arrangement, best_defense, best_discards, min_deadwood
from .expert_values import Params
from .knowledge import VALUES, Knowledge, iter_cards

__all__ = ["sample_opponent", "sampled_knock_value"]


def sampled_knock_value(
    k: Knowledge, p: Params, rng: random.Random, kept: int, dk: int, gin: bool
) -> tuple[float, float, float]:
    """Expected points of going out holding ``kept`` (ten cards): (points, undercut chance,
    mean opponent deadwood), over sampled opponent hands."""
    opts = k.options
    layoffs = bool(opts.get("layoffs", True)) and not gin
    melds = [sum(1 << c for c in m) for m in best_arrangement(kept).melds] if layoffs else []
    gin_bonus = float(opts.get("gin_bonus", 25))
    ub = float(opts.get("undercut_bonus", 25))
    tie_under = bool(opts.get("undercut_on_tie", True))
    hands = sample_opponent(k, p, rng, p.samples)
    total = under = dsum = 0.0
    for h in hands:
        dd = best_defense(melds, h).deadwood if melds else min_deadwood(h)
        dsum += dd
        if gin:
            total += dd + gin_bonus
        elif dd > dk or (dd == dk and not tie_under):
            total += dd - dk
        else:
            total -= dk - dd + ub
            under += 1
    n = len(hands) or 1
    return total / n, under / n, dsum / n


def sample_opponent(k: Knowledge, p: Params, rng: random.Random, n: int) -> list[int]:
    """Plausible opponent hands: the known cards plus hidden ones drawn by weight; a few
    extra are drawn and the worst dropped (the opponent has kept its best cards)."""
    cards = iter_cards(k.unseen)
    w = k.weights
    need = k.opp_hidden
    if need <= 0 or not cards:
        return [k.opp_known] * max(1, n)
    extra = min(p.extra, k.opp_draws, len(cards) - need)
    take = need + max(0, extra)
    logw = [(c, math.log(max(w[c], 1e-6))) for c in cards]
    out = []
    for _ in range(n):
        # Weighted sampling without replacement (Efraimidis-Spirakis keys).
        keyed = sorted(((math.log(rng.random() or 1e-12) / math.exp(lw), c) for c, lw in logw), reverse=True)
        h = 0
        for _, c in keyed[:take]:
            h |= 1 << c
        for _ in range(take - need):
            _, best = best_discards(h | k.opp_known)
            best &= h  # never drop a known card
            if not best:
                break
            worst = max(iter_cards(best), key=lambda c: (VALUES[c], c))
            h &= ~(1 << worst)
        out.append(h | k.opp_known)
    return out

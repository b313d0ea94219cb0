"""The solitaire ``planner``: the hold model, rollouts, the three-draw search and the agent (see
:mod:`ginrummy.agents.solitaire`)."""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..actions import Action
from ..errors import GinRummyError
from ..melds import best_discards, min_deadwood
from ..observe import Observation
from .base import Agent, Decision, register
from .reasons import N_, Reason, joined, move, ngettext
from .solo_melds import _high_card, _keep_value, _melded, _near, gin_completions, has_gin10
from .solo_rules import (
    _CARD_INDEX,
    SOLO_VARIANTS,
    SoloRules,
    _count_after_first,
    _mask,
    _rules_for,
    hold_value,
    objective_error,
)


@dataclass
class _Rollouts:
    """Rollouts of the continuation policy (points): least deadwood discards, gin at once, a knock
    when it is worth more than ``knock_margin`` on average.  Each order of the unseen cards is
    scored exactly over every place of the joker (its place is independent of the cards before it)."""

    rules: SoloRules
    knock_margin: float = 16.0

    def run(self, hand: int, dead: int, order: Sequence[int]) -> float:
        """The sum over the n + 1 places of the joker of the value of continuing from ``hand`` (ten
        cards, deadwood ``dead``) when the unseen cards come in ``order`` (n cards)."""
        rules = self.rules
        n = len(order)
        knock = rules.may_knock
        limit = rules.knock_limit
        big = rules.big_gin
        margin = self.knock_margin
        loss = rules.loss
        total = float(loss(dead))
        left = n
        for c in order:
            left -= 1
            hand |= 1 << c
            d, cards = best_discards(hand)
            if d == 0:
                if big and min_deadwood(hand) == 0:
                    return total + rules.end_sum("big-gin", 0, left)
                return total + rules.end_sum("gin", 0, left)
            if knock and d <= limit:
                s = rules.end_sum("knock", d, left)
                if s > margin * (left + 1):
                    return total + s
            hand ^= 1 << _high_card(cards)
            total += loss(d)
        return total


def rollout_value(
    rules: SoloRules,
    hand: int,
    unseen: Sequence[int],
    *,
    rollouts: int = 256,
    seed: int = 0,
    knock_margin: float = 16.0,
) -> float:
    """The value of playing on from ``hand`` (ten cards) by the rollouts' continuation policy:
    ``rollouts`` orders of the unseen cards, stratified over the next card, each scored exactly over
    every place of the joker.  A realistic (slightly low) estimate of what the rest of a hand is
    worth, used by the analysis for a hand's expected result."""
    n = len(unseen)
    dead = min_deadwood(hand)
    if n == 0:
        return float(rules.loss(dead))
    rng = random.Random(seed)
    sim = _Rollouts(rules, knock_margin)
    cards = list(unseen)
    total = 0.0
    for i in range(max(1, rollouts)):
        first = cards[i % n]
        rest = [c for c in cards if c != first]
        rng.shuffle(rest)
        total += sim.run(hand, dead, [first, *rest])
    return total / max(1, rollouts) / (n + 1)


def _mix(*parts: object) -> int:
    return int.from_bytes(hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest(), "big")


@dataclass
class PlanReport:
    """The planner's estimate of each legal action, best first (gin chance or expected points)."""

    values: list[tuple[Action, float]]
    rollouts: int = 0
    notes: dict[str, Any] = field(default_factory=dict)


def _ranked(values: Mapping[Action, float]) -> list[tuple[Action, float]]:
    return sorted(values.items(), key=lambda t: (-t[1], t[0].id if t[0].melds is None else 0))


def _end_values(rules: SoloRules, hand: int, n: int, legal: Sequence[Action]) -> dict[Action, float]:
    """Exact values of ending now (C is uniform on 0..n)."""
    out: dict[Action, float] = {}
    for a in legal:
        if a.kind not in ("gin", "knock"):
            continue
        kept = hand if a.card is None else hand & ~(1 << int(a.card))
        if a.kind == "gin":
            event = "big-gin" if a.card is None and hand.bit_count() == 11 else "gin"
            out[a] = rules.end_mean(event, 0, n)
        else:
            out[a] = rules.end_mean("knock", min_deadwood(kept), n)
    return out


def _continuations(hand: int, legal: Sequence[Action]) -> dict[Action, int]:
    """The actions that play on, each with the ten cards it keeps."""
    out = {}
    for a in legal:
        if a.kind == "discard" and a.card is not None:
            out[a] = hand & ~(1 << int(a.card))
        elif a.kind == "draw":
            out[a] = hand
    return out


def evaluate_actions(
    rules: SoloRules,
    hand: int,
    unseen: Sequence[int],
    legal: Sequence[Action],
    *,
    rollouts: int = 32,
    time_budget: float | None = None,
    seed: int = 0,
    knock_margin: float = 16.0,
    shortlist: int = 4,
    depth: int = 2,
    hindsight: int = 0,
    tolerance: float = 0.0,
    blend: float = 0.0,
) -> PlanReport:
    """Estimate the value of every legal action of a solitaire position.

    Ending now (gin, big gin, knock) is valued exactly: the count C is uniform on 0..n.

    Playing on (a discard, or the opening ``draw``): every candidate's gin outs are counted exactly
    (the chance of gin on the next draw is ``outs / (n + 1)``), and the ``shortlist`` best also get
    the two-draw search, every pair of unseen cards that completes a gin.  The value is
    :func:`hold_value` of that profile (the chance of gin, or expected points weighing gin against
    the deadwood the joker would score); ties go to the better structure kept.  With ``depth`` 3
    every candidate is valued one draw deeper instead, by :func:`three_draw_value` of its gins
    within three draws (an option: it measured no clear gain, see ``docs/strength.md``).

    Knocks (and gin) that beat the best model value are checked against ``rollouts`` orders of the
    unseen cards, the same for the two best discards, stratified so that each unseen card comes
    first equally often (the next draw is averaged exactly when ``rollouts`` is a multiple of n),
    played on by the continuation policy (least deadwood, gin at once, a knock worth more than
    ``knock_margin`` on average) and each scored exactly over every place of the joker; a rolled-out
    discard is worth the better of its two estimates.
    With ``hindsight`` orders (0: none), the discards the model ties (within ``tolerance``) are
    ordered by their hindsight chance of gin (:func:`hindsight_steps`); with ``blend`` too (playing
    for gin), every discard is valued by the weighted mean of the model's and the hindsight chance.
    With ``time_budget`` (seconds) the two-draw search extends past the shortlist while time
    remains (up to half the budget when rollouts may follow) and rollouts continue in rounds while
    time remains; the decision then depends on the machine's speed.
    """
    n = len(unseen)
    um = 0
    for c in unseen:
        um |= 1 << c
    values = _end_values(rules, hand, n, legal)
    cont = _continuations(hand, legal)
    for a in legal:
        if a not in values and a not in cont:  # pragma: no cover - no other action in the solitaires
            values[a] = -math.inf
    if not cont:
        return PlanReport(_ranked(values))
    if n == 0:  # the joker is next for certain
        for a, h in cont.items():
            values[a] = float(rules.loss(min_deadwood(h)))
        return PlanReport(_ranked(values))
    if rules.objective == "win":
        deadline = None if time_budget is None else time.perf_counter() + time_budget
        model, notes = _evaluate_model(
            rules, hand, um, n, cont, shortlist, deadline, depth, hindsight, seed, tolerance, blend
        )
        values.update(model)
        return PlanReport(_ranked(values), 0, notes)
    return _evaluate_points(
        rules,
        hand,
        unseen,
        cont,
        values,
        rollouts,
        time_budget,
        seed,
        knock_margin,
        shortlist,
        depth,
        hindsight,
        tolerance,
        blend,
    )


def _completion_lists(hand: int, um: int, cont: Mapping[Action, int], budget: int) -> dict[int, list[tuple[int, int]]]:
    """For each continuation hand (ten cards): its gin completions within ``budget`` unseen cards,
    as (used, left out) mask pairs.  When every continuation is ``hand`` less one card, one search
    of ``hand`` serves them all (a completion of ``hand`` leaving out ``d`` is one of ``hand - d``)."""
    hands = set(cont.values())
    out: dict[int, list[tuple[int, int]]] = {h: [] for h in hands}
    if hand.bit_count() == 11 and all((hand & ~h).bit_count() == 1 and h & ~hand == 0 for h in hands):
        for used, drops in gin_completions(hand, um, budget).items():
            for dropped in drops:
                y = dropped
                while y:
                    low = y & -y
                    y ^= low
                    lst = out.get(hand ^ low)
                    if lst is not None:
                        lst.append((used, dropped ^ low))
        return out
    for h in hands:
        out[h] = [(u, d) for u, drops in gin_completions(h, um, budget).items() for d in drops]
    return out


def _outs_and_degrees(comps: Sequence[tuple[int, int]], hand: int, um: int) -> tuple[int, dict[int, int]]:
    """The gin outs (a mask) and the two-draw pair degrees of a ten-card hand from its completions
    (as :func:`gin_outs` and :func:`gin_pairs`)."""
    outs = 0
    pairs = set()
    for u, _ in comps:
        k = u.bit_count()
        if k == 0:
            return _near(hand) & um, {}
        if k == 1:
            outs |= u
        elif k == 2:
            pairs.add(u)
    deg: dict[int, int] = {}
    for u in pairs:
        if not u & outs:
            low = u & -u
            for c in (low.bit_length() - 1, (u ^ low).bit_length() - 1):
                deg[c] = deg.get(c, 0) + 1
    return outs, deg


def _degrees(pairs: set[int], outs: int) -> dict[int, int]:
    deg: dict[int, int] = {}
    for u in pairs:
        if not u & outs:
            low = u & -u
            for c in (low.bit_length() - 1, (u ^ low).bit_length() - 1):
                deg[c] = deg.get(c, 0) + 1
    return deg


def _by_discard(comps: Sequence[tuple[int, int]]) -> dict[int, tuple[int, set[int]]] | None:
    """The completions of an eleven-card hand sorted by discard: for each card that some
    completion leaves out, the outs and pairs of the hand without it (None if the eleven hold a
    gin of ten)."""
    by: dict[int, tuple[int, set[int]]] = {}
    for u, d in comps:
        if u == 0:
            return None
        one = u.bit_count() == 1
        y = d
        while y:
            low = y & -y
            y ^= low
            got = by.get(low)
            if got is None:
                got = (0, set())
            if one:
                by[low] = (got[0] | u, got[1])
            else:
                got[1].add(u)
                by[low] = got
    return by


def three_draw_value(rules: SoloRules, comps: Sequence[tuple[int, int]], hand: int, um: int, n: int) -> float:
    """The hold model one draw deeper, in the objective's units.

    ``comps`` are the gin completions of ``hand`` (ten cards) within three unseen cards
    ((used, left out) masks, :func:`gin_completions`); ``n`` the unseen cards.  The first card to
    come that belongs to one of them, or the joker, decides: the joker scores the deadwood held; an
    out is gin (with the average count, as :func:`hold_value`); any other such card is drawn and
    the better of its best discard and the hand as it was is kept, each valued by
    :func:`hold_value` with the cards then left.  For the chance of gin, a hand one card from gin
    whose other draws do not improve it is worth ``k / (k + 1)``, as :func:`hold_chance`.
    """
    outs, deg = _outs_and_degrees(comps, hand, um)
    win = rules.objective == "win"
    dead = 0 if win else min_deadwood(hand)
    useful = 0
    by_card: dict[int, list[tuple[int, int]]] = {}
    base = []
    for u, d in comps:
        if not u:  # a gin already: nothing deeper to count
            return hold_value(rules, outs.bit_count(), deg, n, dead)
        useful |= u
        if u.bit_count() <= 2:
            base.append((u, d))
        y = u
        while y:
            low = y & -y
            y ^= low
            by_card.setdefault(low, []).append((u ^ low, d))
    if not useful:
        return float(rules.loss(dead))
    specials = useful.bit_count() + 1
    later = max(0.0, n - (n + 1) / (specials + 1))  # unseen cards left when the first special comes
    stay = hold_value(rules, outs.bit_count(), deg, later, dead)
    total = float(rules.loss(dead))
    if outs:
        total += outs.bit_count() * rules.gin_value(_count_after_first(specials, n))
    y = useful & ~outs
    while y:
        low = y & -y
        y ^= low
        by = _by_discard(by_card[low] + [(u, d) for u, d in base if not u & low])
        best = stay
        for discard, (o, pairs) in (by or {}).items():
            d2 = 0 if win else min_deadwood(hand ^ low ^ discard)
            v = hold_value(rules, o.bit_count(), _degrees(pairs, o), later, d2)
            if v > best:
                best = v
        total += best
    return total / specials


def sample_orders(unseen: Sequence[int], count: int, seed: int) -> list[list[int]]:
    """``count`` orders of the unseen cards, seeded, stratified so that each unseen card comes first
    equally often (as the rollouts)."""
    rng = random.Random(seed)
    cards = list(unseen)
    out = []
    for i in range(count):
        first = cards[i % len(cards)]
        rest = [c for c in cards if c != first]
        rng.shuffle(rest)
        out.append([first, *rest])
    return out


def hindsight_steps(hand: int, drops: int, orders: Sequence[Sequence[int]]) -> dict[int, list[int]]:
    """Hindsight optimisation: for each order of the unseen cards (the same orders for every
    discard), the fewest draws to gin of a player who knows the order, after discarding each card
    of ``drops`` (a mask of cards of the eleven held in ``hand``).  Knowing the order it can hold
    any ten of the cards seen, so it has gin after ``t`` draws if some ten of the cards held and
    drawn, less the discard, are all melded (the clairvoyant's ``gin_step``,
    :func:`~ginrummy.agents.clairvoyant.clairvoyant_value`).  Returns, per discarded card, the steps
    per order (``len(order) + 1`` when the order gives no gin)."""
    bits = []
    y = drops
    while y:
        low = y & -y
        y ^= low
        bits.append(low)
    out: dict[int, list[int]] = {b.bit_length() - 1: [] for b in bits}
    for order in orders:
        seen = hand
        left = bits
        got = {}
        for t, c in enumerate(order, start=1):
            seen |= 1 << c
            if not has_gin10(seen):  # nor then any of its subsets
                continue
            keep = []
            for b in left:
                if has_gin10(seen & ~b):
                    got[b] = t
                else:
                    keep.append(b)
            left = keep
            if not left:
                break
        for b in bits:
            out[b.bit_length() - 1].append(got.get(b, len(order) + 1))
    return out


def _hindsight_chances(hand: int, drops: int, um: int, n: int, orders: int, seed: int) -> dict[int, float]:
    """Per discarded card of ``drops``: the average over ``orders`` sampled orders of the hindsight
    chance of gin before the joker, ``(n + 1 - t) / (n + 1)`` for gin after ``t`` draws."""
    unseen = [c for c in range(52) if um >> c & 1]
    steps = hindsight_steps(hand, drops, sample_orders(unseen, orders, seed))
    return {d: sum(max(0, n + 1 - t) for t in ts) / (orders * (n + 1)) for d, ts in steps.items()}


def _evaluate_model(
    rules: SoloRules,
    hand: int,
    um: int,
    n: int,
    cont: dict[Action, int],
    shortlist: int,
    deadline: float | None = None,
    depth: int = 2,
    hindsight: int = 0,
    seed: int = 0,
    tolerance: float = 0.0,
    blend: float = 0.0,
) -> tuple[dict[Action, float], dict[str, Any]]:
    """Every playing-on action's :func:`hold_value`: gin outs for all, the two-draw pairs for the
    ``shortlist`` best (for all with ``depth`` 3, or while ``deadline``, a ``perf_counter`` time,
    is not reached); with ``depth`` 3, the :func:`three_draw_value`.  Ties go to the better
    structure kept."""
    melded = _melded(hand)
    deep = depth >= 3
    lists = _completion_lists(hand, um, cont, 3 if deep else 2)
    first = []
    for a, h in cont.items():
        outs, deg = _outs_and_degrees(lists[h], h, um)
        dead = min_deadwood(h)
        dropped = hand & ~h
        keep = _keep_value(dropped.bit_length() - 1, hand, um, melded) if dropped else 0.0
        first.append((hold_value(rules, outs.bit_count(), {}, n, dead), -keep, outs, deg, dead, a, h))
    first.sort(key=lambda t: (-t[0], -t[1], t[5].id))
    values: dict[Action, float] = {}
    notes: dict[str, Any] = {"outs": {}, "pairs": {}}
    raw: dict[Action, float] = {}
    for i, (v, negkeep, outs, deg, dead, a, h) in enumerate(first):
        nouts = outs.bit_count()
        if deep or i < shortlist or (deadline is not None and time.perf_counter() < deadline):
            v = hold_value(rules, nouts, deg, n, dead)
            notes["pairs"][str(a)] = sum(deg.values()) // 2
            if deep:
                v = three_draw_value(rules, lists[h], h, um, n)
                notes.setdefault("triples", {})[str(a)] = len({u for u, _ in lists[h] if u.bit_count() == 3})
        notes["outs"][str(a)] = nouts
        # Ties (and hands with nothing within reach) go to the better structure kept.
        values[a] = v + 1e-6 * (100.0 + negkeep)
        raw[a] = v
    if hindsight > 0 and hand.bit_count() == 11 and blend > 0 and rules.objective == "win":
        drops = 0
        for h in cont.values():
            drops |= hand & ~h
        chances = _hindsight_chances(hand, drops, um, n, hindsight, seed)
        for a, h in cont.items():  # a weighted mean: still below the gin (1) when gin is there
            if h != hand:
                values[a] = (values[a] + blend * chances[(hand & ~h).bit_length() - 1]) / (1.0 + blend)
        notes["hindsight"] = {str(a): chances[(hand & ~h).bit_length() - 1] for a, h in cont.items() if h != hand}
    elif hindsight > 0 and hand.bit_count() == 11:
        _hindsight_ties(hand, um, n, cont, values, raw, hindsight, seed, tolerance, notes)
    return values, notes


def _hindsight_ties(
    hand: int,
    um: int,
    n: int,
    cont: Mapping[Action, int],
    values: dict[Action, float],
    raw: Mapping[Action, float],
    orders: int,
    seed: int,
    tolerance: float,
    notes: dict[str, Any],
) -> None:
    """Break the model's ties (within ``tolerance``) among discards by hindsight: the average over
    ``orders`` sampled orders of the chance of gin before the joker of a player who knows the order
    (:func:`hindsight_steps`)."""
    best = max(raw.values())
    tied = [a for a, h in cont.items() if h != hand and raw[a] >= best - tolerance - 1e-12]
    if len(tied) < 2:
        return
    drops = 0
    for a in tied:
        drops |= hand & ~cont[a]
    chances = _hindsight_chances(hand, drops, um, n, orders, seed)
    scores = {a: chances[(hand & ~cont[a]).bit_length() - 1] for a in tied}
    top = max(values[a] for a in tied)
    for a in tied:  # above every other discard, in the order of hindsight, then as before
        values[a] = top + 1e-4 * scores[a] + 1e-6 * (values[a] - top)
    notes["hindsight"] = {str(a): scores[a] for a in tied}


def _evaluate_points(
    rules: SoloRules,
    hand: int,
    unseen: Sequence[int],
    cont: dict[Action, int],
    values: dict[Action, float],
    rollouts: int,
    time_budget: float | None,
    seed: int,
    knock_margin: float,
    shortlist: int,
    depth: int = 2,
    hindsight: int = 0,
    tolerance: float = 0.0,
    blend: float = 0.0,
) -> PlanReport:
    """Discards by the hold model; a knock (or gin) that beats the best discard's model value is
    checked against rollouts of playing on from the two best discards."""
    n = len(unseen)
    um = 0
    for c in unseen:
        um |= 1 << c
    start = time.perf_counter()
    deadline = None if time_budget is None else start + time_budget / 2
    model, notes = _evaluate_model(
        rules, hand, um, n, cont, shortlist, deadline, depth, hindsight, seed, tolerance, blend
    )
    values.update(model)
    ends = [a for a in values if a.kind in ("gin", "knock")]
    best_play = max(model.values())
    done = 0
    if ends and max(values[a] for a in ends) > best_play:
        top = sorted(model, key=lambda a: (-model[a], a.id))[:2]
        hands = sorted({cont[a] for a in top})
        hdead = {h: min_deadwood(h) for h in hands}
        rng = random.Random(seed)
        sim = _Rollouts(rules, knock_margin)
        sums = dict.fromkeys(hands, 0.0)
        cards = list(unseen)
        target = max(1, rollouts)
        while True:
            while done < target:
                first = cards[done % n]
                rest = [c for c in cards if c != first]
                rng.shuffle(rest)
                order = [first, *rest]
                for h in hands:
                    sums[h] += sim.run(h, hdead[h], order)
                done += 1
            if time_budget is None or done >= 100_000:
                break
            spent = time.perf_counter() - start
            if spent >= time_budget:
                break
            more = int((time_budget - spent) / (spent / done))
            if more <= 0:
                break
            target = done + max(1, min(more, done))
        for a in top:
            rolled = sums[cont[a]] / done / (n + 1)
            notes.setdefault("rollouts", {})[str(a)] = rolled
            values[a] = max(values[a], rolled)
    return PlanReport(_ranked(values), done, notes)


def _explain(rules: SoloRules, report: PlanReport, n: int) -> Reason:
    """One sentence on the choice, in the terms the planner used (outs, pairs, counts)."""
    best, value = report.values[0]
    name = move(best)
    if best.kind == "gin":
        if rules.objective == "win":
            return N_("{move}: the hand is won.", move=name)
        return N_("{move}: worth {value} on average (the count is 0 to {n}).", move=name, value=f"{value:+.1f}", n=n)
    if best.kind == "knock":
        return N_(
            "{move}: worth {value} on average (the count is 0 to {n}), more than playing on.",
            move=name,
            value=f"{value:+.1f}",
            n=n,
        )
    outs = report.notes.get("outs", {}).get(str(best))
    pairs = report.notes.get("pairs", {}).get(str(best))
    parts: list[Reason] = []
    if outs:
        parts.append(
            # TRANSLATORS: the English singular has always read "1 card make gin next"
            ngettext(
                "{n} card make gin next ({chance} a draw)",
                "{n} cards make gin next ({chance} a draw)",
                outs,
                n=outs,
                chance=f"{outs / (n + 1):.0%}",
            )
        )
    if pairs:
        parts.append(
            ngettext(
                "{n} pair of cards make gin within two draws",
                "{n} pairs of cards make gin within two draws",
                pairs,
                n=pairs,
            )
        )
    triples = report.notes.get("triples", {}).get(str(best))
    if not parts and triples:
        parts.append(
            N_("nothing makes gin within two draws yet, but {n} sets of three cards make gin within three", n=triples)
        )
    if not parts:
        parts.append(N_("nothing makes gin within two draws yet: it keeps the best structure"))
    rolled = report.notes.get("rollouts", {}).get(str(best))
    facts = joined(i18n.N_(", "), parts)
    if rolled is not None:
        return N_(
            "{move}: {facts}; playing on is worth about {value}, more than going out.",
            move=name,
            facts=facts,
            value=f"{rolled:+.1f}",
        )
    return N_("{move}: {facts}.", move=name, facts=facts)


@register("planner", SOLO_VARIANTS)
class PlannerAgent(Agent):
    """The solitaire planner (stateless; see the module docstring).

    ``rollouts`` orders of the unseen cards are sampled per decision (reproducible: the stream is
    seeded from the agent's seed and the position); ``time_budget`` (seconds) lets it continue
    while time remains; ``objective`` is ``auto`` (gin chance with ``scoring=none``, else points),
    ``win`` or ``points``; ``depth`` is 2 (the two-draw hold model, the default) or 3
    (:func:`three_draw_value`, one draw deeper).  ``hindsight`` (0 or less: off) samples that many orders
    of the unseen cards and scores each discard by :func:`hindsight_steps`; the score breaks the
    model's ties (within ``tolerance``) or, with ``blend`` ``w`` > 0 (playing for gin only), every
    discard is worth the model's chance plus ``w`` times the hindsight chance, over ``1 + w``
    (options under study: neither measured a gain, see ``docs/strength.md``).
    """

    name = "planner"

    def __init__(
        self,
        variant: str,
        seed: int | None = None,
        *,
        rollouts: int = 32,
        time_budget: float | None = None,
        objective: str = "auto",
        knock_margin: float = 16.0,
        shortlist: int = 4,
        depth: int = 2,
        hindsight: int = 0,
        tolerance: float = 0.0,
        blend: float = 0.0,
    ) -> None:
        if variant not in SOLO_VARIANTS:
            raise GinRummyError(
                i18n._("the planner plays the solitaires only, not {variant}").format(variant=repr(variant))
            )
        super().__init__(variant, seed)
        self.rollouts = int(rollouts)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.objective = objective
        self.knock_margin = float(knock_margin)
        self.shortlist = int(shortlist)
        self.depth = int(depth)
        self.hindsight = int(hindsight)
        self.tolerance = float(tolerance)
        self.blend = float(blend)
        if self.depth not in (2, 3):
            raise GinRummyError(
                i18n._("{option} must be 2 or 3, got {value}").format(option="depth", value=repr(depth))
            )
        if self.rollouts < 1 or self.shortlist < 1:
            raise GinRummyError(
                i18n._("{rollouts} and {shortlist} must be at least 1").format(
                    rollouts="rollouts", shortlist="shortlist"
                )
            )
        if objective not in ("auto", "win", "points"):
            raise GinRummyError(objective_error(objective))

    def evaluate(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> PlanReport:
        rules = _rules_for(self.variant, observation, self.objective)
        hand = _mask(observation.get("hand") or [])
        unseen = [_CARD_INDEX[c] for c in observation.get("unseen") or []]
        seed = _mix(self.seed or 0, hand, *unseen)
        return evaluate_actions(
            rules,
            hand,
            unseen,
            legal,
            rollouts=self.rollouts,
            time_budget=self.time_budget,
            seed=seed,
            knock_margin=self.knock_margin,
            shortlist=self.shortlist,
            depth=self.depth,
            hindsight=self.hindsight,
            tolerance=self.tolerance,
            blend=self.blend,
        )

    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        if not legal:
            raise GinRummyError(i18n._("no legal action to choose from"))
        if len(legal) == 1:
            return Decision(legal[0], N_("The only legal action."))
        report = self.evaluate(observation, legal)
        rules = _rules_for(self.variant, observation, self.objective)
        n = len(observation.get("unseen") or [])
        return Decision(report.values[0][0], _explain(rules, report, n), {str(a): v for a, v in report.values})


def advise_solitaire(
    observation: Mapping[str, Any], legal: Sequence[Action], variant: str
) -> list[tuple[Action, float]]:
    """Every legal action with the planner's estimate (gin chance or expected points), best first."""
    if not legal:
        return []
    agent = PlannerAgent(variant, seed=0)
    return list(agent.evaluate(observation, legal).values)

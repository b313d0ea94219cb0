"""Solitaire players: the ``planner`` and the ``clairvoyant`` bound (rule book sections 3 and 4).

Both solitaires share one fact that makes them tractable: the cards the player has not seen are
known exactly (the discards lie under the joker, or face down out of play), and the joker lies
uniformly among the places above the known discards.  From any position, the rest of the hand is a
uniformly random order of the ``n`` unseen cards with the joker at a uniformly random one of the
``n + 1`` places.  So:

* the count ``C`` on ending now (the cards above the joker) is uniform on ``0..n``, and the value of
  knocking or going gin now is an exact average over it;
* along any sequence of play the joker's place is independent of the cards drawn before it, so a
  rollout (one order of the unseen cards) is scored exactly over every place of the joker at once.

The ``planner`` (stateless: everything comes from the observation) values ending now exactly and
each discard by a *hold model* of its gin profile: the unseen cards that make gin on the next draw
(counted exactly: the chance of gin next is ``outs / (n + 1)``) and, for its shortlist, every pair
of unseen cards that makes gin within two draws; the first of those cards or the joker to come
decides (:func:`hold_chance`, :func:`hold_value`).  It plays for the chance of gin
(``scoring=none``, or ``objective=win``) or for expected points (the scored modes, where the
model weighs gin against the deadwood the joker would score); with ``depth=3`` each discard is
valued one draw deeper (:func:`three_draw_value`, from the gins within three draws).  A knock
that beats the model is checked against rollouts of playing on (stratified over the next card, common to
the candidates, each scored exactly over every place of the joker).  A decision takes about a
millisecond (about ten with ``depth=3``).

The ``clairvoyant`` knows the deck order and the joker's place.  It is an analysis tool, never a
player: it must be given the deal (``clairvoyant_value``, ``clairvoyant_line`` or a
:class:`ClairvoyantAgent` built with the state).  Because it may keep any ten of the cards it has
seen (it discards everything else as it comes), its best result on a deal is an exact maximum over
when to stop and with which ten cards; see ``docs/strength.md``.

Fast meld primitives used here (exact, checked against :mod:`ginrummy.melds` in the tests):

* :func:`melded_sizes`: the sizes of every all-melded subset of a card set (as a bit mask);
* :func:`has_gin10`: whether ten of the cards can form a gin hand;
* :func:`min_deadwood_of_ten`: the least deadwood of any ten cards of a set;
* :func:`gin_outs` and :func:`gin_pairs`: the cards, and pairs of cards, that complete a gin.

>>> from ginrummy.cards import CardSet
>>> has_gin10(int(CardSet.parse("2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd Ah")))
True
>>> min_deadwood_of_ten(int(CardSet.parse("2c 3c 4c 7h 7d 9s Ts Js Qs Kd Ah 5h")))
13
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any, Final

from ..actions import Action
from ..cards import CARDS, JOKER, Card
from ..errors import GinRummyError
from ..melds import RUN_DEADWOOD, RUN_MELDED, _set_options, best_discards, min_deadwood
from ..variants import find_variant, solo_variants
from .base import Agent, Decision, register

if TYPE_CHECKING:
    from ..engine import State

__all__ = [
    "SOLO_VARIANTS",
    "ClairvoyantAgent",
    "ClairvoyantResult",
    "PlanReport",
    "PlannerAgent",
    "SoloRules",
    "advise_solitaire",
    "clairvoyant_line",
    "clairvoyant_value",
    "evaluate_actions",
    "gin_completions",
    "gin_outs",
    "gin_pairs",
    "has_gin10",
    "hold_chance",
    "hold_value",
    "melded_sizes",
    "min_deadwood_of_ten",
    "rollout_value",
    "three_draw_value",
]

SOLO_VARIANTS: Final = solo_variants()
_SUIT: Final = 0x1FFF
_VALUES: Final = tuple(c.value for c in CARDS)
_RANK_MASKS: Final = tuple((1 << r) | (1 << (r + 13)) | (1 << (r + 26)) | (1 << (r + 39)) for r in range(13))
_CAP: Final = (1 << 12) - 1  # sizes 0..11 are all that a hand of ten or eleven needs
_INF: Final = 1 << 20


# --- Sizes of all-melded subsets ----------------------------------------------------------------
def _build_size_tables() -> tuple[list[int], list[int], list[int]]:
    """Per 13-bit suit pattern: the sizes (bit k = k cards) of its subsets melded by runs alone.

    A maximal run of length L gives any size in {0} U [3, L] (one sub-run, or none; longer runs
    split into pieces of three or more); the suit's sizes are the sums over its runs.  Only 16
    distinct size masks occur and they are closed under sums, so the sum of two suits is one
    lookup in a 16 x 16 table of mask ids.
    """

    def add(a: int, b: int) -> int:
        r = 0
        while a:
            low = a & -a
            a ^= low
            r |= b << (low.bit_length() - 1)
        return r & _CAP

    masks = [0] * 8192
    for x in range(8192):
        m = 1
        r = 0
        while r < 13:
            if x >> r & 1:
                s = r
                while r < 13 and x >> r & 1:
                    r += 1
                if r - s >= 3:
                    m = add(m, 1 | sum(1 << k for k in range(3, r - s + 1)))
            else:
                r += 1
        masks[x] = m
    distinct = sorted(set(masks))
    changed = True
    while changed:  # close under sums (it already is; this keeps the table honest if it were not)
        changed = False
        for a in list(distinct):
            for b in list(distinct):
                c = add(a, b)
                if c not in distinct:
                    distinct.append(c)
                    changed = True
    index = {m: i for i, m in enumerate(distinct)}
    n = len(distinct)
    ids = [index[m] for m in masks]
    sums = [index[add(distinct[i], distinct[j])] for i in range(n) for j in range(n)]
    return ids, sums, distinct


_SIZE_ID, _SIZE_SUM, _SIZE_MASK = _build_size_tables()
_NSIZE: Final = len(_SIZE_MASK)


def _run_sizes(s: int) -> int:
    """Sizes of the subsets of ``s`` melded by runs alone (bit mask, sizes up to 11)."""
    ids = _SIZE_ID
    sm = _SIZE_SUM
    n = _NSIZE
    i = sm[ids[s & _SUIT] * n + ids[s >> 13 & _SUIT]]
    j = sm[ids[s >> 26 & _SUIT] * n + ids[s >> 39 & _SUIT]]
    return _SIZE_MASK[sm[i * n + j]]


def _candidates(s: int) -> int:
    a = s & _SUIT
    b = s >> 13 & _SUIT
    c = s >> 26 & _SUIT
    d = s >> 39 & _SUIT
    return (a & b & (c | d)) | (c & d & (a | b))


def _set_choices(s: int, t: int) -> list[list[int]]:
    """For each candidate rank of ``t``: the sets of it that ``s`` holds (the four, or each three)."""
    return [opts[1:] for opts in _set_options(s, t)]  # the meld engine's options, less "no set"


def melded_sizes(cards: int) -> int:
    """The sizes of all the all-melded subsets of ``cards`` (a mask), as bits 0..11.

    Exact: every way of using at most three sets (all a hand of eleven can hold) is tried, and
    the rest is scored by runs alone.

    >>> from ginrummy.cards import CardSet
    >>> sizes = melded_sizes(int(CardSet.parse("5c 5d 5h 5s 6s 7s")))
    >>> [k for k in range(12) if sizes >> k & 1]
    [0, 3, 4, 6]
    """
    base = _run_sizes(cards)
    t = _candidates(cards)
    if not t:
        return base
    choices = _set_choices(cards, t)
    out = base

    def walk(i: int, rest: int, used: int, depth: int) -> None:
        nonlocal out
        for k in range(i, len(choices)):
            for st in choices[k]:
                if st & ~rest:
                    continue
                u = used + st.bit_count()
                if u > 11:
                    continue
                r2 = rest & ~st
                out |= (_run_sizes(r2) << u) & _CAP
                if depth < 2:
                    walk(k + 1, r2, u, depth + 1)

    walk(0, cards, 0, 0)
    return out


def has_gin10(cards: int) -> bool:
    """Whether some ten of ``cards`` are all melded (gin, rule 0.6), for any number of cards."""
    if _run_sizes(cards) >> 10 & 1:
        return True
    if not _candidates(cards):
        return False
    return bool(melded_sizes(cards) >> 10 & 1)


def _meld_sizes_with(cards: int, card: int) -> int:
    """Sizes of the all-melded subsets of ``cards`` that contain ``card`` (in one of the melds)."""
    out = 0
    bit = 1 << card
    r = card % 13
    held = cards & _RANK_MASKS[r]
    if held.bit_count() >= 3:
        sets = [held]
        if held.bit_count() == 4:
            y = held
            while y:
                low = y & -y
                y ^= low
                sets.append(held ^ low)
        for st in sets:
            if st & bit:
                out |= melded_sizes(cards & ~st) << st.bit_count()
    suit = card // 13
    base = 13 * suit
    x = cards >> base & _SUIT
    lo = r
    while lo > 0 and x >> (lo - 1) & 1:
        lo -= 1
    hi = r
    while hi < 12 and x >> (hi + 1) & 1:
        hi += 1
    for a in range(lo, r + 1):
        for b in range(max(r, a + 2), hi + 1):
            run = ((1 << (b - a + 1)) - 1) << (base + a)
            out |= melded_sizes(cards & ~run) << (b - a + 1)
    return out & _CAP


# --- Least deadwood of ten cards out of many ----------------------------------------------------
@lru_cache(maxsize=1)
def _k_tables() -> tuple[tuple[int, ...], ...]:
    """Per suit pattern: for k = 0..min(10, cards), the least run-only deadwood of k of its cards.

    A subset-minimum transform per k over the 13 bits (NumPy when installed, else pure Python).
    """
    pop = [x.bit_count() for x in range(8192)]
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - exercised only without NumPy
        cols = []
        for k in range(11):
            g = [RUN_DEADWOOD[x] if pop[x] == k else _INF for x in range(8192)]
            for b in range(13):
                bit = 1 << b
                for x in range(8192):
                    if x & bit and g[x ^ bit] < g[x]:
                        g[x] = g[x ^ bit]
            cols.append(g)
        return tuple(tuple(cols[k][x] for k in range(min(10, pop[x]) + 1)) for x in range(8192))
    rd = np.array(RUN_DEADWOOD, dtype=np.int64)
    pc = np.array(pop)
    xs = np.arange(8192)
    table = np.full((11, 8192), _INF, dtype=np.int64)
    for k in range(11):
        col = np.where(pc == k, rd, _INF)
        for b in range(13):
            bit = 1 << b
            has = (xs & bit) != 0
            col = np.where(has, np.minimum(col, col[xs ^ bit]), col)
        table[k] = col
    tl = table.T.tolist()
    return tuple(tuple(tl[x][: min(10, pop[x]) + 1]) for x in range(8192))


def _minplus(f: Sequence[int], g: Sequence[int], cap: int) -> list[int]:
    out = [_INF] * (min(cap, len(f) + len(g) - 2) + 1)
    for i, a in enumerate(f):
        if a >= _INF or i > cap:
            continue
        for j in range(min(len(g), cap - i + 1)):
            v = a + g[j]
            if v < out[i + j]:
                out[i + j] = v
    return out


def _runs_min_k(cards: int, k: int) -> int:
    """Least deadwood of exactly ``k`` cards of ``cards`` with no sets."""
    tab = _k_tables()
    ab = _minplus(tab[cards & _SUIT], tab[cards >> 13 & _SUIT], k)
    cd = _minplus(tab[cards >> 26 & _SUIT], tab[cards >> 39 & _SUIT], k)
    best = _INF
    for i, a in enumerate(ab):
        j = k - i
        if 0 <= j < len(cd):
            v = a + cd[j]
            if v < best:
                best = v
    return best


def min_deadwood_of_ten(cards: int, k: int = 10) -> int:
    """The least deadwood of any ``k`` (ten) cards of ``cards`` (rule 0.6), exactly.

    Every way of using at most three sets is tried; the rest is a min-plus sum over the suits of
    each suit's best run-only ``j`` cards.
    """
    n = cards.bit_count()
    if n < k:
        raise GinRummyError(f"need at least {k} cards, got {n}")
    if n == k:
        return min_deadwood(cards)
    best = _runs_min_k(cards, k)
    t = _candidates(cards)
    if not t or best == 0:
        return best
    choices = _set_choices(cards, t)

    def walk(i: int, rest: int, used: int, depth: int) -> None:
        nonlocal best
        for c in range(i, len(choices)):
            for st in choices[c]:
                if st & ~rest:
                    continue
                u = used + st.bit_count()
                if u > k:
                    continue
                r2 = rest & ~st
                v = _runs_min_k(r2, k - u)
                if v < best:
                    best = v
                if best == 0:
                    return
                if depth < 2:
                    walk(c + 1, r2, u, depth + 1)
                    if best == 0:
                        return

    walk(0, cards, 0, 0)
    return best


# --- The rules as the planner needs them --------------------------------------------------------
@dataclass(frozen=True)
class SoloRules:
    """The options of a solitaire that matter to play, and the value of each way a hand ends.

    ``objective`` is ``win`` (the chance of gin before the joker: 1 for gin or big gin, else 0) or
    ``points`` (the player's points minus the Joker's).  ``scoring=none`` forces ``win``.
    """

    variant: str
    scoring: str = "knock"  # none | basic | knock (gin-solitaire: knock)
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = False
    big_gin: bool = False
    count_includes_joker: bool = False
    end_at_start: bool = False  # end_before_first_draw (3.4) / end_after_opening_discard (4.2)
    objective: str = "points"
    _sums: dict[tuple[str, int, int], float] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, variant: str, options: Mapping[str, Any] | None = None, objective: str = "auto") -> SoloRules:
        """The rules of ``variant`` with ``options`` (validated as the engine does)."""
        from ..options import options_for

        if variant not in SOLO_VARIANTS:
            raise GinRummyError(f"not a solitaire variant: {variant!r} (expected one of {', '.join(SOLO_VARIANTS)})")
        o = options_for(variant, dict(options or {})).to_dict()
        scoring = str(o.get("scoring", "knock"))
        if objective == "auto":
            objective = "win" if scoring == "none" else "points"
        if objective not in ("win", "points"):
            raise GinRummyError(f"objective must be auto, win or points, got {objective!r}")
        if scoring == "none":
            objective = "win"
        return cls(
            variant=variant,
            scoring=scoring,
            knock_limit=int(o["knock_limit"]),
            gin_bonus=int(o["gin_bonus"]),
            big_gin_bonus=int(o["big_gin_bonus"]),
            undercut_bonus=int(o["undercut_bonus"]),
            undercut_on_tie=bool(o["undercut_on_tie"]),
            big_gin=bool(o["big_gin"]),
            count_includes_joker=bool(o["count_includes_joker"]),
            end_at_start=bool(o.get("end_before_first_draw", o.get("end_after_opening_discard", False))),
            objective=objective,
        )

    @property
    def dealt(self) -> int:
        return find_variant(self.variant).dealt

    @property
    def deck_real(self) -> int:
        """Real cards in the deck below the deal (the joker can be above any of them or last)."""
        return 52 - self.dealt

    @property
    def may_knock(self) -> bool:
        return self.scoring == "knock" and self.objective == "points"

    def end_value(self, event: str, counted: int, deadwood: int) -> int:
        """The value of a hand ending by ``event`` (gin, big-gin, knock, joker) with the count C
        (before ``count_includes_joker``) and deadwood D: rules 3.5-3.8 and 4.5-4.6."""
        if self.objective == "win":
            return 1 if event in ("gin", "big-gin") else 0
        if event == "joker":
            return -deadwood
        c = counted + (1 if self.count_includes_joker else 0)
        if self.scoring == "basic":
            return c
        if event == "big-gin":
            return c + self.big_gin_bonus
        if event == "gin":
            return c + self.gin_bonus
        if c > deadwood:
            return c - deadwood
        if deadwood > c or self.undercut_on_tie:
            return -(deadwood - c + self.undercut_bonus)
        return 0

    def end_sum(self, event: str, deadwood: int, m: int) -> float:
        """The sum of :meth:`end_value` over the counts 0..m (m + 1 equally likely places)."""
        key = (event, deadwood, m)
        v = self._sums.get(key)
        if v is None:
            v = float(sum(self.end_value(event, c, deadwood) for c in range(m + 1)))
            self._sums[key] = v
        return v

    def end_mean(self, event: str, deadwood: int, n: int) -> float:
        """The expected value of ending now with ``n`` unseen cards (C uniform on 0..n)."""
        return self.end_sum(event, deadwood, n) / (n + 1)

    def gin_value(self, counted: float) -> float:
        """The value of gin with a (possibly average) count C: linear in C, so it also gives the
        average over counts."""
        if self.objective == "win":
            return 1.0
        c = counted + (1 if self.count_includes_joker else 0)
        return c if self.scoring == "basic" else c + self.gin_bonus

    def loss(self, deadwood: int) -> int:
        """The value when the joker comes first, holding ``deadwood``."""
        return 0 if self.objective == "win" else -deadwood


# --- The clairvoyant bound ----------------------------------------------------------------------
@dataclass(frozen=True)
class ClairvoyantResult:
    """The clairvoyant's best result on one deck order, for every place of the joker.

    ``values[j]`` is the best value with ``j`` real cards above the joker (joker at place j + 1),
    ``mean`` their average (the joker's place is uniform), ``gin_step`` the fewest draws to gin
    (None if the deck never gives one).
    """

    values: tuple[float, ...]
    gin_step: int | None
    stops: tuple[tuple[int, str] | None, ...] = ()  # per j: (draws, event) of the best line, None = the joker

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)


def _split_deck(rules: SoloRules, deck: Sequence[int]) -> tuple[list[int], list[int], int]:
    """(dealt cards, real deck cards in order, joker place) of a deck given top first."""
    cards = [int(c) for c in deck]
    dealt = cards[: rules.dealt]
    rest = cards[rules.dealt :]
    if JOKER in dealt:
        raise GinRummyError("the joker was dealt: there is nothing to play (the deal is void or lost at once)")
    j = rest.index(JOKER) if JOKER in rest else len(rest)
    return dealt, [c for c in rest if c != JOKER], j


def clairvoyant_value(
    rules: SoloRules, held: Sequence[int] | int, order: Sequence[int], *, start: bool | None = None
) -> ClairvoyantResult:
    """Exact best results knowing the deck.

    ``held`` is the cards in hand (the ten or eleven dealt, or the ten kept after a discard),
    ``order`` the real cards still to come in draw order (the joker taken out); ``start`` says
    whether the hand may end before the next draw (default: the rules' ``end_at_start`` for a deal;
    pass False after a discard).

    Knowing the order, the player can hold any ten of the cards seen so far (keep those, discard
    everything else as it comes), so with the joker after ``j`` more real cards the best result is
    the best over ``t <= j`` of stopping after ``t`` draws with the best ten of ``held + order[:t]``
    (gin, big gin with the card just drawn, or a knock with the least deadwood), or of meeting the
    joker holding the ten with the least deadwood.  Every quantity is exact: no sampling, no
    pruning of value.
    """
    if isinstance(held, int):
        seen = held
    else:
        seen = 0
        for c in held:
            seen |= 1 << int(c)
    if start is None:
        start = rules.end_at_start
    first = 0 if start else 1
    n = len(order)
    scored = rules.objective == "points"
    gin: list[bool] = []
    big: list[bool] = []
    dw: list[int] = []
    gin_step: int | None = None
    for t in range(n + 1):
        if t:
            seen |= 1 << int(order[t - 1])
        if gin_step is not None:
            g = True
        elif seen.bit_count() == 10:
            g = min_deadwood(seen) == 0
        else:
            g = has_gin10(seen)
        b = False
        if rules.big_gin and t >= 1 and (gin_step is None or t - gin_step < 7):
            b = bool(_meld_sizes_with(seen, int(order[t - 1])) >> 11 & 1)
        gin.append(g)
        big.append(b)
        if scored:
            dw.append(0 if g else min_deadwood_of_ten(seen))
        if g and t >= first and gin_step is None:
            gin_step = t
        if gin_step is not None and t - gin_step >= 7 and not scored:
            break
    values = []
    stops: list[tuple[int, str] | None] = []
    for j in range(n + 1):  # j real cards above the joker
        if not scored:
            stop: tuple[int, str] | None = None
            if gin_step is not None and gin_step <= j:
                stop = (gin_step, "gin")
            elif rules.big_gin:
                hit = next((t for t in range(1, min(j, len(big) - 1) + 1) if big[t]), None)
                stop = None if hit is None else (hit, "big-gin")
            values.append(1.0 if stop else 0.0)
            stops.append(stop)
            continue
        best = float(rules.end_value("joker", 0, dw[j]))
        stop = None
        for t in range(first, j + 1):
            c = j - t
            if gin[t]:
                v = rules.end_value("gin", c, 0)
                if v > best:
                    best, stop = v, (t, "gin")
            if big[t]:
                v = rules.end_value("big-gin", c, 0)
                if v > best:
                    best, stop = v, (t, "big-gin")
            if rules.may_knock and 0 < dw[t] <= rules.knock_limit:
                v = rules.end_value("knock", c, dw[t])
                if v > best:
                    best, stop = v, (t, "knock")
        values.append(best)
        stops.append(stop)
    return ClairvoyantResult(tuple(values), gin_step, tuple(stops))


def clairvoyant_line(rules: SoloRules, deck: Sequence[int]) -> tuple[float, tuple[int, str] | None]:
    """The clairvoyant's best value on a full deck (top first, joker included) and its line:
    (draws, event) where it goes out, or None when it meets the joker."""
    dealt, order, j = _split_deck(rules, deck)
    res = clairvoyant_value(rules, dealt, order)
    return res.values[j], res.stops[j]


# --- Outs: the cards (and pairs of cards) that complete a gin -------------------------------------
def _neighbours() -> tuple[int, ...]:
    out = []
    for c in range(52):
        r, s = c % 13, c // 13
        m = _RANK_MASKS[r] & ~(1 << c)
        for d in (-2, -1, 1, 2):
            if 0 <= r + d < 13:
                m |= 1 << (r + d + 13 * s)
        out.append(m)
    return tuple(out)


_NEAR: Final = _neighbours()
"""For each card: the cards that can share a meld of three with it (its rank, two either side)."""


def _near(mask: int) -> int:
    out = 0
    y = mask
    while y:
        low = y & -y
        y ^= low
        out |= _NEAR[low.bit_length() - 1]
    return out


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def _build_melds_with() -> tuple[tuple[int, ...], ...]:
    """For each card: every meld that holds it, as masks (runs of three to five: a longer run is
    two shorter ones; sets of three and four)."""
    out = []
    for x in range(52):
        r, s = x % 13, x // 13
        ms = []
        for a in range(max(0, r - 4), r + 1):
            for ln in (3, 4, 5):
                if a + ln - 1 >= r and a + ln <= 13:
                    ms.append(((1 << ln) - 1) << (13 * s + a))
        others = _RANK_MASKS[r] & ~(1 << x)
        ms.append(_RANK_MASKS[r])
        for skip in _bits(others):
            ms.append(_RANK_MASKS[r] & ~(1 << skip))
        out.append(tuple(ms))
    return tuple(out)


_MELDS_WITH: Final = _build_melds_with()


def gin_completions(hand: int, unseen: int, budget: int, size: int = 10) -> dict[int, set[int]]:
    """Every way to complete a gin of ``size`` (ten) cards from ``hand`` with at most ``budget``
    unseen cards: ``{used: {dropped, ...}}``, the unseen cards used (a mask) and, for each, the
    sets of held cards left out (masks) of the gin hands they make.

    A depth-first search over meld partitions: the lowest held card still open is either left out
    or melded with cards that are open, or unseen and not yet used; runs longer than five are two
    shorter runs, so melds are runs of three to five and sets of three or four.  A gin hand holds
    ``size`` cards, so ``len(hand) - size + len(used)`` held cards are left out.

    >>> from ginrummy.cards import CardSet
    >>> hand = int(CardSet.parse("2c 3c 4c 7h 7d 7s 9s Ts Js Kd"))
    >>> sorted(str(CardSet(u)) for u in gin_completions(hand, int(CardSet.parse("Qs Kh Ks 5c")), 1))
    ['5c', 'Qs']
    """
    extra = hand.bit_count() - size
    maxd = extra + budget
    res: dict[int, set[int]] = {}
    melds_with = _MELDS_WITH

    def dfs(rem: int, drops: int, dropped: int, used: int, nused: int) -> None:
        if not rem:
            if drops == extra + nused:
                got = res.get(used)
                if got is None:
                    res[used] = {dropped}
                else:
                    got.add(dropped)
            return
        low = rem & -rem
        if drops < maxd:
            dfs(rem ^ low, drops + 1, dropped | low, used, nused)
        ok = rem | (unseen & ~used)
        for m in melds_with[low.bit_length() - 1]:
            if m & ~ok:
                continue
            nu = m & unseen
            if nu:
                k = nused + nu.bit_count()
                if k <= budget:
                    dfs(rem & ~m, drops, dropped, used | nu, k)
            else:
                dfs(rem & ~m, drops, dropped, used, nused)

    if maxd >= 0:
        dfs(hand, 0, 0, 0, 0)
    return res


def _outs_of(comps: Mapping[int, set[int]], hand: int, unseen: int) -> int:
    if 0 in comps:  # the hand is a gin already: count the cards that could join it
        return _near(hand) & unseen
    out = 0
    for u in comps:
        if u.bit_count() == 1:
            out |= u
    return out


def gin_outs(hand: int, unseen: int) -> int:
    """The unseen cards (a mask) that give ``hand`` (ten cards) a gin when drawn (for a hand that
    is a gin already: the unseen cards that can share a meld with it)."""
    return _outs_of(gin_completions(hand, unseen, 1), hand, unseen)


def gin_pairs(hand: int, unseen: int, outs: int | None = None) -> dict[int, int]:
    """For each unseen card that is not a gin out: how many other such cards complete a gin of
    ``hand`` with it (the pairs of the two-draw lookahead; cards in no pair are left out)."""
    comps = gin_completions(hand, unseen, 2)
    if 0 in comps:
        return {}
    if outs is None:
        outs = _outs_of(comps, hand, unseen)
    deg: dict[int, int] = {}
    for u in comps:
        if u.bit_count() == 2 and not u & outs:
            low = u & -u
            for c in (low.bit_length() - 1, (u ^ low).bit_length() - 1):
                deg[c] = deg.get(c, 0) + 1
    return deg


# --- The planner --------------------------------------------------------------------------------
def _melded(hand: int) -> int:
    """The cards in melds of an arrangement melding the most cards (sets tried as in rule 0.6)."""
    t = _candidates(hand)
    ways = [0]
    if t:
        for combo in product(*([0, *opts] for opts in _set_choices(hand, t))):
            used = 0
            ok = True
            for st in combo:
                if st & used:
                    ok = False
                    break
                used |= st
            if ok and used:
                ways.append(used)
    best = -1
    out = 0
    for sets in ways:
        rest = hand & ~sets
        m = sets
        for k in range(4):
            m |= RUN_MELDED[rest >> (13 * k) & _SUIT] << (13 * k)
        n = m.bit_count()
        if n > best:
            best, out = n, m
    return out


def _keep_value(card: int, hand: int, unseen: int, melded: int) -> float:
    """How much a card is worth keeping for gin: a melded card is kept; an unmatched one is worth
    its live partial melds with held cards (a pair of its rank, or two of a suit one or two apart,
    weighted by the unseen cards that would make them a meld), plus a little for its unseen
    neighbours."""
    if melded >> card & 1:
        return 100.0
    r, s = card % 13, card // 13
    v = 0.3 * (_NEAR[card] & unseen).bit_count()
    y = _NEAR[card] & hand
    while y:
        low = y & -y
        y ^= low
        d = low.bit_length() - 1
        dr = d % 13
        if dr == r:
            live = (_RANK_MASKS[r] & unseen).bit_count()
        else:
            lo, hi = min(r, dr), max(r, dr)
            base = 13 * s
            if hi - lo == 1:
                live = (lo > 0 and unseen >> (base + lo - 1) & 1) + (hi < 12 and unseen >> (base + hi + 1) & 1)
            else:
                live = unseen >> (base + lo + 1) & 1
        v += 3.0 * live
    return v


def _high_card(mask: int) -> int:
    """The card to throw among equally good discards: the highest value, then rank, then suit."""
    best = -1
    key = (-1, -1, -1)
    y = mask
    while y:
        low = y & -y
        y ^= low
        c = low.bit_length() - 1
        k = (_VALUES[c], c % 13, c // 13)
        if k > key:
            key, best = k, c
    return best


def hold_chance(outs: int, degrees: Mapping[int, int]) -> float:
    """The planner's two-draw model of the chance of gin before the joker.

    With ``outs`` gin outs and, for each other useful card, ``degrees[c]`` partners that complete a
    gin with it, look at the first of these cards or the joker to come (all orders equally
    likely, whatever else is in the deck): the joker loses, an out wins, a useful card ``c`` leaves
    ``outs + degrees[c]`` outs, which win if one comes before the joker (``k / (k + 1)``).  Exact
    for a hand one card from gin held to the end; an estimate otherwise (later improvements and
    conflicts between pairs are ignored).

    >>> hold_chance(3, {})
    0.75
    >>> round(hold_chance(0, {10: 1, 11: 1}), 4)  # one pair: both cards before the joker
    0.3333
    """
    s = float(outs)
    for d in sorted(degrees.values()):  # in a fixed order: equal profiles give equal values
        k = outs + d
        s += k / (k + 1)
    return s / (outs + len(degrees) + 1)


def _count_after_first(specials: int, n: float) -> float:
    """Expected count C when the first of ``specials`` special items (the joker one of them) among
    ``n + 1`` equally likely places is not the joker: the items strictly between it and the joker."""
    gap = max(0.0, (n + 1 - specials) / (specials + 1))  # expected other items between two specials
    return (specials - 2) / 2 + specials / 2 * gap


def hold_value(rules: SoloRules, outs: int, degrees: Mapping[int, int], n: float, dead: int) -> float:
    """The two-draw hold model of :func:`hold_chance`, valued in the objective's units.

    The first of the outs, the useful pair cards and the joker to come decides: the joker scores
    the deadwood ``dead`` against the player; an out is gin with the average count between it and
    the joker; a pair card leaves ``outs + degree`` outs, held the same way (its count from the
    places left).  With ``objective=win`` this is :func:`hold_chance` exactly.

    >>> r = SoloRules.of("solitaire", {"scoring": "none"})
    >>> hold_value(r, 3, {}, 30, 12) == hold_chance(3, {})
    True
    """
    specials = outs + len(degrees) + 1
    total = float(rules.loss(dead))  # the joker first
    if outs:
        total += outs * rules.gin_value(_count_after_first(specials, n))
    if degrees:
        later = n - (n + 1) / (specials + 1)  # unseen cards left when the first special comes
        for d in sorted(degrees.values()):
            k = outs + d
            gin = rules.gin_value(_count_after_first(k + 1, later))
            total += (k * gin + rules.loss(dead)) / (k + 1)
    return total / specials


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
        model, notes = _evaluate_model(rules, hand, um, n, cont, shortlist, deadline, depth)
        values.update(model)
        return PlanReport(_ranked(values), 0, notes)
    return _evaluate_points(
        rules, hand, unseen, cont, values, rollouts, time_budget, seed, knock_margin, shortlist, depth
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


def _evaluate_model(
    rules: SoloRules,
    hand: int,
    um: int,
    n: int,
    cont: dict[Action, int],
    shortlist: int,
    deadline: float | None = None,
    depth: int = 2,
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
    return values, notes


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
) -> PlanReport:
    """Discards by the hold model; a knock (or gin) that beats the best discard's model value is
    checked against rollouts of playing on from the two best discards."""
    n = len(unseen)
    um = 0
    for c in unseen:
        um |= 1 << c
    start = time.perf_counter()
    deadline = None if time_budget is None else start + time_budget / 2
    model, notes = _evaluate_model(rules, hand, um, n, cont, shortlist, deadline, depth)
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


# --- Agents -------------------------------------------------------------------------------------
_CARD_INDEX: Final = {str(c): int(c) for c in CARDS}


def _mask(cards: Sequence[str]) -> int:
    m = 0
    for s in cards:
        m |= 1 << _CARD_INDEX[s]
    return m


def _rules_for(variant: str, observation: Mapping[str, Any], objective: str) -> SoloRules:
    opts = observation.get("options") or {}
    return _cached_rules(variant, tuple(sorted(opts.items())), objective)


@lru_cache(maxsize=64)
def _cached_rules(variant: str, opts: tuple[tuple[str, Any], ...], objective: str) -> SoloRules:
    return SoloRules.of(variant, dict(opts), objective)


def _explain(rules: SoloRules, report: PlanReport, n: int) -> str:
    """One sentence on the choice, in the terms the planner used (outs, pairs, counts)."""
    best, value = report.values[0]
    name = str(best)[:1].upper() + str(best)[1:]
    if best.kind == "gin":
        if rules.objective == "win":
            return f"{name}: the hand is won."
        return f"{name}: worth {value:+.1f} on average (the count is 0 to {n})."
    if best.kind == "knock":
        return f"{name}: worth {value:+.1f} on average (the count is 0 to {n}), more than playing on."
    outs = report.notes.get("outs", {}).get(str(best))
    pairs = report.notes.get("pairs", {}).get(str(best))
    parts = []
    if outs:
        parts.append(f"{outs} card{'s' if outs != 1 else ''} make gin next ({outs / (n + 1):.0%} a draw)")
    if pairs:
        parts.append(f"{pairs} pair{'s' if pairs != 1 else ''} of cards make gin within two draws")
    triples = report.notes.get("triples", {}).get(str(best))
    if not parts and triples:
        parts.append(f"nothing makes gin within two draws yet, but {triples} sets of three cards make gin within three")
    if not parts:
        parts.append("nothing makes gin within two draws yet: it keeps the best structure")
    rolled = report.notes.get("rollouts", {}).get(str(best))
    tail = f"; playing on is worth about {rolled:+.1f}, more than going out" if rolled is not None else ""
    return f"{name}: " + ", ".join(parts) + tail + "."


@register("planner", SOLO_VARIANTS)
class PlannerAgent(Agent):
    """The solitaire planner (stateless; see the module docstring).

    ``rollouts`` orders of the unseen cards are sampled per decision (reproducible: the stream is
    seeded from the agent's seed and the position); ``time_budget`` (seconds) lets it continue
    while time remains; ``objective`` is ``auto`` (gin chance with ``scoring=none``, else points),
    ``win`` or ``points``; ``depth`` is 2 (the two-draw hold model, the default) or 3
    (:func:`three_draw_value`, one draw deeper).
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
    ) -> None:
        if variant not in SOLO_VARIANTS:
            raise GinRummyError(f"the planner plays the solitaires only, not {variant!r}")
        super().__init__(variant, seed)
        self.rollouts = int(rollouts)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.objective = objective
        self.knock_margin = float(knock_margin)
        self.shortlist = int(shortlist)
        self.depth = int(depth)
        if self.depth not in (2, 3):
            raise GinRummyError(f"depth must be 2 or 3, got {depth!r}")
        if self.rollouts < 1 or self.shortlist < 1:
            raise GinRummyError("rollouts and shortlist must be at least 1")
        if objective not in ("auto", "win", "points"):
            raise GinRummyError(f"objective must be auto, win or points, got {objective!r}")

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
        )

    def decide(self, observation: dict[str, Any], legal: Sequence[Action]) -> Decision:
        if not legal:
            raise GinRummyError("no legal action to choose from")
        if len(legal) == 1:
            return Decision(legal[0], "The only legal action.")
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


@register("clairvoyant", SOLO_VARIANTS)
class ClairvoyantAgent(Agent):
    """The upper bound: plays perfectly knowing the deck order and the joker's place.

    Analysis only.  It must be given the deal: ``state`` (it reads the deck of the hand in play,
    ``state.logs[-1].deck``) or ``deck`` (top first, joker included).  Without one it refuses to
    act (raises :class:`GinRummyError`): it is registered only so that ``make_agent`` can build it
    for analysis tools, never to sit at a table.
    """

    name = "clairvoyant"

    def __init__(
        self,
        variant: str,
        seed: int | None = None,
        *,
        state: State | None = None,
        deck: Sequence[int | str] | None = None,
        objective: str = "auto",
    ) -> None:
        if variant not in SOLO_VARIANTS:
            raise GinRummyError(f"the clairvoyant plays the solitaires only, not {variant!r}")
        super().__init__(variant, seed)
        self.state = state
        self.deck = None if deck is None else [_card_int(c) for c in deck]
        self.objective = objective

    def _deck(self) -> list[int]:
        if self.deck is not None:
            return self.deck
        if self.state is not None and self.state.logs:
            return [int(c) for c in self.state.logs[-1].deck]
        raise GinRummyError(
            "the clairvoyant is an analysis tool that must be given the deal (state= or deck=); "
            "it cannot play from an observation"
        )

    def evaluate(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """Every legal action with its exact value knowing the deck, best first."""
        rules = _rules_for(self.variant, observation, self.objective)
        deck = self._deck()
        dealt_cards, order, joker_at = _split_deck(rules, deck)
        hand = _mask(observation.get("hand") or [])
        discards = observation.get("discards") or []
        drawn = hand.bit_count() + len(discards) - rules.dealt
        seen = sum(1 << c for c in dealt_cards) | sum(1 << c for c in order[:drawn])
        if hand & ~seen:
            raise GinRummyError("the observation does not belong to the clairvoyant's deal")
        rest = order[drawn:]
        above = joker_at - drawn  # real cards left above the joker
        if above < 0:
            raise GinRummyError("the joker has already come: the hand is over")
        out = []
        for a in legal:
            if a.kind in ("gin", "knock"):
                kept = hand if a.card is None else hand & ~(1 << int(a.card))
                event = "big-gin" if a.kind == "gin" and a.card is None and hand.bit_count() == 11 else a.kind
                v = float(rules.end_value(event, above, 0 if a.kind == "gin" else min_deadwood(kept)))
            elif a.kind == "discard" and a.card is not None:
                v = clairvoyant_value(rules, hand & ~(1 << int(a.card)), rest, start=False).values[above]
            elif a.kind == "draw":
                v = clairvoyant_value(rules, hand, rest, start=False).values[above]
            else:  # pragma: no cover
                v = -math.inf
            out.append((a, v))
        out.sort(key=lambda t: (-t[1], t[0].id if t[0].melds is None else 0))
        return out

    def decide(self, observation: dict[str, Any], legal: Sequence[Action]) -> Decision:
        if not legal:
            raise GinRummyError("no legal action to choose from")
        ranked = self.evaluate(observation, legal)
        best, value = ranked[0]
        return Decision(best, f"Knowing the deck: best result {value:g}.", {str(a): v for a, v in ranked})


def _card_int(c: int | str) -> int:
    if isinstance(c, str):
        return int(Card.parse(c))
    return int(c)

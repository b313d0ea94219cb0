"""Fast meld primitives of the solitaire players (exact, checked against :mod:`ginrummy.melds` in the tests).

* :func:`melded_sizes`: the sizes of every all-melded subset of a card set (as a bit mask);
* :func:`has_gin10`: whether ten of the cards can form a gin hand;
* :func:`min_deadwood_of_ten`: the least deadwood of any ten cards of a set;
* :func:`gin_completions`, :func:`gin_outs` and :func:`gin_pairs`: the cards, and pairs of cards, that complete a gin.

Cards are ints 0..51 (``13 * suit + rank``), card sets bit masks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import product
from typing import Final

from .. import i18n
from ..cards import CARDS
from ..errors import GinRummyError
from ..melds import RUN_DEADWOOD, RUN_MELDED, _set_options, min_deadwood

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
        raise GinRummyError(
            i18n.ngettext("need at least {k} cards, got {n}", "need at least {k} cards, got {n}", n).format(k=k, n=n)
        )
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

"""The meld engine: melds, exact minimum deadwood, best discards and layoffs (rule book section 0).

Hands are 52-bit masks (see :class:`ginrummy.cards.CardSet`), 13 bits a suit.  The hot path never
enumerates meld combinations: only a rank held in three or four suits can form a set, so for each
way of using such sets (usually none, at most 6**3 ways) the cards left in each suit are scored by
runs alone, and a run-only suit pattern's deadwood is one lookup in a 8,192-entry table (rule 0.6).

>>> from ginrummy.cards import CardSet
>>> h = CardSet.parse("7c 7d 7h 8h 9h 2s 3s 4s Kd Qc")
>>> min_deadwood(h)
34
>>> a = best_arrangement(h)
>>> [str(CardSet.of(m)) for m in a.melds], a.deadwood
(['7h 8h 9h', '2s 3s 4s'], 34)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from .cards import CARDS, Card, CardSet, format_cards
from .errors import CardError

__all__ = [
    "Arrangement",
    "Defense",
    "Meld",
    "all_melds",
    "best_arrangement",
    "best_defense",
    "best_discard_deadwood",
    "best_discards",
    "can_lay_off",
    "deadwood_after_discards",
    "deadwood_after_each",
    "hand_mask",
    "is_meld",
    "is_run",
    "is_set",
    "lay_off",
    "lay_off_all",
    "layoff_closure",
    "min_deadwood",
    "min_deadwood_many",
    "optimal_arrangements",
]

Meld = tuple[Card, ...]
"""A meld as its cards in engine order (sets by suit, runs by rank)."""

SUIT_BITS: Final = 0x1FFF
_RANK_VALUE: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _build_run_tables() -> tuple[list[int], list[int]]:
    """For each 13-bit suit pattern: run-only deadwood, and the bits that sit in runs of 3+.

    Built from the smaller patterns: a pattern is its lowest block of consecutive cards plus
    the rest, a smaller pattern already done; the block melds if it holds three cards or more.
    """
    dw = [0] * 8192
    melded = [0] * 8192
    for x in range(1, 8192):
        low = x & -x
        block = x & ~(x + low)  # the lowest block of consecutive bits
        rest = x ^ block
        if block & block >> 2:  # three or more in a row
            dw[x] = dw[rest]
            melded[x] = melded[rest] | block
        else:
            r = low.bit_length() - 1
            dw[x] = dw[rest] + (_RANK_VALUE[r] if block == low else _RANK_VALUE[r] + _RANK_VALUE[r + 1])
            melded[x] = melded[rest]
    return dw, melded


RUN_DEADWOOD, RUN_MELDED = _build_run_tables()


def _build_discard_tables() -> tuple[list[int], list[int]]:
    """For each suit pattern: the least run-only deadwood after removing one of its cards, and
    the bits whose removal achieves it (used by the 11-card fast path)."""
    best = [0] * 8192
    args = [0] * 8192
    for x in range(1, 8192):
        m = 1 << 20
        a = 0
        y = x
        while y:
            low = y & -y
            y ^= low
            v = RUN_DEADWOOD[x ^ low]
            if v < m:
                m, a = v, low
            elif v == m:
                a |= low
        best[x] = m
        args[x] = a
    return best, args


_REMOVE_BEST, _REMOVE_ARGS = _build_discard_tables()
# What removing the best card of a suit pattern changes: ``_REMOVE_BEST[x] - RUN_DEADWOOD[x]``, and
# for the empty pattern a huge value (nothing to remove there).
_NO_DISCARD: Final = 1 << 20
_DISCARD_DELTA: Final = [_NO_DISCARD] + [_REMOVE_BEST[x] - RUN_DEADWOOD[x] for x in range(1, 8192)]

# The four cards of each rank (index 0 = ace).
_RANK_MASKS: Final = tuple((1 << r) | (1 << (r + 13)) | (1 << (r + 26)) | (1 << (r + 39)) for r in range(13))
# For each rank: the four sets of three of it.
_RANK_TRIPLES: Final = tuple(tuple(_RANK_MASKS[r] ^ (1 << (r + 13 * s)) for s in range(4)) for r in range(13))


# Each card's bit, then poison (a bit above the 52 cards) for the indices 52..103, which is also
# where negative indices -52..-1 land: a list of cards becomes a mask with one ``sum(map(...))``,
# and a bad card shows as a bit above 51 or a duplicate as a carry (fewer bits than cards).
_POISON: Final = 1 << 60
_BITS: Final = [1 << c for c in range(52)] + [_POISON] * 52
_BIT_OF: Final[Callable[[int], int]] = _BITS.__getitem__


def hand_mask(cards: Iterable[int] | int) -> int:
    """A hand as a mask; accepts a mask, a :class:`CardSet` or an iterable of cards.

    >>> hand_mask([0, 13, 51]) == (1 | 1 << 13 | 1 << 51)
    True
    """
    cls = cards.__class__
    if cls is list or cls is tuple:
        seq: Sequence[int] = cards  # type: ignore[assignment]  # a list or a tuple, tested just above
        try:
            m = sum(map(_BIT_OF, seq))
        except (IndexError, TypeError):
            pass  # not all cards: the loop below names the bad one
        else:
            # A sum of distinct powers of two has one bit per term; any repeated card carries.
            if m.bit_count() == len(seq) and not m >> 52:
                return m
        return _mask_checked(seq)
    if isinstance(cards, int):
        if cards < 0 or cards >> 52:
            raise CardError(f"not a hand of real cards: mask {cards:#x}")
        return int(cards)
    return _mask_checked(cards)


def _as_mask(hand: Iterable[int] | int) -> int:
    """:func:`hand_mask` for the hot paths' arguments that are not plain ints (lists, CardSets)."""
    if hand.__class__ is list:
        cards: list[int] = hand
        try:
            m = sum(map(_BIT_OF, cards))
        except (IndexError, TypeError):
            return _mask_checked(cards)
        if m.bit_count() == len(cards) and not m >> 52:
            return m
    return hand_mask(hand)  # a CardSet, a tuple...; it names what is wrong


def _mask_checked(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 52:
            raise CardError(f"not a real card: {c!r}")
        bit = 1 << c
        if m & bit:
            raise CardError(f"duplicate card {CARDS[c]}")
        m |= bit
    return m


def _set_options(m: int, t: int) -> list[list[int]]:
    """For each rank in the candidate mask ``t``: the masks a set on that rank may remove."""
    opts = []
    r = 0
    while t:
        if t & 1:
            held = m & _RANK_MASKS[r]
            choices = [0, held]
            if held.bit_count() == 4:
                y = held
                while y:
                    low = y & -y
                    y ^= low
                    choices.append(held ^ low)
            opts.append(choices)
        t >>= 1
        r += 1
    return opts


def _candidates(m: int) -> int:
    """Ranks (as a 13-bit mask) held in at least three suits: the only ranks that can form sets."""
    a = m & SUIT_BITS
    b = m >> 13 & SUIT_BITS
    c = m >> 26 & SUIT_BITS
    d = m >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


def min_deadwood(hand: int | Iterable[int], _rd: list[int] = RUN_DEADWOOD) -> int:
    """The exact minimum deadwood of a hand given as a mask (rule 0.6), or as a list of cards.
    Hot path.

    >>> min_deadwood(int(CardSet.parse("Qs Ks As 4d 5d 6d 8c 8h 8s 2h")))
    23
    >>> min_deadwood(list(CardSet.parse("Qs Ks As 4d 5d 6d 8c 8h 8s 2h")))
    23
    """
    # (``_rd`` is the table as a local name: a little faster than the global on this hot path.)
    m = hand if hand.__class__ is int else _as_mask(hand)
    a = m & 0x1FFF
    b = m >> 13 & 0x1FFF
    c = m >> 26 & 0x1FFF
    d = m >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if not t:
        return _rd[a] + _rd[b] + _rd[c] + _rd[d]
    return _min_deadwood_sets(m, t)


def _min_deadwood_sets(m: int, t: int) -> int:
    rd = RUN_DEADWOOD
    best = rd[m & 0x1FFF] + rd[m >> 13 & 0x1FFF] + rd[m >> 26 & 0x1FFF] + rd[m >> 39]
    if not t & (t - 1):
        # One candidate rank (the common case): no set, the set of all its cards, or (four held)
        # each set of three.
        rank = t.bit_length() - 1
        held = m & _RANK_MASKS[rank]
        r = m ^ held
        v = rd[r & 0x1FFF] + rd[r >> 13 & 0x1FFF] + rd[r >> 26 & 0x1FFF] + rd[r >> 39]
        if v < best:
            best = v
        if held == _RANK_MASKS[rank]:
            for s in _RANK_TRIPLES[rank]:
                r = m ^ s
                v = rd[r & 0x1FFF] + rd[r >> 13 & 0x1FFF] + rd[r >> 26 & 0x1FFF] + rd[r >> 39]
                if v < best:
                    best = v
        return best
    for combo in product(*_set_options(m, t)):
        removed = 0
        for x in combo:
            removed |= x
        r = m & ~removed
        v = rd[r & 0x1FFF] + rd[r >> 13 & 0x1FFF] + rd[r >> 26 & 0x1FFF] + rd[r >> 39]
        if v < best:
            best = v
    return best


def min_deadwood_many(hands: Iterable[int]) -> list[int]:
    """Minimum deadwood of many masks in one call: the reference loop, with the lookups hoisted.
    (:func:`ginrummy.fastmelds.min_deadwood_many` sends large batches to the vectorised engine.)

    >>> min_deadwood_many([int(CardSet.parse("As 2s 3s")), int(CardSet.parse("Kc Kd"))])
    [0, 20]
    """
    rd = RUN_DEADWOOD
    out: list[int] = []
    append = out.append
    for hand in hands:
        a = hand & 0x1FFF
        b = hand >> 13 & 0x1FFF
        c = hand >> 26 & 0x1FFF
        d = hand >> 39
        t = (a & b & (c | d)) | (c & d & (a | b))
        if t:
            append(_min_deadwood_sets(hand, t))
        else:
            append(rd[a] + rd[b] + rd[c] + rd[d])
    return out


def best_discards(hand: int | Iterable[int]) -> tuple[int, int]:
    """For an 11-card mask (or list of cards): (least deadwood after one discard, mask of the
    discards that reach it).

    Exact: every discard is tried (rule 0.6; unlike shortcuts that miss gins such as
    ``3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h``, where discarding 6c is gin).

    >>> d, cards = best_discards(int(CardSet.parse("3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h")))
    >>> d, str(CardSet(cards))
    (0, '6c')
    """
    # Discarding card x after using the sets ``removed`` (x in no set) leaves the run-only
    # deadwood of the rest minus x.  So the best discard is, over every way of using sets in the
    # whole hand, the best single removal from one suit of what is left: the per-suit table
    # ``_DISCARD_DELTA`` gives it, and ``_REMOVE_ARGS`` the cards that reach it.  A set that holds
    # the discarded card is not available after the discard, and it is never combined with it here.
    m = hand if hand.__class__ is int else _as_mask(hand)
    a = m & 0x1FFF
    rd = RUN_DEADWOOD
    dl = _DISCARD_DELTA
    ra = _REMOVE_ARGS
    b = m >> 13 & 0x1FFF
    c = m >> 26 & 0x1FFF
    d = m >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if not t:
        da = dl[a]
        db = dl[b]
        dc = dl[c]
        dd = dl[d]
        low = min(da, db, dc, dd)
        cards = 0
        if da == low:
            cards = ra[a]
        if db == low:
            cards |= ra[b] << 13
        if dc == low:
            cards |= ra[c] << 26
        if dd == low:
            cards |= ra[d] << 39
        return rd[a] + rd[b] + rd[c] + rd[d] + low, cards
    best = _NO_DISCARD
    cards = 0
    if t & (t - 1):
        ways: Iterable[int] = [sum(combo) for combo in product(*_set_options(m, t))]
    else:  # one candidate rank (the common case): no set, all its cards, or (four held) each three
        rank = t.bit_length() - 1
        held = m & _RANK_MASKS[rank]
        ways = (0, held, *_RANK_TRIPLES[rank]) if held == _RANK_MASKS[rank] else (0, held)
    for removed in ways:
        r = m & ~removed
        a = r & 0x1FFF
        b = r >> 13 & 0x1FFF
        c = r >> 26 & 0x1FFF
        d = r >> 39
        da = dl[a]
        db = dl[b]
        dc = dl[c]
        dd = dl[d]
        low = min(da, db, dc, dd)
        v = rd[a] + rd[b] + rd[c] + rd[d] + low
        if v > best:
            continue
        if v < best:
            best = v
            cards = 0
        if da == low:
            cards |= ra[a]
        if db == low:
            cards |= ra[b] << 13
        if dc == low:
            cards |= ra[c] << 26
        if dd == low:
            cards |= ra[d] << 39
    return best, cards


def best_discard_deadwood(hand: int, _rd: list[int] = RUN_DEADWOOD, _dl: list[int] = _DISCARD_DELTA) -> int:
    """The first half of :func:`best_discards` alone: the least deadwood after one discard from
    the mask ``hand`` (the rules engine asks it on every discard, to know whether a knock is
    possible at all).

    >>> best_discard_deadwood(int(CardSet.parse("3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h")))
    0
    """
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c = hand >> 26 & 0x1FFF
    d = hand >> 39
    if (a & b & (c | d)) | (c & d & (a | b)):
        return best_discards(hand)[0]
    return _rd[a] + _rd[b] + _rd[c] + _rd[d] + min(_dl[a], _dl[b], _dl[c], _dl[d])


def deadwood_after_each(hand: int) -> list[tuple[int, int]]:
    """For each card of the mask ``hand``, in card order: (card, the minimum deadwood of the hand
    without it), all in one pass.

    Without card ``c`` the hand can use every way of using sets of the whole hand that leaves
    ``c`` out (and only those), so the minimum is, over those ways, the run-only deadwood of what
    is left less ``c``: one suit pattern changes, the rest stays.

    >>> [(str(CARDS[c]), d) for c, d in deadwood_after_each(int(CardSet.parse("7c 7d 7h 8h 9h")))]
    [('7c', 7), ('7d', 7), ('7h', 31), ('8h', 9), ('9h', 8)]
    """
    rd = RUN_DEADWOOD
    best = [1 << 20] * 52
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c = hand >> 26 & 0x1FFF
    d = hand >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    ways = [sum(combo) for combo in product(*_set_options(hand, t))] if t else [0]
    for removed in ways:
        rest = hand & ~removed
        xs = (rest & 0x1FFF, rest >> 13 & 0x1FFF, rest >> 26 & 0x1FFF, rest >> 39)
        base = rd[xs[0]] + rd[xs[1]] + rd[xs[2]] + rd[xs[3]]
        for s in range(4):
            x = xs[s]
            here = base - rd[x]
            y = x
            while y:
                low = y & -y
                y ^= low
                card = 13 * s + low.bit_length() - 1
                v = here + rd[x ^ low]
                if v < best[card]:
                    best[card] = v
    out = []
    y = hand
    while y:
        low = y & -y
        y ^= low
        card = low.bit_length() - 1
        out.append((card, best[card]))
    return out


def deadwood_after_discards(hand: int) -> dict[Card, int]:
    """For each card of the hand: the minimum deadwood of the hand without it."""
    return {CARDS[card]: v for card, v in deadwood_after_each(hand)}


# --- Melds and arrangements ---------------------------------------------------------------------
def is_set(mask: int) -> bool:
    """Three or four cards of one rank (rule 0.4.1)."""
    n = mask.bit_count()
    if not 3 <= n <= 4:
        return False
    r = (mask & -mask).bit_length() - 1
    return mask & ~_RANK_MASKS[r % 13] == 0


def is_run(mask: int) -> bool:
    """Three or more consecutive cards of one suit, ace low, no wrap-around (rule 0.4.2)."""
    if mask.bit_count() < 3:
        return False
    low = (mask & -mask).bit_length() - 1
    suit = low // 13
    if mask >> (13 * suit) & ~SUIT_BITS:
        return False
    x = mask >> (13 * suit)
    return x & (x + (1 << (low % 13))) == 0  # one contiguous block of bits


def is_meld(mask: int) -> bool:
    return is_set(mask) or is_run(mask)


def _mask_cards(mask: int) -> Meld:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def all_melds(hand: Iterable[int] | int) -> list[Meld]:
    """Every meld the hand holds: every set of 3 or 4 and every run of 3 or more (sub-runs too)."""
    m = hand_mask(hand)
    out: list[Meld] = []
    for r in range(13):
        held = m & _RANK_MASKS[r]
        n = held.bit_count()
        if n >= 3:
            if n == 4:
                out.append(_mask_cards(held))
                y = held
                while y:
                    low = y & -y
                    y ^= low
                    out.append(_mask_cards(held ^ low))
            else:
                out.append(_mask_cards(held))
    for s in range(4):
        x = m >> (13 * s) & SUIT_BITS
        for lo in range(13):
            hi = lo
            while hi < 13 and x >> hi & 1:
                hi += 1
                if hi - lo >= 3:
                    out.append(_mask_cards(((1 << (hi - lo)) - 1) << (lo + 13 * s)))
    out.sort()
    return out


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A partition of a hand into melds and deadwood (rule 0.5)."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.unmatched)

    def to_json(self) -> dict[str, object]:
        return {
            "melds": [[str(c) for c in m] for m in self.melds],
            "unmatched": [str(c) for c in self.unmatched],
            "deadwood": self.deadwood,
        }

    def __str__(self) -> str:
        parts = [format_cards(m) for m in self.melds]
        if self.unmatched:
            parts.append(f"deadwood {format_cards(self.unmatched)} = {self.deadwood}")
        else:
            parts.append("deadwood 0")
        return " | ".join(parts)


def _runs_of(mask: int) -> list[int]:
    """The maximal runs (3+) in a mask after sets were removed, as masks."""
    runs = []
    for s in range(4):
        x = RUN_MELDED[mask >> (13 * s) & SUIT_BITS]
        while x:
            low = (x & -x).bit_length() - 1
            end = low
            while x >> end & 1:
                end += 1
            block = ((1 << (end - low)) - 1) << low
            runs.append(block << (13 * s))
            x &= ~block
    return runs


def _arrangement_from(m: int, removed_sets: Sequence[int]) -> Arrangement:
    rest = m
    melds = []
    for s in removed_sets:
        if s:
            melds.append(s)
            rest &= ~s
    runs = _runs_of(rest)
    in_melds = 0
    for r in runs:
        in_melds |= r
    melds.extend(runs)
    meld_tuples = sorted(_mask_cards(x) for x in melds)
    return Arrangement(tuple(meld_tuples), _mask_cards(rest & ~in_melds))


def best_arrangement(hand: Iterable[int] | int) -> Arrangement:
    """An optimal arrangement; ties go to the smallest sorted meld list (rule 0.8), and a run is
    kept whole rather than split."""
    m = hand_mask(hand)
    t = _candidates(m)
    if not t:
        return _arrangement_from(m, ())
    best: tuple[int, tuple[Meld, ...]] | None = None
    best_arr = None
    for combo in product(*_set_options(m, t)):
        arr = _arrangement_from(m, combo)
        key = (arr.deadwood, arr.melds)
        if best is None or key < best:
            best, best_arr = key, arr
    assert best_arr is not None
    return best_arr


def optimal_arrangements(hand: Iterable[int] | int) -> list[Arrangement]:
    """Every arrangement with the minimum deadwood, each as a distinct partition into melds
    (a long run split into shorter runs counts as another arrangement)."""
    m = hand_mask(hand)
    target = min_deadwood(m)
    melds = [hand_mask(x) for x in all_melds(m)]
    by_low: dict[int, list[int]] = {}
    for x in melds:
        by_low.setdefault((x & -x).bit_length() - 1, []).append(x)
    out: list[Arrangement] = []

    def walk(rest: int, chosen: list[int], dead: int, dead_mask: int) -> None:
        if dead > target:
            return
        if not rest:
            if dead == target:
                out.append(Arrangement(tuple(sorted(_mask_cards(x) for x in chosen)), _mask_cards(dead_mask)))
            return
        low = rest & -rest
        i = low.bit_length() - 1
        for x in by_low.get(i, ()):
            if x & rest == x:
                chosen.append(x)
                walk(rest & ~x, chosen, dead, dead_mask)
                chosen.pop()
        # The lowest card may also stay unmatched, or sit in a meld whose lowest card is
        # lower (impossible: lower cards were already decided), so deadwood is the only other way.
        walk(rest ^ low, chosen, dead + CARDS[i].value, dead_mask | low)

    walk(m, [], 0, 0)
    out.sort(key=lambda a: (a.melds, a.unmatched))
    return out


# --- Layoffs (rule 0.9) -------------------------------------------------------------------------
def _meld_extensions(meld: int, pool: int) -> list[int]:
    """Ways to extend one laid meld with cards from ``pool``: for a set its missing card, for a run
    every pair of chains downwards and upwards (chained layoffs, rule 0.9.3)."""
    if is_set(meld):
        if meld.bit_count() == 4:
            return [0]
        r = ((meld & -meld).bit_length() - 1) % 13
        missing = _RANK_MASKS[r] & ~meld
        return [0, missing] if pool & missing else [0]
    low = (meld & -meld).bit_length() - 1
    high = meld.bit_length() - 1
    suit_lo = low - low % 13
    downs = [0]
    acc = 0
    i = low - 1
    while i >= suit_lo and pool >> i & 1:
        acc |= 1 << i
        downs.append(acc)
        i -= 1
    ups = [0]
    acc = 0
    i = high + 1
    while i < suit_lo + 13 and pool >> i & 1:
        acc |= 1 << i
        ups.append(acc)
        i += 1
    return [x | y for x in downs for y in ups]


def layoff_closure(melds: Iterable[Iterable[int] | int], hand: Iterable[int] | int) -> CardSet:
    """Every card of ``hand`` that could be laid off, alone or after others, on the ``melds``."""
    pool = hand_mask(hand)
    out = 0
    for meld in melds:
        for ext in _meld_extensions(hand_mask(meld), pool):
            out |= ext
    return CardSet(out)


def lay_off_all(melds: Iterable[Iterable[int] | int], cards: Iterable[int] | int) -> list[int] | None:
    """The ``melds`` (as masks) extended by every one of ``cards``, or None if they cannot all be
    laid off: rule 0.9.3, the cards are shared among the melds so that each extended meld is still
    a meld (chains included: 4h5h6h takes 7h and then 8h, even beside a set of sevens)."""
    masks = [hand_mask(m) for m in melds]
    pool = hand_mask(cards)
    if pool & sum(masks):
        return None
    choices = [_meld_extensions(m, pool) for m in masks]

    def place(i: int, left: int) -> list[int] | None:
        if i == len(masks):
            return [] if left == 0 else None
        for ext in choices[i]:
            if ext & ~left:
                continue
            rest = place(i + 1, left & ~ext)
            if rest is not None:
                return [masks[i] | ext, *rest]
        return None

    return place(0, pool)


def can_lay_off(melds: Iterable[Iterable[int] | int], card: int) -> bool:
    """Whether ``card`` extends one of the (current, possibly already extended) ``melds``."""
    return lay_off(melds, card) is not None


def lay_off(melds: Iterable[Iterable[int] | int], card: int) -> list[int] | None:
    """The melds (as masks) after laying ``card`` on the first meld it fits, or None."""
    masks = [hand_mask(m) for m in melds]
    bit = 1 << card
    for i, m in enumerate(masks):
        if m & bit:
            return None
        if is_meld(m | bit):
            masks[i] = m | bit
            return masks
    return None


@dataclass(frozen=True, slots=True)
class Defense:
    """The defender's best showdown: own melds, cards laid off, and what is left (rule 0.9.4)."""

    melds: tuple[Meld, ...]
    laid_off: tuple[Card, ...]
    unmatched: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.unmatched)


def best_defense(
    knocker_melds: Iterable[Iterable[int] | int], hand: Iterable[int] | int, *, layoffs: bool = True
) -> Defense:
    """The defender's least deadwood over every choice of own melds and layoffs (rule 0.9.4).

    Ties go to the fewest cards laid off, then the smallest mask, so the result is deterministic.
    """
    m = hand_mask(hand)
    options: set[int] = {0}
    if layoffs:
        for meld in knocker_melds:
            exts = _meld_extensions(hand_mask(meld), m)
            options = {o | e for o in options for e in exts}
    best_key: tuple[int, int, int] | None = None
    best_laid = 0
    for laid in options:
        v = min_deadwood(m & ~laid)
        key = (v, laid.bit_count(), laid)
        if best_key is None or key < best_key:
            best_key, best_laid = key, laid
    arr = best_arrangement(m & ~best_laid)
    return Defense(arr.melds, _mask_cards(best_laid), arr.unmatched)

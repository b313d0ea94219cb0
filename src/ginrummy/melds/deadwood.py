"""Exact minimum deadwood of one hand, and the best discards of eleven cards (rule 0.6): the
meld engine's hot path, scored from the per-suit run tables of :mod:`ginrummy.melds.tables`."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from ..cards import CARDS, Card, CardSet  # noqa: F401  (CardSet: the doctests use it)
from .tables import (
    _DISCARD_DELTA,
    _NO_DISCARD,
    _RANK_MASKS,
    _RANK_TRIPLES,
    _REMOVE_ARGS,
    RUN_DEADWOOD,
    _as_mask,
    _set_options,
)


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

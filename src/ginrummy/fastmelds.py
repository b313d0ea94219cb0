"""Vectorised meld engine: exact minimum deadwood and best discards for many hands at once.

Needs NumPy (the ``[fast]`` extra); it is imported on first use.  Without NumPy the functions fall
back to the pure-Python engine (:mod:`ginrummy.melds`) and return lists instead of arrays, with the
same values.

The method is the one of :mod:`ginrummy.melds`, done on whole arrays of 52-bit masks: every hand's
run-only deadwood is four lookups in the 8,192-entry table ``melds.RUN_DEADWOOD`` (one a suit).
Only a rank held in three or four suits can form a set, so only the hands that hold such a rank
(about a quarter of random 10-card hands, a third of 11-card ones) go on to a second step, where
each way of using their sets (the set of all the rank's cards, or with four held each set of
three; at most 6**3 ways for 11 cards) becomes one row of a flat array, scored the same way and
reduced per hand.  The common case, one rank held three times, is a single extra row per hand.

Best discards use that, after the sets ``S`` are put aside, discarding a card ``x`` outside ``S``
leaves the run-only deadwood of the rest minus ``x``, and the best such ``x`` within one suit pattern
is a table lookup too; so the best discard of an 11-card hand is the best, over its ways of using
sets, of the best single removal from one suit of what is left (a set holding the discarded card is
never combined with that discard).  Both results are exact, checked against the pure engine in
``tests/test_fastmelds.py``.

>>> from ginrummy.cards import CardSet
>>> hands = [int(CardSet.parse("7c 7d 7h 8h 9h 2s 3s 4s Kd Qc")), int(CardSet.parse("As 2s 3s"))]
>>> [int(x) for x in min_deadwood_batch(hands)]
[34, 0]
>>> dw, cards = best_discards_batch([int(CardSet.parse("3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h"))])
>>> int(dw[0]), str(CardSet(int(cards[0])))
(0, '6c')
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

from . import melds
from .errors import CardError
from .i18n import _

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Int64Array = npt.NDArray[np.int64]
    Int32Array = npt.NDArray[np.int32]

__all__ = ["CHUNK", "best_discards_batch", "have_numpy", "min_deadwood_batch", "min_deadwood_many"]

CHUNK = 1 << 15
"""Hands scored per step: small enough that a step's arrays stay in the processor's cache."""

_MAX_WAYS = 6**4
"""Hands with more ways of using sets than this (16+ cards) are scored by the pure engine."""

NO_DISCARD = 1 << 20
"""The deadwood reported for an empty hand by :func:`best_discards_batch` (as ``melds.best_discards``)."""


@cache
def _numpy() -> ModuleType | None:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def have_numpy() -> bool:
    """Whether the vectorised path is available (NumPy importable)."""
    return _numpy() is not None


class _Tables:
    """The engine's tables as NumPy arrays (built once, on first use)."""

    def __init__(self, np: Any) -> None:
        self.run_dw = np.array(melds.RUN_DEADWOOD, dtype=np.int32)
        # Best single removal from a suit pattern: change in run-only deadwood, and cards that do it.
        # The empty pattern gets a huge change so that it never wins.
        delta = [NO_DISCARD] + [melds._REMOVE_BEST[x] - melds.RUN_DEADWOOD[x] for x in range(1, 8192)]
        self.delta = np.array(delta, dtype=np.int32)
        self.remove_args = np.array(melds._REMOVE_ARGS, dtype=np.int64)
        # Index of the lowest set bit of a 13-bit pattern (0 for 0).
        self.low_index = np.array([(x & -x).bit_length() - 1 if x else 0 for x in range(8192)], dtype=np.int64)
        self.rank_masks = np.array(melds._RANK_MASKS, dtype=np.int64)


@cache
def _tables() -> _Tables:
    np = _numpy()
    assert np is not None
    return _Tables(np)


def _as_masks(np: Any, hands: Any) -> Int64Array:
    """Hands as a contiguous int64 array of 52-bit masks (no copy for a uint64/int64 array)."""
    if isinstance(hands, np.ndarray):
        arr = hands
    else:
        # array('q') takes integers only (anything with __index__): floats and strings are refused
        # rather than converted, as the pure engine refuses them.
        try:
            arr = np.frombuffer(array("q", hands), dtype=np.int64)
        except (OverflowError, TypeError, ValueError) as e:
            raise CardError(_("not a list of 52-bit hand masks: {error}").format(error=e)) from None
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise CardError(
            _("hand masks must be a flat sequence of integers, got {dtype} of shape {shape}").format(
                dtype=arr.dtype, shape=arr.shape
            )
        )
    if arr.dtype == np.uint64:
        arr = arr.view(np.int64)
    elif arr.dtype != np.int64:
        arr = arr.astype(np.int64)
    arr = np.ascontiguousarray(arr)
    if (arr >> 52).any():
        bad = arr[(arr >> 52) != 0][0]
        raise CardError(_("not a hand of real cards: mask {mask}").format(mask=f"{int(bad) & ((1 << 64) - 1):#x}"))
    out: Int64Array = arr
    return out


# --- Ways of using sets --------------------------------------------------------------------------
def _set_ways(np: Any, tb: _Tables, h: Int64Array, t: Int64Array) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Every way except "no set" of using sets in each hand ``h`` (candidate ranks ``t``).

    Returns ``(rep, removed, starts)``: for each way, the index of its hand and the mask of the cards
    its sets take; ways of one hand are contiguous and ``starts`` gives where each hand's begin.
    Every hand has at least one way (its candidate ranks are non-empty).
    """
    n = h.size
    helds = []
    ranks = []
    radices = []
    ways = np.ones(n, dtype=np.int64)
    rest = t.copy()
    while True:
        low = rest & -rest
        if not low.any():
            break
        rest ^= low
        r = tb.low_index[low]
        held = np.where(low != 0, h & tb.rank_masks[r], 0)
        radix = np.where(low == 0, 1, np.where(held == tb.rank_masks[r], 6, 2))
        helds.append(held)
        ranks.append(r)
        radices.append(radix)
        ways *= radix
    count = ways - 1
    starts = np.cumsum(count) - count
    rep = np.repeat(np.arange(n), count)
    j = np.arange(rep.size, dtype=np.int64) - starts[rep] + 1  # way number 1 .. ways-1 (0 = no set)
    removed = np.zeros(rep.size, dtype=np.int64)
    stride = np.ones(rep.size, dtype=np.int64)
    for held, r, radix in zip(helds, ranks, radices, strict=True):
        rad = radix[rep]
        digit = (j // stride) % rad
        stride *= rad
        # digit 0: no set on this rank; 1: all its cards; 2..5: all but the card of suit digit-2.
        hd = held[rep]
        drop = np.where(digit >= 2, np.left_shift(1, r[rep] + 13 * np.maximum(digit - 2, 0)), 0)
        removed |= np.where(digit == 0, 0, hd ^ drop)
    return rep, removed, starts


def _run_deadwood(tb: _Tables, r: Int64Array) -> Int32Array:
    rd = tb.run_dw
    out: Int32Array = rd[r & 0x1FFF]
    out += rd[(r >> 13) & 0x1FFF]
    out += rd[(r >> 26) & 0x1FFF]
    out += rd[r >> 39]
    return out


def _split(h: Int64Array) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array, Int64Array]:
    a = h & 0x1FFF
    b = (h >> 13) & 0x1FFF
    c = (h >> 26) & 0x1FFF
    d = h >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    return a, b, c, d, t


def _pure_ways(h: int) -> int:
    t = melds._candidates(h)
    ways = 1
    r = 0
    while t:
        if t & 1:
            ways *= 6 if h & melds._RANK_MASKS[r] == melds._RANK_MASKS[r] else 2
        t >>= 1
        r += 1
    return ways


def _min_deadwood_chunk(np: Any, tb: _Tables, h: Int64Array) -> Int32Array:
    rd = tb.run_dw
    a, b, c, d, t = _split(h)
    out: Int32Array = rd[a]
    out += rd[b]
    out += rd[c]
    out += rd[d]
    idx = np.flatnonzero(t)
    if not idx.size:
        return out
    hs = h[idx]
    ts = t[idx]
    # One candidate rank held three times (the common case): one more row, the hand minus the set.
    r = tb.low_index[ts]
    held = hs & tb.rank_masks[r]
    simple = ((ts & (ts - 1)) == 0) & (held != tb.rank_masks[r])
    si = idx[simple]
    if si.size:
        out[si] = np.minimum(out[si], _run_deadwood(tb, hs[simple] ^ held[simple]))
    gi = idx[~simple]
    if gi.size:
        hg = hs[~simple]
        tg = ts[~simple]
        big = _too_many_ways(np, tb, hg, tg)
        if big is not None:
            for k in np.flatnonzero(big):
                out[gi[k]] = melds.min_deadwood(int(hg[k]))
            keep = ~big
            gi, hg, tg = gi[keep], hg[keep], tg[keep]
        if gi.size:
            rep, removed, starts = _set_ways(np, tb, hg, tg)
            v = _run_deadwood(tb, hg[rep] & ~removed)
            out[gi] = np.minimum(out[gi], np.minimum.reduceat(v, starts))
    return out


def _too_many_ways(np: Any, tb: _Tables, h: Int64Array, t: Int64Array) -> Any:
    """A boolean array marking hands with more than ``_MAX_WAYS`` ways of using sets, or None."""
    ranks = np.zeros(t.size, dtype=np.int64)
    rest = t.copy()
    while rest.any():
        ranks += rest != 0
        rest &= rest - 1
    if not (ranks > 3).any():  # 6**3 ways at most: always fine
        return None
    return np.array([_pure_ways(int(x)) > _MAX_WAYS for x in h], dtype=bool)


VECTOR_MIN: Final = 512
"""Batches from this size on use the vectorised engine when NumPy is there (below it the loop wins)."""


def min_deadwood_many(hands: Iterable[int]) -> list[int]:
    """Minimum deadwood of many masks, list in, list out (the simulator's batch entry point).

    A large batch goes through the vectorised engine when NumPy is installed, with the same
    results; otherwise, and for small batches, through :func:`ginrummy.melds.min_deadwood_many`.
    """
    try:
        big = len(hands) >= VECTOR_MIN  # type: ignore[arg-type]  # an iterator has no len: the loop takes it
    except TypeError:
        big = False
    if big and have_numpy():
        try:
            out: list[int] = min_deadwood_batch(hands).tolist()
        except CardError:
            pass  # not all 52-bit masks: the loop behaves as it always did
        else:
            return out
    return melds.min_deadwood_many(hands)


def min_deadwood_batch(hands: Iterable[int] | Any) -> Any:
    """The exact minimum deadwood of each hand (52-bit masks, as a list or a NumPy integer array).

    Returns a NumPy ``int32`` array (a list when NumPy is absent), equal to
    ``[melds.min_deadwood(h) for h in hands]``.  Raises :class:`~ginrummy.errors.CardError` for a
    mask outside 0 .. 2**52-1.
    """
    np = _numpy()
    if np is None:
        return melds.min_deadwood_many([melds.hand_mask(h) for h in hands])
    tb = _tables()
    h = _as_masks(np, hands)
    n = h.size
    if n <= CHUNK:
        return _min_deadwood_chunk(np, tb, h)
    out = np.empty(n, dtype=np.int32)
    for i in range(0, n, CHUNK):
        out[i : i + CHUNK] = _min_deadwood_chunk(np, tb, h[i : i + CHUNK])
    return out


# --- Best discards -------------------------------------------------------------------------------
def _discard_rows(np: Any, tb: _Tables, r: Int64Array) -> tuple[Int32Array, Int64Array]:
    """For masks ``r`` (cards left after sets): least deadwood after one discard, and the discards."""
    rd = tb.run_dw
    dl = tb.delta
    ra = tb.remove_args
    a = r & 0x1FFF
    b = (r >> 13) & 0x1FFF
    c = (r >> 26) & 0x1FFF
    d = r >> 39
    da = dl[a]
    db = dl[b]
    dc = dl[c]
    dd = dl[d]
    low = np.minimum(np.minimum(da, db), np.minimum(dc, dd))
    v: Int32Array = rd[a]
    v += rd[b]
    v += rd[c]
    v += rd[d]
    v += low
    cards: Int64Array = np.where(da == low, ra[a], 0)
    cards |= np.where(db == low, ra[b] << 13, 0)
    cards |= np.where(dc == low, ra[c] << 26, 0)
    cards |= np.where(dd == low, ra[d] << 39, 0)
    return v, cards


def _best_discards_chunk(np: Any, tb: _Tables, h: Int64Array) -> tuple[Int32Array, Int64Array]:
    v, cards = _discard_rows(np, tb, h)
    t = _split(h)[4]
    idx = np.flatnonzero(t)
    if not idx.size:
        return v, cards
    hs = h[idx]
    ts = t[idx]
    big = _too_many_ways(np, tb, hs, ts)
    if big is not None:
        for k in np.flatnonzero(big):
            v[idx[k]], cards[idx[k]] = melds.best_discards(int(hs[k]))
        keep = ~big
        idx, hs, ts = idx[keep], hs[keep], ts[keep]
        if not idx.size:
            return v, cards
    rep, removed, starts = _set_ways(np, tb, hs, ts)
    wv, wc = _discard_rows(np, tb, hs[rep] & ~removed)
    v0 = v[idx]
    best = np.minimum(v0, np.minimum.reduceat(wv, starts))
    got = np.bitwise_or.reduceat(np.where(wv == best[rep], wc, 0), starts)
    got |= np.where(v0 == best, cards[idx], 0)
    v[idx] = best
    cards[idx] = got
    return v, cards


def best_discards_batch(hands11: Iterable[int] | Any) -> tuple[Any, Any]:
    """For each hand (typically 11 cards): the least deadwood after one discard, and the discards.

    Returns ``(deadwood, discards)``: a NumPy ``int32`` array and an ``int64`` array of card masks
    (bit ``i`` = card ``i`` is a best discard), equal element by element to
    ``melds.best_discards(h)``; an empty hand gives ``(NO_DISCARD, 0)`` as there.  Without NumPy
    both are lists.
    """
    np = _numpy()
    if np is None:
        pairs = [melds.best_discards(melds.hand_mask(h)) for h in hands11]
        return [p[0] for p in pairs], [p[1] for p in pairs]
    tb = _tables()
    h = _as_masks(np, hands11)
    n = h.size
    if n <= CHUNK:
        return _best_discards_chunk(np, tb, h)
    dw = np.empty(n, dtype=np.int32)
    cards = np.empty(n, dtype=np.int64)
    for i in range(0, n, CHUNK):
        dw[i : i + CHUNK], cards[i : i + CHUNK] = _best_discards_chunk(np, tb, h[i : i + CHUNK])
    return dw, cards

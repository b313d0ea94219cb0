"""A compiled meld kernel: exact minimum deadwood and best discards of many hands, with numba.

An optional extra (``pip install 'ginrummy[jit]'``: numba and NumPy); nothing else in ginrummy
needs it, and the default install needs no compiler.  The pure-Python engine
(:mod:`ginrummy.melds`) stays the reference: this module does the same computation, hand by hand
in compiled code, and ``tests/test_jitmelds.py`` checks it against the reference on every test
hand and on the reference data.

The method is :mod:`ginrummy.melds`'s: a hand's run-only deadwood is four lookups in the
8,192-entry table of suit patterns; only a rank held in three or four suits can form a set, and
for each way of using such sets (no set, all the rank's cards, or with four held each set of
three) what is left is scored by runs alone.  For best discards, after the sets are put aside the
best single removal from each suit pattern is a second table lookup, and the discards that reach
the least deadwood are collected over every way of using sets.

The first call compiles the kernels (a second or two; numba keeps them in its cache for the
next process).

>>> from ginrummy.cards import CardSet
>>> if available():
...     hands = [int(CardSet.parse("7c 7d 7h 8h 9h 2s 3s 4s Kd Qc")), int(CardSet.parse("As 2s 3s"))]
...     print([int(x) for x in min_deadwood_batch(hands)])
... else:
...     print([34, 0])
[34, 0]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from . import fastmelds, melds
from .errors import CardError
from .i18n import _

__all__ = ["available", "best_discards_batch", "min_deadwood_batch"]

NO_DISCARD = fastmelds.NO_DISCARD
"""The deadwood reported for an empty hand by :func:`best_discards_batch` (as ``melds.best_discards``)."""


try:
    import numba
    import numpy as np
except ImportError:  # the [jit] extra is not installed
    _HAVE_NUMBA = False
else:
    _HAVE_NUMBA = True


if _HAVE_NUMBA:  # the kernels (compiled on first call, or loaded from numba's cache)

    def _ways_py(h: Any, t: Any, opts: Any, counts: Any) -> int:
        """Fill ``opts[k, :counts[k]]`` with the set masks rank ``k`` of ``t`` may remove; the
        number of candidate ranks."""
        k = 0
        for r in range(13):
            if t >> r & 1:
                held = h & (np.int64(0x8004002001) << r)
                opts[k, 0] = 0
                opts[k, 1] = held
                n = 2
                if held == np.int64(0x8004002001) << r:
                    for s in range(4):
                        opts[k, n] = held ^ (np.int64(1) << (r + 13 * s))
                        n += 1
                counts[k] = n
                k += 1
        return k

    _ways = numba.njit(cache=True, nogil=True)(_ways_py)

    def _min_deadwood_py(hands: Any, run_dw: Any, out: Any) -> int:
        """Fill ``out``; -1, or the index of the first mask that is not a hand of real cards."""
        opts = np.zeros((13, 6), dtype=np.int64)
        counts = np.zeros(13, dtype=np.int64)
        idx = np.zeros(13, dtype=np.int64)
        for i in range(hands.size):
            h = hands[i]
            if h >> 52:
                return i
            a = h & 0x1FFF
            b = h >> 13 & 0x1FFF
            c = h >> 26 & 0x1FFF
            d = h >> 39
            best = run_dw[a] + run_dw[b] + run_dw[c] + run_dw[d]
            t = (a & b & (c | d)) | (c & d & (a | b))
            if t and not t & (t - 1):
                # One candidate rank (the common case): all its cards, or (four held) each set of three.
                rank = t * np.int64(0x8004002001)
                held = h & rank
                r = h ^ held
                v = run_dw[r & 0x1FFF] + run_dw[r >> 13 & 0x1FFF] + run_dw[r >> 26 & 0x1FFF] + run_dw[r >> 39]
                if v < best:
                    best = v
                if held == rank:
                    for s in range(4):
                        r = h ^ (held ^ (t << (13 * s)))
                        v = run_dw[r & 0x1FFF] + run_dw[r >> 13 & 0x1FFF] + run_dw[r >> 26 & 0x1FFF] + run_dw[r >> 39]
                        if v < best:
                            best = v
            elif t:
                k = _ways(h, t, opts, counts)
                for j in range(k):
                    idx[j] = 0
                while True:  # every combination: a counter in mixed radix, the first option moving fastest
                    removed = np.int64(0)
                    for j in range(k):
                        removed |= opts[j, idx[j]]
                    r = h & ~removed
                    v = run_dw[r & 0x1FFF] + run_dw[r >> 13 & 0x1FFF] + run_dw[r >> 26 & 0x1FFF] + run_dw[r >> 39]
                    if v < best:
                        best = v
                    j = 0
                    while j < k:
                        idx[j] += 1
                        if idx[j] < counts[j]:
                            break
                        idx[j] = 0
                        j += 1
                    if j == k:
                        break
            out[i] = best
        return -1

    _min_deadwood = numba.njit(cache=True, nogil=True)(_min_deadwood_py)

    def _best_discards_py(hands: Any, run_dw: Any, delta: Any, remove_args: Any, out_dw: Any, out_cards: Any) -> int:
        opts = np.zeros((13, 6), dtype=np.int64)
        counts = np.zeros(13, dtype=np.int64)
        idx = np.zeros(13, dtype=np.int64)
        for i in range(hands.size):
            h = hands[i]
            if h >> 52:
                return i
            a = h & 0x1FFF
            b = h >> 13 & 0x1FFF
            c = h >> 26 & 0x1FFF
            d = h >> 39
            t = (a & b & (c | d)) | (c & d & (a | b))
            k = _ways(h, t, opts, counts) if t else 0
            for j in range(k):
                idx[j] = 0
            best = np.int64(1) << 40
            cards = np.int64(0)
            while True:
                removed = np.int64(0)
                for j in range(k):
                    removed |= opts[j, idx[j]]
                r = h & ~removed
                ra = r & 0x1FFF
                rb = r >> 13 & 0x1FFF
                rc = r >> 26 & 0x1FFF
                rd = r >> 39
                da = delta[ra]
                db = delta[rb]
                dc = delta[rc]
                dd = delta[rd]
                low = min(min(da, db), min(dc, dd))
                v = run_dw[ra] + run_dw[rb] + run_dw[rc] + run_dw[rd] + low
                if v <= best:
                    if v < best:
                        best = v
                        cards = np.int64(0)
                    if da == low:
                        cards |= remove_args[ra]
                    if db == low:
                        cards |= remove_args[rb] << 13
                    if dc == low:
                        cards |= remove_args[rc] << 26
                    if dd == low:
                        cards |= remove_args[rd] << 39
                j = 0
                while j < k:
                    idx[j] += 1
                    if idx[j] < counts[j]:
                        break
                    idx[j] = 0
                    j += 1
                if j == k:
                    break
            out_dw[i] = best
            out_cards[i] = cards
        return -1

    _best_discards = numba.njit(cache=True, nogil=True)(_best_discards_py)


@cache
def _kernels() -> Any:
    """NumPy, the tables as arrays and the kernels; None without numba and NumPy."""
    if not _HAVE_NUMBA:
        return None
    run_dw = np.array(melds.RUN_DEADWOOD, dtype=np.int32)
    delta = np.array(melds._DISCARD_DELTA, dtype=np.int32)
    remove_args = np.array(melds._REMOVE_ARGS, dtype=np.int64)
    return np, run_dw, delta, remove_args, _min_deadwood, _best_discards


def available() -> bool:
    """Whether numba and NumPy are installed (the ``[jit]`` extra)."""
    return _kernels() is not None


def _need() -> Any:
    k = _kernels()
    if k is None:
        raise ImportError(
            _("the compiled meld kernel needs numba and NumPy: {command}").format(command="pip install 'ginrummy[jit]'")
        )
    return k


def _masks(np: Any, hands: Any) -> Any:
    """Hands as a contiguous int64 array (no copy for a uint64/int64 array); the kernels check
    that each is a hand of real cards."""
    if isinstance(hands, np.ndarray) and hands.ndim == 1 and hands.dtype in (np.int64, np.uint64):
        return np.ascontiguousarray(hands.view(np.int64))
    return fastmelds._as_masks(np, hands)


def _check(bad: int, h: Any) -> None:
    if bad >= 0:
        raise CardError(_("not a hand of real cards: mask {mask}").format(mask=f"{int(h[bad]) & ((1 << 64) - 1):#x}"))


def min_deadwood_batch(hands: Iterable[int] | Any) -> Any:
    """The exact minimum deadwood of each hand (52-bit masks, a list or a NumPy integer array), as a
    NumPy ``int32`` array equal to ``[melds.min_deadwood(h) for h in hands]``.

    Raises :class:`~ginrummy.errors.CardError` for a mask outside 0 .. 2**52-1, ImportError without
    numba.
    """
    np, run_dw, _delta, _remove, kernel, _batch = _need()
    h = _masks(np, hands)
    out = np.empty(h.size, dtype=np.int32)
    _check(kernel(h, run_dw, out), h)
    return out


def best_discards_batch(hands: Iterable[int] | Any) -> tuple[Any, Any]:
    """For each hand (typically 11 cards): the least deadwood after one discard (``int32``) and the
    mask of the discards that reach it (``int64``), equal to ``melds.best_discards(h)``; an empty
    hand gives ``(NO_DISCARD, 0)`` as there."""
    np, run_dw, delta, remove_args, _single, kernel = _need()
    h = _masks(np, hands)
    dw = np.empty(h.size, dtype=np.int32)
    cards = np.empty(h.size, dtype=np.int64)
    _check(kernel(h, run_dw, delta, remove_args, dw, cards), h)
    return dw, cards

"""The meld engine's tables and mask helpers (rule 0.6): per-suit run tables, the 11-card discard
tables, rank masks, and turning cards into 52-bit masks.  Shared by every meld kernel (the pure
path here, :mod:`ginrummy.fastmelds` and :mod:`ginrummy.jitmelds`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Final

from ..cards import CARDS, Card
from ..errors import CardError
from ..i18n import _

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
            raise CardError(_("not a hand of real cards: mask {mask}").format(mask=f"{cards:#x}"))
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
            raise CardError(_("not a real card: {value}").format(value=repr(c)))
        bit = 1 << c
        if m & bit:
            raise CardError(_("duplicate card {text}").format(text=CARDS[c]))
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


def _mask_cards(mask: int) -> Meld:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)

"""Layoffs and the defender's best showdown (rule 0.9): extending the knocker's melds, chained
layoffs shared among melds, and the least deadwood over every choice of own melds and layoffs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import Card, CardSet
from .arrange import best_arrangement, is_meld, is_set
from .deadwood import min_deadwood
from .tables import _RANK_MASKS, Meld, _mask_cards, hand_mask


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

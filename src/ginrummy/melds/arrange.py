"""Melds and arrangements of one hand (rules 0.4, 0.5, 0.8): what a meld is, every meld a hand
holds, an optimal arrangement and every optimal arrangement."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from ..cards import CARDS, Card, format_cards
from .deadwood import min_deadwood
from .tables import (
    _RANK_MASKS,
    RUN_DEADWOOD,
    RUN_MELDED,
    SUIT_BITS,
    Meld,
    _candidates,
    _mask_cards,
    _set_options,
    hand_mask,
)


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
    # Each way of taking sets scored by the run tables; only the ways that tie for the least
    # deadwood are made into arrangements (to compare their melds).
    rd = RUN_DEADWOOD
    least = -1
    tied: list[tuple[int, ...]] = []
    for combo in product(*_set_options(m, t)):
        rest = m
        for x in combo:
            rest &= ~x
        d = rd[rest & 0x1FFF] + rd[rest >> 13 & 0x1FFF] + rd[rest >> 26 & 0x1FFF] + rd[rest >> 39]
        if least < 0 or d < least:
            least, tied = d, [combo]
        elif d == least:
            tied.append(combo)
    if len(tied) == 1:
        return _arrangement_from(m, tied[0])
    return min((_arrangement_from(m, combo) for combo in tied), key=lambda arr: arr.melds)


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

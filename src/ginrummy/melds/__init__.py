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

from .arrange import Arrangement, all_melds, best_arrangement, is_meld, is_run, is_set, optimal_arrangements
from .arrange import _arrangement_from as _arrangement_from
from .deadwood import (
    best_discard_deadwood,
    best_discards,
    deadwood_after_discards,
    deadwood_after_each,
    min_deadwood,
    min_deadwood_many,
)
from .layoffs import Defense, best_defense, can_lay_off, lay_off, lay_off_all, layoff_closure

# The kernels' tables and helpers that ginrummy.fastmelds, ginrummy.jitmelds and the solitaire
# planner share with the pure path (private to the meld engine, re-exported for them).
from .tables import _DISCARD_DELTA as _DISCARD_DELTA
from .tables import _RANK_MASKS as _RANK_MASKS
from .tables import _REMOVE_ARGS as _REMOVE_ARGS
from .tables import _REMOVE_BEST as _REMOVE_BEST
from .tables import RUN_DEADWOOD, RUN_MELDED, SUIT_BITS, Meld, hand_mask
from .tables import _candidates as _candidates
from .tables import _set_options as _set_options

__all__ = [
    "RUN_DEADWOOD",
    "RUN_MELDED",
    "SUIT_BITS",
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

"""The variants as plug-ins: one :class:`Rules` class a variant, registered by its name.

>>> rules = rules_for("oklahoma")
>>> rules.__name__, rules.facts.upcard_sets_limit
('Oklahoma', True)
>>> from ginrummy.variants import VARIANTS
>>> sorted(RULES) == sorted(v.name for v in VARIANTS)
True

The engine (:class:`ginrummy.engine.State`) makes one rules object a game, ``rules_for(variant)(options)``,
and asks it for every rule: the deal, the legal actions, playing an action, the showdown and its
layoffs, the settlement of a hand and the final totals.  The table games share
:class:`TableGame` (:mod:`ginrummy.rules.table`), the solitaires :class:`SoloGame`
(:mod:`ginrummy.rules.solo`); what they read and change is a :class:`Match`
(:mod:`ginrummy.rules.hand`).
"""

from __future__ import annotations

from typing import Final

from ..variants import find_variant
from .base import Rules
from .hand import Cut, HandLog, HandResult, Match, Phase, ResultKind
from .solo import GinSolitaire, Solitaire, SoloGame
from .table import Classic, Hollywood, Oklahoma, TableGame, Three

__all__ = [
    "RULES",
    "Classic",
    "Cut",
    "GinSolitaire",
    "HandLog",
    "HandResult",
    "Hollywood",
    "Match",
    "Oklahoma",
    "Phase",
    "ResultKind",
    "Rules",
    "Solitaire",
    "SoloGame",
    "TableGame",
    "Three",
    "rules_for",
]

RULES: Final[dict[str, type[Rules]]] = {
    cls.name: cls for cls in (Classic, Oklahoma, Hollywood, Three, Solitaire, GinSolitaire)
}
"""Each variant's rules class, by the variant's name (every variant of :mod:`ginrummy.variants`)."""


def rules_for(variant: str) -> type[Rules]:
    """The rules class of ``variant``; an unknown name raises :class:`~ginrummy.errors.OptionError`."""
    return RULES[find_variant(variant).name]

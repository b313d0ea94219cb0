"""The solitaires' rules as the planner and the clairvoyant need them (:class:`SoloRules`), the
planner's two-draw hold model, and reading an observation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from .. import i18n
from ..cards import CARDS, Card
from ..errors import GinRummyError
from ..variants import find_variant, solo_variants

SOLO_VARIANTS: Final = solo_variants()


def objective_error(objective: object) -> str:
    """The refusal of an objective that is not ``auto``, ``win`` or ``points``."""
    return i18n._("{option} must be auto, win or points, got {value}").format(option="objective", value=repr(objective))


# --- The rules as the planner needs them --------------------------------------------------------
@dataclass(frozen=True)
class SoloRules:
    """The options of a solitaire that matter to play, and the value of each way a hand ends.

    ``objective`` is ``win`` (the chance of gin before the joker: 1 for gin or big gin, else 0) or
    ``points`` (the player's points minus the Joker's).  ``scoring=none`` forces ``win``.
    """

    variant: str
    scoring: str = "knock"  # none | basic | knock (gin-solitaire: knock)
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    undercut_on_tie: bool = False
    big_gin: bool = False
    count_includes_joker: bool = False
    end_at_start: bool = False  # end_before_first_draw (3.4) / end_after_opening_discard (4.2)
    objective: str = "points"
    _sums: dict[tuple[str, int, int], float] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, variant: str, options: Mapping[str, Any] | None = None, objective: str = "auto") -> SoloRules:
        """The rules of ``variant`` with ``options`` (validated as the engine does)."""
        from ..options import options_for

        if variant not in SOLO_VARIANTS:
            raise GinRummyError(
                i18n._("not a solitaire variant: {variant} (expected one of {variants})").format(
                    variant=repr(variant), variants=", ".join(SOLO_VARIANTS)
                )
            )
        o = options_for(variant, dict(options or {})).to_dict()
        scoring = str(o.get("scoring", "knock"))
        if objective == "auto":
            objective = "win" if scoring == "none" else "points"
        if objective not in ("win", "points"):
            raise GinRummyError(objective_error(objective))
        if scoring == "none":
            objective = "win"
        return cls(
            variant=variant,
            scoring=scoring,
            knock_limit=int(o["knock_limit"]),
            gin_bonus=int(o["gin_bonus"]),
            big_gin_bonus=int(o["big_gin_bonus"]),
            undercut_bonus=int(o["undercut_bonus"]),
            undercut_on_tie=bool(o["undercut_on_tie"]),
            big_gin=bool(o["big_gin"]),
            count_includes_joker=bool(o["count_includes_joker"]),
            end_at_start=bool(o.get("end_before_first_draw", o.get("end_after_opening_discard", False))),
            objective=objective,
        )

    @property
    def dealt(self) -> int:
        return find_variant(self.variant).dealt

    @property
    def deck_real(self) -> int:
        """Real cards in the deck below the deal (the joker can be above any of them or last)."""
        return 52 - self.dealt

    @property
    def may_knock(self) -> bool:
        return self.scoring == "knock" and self.objective == "points"

    def end_value(self, event: str, counted: int, deadwood: int) -> int:
        """The value of a hand ending by ``event`` (gin, big-gin, knock, joker) with the count C
        (before ``count_includes_joker``) and deadwood D: rules 3.5-3.8 and 4.5-4.6."""
        if self.objective == "win":
            return 1 if event in ("gin", "big-gin") else 0
        if event == "joker":
            return -deadwood
        c = counted + (1 if self.count_includes_joker else 0)
        if self.scoring == "basic":
            return c
        if event == "big-gin":
            return c + self.big_gin_bonus
        if event == "gin":
            return c + self.gin_bonus
        if c > deadwood:
            return c - deadwood
        if deadwood > c or self.undercut_on_tie:
            return -(deadwood - c + self.undercut_bonus)
        return 0

    def end_sum(self, event: str, deadwood: int, m: int) -> float:
        """The sum of :meth:`end_value` over the counts 0..m (m + 1 equally likely places)."""
        key = (event, deadwood, m)
        v = self._sums.get(key)
        if v is None:
            v = float(sum(self.end_value(event, c, deadwood) for c in range(m + 1)))
            self._sums[key] = v
        return v

    def end_mean(self, event: str, deadwood: int, n: int) -> float:
        """The expected value of ending now with ``n`` unseen cards (C uniform on 0..n)."""
        return self.end_sum(event, deadwood, n) / (n + 1)

    def gin_value(self, counted: float) -> float:
        """The value of gin with a (possibly average) count C: linear in C, so it also gives the
        average over counts."""
        if self.objective == "win":
            return 1.0
        c = counted + (1 if self.count_includes_joker else 0)
        return c if self.scoring == "basic" else c + self.gin_bonus

    def loss(self, deadwood: int) -> int:
        """The value when the joker comes first, holding ``deadwood``."""
        return 0 if self.objective == "win" else -deadwood


# --- The clairvoyant bound ----------------------------------------------------------------------


def hold_chance(outs: int, degrees: Mapping[int, int]) -> float:
    """The planner's two-draw model of the chance of gin before the joker.

    With ``outs`` gin outs and, for each other useful card, ``degrees[c]`` partners that complete a
    gin with it, look at the first of these cards or the joker to come (all orders equally
    likely, whatever else is in the deck): the joker loses, an out wins, a useful card ``c`` leaves
    ``outs + degrees[c]`` outs, which win if one comes before the joker (``k / (k + 1)``).  Exact
    for a hand one card from gin held to the end; an estimate otherwise (later improvements and
    conflicts between pairs are ignored).

    >>> hold_chance(3, {})
    0.75
    >>> round(hold_chance(0, {10: 1, 11: 1}), 4)  # one pair: both cards before the joker
    0.3333
    """
    s = float(outs)
    for d in sorted(degrees.values()):  # in a fixed order: equal profiles give equal values
        k = outs + d
        s += k / (k + 1)
    return s / (outs + len(degrees) + 1)


def _count_after_first(specials: int, n: float) -> float:
    """Expected count C when the first of ``specials`` special items (the joker one of them) among
    ``n + 1`` equally likely places is not the joker: the items strictly between it and the joker."""
    gap = max(0.0, (n + 1 - specials) / (specials + 1))  # expected other items between two specials
    return (specials - 2) / 2 + specials / 2 * gap


def hold_value(rules: SoloRules, outs: int, degrees: Mapping[int, int], n: float, dead: int) -> float:
    """The two-draw hold model of :func:`hold_chance`, valued in the objective's units.

    The first of the outs, the useful pair cards and the joker to come decides: the joker scores
    the deadwood ``dead`` against the player; an out is gin with the average count between it and
    the joker; a pair card leaves ``outs + degree`` outs, held the same way (its count from the
    places left).  With ``objective=win`` this is :func:`hold_chance` exactly.

    >>> r = SoloRules.of("solitaire", {"scoring": "none"})
    >>> hold_value(r, 3, {}, 30, 12) == hold_chance(3, {})
    True
    """
    specials = outs + len(degrees) + 1
    total = float(rules.loss(dead))  # the joker first
    if outs:
        total += outs * rules.gin_value(_count_after_first(specials, n))
    if degrees:
        later = n - (n + 1) / (specials + 1)  # unseen cards left when the first special comes
        for d in sorted(degrees.values()):
            k = outs + d
            gin = rules.gin_value(_count_after_first(k + 1, later))
            total += (k * gin + rules.loss(dead)) / (k + 1)
    return total / specials


# --- Agents -------------------------------------------------------------------------------------
_CARD_INDEX: Final = {str(c): int(c) for c in CARDS}


def _mask(cards: Sequence[str]) -> int:
    m = 0
    for s in cards:
        m |= 1 << _CARD_INDEX[s]
    return m


def _rules_for(variant: str, observation: Mapping[str, Any], objective: str) -> SoloRules:
    opts = observation.get("options") or {}
    return _cached_rules(variant, tuple(sorted(opts.items())), objective)


@lru_cache(maxsize=64)
def _cached_rules(variant: str, opts: tuple[tuple[str, Any], ...], objective: str) -> SoloRules:
    return SoloRules.of(variant, dict(opts), objective)


def _card_int(c: int | str) -> int:
    if isinstance(c, str):
        return int(Card.parse(c))
    return int(c)

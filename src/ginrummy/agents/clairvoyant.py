"""The clairvoyant bound of the solitaires: the exact best result knowing the deck order and the
joker's place (analysis only; see ``docs/strength.md``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..actions import Action
from ..cards import JOKER
from ..errors import GinRummyError
from ..melds import min_deadwood
from ..observe import Observation
from .base import Agent, Decision, register
from .reasons import N_
from .solo_melds import _meld_sizes_with, has_gin10, min_deadwood_of_ten
from .solo_rules import SOLO_VARIANTS, SoloRules, _card_int, _mask, _rules_for

if TYPE_CHECKING:
    from ..engine import State


# --- The clairvoyant bound ----------------------------------------------------------------------
@dataclass(frozen=True)
class ClairvoyantResult:
    """The clairvoyant's best result on one deck order, for every place of the joker.

    ``values[j]`` is the best value with ``j`` real cards above the joker (joker at place j + 1),
    ``mean`` their average (the joker's place is uniform), ``gin_step`` the fewest draws to gin
    (None if the deck never gives one).
    """

    values: tuple[float, ...]
    gin_step: int | None
    stops: tuple[tuple[int, str] | None, ...] = ()  # per j: (draws, event) of the best line, None = the joker

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values)


def _split_deck(rules: SoloRules, deck: Sequence[int]) -> tuple[list[int], list[int], int]:
    """(dealt cards, real deck cards in order, joker place) of a deck given top first."""
    cards = [int(c) for c in deck]
    dealt = cards[: rules.dealt]
    rest = cards[rules.dealt :]
    if JOKER in dealt:
        raise GinRummyError(i18n._("the joker was dealt: there is nothing to play (the deal is void or lost at once)"))
    j = rest.index(JOKER) if JOKER in rest else len(rest)
    return dealt, [c for c in rest if c != JOKER], j


def clairvoyant_value(
    rules: SoloRules, held: Sequence[int] | int, order: Sequence[int], *, start: bool | None = None
) -> ClairvoyantResult:
    """Exact best results knowing the deck.

    ``held`` is the cards in hand (the ten or eleven dealt, or the ten kept after a discard),
    ``order`` the real cards still to come in draw order (the joker taken out); ``start`` says
    whether the hand may end before the next draw (default: the rules' ``end_at_start`` for a deal;
    pass False after a discard).

    Knowing the order, the player can hold any ten of the cards seen so far (keep those, discard
    everything else as it comes), so with the joker after ``j`` more real cards the best result is
    the best over ``t <= j`` of stopping after ``t`` draws with the best ten of ``held + order[:t]``
    (gin, big gin with the card just drawn, or a knock with the least deadwood), or of meeting the
    joker holding the ten with the least deadwood.  Every quantity is exact: no sampling, no
    pruning of value.
    """
    if isinstance(held, int):
        seen = held
    else:
        seen = 0
        for c in held:
            seen |= 1 << int(c)
    if start is None:
        start = rules.end_at_start
    first = 0 if start else 1
    n = len(order)
    scored = rules.objective == "points"
    gin: list[bool] = []
    big: list[bool] = []
    dw: list[int] = []
    gin_step: int | None = None
    for t in range(n + 1):
        if t:
            seen |= 1 << int(order[t - 1])
        if gin_step is not None:
            g = True
        elif seen.bit_count() == 10:
            g = min_deadwood(seen) == 0
        else:
            g = has_gin10(seen)
        b = False
        if rules.big_gin and t >= 1 and (gin_step is None or t - gin_step < 7):
            b = bool(_meld_sizes_with(seen, int(order[t - 1])) >> 11 & 1)
        gin.append(g)
        big.append(b)
        if scored:
            dw.append(0 if g else min_deadwood_of_ten(seen))
        if g and t >= first and gin_step is None:
            gin_step = t
        if gin_step is not None and t - gin_step >= 7 and not scored:
            break
    values = []
    stops: list[tuple[int, str] | None] = []
    for j in range(n + 1):  # j real cards above the joker
        if not scored:
            stop: tuple[int, str] | None = None
            if gin_step is not None and gin_step <= j:
                stop = (gin_step, "gin")
            elif rules.big_gin:
                hit = next((t for t in range(1, min(j, len(big) - 1) + 1) if big[t]), None)
                stop = None if hit is None else (hit, "big-gin")
            values.append(1.0 if stop else 0.0)
            stops.append(stop)
            continue
        best = float(rules.end_value("joker", 0, dw[j]))
        stop = None
        for t in range(first, j + 1):
            c = j - t
            if gin[t]:
                v = rules.end_value("gin", c, 0)
                if v > best:
                    best, stop = v, (t, "gin")
            if big[t]:
                v = rules.end_value("big-gin", c, 0)
                if v > best:
                    best, stop = v, (t, "big-gin")
            if rules.may_knock and 0 < dw[t] <= rules.knock_limit:
                v = rules.end_value("knock", c, dw[t])
                if v > best:
                    best, stop = v, (t, "knock")
        values.append(best)
        stops.append(stop)
    return ClairvoyantResult(tuple(values), gin_step, tuple(stops))


def clairvoyant_line(rules: SoloRules, deck: Sequence[int]) -> tuple[float, tuple[int, str] | None]:
    """The clairvoyant's best value on a full deck (top first, joker included) and its line:
    (draws, event) where it goes out, or None when it meets the joker."""
    dealt, order, j = _split_deck(rules, deck)
    res = clairvoyant_value(rules, dealt, order)
    return res.values[j], res.stops[j]


@register("clairvoyant", SOLO_VARIANTS)
class ClairvoyantAgent(Agent):
    """The upper bound: plays perfectly knowing the deck order and the joker's place.

    Analysis only.  It must be given the deal: ``state`` (it reads the deck of the hand in play,
    ``state.logs[-1].deck``) or ``deck`` (top first, joker included).  Without one it refuses to
    act (raises :class:`GinRummyError`): it is registered only so that ``make_agent`` can build it
    for analysis tools, never to sit at a table.
    """

    name = "clairvoyant"

    def __init__(
        self,
        variant: str,
        seed: int | None = None,
        *,
        state: State | None = None,
        deck: Sequence[int | str] | None = None,
        objective: str = "auto",
    ) -> None:
        if variant not in SOLO_VARIANTS:
            raise GinRummyError(
                i18n._("the clairvoyant plays the solitaires only, not {variant}").format(variant=repr(variant))
            )
        super().__init__(variant, seed)
        self.state = state
        self.deck = None if deck is None else [_card_int(c) for c in deck]
        self.objective = objective

    def _deck(self) -> list[int]:
        if self.deck is not None:
            return self.deck
        if self.state is not None and self.state.logs:
            return [int(c) for c in self.state.logs[-1].deck]
        raise GinRummyError(
            i18n._(
                "the clairvoyant is an analysis tool that must be given the deal ({state} or {deck}); it cannot "
                "play from an observation"
            ).format(state="state=", deck="deck=")
        )

    def evaluate(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> list[tuple[Action, float]]:
        """Every legal action with its exact value knowing the deck, best first."""
        rules = _rules_for(self.variant, observation, self.objective)
        deck = self._deck()
        dealt_cards, order, joker_at = _split_deck(rules, deck)
        hand = _mask(observation.get("hand") or [])
        discards = observation.get("discards") or []
        drawn = hand.bit_count() + len(discards) - rules.dealt
        seen = sum(1 << c for c in dealt_cards) | sum(1 << c for c in order[:drawn])
        if hand & ~seen:
            raise GinRummyError(i18n._("the observation does not belong to the clairvoyant's deal"))
        rest = order[drawn:]
        above = joker_at - drawn  # real cards left above the joker
        if above < 0:
            raise GinRummyError(i18n._("the joker has already come: the hand is over"))
        out = []
        for a in legal:
            if a.kind in ("gin", "knock"):
                kept = hand if a.card is None else hand & ~(1 << int(a.card))
                event = "big-gin" if a.kind == "gin" and a.card is None and hand.bit_count() == 11 else a.kind
                v = float(rules.end_value(event, above, 0 if a.kind == "gin" else min_deadwood(kept)))
            elif a.kind == "discard" and a.card is not None:
                v = clairvoyant_value(rules, hand & ~(1 << int(a.card)), rest, start=False).values[above]
            elif a.kind == "draw":
                v = clairvoyant_value(rules, hand, rest, start=False).values[above]
            else:  # pragma: no cover
                v = -math.inf
            out.append((a, v))
        out.sort(key=lambda t: (-t[1], t[0].id if t[0].melds is None else 0))
        return out

    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        if not legal:
            raise GinRummyError(i18n._("no legal action to choose from"))
        ranked = self.evaluate(observation, legal)
        best, value = ranked[0]
        return Decision(
            best,
            N_("Knowing the deck: best result {value}.", value=f"{value:g}"),
            {str(a): v for a, v in ranked},
        )

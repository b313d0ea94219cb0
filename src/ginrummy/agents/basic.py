"""The two baseline players, for every variant.

* ``random`` picks a legal action uniformly at random.
* ``greedy`` takes the upcard or the discard only if that lowers its best deadwood, discards to
  keep the least deadwood (ties: the highest card), and goes gin or knocks as soon as it may.

Both are stateless and reproducible: the random stream is seeded from the agent's seed and the
observation (see :func:`ginrummy.agents.knowledge.obs_rng`).

>>> from ginrummy.engine import State
>>> s = State.new("classic"); s.deal(seed=5)
>>> g = GreedyAgent("classic", seed=1)
>>> g.act(s.observation(s.current_player), s.legal_actions()) in s.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .. import i18n
from ..actions import Action
from ..melds import best_discards, min_deadwood
from ..observe import Observation
from ..variants import variant_names
from .base import Agent, Decision, register
from .knowledge import CARD_INDEX, VALUES, card_mask, obs_rng
from .reasons import N_

__all__ = ["ALL_VARIANTS", "GreedyAgent", "RandomAgent", "greedy_choice"]

ALL_VARIANTS: Final = variant_names()


@register("random", ALL_VARIANTS)
class RandomAgent(Agent):
    """Uniformly random legal actions (reproducible for a seed and an observation)."""

    name = "random"

    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        if not legal:
            raise ValueError(i18n._("no legal action to choose from"))
        rng = obs_rng(self.seed, observation, "random")
        return Decision(legal[rng.randrange(len(legal))], N_("A random legal action."))


@register("greedy", ALL_VARIANTS)
class GreedyAgent(Agent):
    """Least deadwood now; out at the first chance."""

    name = "greedy"

    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        return greedy_choice(observation, legal)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """:meth:`decide`'s action without its reason (the simulator's path)."""
        return greedy_choice(observation, legal, explain=False).action


def _discard_key(card: int, deadwood: int) -> tuple[int, int, int, int]:
    # Least deadwood first; ties: the highest value, then the highest rank, then the highest suit.
    return (deadwood, -VALUES[card], -(card % 13), -(card // 13))


def _tie_key(card: int) -> tuple[int, int, int]:
    return (VALUES[card], card % 13, card // 13)


def greedy_choice(observation: Mapping[str, Any], legal: Sequence[Action], explain: bool = True) -> Decision:
    """The greedy decision for any variant (also the advisor's fallback); without ``explain``, the
    same action with no reason for the draws and discards."""
    if not legal:
        raise ValueError(i18n._("no legal action to choose from"))
    hand = card_mask(observation.get("hand") or [])
    kinds = {a.kind for a in legal}
    # Going out: big gin, then gin, then the lowest knock.
    outs = [a for a in legal if a.kind in ("gin", "knock")]
    if outs:
        for a in outs:
            if a.kind == "gin" and a.card is None:
                return Decision(a, N_("Big gin: all eleven cards are melded."))
        best: Action | None = None
        best_key: tuple[int, int, int, int, int] | None = None
        for a in outs:
            if a.card is None:
                key = (0 if a.kind == "gin" else 1, min_deadwood(hand), 0, 0, 0)
            else:
                c = int(a.card)
                key = (0 if a.kind == "gin" else 1, *_discard_key(c, min_deadwood(hand & ~(1 << c))))
            if best_key is None or key < best_key:
                best, best_key = a, key
        assert best is not None and best_key is not None
        if best.kind == "gin":
            return Decision(best, N_("Gin: every card is melded."))
        return Decision(best, N_("Knock with deadwood {deadwood}.", deadwood=best_key[1]))
    if "take" in kinds or ("draw" in kinds and "discard" not in kinds):
        take = next((a for a in legal if a.kind == "take"), None)
        other = next((a for a in legal if a.kind in ("pass", "draw")), legal[0])
        top = _top_card(observation)
        if take is None or top is None:
            return Decision(other, N_("Draw from the stock."))
        now = min_deadwood(hand)
        allow = bool((observation.get("options") or {}).get("discard_drawn_upcard_allowed", False))
        with_top = hand | (1 << top)
        after = -1
        if with_top.bit_count() == 11:  # the best discards at once (the same least, when one may go)
            least, cards = best_discards(with_top)
            if allow or cards & ~(1 << top):
                after = least
        if after < 0:
            after = min(
                (min_deadwood(with_top & ~(1 << c)) for c in range(52) if with_top >> c & 1 and (allow or c != top)),
                default=now,
            )
        if after < now:
            return Decision(take, N_("Take it: deadwood {now} -> {after}.", now=now, after=after) if explain else None)
        return Decision(other, N_("The card does not lower the deadwood.") if explain else None)
    discards = [a for a in legal if a.kind == "discard" and a.card is not None]
    if discards and hand.bit_count() == 11:
        # The best discards at once: among the legal ones that reach the least deadwood, the
        # highest value, rank and suit (as ``_discard_key`` orders them).
        least, cards = best_discards(hand)
        tied = [a for a in discards if cards >> int(a.card or 0) & 1]
        if tied:
            choice = max(tied, key=lambda a: _tie_key(int(a.card or 0)))
            if not explain:
                return Decision(choice)
            return Decision(choice, N_("Discard {card}: deadwood {deadwood}.", card=choice.card, deadwood=least))
    if discards:
        scored = []
        for a in discards:
            c = int(a.card) if a.card is not None else 0
            scored.append((_discard_key(c, min_deadwood(hand & ~(1 << c))), a))
        dkey, choice = min(scored, key=lambda t: t[0])
        return Decision(choice, N_("Discard {card}: deadwood {deadwood}.", card=choice.card, deadwood=dkey[0]))
    return Decision(legal[0], N_("The only sensible action."))


def _top_card(observation: Mapping[str, Any]) -> int | None:
    pile = observation.get("discard_pile")
    if pile:
        return CARD_INDEX[pile[-1]]
    up = observation.get("upcard")
    return CARD_INDEX[up] if up else None

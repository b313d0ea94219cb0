"""Solitaire players: the ``planner`` and the ``clairvoyant`` bound (rule book sections 3 and 4).

Both solitaires share one fact that makes them tractable: the cards the player has not seen are
known exactly (the discards lie under the joker, or face down out of play), and the joker lies
uniformly among the places above the known discards.  From any position, the rest of the hand is a
uniformly random order of the ``n`` unseen cards with the joker at a uniformly random one of the
``n + 1`` places.  So:

* the count ``C`` on ending now (the cards above the joker) is uniform on ``0..n``, and the value of
  knocking or going gin now is an exact average over it;
* along any sequence of play the joker's place is independent of the cards drawn before it, so a
  rollout (one order of the unseen cards) is scored exactly over every place of the joker at once.

The ``planner`` (stateless: everything comes from the observation) values ending now exactly and
each discard by a *hold model* of its gin profile: the unseen cards that make gin on the next draw
(counted exactly: the chance of gin next is ``outs / (n + 1)``) and, for its shortlist, every pair
of unseen cards that makes gin within two draws; the first of those cards or the joker to come
decides (:func:`hold_chance`, :func:`hold_value`).  It plays for the chance of gin
(``scoring=none``, or ``objective=win``) or for expected points (the scored modes, where the
model weighs gin against the deadwood the joker would score); with ``depth=3`` each discard is
valued one draw deeper (:func:`three_draw_value`, from the gins within three draws).  A knock
that beats the model is checked against rollouts of playing on (stratified over the next card, common to
the candidates, each scored exactly over every place of the joker).  A decision takes about a
millisecond (about ten with ``depth=3``).

The ``clairvoyant`` knows the deck order and the joker's place.  It is an analysis tool, never a
player: it must be given the deal (``clairvoyant_value``, ``clairvoyant_line`` or a
:class:`ClairvoyantAgent` built with the state).  Because it may keep any ten of the cards it has
seen (it discards everything else as it comes), its best result on a deal is an exact maximum over
when to stop and with which ten cards; see ``docs/strength.md``.

The code lives in :mod:`~ginrummy.agents.solo_melds` (fast meld primitives, exact, checked against
:mod:`ginrummy.melds` in the tests), :mod:`~ginrummy.agents.solo_rules` (the rules and the hold
model), :mod:`~ginrummy.agents.planner` and :mod:`~ginrummy.agents.clairvoyant`; this module
gathers their public names:

* :func:`melded_sizes`: the sizes of every all-melded subset of a card set (as a bit mask);
* :func:`has_gin10`: whether ten of the cards can form a gin hand;
* :func:`min_deadwood_of_ten`: the least deadwood of any ten cards of a set;
* :func:`gin_outs` and :func:`gin_pairs`: the cards, and pairs of cards, that complete a gin.

>>> from ginrummy.cards import CardSet
>>> has_gin10(int(CardSet.parse("2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd Ah")))
True
>>> min_deadwood_of_ten(int(CardSet.parse("2c 3c 4c 7h 7d 9s Ts Js Qs Kd Ah 5h")))
13
"""

from __future__ import annotations

# The public names of the four modules (the `x as x` imports: private helpers that analysis code
# and the tests reach through this module).
from .clairvoyant import ClairvoyantAgent, ClairvoyantResult, clairvoyant_line, clairvoyant_value
from .planner import (
    PlannerAgent,
    PlanReport,
    advise_solitaire,
    evaluate_actions,
    rollout_value,
    three_draw_value,
)
from .planner import _completion_lists as _completion_lists
from .planner import _outs_and_degrees as _outs_and_degrees
from .solo_melds import _meld_sizes_with as _meld_sizes_with
from .solo_melds import (
    gin_completions,
    gin_outs,
    gin_pairs,
    has_gin10,
    melded_sizes,
    min_deadwood_of_ten,
)
from .solo_rules import _CARD_INDEX as _CARD_INDEX
from .solo_rules import SOLO_VARIANTS, SoloRules, hold_chance, hold_value

__all__ = [
    "SOLO_VARIANTS",
    "ClairvoyantAgent",
    "ClairvoyantResult",
    "PlanReport",
    "PlannerAgent",
    "SoloRules",
    "advise_solitaire",
    "clairvoyant_line",
    "clairvoyant_value",
    "evaluate_actions",
    "gin_completions",
    "gin_outs",
    "gin_pairs",
    "has_gin10",
    "hold_chance",
    "hold_value",
    "melded_sizes",
    "min_deadwood_of_ten",
    "rollout_value",
    "three_draw_value",
]

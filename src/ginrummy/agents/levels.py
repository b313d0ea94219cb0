"""Five playing levels for the table games, from ``beginner`` to ``expert``.

Each level is the ``expert``'s evaluation with a weaker player's habits, not random blunders:

* **memory**: a weaker player remembers only the last few cards buried in the pile (the top card
  is always in view) and may not keep track of the cards the opponent picked up; a forgotten card
  counts as unseen, so it may wrongly be hoped for or feared;
* **judgement**: each option's value is misjudged by a random error (``noise``, in points; the
  error is drawn afresh for each decision, reproducibly for a seed), so close choices go either
  way and clear ones rarely do;
* **knocking**: the lower levels knock too soon (a beginner knocks as soon as the rules allow,
  and never plays on for gin or a lower count);
* a beginner takes the upcard or the discard only when it lowers the count, and does not think
  about which discards help the opponent (``danger`` 0); the next levels think about it less.

>>> from ginrummy.agents import make_agent
>>> [make_agent(name, "classic").name for name in LEVELS]
['beginner', 'casual', 'intermediate', 'advanced', 'expert']

The levels are ordinary agents: ``make_agent(name, variant)``, ``--agents``/``--opponent`` on the
command line.  ``docs/strength.md`` measures each one against the next.
"""

from __future__ import annotations

from typing import Any, Final

from ..i18n import N_
from .base import register
from .expert import TABLE_VARIANTS, ExpertAgent, Params

__all__ = ["LEVELS", "LEVEL_DESCRIPTIONS", "LEVEL_PARAMS", "LevelAgent"]

LEVELS: Final = ("beginner", "casual", "intermediate", "advanced", "expert")
"""The level names, weakest first (``expert`` is :class:`~ginrummy.agents.expert.ExpertAgent`)."""

LEVEL_DESCRIPTIONS: Final[dict[str, str]] = {
    "beginner": N_("knocks as soon as it can, remembers only the top card, takes only what lowers its count"),
    "casual": N_("remembers only the last discard, often misjudges, knocks early"),
    "intermediate": N_("remembers the last two discards and the opponent's pickups, misjudges, knocks a little early"),
    "advanced": N_("remembers the last few discards and the pickups; misjudges close choices"),
    "expert": N_("tracks every card, models the opponent's hand, weighs knocking against playing on"),
}
"""One line for each level, for menus and help texts (in English; marked for translation, shown
translated by the browser page)."""

LEVEL_PARAMS: Final[dict[str, dict[str, Any]]] = {
    "beginner": {
        "memory": 0,
        "pickups": False,
        "noise": 7.0,
        "danger": 0.0,
        "lam": 0.5,
        "gin_weight": 0.3,
        "greedy_draw": True,
        "late_knock_stock": 99,
    },
    "casual": {"memory": 1, "pickups": False, "noise": 4.0, "danger": 1.0, "lam": 1.0, "knock_bias": -8.0},
    "intermediate": {"memory": 2, "noise": 4.0, "danger": 2.0, "lam": 1.2, "knock_bias": -3.0},
    "advanced": {"memory": 4, "noise": 2.5, "danger": 3.0},
    "expert": {},
}
"""The :class:`~ginrummy.agents.expert.Params` fields each level changes."""


class LevelAgent(ExpertAgent):
    """The expert's evaluation with a level's habits (:data:`LEVEL_PARAMS`)."""

    level = "expert"

    def __init__(self, variant: str, seed: int | None = None, params: Params | None = None, **fields: Any) -> None:
        super().__init__(variant, seed, params, **{**LEVEL_PARAMS[self.level], **fields})
        self.name = self.level


@register("beginner", TABLE_VARIANTS)
class BeginnerAgent(LevelAgent):
    level = "beginner"


@register("casual", TABLE_VARIANTS)
class CasualAgent(LevelAgent):
    level = "casual"


@register("intermediate", TABLE_VARIANTS)
class IntermediateAgent(LevelAgent):
    level = "intermediate"


@register("advanced", TABLE_VARIANTS)
class AdvancedAgent(LevelAgent):
    level = "advanced"

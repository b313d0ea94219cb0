"""Many hands between computer players, on every core: ``ginrummy simulate``.

A job names a variant, the agents, a number of deals and a master seed.  Deal ``i`` is dealt from
a seed derived from the master seed and ``i`` alone (:func:`deal_seed`), and every agent is seeded
from the master seed and its place in the list, so a job gives the same results whatever the
number of workers and whatever order the workers finish in.

* Two-player games (classic, Oklahoma, Hollywood) play each deal twice, seats swapped (mirrored
  deals); three-player gin plays each deal three times, the seats rotated.  Statistics are
  clustered by deal: the confidence intervals come from per-deal averages.
* The solitaires play each deal once per agent (the same deals for every agent).  With
  ``exact=True`` a solitaire hand is scored by its exact expectation over the joker's place: the
  deal is played with the joker moved to the bottom, and since the joker's place is independent of
  the play before it, the outcome for every place follows from that one line of play (see
  ``docs/strength.md``); the win rate is then the chance of winning the hand (gin with
  ``scoring=none``, else scoring any points) and the points the expected net points.

With ``games=True`` each "deal" is a whole game to the target (mirrored or rotated the same way,
hand ``k`` of a game dealt from the same seed in every seating); a game's points are the final
totals (with the end-of-game bonuses).

A solitaire hand is won when the player scores (gin, or a knock the Joker does not undercut; gin
with ``scoring=none``); its points are the player's minus the Joker's.  A table hand is won by the
seat that scores; its points are that seat's.

>>> res = simulate(SimJob("solitaire", ("greedy",), hands=4, seed=1, options={"scoring": "none"}), workers=1)
>>> res.rows[0].agent, res.rows[0].hands
('greedy', 4)
"""

from __future__ import annotations

from .jobs import AgentSpec, DealOutcome, SimJob, agent_seed, deal_seed, parse_agent
from .jobs import _value as _value  # used by benchmarks/expert_ab.py
from .play import SoloLine, play_deal, play_game, solo_line
from .play import _deck as _deck  # the deals of a job, for the strength benchmarks and tests
from .run import Progress, have_ray, progress_printer, simulate, worker_cap
from .stats import SimResult, SimRow, mean_ci, summarise
from .stats import _Moments as _Moments  # the clustered moments, for the tests

__all__ = [
    "AgentSpec",
    "DealOutcome",
    "Progress",
    "SimJob",
    "SimResult",
    "SimRow",
    "SoloLine",
    "agent_seed",
    "deal_seed",
    "have_ray",
    "mean_ci",
    "parse_agent",
    "play_deal",
    "play_game",
    "progress_printer",
    "simulate",
    "solo_line",
    "summarise",
    "worker_cap",
]

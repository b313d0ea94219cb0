"""Per-seat observations: everything a seat may know, and nothing else.

One :class:`Observer` a (state, seat) is the privacy boundary.  It decides once what that seat
may know -- its own cards, the captain's hand for three's sitter, the cards an opponent is known
to hold, the cards it has not seen -- and makes from that knowledge:

- :meth:`Observer.observation`: the JSON-ready :class:`Observation` (a ``TypedDict``) that
  agents and front ends get (the web protocol sends it as it is);
- :meth:`Observer.masks`: the same knowledge as card masks and numbers (:class:`MaskObservation`);
- :meth:`Observer.arrays`: the float32 observation vector and the action mask the RL
  environments use (:data:`PLANES` then :data:`SCALARS`, see :mod:`ginrummy.envs.encoding`), as
  bytes: no NumPy needed.

Each is built only when asked.  An observation never holds another seat's hidden cards nor the
order of the stock; cards become public only when the rules show them (the upcard, discards, a
card taken from the discard pile, the spread at a showdown, the cards counted down to the joker).

>>> from ginrummy.engine import State
>>> s = State.new("classic")
>>> s.deal(seed=7)
>>> obs = s.observation(1)
>>> obs["phase"], obs["legal_actions"], len(obs["hand"]), obs["stock_size"]
('upcard', ['take', 'pass'], 10, 31)
>>> Observer(s, 1).masks().own.bit_count()
10
>>> vector, mask = Observer(s, 1).arrays()
>>> len(vector) // 4 == OBS_SIZE, sum(mask)
(True, 2)
"""

from __future__ import annotations

from .arrays import NUM_PLANES, NUM_SCALARS, OBS_SIZE, PLANES, SCALARS, arrays_of, masks_of
from .observer import Observer, observe, observe_arrays, observe_masks, public_history
from .schema import HistoryEntry, MaskObservation, Observation, ObservedState, Roles

__all__ = [
    "NUM_PLANES",
    "NUM_SCALARS",
    "OBS_SIZE",
    "PLANES",
    "SCALARS",
    "HistoryEntry",
    "MaskObservation",
    "Observation",
    "ObservedState",
    "Observer",
    "Roles",
    "arrays_of",
    "masks_of",
    "observe",
    "observe_arrays",
    "observe_masks",
    "public_history",
]

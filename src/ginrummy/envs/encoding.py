"""Numpy encodings of an observation: card planes and scalars, and the action mask.

Everything here is computed from what one seat may know and from nothing else, so an encoded
observation can never leak a hidden card.  The arrays are written by the seat's observer
(:meth:`ginrummy.observe.Observer.arrays`, which also makes the observation dict); this module
wraps them as NumPy arrays: :func:`encode_state` (the environments' hot path) from the state,
:func:`encode` from an observation dict (one that came as JSON, say) through
:func:`ginrummy.observe.masks_of`.  The two give identical arrays (the tests check it on every
step of random games).

The ``observation`` vector (``float32``, length :data:`OBS_SIZE`) is five card planes of 52 (card
index = ``int(Card)``: suit-major, ``Ac`` = 0 ... ``Kc`` = 12, ``Ad`` = 13 ... ``Ks`` = 51)
followed by :data:`NUM_SCALARS` scalars; :data:`PLANES` and :data:`SCALARS` name them in order.

>>> from ginrummy.engine import State
>>> s = State.new("classic")
>>> s.deal(seed=7)
>>> enc = encode(s.observation(1))
>>> enc["observation"].shape, enc["action_mask"].shape, int(enc["action_mask"].sum())
((280,), (213,), 2)
>>> int(enc["observation"][plane_slice("hand")].sum())
10
>>> fast = encode_state(s, 1)
>>> bool((fast["observation"] == enc["observation"]).all() and (fast["action_mask"] == enc["action_mask"]).all())
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS, Action
from ..cards import CARDS
from ..observe import (
    NUM_PLANES,
    NUM_SCALARS,
    OBS_SIZE,
    PLANES,
    SCALARS,
    Observation,
    arrays_of,
    masks_of,
    observe_arrays,
)

if TYPE_CHECKING:
    from ..engine import State

__all__ = [
    "ACTION_IDS",
    "CARD_INDEX",
    "NUM_PLANES",
    "NUM_SCALARS",
    "OBS_SIZE",
    "PLANES",
    "SCALARS",
    "action_mask",
    "encode",
    "encode_state",
    "observation_bounds",
    "plane_slice",
    "scalar_index",
]

CARD_INDEX: Final[dict[str, int]] = {str(c): int(c) for c in CARDS}
"""Card text (``"7h"``) -> card index 0..51."""
ACTION_IDS: Final[dict[str, int]] = {str(Action.from_id(i)): i for i in range(NUM_ACTIONS)}
"""Action text (``"discard 7h"``) -> action id 0..212."""

_PLANE: Final = {name: i for i, name in enumerate(PLANES)}
_SCALAR: Final = {name: 52 * NUM_PLANES + i for i, (name, _) in enumerate(SCALARS)}
_F32: Final = np.dtype("<f4")
_I8: Final = np.dtype(np.int8)

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def plane_slice(name: str) -> slice:
    """The slice of the observation vector holding plane ``name`` (one of :data:`PLANES`)."""
    start = 52 * _PLANE[name]
    return slice(start, start + 52)


def scalar_index(name: str) -> int:
    """The index in the observation vector of scalar ``name`` (one of :data:`SCALARS`)."""
    return _SCALAR[name]


def observation_bounds() -> tuple[FloatArray, FloatArray]:
    """Lowest and highest values of each entry of the observation vector."""
    low = np.zeros(OBS_SIZE, dtype=np.float32)
    high = np.ones(OBS_SIZE, dtype=np.float32)
    for i, (_, hi) in enumerate(SCALARS):
        high[52 * NUM_PLANES + i] = hi
    return low, high


def action_mask(obs: Observation) -> MaskArray:
    """1 for each legal action id of the seat that ``obs`` belongs to (all 0 when it is not to act)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    legal = obs.get("legal_actions")
    if legal:
        mask[[ACTION_IDS[a] for a in legal]] = 1
    return mask


def _wrap(arrays: tuple[bytearray, bytearray]) -> dict[str, npt.NDArray[Any]]:
    vector, legal = arrays
    # new bytearrays: writeable arrays without a copy (a caller may change them in place)
    return {"observation": np.frombuffer(vector, _F32), "action_mask": np.frombuffer(legal, _I8)}


def encode(obs: Observation) -> dict[str, npt.NDArray[Any]]:
    """The ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}`` of an
    observation dict from :meth:`ginrummy.engine.State.observation`."""
    return _wrap(arrays_of(masks_of(obs)))


def encode_state(state: State, seat: int) -> dict[str, npt.NDArray[Any]]:
    """:func:`encode` of ``state.observation(seat)``, written from the seat's knowledge
    (:meth:`~ginrummy.engine.State.observation_masks`, the seat's observer) without building the
    dict (several times faster: the environments' hot path)."""
    if type(seat) is not int or not 0 <= seat < state.num_seats:
        return _wrap(arrays_of(state.observation_masks(seat)))  # which refuses a bad seat, naming it
    return _wrap(observe_arrays(state, seat))

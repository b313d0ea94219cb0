"""Numpy encodings of an observation: card planes and scalars, and the action mask.

Everything here is computed from what one seat may know and from nothing else, so an encoded
observation can never leak a hidden card: :func:`encode` from the JSON-ready dict of
:meth:`ginrummy.engine.State.observation`, :func:`encode_state` (the environments' hot path) from
:meth:`ginrummy.engine.State.observation_masks`, the same knowledge as card masks.  The two give
identical arrays (the tests check it on every step of random games).

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

import struct
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from ..actions import NUM_ACTIONS, Action
from ..cards import CARDS
from ..variants import find_variant, solo_variants

if TYPE_CHECKING:
    from ..engine import State

__all__ = [
    "ACTION_IDS",
    "CARD_INDEX",
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

PLANES: Final = (
    "hand",  # the cards this seat holds (the sitter in three: the captain's hand, which it may see, rule 2.2)
    "discard_top",  # the top card of the discard pile (table games); the last discard (solitaires)
    "discards",  # every card face up in the discard pile (table games); the player's discards (solitaires)
    "opponent_known",  # cards an opponent is known to hold (taken from the discard pile, not yet discarded)
    "unseen",  # cards this seat has not seen: in the stock, an opponent's hand, or (solitaires) above the joker
)

# (name, highest value): every scalar lies in [0, high].
SCALARS: Final = (
    ("phase_upcard", 1.0),  # rule 1.4: take or pass the first upcard
    ("phase_draw", 1.0),
    ("phase_discard", 1.0),  # holding 11: discard, knock or gin
    ("phase_opening", 1.0),  # solitaire with end_before_first_draw
    ("phase_hand_over", 1.0),  # between hands, or the game is over
    ("to_act", 1.0),
    ("stock_size", 1.0),  # cards in the stock (deck) / 53
    ("knock_limit", 10.0),  # knock limit / 10 (Oklahoma: the upcard's value)
    ("deadwood", 2.0),  # own deadwood (best arrangement of the cards held) / 100
    ("hand_size", 1.0),  # cards held / 11
    ("dealer", 1.0),  # this seat dealt the hand (three: this seat is in the box)
    ("role_box", 1.0),  # three only
    ("role_captain", 1.0),  # three only
    ("role_sitter", 1.0),  # three only
    ("own_total", 2.0),  # own running total / target, at most 2
    ("opponent_total", 2.0),  # highest opponent total / target, at most 2 (solitaires: the Joker's)
    ("above_joker_max", 1.0),  # solitaires: most cards that can lie above the joker / 43
    ("joker_next_chance", 1.0),  # solitaires: the chance that the next card drawn is the joker
    ("draws", 1.0),  # solitaires: cards drawn this hand / 43
    ("hand_number", 1.0),  # hands played in this game / 100, at most 1
)

NUM_PLANES: Final = len(PLANES)
NUM_SCALARS: Final = len(SCALARS)
OBS_SIZE: Final = 52 * NUM_PLANES + NUM_SCALARS

CARD_INDEX: Final[dict[str, int]] = {str(c): int(c) for c in CARDS}
"""Card text (``"7h"``) -> card index 0..51."""
ACTION_IDS: Final[dict[str, int]] = {str(Action.from_id(i)): i for i in range(NUM_ACTIONS)}
"""Action text (``"discard 7h"``) -> action id 0..212."""

_PLANE: Final = {name: i for i, name in enumerate(PLANES)}
_SCALAR: Final = {name: 52 * NUM_PLANES + i for i, (name, _) in enumerate(SCALARS)}
_PHASES: Final = {"upcard": 0, "draw": 1, "discard": 2, "opening": 3, "deal": 4, "over": 4}
_BIT: Final = {c: 1 << i for c, i in CARD_INDEX.items()}
_ALL: Final = (1 << 52) - 1

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


def action_mask(obs: dict[str, Any]) -> MaskArray:
    """1 for each legal action id of the seat that ``obs`` belongs to (all 0 when it is not to act)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    legal = obs.get("legal_actions")
    if legal:
        mask[[ACTION_IDS[a] for a in legal]] = 1
    return mask


def _bits(mask: int, nbits: int) -> npt.NDArray[np.uint8]:
    """The low ``nbits`` bits of ``mask`` as 0/1 bytes, least significant first."""
    raw = np.frombuffer(mask.to_bytes((nbits + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=nbits, bitorder="little")


def encode(obs: dict[str, Any]) -> dict[str, npt.NDArray[Any]]:
    """The ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}`` of an
    observation dict from :meth:`ginrummy.engine.State.observation`."""
    variant = find_variant(obs["variant"])
    solo = variant.solo
    seat = obs["seat"]
    in_hand = bool(obs["hand_number"])
    own: list[str] = obs.get("hand") or []
    hand = own or obs.get("captain_hand") or []  # the sitter sees the captain's hand (rule 2.2)
    # Card sets as 52-bit masks (disjoint lists, so sum == union).
    held = sum(map(_BIT.__getitem__, hand))
    known = 0
    if solo:
        discards: list[str] = obs.get("discards") or []
        pile = sum(map(_BIT.__getitem__, discards))
        top = _BIT[discards[-1]] if discards else 0
        unseen_cards = obs.get("unseen")
        unseen = sum(map(_BIT.__getitem__, unseen_cards)) if unseen_cards is not None else 0
    else:
        pile_cards: list[str] = obs.get("discard_pile") or []
        pile = sum(map(_BIT.__getitem__, pile_cards))
        top = _BIT[pile_cards[-1]] if pile_cards else 0
        for cards in (obs.get("known_cards") or {}).values():
            for c in cards:
                known |= _BIT[c]
        known &= ~held
        seen = held | pile | known
        res = obs.get("result")
        if res is not None:
            # At a showdown the spread cards are public.
            for key in ("knocker_unmatched", "defender_unmatched", "laid_off"):
                for c in res.get(key, ()):
                    seen |= _BIT[c]
            for key in ("knocker_melds", "defender_melds"):
                for meld in res.get(key, ()):
                    for c in meld:
                        seen |= _BIT[c]
        unseen = _ALL & ~seen
    if not in_hand:
        unseen = _ALL  # before the first deal nothing has been seen
    vec = np.empty(OBS_SIZE, dtype=np.float32)
    vec[: 52 * NUM_PLANES] = _bits(held | top << 52 | pile << 104 | known << 156 | unseen << 208, 52 * NUM_PLANES)
    opts = obs["options"]
    target = max(int(opts.get(variant.target_option) or 100), 1)
    totals: list[int] = obs["totals"]
    others = [t for i, t in enumerate(totals) if i != seat]
    roles = obs.get("roles")
    scalars = [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0 if obs.get("to_act") else 0.0,
        obs.get("deck_size" if solo else "stock_size", 0) / 53,
        obs.get("knock_limit", opts.get("knock_limit", 10)) / 10,
        min(obs.get("deadwood", 0) / 100, 2.0),
        len(own) / 11,
        float(obs.get("dealer") == seat) if not solo else 0.0,
        float(roles["box"] == seat) if roles else 0.0,
        float(roles["captain"] == seat) if roles else 0.0,
        float(roles["sitter"] == seat) if roles else 0.0,
        min(totals[seat] / target, 2.0),
        min(max(others) / target, 2.0) if others else 0.0,
        obs.get("cards_above_joker_max", 0) / 43 if solo else 0.0,
        (obs.get("joker_next_chance") or 0.0) if solo else 0.0,
        min(obs.get("draws", 0) / 43, 1.0) if solo else 0.0,
        min(obs["hand_number"] / 100, 1.0),
    ]
    scalars[_PHASES.get(obs["phase"], 4)] = 1.0
    vec[52 * NUM_PLANES :] = scalars
    return {"observation": vec, "action_mask": action_mask(obs)}


_SOLO: Final = frozenset(solo_variants())
_SCALAR0: Final = 52 * NUM_PLANES
# The float32 bytes of every 13-bit chunk of a card plane (a suit): a plane row is four lookups.
_CHUNK: Final = tuple(struct.pack("13f", *((x >> i) & 1 for i in range(13))) for x in range(1 << 13))
_PACK_SCALARS: Final = struct.Struct(f"{NUM_SCALARS}f").pack
_NO_ACTIONS: Final = bytes(NUM_ACTIONS)
_PHASE_ONE_HOT: Final = {
    phase: tuple(1.0 if i == _PHASES[phase] else 0.0 for i in range(5))
    for phase in ("upcard", "draw", "discard", "opening", "deal", "over")
}


def encode_state(state: State, seat: int) -> dict[str, npt.NDArray[Any]]:
    """:func:`encode` of ``state.observation(seat)``, computed from the seat's
    :meth:`~ginrummy.engine.State.observation_masks` without building the dict (several times
    faster: the environments' hot path)."""
    m = state.observation_masks(seat)
    target = m.target if m.target > 1 else 1
    totals = m.totals
    own = totals[seat] / target
    if len(totals) == 2:
        other: float = totals[1 - seat] / target
    else:
        others = [t for i, t in enumerate(totals) if i != seat]
        other = max(others) / target if others else 0.0
    roles = m.roles
    deadwood = (m.deadwood or 0) / 100
    scalars = _PACK_SCALARS(
        *_PHASE_ONE_HOT[m.phase],
        1.0 if m.to_act else 0.0,
        m.stock_size / 53,
        m.knock_limit / 10,
        deadwood if deadwood < 2.0 else 2.0,
        m.own.bit_count() / 11,
        1.0 if m.dealer == seat and state.variant not in _SOLO else 0.0,
        *(_NO_ROLE if not roles else (roles[0] == seat, roles[1] == seat, roles[2] == seat)),
        own if own < 2.0 else 2.0,
        other if other < 2.0 else 2.0,
        m.above_joker_max / 43,
        m.joker_next_chance or 0.0,
        m.draws / 43 if m.draws < 43 else 1.0,
        m.hand_number / 100 if m.hand_number < 100 else 1.0,
    )
    chunk = _CHUNK
    top = m.top
    held, pile, known, unseen = m.held, m.pile, m.known, m.unseen
    # The five planes in the order of PLANES, four suits each, then the scalars: one copy.
    buf = bytearray(
        b"".join(
            [
                chunk[held & 0x1FFF], chunk[held >> 13 & 0x1FFF], chunk[held >> 26 & 0x1FFF], chunk[held >> 39],
                *(_TOP[top] if top >= 0 else _NO_TOP),
                chunk[pile & 0x1FFF], chunk[pile >> 13 & 0x1FFF], chunk[pile >> 26 & 0x1FFF], chunk[pile >> 39],
                chunk[known & 0x1FFF], chunk[known >> 13 & 0x1FFF], chunk[known >> 26 & 0x1FFF], chunk[known >> 39],
                chunk[unseen & 0x1FFF], chunk[unseen >> 13 & 0x1FFF], chunk[unseen >> 26 & 0x1FFF], chunk[unseen >> 39],
                scalars,
            ]
        )
    )  # fmt: skip
    legal = bytearray(_NO_ACTIONS)
    for i in m.legal:
        legal[i] = 1
    return {"observation": np.frombuffer(buf, _F32), "action_mask": np.frombuffer(legal, _I8)}


_NO_ROLE: Final = (0.0, 0.0, 0.0)
_F32: Final = np.dtype(np.float32)
_I8: Final = np.dtype(np.int8)
# The top card's plane as its four suit chunks, one entry a card.
_TOP: Final = tuple(tuple(_CHUNK[(1 << c) >> s & 0x1FFF] for s in (0, 13, 26, 39)) for c in range(52))
_NO_TOP: Final = (_CHUNK[0],) * 4

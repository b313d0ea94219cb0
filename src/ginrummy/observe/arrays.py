"""The RL environments' arrays, written from a seat's knowledge (:class:`MaskObservation`): the
float32 observation vector (:data:`PLANES` then :data:`SCALARS`) and the action mask, as bytes
(NumPy wraps them in :mod:`ginrummy.envs.encoding`); and :func:`masks_of`, the knowledge an
observation dict says (for one that came as JSON)."""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from typing import Final

from ..actions import ACTIONS, NUM_ACTIONS
from ..cards import CARDS
from ..variants import find_variant
from .schema import MaskObservation, Observation

__all__ = ["NUM_PLANES", "NUM_SCALARS", "OBS_SIZE", "PLANES", "SCALARS", "arrays_of", "masks_of"]

_ALL: Final = (1 << 52) - 1
_CARD_INDEX: Final = {str(c): i for i, c in enumerate(CARDS)}
_ACTION_ID: Final = {str(a): i for i, a in enumerate(ACTIONS)}

# ---------------------------------------------------------------------- the RL arrays' layout
PLANES: Final = (
    "hand",  # the cards this seat holds (the sitter in three: the captain's hand, which it may see, rule 2.2)
    "discard_top",  # the top card of the discard pile (table games); the last discard (solitaires)
    "discards",  # every card face up in the discard pile (table games); the player's discards (solitaires)
    "opponent_known",  # cards an opponent is known to hold (taken from the discard pile, not yet discarded)
    "unseen",  # cards this seat has not seen: in the stock, an opponent's hand, or (solitaires) above the joker
)
"""The card planes of the observation vector, 52 entries each (card index = ``int(Card)``)."""

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
"""The scalars after the planes, as (name, highest value): every scalar lies in [0, high]."""

NUM_PLANES: Final = len(PLANES)
NUM_SCALARS: Final = len(SCALARS)
OBS_SIZE: Final = 52 * NUM_PLANES + NUM_SCALARS

_PHASES: Final = {"upcard": 0, "draw": 1, "discard": 2, "opening": 3, "deal": 4, "over": 4}
# The float32 bytes of every 13-bit chunk of a card plane (a suit): a plane row is four lookups.
_PACK_SCALARS: Final = struct.Struct(f"<{NUM_SCALARS}f").pack
_NO_ACTIONS: Final = bytes(NUM_ACTIONS)
_PHASE_ONE_HOT: Final = {phase: tuple(1.0 if i == index else 0.0 for i in range(5)) for phase, index in _PHASES.items()}
_NO_ROLE: Final = (0.0, 0.0, 0.0)
# The top card's plane as its four suit chunks, one entry a card.


@functools.cache
def _tables() -> tuple[tuple[bytes, ...], tuple[tuple[bytes, ...], ...], tuple[bytes, ...]]:
    """Made on first use (only the RL environments need them): the float32 bytes of every 13-bit
    chunk of a card plane (a suit), so that a plane row is four lookups; the top card's plane as
    its four chunks, one entry a card; and the four chunks of an empty plane."""
    zero, one = struct.pack("<f", 0.0), struct.pack("<f", 1.0)
    chunk = tuple(b"".join(one if x >> i & 1 else zero for i in range(13)) for x in range(1 << 13))
    top = tuple(tuple(chunk[(1 << c) >> s & 0x1FFF] for s in (0, 13, 26, 39)) for c in range(52))
    return chunk, top, (chunk[0],) * 4


def arrays_of(m: MaskObservation) -> tuple[bytearray, bytearray]:
    """The observation vector (:data:`PLANES` then :data:`SCALARS`, little-endian float32) and the
    action mask (one byte an action id, 1 where legal) of a seat's knowledge, as new bytearrays
    (the caller's to keep: NumPy wraps them without a copy)."""
    return arrays_from(*m)


def arrays_from(
    seat: int, hand_number: int, phase: str, to_act: bool, legal_ids: tuple[int, ...], own_cards: int, held: int,
    top: int, pile: int, known: int, unseen: int, stock_size: int, knock_limit: int, deadwood_of: int | None,
    dealer: int | None, roles: tuple[int, int, int] | None, totals: tuple[int, ...], target_points: int,
    above_joker_max: int, joker_next_chance: float | None, draws: int,
) -> tuple[bytearray, bytearray]:  # fmt: skip
    """:func:`arrays_of` of the fields of a :class:`MaskObservation`, in their order (the
    observer's hot path calls it without making the tuple)."""
    target = target_points if target_points > 1 else 1
    own = totals[seat] / target
    if len(totals) == 2:
        other: float = totals[1 - seat] / target
    else:
        others = [t for i, t in enumerate(totals) if i != seat]
        other = max(others) / target if others else 0.0
    deadwood = (deadwood_of or 0) / 100
    scalars = _PACK_SCALARS(
        *_PHASE_ONE_HOT.get(phase, _PHASE_ONE_HOT["over"]),
        1.0 if to_act else 0.0,
        stock_size / 53,
        knock_limit / 10,
        deadwood if deadwood < 2.0 else 2.0,
        own_cards.bit_count() / 11,
        1.0 if dealer == seat else 0.0,
        *(_NO_ROLE if not roles else (roles[0] == seat, roles[1] == seat, roles[2] == seat)),
        own if own < 2.0 else 2.0,
        other if other < 2.0 else 2.0,
        above_joker_max / 43,
        joker_next_chance or 0.0,
        draws / 43 if draws < 43 else 1.0,
        hand_number / 100 if hand_number < 100 else 1.0,
    )
    chunk, tops, no_top = _tables()
    vector = bytearray(
        b"".join(
        [
            chunk[held & 0x1FFF], chunk[held >> 13 & 0x1FFF], chunk[held >> 26 & 0x1FFF], chunk[held >> 39],
            *(tops[top] if top >= 0 else no_top),
            chunk[pile & 0x1FFF], chunk[pile >> 13 & 0x1FFF], chunk[pile >> 26 & 0x1FFF], chunk[pile >> 39],
            chunk[known & 0x1FFF], chunk[known >> 13 & 0x1FFF], chunk[known >> 26 & 0x1FFF], chunk[known >> 39],
            chunk[unseen & 0x1FFF], chunk[unseen >> 13 & 0x1FFF], chunk[unseen >> 26 & 0x1FFF], chunk[unseen >> 39],
            scalars,
        ])
    )  # fmt: skip
    legal = bytearray(_NO_ACTIONS)
    for i in legal_ids:
        legal[i] = 1
    return vector, legal


def masks_of(obs: Observation) -> MaskObservation:
    """The :class:`MaskObservation` an observation says (for an observation that came as JSON,
    say): what :meth:`Observer.masks` gives for the same seat and moment."""
    variant = find_variant(obs["variant"])
    solo = variant.solo
    seat = obs["seat"]
    in_hand = bool(obs["hand_number"])
    opts = obs["options"]

    def mask(cards: Sequence[str] | None) -> int:
        m = 0
        for c in cards or ():
            m |= 1 << _CARD_INDEX[c]
        return m

    own = mask(obs.get("hand"))
    captain = obs.get("captain_hand")
    held = mask(captain) if captain else own  # the sitter sees the captain's hand (rule 2.2)
    known = 0
    roles: tuple[int, int, int] | None = None
    if solo:
        discards = obs.get("discards") or []
        pile = mask(discards)
        top = _CARD_INDEX[discards[-1]] if discards else -1
        unseen_cards = obs.get("unseen")
        unseen = mask(unseen_cards) if unseen_cards is not None else 0
    else:
        pile_cards = obs.get("discard_pile") or []
        pile = mask(pile_cards)
        top = _CARD_INDEX[pile_cards[-1]] if pile_cards else -1
        for cards in (obs.get("known_cards") or {}).values():
            known |= mask(cards)
        known &= ~held
        seen = held | pile | known
        res = obs.get("result")
        if res is not None:  # at a showdown the spread cards are public
            for key in ("knocker_unmatched", "defender_unmatched", "laid_off"):
                seen |= mask(res.get(key))
            for key in ("knocker_melds", "defender_melds"):
                for meld in res.get(key, ()):
                    seen |= mask(meld)
        unseen = _ALL & ~seen
        r = obs.get("roles")
        if r is not None:
            roles = (r["box"], r["captain"], r["sitter"])
    if not in_hand:
        unseen = _ALL  # before the first deal nothing has been seen
    return MaskObservation(
        seat=seat,
        hand_number=obs["hand_number"],
        phase=obs["phase"],
        to_act=obs["to_act"],
        legal=tuple(_ACTION_ID[a] for a in obs["legal_actions"]),
        own=own,
        held=held,
        top=top,
        pile=pile,
        known=known,
        unseen=unseen,
        stock_size=obs.get("deck_size", 0) if solo else obs.get("stock_size", 0),
        knock_limit=obs.get("knock_limit", opts.get("knock_limit", 10)),
        deadwood=obs.get("deadwood"),
        dealer=obs.get("dealer") if not solo else None,
        roles=roles,
        totals=tuple(obs["totals"]),
        target=int(opts.get(variant.target_option) or 100),
        above_joker_max=obs.get("cards_above_joker_max", 0),
        joker_next_chance=obs.get("joker_next_chance"),
        draws=obs.get("draws", 0),
    )

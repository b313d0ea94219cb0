"""Per-seat observations: everything a seat may know, and nothing else.

The observation is the only view of a game that agents and front ends get.  It never holds
another seat's hidden cards nor the order of the stock; cards become public only when the rules
show them (the upcard, discards, a card taken from the discard pile, the spread at a showdown,
the cards counted down to the joker).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import ACTIONS, Action
from .cards import CARDS, JOKER, CardSet
from .melds import Arrangement, best_arrangement, min_deadwood

if TYPE_CHECKING:
    from .engine import State

__all__ = ["MaskObservation", "observe", "observe_masks", "public_history"]


_CARD_STR = (*(str(c) for c in CARDS), str(JOKER))
_ACTION_STR = tuple(str(a) for a in ACTIONS)


@functools.lru_cache(maxsize=64)
def _options_dict(options: Any) -> dict[str, Any]:
    return dict(options.to_dict())  # options are frozen: build the dict once


@functools.lru_cache(maxsize=8192)
def _arrangement(mask: int) -> Arrangement:
    return best_arrangement(mask)


def _action_str(act: Action) -> str:
    return _ACTION_STR[act.id] if act.melds is None else str(act)


def _cs(mask_or_cards: Any) -> list[str]:
    if isinstance(mask_or_cards, int):
        out = []
        m = mask_or_cards
        while m:
            low = m & -m
            out.append(_CARD_STR[low.bit_length() - 1])
            m ^= low
        return out
    return [_CARD_STR[c] for c in mask_or_cards]


def public_history(state: State) -> list[dict[str, Any]]:
    """This hand's actions as every seat saw them.  Every recorded action is public (a stock draw
    is written ``draw`` without its card; solitaire draws are not actions at all)."""
    if not state.logs:
        return []
    log = state.logs[-1]
    public = log.public  # built once per action, then copied (observations are the caller's to keep)
    for i in range(len(public), len(log.actions)):
        public.append({"seat": log.seats[i], "action": _action_str(log.actions[i])})
    return [dict(e) for e in public]


def observe(state: State, seat: int) -> dict[str, Any]:
    solo = state.facts.solo
    obs: dict[str, Any] = {
        "variant": state.variant,
        "seat": seat,
        "players": list(state.players),
        "options": dict(_options_dict(state.options)),
        "hand_number": state.hand_number,
        "phase": str(state.phase),
        "current_player": state.current_player,
        "to_act": state.current_player == seat,
        "legal_actions": [str(a) for a in state.legal_actions()] if state.current_player == seat else [],
        "totals": list(state.totals),
        "hands_won": list(state.hands_won),
        "game_over": state.game_over,
        "winner": state.winner,
    }
    if getattr(state.options, "spades_double_boxes", False):
        obs["boxes"] = state.boxes()  # rule 1b.3: a hand won on a spade upcard counts two boxes
    if state.game_over:
        obs["final_totals"] = state.final_totals()
    if state.hollywood is not None:
        obs["hollywood"] = state.hollywood.to_json()
    if state.logs:
        commitment = state.logs[-1].commitment
        if commitment is not None:
            obs["commitment"] = commitment
    in_hand = bool(state.logs)
    if not in_hand:
        return obs
    if solo:
        _solo(state, seat, obs)
    else:
        _table(state, seat, obs)
    if state.hand_result is not None and (state.is_hand_over):
        obs["result"] = state.hand_result.to_json()
    return obs


def _own(state: State, seat: int, obs: dict[str, Any]) -> None:
    mask = state.hands[seat]
    obs["hand"] = _cs(mask)
    if mask:
        arr = _arrangement(mask)
        obs["melds"] = [[str(c) for c in m] for m in arr.melds]
        obs["deadwood"] = arr.deadwood


def _table(state: State, seat: int, obs: dict[str, Any]) -> None:
    active = state.active_seats
    obs["dealer"] = state.hand_dealer
    obs["knock_limit"] = state.knock_limit
    obs["upcard"] = str(state.upcard) if state.upcard is not None else None
    obs["discard_pile"] = _cs(state.pile)  # face up: public
    obs["stock_size"] = len(state.stock)
    obs["hand_sizes"] = [state.hands[i].bit_count() for i in range(state.num_seats)]
    obs["taken"] = str(state.taken) if state.taken is not None else None
    if state.facts.roles:
        box, captain, sitter = state.hand_dealer, state.hand_nondealer, 3 - state.hand_dealer - state.hand_nondealer
        obs["roles"] = {"box": box, "captain": captain, "sitter": sitter}
        obs["next_roles"] = {"box": state.roles[0], "captain": state.roles[1], "sitter": state.roles[2]}
        if seat == sitter:
            # Rule 2.2: the sitter sees the captain's hand and advises.
            obs["captain_hand"] = _cs(state.hands[captain])
    if seat in active:
        _own(state, seat, obs)
    else:
        obs["hand"] = []
    # Cards an opponent is publicly known to hold (taken from the discard pile, not yet discarded).
    obs["known_cards"] = {str(i): _cs(state.known[i]) for i in active if i != seat}
    obs["history"] = public_history(state)


def _solo(state: State, seat: int, obs: dict[str, Any]) -> None:
    obs["knock_limit"] = state.knock_limit
    if seat == 0:
        _own(state, 0, obs)
    else:
        obs["hand"] = []
    known_out = list(state.out_of_play)
    # Rule 3.3: in solitaire the discards lie under the joker; in gin-solitaire they are out of
    # play face down. Either way the player knows which they are, never where the joker is.
    obs["discards"] = _cs(known_out)
    unseen = CardSet(((1 << 52) - 1) & ~state.hands[0] & ~sum(1 << c for c in known_out))
    if state.hand_result is not None:
        unseen = CardSet(unseen & ~sum(1 << c for c in state.hand_result.counted_cards))
    if seat == 0:  # the Joker's seat gets no complement of the hand (it would name the player's cards)
        obs["unseen"] = [str(c) for c in unseen]
    obs["deck_size"] = len(state.stock)
    above = len(unseen) if state.hand_result is None else 0
    obs["cards_above_joker_max"] = above
    obs["joker_next_chance"] = 1 / (above + 1) if state.hand_result is None else None
    obs["draws"] = state.draws


_ALL = (1 << 52) - 1


class MaskObservation(NamedTuple):
    """The numeric core of :func:`observe`: what one seat may know, as card masks (bit ``i`` is
    ``Card(i)``) and numbers, for encoders on hot paths (the RL environments).  It is built under
    the same rules as the observation dict and holds nothing that dict does not; the tests check
    every field against it."""

    seat: int
    hand_number: int
    phase: str
    to_act: bool
    legal: tuple[int, ...]  # legal action ids when to act, else ()
    own: int  # this seat's cards
    held: int  # the cards it sees held on its side: its own, or (the sitter in three) the captain's
    top: int  # the top of the discard pile (solitaires: the last discard) as a card index, or -1
    pile: int  # table games: the face-up discard pile; solitaires: the player's discards
    known: int  # cards an opponent is publicly known to hold (taken from the pile, not yet discarded)
    unseen: int  # cards this seat has not seen (0 for the Joker's seat, which gets no complement)
    stock_size: int
    knock_limit: int  # the hand's (before the first deal: the option, 10 where there is none)
    deadwood: int | None  # of the seat's own cards, None when it holds none
    dealer: int | None  # table games: the dealer of the hand (three: the box)
    roles: tuple[int, int, int] | None  # three: (box, captain, sitter) of the hand
    totals: tuple[int, ...]
    target: int  # the points that end the game (Hollywood: each of its three games)
    above_joker_max: int  # solitaires: most cards that can lie above the joker
    joker_next_chance: float | None  # solitaires: 1 / (above_joker_max + 1) while the hand runs
    draws: int  # solitaires: cards drawn this hand


@functools.lru_cache(maxsize=65536)
def _deadwood(mask: int) -> int:
    return min_deadwood(mask)


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def observe_masks(state: State, seat: int) -> MaskObservation:
    """:func:`observe` as masks and numbers (see :class:`MaskObservation`)."""
    v = state.facts
    opts = state.options
    to_act = state.current_player == seat
    common: dict[str, Any] = {
        "seat": seat,
        "hand_number": state.hand_number,
        "phase": str(state.phase),
        "to_act": to_act,
        "legal": state.legal_action_ids() if to_act else (),
        "totals": tuple(state.totals),
        "target": int(getattr(opts, v.target_option, 100) or 100),
    }
    if not state.logs:
        return MaskObservation(
            **common, own=0, held=0, top=-1, pile=0, known=0, unseen=_ALL, stock_size=0,
            knock_limit=getattr(opts, "knock_limit", 10), deadwood=None, dealer=None, roles=None,
            above_joker_max=0, joker_next_chance=None, draws=0,
        )  # fmt: skip
    if v.solo:
        own = state.hands[0] if seat == 0 else 0
        out = state.out_of_play
        pile = _mask(out)  # rule 3.3: the player knows which cards it discarded, never where the joker is
        unseen = _ALL & ~state.hands[0] & ~pile
        result = state.hand_result
        if result is not None:
            unseen &= ~_mask(result.counted_cards)
        above = unseen.bit_count() if result is None else 0
        return MaskObservation(
            **common, own=own, held=own, top=int(out[-1]) if out else -1, pile=pile, known=0,
            unseen=unseen if seat == 0 else 0, stock_size=len(state.stock), knock_limit=state.knock_limit,
            deadwood=_deadwood(own) if own else None, dealer=None, roles=None, above_joker_max=above,
            joker_next_chance=1 / (above + 1) if result is None else None, draws=state.draws,
        )  # fmt: skip
    active = state.active_seats
    roles: tuple[int, int, int] | None = None
    own = state.hands[seat] if seat in active else 0
    held = own
    if v.roles:
        box, captain = state.hand_dealer, state.hand_nondealer
        roles = (box, captain, 3 - box - captain)
        if seat == roles[2]:
            held = state.hands[captain]  # rule 2.2: the sitter sees the captain's hand
    pile = _mask(state.pile)
    known = 0
    for i in active:
        if i != seat:
            known |= state.known[i]
    known &= ~held
    seen = held | pile | known
    res = state.hand_result if state.is_hand_over else None
    if res is not None:  # the spread at a showdown is public
        seen |= _mask(res.knocker_unmatched) | _mask(res.defender_unmatched) | _mask(res.laid_off)
        for meld in (*res.knocker_melds, *res.defender_melds):
            seen |= _mask(meld)
    return MaskObservation(
        **common, own=own, held=held, top=int(state.pile[-1]) if state.pile else -1, pile=pile, known=known,
        unseen=_ALL & ~seen, stock_size=len(state.stock), knock_limit=state.knock_limit,
        deadwood=_deadwood(own) if own else None, dealer=state.hand_dealer, roles=roles, above_joker_max=0,
        joker_next_chance=None, draws=0,
    )  # fmt: skip

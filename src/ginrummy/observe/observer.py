"""The observer: what one seat may know of a game, decided in one place and made into an
:class:`~ginrummy.observe.schema.Observation`, a :class:`~ginrummy.observe.schema.MaskObservation`
or the RL arrays."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final, cast

from ..actions import ACTIONS, Action
from ..cards import CARDS, JOKER, Card
from ..melds import Arrangement, best_arrangement, min_deadwood
from ..options import Options
from .arrays import arrays_from, arrays_of
from .schema import HistoryEntry, MaskObservation, Observation, ObservedState

__all__ = ["Observer", "arrangement", "observe", "observe_arrays", "observe_masks", "public_history"]

# ---------------------------------------------------------------------- cards and actions as text
_ALL: Final = (1 << 52) - 1
_CARD_STR: Final = (*(str(c) for c in CARDS), str(JOKER))
_ACTION_STR: Final = tuple(str(a) for a in ACTIONS)


@functools.cache
def _suit_texts() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Per suit, the card texts of every 13-bit chunk, lowest rank first, so that a mask's cards are
    four lookups (made on first use, in about 10 ms: each chunk is the one without its highest
    card, plus that card)."""
    suits = []
    for s in range(4):
        table: list[tuple[str, ...]] = [()]
        for x in range(1, 1 << 13):
            high = x.bit_length() - 1
            table.append((*table[x ^ (1 << high)], _CARD_STR[13 * s + high]))
        suits.append(tuple(table))
    return tuple(suits)


def _cs(mask: int) -> list[str]:
    """The cards of a mask as texts, lowest index first."""
    s0, s1, s2, s3 = _suit_texts()
    return [*s0[mask & 0x1FFF], *s1[mask >> 13 & 0x1FFF], *s2[mask >> 26 & 0x1FFF], *s3[mask >> 39 & 0x1FFF]]


def _texts(cards: Sequence[Card]) -> list[str]:
    return [_CARD_STR[c] for c in cards]


_BITS: Final = tuple(1 << c for c in range(53))
_bit = _BITS.__getitem__


def _mask(cards: Sequence[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _action_str(act: Action) -> str:
    return _ACTION_STR[act.id] if act.melds is None else str(act)


@functools.lru_cache(maxsize=64)
def _options_dict(options: Options) -> dict[str, Any]:
    return dict(options.to_dict())  # options are frozen: build the dict once


@functools.lru_cache(maxsize=8192)
def arrangement(mask: int) -> Arrangement:
    """``best_arrangement`` of a hand mask, remembered: the agents ask for the hand a seat keeps
    (to explain a discard) and the seat's next observation shows the same hand's melds."""
    return best_arrangement(mask)


@functools.lru_cache(maxsize=8192)
def _melds(mask: int) -> tuple[tuple[tuple[str, ...], ...], int]:
    """The best arrangement of a hand: its melds as texts, and its deadwood."""
    arr = arrangement(mask)
    return tuple(tuple(_CARD_STR[c] for c in m) for m in arr.melds), arr.deadwood


@functools.lru_cache(maxsize=65536)
def _deadwood(mask: int) -> int:
    return min_deadwood(mask)


def public_history(state: ObservedState) -> list[HistoryEntry]:
    """This hand's actions as every seat saw them.  Every recorded action is public (a stock draw
    is written ``draw`` without its card; solitaire draws are not actions at all)."""
    if not state.logs:
        return []
    log = state.logs[-1]
    public = log.public  # built once per action, then copied (observations are the caller's to keep)
    for i in range(len(public), len(log.actions)):
        public.append({"seat": log.seats[i], "action": _action_str(log.actions[i])})
    return cast(list[HistoryEntry], [dict(e) for e in public])


# ---------------------------------------------------------------------- the observer
class Observer:
    """What ``seat`` may know of ``state``, made into an :class:`Observation`, a
    :class:`MaskObservation` or the RL arrays; each is built only when asked (the seat's
    knowledge is worked out once for the masks and the arrays)."""

    __slots__ = ("_masks", "seat", "state")

    def __init__(self, state: ObservedState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._masks: MaskObservation | None = None

    # -- the seat's knowledge: every decision about what the seat may see is made here
    def _in_hand(self) -> bool:
        return bool(self.state.logs)

    def _own(self) -> int:
        """The seat's own cards (three's sitter and the Joker's seat hold none)."""
        st = self.state
        if st.facts.solo:
            return st.hands[0] if self.seat == 0 else 0
        return st.hands[self.seat] if self.seat in st.active_seats else 0

    def _roles(self) -> tuple[int, int, int] | None:
        st = self.state
        if not st.facts.roles:
            return None
        box, captain = st.hand_dealer, st.hand_nondealer
        return box, captain, 3 - box - captain

    def _captain_hand(self, roles: tuple[int, int, int] | None) -> int | None:
        """Rule 2.2: the sitter sees the captain's hand (None for every other seat)."""
        if roles is not None and self.seat == roles[2]:
            return self.state.hands[roles[1]]
        return None

    def _known(self) -> dict[int, int]:
        """Per other seat in the hand: the cards it is publicly known to hold."""
        st = self.state
        return {i: st.known[i] for i in st.active_seats if i != self.seat}

    def _spread(self) -> int:
        """Table games: the cards spread face up at a showdown (0 before the hand is over)."""
        st = self.state
        res = st.hand_result if st.is_hand_over else None
        if res is None:
            return 0
        seen = _mask(res.knocker_unmatched) | _mask(res.defender_unmatched) | _mask(res.laid_off)
        for meld in (*res.knocker_melds, *res.defender_melds):
            seen |= _mask(meld)
        return seen

    def _solo_unseen(self) -> int | None:
        """Solitaires: the cards the player has not seen (None for the Joker's seat, which gets no
        complement of the player's hand: it would name the player's cards).  Rule 3.3: the player
        knows which cards it discarded, never where the joker is."""
        st = self.state
        if self.seat != 0:
            return None
        unseen = _ALL & ~st.hands[0] & ~_mask(st.out_of_play)
        if st.hand_result is not None:
            unseen &= ~_mask(st.hand_result.counted_cards)
        return unseen

    def _above_joker(self) -> int:
        st = self.state
        if st.hand_result is not None:
            return 0
        return (_ALL & ~st.hands[0] & ~_mask(st.out_of_play)).bit_count()

    # -- the observation
    def observation(self) -> Observation:
        """The seat's :class:`Observation` (a new dict, the caller's to keep)."""
        st, seat = self.state, self.seat
        to_act = st.current_player == seat
        obs: Observation = {
            "variant": st.variant,
            "seat": seat,
            "players": list(st.players),
            "options": dict(_options_dict(st.options)),
            "hand_number": st.hand_number,
            "phase": str(st.phase),
            "current_player": st.current_player,
            "to_act": to_act,
            "legal_actions": [_action_str(a) for a in st.legal_actions()] if to_act else [],
            "totals": list(st.totals),
            "hands_won": list(st.hands_won),
            "game_over": st.game_over,
            "winner": st.winner,
        }
        if getattr(st.options, "spades_double_boxes", False):
            obs["boxes"] = st.boxes()  # rule 1b.3: a hand won on a spade upcard counts two boxes
        if st.game_over:
            obs["final_totals"] = st.final_totals()
        if st.hollywood is not None:
            obs["hollywood"] = st.hollywood.to_json()
        if not self._in_hand():
            return obs
        commitment = st.logs[-1].commitment
        if commitment is not None:
            obs["commitment"] = commitment
        if st.facts.solo:
            self._solo_fields(obs)
        else:
            self._table_fields(obs)
        if st.hand_result is not None and st.is_hand_over:
            obs["result"] = st.hand_result.to_json()
        return obs

    def _own_fields(self, obs: Observation) -> None:
        own = self._own()
        obs["hand"] = _cs(own)
        if own:
            melds, deadwood = _melds(own)
            obs["melds"] = [list(m) for m in melds]
            obs["deadwood"] = deadwood

    def _table_fields(self, obs: Observation) -> None:
        st = self.state
        obs["dealer"] = st.hand_dealer
        obs["knock_limit"] = st.knock_limit
        obs["upcard"] = _CARD_STR[st.upcard] if st.upcard is not None else None
        obs["discard_pile"] = _texts(st.pile)  # face up: public
        obs["stock_size"] = len(st.stock)
        obs["hand_sizes"] = [st.hands[i].bit_count() for i in range(st.num_seats)]
        obs["taken"] = _CARD_STR[st.taken] if st.taken is not None else None
        roles = self._roles()
        if roles is not None:
            box, captain, sitter = roles
            obs["roles"] = {"box": box, "captain": captain, "sitter": sitter}
            nxt = st.roles
            obs["next_roles"] = {"box": nxt[0], "captain": nxt[1], "sitter": nxt[2]}
            captain_hand = self._captain_hand(roles)
            if captain_hand is not None:
                obs["captain_hand"] = _cs(captain_hand)
        self._own_fields(obs)
        # Cards an opponent is publicly known to hold (taken from the discard pile, not yet discarded).
        obs["known_cards"] = {str(i): _cs(m) for i, m in self._known().items()}
        obs["history"] = public_history(st)

    def _solo_fields(self, obs: Observation) -> None:
        st = self.state
        obs["knock_limit"] = st.knock_limit
        self._own_fields(obs)
        obs["discards"] = _texts(st.out_of_play)
        unseen = self._solo_unseen()
        if unseen is not None:
            obs["unseen"] = _cs(unseen)
        obs["deck_size"] = len(st.stock)
        above = self._above_joker()
        obs["cards_above_joker_max"] = above
        obs["joker_next_chance"] = 1 / (above + 1) if st.hand_result is None else None
        obs["draws"] = st.draws

    # -- the masks
    def masks(self) -> MaskObservation:
        """The seat's knowledge as card masks and numbers."""
        if self._masks is None:
            self._masks = self._make_masks()
        return self._masks

    def _make_masks(self) -> MaskObservation:
        st, seat = self.state, self.seat
        v = st.facts
        opts = st.options
        to_act = st.current_player == seat
        hand_number, phase, totals = st.hand_number, str(st.phase), tuple(st.totals)
        legal = st.legal_action_ids() if to_act else ()
        target = int(getattr(opts, v.target_option, 100) or 100)
        if not self._in_hand():
            return MaskObservation(
                seat, hand_number, phase, to_act, legal, own=0, held=0, top=-1, pile=0, known=0, unseen=_ALL,
                stock_size=0, knock_limit=getattr(opts, "knock_limit", 10), deadwood=None, dealer=None,
                roles=None, totals=totals, target=target, above_joker_max=0, joker_next_chance=None, draws=0,
            )  # fmt: skip
        own = self._own()
        deadwood = _deadwood(own) if own else None
        if v.solo:
            out = st.out_of_play
            above = self._above_joker()
            return MaskObservation(
                seat, hand_number, phase, to_act, legal, own=own, held=own, top=int(out[-1]) if out else -1,
                pile=_mask(out), known=0, unseen=self._solo_unseen() or 0, stock_size=len(st.stock),
                knock_limit=st.knock_limit, deadwood=deadwood, dealer=None, roles=None, totals=totals,
                target=target, above_joker_max=above,
                joker_next_chance=1 / (above + 1) if st.hand_result is None else None, draws=st.draws,
            )  # fmt: skip
        roles = self._roles()
        captain_hand = self._captain_hand(roles)
        held = own if captain_hand is None else captain_hand
        pile = _mask(st.pile)
        known = 0
        for m in self._known().values():
            known |= m
        known &= ~held
        unseen = _ALL & ~(held | pile | known | self._spread())
        return MaskObservation(
            seat, hand_number, phase, to_act, legal, own=own, held=held, top=int(st.pile[-1]) if st.pile else -1,
            pile=pile, known=known, unseen=unseen, stock_size=len(st.stock), knock_limit=st.knock_limit,
            deadwood=deadwood, dealer=st.hand_dealer, roles=roles, totals=totals, target=target,
            above_joker_max=0, joker_next_chance=None, draws=0,
        )  # fmt: skip

    # -- the RL arrays
    def arrays(self) -> tuple[bytearray, bytearray]:
        """The RL environments' observation vector (:data:`OBS_SIZE` little-endian float32) and
        action mask (:data:`~ginrummy.actions.NUM_ACTIONS` bytes of 0 or 1), see :func:`arrays_of`."""
        return arrays_of(self.masks())


def observe(state: ObservedState, seat: int) -> Observation:
    """``seat``'s :class:`Observation` of ``state``."""
    return Observer(state, seat).observation()


def observe_masks(state: ObservedState, seat: int) -> MaskObservation:
    """``seat``'s knowledge of ``state`` as masks and numbers (see :class:`MaskObservation`)."""
    return Observer(state, seat).masks()


def observe_arrays(state: ObservedState, seat: int) -> tuple[bytearray, bytearray]:
    """``Observer(state, seat).arrays()``: the RL environments' hot path.  A table game's hand in
    play (the common case) is written straight from the state, the same knowledge as
    :meth:`Observer.masks` without making the :class:`MaskObservation`; anything else goes through
    the observer."""
    st = state
    v = st.facts
    if v.solo or not st.logs or st.is_hand_over:
        return Observer(st, seat).arrays()
    to_act = st.current_player == seat
    hands = st.hands
    active = st.active_seats
    own = hands[seat] if seat in active else 0
    held = own
    roles: tuple[int, int, int] | None = None
    if v.roles:
        box, captain = st.hand_dealer, st.hand_nondealer
        roles = (box, captain, 3 - box - captain)
        if seat == roles[2]:
            held = hands[captain]  # rule 2.2: the sitter sees the captain's hand
    pile_cards = st.pile
    pile = sum(map(_bit, pile_cards))  # distinct cards: the sum is their mask
    known = 0
    for i in active:
        if i != seat:
            known |= st.known[i]
    known &= ~held
    return arrays_from(
        seat, st.hand_number, str(st.phase), to_act, st.legal_action_ids() if to_act else (), own, held,
        int(pile_cards[-1]) if pile_cards else -1, pile, known, _ALL & ~(held | pile | known), len(st.stock),
        st.knock_limit, _deadwood(own) if own else None, st.hand_dealer, roles, tuple(st.totals),
        int(getattr(st.options, v.target_option, 100) or 100), 0, None, 0,
    )  # fmt: skip

"""Card tracking for the table games: what a seat has seen this hand, rebuilt from one observation.

Agents are stateless: everything here is derived again from the observation at every decision, so
a saved game resumes with identical play.  The public ``history`` of the hand replays the discard
pile, which shows what the opponent threw, took and passed over.

The opponent model is a weight per unseen card (the chance that the opponent, rather than the
stock, holds it):

* a card the opponent discarded or passed over (declined as the upcard, or left on the pile by
  drawing from the stock) is probably useless to them, so cards of its rank and its suit
  neighbours are less likely in their hand;
* a card they took from the pile probably made or extended a meld, so its rank and its suit
  neighbours are more likely.

>>> from ginrummy.engine import State
>>> s = State.new("classic"); s.deal(seed=3)
>>> k = Knowledge.from_observation(s.observation(1))
>>> k.hand.bit_count(), k.opp_hidden, k.unseen.bit_count() == k.opp_hidden + k.stock_size
(10, 10, True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..actions import ACTIONS, Action, action_id
from ..cards import CARDS
from ..melds import RUN_DEADWOOD
from ..variants import Variant, find_variant, variant_names

__all__ = [
    "CARD_INDEX",
    "DISCARD_DELTA",
    "MELD_PAIRS",
    "NEIGHBOURS",
    "RANK_MATES",
    "RELATED",
    "RUN_DEADWOOD",
    "VALUES",
    "Knowledge",
    "action_text",
    "card_mask",
    "iter_cards",
    "obs_rng",
    "obs_variant",
]

CARD_INDEX: Final[dict[str, int]] = {str(c): int(c) for c in CARDS}
VALUES: Final[tuple[int, ...]] = tuple(c.value for c in CARDS)


def card_mask(cards: Sequence[str]) -> int:
    m = 0
    for s in cards:
        m |= 1 << CARD_INDEX[s]
    return m


def _byte_cards() -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(tuple(tuple(8 * k + i for i in range(8) if x >> i & 1) for x in range(256)) for k in range(7))


_BYTE_CARDS: Final = _byte_cards()
"""For each of the seven bytes of a card mask and each value of it: its cards, lowest first."""


def iter_cards(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    if mask >> 56 or mask.bit_count() < 5:  # few cards: bit by bit is quicker
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    t0, t1, t2, t3, t4, t5, t6 = _BYTE_CARDS
    return [
        *t0[mask & 255],
        *t1[mask >> 8 & 255],
        *t2[mask >> 16 & 255],
        *t3[mask >> 24 & 255],
        *t4[mask >> 32 & 255],
        *t5[mask >> 40 & 255],
        *t6[mask >> 48],
    ]


def _rank_mates(c: int) -> int:
    r = c % 13
    return sum(1 << (r + 13 * s) for s in range(4)) & ~(1 << c)


def _neighbours(c: int, dist: int) -> int:
    r, base = c % 13, c - c % 13
    out = 0
    for d in (-dist, dist):
        if 0 <= r + d < 13:
            out |= 1 << (base + r + d)
    return out


RANK_MATES: Final[tuple[int, ...]] = tuple(_rank_mates(c) for c in range(52))
"""The other three cards of each card's rank."""
NEIGHBOURS: Final[tuple[tuple[int, int], ...]] = tuple((_neighbours(c, 1), _neighbours(c, 2)) for c in range(52))
"""For each card: its suit neighbours at distance 1 and at distance 2 (as masks)."""
RELATED: Final[tuple[int, ...]] = tuple(RANK_MATES[c] | NEIGHBOURS[c][0] for c in range(52))
"""Cards that a card may form a meld with directly: a card unrelated to a hand joins none of its melds."""


_AROUND: Final[tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]] = tuple(
    (tuple(iter_cards(RANK_MATES[c])), tuple(iter_cards(NEIGHBOURS[c][0])), tuple(iter_cards(NEIGHBOURS[c][1])))
    for c in range(52)
)
"""For each card, as card lists: its rank mates, its suit neighbours at distance 1 and at 2."""

_PASS, _TAKE, _DRAW, _THROW, _OTHER = range(5)


def _parse(text: str) -> tuple[int, int]:
    """A history entry's action text: (what it does to the pile, the card thrown or -1)."""
    kind, _, rest = text.partition(" ")
    if kind == "pass":
        return _PASS, -1
    if kind == "take":
        return _TAKE, -1
    if kind == "draw":
        return _DRAW, -1
    if kind in ("discard", "knock", "gin") and rest:
        return _THROW, CARD_INDEX[rest.split()[0]]
    return _OTHER, -1


def _parsed_actions() -> dict[str, tuple[int, int]]:
    return {str(a): _parse(str(a)) for a in ACTIONS}


_PARSED: Final = _parsed_actions()
"""Every action's text (without melds) parsed once."""


def _action_texts() -> tuple[str, ...]:
    return tuple(str(a) for a in ACTIONS)


_ACTION_TEXT: Final = _action_texts()


def action_text(action: Action) -> str:
    """``str(action)``, from a table for the actions without melds."""
    i = action_id(action)  # -1 with melds
    return _ACTION_TEXT[i] if i >= 0 else str(action)


def _discard_delta() -> tuple[int, ...]:
    out = [1 << 20]  # the empty suit: nothing to discard there
    for x in range(1, 8192):
        y, best = x, 1 << 20
        while y:
            low = y & -y
            y ^= low
            v = RUN_DEADWOOD[x ^ low]
            if v < best:
                best = v
        out.append(best - RUN_DEADWOOD[x])
    return tuple(out)


DISCARD_DELTA: Final[tuple[int, ...]] = _discard_delta()
"""For each 13-bit suit pattern: the change in its run-only deadwood when its best card goes."""


def _meld_pairs(c: int) -> tuple[tuple[int, int], ...]:
    mates = iter_cards(RANK_MATES[c])
    out = [(mates[i], mates[j]) for i in range(3) for j in range(i + 1, 3)]
    r, base = c % 13, c - c % 13
    for lo in (r - 2, r - 1, r):  # the runs lo..lo+2 through c
        if lo >= 0 and lo + 2 < 13:
            a, b = (x for x in (lo, lo + 1, lo + 2) if x != r)
            out.append((base + a, base + b))
    return tuple(out)


MELD_PAIRS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(_meld_pairs(c) for c in range(52))
"""For each card: the pairs of cards that make a meld of three with it (3 sets, up to 3 runs)."""


def obs_rng(seed: int | None, obs: Mapping[str, Any], salt: str = "") -> random.Random:
    """A generator seeded from the agent's seed and the observation (hand number, decisions so
    far, the cards held): the same seed and observation always give the same stream."""
    hand = obs.get("hand") or []
    n = len(obs.get("history") or ()) if "history" in obs else int(obs.get("draws") or 0)
    key = f"{seed or 0}|{salt}|{obs.get('hand_number', 0)}|{n}|{obs.get('phase', '')}|{' '.join(hand)}"
    return random.Random(key)


def obs_variant(obs: Mapping[str, Any]) -> Variant | None:
    """The variant an observation names (its facts in :mod:`ginrummy.variants`), or ``None`` when
    it names none it knows."""
    name = obs.get("variant")
    return _variants().get(name) if isinstance(name, str) else None


@functools.cache
def _variants() -> dict[str, Variant]:
    return {name: find_variant(name) for name in variant_names()}


@dataclass
class Knowledge:
    """What one seat knows about the hand in play (table games)."""

    seat: int
    opp: int  # the other active seat
    hand: int  # my cards (mask)
    pile: list[int]  # discard pile, top last
    opp_known: int  # cards the opponent is known to hold
    opp_hidden: int  # how many of the opponent's cards I cannot see
    unseen: int  # cards not in my hand, not in the pile, not known in the opponent's hand
    stock_size: int
    knock_limit: int
    opp_discards: int  # cards the opponent discarded this hand
    opp_passed: int  # cards the opponent declined (upcard pass, or drew from stock over them)
    opp_took: int  # cards the opponent took from the pile
    my_discards: int
    opp_draws: int  # stock draws by the opponent
    my_turns: int  # my draws so far (stock or pile)
    dead: int  # cards out of play: buried in the pile (all but the top)
    weights: list[float]  # per card: chance the opponent holds it (0 for seen cards)
    options: Mapping[str, Any]
    wall: int

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @classmethod
    def from_observation(cls, obs: Mapping[str, Any]) -> Knowledge:
        seat = int(obs["seat"])
        known_cards: Mapping[str, Sequence[str]] = obs.get("known_cards") or {}
        if known_cards:
            opp = int(next(iter(known_cards)))
        elif (v := obs_variant(obs)) is not None and v.roles:
            roles = obs.get("roles") or {}
            opp = int(roles["box"] if roles.get("captain") == seat else roles.get("captain", 1 - seat))
        else:
            opp = 1 - seat
        hand = card_mask(obs.get("hand") or [])
        opp_known = card_mask(known_cards.get(str(opp), []))
        history: Sequence[Mapping[str, Any]] = obs.get("history") or []
        upcard = obs.get("upcard")
        pile: list[int] = [CARD_INDEX[upcard]] if upcard else []
        opp_discards = opp_passed = opp_took = my_discards = 0
        opp_draws = my_turns = 0
        parsed = _PARSED
        for entry in history:
            text: str = entry["action"]
            how = parsed.get(text)
            if how is None:
                how = _parse(text)
            kind, c = how
            if kind == _OTHER:
                continue
            mine = entry["seat"] == seat
            if kind == _PASS:
                if not mine and pile:
                    opp_passed |= 1 << pile[-1]
            elif kind == _TAKE:
                if pile:
                    c = pile.pop()
                    if mine:
                        my_turns += 1
                    else:
                        opp_took |= 1 << c
            elif kind == _DRAW:
                if mine:
                    my_turns += 1
                else:
                    opp_draws += 1
                    if pile:
                        opp_passed |= 1 << pile[-1]
            else:  # a discard, a knock or a gin, with the card thrown
                pile.append(c)
                if mine:
                    my_discards |= 1 << c
                else:
                    opp_discards |= 1 << c
                    opp_took &= ~(1 << c)
        obs_pile = obs.get("discard_pile")
        if obs_pile is not None:
            pile = [CARD_INDEX[x] for x in obs_pile]  # the observation is authoritative
        pile_mask = card_mask(obs_pile) if obs_pile is not None else sum(1 << c for c in pile)
        sizes = obs.get("hand_sizes")
        opp_size = int(sizes[opp]) if sizes else 10
        opp_hidden = max(0, opp_size - opp_known.bit_count())
        full = (1 << 52) - 1
        unseen = full & ~hand & ~pile_mask & ~opp_known
        stock_size = int(obs.get("stock_size", 0))
        options: Mapping[str, Any] = obs.get("options") or {}
        k = cls(
            seat=seat,
            opp=opp,
            hand=hand,
            pile=pile,
            opp_known=opp_known,
            opp_hidden=opp_hidden,
            unseen=unseen,
            stock_size=stock_size,
            knock_limit=int(obs.get("knock_limit", 10)),
            opp_discards=opp_discards,
            opp_passed=opp_passed & ~opp_took,
            opp_took=opp_took,
            my_discards=my_discards,
            opp_draws=opp_draws,
            my_turns=my_turns,
            dead=pile_mask & ~(1 << pile[-1] if pile else 0),
            weights=[0.0] * 52,
            options=options,
            wall=int(options.get("wall_cards", 2)),
        )
        k._estimate()
        return k

    def forget(self, memory: int, pickups: bool = True) -> None:
        """A weaker memory (the lower levels): only the ``memory`` most recent cards buried in the
        pile are remembered (-1: all of them), and with ``pickups`` False the cards the opponent
        took are forgotten too.  A forgotten card counts as unseen again: as far as this player
        knows it may be in the stock or in the opponent's hand."""
        buried = self.pile[:-1]
        lost = 0
        if 0 <= memory < len(buried):
            for c in buried[: len(buried) - memory]:
                lost |= 1 << c
        known = 0 if pickups else self.opp_known
        if not lost and not known and (pickups or not self.opp_took):
            return
        self.unseen |= lost | known
        self.dead &= ~lost
        self.opp_discards &= ~lost
        self.opp_passed &= ~lost
        self.my_discards &= ~lost
        if not pickups:
            self.opp_hidden += known.bit_count()
            self.opp_known = 0
            self.opp_took = 0
        self._estimate()

    def _estimate(self) -> None:
        """Fill :attr:`weights`: each unseen card's chance of being in the opponent's hand."""
        w = [0.0] * 52
        cards = iter_cards(self.unseen)
        if not cards or self.opp_hidden == 0:
            self.weights = w
            for c in iter_cards(self.opp_known):
                w[c] = 1.0
            return
        for c in cards:
            w[c] = 1.0
        # Discards and passed-over cards: their rank mates and close neighbours are less likely.
        for c in iter_cards(self.opp_discards):
            mates, near, next_near = _AROUND[c]
            _scale(w, mates, 0.55)
            _scale(w, near, 0.65)
            _scale(w, next_near, 0.85)
        for c in iter_cards(self.opp_passed & ~self.opp_discards):
            mates, near, next_near = _AROUND[c]
            _scale(w, mates, 0.75)
            _scale(w, near, 0.8)
            _scale(w, next_near, 0.92)
        # Cards taken (still held, or taken earlier): the cards melding with them are more likely.
        for c in iter_cards(self.opp_took | self.opp_known):
            mates, near, next_near = _AROUND[c]
            _scale(w, mates, 1.8)
            _scale(w, near, 1.8)
            _scale(w, next_near, 1.3)
        total = sum(w[c] for c in cards)
        scale = self.opp_hidden / total
        for c in cards:
            p = w[c] * scale
            w[c] = 0.95 if p > 0.95 else p
        for c in iter_cards(self.opp_known):
            w[c] = 1.0
        self.weights = w

    def stock_weights(self) -> list[tuple[int, float]]:
        """Unseen cards with the chance of being in the stock (not the opponent's hand)."""
        w = self.weights
        return [(c, 1.0 - w[c]) for c in iter_cards(self.unseen)]

    def meld_chance(self, card: int) -> float:
        """The chance that ``card`` would make a meld of three with the opponent's cards."""
        w = self.weights
        miss = 1.0
        for a, b in MELD_PAIRS[card]:
            p = w[a] * w[b]
            if p:
                miss *= 1.0 - p
        return 1.0 - miss


def _scale(w: list[float], cards: tuple[int, ...], f: float) -> None:
    for i in cards:
        if w[i]:
            w[i] *= f

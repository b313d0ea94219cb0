"""The ``expert`` computer player for the table games (classic, Oklahoma, Hollywood, three).

Every decision is rebuilt from the observation (:class:`~ginrummy.agents.knowledge.Knowledge`):
the cards seen, the opponent's discards, pickups and passes, and from them a chance for each
unseen card of being in the opponent's hand (the rest of each unseen card's chance is the
stock's).  A ten-card hand kept at the end of a turn is judged by its *effective deadwood*

    M = deadwood - LAM * outs - GIN * P(gin next draw) + DANGER * P(the card thrown melds for them)

``outs`` is the deadwood the next stock card saves on average through the melds it makes or
extends (cards weighted by their chance of being in the stock); ``P(gin next draw)`` is the
stock-weighted share of the cards that give gin, worth the gin bonus plus the opponent's
expected count over the next few draws; the danger term uses the opponent model (pairs of theirs
that the card would complete).  The player

* takes the upcard or the discard when the best hand with it (effective deadwood after the best
  discard) beats the expected hand after a stock draw: it completes or nearly completes melds;
* discards to the least effective deadwood (ties: the higher card);
* goes gin at once; when it may knock it compares the expected points of the showdown (undercut
  chance and winning margin by stock left and deadwood) with the expected points of playing on
  (by effective deadwood and stock left; 0 at the wall); the undercut chance rises with each
  card the opponent took from the pile and still holds.  Both models were fitted by least
  squares on hands where the knock decision was randomised (against ``greedy`` and against the
  expert itself), so it knocks early with low deadwood and plays on for gin, or for a safer count,
  when the hand is late or its deadwood is very low.  Oklahoma's knock limit comes with the
  legal actions; the undercut and gin bonuses and the spades double come from the options.

Every value is in expected points of the hand for the player to act, so the advisor ranks all
legal actions on one scale.  A decision takes about 1 ms of CPU.  Where the game pays only its win
(the EAAI scoring), close calls are then searched over sampled deals (:mod:`ginrummy.agents.search`,
``Params.search``; p99 about 35 ms of CPU).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .. import i18n
from ..actions import Action
from ..cards import CARDS
from ..errors import GinRummyError
from ..melds import best_discards, min_deadwood
from ..observe import Observation
from ..observe.observer import arrangement
from ..variants import table_variants
from .base import Agent, Decision, register
from .expert_values import DEFAULT, Params, hand_value, knock_points, play_on_value, undercut_chance
from .gamevalue import game_of, knock_for_game, play_on_for_game, style_bias
from .knowledge import (
    DISCARD_DELTA,
    RANK_MATES,
    RELATED,
    RUN_DEADWOOD,
    VALUES,
    Knowledge,
    action_text,
    iter_cards,
    obs_rng,
    obs_variant,
)
from .reasons import N_, Value, joined, message, move, move_in_sentence
from .sampling import sampled_knock_value
from .search import searched
from .solo_melds import gin_completions

__all__ = ["DEFAULT", "TABLE_VARIANTS", "Evaluation", "ExpertAgent", "Params", "evaluate", "hand_value"]

TABLE_VARIANTS: Final = table_variants()


@dataclass
class Evaluation:
    """The expert's view of every legal action: value in expected points (higher is better) and
    the facts behind it."""

    values: dict[Action, float]
    notes: dict[Action, Value]  # the facts behind each value, as data (ginrummy.agents.reasons)
    best: Action
    why: Value
    habit: bool = False  # the best action is a habit of the player (a level's early knock), not a judgement
    searched: Action | None = None  # the action the search of a close call chose over ``best`` (see choose)


class _Eval:
    """One decision's working state: knowledge, stock weights, caches."""

    def __init__(self, k: Knowledge, params: Params, rng: random.Random | Callable[[], random.Random]) -> None:
        self.k = k
        self.p = params
        self._rng = rng  # or the function that makes it, called when first needed (seeding costs)
        # The stock cards (unseen, with a chance of being in the stock) and that chance, also by
        # suit: per suit a 13-bit mask of the stock's ranks and each rank's chance.
        w = k.weights
        qmap: dict[int, float] = {}
        suit_stock = [0, 0, 0, 0]
        suit_q = [[0.0] * 13 for _ in range(4)]
        of = _RANKS_OF or _ranks_of()
        unseen = k.unseen
        for s in range(4):  # card order
            base = 13 * s
            row = suit_q[s]
            got = 0
            for r in of[unseen >> base & 0x1FFF]:
                q = 1.0 - w[base + r]
                if q > 0:
                    qmap[base + r] = q
                    got |= 1 << r
                    row[r] = q
            suit_stock[s] = got
        self.qmap = qmap
        self.suit_stock = suit_stock
        self.suit_q = suit_q
        self.qsum = sum(qmap.values()) or 1.0
        self._pot: dict[int, float] = {}
        self._danger: dict[int, float] = {}
        self._gin: dict[int, float] = {}
        self._pair: dict[int, float] = {}
        self.unseen = k.unseen
        self.mult = 1.0
        self.box = 0.0  # the box bonus per hand won, where the game pays one
        self.game: tuple[int, int, int] | None = None  # (my total, theirs, target) where only the win counts
        self.knock_bias = params.knock_bias  # points a knock must beat playing on by
        # Gin is worth its bonus and the opponent's whole count: a chance of it, over the next
        # few draws, counts as this many deadwood points per unit of chance.
        gb = float(k.options.get("gin_bonus", 25))
        draws = min(params.gin_draws, k.stock_size / 6)
        against = max(5.0, params.dd0 + params.dd_s * k.stock_size)
        self.gin_worth = params.gin_weight * draws * (gb + against) / params.c_m
        self.pair_worth = params.pair_weight * (gb + against) / params.c_m

    @property
    def rng(self) -> random.Random:
        """The decision's random stream (the sampled knock model's)."""
        rng = self._rng
        if not isinstance(rng, random.Random):
            rng = self._rng = rng()
        return rng

    @functools.cached_property
    def stock(self) -> list[tuple[int, float, int, int, int, int, int]]:
        """The stock cards in card order: (card, its chance of being in the stock, its value, the
        cards it melds with directly, its suit, its rank's bit, its rank mates)."""
        return [(c, q, VALUES[c], RELATED[c], c // 13, 1 << (c % 13), RANK_MATES[c]) for c, q in self.qmap.items()]

    def potential(self, hand: int, dw: int | None = None) -> float:
        """Expected deadwood saved by drawing one stock card into ``hand`` (ten cards), beyond
        what simply replacing the worst card saves (any card allows that, so it does not tell
        hands apart): the melds the card makes or extends, weighted by its chance of being in
        the stock."""
        got = self._pot.get(hand)
        if got is not None:
            return got
        d = min_deadwood(hand) if dw is None else dw
        a, b, c3, d4 = hand & 0x1FFF, hand >> 13 & 0x1FFF, hand >> 26 & 0x1FFF, hand >> 39
        sets = (a & b & (c3 | d4)) | (c3 & d4 & (a | b))
        # The best discard of the hand plus one stock card, by lookups in each suit's run-only
        # tables, for every way of using the sets the hand holds (usually just "none"): the card
        # joins one suit's pattern, and the best single removal is that suit's or the best of the
        # others'.  A card that is the third or the fourth of a rank adds the ways with a set
        # holding it (``_with_set``: they do not depend on which card of the rank comes).  ``bd9``
        # (the best discard of the hand itself) is the least over the hand's ways.  Exactly
        # best_discards(hand | card)[0] for every card.
        rd = RUN_DEADWOOD
        dl = DISCARD_DELTA
        added = _ADDED
        of = _RANKS_OF or _ranks_of()
        suit_stock = self.suit_stock
        suit_q = self.suit_q
        ranks = a | b | c3 | d4
        twice = ((a & b) | (a & c3) | (a & d4) | (b & c3) | (b & d4) | (c3 & d4)) & ~sets  # ranks held twice
        special = twice | sets
        thirds: dict[int, int] = {}
        tot = 0.0
        gin = 0.0
        # The stock cards related to the hand (a card of their rank, or a suit neighbour, in it),
        # suit by suit and rank by rank: card order, as the sums were always taken.  Per suit and
        # way, ``_ADDED`` holds for each rank the suit's part of the best discard with it added.
        if not sets:
            r0, r1, r2, r3 = rd[a], rd[b], rd[c3], rd[d4]
            l0, l1, l2, l3 = dl[a], dl[b], dl[c3], dl[d4]
            rsum = r0 + r1 + r2 + r3
            e01 = l0 if l0 < l1 else l1
            e23 = l2 if l2 < l3 else l3
            bd9 = rsum + (e01 if e01 < e23 else e23)
            bases = _bases(d, bd9)
            for suit, pat, rest, ex in (
                (0, a, rsum - r0, l1 if l1 < e23 else e23),
                (1, b, rsum - r1, l0 if l0 < e23 else e23),
                (2, c3, rsum - r2, e01 if e01 < l3 else l3),
                (3, d4, rsum - r3, e01 if e01 < l2 else l2),
            ):
                todo = suit_stock[suit] & (ranks | pat << 1 | pat >> 1)
                if not todo:
                    continue
                qs = suit_q[suit]
                key = ((ex if ex < 32 else 32) + 16) << 13 | pat
                add = added.get(key)
                if add is None:
                    add = _fill_added(key, pat, ex)
                for rank in of[todo]:
                    d2 = rest + add[rank]
                    if special >> rank & 1:  # the third of a rank: the set of the three is one more way
                        t3 = thirds.get(rank)
                        if t3 is None:  # _with_set(hand, rank, (0,)): the hand without the pair
                            x = hand & ~_RANK_ALL[rank]
                            pa, pb, pc, pd = x & 0x1FFF, x >> 13 & 0x1FFF, x >> 26 & 0x1FFF, x >> 39
                            la, lb, lc, ld = dl[pa], dl[pb], dl[pc], dl[pd]
                            low = la if la < lb else lb
                            if lc < low:
                                low = lc
                            if ld < low:
                                low = ld
                            t3 = thirds[rank] = rd[pa] + rd[pb] + rd[pc] + rd[pd] + low
                        if t3 < d2:
                            d2 = t3
                    base = bases[rank]
                    if d2 < base:
                        q = qs[rank]
                        tot += q * (base - d2)
                        if d2 == 0:
                            gin += q
        else:
            set_ways = _set_ways(hand, sets)
            per_suit: tuple[dict[int, tuple[int, int]], ...] = ({}, {}, {}, {})
            bd9 = 1 << 20
            lefts = []
            for removed in set_ways:
                left = hand & ~removed
                lefts.append(left)
                pa, pb, pc, pd = left & 0x1FFF, left >> 13 & 0x1FFF, left >> 26 & 0x1FFF, left >> 39
                r0, r1, r2, r3 = rd[pa], rd[pb], rd[pc], rd[pd]
                l0, l1, l2, l3 = dl[pa], dl[pb], dl[pc], dl[pd]
                rsum = r0 + r1 + r2 + r3
                e01 = l0 if l0 < l1 else l1
                e23 = l2 if l2 < l3 else l3
                v9 = rsum + (e01 if e01 < e23 else e23)
                if v9 < bd9:
                    bd9 = v9
                # Ways that leave a suit the same pattern are one entry for that suit: with the
                # least of the rest R and of the rest plus the best removal elsewhere M, the
                # least is R + min(the suit's removal, M - R).
                for part, pat, rest, ex in (
                    (per_suit[0], pa, rsum - r0, l1 if l1 < e23 else e23),
                    (per_suit[1], pb, rsum - r1, l0 if l0 < e23 else e23),
                    (per_suit[2], pc, rsum - r2, e01 if e01 < l3 else l3),
                    (per_suit[3], pd, rsum - r3, e01 if e01 < l2 else l2),
                ):
                    seen = part.get(pat)
                    if seen is None:
                        part[pat] = (rest, rest + ex)
                    else:
                        part[pat] = (rest if rest < seen[0] else seen[0], min(rest + ex, seen[1]))
            bases = _bases(d, bd9)
            for suit, pat in ((0, a), (1, b), (2, c3), (3, d4)):
                todo = suit_stock[suit] & (ranks | pat << 1 | pat >> 1)
                if not todo:
                    continue
                qs = suit_q[suit]
                ways = []
                for p, (rest, most) in per_suit[suit].items():
                    ex = most - rest
                    key = ((ex if ex < 32 else 32) + 16) << 13 | p
                    add = added.get(key)
                    if add is None:
                        add = _fill_added(key, p, ex)
                    ways.append((rest, add))
                n_ways = len(ways)  # one or two ways, mostly (a set of three touches three suits)
                rest_a, add_a = ways[0]
                rest_b, add_b = ways[1] if n_ways > 1 else ways[0]
                for rank in of[todo]:
                    d2 = rest_a + add_a[rank]
                    if n_ways > 1:
                        val = rest_b + add_b[rank]
                        if val < d2:
                            d2 = val
                        if n_ways > 2:
                            for rest, add in ways[2:]:
                                val = rest + add[rank]
                                if val < d2:
                                    d2 = val
                    if special >> rank & 1:  # a third or a fourth card of a rank: sets with it
                        t3 = thirds.get(rank)
                        if t3 is None:
                            if twice >> rank & 1:  # _with_set for a pair: each way without the pair
                                t3 = 1 << 20
                                allr = ~_RANK_ALL[rank]
                                for left in lefts:
                                    x = left & allr
                                    pa, pb, pc, pd = x & 0x1FFF, x >> 13 & 0x1FFF, x >> 26 & 0x1FFF, x >> 39
                                    la, lb, lc, ld = dl[pa], dl[pb], dl[pc], dl[pd]
                                    low = la if la < lb else lb
                                    if lc < low:
                                        low = lc
                                    if ld < low:
                                        low = ld
                                    v = rd[pa] + rd[pb] + rd[pc] + rd[pd] + low
                                    if v < t3:
                                        t3 = v
                            else:
                                t3 = _with_set(hand, rank, set_ways)
                            thirds[rank] = t3
                        if t3 < d2:
                            d2 = t3
                    base = bases[rank]
                    if d2 < base:
                        q = qs[rank]
                        tot += q * (base - d2)
                        if d2 == 0:
                            gin += q
        out = tot / self.qsum
        self._pot[hand] = out
        self._gin[hand] = gin / self.qsum
        return out

    def replacement(self, hand: int, dw: int) -> float:
        """Expected deadwood saved by drawing one stock card into ``hand`` (ten cards, deadwood
        ``dw``) and throwing the worst card instead, melds aside (what :meth:`potential` leaves
        out): a low card replaces a high one."""
        bd9 = best_discards(hand)[0]
        tot = 0.0
        for _, q, v, *_rest in self.stock:
            s = dw - bd9 - v
            if s > 0:
                tot += q * s
        return tot / self.qsum

    def gin_chance(self, hand: int) -> float:
        """The chance that the next stock card gives gin (after :meth:`potential` of ``hand``)."""
        if hand not in self._gin:
            self.potential(hand)
        return self._gin[hand]

    def pair_chance(self, hand: int) -> float:
        """The chance that the next two stock cards make a gin of ``hand`` (ten cards) together
        while neither does alone (pairs of gin within two draws, weighted by their chance of
        being in the stock)."""
        got = self._pair.get(hand)
        if got is not None:
            return got
        comps = gin_completions(hand, self.unseen, 2)
        got = 0.0
        if 0 not in comps:
            outs = 0
            for u in comps:
                if u.bit_count() == 1:
                    outs |= u
            q = self.qmap
            s = 0.0
            for u in comps:
                if u.bit_count() == 2 and not u & outs:
                    low = u & -u
                    s += q.get(low.bit_length() - 1, 0.0) * q.get((u ^ low).bit_length() - 1, 0.0)
            n = self.qsum
            got = 2.0 * s / (n * max(1.0, n - 1.0))
        self._pair[hand] = got
        return got

    def danger(self, card: int) -> float:
        got = self._danger.get(card)
        if got is None:
            got = self.k.meld_chance(card)
            self._danger[card] = got
        return got

    def effective(self, hand: int, dw: int, card: int | None) -> float:
        m = dw - self.p.lam * self.potential(hand, dw) - self.gin_worth * self._gin[hand]
        if self.pair_worth:
            m -= self.pair_worth * self.pair_chance(hand)
        if card is not None:
            m += self.p.danger * self.danger(card)
        return m

    # -- discards ---------------------------------------------------------------------------------
    def rank_discards(self, hand11: int, cards: Sequence[int], full: bool) -> list[tuple[float, int, int]]:
        """(effective deadwood, card, plain deadwood) for the discards worth a look, best first."""
        pre = []
        pats = [hand11 & 0x1FFF, hand11 >> 13 & 0x1FFF, hand11 >> 26 & 0x1FFF, hand11 >> 39]
        a, b, c3, d4 = pats
        rd = RUN_DEADWOOD
        rsum = rd[a] + rd[b] + rd[c3] + rd[d4]
        runs_only = not ((a & b & (c3 | d4)) | (c3 & d4 & (a | b)))  # no rank held three times: no set
        danger = self.p.danger
        for c in cards:
            if runs_only:  # min_deadwood of the hand without c: its suit's runs change, nothing else
                s, r = divmod(c, 13)
                pat = pats[s]
                d = rsum - rd[pat] + rd[pat & ~(1 << r)]
            else:
                d = min_deadwood(hand11 & ~(1 << c))
            pre.append((d + danger * self.danger(c), d, c))
        pre.sort(key=lambda t: (t[0], -VALUES[t[2]], -t[2]))
        if not full:
            limit = pre[0][0] + self.p.margin
            pre = [t for t in pre if t[0] <= limit][: self.p.shortlist]
        out = []
        for _, d, c in pre:
            out.append((self.effective(hand11 & ~(1 << c), d, c), c, d))
        out.sort(key=lambda t: (t[0], -VALUES[t[1]], -t[1]))
        return out


def _set_ways(hand: int, ranks: int) -> list[int]:
    """Every way of using the sets of ``hand`` on the candidate ``ranks`` (held in 3+ suits): the
    cards each way puts aside (0 = no set; a rank held four times may give any three)."""
    if ranks and not ranks & (ranks - 1):  # one rank (the common case): held three times, one way with its set
        held = hand & _RANK_ALL[ranks.bit_length() - 1]
        if held.bit_count() == 3:
            return [0, held]
    ways = [0]
    r = 0
    while ranks:
        if ranks & 1:
            held = hand & (RANK_MATES[r] | (1 << r))
            choices = [held]
            if held.bit_count() == 4:
                choices += [held & ~(1 << x) for x in iter_cards(held)]
            ways = [w | ch for w in ways for ch in [0, *choices]]
        ranks >>= 1
        r += 1
    return ways


_ADDED: dict[int, tuple[int, ...]] = {}
"""Filled as met (``_fill_added``): for a suit pattern ``pat`` and the best removal elsewhere
``ex``, for each rank not in the pattern, the run-only deadwood of the pattern with that rank added
plus the better of its own best removal and ``ex`` (key: ``ex`` capped at 32, above any removal,
plus 16, shifted past the pattern's 13 bits)."""


def _fill_added(key: int, pat: int, ex: int) -> tuple[int, ...]:
    if len(_ADDED) >= 1 << 16:  # bounded (about 30,000 keys are ever met in play)
        _ADDED.clear()
    rd = RUN_DEADWOOD
    dl = DISCARD_DELTA
    out = []
    for r in range(13):
        x = pat | 1 << r
        dx = dl[x]
        out.append(rd[x] + (dx if dx < ex else ex))
    got = _ADDED[key] = tuple(out)
    return got


_RANK_ALL: Final[tuple[int, ...]] = tuple(RANK_MATES[r] | 1 << r for r in range(13))
"""The four cards of each rank."""

_BASES: dict[int, tuple[int, ...]] = {}


def _bases(d: int, bd9: int) -> tuple[int, ...]:
    """Per rank: what drawing a card of it saves at most without a meld, from a ten-card hand of
    deadwood ``d`` whose best discard leaves ``bd9`` (the card replaces the discard)."""
    key = d << 12 | bd9
    got = _BASES.get(key)
    if got is None:
        got = _BASES[key] = tuple(min(d, bd9 + VALUES[r]) for r in range(13))
    return got


_RANKS_OF: tuple[tuple[int, ...], ...] = ()


def _ranks_of() -> tuple[tuple[int, ...], ...]:
    """The ranks of each 13-bit suit pattern, lowest first (made on first use)."""
    global _RANKS_OF
    if not _RANKS_OF:
        _RANKS_OF = tuple(tuple(r for r in range(13) if x >> r & 1) for x in range(1 << 13))
    return _RANKS_OF


def _with_set(hand: int, rank: int, ways: Sequence[int]) -> int:
    """The least deadwood after one discard of ``hand`` plus one more card of ``rank`` (held two or
    three times) where the new card is in a set of that rank: over the ways of using the hand's
    other sets, the best single removal from the run-only tables of what is left.  The same for
    whichever card of the rank comes, since the set takes it: all the rank's cards, or (with
    three held) three of the four, the new card and two of the old, one old card staying."""
    rd = RUN_DEADWOOD
    dl = DISCARD_DELTA
    held = hand & (RANK_MATES[rank] | (1 << rank))
    if held.bit_count() == 3:
        y = held & (held - 1)
        back: tuple[int, ...] = (0, held ^ y, y & -y, y & (y - 1))
    else:
        back = (0,)
    best = 1 << 20
    for removed in ways:
        if removed & held:  # this rank's own set of three: the same as the way without it
            continue
        left = hand & ~removed & ~held
        for x in back:
            rest = left | x
            a, b, c, d = rest & 0x1FFF, rest >> 13 & 0x1FFF, rest >> 26 & 0x1FFF, rest >> 39
            la, lb, lc, ld = dl[a], dl[b], dl[c], dl[d]
            low = la if la < lb else lb
            if lc < low:
                low = lc
            if ld < low:
                low = ld
            v = rd[a] + rd[b] + rd[c] + rd[d] + low
            if v < best:
                best = v
    return best


_DEADWOOD_NOTES: dict[int, Value] = {}


def _deadwood_note(d: int) -> Value:
    """``N_("deadwood {deadwood}", deadwood=d)``, made once per count (a message is immutable)."""
    got = _DEADWOOD_NOTES.get(d)
    if got is None:
        got = _DEADWOOD_NOTES[d] = N_("deadwood {deadwood}", deadwood=d)
    return got


def _card(a: Action) -> int:
    assert a.card is not None
    return int(a.card)


def evaluate(
    observation: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    params: Params = DEFAULT,
    seed: int | None = 0,
    full: bool = False,
    explain: bool = True,
) -> Evaluation:
    """Value every legal action (``full``) or just enough of them to pick the best; without
    ``explain`` the facts behind the values and the reason are left out (``notes`` may miss
    actions, ``why`` is empty), the values and the best action being the same.

    Values are expected points of the hand for the player to act (higher is better)."""
    k = Knowledge.from_observation(observation)
    if params.memory >= 0 or not params.pickups:
        k.forget(params.memory, params.pickups)
    ev = _Eval(k, params, lambda: obs_rng(seed, observation, "expert"))
    ev.mult = _multiplier(k, observation)
    ev.box = _box(k, observation, params)
    if ev.mult != 1.0 and not k.options.get("spades_double_boxes"):
        # Rule 1b.3: the double is for the hand's score, not the box bonus: every value is
        # multiplied by ``mult`` at the end, so the box counts 1/mult of itself before that.
        ev.box /= ev.mult
    if params.game_aware:
        ev.game = game_of(k, observation)
    if not ev.box and (params.hunter_knock_bias or params.knocker_knock_bias):
        ev.knock_bias += style_bias(k, observation, params)
    kinds = {a.kind for a in legal}
    if kinds & {"discard", "knock", "gin"}:
        return _decide_out(ev, k, legal, full, explain)
    out = _decide_draw(ev, k, legal, explain)
    if ev.mult != 1.0:
        out.values = {a: v * ev.mult for a, v in out.values.items()}
    return out


def _multiplier(k: Knowledge, observation: Mapping[str, Any]) -> float:
    """Rule 1b.3: a spade upcard doubles the hand in Oklahoma (with spades_double)."""
    up = observation.get("upcard")
    v = obs_variant(observation)
    if v is not None and v.upcard_sets_limit and k.options.get("spades_double") and up and up.endswith("s"):
        return 2.0
    return 1.0


def _box(k: Knowledge, observation: Mapping[str, Any], params: Params) -> float:
    """Rule 1.10: the box bonus each hand won brings at the end of the game (three: only with
    end_bonuses)."""
    v = obs_variant(observation)
    if v is not None and v.roles and not k.options.get("end_bonuses"):
        # No box bonus, but winning a hand keeps (or puts) the winner in the box for the next
        # hand while the loser sits out (rule 2.6): worth about this much.
        return params.three_win_worth
    return float(k.options.get("box_bonus", 0))


def _shift(k: Knowledge, p: Params) -> float:
    """Undercut log-odds beyond the stock and the deadwood: the cards the opponent took."""
    return p.u_took * k.opp_took.bit_count() if p.u_took else 0.0


def _bonuses(k: Knowledge) -> tuple[float, float]:
    return float(k.options.get("undercut_bonus", 25)), float(k.options.get("gin_bonus", 25))


def _decide_draw(ev: _Eval, k: Knowledge, legal: Sequence[Action], explain: bool = True) -> Evaluation:
    p = ev.p
    hand = k.hand
    take = next((a for a in legal if a.kind == "take"), None)
    other = next((a for a in legal if a.kind in ("draw", "pass")), None)
    top = k.top
    stock = k.stock_size - 1  # about what is left when this turn's discard is made
    values: dict[Action, float] = {}
    notes: dict[Action, Value] = {}
    if p.greedy_draw and take is not None and top is not None and other is not None:
        from .basic import greedy_choice

        g = greedy_choice({"hand": [str(CARDS[c]) for c in iter_cards(hand)], "discard_pile": [str(CARDS[top])]}, legal)
        return Evaluation({g.action: 0.0}, {g.action: ""}, g.action, g.explanation or "")
    d0 = min_deadwood(hand)
    pot0 = ev.potential(hand, d0)
    if other is not None:
        # A stock card saves pot0 on average (plus replacing the worst card, which is about what
        # taking also allows), and the hand keeps about the same outs afterwards.
        m_draw = d0 - (1.0 + p.lam) * pot0 - ev.gin_worth * ev.gin_chance(hand)
        if ev.pair_worth:
            m_draw -= ev.pair_worth * ev.pair_chance(hand)
        if p.draw_replace:
            m_draw -= p.draw_replace * ev.replacement(hand, d0)
        values[other] = play_on_for_game(ev.game, play_on_value(m_draw, stock, k.wall, p, ev.box), stock, k.wall)
        if explain:
            notes[other] = N_(
                "deadwood {deadwood}; by its estimate a stock card saves {saving} on average",
                deadwood=d0,
                saving=f"{pot0:.1f}",
            )
    take_facts = (d0, -1)
    if take is not None and top is not None:
        with_top = hand | (1 << top)
        allow = bool(k.options.get("discard_drawn_upcard_allowed", False))
        cards = [c for c in iter_cards(with_top) if allow or c != top]
        m_take, c_best, d_take = ev.rank_discards(with_top, cards, full=False)[0]
        m_take_on = play_on_value(m_take + p.take_penalty, stock, k.wall, p, ev.box)
        values[take] = play_on_for_game(ev.game, m_take_on, stock, k.wall)
        if d_take <= k.knock_limit:
            # Taking it lets us go out at once.
            ub, gb = _bonuses(k)
            kv = knock_points(d_take, stock, ub, gb, p, ev.box, _shift(k, p))
            if ev.game is not None and d_take > 0:
                under = undercut_chance(d_take, stock, p, _shift(k, p))
                kv += knock_for_game(ev.game, p, d_take, stock, ub, under)
            values[take] = max(values[take], kv)
        take_facts = (d_take, c_best)
    if take is not None and top is not None and explain:
        d_take, c_best = take_facts
        melded = _meld_with((hand | (1 << top)) & ~(1 << c_best), top)
        mates = iter_cards(hand & RELATED[top])
        if melded:
            how = i18n.N_("it melds with {cards} and leaves deadwood {deadwood} after throwing {card}")
        elif d_take < d0:
            how = i18n.N_("it lowers the count from {now} and leaves deadwood {deadwood} after throwing {card}")
        elif mates:
            how = i18n.N_("it goes with {cards} and leaves deadwood {deadwood} after throwing {card}")
        else:
            how = i18n.N_("it is a low card and leaves deadwood {deadwood} after throwing {card}")
        notes[take] = message(
            how, cards=melded or ", ".join(str(CARDS[x]) for x in mates), now=d0, deadwood=d_take, card=CARDS[c_best]
        )
    if not values:
        a = legal[0]
        return Evaluation({a: 0.0}, {a: ""}, a, N_("The only legal action."))
    best = max(values, key=lambda a: (values[a], a.kind != "take"))
    if not explain:
        return Evaluation(values, notes, best, "")
    top_s: Value = str(CARDS[top]) if top is not None else N_("the card")
    why: Value
    if best.kind == "take":
        why = N_("Take {card}: {note}.", card=top_s, note=notes[best])
    elif take is not None and top is not None:
        d_take, c_best = take_facts
        if best.kind == "pass":
            text = i18n.N_(
                "Pass on {card}: taking {card} would leave deadwood {deadwood} after throwing {thrown} "
                "(now {now}); the expert rates the stock higher ({note})."
            )
        else:
            text = i18n.N_(
                "Draw from the stock: taking {card} would leave deadwood {deadwood} after throwing {thrown} "
                "(now {now}); the expert rates the stock higher ({note})."
            )
        why = message(text, card=top_s, deadwood=d_take, thrown=CARDS[c_best], now=d0, note=notes[best])
    elif best.kind == "pass":
        why = N_("Pass on {card} ({note}).", card=top_s, note=notes[best])
    else:
        why = N_("Draw from the stock ({note}).", note=notes[best])
    return Evaluation(values, notes, best, why)


def _meld_with(hand: int, card: int) -> str:
    """The meld holding ``card`` in the best arrangement of ``hand``, as text ('' if none)."""
    for m in arrangement(hand).melds:
        if card in m:
            return "-".join(str(x) for x in m if x != card)
    return ""


def _decide_out(ev: _Eval, k: Knowledge, legal: Sequence[Action], full: bool, explain: bool = True) -> Evaluation:
    p = ev.p
    hand = k.hand
    ub, gb = _bonuses(k)
    stock = k.stock_size
    values: dict[Action, float] = {}
    notes: dict[Action, Value] = {}
    discards = [a for a in legal if a.kind == "discard"]
    forced: set[Action] = set()  # knocks played by habit (late_knock_stock), not by their value
    gins = [a for a in legal if a.kind == "gin"]
    knocks = [a for a in legal if a.kind == "knock"]
    cards = [_card(a) for a in discards]
    ranked = ev.rank_discards(hand, cards, full=full) if cards else []
    by_card = {c: (m, d) for m, c, d in ranked}
    for a in discards:
        c = _card(a)
        if c in by_card:
            m, d = by_card[c]
            values[a] = play_on_for_game(ev.game, play_on_value(m, stock, k.wall, p, ev.box), stock, k.wall)
            if not explain:
                continue
            feed = ev.danger(c)
            if feed >= 0.2:
                notes[a] = N_(
                    "deadwood {deadwood}, {chance} chance it melds for the opponent", deadwood=d, chance=f"{feed:.0%}"
                )
            else:
                notes[a] = _deadwood_note(d)
    for a in gins:
        values[a] = knock_points(0, stock, ub, gb, p, ev.box)
        if a.card is None:
            values[a] += float(k.options.get("big_gin_bonus", 31)) - gb
        notes[a] = N_("gin")
    if knocks and not gins:
        dks = {a: min_deadwood(hand & ~(1 << _card(a))) for a in knocks}
        for a in knocks:
            dk = dks[a]
            if p.knock_model == "sample":
                kv, under, _ = sampled_knock_value(k, p, ev.rng, hand & ~(1 << _card(a)), dk, False)
            else:
                kv = knock_points(dk, stock, ub, gb, p, ev.box, _shift(k, p))
                under = undercut_chance(dk, stock, p, _shift(k, p))
            values[a] = kv - ev.knock_bias - (p.nobox_knock_bias if not ev.box else 0.0)
            if ev.game is not None and p.knock_model != "sample":
                values[a] += knock_for_game(ev.game, p, dk, stock, ub, under)
            if explain:
                notes[a] = N_("deadwood {deadwood}, undercut chance about {chance}", deadwood=dk, chance=f"{under:.0%}")
        if stock <= p.late_knock_stock:
            top = max((values[a] for a in discards if a in values), default=0.0)
            for a in knocks:
                if values[a] < top + 1.0 - 0.01 * dks[a]:
                    values[a] = top + 1.0 - 0.01 * dks[a]
                    forced.add(a)
    if full:  # anything left (e.g. a worse knock) still gets a value
        for a in legal:
            if a not in values:
                d = min_deadwood(hand & ~(1 << _card(a))) if a.card is not None else min_deadwood(hand)
                values[a] = play_on_value(d, stock, k.wall, p, ev.box)
                notes[a] = _deadwood_note(d)
    if not values:
        a = legal[0]
        return Evaluation({a: 0.0}, {a: ""}, a, N_("The only legal action."))

    def key(a: Action) -> tuple[int, float, int, int]:
        c = _card(a) if a.card is not None else -1
        return (a.kind == "gin", values[a], VALUES[c] if c >= 0 else 0, c)

    best = max(values, key=key)
    why = _out_why(ev, k, best, values, notes, knocks, forced) if explain else ""
    mult = ev.mult
    if mult != 1.0:
        values = {a: v * mult for a, v in values.items()}
    return Evaluation(values, notes, best, why, habit=best.kind == "knock" and stock <= p.late_knock_stock)


def _out_why(
    ev: _Eval,
    k: Knowledge,
    best: Action,
    values: Mapping[Action, float],
    notes: Mapping[Action, Value],
    knocks: Sequence[Action],
    forced: set[Action],
) -> Value:
    """The reason for ``best`` among the ways out of a turn (a discard, a knock or gin)."""
    hand = k.hand
    stock = k.stock_size
    bc = _card(best) if best.card is not None else None
    why: Value
    if best.kind == "gin":
        why = (
            N_("Big gin: all eleven cards are melded.")
            if bc is None
            else N_("Go gin, throwing {card}.", card=CARDS[bc])
        )
    elif best.kind == "knock":
        if best in forced:
            text = i18n.N_("Knock, throwing {card}: {note}; knocking at the first chance.")
        elif stock <= k.wall:
            text = i18n.N_(
                "Knock, throwing {card}: {note}; otherwise the hand ends void at the wall, and the knock is worth more."
            )
        else:
            text = i18n.N_("Knock, throwing {card}: {note}; that is worth more than playing on.")
        why = message(text, card=CARDS[_card(best)], note=notes[best])
    else:
        assert bc is not None
        kept = hand & ~(1 << bc)
        arr = arrangement(kept)
        melds = ", ".join("-".join(str(x) for x in m) for m in arr.melds)
        if melds:
            clauses = [
                N_(
                    "Discard {card}: it leaves deadwood {deadwood} and keeps {melds}",
                    card=CARDS[bc],
                    deadwood=arr.deadwood,
                    melds=melds,
                )
            ]
        else:
            clauses = [N_("Discard {card}: it leaves deadwood {deadwood}", card=CARDS[bc], deadwood=arr.deadwood)]
        thrown = [x for x in iter_cards(k.opp_discards) if x % 13 == bc % 13]
        passed = [x for x in iter_cards(k.opp_passed & ~k.opp_discards) if x % 13 == bc % 13]
        feed = ev.danger(bc)
        if thrown:
            clauses.append(N_("the opponent discarded {card}", card=CARDS[thrown[0]]))
        elif passed:
            clauses.append(N_("the opponent passed on {card}", card=CARDS[passed[0]]))
        elif feed < 0.1:
            clauses.append(N_("it is unlikely to help the opponent"))
        best_knock = max((values[a] for a in knocks if a in values), default=None)
        if best_knock is not None and values[best] > best_knock:
            if stock <= k.wall:
                clauses.append(
                    N_("not knocking lets the hand end void at the wall, which is worth more than the knock")
                )
            else:
                clauses.append(N_("playing on is worth more than knocking now"))
        # TRANSLATORS: the reasons of one discard, each a whole clause, are listed with this separator
        why = joined(i18n.N_("; "), clauses, i18n.N_("."))
    return why


@register("expert", TABLE_VARIANTS)
class ExpertAgent(Agent):
    """Card tracking, opponent modelling, safe discards and a knock decision by sampling."""

    name = "expert"

    def __init__(self, variant: str, seed: int | None = None, params: Params | None = None, **fields: Any) -> None:
        super().__init__(variant, seed)
        base = params or DEFAULT
        try:
            self.params = dataclasses.replace(base, **fields) if fields else base
        except TypeError:
            bad = sorted(set(fields) - {f.name for f in dataclasses.fields(Params)})
            raise GinRummyError(
                i18n.ngettext("unknown expert option {options}", "unknown expert options {options}", len(bad)).format(
                    options=", ".join(bad)
                )
            ) from None

    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], N_("The only legal action."))
        ev, best = self._choose(observation, legal, explain=True)
        return Decision(best, reason(ev, best), {action_text(a): v for a, v in ev.values.items()})

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """:meth:`decide`'s action, without its reason and values (the simulator's path)."""
        if type(self).decide is not ExpertAgent.decide:  # a subclass decides its own way
            return super().act(observation, legal)
        if len(legal) == 1:
            return legal[0]
        return self._choose(observation, legal, explain=False)[1]

    def _choose(self, observation: Observation, legal: Sequence[Action], explain: bool) -> tuple[Evaluation, Action]:
        """The evaluation and the action to play: the best one, unless the search of a close call
        or a noisy judgement picks another."""
        ev, best = choose(observation, legal, params=self.params, seed=self.seed, explain=explain)
        if self.params.noise > 0 and best.kind != "gin" and not ev.habit and len(ev.values) > 1:
            # A noisier judgement: every option's value is misjudged by a random error.
            rng = obs_rng(self.seed, observation, "noise")
            judged = {a: v + rng.gauss(0.0, self.params.noise) for a, v in ev.values.items()}
            best = max(judged, key=lambda a: (a.kind == "gin", judged[a], a.id))
        return ev, best


def choose(
    observation: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    params: Params = DEFAULT,
    seed: int | None = 0,
    explain: bool = True,
) -> tuple[Evaluation, Action]:
    """The expert's evaluation (:func:`evaluate`) and its action: the best one, unless the search
    of a close call (:func:`ginrummy.agents.search.searched`, where ``params`` turn it on) finds a
    clearly better one.  The computer players and the hints both choose here.  (Never with a full
    evaluation: the search's options are the actions valued, and a full one values more, so it
    could choose differently from the computer.)"""
    ev = evaluate(observation, legal, params=params, seed=seed, explain=explain)
    best = ev.best
    if params.search > 0 and params.noise <= 0 and not ev.habit:
        best = searched(observation, legal, ev.values, best, params, seed)
        if best != ev.best:
            ev = dataclasses.replace(ev, searched=best)
    return ev, best


def reason(ev: Evaluation, action: Action) -> Value:
    """The sentence for ``action`` chosen after ``ev``: the evaluation's own reason for its best
    action; for the search's choice, its noted facts and that it played out better than the
    evaluation's best; else the facts noted for the action chosen (a noisy judgement)."""
    if action == ev.best:
        return ev.why
    if action == ev.searched:
        return _searched_why(action, ev.notes.get(action, ""), ev.best)
    return _plain_why(action, ev.notes.get(action, ""))


def _searched_why(action: Action, note: Value, other: Action) -> Value:
    """One sentence for an action the search chose over the evaluation's best, ``other``: the facts
    noted for it, and why it was chosen (the play-outs only sample what the seat has not seen)."""
    if note:
        return N_(
            "{move}: {note}; played out over the hands the opponent may hold, it does better than {other}.",
            move=move(action),
            note=note,
            other=move_in_sentence(other),
        )
    return N_(
        "{move}: played out over the hands the opponent may hold, it does better than {other}.",
        move=move(action),
        other=move_in_sentence(other),
    )


def _plain_why(action: Action, note: Value) -> Value:
    """One sentence for an action chosen by a noisy judgement: what it is and the facts noted."""
    return N_("{move}: {note}.", move=move(action), note=note) if note else N_("{move}.", move=move(action))

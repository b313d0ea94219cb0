"""The expert's search of close calls at decision time (``Params.search``): sampled deals and
play-outs.

When the expert's best two options are within ``Params.search_window`` points of each other (4;
a knock against playing on, ``Params.search_knock_window``, 3; about a fifth of its discards are
within one point), the static values alone cannot be trusted to tell them apart.  The search
then plays each close option out over the same sampled *worlds*:

* a world is a hand for the opponent drawn from what the seat has seen
  (:func:`ginrummy.agents.sampling.sample_opponent`: the cards it is known to hold, the rest by the
  opponent model's weights, a few extra drawn and the worst dropped) and an order of the remaining
  unseen cards for the stock: nothing but the observation is used;
* from each option the hand is played to its end by a fast continuation for both seats (take the
  top card when it melds, else draw; throw the card that leaves the least deadwood, the highest
  of equals; go gin at once; knock by the expert's own models of knocking and playing on, or, for
  an opponent whose style the game's scores show, the way it has been winning: only gin for a
  gin hunter, at the first chance for a quick knocker) and scored by the rules in play (layoffs,
  undercuts, the gin bonus, the wall);
* where the game pays only its win (the EAAI scoring), each outcome counts by the chance of winning
  the game it gives
  (:func:`ginrummy.agents.gamevalue.win_chance`, in points through the local slope); where the
  hand's points count (a box or game bonus) the search is off unless ``Params.search_points``, and
  then counts points and the box bonus;
* every option meets the same worlds (common random numbers), so the difference between two
  options is measured world by world.  The expert's own choice is kept unless another option is
  better on average by more than ``Params.search_z`` standard errors of that difference and by at
  least ``Params.search_gain`` points.

Decisions are reproducible for a seed: the worlds are drawn from a generator seeded by the agent's
seed and the observation (:func:`ginrummy.agents.knowledge.obs_rng`), and the number of worlds is
fixed (``Params.search``), never a matter of time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..actions import Action
from ..melds import best_arrangement, best_defense, best_discards, deadwood_after_each, min_deadwood
from .expert_values import Params, knock_points, play_on_value
from .gamevalue import MEAN_WIN, game_of, points_a_win, win_chance, win_target
from .knowledge import NEIGHBOURS, RANK_MATES, VALUES, Knowledge, iter_cards, obs_rng, obs_variant
from .sampling import sample_opponent

__all__ = ["Rules", "SearchResult", "World", "playout", "sample_worlds", "search_close_call"]

# Knocking styles of a seat in the play-outs.
MODEL = 0  # by the expert's value models (knock when the knock is worth more than playing on)
GIN_ONLY = 1  # a gin hunter: never knocks, goes gin
QUICK = 2  # knocks at the first chance


@dataclass(frozen=True)
class Rules:
    """What the play-outs need of the rules in play (from the observation's options)."""

    knock_limit: int = 10
    wall: int = 2
    gin_bonus: int = 25
    undercut_bonus: int = 25
    undercut_on_tie: bool = True
    layoffs: bool = True
    box: float = 0.0  # points per hand won paid at the end of the game (the box bonus)

    @classmethod
    def of(cls, k: Knowledge) -> Rules:
        o = k.options
        return cls(
            knock_limit=k.knock_limit,
            wall=k.wall,
            gin_bonus=int(o.get("gin_bonus", 25)),
            undercut_bonus=int(o.get("undercut_bonus", 25)),
            undercut_on_tie=bool(o.get("undercut_on_tie", True)),
            layoffs=bool(o.get("layoffs", True)),
            box=float(o.get("box_bonus", 0) or 0),
        )


@dataclass(frozen=True)
class World:
    """One sampled deal of the unseen cards: the opponent's hand and the stock (drawn from the end)."""

    opponent: int
    stock: tuple[int, ...]


@dataclass
class SearchResult:
    """What the search found: the action chosen, and for each option searched its mean value
    (points) and its mean difference from the expert's own choice with the standard error."""

    best: Action
    means: dict[Action, float]
    gains: dict[Action, tuple[float, float]]
    worlds: int
    playouts: int


def sample_worlds(k: Knowledge, p: Params, rng: random.Random, n: int) -> list[World]:
    """``n`` worlds consistent with what the seat ``k`` has seen."""
    hands = sample_opponent(k, p, rng, n)
    out = []
    for h in hands:
        rest = iter_cards(k.unseen & ~h)
        rng.shuffle(rest)
        out.append(World(h, tuple(rest)))
    return out


@lru_cache(maxsize=4096)
def _model_knocks(dk: int, stock: int, ub: float, gb: float, box: float, p: Params) -> bool:
    """The expert's models' knock rule for a plain deadwood ``dk`` (its outs taken as
    ``Params.search_outs`` points of effective deadwood)."""
    if stock <= 0:
        return True
    kv = knock_points(dk, stock, ub, gb, p, box) - p.knock_bias
    return kv > play_on_value(dk - p.search_outs, stock, -1, p, box)


def _discard(hand: int, taken: int) -> tuple[int, int]:
    """The continuation's discard from eleven cards: (card, deadwood after), the least deadwood,
    the highest of equals, never the card just taken from the pile (``taken``; -1: none)."""
    d, cards = best_discards(hand)
    if taken >= 0:
        cards &= ~(1 << taken)
    if not cards:
        best = (1 << 20, -1, -1)
        for c, dc in deadwood_after_each(hand):
            if c != taken:
                key = (dc, -VALUES[c], -c)
                if key < best:
                    best = key
        return -best[2], best[0]
    top = -1
    tv = -1
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        cards ^= low
        if VALUES[c] >= tv:
            top, tv = c, VALUES[c]
    return top, d


# For each card: the cards it could meld with (its rank mates, its suit neighbours at one and two).
_PARTNERS: tuple[int, ...] = tuple(RANK_MATES[c] | NEIGHBOURS[c][0] | NEIGHBOURS[c][1] for c in range(52))


def _discard_keep(hand: int, taken: int, keep: float) -> tuple[int, int]:
    """The continuation's discard with ``Params.search_keep``: the least deadwood after the
    discard plus ``keep`` points for each card of the rest the discard could meld with (a lone
    card goes before one of a pair or a run draw), the highest of equals, never ``taken``, a gin
    whenever there is one: (card, deadwood after)."""
    c, d = _discard(hand, taken)
    if d == 0:
        return c, d  # gin is never given up
    partners = _PARTNERS
    pc = (partners[c] & hand).bit_count()
    if pc == 0:
        return c, d  # a lone card of the least deadwood: nothing can beat it
    best = (d + keep * pc, -VALUES[c], -c, c, d)
    y = hand & ~(1 << c)
    if taken >= 0:
        y &= ~(1 << taken)
    while y:
        low = y & -y
        y ^= low
        x = low.bit_length() - 1
        n = (partners[x] & hand).bit_count()
        if n >= pc:
            continue  # as many partners and no less deadwood than c: not better
        dx = min_deadwood(hand ^ low)
        key = (dx + keep * n, -VALUES[x], -x, x, dx)
        if key < best:
            best = key
    return best[3], best[4]


def _score(knocker_hand: int, defender_hand: int, dk: int, rules: Rules) -> int:
    """The knocker's points (negative: the defender's) for a knock with deadwood ``dk`` (0: gin)."""
    if dk == 0:
        return min_deadwood(defender_hand) + rules.gin_bonus
    if rules.layoffs:
        melds = [sum(1 << c for c in m) for m in best_arrangement(knocker_hand).melds]
        dd = best_defense(melds, defender_hand).deadwood
    else:
        dd = min_deadwood(defender_hand)
    if dk < dd:
        return dd - dk
    if dk > dd or rules.undercut_on_tie:
        return -(dk - dd + rules.undercut_bonus)
    return 0


def playout(
    hands: tuple[int, int],
    top: int,
    stock: list[int],
    to_move: int,
    rules: Rules,
    styles: tuple[int, int],
    p: Params,
    first: str = "",
) -> int:
    """Play a hand to its end from seat ``to_move``'s draw (seat 0 is the searching player) and
    return seat 0's points (negative: seat 1's).  ``stock`` is used up from its end.  ``first``
    forces seat ``to_move``'s first draw (``"take"`` or ``"draw"``)."""
    h = [hands[0], hands[1]]
    # Each seat's deadwood as it holds ten cards (-1: not yet known): its discard's deadwood after,
    # carried over so that the take test computes only the deadwood with the pile's top card.
    dw = [-1, -1]
    s = to_move
    ub, gb = float(rules.undercut_bonus), float(rules.gin_bonus)
    limit = rules.knock_limit
    wall = rules.wall
    keep = p.search_keep
    while True:
        hand = h[s]
        taken = -1
        if first:
            take = first == "take"
            first = ""
        elif top >= 0:
            now = dw[s]
            if now < 0:
                now = min_deadwood(hand)
            take = min_deadwood(hand | 1 << top) < now + VALUES[top]
        else:
            take = False
        if take:
            hand |= 1 << top
            taken = top
        else:
            if not stock:
                return 0
            hand |= 1 << stock.pop()
        c, d = _discard_keep(hand, taken, keep) if keep > 0 else _discard(hand, taken)
        hand &= ~(1 << c)
        h[s] = hand
        dw[s] = d
        if d <= limit:
            style = styles[s]
            if d == 0 or style == QUICK:
                knock = True
            elif style == GIN_ONLY:
                knock = False
            else:
                knock = _model_knocks(d, len(stock), ub, gb, rules.box, p)
            if knock:
                pts = _score(hand, h[1 - s], d, rules)
                return pts if s == 0 else -pts
        if len(stock) <= wall:
            return 0
        top = c
        s = 1 - s


def _styles(k: Knowledge, observation: Mapping[str, Any], p: Params) -> tuple[int, int]:
    """The play-outs' knocking styles: the expert's models for itself; for the opponent, the way
    it has been winning this game (public scores), else the same models."""
    won, each = points_a_win(k, observation)
    if won and each >= p.hunter_points:
        return MODEL, GIN_ONLY
    if won >= 2 and each < p.knocker_points:
        return MODEL, QUICK
    return MODEL, MODEL


class _Utility:
    """An outcome in points for the searching player: plus the box bonus, or by the chance of
    winning the game (in points through the local slope of that chance)."""

    def __init__(self, game: tuple[int, int, int] | None, box: float, mult: float) -> None:
        self.box = box
        self.mult = mult
        self.game = game
        self.slope = 0.0
        if game is not None:
            a, b, t = game
            self.w0 = win_chance(a, b, t)
            self.slope = (win_chance(a + MEAN_WIN, b, t) - win_chance(a, b + MEAN_WIN, t)) / (2.0 * MEAN_WIN)
        self._memo: dict[int, float] = {}

    def __call__(self, x: int) -> float:
        got = self._memo.get(x)
        if got is not None:
            return got
        pts = x * self.mult
        if self.game is not None and self.slope > 1e-4:
            a, b, t = self.game
            w = win_chance(a + pts, b, t) if pts >= 0 else win_chance(a, b - pts, t)
            got = (w - self.w0) / self.slope
        else:
            got = pts + (self.box if x > 0 else -self.box if x < 0 else 0.0)
        self._memo[x] = got
        return got


def _mult(k: Knowledge, observation: Mapping[str, Any]) -> float:
    up = observation.get("upcard")
    v = obs_variant(observation)
    if v is not None and v.upcard_sets_limit and k.options.get("spades_double") and up and up.endswith("s"):
        return 2.0
    return 1.0


def _card(a: Action) -> int:
    assert a.card is not None
    return int(a.card)


def close_options(values: Mapping[Action, float], best: Action, p: Params) -> list[Action]:
    """The options worth a search: the expert's choice first, then the others within
    ``search_window`` points of it (knocks within ``search_knock_window``), at most
    ``search_options`` in all; gin is never second-guessed."""
    if best.kind == "gin" or any(a.kind == "gin" for a in values):
        return [best]
    top = values[best]
    rivals = []
    for a, v in values.items():
        if a == best:
            continue
        if a.kind == "knock" or best.kind == "knock":
            if p.search_knock_window > 0 and top - v <= p.search_knock_window:
                rivals.append((v, a))
        elif top - v <= p.search_window:
            rivals.append((v, a))
    rivals.sort(key=lambda t: (-t[0], t[1].id))
    return [best, *[a for _, a in rivals[: max(0, p.search_options - 1)]]]


def search_close_call(
    observation: Mapping[str, Any],
    values: Mapping[Action, float],
    best: Action,
    p: Params,
    seed: int | None,
) -> SearchResult | None:
    """Search the close options of one decision (see the module docstring); ``None`` when there is
    no close call to search, the variant is not a two-player game, or the hand's points count (a box
    or game bonus) and ``Params.search_points`` is off.  Reads nothing but the observation."""
    if p.search <= 0:
        return None
    if not p.search_points and win_target(observation) is None:
        return None  # the hand's points count: not searched (known from the observation alone)
    v = obs_variant(observation)
    if v is None or v.roles:
        return None
    options = close_options(values, best, p)
    if len(options) < 2:
        return None
    kinds = {a.kind for a in options}
    if kinds & {"take", "draw", "pass"} and not kinds <= {"take", "draw"}:
        return None  # the upcard's pass has its own procedure: not searched
    k = Knowledge.from_observation(observation)
    if k.opp_hidden <= 0 or k.stock_size <= k.wall:
        return None
    game = game_of(k, observation)
    if game is None and not p.search_points:
        return None
    if not p.game_aware:
        game = None
    rng = obs_rng(seed, observation, "search")
    worlds = sample_worlds(k, p, rng, p.search)
    rules = Rules.of(k)
    styles = _styles(k, observation, p)
    util = _Utility(game, rules.box * p.box_weight, _mult(k, observation))
    scores: dict[Action, list[float]] = {a: [] for a in options}
    hand = k.hand
    top = k.top if k.top is not None else -1
    for w in worlds:
        for a in options:
            stock = list(w.stock)
            if a.kind in ("take", "draw"):
                x = playout((hand, w.opponent), top, stock, 0, rules, styles, p, first=a.kind)
            else:
                c = _card(a)
                kept = hand & ~(1 << c)
                if a.kind == "knock":
                    x = _score(kept, w.opponent, min_deadwood(kept), rules)
                elif len(stock) <= rules.wall:
                    x = 0
                else:
                    x = playout((kept, w.opponent), c, stock, 1, rules, styles, p)
            scores[a].append(util(x))
    n = len(worlds)
    base = scores[best]
    gains: dict[Action, tuple[float, float]] = {}
    choice = best
    margin = 0.0
    for a in options[1:]:
        diffs = [x - y for x, y in zip(scores[a], base, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        se = (var / n) ** 0.5
        gains[a] = (mean, se)
        if mean >= p.search_gain and mean > p.search_z * se and mean > margin:
            choice, margin = a, mean
    means = {a: sum(xs) / n for a, xs in scores.items()}
    return SearchResult(choice, means, gains, n, n * len(options))


def searched(
    observation: Mapping[str, Any],
    legal: Sequence[Action],
    values: Mapping[Action, float],
    best: Action,
    p: Params,
    seed: int | None,
) -> Action:
    """The action to play: ``best`` unless the search of a close call finds a clearly better one."""
    if len(legal) < 2:
        return best
    got = search_close_call(observation, values, best, p, seed)
    return best if got is None else got.best

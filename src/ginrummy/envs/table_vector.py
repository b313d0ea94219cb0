"""Vectorised table games: many hands of ``classic``, ``oklahoma``, ``hollywood`` or ``three`` stepped
at once on NumPy arrays, with a batched AEC-style API.

:class:`TableVectorEnv` is ``num_envs`` copies of :class:`~ginrummy.envs.aec.GinRummyAEC`
(``episode="hand"``) in one object.  In every game exactly one seat is to act (the AEC
environment's ``agent_selection``); :meth:`TableVectorEnv.step` takes one action a game, for that
seat, and returns the observation of the seat to act next in each game, ``info["agent"]``.  When a
hand ends, every seat's reward comes in ``rewards[game, seat]`` and the game goes on with the next
hand at once (``SAME_STEP`` autoreset: ``info["final_obs"]`` holds the observation of the seat that
ended it).  Sub-environment ``i`` reset with seed ``s + i`` plays exactly what a ``GinRummyAEC``
reset with seed ``s + i`` plays, and then reset without a seed after each hand (the tests check it
step by step).

The hands in play are arrays; the legal knocks and gins come from the batch meld engine; the deals
are shuffled ahead in batches; the end of a hand (the showdown, the score sheet, the next dealer or
roles) is done game by game with the engine's own scoring functions.

>>> env = TableVectorEnv(3, "classic")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, info["agent"].tolist()
((3, 280), [1, 1, 1])
"""

from __future__ import annotations

from collections import deque
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from .. import i18n
from ..actions import NUM_ACTIONS, Action
from ..cards import CARDS
from ..errors import IllegalAction, OptionError
from ..fastmelds import best_discards_batch, min_deadwood_batch
from ..melds import best_arrangement, best_defense, min_deadwood
from ..options import TableOptions, ThreeOptions
from ..scoring import HollywoodSheet, oklahoma_knock_limit, table_hand_points, three_rotation
from ..variants import find_variant, table_variants
from ._match import Illegal, observation_space, vector_template
from .encoding import NUM_PLANES, NUM_SCALARS, OBS_SIZE
from .vector import _bits, batch_decks

__all__ = ["TABLE_VARIANTS", "TableVectorEnv"]

TABLE_VARIANTS: Final = table_variants()
_SEED_BOUND: Final = 2**63
_ALL: Final = (1 << 52) - 1
_AHEAD: Final = 8
_UPCARD, _DRAW, _DISCARD, _OVER = 0, 1, 2, 4  # the observation's phase one-hot index
_TAKE, _PASS, _DRAW_ID = Action("take").id, Action("pass").id, Action("draw").id
_BIG_GIN: Final = Action("gin").id

IntArray = npt.NDArray[np.int64]


class TableVectorEnv:
    """``num_envs`` games of a table variant, one hand an episode (see the module).

    Keyword arguments: the variant's options and ``reward_scale``, ``illegal_action`` and
    ``illegal_reward`` as in :class:`GinRummyAEC` (an illegal action ends that game's hand with
    ``illegal_reward`` for the seat that made it; ``"raise"`` refuses the whole batch, nothing moves).
    """

    def __init__(
        self,
        num_envs: int,
        variant: str = "classic",
        *,
        reward_scale: float = 1.0,
        illegal_action: Illegal = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        template, n = vector_template("table game", variant, TABLE_VARIANTS, num_envs, illegal_action, options)
        opts = template.options
        assert isinstance(opts, (TableOptions, ThreeOptions))
        self.opts = opts
        self.variant = variant
        self.facts = facts = find_variant(variant)
        self.num_envs = n
        self.num_seats = facts.seats
        self.reward_scale = float(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.target = max(facts.target(opts) or 100, 1)
        self.single_observation_space = observation_space()
        self.observation_space = batch_space(self.single_observation_space, n)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = spaces.MultiDiscrete(np.full(n, NUM_ACTIONS))
        s = self.num_seats
        self.deck = np.zeros((n, 52), dtype=np.int64)
        self.ptr = np.zeros(n, dtype=np.int64)  # deck index of the stock's top
        self.hands = np.zeros((n, s), dtype=np.int64)
        self.known = np.zeros((n, s), dtype=np.int64)
        self.pile = np.zeros((n, 52), dtype=np.int64)  # the discard pile, bottom first
        self.plen = np.zeros(n, dtype=np.int64)
        self.pmask = np.zeros(n, dtype=np.int64)
        self.phase = np.full(n, _OVER, dtype=np.int64)
        self.cur = np.zeros(n, dtype=np.int64)
        self.hdealer = np.zeros(n, dtype=np.int64)  # this hand's dealer (three: the box)
        self.hnon = np.ones(n, dtype=np.int64)  # this hand's non-dealer (three: the captain)
        self.passes = np.zeros(n, dtype=np.int64)
        self.must_draw = np.zeros(n, dtype=bool)
        self.taken = np.full(n, -1, dtype=np.int64)
        self.limit = np.zeros(n, dtype=np.int64)
        self.public = np.zeros(n, dtype=np.int64)  # cards shown at the showdown
        self.dealer = np.zeros(n, dtype=np.int64)  # two-player games: who deals the next hand
        self.roles = np.tile(np.arange(3, dtype=np.int64), (n, 1))  # three: (box, captain, sitter) next
        self.totals = np.zeros((n, s), dtype=np.int64)
        self.hand_number = np.zeros(n, dtype=np.int64)
        self.game_over = np.ones(n, dtype=bool)
        self.abandoned = np.zeros(n, dtype=bool)
        self.sheets: list[HollywoodSheet | None] = [None] * n
        self.rngs: list[np.random.Generator] = [np.random.default_rng() for _ in range(n)]
        self._decks: list[deque[list[int]]] = [deque() for _ in range(n)]
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._may_discard_taken = bool(getattr(opts, "discard_drawn_upcard_allowed", False))

    # ------------------------------------------------------------------ the batched API
    def reset(self, *, seed: int | list[int | None] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game in every sub-environment, seeded as ``GinRummyAEC.reset(seed + i)``."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise OptionError(
                    i18n.ngettext("{n} seeds needed, got {got}", "{n} seeds needed, got {got}", n).format(
                        n=n, got=len(seeds)
                    )
                )
        for i, sd in enumerate(seeds):
            self.rngs[i] = np.random.default_rng(sd)
            self._decks[i].clear()
        self._start(np.arange(n), new_game=True)
        return self._observe(), {"agent": self.cur.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action a game, for its seat to act; returns the observations of the seats to
        act next, ``rewards[game, seat]``, ``terminated`` (the hand ended), ``truncated`` and info."""
        n = self.num_envs
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape != (n,):
            raise IllegalAction(
                i18n.ngettext(
                    "{function} needs {n} actions, got {got}", "{function} needs {n} actions, got {got}", n
                ).format(function="step()", n=n, got=a.shape[0])
            )
        rows = np.arange(n)
        inr = (a >= 0) & (a < NUM_ACTIONS)
        legal = np.zeros(n, dtype=bool)
        legal[inr] = self._mask[rows[inr], a[inr]] == 1
        if not legal.all() and self.illegal_action == "raise":
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(
                i18n._("sub-environment {index}: action {action} is not legal (see the action mask)").format(
                    index=bad, action=int(a[bad])
                )
            )
        rewards = np.zeros((n, self.num_seats), dtype=np.float64)
        terminated = ~legal
        actor = self.cur.copy()
        rewards[rows[~legal], actor[~legal]] = self.illegal_reward
        self.abandoned |= ~legal
        ok = legal
        # pass (rule 1.4)
        ps = np.flatnonzero(ok & (a == _PASS))
        self.passes[ps] += 1
        first = ps[self.passes[ps] == 1]
        self.cur[first] = self.hdealer[first]
        second = ps[self.passes[ps] >= 2]
        self.cur[second] = self.hnon[second]
        self.phase[second] = _DRAW
        self.must_draw[second] = True
        # take: the top of the pile
        tk = np.flatnonzero(ok & (a == _TAKE))
        self.plen[tk] -= 1
        card = self.pile[tk, self.plen[tk]]
        bit = np.left_shift(1, card)
        self.pmask[tk] &= ~bit
        self.hands[tk, actor[tk]] |= bit
        self.known[tk, actor[tk]] |= bit
        self.taken[tk] = card
        self.phase[tk] = _DISCARD
        # draw: the top of the stock
        dr = np.flatnonzero(ok & (a == _DRAW_ID))
        card = self.deck[dr, self.ptr[dr]]
        self.ptr[dr] += 1
        self.hands[dr, actor[dr]] |= np.left_shift(1, card)
        self.taken[dr] = -1
        self.must_draw[dr] = False
        self.phase[dr] = _DISCARD
        # cards leaving a hand: discard 3+c, knock 55+c, gin 107+c
        ca = np.flatnonzero(ok & (a >= 3) & (a < 159))
        card = (a[ca] - 3) % 52
        bit = np.left_shift(1, card)
        self.hands[ca, actor[ca]] &= ~bit
        self.known[ca, actor[ca]] &= ~bit
        self.pile[ca, self.plen[ca]] = card
        self.plen[ca] += 1
        self.pmask[ca] |= bit
        ending = ok & (((a >= 55) & (a < 159)) | (a == _BIG_GIN))
        self.taken[np.flatnonzero(ok & (a >= 3))] = -1
        disc = np.flatnonzero(ok & (a >= 3) & (a < 55))
        wall = disc[52 - self.ptr[disc] <= self.opts.wall_cards]  # rule 1.9
        go = disc[52 - self.ptr[disc] > self.opts.wall_cards]
        self.cur[go] = np.where(actor[go] == self.hdealer[go], self.hnon[go], self.hdealer[go])
        self.phase[go] = _DRAW
        for i in wall.tolist():
            self._finish(i, (0,) * self.num_seats, None, void=True)
            terminated[i] = True
        for i in np.flatnonzero(ending).tolist():
            rewards[i] = self._showdown(i, int(actor[i]), int(a[i]))
            terminated[i] = True
        done = np.flatnonzero(terminated)
        infos: dict[str, Any] = {}
        if len(done):
            fo, fm = self._encode(done, actor[done])
            final_o = np.zeros((n, OBS_SIZE), np.float32)
            final_m = np.zeros((n, NUM_ACTIONS), np.int8)
            final_o[done], final_m[done] = fo, fm
            final = {"observation": final_o, "action_mask": final_m}
            infos["final_obs"], infos["_final_obs"] = final, terminated.copy()
            infos["final_agent"] = actor
            self._start(done, new_game=False)
        obs = self._observe()
        infos["agent"] = self.cur.copy()
        return (
            obs,
            rewards * np.where(terminated & legal, self.reward_scale, 1.0)[:, None],
            terminated,
            np.zeros(n, bool),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        return self._mask.astype(bool)

    # ------------------------------------------------------------------ deals and ends
    def _new_games(self, rows: IntArray) -> None:
        self.totals[rows] = 0
        self.hand_number[rows] = 0
        self.game_over[rows] = False
        self.abandoned[rows] = False
        self.dealer[rows] = 0
        self.roles[rows] = np.arange(3)
        if self.facts.three_games:
            for i in rows.tolist():
                self.sheets[i] = HollywoodSheet(self.target)

    def _start(self, rows: IntArray, *, new_game: bool) -> None:
        self._new_games(rows if new_game else rows[self.game_over[rows] | self.abandoned[rows]])
        decks = np.array([self._next_deck(i) for i in rows.tolist()], dtype=np.int64)
        self._deal(rows, decks)

    def _next_deck(self, i: int) -> list[int]:
        if not self._decks[i]:
            games = [j for j in range(self.num_envs) if j == i or len(self._decks[j]) < 2]
            seeds = [int(self.rngs[j].integers(_SEED_BOUND)) for j in games for _ in range(_AHEAD)]
            decks = batch_decks(self.variant, seeds)[:, :52].tolist()
            for k, j in enumerate(games):
                self._decks[j].extend(decks[k * _AHEAD : (k + 1) * _AHEAD])
        return self._decks[i].popleft()

    def _deal(self, rows: IntArray, decks: IntArray) -> None:
        """Rule 1.3 (2.3): ten cards each, one at a time, the non-dealer first; the upcard."""
        self.hand_number[rows] += 1
        self.deck[rows] = decks
        if self.facts.roles:
            dealer, non = self.roles[rows, 0], self.roles[rows, 1]
        else:
            dealer, non = self.dealer[rows], 1 - self.dealer[rows]
        self.hdealer[rows], self.hnon[rows] = dealer, non
        bits = np.left_shift(1, decks)
        self.hands[rows] = 0
        self.hands[rows, non] = np.bitwise_or.reduce(bits[:, 0:20:2], axis=1)
        self.hands[rows, dealer] = np.bitwise_or.reduce(bits[:, 1:20:2], axis=1)
        self.known[rows] = 0
        self.pile[rows, 0] = decks[:, 20]
        self.plen[rows] = 1
        self.pmask[rows] = bits[:, 20]
        self.ptr[rows] = 21
        self.phase[rows] = _UPCARD
        self.cur[rows] = non
        self.passes[rows] = 0
        self.must_draw[rows] = False
        self.taken[rows] = -1
        self.public[rows] = 0
        if self.facts.upcard_sets_limit:
            assert isinstance(self.opts, TableOptions)
            self.limit[rows] = [oklahoma_knock_limit(CARDS[c], self.opts.oklahoma_ace) for c in decks[:, 20].tolist()]
        else:
            self.limit[rows] = self.opts.knock_limit

    def _showdown(self, i: int, knocker: int, action: int) -> npt.NDArray[np.float64]:
        """Rules 1.7-1.8 (engine ``_showdown``): the knocker's arrangement, the defender's best
        defence, the points; then the score sheet.  Each seat's reward."""
        opts = self.opts
        defender = int(self.hnon[i] if knocker == self.hdealer[i] else self.hdealer[i])
        gin = action >= 107
        big = action == _BIG_GIN
        kh, dh = int(self.hands[i, knocker]), int(self.hands[i, defender])
        arr = best_arrangement(kh)
        kmelds, kun = arr.melds, arr.unmatched
        dk = sum(c.value for c in kun)
        defense = best_defense(kmelds, dh, layoffs=opts.layoffs and not gin)
        dd = sum(c.value for c in defense.unmatched)
        _, kp, dp = table_hand_points(
            knocker_deadwood=dk,
            defender_deadwood=dd,
            gin=gin,
            big_gin=big,
            gin_bonus=opts.gin_bonus,
            big_gin_bonus=opts.big_gin_bonus,
            undercut_bonus=opts.undercut_bonus,
            undercut_on_tie=opts.undercut_on_tie,
        )
        mult = 1
        spades = self.facts.upcard_sets_limit and isinstance(opts, TableOptions) and opts.spades_double
        if spades and CARDS[int(self.deck[i, 20])].suit == 3:  # a spade upcard doubles (rule 1b.3)
            mult = 2
        points = [0] * self.num_seats
        points[knocker], points[defender] = kp * mult, dp * mult
        winner = knocker if kp else defender if dp else None
        self.public[i] = kh | dh  # the spread is public
        return self._finish(i, tuple(points), winner, void=False)

    def _finish(self, i: int, points: tuple[int, ...], winner: int | None, *, void: bool) -> npt.NDArray[np.float64]:
        """The score sheet (engine ``_finish``); each seat's hand reward (zero-sum points)."""
        self.phase[i] = _OVER
        scorer = winner if any(points) else None
        hollywood = self.facts.three_games
        if scorer is not None:
            self.totals[i, scorer] += points[scorer]
        if not self.facts.roles:
            assert isinstance(self.opts, TableOptions)
            if hollywood and scorer is not None:
                sheet = self.sheets[i]
                assert sheet is not None
                sheet.enter(scorer, points[scorer])
            nd = self.opts.next_dealer
            if void or scorer is None:
                pass
            elif nd == "winner":
                self.dealer[i] = scorer
            elif nd == "loser":
                self.dealer[i] = 1 - scorer
            else:
                self.dealer[i] = 1 - self.dealer[i]
            if hollywood:
                sheet = self.sheets[i]
                assert sheet is not None
                self.game_over[i] = sheet.over
            else:
                self.game_over[i] = self.totals[i].max() >= self.opts.game_target
        else:
            roles = (int(self.roles[i, 0]), int(self.roles[i, 1]), int(self.roles[i, 2]))
            outcome = "void" if scorer is None else "box" if scorer == roles[0] else "team"
            self.roles[i] = three_rotation(roles, outcome)
            self.game_over[i] = self.totals[i].max() >= self.opts.game_target
        n = self.num_seats
        total = sum(points)
        return np.array([(p - (total - p) / (n - 1)) for p in points], dtype=np.float64)

    # ------------------------------------------------------------------ observations
    def _observe(self) -> dict[str, np.ndarray]:
        obs, mask = self._encode(np.arange(self.num_envs), self.cur)
        self._mask = mask
        return {"observation": obs, "action_mask": mask.copy()}

    def _encode(self, rows: IntArray, seats: IntArray) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """:func:`ginrummy.envs.encoding.encode_state` of seat ``seats[k]`` in game ``rows[k]``."""
        m = len(rows)
        ar = np.arange(m)
        phase = self.phase[rows]
        over = phase == _OVER
        seats = np.asarray(seats)
        own = self.hands[rows, seats]
        held = own
        three = self.facts.roles
        if three:
            sitter = 3 - self.hdealer[rows] - self.hnon[rows]
            held = np.where(seats == sitter, self.hands[rows, self.hnon[rows]], own)
            own = np.where(seats == sitter, 0, own)
        known = np.zeros(m, dtype=np.int64)
        for opp in (self.hdealer[rows], self.hnon[rows]):
            known |= np.where(opp != seats, self.known[rows, opp], 0)
        known &= ~held
        pmask = self.pmask[rows]
        seen = held | pmask | known | np.where(over, self.public[rows], 0)
        unseen = _ALL & ~seen
        plen = self.plen[rows]
        tops = np.where(plen > 0, self.pile[rows, np.maximum(plen - 1, 0)], -1)
        top = np.where(tops >= 0, np.left_shift(1, np.maximum(tops, 0)), 0)
        planes = np.stack([held, top, pmask, known, unseen], axis=1)
        bits = _bits(planes.reshape(-1)).reshape(m, 52 * NUM_PLANES)
        obs = np.empty((m, OBS_SIZE), dtype=np.float32)
        obs[:, : 52 * NUM_PLANES] = bits
        deadwood = min_deadwood_batch(own).astype(np.int64)
        sc = np.zeros((m, NUM_SCALARS), dtype=np.float64)
        sc[ar, phase] = 1.0
        to_act = (~over) & (self.cur[rows] == seats)
        sc[:, 5] = to_act
        sc[:, 6] = (52 - self.ptr[rows]) / 53
        sc[:, 7] = self.limit[rows] / 10
        sc[:, 8] = np.minimum(deadwood / 100, 2.0)
        sc[:, 9] = _bits(own).sum(axis=1) / 11
        sc[:, 10] = self.hdealer[rows] == seats
        if three:
            sc[:, 11] = self.hdealer[rows] == seats
            sc[:, 12] = self.hnon[rows] == seats
            sc[:, 13] = (3 - self.hdealer[rows] - self.hnon[rows]) == seats
        totals = self.totals[rows]
        sc[:, 14] = np.minimum(totals[ar, seats] / self.target, 2.0)
        others = np.where(np.arange(self.num_seats)[None, :] == seats[:, None], np.iinfo(np.int64).min, totals)
        sc[:, 15] = np.minimum(others.max(axis=1) / self.target, 2.0)
        sc[:, 19] = np.minimum(self.hand_number[rows] / 100, 1.0)
        obs[:, 52 * NUM_PLANES :] = sc
        return obs, self._legal(rows, seats, to_act)

    def _legal(self, rows: IntArray, seats: IntArray, to_act: npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
        """Engine ``_compute_legal`` for the seats to act."""
        m = len(rows)
        mask = np.zeros((m, NUM_ACTIONS), dtype=np.int8)
        phase = self.phase[rows]
        up = to_act & (phase == _UPCARD)
        mask[up, _TAKE] = 1
        mask[up, _PASS] = 1
        drw = to_act & (phase == _DRAW)
        mask[drw, _DRAW_ID] = 1
        mask[drw & ~self.must_draw[rows] & (self.plen[rows] > 0), _TAKE] = 1
        dis = np.flatnonzero(to_act & (phase == _DISCARD))
        if not len(dis):
            return mask
        hands = self.hands[rows[dis], seats[dis]]
        taken = self.taken[rows[dis]]
        forbid = np.where((taken >= 0) & (not self._may_discard_taken), np.left_shift(1, np.maximum(taken, 0)), 0)
        mask[dis, 3:55] = _bits(hands & ~forbid)
        best, _ = best_discards_batch(hands)
        limits = self.limit[rows[dis]]
        near = np.flatnonzero(best <= limits)
        for k in near.tolist():
            r = int(dis[k])
            hand = int(hands[k])
            lim = int(limits[k])
            y = hand & ~int(forbid[k])
            while y:
                low = y & -y
                y ^= low
                c = low.bit_length() - 1
                d = min_deadwood(hand ^ low)
                if d == 0:
                    mask[r, 107 + c] = 1
                elif 0 < d <= lim:
                    mask[r, 55 + c] = 1
        if self.opts.big_gin:
            for k in np.flatnonzero(best == 0).tolist():
                if min_deadwood(int(hands[k])) == 0:
                    mask[int(dis[k]), _BIG_GIN] = 1
        return mask

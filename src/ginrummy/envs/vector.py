"""Vectorised solitaires: many games stepped at once on NumPy arrays (Gymnasium's vector API).

:class:`SolitaireVectorEnv` is ``num_envs`` copies of :class:`~ginrummy.envs.gym_env.SolitaireEnv`
(``episode="hand"``) in one object: the hands in play are arrays (card masks, the deck of each
deal, pointers), a step applies every game's action with a few array operations, the legal
actions come from the batch meld engine (:mod:`ginrummy.fastmelds`), and the observations are
encoded for all games at once.  What happens once a hand -- the deal, a hand's end and its score
-- is done game by game with the engine's own functions (:meth:`ginrummy.engine.State.deck_for_seed`,
:func:`ginrummy.scoring.solitaire_points`, :func:`ginrummy.melds.min_deadwood`).  Sub-environment
``i`` reset with seed ``s + i`` plays exactly the deals, observations, masks and rewards of a
``SolitaireEnv`` reset with seed ``s + i`` and then reset without a seed after each hand (the
tests check it step by step).

Episodes end by Gymnasium's ``SAME_STEP`` autoreset: the step that ends a hand returns the first
observation of the next one, and ``infos["final_obs"]`` (a batched observation) with the mask
``infos["_final_obs"]`` holds the observation at the end; ``infos["final_reward"]`` is the
reward again, for convenience.

>>> env = SolitaireVectorEnv(4, "solitaire", scoring="none")
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 280), (4, 213))
>>> actions = [int(m.nonzero()[0][0]) for m in obs["action_mask"]]
>>> obs, rewards, terminated, truncated, info = env.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import i18n
from ..actions import NUM_ACTIONS, Action
from ..cards import JOKER
from ..engine import State
from ..errors import IllegalAction, OptionError
from ..fastmelds import best_discards_batch, min_deadwood_batch
from ..melds import min_deadwood
from ..options import GinSolitaireOptions, SolitaireOptions
from ..scoring import solitaire_points
from ..variants import find_variant
from ._match import Illegal, Reward, _check_choice, observation_space, vector_template
from .encoding import NUM_PLANES, NUM_SCALARS, OBS_SIZE
from .gym_env import GYM_VARIANTS

__all__ = ["SolitaireVectorEnv"]

_SEED_BOUND: Final = 2**63
_JOKER: Final = int(JOKER)
_ALL: Final = (1 << 52) - 1
_BIG_GIN: Final = Action("gin").id  # 159: gin without a discard
_KNOCK_ND: Final = Action("knock").id  # 160: knock without a discard
_EVENTS: Final = ("joker", "knock", "gin", "big-gin")
_AHEAD: Final = 8  # deals shuffled ahead for each game, in one batch
# Phases as the observation's one-hot index (encoding._PHASES): discard 2, opening 3, over 4.
_DISCARD, _OPENING, _OVER = 2, 3, 4

IntArray = npt.NDArray[np.int64]


def _bits(masks: IntArray) -> npt.NDArray[np.uint8]:
    """Each 52-bit mask as a row of 0/1."""
    raw = np.ascontiguousarray(masks, dtype="<i8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, count=52, bitorder="little")


def _stream_words(seeds: list[int], words: int) -> npt.NDArray[np.uint64]:
    """The first ``words`` 64-bit words of each seed's ``ginrummy-shuffle/1`` stream
    (:class:`ginrummy.cards.ShuffleStream`): SHA-256 blocks of the seed and a block counter."""
    blocks = (words + 3) // 4
    out = bytearray()
    sha = hashlib.sha256
    counters = [k.to_bytes(8, "big") for k in range(blocks)]
    for seed in seeds:
        s = seed.to_bytes(32, "big")
        for c in counters:
            out += sha(s + c).digest()
    return np.frombuffer(bytes(out), dtype=">u8").reshape(len(seeds), blocks * 4)[:, :words].astype(np.uint64)


def _fisher_yates(items: npt.NDArray[np.int64], words: npt.NDArray[np.uint64]) -> bool:
    """:meth:`ShuffleStream.shuffle` of each row of ``items`` in place with its stream ``words``
    (one a swap).  False if some word would have been rejected (then the caller falls back to
    the engine's shuffle; the chance is about 3e-18 a word)."""
    m, n = items.shape
    rows = np.arange(m)
    for k, i in enumerate(range(n - 1, 0, -1)):
        span = i + 1
        w = words[:, k]
        rest = 2**64 % span
        if rest and (w >= np.uint64(2**64 - rest)).any():
            return False
        j = (w % np.uint64(span)).astype(np.int64)
        a = items[:, i].copy()
        items[:, i] = items[rows, j]
        items[rows, j] = a
    return True


def batch_decks(variant: str, seeds: list[int]) -> npt.NDArray[np.int64]:
    """:meth:`ginrummy.engine.State.deck_for_seed` of many seeds at once, as card ids (joker 52)
    in rows of 53 (the unused last column of a 52-card deck is -1)."""
    m = len(seeds)
    out = np.full((m, 53), -1, dtype=np.int64)
    if m == 0:
        return out
    joker = find_variant(variant).joker
    if joker == "after_deal":  # rule 4.1: shuffle 52, then the joker into the other 41
        words = _stream_words(seeds, 51 + 41)
        first = np.tile(np.arange(52, dtype=np.int64), (m, 1))
        ok = _fisher_yates(first, words[:, :51])
        rest = np.concatenate([first[:, 11:], np.full((m, 1), _JOKER, dtype=np.int64)], axis=1)
        ok = ok and _fisher_yates(rest, words[:, 51:])
        if ok:
            out[:, :11] = first[:, :11]
            out[:, 11:53] = rest
            return out
    else:
        size = 53 if joker == "in_pack" else 52
        items = np.tile(np.arange(size, dtype=np.int64), (m, 1))
        if _fisher_yates(items, _stream_words(seeds, size - 1)):
            out[:, :size] = items
            return out
    template = State.new(variant)
    for r, seed in enumerate(seeds):  # a rejected word somewhere: the engine's own shuffle
        deck = [int(c) for c in template.deck_for_seed(seed)]
        out[r, : len(deck)] = deck
    return out


class SolitaireVectorEnv(VectorEnv):
    """``num_envs`` solitaire (or gin-solitaire) games, one hand an episode.

    Keyword arguments: the variant's options, and those of :class:`SolitaireEnv` that apply to
    hand episodes: ``reward="points"|"win"``, ``reward_scale``, ``illegal_action="terminate"|"raise"``
    and ``illegal_reward``.  ``illegal_action="raise"`` checks every action before any game moves:
    a refused batch changes nothing.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        num_envs: int,
        variant: str = "solitaire",
        *,
        reward: Reward = "points",
        reward_scale: float = 1.0,
        illegal_action: Illegal = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        _check_choice("reward", reward, ("points", "win"))
        self._template, n = vector_template("solitaire for", variant, GYM_VARIANTS, num_envs, illegal_action, options)
        opts = self._template.options
        assert isinstance(opts, (SolitaireOptions, GinSolitaireOptions))
        self.opts = opts
        self.variant = variant
        self.num_envs = n
        self.reward = reward
        self.reward_scale = float(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.solitaire = find_variant(variant).joker == "in_pack"  # rule 3 (not 4): the joker in the pack
        self.scoring = opts.scoring if isinstance(opts, SolitaireOptions) else "knock"
        self._no_points = self.solitaire and self.scoring == "none"
        self._may_knock_at_all = self.scoring == "knock"  # rule 3.5: no knocking in none/basic
        self.knock_limit = opts.knock_limit
        self.target = max(int(opts.game_target or 100), 1)
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = spaces.MultiDiscrete(np.full(n, NUM_ACTIONS))
        self.render_mode = None
        # The games: the hand in play as arrays.
        self.deck = np.zeros((n, 53), dtype=np.int64)  # the deal, top first
        self.hand = np.zeros(n, dtype=np.int64)
        self.out = np.zeros(n, dtype=np.int64)  # the player's discards (under the joker / out of play)
        self.top = np.full(n, -1, dtype=np.int64)  # the last discard
        self.ptr = np.zeros(n, dtype=np.int64)  # deck index of the next card to draw
        self.jpos = np.zeros(n, dtype=np.int64)  # deck index of the joker
        self.draws = np.zeros(n, dtype=np.int64)
        self.stock_size = np.zeros(n, dtype=np.int64)
        self.phase = np.full(n, _OVER, dtype=np.int64)
        self.opening = np.zeros(n, dtype=bool)  # gin solitaire: the opening discard is next
        self.counted = np.zeros(n, dtype=np.int64)  # cards counted down to the joker (at the end)
        self.totals = np.zeros((n, 2), dtype=np.int64)
        self.hand_number = np.zeros(n, dtype=np.int64)
        self.game_over = np.ones(n, dtype=bool)
        self.abandoned = np.zeros(n, dtype=bool)  # an illegal action ended the hand half-way
        self.rngs: list[np.random.Generator] = [np.random.default_rng() for _ in range(n)]
        self._decks: list[deque[list[int]]] = [deque() for _ in range(n)]  # next deals, shuffled ahead
        self._mask = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self._bonuses: dict[str, Any] = {
            "gin_bonus": opts.gin_bonus,
            "big_gin_bonus": opts.big_gin_bonus,
            "undercut_bonus": opts.undercut_bonus,
            "undercut_on_tie": opts.undercut_on_tie,
        }
        self._points_cache: dict[tuple[int, int, int], tuple[int, int]] = {}  # solitaire_points, memoised

    # ------------------------------------------------------------------ the vector API
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game in every sub-environment; sub-environment ``i`` is seeded with
        ``seed + i`` (or ``seed[i]``), as Gymnasium's vector environments do."""
        n = self.num_envs
        seeds: list[int | None]
        if seed is None:
            seeds = [None] * n
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
        for i, s in enumerate(seeds):
            self.rngs[i] = seeding.np_random(s)[0]
            self._decks[i].clear()
        self._start(np.arange(n), new_game=True)
        return self._observe(), {}

    def step(
        self, actions: Any
    ) -> tuple[
        dict[str, np.ndarray], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        n = self.num_envs
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        if a.shape != (n,):
            raise IllegalAction(
                i18n.ngettext(
                    "{function} needs {n} actions, got {got}", "{function} needs {n} actions, got {got}", n
                ).format(function="step()", n=n, got=a.shape[0])
            )
        rows = np.arange(n)
        in_range = (a >= 0) & (a < NUM_ACTIONS)
        legal = np.zeros(n, dtype=bool)
        legal[in_range] = self._mask[rows[in_range], a[in_range]] == 1
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            if self.illegal_action == "raise":
                raise IllegalAction(
                    i18n._("sub-environment {index}: action {action} is not legal (see the action mask)").format(
                        index=bad, action=int(a[bad])
                    )
                )
        rewards = np.zeros(n, dtype=np.float64)
        terminated = ~legal
        self.abandoned |= ~legal
        ok = legal
        # Cards leaving the hand: discard 3+c, knock 55+c, gin 107+c.
        card_act = ok & (a >= 3) & (a < 159)
        card = np.where(card_act, (a - 3) % 52, 0)
        bit = np.where(card_act, np.left_shift(1, card), 0)
        self.hand &= ~bit
        self.out |= bit
        self.top = np.where(card_act, card, self.top)
        if self.solitaire:
            self.stock_size += card_act  # rule 3.3: to the bottom of the deck
        self.opening &= ~card_act
        # Draws: the opening draw (0) and the card that follows every discard.
        drawing = ok & ((a == 0) | ((a >= 3) & (a < 55)))
        rd = np.flatnonzero(drawing)
        drawn = self.deck[rd, self.ptr[rd]]
        self.ptr[rd] += 1
        self.draws[rd] += 1
        joker = drawn == _JOKER
        self.stock_size[rd[~joker]] -= 1  # the joker goes back on the deck: no change
        self.hand[rd[~joker]] |= np.left_shift(1, drawn[~joker])
        self.phase[rd[~joker]] = _DISCARD
        # Ends: the joker drawn, or the player going out.
        events = np.full(n, -1, dtype=np.int64)
        events[rd[joker]] = 0
        events[ok & (((a >= 55) & (a < 107)) | (a == _KNOCK_ND))] = 1
        events[ok & (((a >= 107) & (a < 159)) | ((a == _BIG_GIN) & (self.phase == _OPENING)))] = 2
        events[ok & (a == _BIG_GIN) & (self.phase == _DISCARD)] = 3
        ending = np.flatnonzero(events >= 0)
        if len(ending):
            rewards[ending] = self._end(ending, events[ending]) * self.reward_scale
            terminated[ending] = True
        rewards[~legal] = self.illegal_reward  # not scaled (as SolitaireEnv)
        final_obs: dict[str, np.ndarray] | None = None
        done = np.flatnonzero(terminated)
        if len(done):
            fo, fm = self._encode(done)
            final_obs = {
                "observation": np.zeros((n, OBS_SIZE), dtype=np.float32),
                "action_mask": np.zeros((n, NUM_ACTIONS), dtype=np.int8),
            }
            final_obs["observation"][done] = fo
            final_obs["action_mask"][done] = fm
            self._start(done, new_game=False)
        obs = self._observe()
        infos: dict[str, Any] = {}
        if final_obs is not None:
            infos["final_obs"] = final_obs
            infos["_final_obs"] = terminated.copy()
            infos["final_reward"] = rewards.copy()
            infos["_final_reward"] = terminated.copy()
        return obs, rewards, terminated, np.zeros(n, dtype=bool), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The current action masks as booleans, ``(num_envs, 213)``."""
        return self._mask.astype(bool)

    # ------------------------------------------------------------------ deals and ends
    def _new_games(self, rows: IntArray) -> None:
        self.totals[rows] = 0
        self.hand_number[rows] = 0
        self.game_over[rows] = False
        self.abandoned[rows] = False

    def _start(self, rows: IntArray, *, new_game: bool) -> None:
        """The next episode of games ``rows`` (``SolitaireEnv.reset``): a new game if asked, after
        a finished game or an abandoned hand; then deal until the player has a decision."""
        self._new_games(rows if new_game else rows[self.game_over[rows] | self.abandoned[rows]])
        pending = rows
        while len(pending):
            decks = np.array([self._next_deck(i) for i in pending.tolist()], dtype=np.int64)
            ok = self._deal(pending, decks)
            pending = pending[~ok]
            self._new_games(pending[self.game_over[pending]])

    def _next_deck(self, i: int) -> list[int]:
        if not self._decks[i]:
            # Shuffle the next deals of this game and of every game running low, in one batch (the
            # seeds are drawn from each game's generator in order, as SolitaireEnv draws them).
            games = [j for j in range(self.num_envs) if j == i or len(self._decks[j]) < 2]
            seeds = [int(self.rngs[j].integers(_SEED_BOUND)) for j in games for _ in range(_AHEAD)]
            decks = batch_decks(self.variant, seeds).tolist()
            for k, j in enumerate(games):
                self._decks[j].extend(decks[k * _AHEAD : (k + 1) * _AHEAD])
        return self._decks[i].popleft()

    def _deal(self, rows: IntArray, decks: IntArray) -> npt.NDArray[np.bool_]:
        """Deal ``decks`` (top first) in games ``rows`` (rules 3.1-3.3, 4.1-4.2); False where the
        hand ended at once (the joker dealt or drawn first), which is no episode of its own."""
        m = len(rows)
        self.hand_number[rows] += 1
        self.deck[rows] = decks
        self.out[rows] = 0
        self.top[rows] = -1
        self.draws[rows] = 0
        self.counted[rows] = 0
        self.jpos[rows] = (decks == _JOKER).argmax(axis=1)
        bits = np.where(decks == _JOKER, 0, np.left_shift(1, decks))
        ok = np.ones(m, dtype=bool)
        if not self.solitaire:
            self.hand[rows] = np.bitwise_or.reduce(bits[:, :11], axis=1)
            self.ptr[rows] = 11
            self.stock_size[rows] = 42
            self.phase[rows] = _DISCARD
            self.opening[rows] = True
            return ok
        opts = self.opts
        assert isinstance(opts, SolitaireOptions)
        self.stock_size[rows] = 43
        self.hand[rows] = np.bitwise_or.reduce(bits[:, :10], axis=1)  # (without a dealt joker)
        self.opening[rows] = False
        dealt_joker = (decks[:, :10] == _JOKER).any(axis=1)  # rule 3.2
        ok &= ~dealt_joker
        lost = rows[dealt_joker]
        self.phase[lost] = _OVER
        if opts.joker_in_deal == "lose" and len(lost):
            self._end(lost, np.zeros(len(lost), dtype=np.int64))  # redeal: no score, the game goes on
        normal = rows[~dealt_joker]
        self.ptr[normal] = 10
        if opts.end_before_first_draw:
            self.phase[normal] = _OPENING
            return ok
        first = decks[~dealt_joker, 10]  # the first draw
        self.ptr[normal] = 11
        self.draws[normal] = 1
        joker = first == _JOKER
        ok[np.flatnonzero(~dealt_joker)[joker]] = False
        if joker.any():
            self._end(normal[joker], np.zeros(int(joker.sum()), dtype=np.int64))
        good = normal[~joker]
        self.hand[good] |= np.left_shift(1, first[~joker])
        self.stock_size[good] = 42
        self.phase[good] = _DISCARD
        return ok

    def _points(self, event: int, counted: int, deadwood: int) -> tuple[int, int]:
        key = (event, counted, deadwood)
        got = self._points_cache.get(key)
        if got is None:
            _, p, j = solitaire_points(
                _EVENTS[event], counted=counted, deadwood=deadwood, scoring=self.scoring, **self._bonuses
            )
            got = self._points_cache[key] = (p, j)
        return got

    def _end(self, rows: IntArray, events: IntArray) -> npt.NDArray[np.float64]:
        """End the hands of games ``rows`` by ``events`` (codes of :data:`_EVENTS`; rules
        3.5-3.8, 4.3-4.6), score them (engine ``_solo_end`` and ``_finish``); the player's rewards."""
        deadwood = min_deadwood_batch(self.hand[rows]).astype(np.int64)
        counted = np.zeros(len(rows), dtype=np.int64)
        going_out = events != 0
        if going_out.any():
            g = rows[going_out]
            ptr, jpos = self.ptr[g], self.jpos[g]
            counted[going_out] = jpos - ptr + (1 if self.opts.count_includes_joker else 0)
            cols = np.arange(53)
            above = (cols >= ptr[:, None]) & (cols < jpos[:, None])
            self.counted[g] = np.bitwise_or.reduce(np.where(above, np.left_shift(1, self.deck[g]), 0), axis=1)
        pj = np.array(
            [
                self._points(e, c, d)
                for e, c, d in zip(events.tolist(), counted.tolist(), deadwood.tolist(), strict=True)
            ],
            dtype=np.int64,
        ).reshape(-1, 2)
        p, j = pj[:, 0], pj[:, 1]
        # The winner (-1: nobody): scoring none, gin wins and the joker loses; else whoever scored.
        none = self.scoring == "none"
        winner = np.where(going_out, 0, 1) if none else np.where(p > 0, 0, np.where(j > 0, 1, -1))
        self.phase[rows] = _OVER
        scored = (winner >= 0) & ((p > 0) | (j > 0))
        self.totals[rows[scored], winner[scored]] += np.where(winner[scored] == 0, p[scored], j[scored])
        if self._no_points:
            self.game_over[rows] = True  # one hand decides the game (rule 3.5)
        else:
            self.game_over[rows] = self.totals[rows].max(axis=1) >= self.opts.game_target
        # SolitaireEnv's hand reward (Match._hand_rewards).
        if self.reward == "win" or self._no_points:
            scorer = np.where(scored | self._no_points, winner, -1)
            return np.where(scorer == 0, 1.0, np.where(scorer == 1, -1.0, 0.0))
        return (p - j).astype(np.float64)

    # ------------------------------------------------------------------ observations
    def _observe(self) -> dict[str, np.ndarray]:
        """Every game's observation; the action masks are kept for the next step."""
        obs, mask = self._encode(np.arange(self.num_envs))
        self._mask = mask
        return {"observation": obs, "action_mask": mask.copy()}

    def _encode(self, rows: IntArray) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """:func:`ginrummy.envs.encoding.encode_state` of the player's seat in games ``rows``."""
        m = len(rows)
        hand, out, phase = self.hand[rows], self.out[rows], self.phase[rows]
        over = phase == _OVER
        unseen = _ALL & ~hand & ~out & ~np.where(over, self.counted[rows], 0)
        tops = self.top[rows]
        top = np.where(tops >= 0, np.left_shift(1, np.maximum(tops, 0)), 0)
        planes = np.stack([hand, top, out, np.zeros(m, dtype=np.int64), unseen], axis=1)  # encoding.PLANES
        bits = _bits(planes.reshape(-1)).reshape(m, 52 * NUM_PLANES)
        obs = np.empty((m, OBS_SIZE), dtype=np.float32)
        obs[:, : 52 * NUM_PLANES] = bits
        held = bits[:, :52].sum(axis=1, dtype=np.int64)
        above = np.where(over, 0, bits[:, 208:260].sum(axis=1, dtype=np.int64))
        deadwood = min_deadwood_batch(hand).astype(np.int64)
        sc = np.zeros((m, NUM_SCALARS), dtype=np.float64)
        sc[np.arange(m), phase] = 1.0  # phase one-hot
        sc[:, 5] = ~over
        sc[:, 6] = self.stock_size[rows] / 53
        sc[:, 7] = self.knock_limit / 10
        sc[:, 8] = np.minimum(deadwood / 100, 2.0)
        sc[:, 9] = held / 11
        totals = self.totals[rows]
        sc[:, 14] = np.minimum(totals[:, 0] / self.target, 2.0)
        sc[:, 15] = np.minimum(totals[:, 1] / self.target, 2.0)
        sc[:, 16] = above / 43
        sc[:, 17] = np.where(over, 0.0, 1 / (above + 1))
        sc[:, 18] = np.minimum(self.draws[rows] / 43, 1.0)
        sc[:, 19] = np.minimum(self.hand_number[rows] / 100, 1.0)
        obs[:, 52 * NUM_PLANES :] = sc
        return obs, self._legal(rows, bits[:, :52])

    def _legal(self, rows: IntArray, held_bits: npt.NDArray[np.uint8]) -> npt.NDArray[np.int8]:
        """The action masks of games ``rows`` (engine ``_compute_legal``): discards of the cards
        held; knocks and gins where a discard leaves little enough deadwood; big gin; the
        opening's choices."""
        m = len(rows)
        mask = np.zeros((m, NUM_ACTIONS), dtype=np.int8)
        phase = self.phase[rows]
        disc = phase == _DISCARD
        mask[disc, 3:55] = held_bits[disc]
        may_end = disc.copy()
        if isinstance(self.opts, GinSolitaireOptions) and not self.opts.end_after_opening_discard:
            may_end &= ~self.opening[rows]
        ends = np.flatnonzero(may_end)
        if len(ends):
            best, _ = best_discards_batch(self.hand[rows[ends]])
            near = best <= self.knock_limit
            big_gin = self.opts.big_gin
            for r, b in zip(ends[near].tolist(), best[near].tolist(), strict=True):
                i = int(rows[r])
                hand = int(self.hand[i])
                y = hand
                while y:
                    low = y & -y
                    y ^= low
                    c = low.bit_length() - 1
                    d = min_deadwood(hand ^ low)
                    if d == 0:
                        mask[r, 107 + c] = 1
                    elif self._may_knock_at_all and d <= self.knock_limit:
                        mask[r, 55 + c] = 1
                if b == 0 and big_gin and not self.opening[i] and min_deadwood(hand) == 0:
                    mask[r, _BIG_GIN] = 1
        for r in np.flatnonzero(phase == _OPENING).tolist():
            mask[r, 0] = 1  # draw
            d = min_deadwood(int(self.hand[rows[r]]))
            if d == 0:
                mask[r, _BIG_GIN] = 1
            elif self._may_knock_at_all and d <= self.knock_limit:
                mask[r, _KNOCK_ND] = 1
        return mask

"""What the PettingZoo and Gymnasium environments share: a game driven hand by hand from seeded
deals, episodes of a hand or of a game, rewards, and the text rendering."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS
from ..engine import State
from ..errors import GinRummyError, OptionError
from ..i18n import _
from ..variants import find_variant
from .encoding import OBS_SIZE, observation_bounds

__all__ = ["ENV_KWARGS", "Match", "check_render_mode", "observation_space", "render_text"]

Episode = Literal["hand", "game"]
Reward = Literal["points", "win"]
Illegal = Literal["terminate", "raise"]

ENV_KWARGS: Final = ("episode", "reward", "reward_scale", "illegal_action", "illegal_reward", "render_mode")
"""Keyword arguments of the environments themselves; every other keyword is an option of the variant."""

_SEED_BOUND: Final = 2**63


def _check_choice(name: str, value: object, choices: Sequence[str]) -> None:
    if value not in choices:
        raise OptionError(
            _("{name} must be one of {choices}, got {value}").format(
                name=name, choices=", ".join(map(repr, choices)), value=repr(value)
            )
        )


def vector_template(
    what: str, variant: str, allowed: Sequence[str], num_envs: int, illegal_action: str, options: dict[str, Any]
) -> tuple[State, int]:
    """The checks both vector environments make before building anything: the variant is one of
    ``allowed``, ``num_envs`` at least 1, ``illegal_action`` known and the options valid (all
    :class:`OptionError`).  Returns a template game (its options validated) and ``num_envs``."""
    if variant not in allowed:
        message = (
            _("no vectorised table game {variant}: choose one of {variants}")
            if what == "table game"
            else _("no vectorised solitaire for {variant}: choose one of {variants}")
        )
        raise OptionError(message.format(variant=repr(variant), variants=", ".join(allowed)))
    if int(num_envs) < 1:
        raise OptionError(_("{name} must be at least 1, got {value}").format(name="num_envs", value=repr(num_envs)))
    _check_choice("illegal_action", illegal_action, ("terminate", "raise"))
    return State.new(variant, options), int(num_envs)


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise OptionError(
            _("{name} must be one of {choices}, got {value}").format(
                name="render_mode", choices=", ".join(modes), value=repr(render_mode)
            )
        )


def observation_space() -> spaces.Dict:
    """The space of one seat's encoded observation (see :mod:`ginrummy.envs.encoding`)."""
    low, high = observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


class Match:
    """A :class:`State` played episode by episode.

    ``episode="hand"``: each episode is the next hand of a running game (a new game starts when the
    last one is over, when a hand was abandoned, and on every seeded reset).  ``episode="game"``:
    each episode is a new game to its target; hands are dealt automatically in between.

    Deal seeds come from a numpy Generator: a reset with a seed makes every deal that follows
    reproducible.  Hands that end at the deal with no decision (solitaire's joker dealt in the ten)
    are dealt past: with ``joker_in_deal="redeal"`` that is the rule; with ``"lose"`` the lost
    hand counts in the game's score (``episode="game"``) but is no episode of its own
    (``episode="hand"``).
    """

    def __init__(
        self,
        variant: str,
        options: dict[str, Any],
        *,
        episode: Episode = "hand",
        reward: Reward = "points",
        reward_scale: float = 1.0,
        illegal_action: Illegal = "terminate",
        illegal_reward: float = -1.0,
    ) -> None:
        _check_choice("episode", episode, ("hand", "game"))
        _check_choice("reward", reward, ("points", "win"))
        _check_choice("illegal_action", illegal_action, ("terminate", "raise"))
        self.variant = variant
        self.options = dict(options)
        self.state = State.new(variant, self.options, undo=False)  # validates the options (OptionError)
        self.num_seats = find_variant(variant).seats
        self.episode: Episode = episode
        self.reward: Reward = reward
        self.reward_scale = float(reward_scale)
        self.illegal_action: Illegal = illegal_action
        self.illegal_reward = float(illegal_reward)
        # Solitaire without scoring has no points: a hand is won or lost (rule 3.5).
        self._no_points = getattr(self.state.options, "scoring", "") == "none"  # only solitaire has it
        self.rng = np.random.default_rng()
        self.deal_seeds: list[int] = []  # the seeds of the deals of this episode, in order
        self._potential = [0.0] * self.num_seats

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, *, new_game: bool = False) -> None:
        """Start the next episode: deal until some seat has a decision to make.  A seed (or
        ``new_game``) starts a new game; a seed also reseeds the generator of the deals."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
            new_game = True
        st = self.state
        # A hand abandoned half-way (an illegal action ended the episode) cannot go on: new game.
        if new_game or self.episode == "game" or st.is_terminal or not st.is_hand_over:
            self.state = State.new(self.variant, self.options, undo=False)  # an environment never undoes
        self.deal_seeds = []
        self._potential = self._scores() if self.episode == "game" else [0.0] * self.num_seats
        self._advance()
        if self.state.is_terminal:  # a whole game decided by deals alone: play the next one
            self.reset()

    def _advance(self) -> None:
        """Deal while nobody is to act: between the hands of a game episode, and past deals that
        end the hand at once."""
        st = self.state
        while st.current_player is None and not st.is_terminal:
            seed = int(self.rng.integers(_SEED_BOUND))
            self.deal_seeds.append(seed)
            st.deal(seed=seed)

    def step(self, action_id: int) -> tuple[list[float], bool, dict[str, Any]]:
        """Apply the action of the seat to act; return each seat's reward, whether the episode is
        over, and information (``hand_results`` of hands that ended; ``illegal_action``)."""
        st = self.state
        seat = st.current_player
        assert seat is not None, "nobody is to act: the episode is over (reset it)"
        info: dict[str, Any] = {}
        hands_before = len(st.results)
        try:
            st.apply(int(action_id))
        except (GinRummyError, TypeError, ValueError) as exc:  # an illegal action or a bad id
            if self.illegal_action == "raise":
                raise
            rewards = [0.0] * self.num_seats
            rewards[seat] = self.illegal_reward
            return rewards, True, {"illegal_action": str(exc)}
        if not st.is_hand_over:
            return [0.0] * self.num_seats, False, info
        if self.episode == "hand":
            res = st.hand_result
            assert res is not None
            info["hand_results"] = [res.to_json()]
            return self._hand_rewards(), True, info
        self._advance()
        info["hand_results"] = [r.to_json() for r in st.results[hands_before:]]
        scores = self._scores()
        rewards = [(a - b) * self.reward_scale for a, b in zip(scores, self._potential, strict=True)]
        self._potential = scores
        if st.is_terminal:
            info["final_totals"] = st.final_totals()
            info["winner"] = st.winner
        return rewards, st.is_terminal, info

    # ------------------------------------------------------------------ rewards
    def _zero_sum(self, points: Sequence[float]) -> list[float]:
        n = self.num_seats
        total = sum(points)
        return [p - (total - p) / (n - 1) for p in points]

    def _win(self, winner: int | None) -> list[float]:
        out = [0.0] * self.num_seats
        if winner is not None:
            out = [-1.0 / (self.num_seats - 1)] * self.num_seats
            out[winner] = 1.0
        return out

    def _hand_rewards(self) -> list[float]:
        res = self.state.hand_result
        assert res is not None
        if self.reward == "win" or self._no_points:
            scorer = res.winner if (any(res.points) or self._no_points) else None
            raw = self._win(scorer)
        else:
            raw = self._zero_sum([float(p) for p in res.points])
        return [r * self.reward_scale for r in raw]

    def _scores(self) -> list[float]:
        """The potential whose changes are a game episode's rewards."""
        st = self.state
        if self.reward == "win" or self._no_points:
            return self._win(st.winner) if st.is_terminal else [0.0] * self.num_seats
        totals = st.final_totals() if st.is_terminal else st.totals
        return self._zero_sum([float(t) for t in totals])


def render_text(state: State, names: Sequence[str]) -> str:
    """A spectator's view of the table, put together from every seat's observation."""
    obs = [state.observation(i) for i in range(state.num_seats)]
    o = obs[0]
    solo = find_variant(state.variant).solo
    lines = [f"{state.variant}  hand {o['hand_number']}  phase {o['phase']}"]
    cur = o["current_player"]
    totals = "  ".join(f"{names[i]} ({o['players'][i]}) {t}" for i, t in enumerate(o["totals"]))
    lines.append(f"totals: {totals}" + (f"   to act: {names[cur]}" if cur is not None else ""))
    if o["hand_number"]:
        if solo:
            lines.append(
                f"deck {o.get('deck_size', 0)}  knock limit {o.get('knock_limit')}  "
                f"discards: {' '.join(o.get('discards') or []) or '-'}"
            )
        else:
            pile = o.get("discard_pile") or []
            lines.append(
                f"stock {o.get('stock_size', 0)}  knock limit {o.get('knock_limit')}  upcard {o.get('upcard')}  "
                f"discard pile: {' '.join(pile) or '-'}"
            )
        roles = o.get("roles")
        for i, ob in enumerate(obs):
            if solo and i > 0:
                break
            if roles:
                tag = " (box)" if roles["box"] == i else " (captain)" if roles["captain"] == i else " (sitter)"
            else:
                tag = " (dealer)" if ob.get("dealer") == i else ""
            hand = " ".join(ob.get("hand") or []) or "-"
            melds = " ".join("".join(m) for m in ob.get("melds") or [])
            dw = ob.get("deadwood")
            lines.append(
                f"{'*' if cur == i else ' '} {names[i]}{tag}: {hand}"
                + (f"   melds {melds}" if melds else "")
                + (f"   deadwood {dw}" if dw is not None else "")
            )
        history = o.get("history") or []
        if history:
            last = history[-1]
            who = last["seat"]
            lines.append(f"last: {names[who] if who is not None else '-'} {last['action']}")
        result = o.get("result")
        if result is not None:
            lines.extend(result.get("explanation") or [result["result"]])
    if o.get("game_over"):
        lines.append(f"game over: final totals {o.get('final_totals')}, winner {o.get('winner')}")
    return "\n".join(lines) + "\n"

"""PettingZoo AEC environment for the table games: ``classic``, ``oklahoma``, ``hollywood`` and
``three``.

>>> env = GinRummyAEC("classic")
>>> env.reset(seed=1)
>>> env.agents, env.agent_selection
(['player_0', 'player_1'], 'player_1')
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), obs["action_mask"].nonzero()[0].tolist()
(['action_mask', 'observation'], [1, 2])
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..actions import NUM_ACTIONS, Action
from ..errors import OptionError
from ..i18n import _
from ..observe import Observation
from ..variants import solo_variants, table_variants
from ._match import Episode, Illegal, Match, Reward, check_render_mode, observation_space, render_text
from .encoding import encode_state

__all__ = ["AEC_VARIANTS", "GinRummyAEC"]

AEC_VARIANTS: Final = table_variants()


class GinRummyAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # pettingzoo is untyped
    """Agents ``player_0``, ``player_1`` (and ``player_2`` in ``three``) are the seats.

    Observations are ``{"observation": float32[OBS_SIZE], "action_mask": int8[213]}`` encoded from
    the seat's :meth:`ginrummy.engine.State.observation_masks` (see :mod:`ginrummy.envs.encoding`);
    actions are the integer ids of :class:`ginrummy.actions.Action`.  In ``three`` the sitter of a hand is never
    selected while the hand runs; at the end of an episode every agent is terminated and gets its
    reward.  Every keyword argument other than the environment's own is an option of the variant.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["ansi", "human"],
        "render_fps": 1,
        "name": "ginrummy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        *,
        episode: Episode = "hand",
        reward: Reward = "points",
        reward_scale: float = 1.0,
        illegal_action: Illegal = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if variant not in AEC_VARIANTS:
            message = (
                _(
                    "no PettingZoo environment for {variant}: choose one of {variants}; the solitaires are Gymnasium "
                    "environments: {function}"
                )
                if variant in solo_variants()
                else _("no PettingZoo environment for {variant}: choose one of {variants}")
            )
            raise OptionError(
                message.format(variant=repr(variant), variants=", ".join(AEC_VARIANTS), function="make_gym()")
            )
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.match = Match(
            variant,
            options,
            episode=episode,
            reward=reward,
            reward_scale=reward_scale,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
        )
        self.variant = variant
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"ginrummy_{variant}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.match.num_seats)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"deal_seeds": list(self.match.deal_seeds)} for a in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        seat = self.match.state.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return encode_state(self.match.state, self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(
                _("{agent} is to act: {function} needs an action id, not None").format(agent=agent, function="step()")
            )
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        rewards, over, info = self.match.step(int(action))
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
        if info:
            # Each agent's info holds what happened since it last acted (hands that ended...).
            for a in self.agents:
                old = self.infos[a]
                new = {**old, **info}
                if "hand_results" in old and "hand_results" in info:
                    new["hand_results"] = old["hand_results"] + info["hand_results"]
                self.infos[a] = new
        if over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ extras
    def raw_observation(self, agent: str) -> Observation:
        """The seat's observation as the engine gives it (the JSON-ready dict agents use)."""
        return self.match.state.observation(self._seat[agent])

    def legal_actions(self, agent: str) -> list[Action]:
        """The legal actions of ``agent`` (empty unless it is to act)."""
        seat = self._seat[agent]
        st = self.match.state
        return st.legal_actions() if st.current_player == seat else []

    def render(self) -> str | None:
        text = render_text(self.match.state, self.possible_agents)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass

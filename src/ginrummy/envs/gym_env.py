"""Gymnasium environment for the solitaires: ``solitaire`` and ``gin-solitaire`` (one player v. the
Joker, who never acts).

>>> env = SolitaireEnv("solitaire", scoring="none")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].dtype, int(obs["action_mask"].sum())
(dtype('float32'), 11)
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..actions import NUM_ACTIONS, Action
from ..errors import OptionError
from ..i18n import _
from ..observe import Observation
from ..variants import solo_variants, table_variants
from ._match import Episode, Illegal, Match, Reward, check_render_mode, observation_space, render_text
from .encoding import encode_state

__all__ = ["GYM_VARIANTS", "SolitaireEnv"]

GYM_VARIANTS: Final = solo_variants()


class SolitaireEnv(gym.Env[dict[str, Any], np.int64]):
    """The player (seat 0) against the Joker.

    Observations are ``{"observation": float32[OBS_SIZE], "action_mask": int8[213]}`` encoded from
    the player's :meth:`ginrummy.engine.State.observation_masks`; actions are
    :class:`ginrummy.actions.Action` ids.
    The reward is the player's points minus the Joker's (``reward="points"``; with
    ``scoring="none"`` in ``solitaire``, +1 for a win and -1 for a loss) or +1/-1 for the hand's
    (game's) winner (``reward="win"``).  An illegal action ends the episode with
    ``illegal_reward`` (``illegal_action="terminate"``, the default) or raises
    :class:`ginrummy.errors.IllegalAction` (``"raise"``).  :meth:`action_masks` serves libraries
    that ask for the mask separately (e.g. sb3-contrib's MaskablePPO).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        variant: str = "solitaire",
        *,
        episode: Episode = "hand",
        reward: Reward = "points",
        reward_scale: float = 1.0,
        illegal_action: Illegal = "terminate",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if variant not in GYM_VARIANTS:
            message = (
                _(
                    "no Gymnasium environment for {variant}: choose one of {variants}; the table games are PettingZoo "
                    "environments: {function}"
                )
                if variant in table_variants()
                else _("no Gymnasium environment for {variant}: choose one of {variants}")
            )
            raise OptionError(
                message.format(variant=repr(variant), variants=", ".join(GYM_VARIANTS), function="make_aec()")
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
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        # The deals come from the environment's own generator, seeded here (Gymnasium's rule).
        self.match.rng = self.np_random
        self.match.reset(new_game=seed is not None)
        self._over = False
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, {"deal_seeds": list(self.match.deal_seeds)}

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._over:
            raise gym.error.ResetNeeded(_("the episode is over: call {function}").format(function="reset()"))
        seeds_before = len(self.match.deal_seeds)
        rewards, over, info = self.match.step(int(action))
        if len(self.match.deal_seeds) > seeds_before:
            info["deal_seeds"] = self.match.deal_seeds[seeds_before:]
        self._over = over
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, rewards[0], over, False, info

    def _obs(self) -> dict[str, np.ndarray]:
        enc = encode_state(self.match.state, 0)
        self._mask = enc["action_mask"]
        return enc

    # ------------------------------------------------------------------ extras
    def action_masks(self) -> np.ndarray:
        """The current action mask as booleans."""
        return self._mask.astype(bool)

    def raw_observation(self) -> Observation:
        """The player's observation as the engine gives it (the JSON-ready dict agents use)."""
        return self.match.state.observation(0)

    def legal_actions(self) -> list[Action]:
        st = self.match.state
        return st.legal_actions() if st.current_player == 0 else []

    def render(self) -> str | None:
        text = render_text(self.match.state, ["player", "joker"])
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

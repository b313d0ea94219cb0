"""Reinforcement-learning environments (optional extra ``ginrummy[rl]``: numpy, gymnasium, pettingzoo).

* :func:`make_aec` -- a PettingZoo AEC environment for ``classic``, ``oklahoma``, ``hollywood``
  and ``three``;
* :func:`make_gym` -- a Gymnasium environment for ``solitaire`` and ``gin-solitaire``, also
  registered as ``ginrummy/Solitaire-v0`` and ``ginrummy/GinSolitaire-v0`` when this package is
  imported (or use ``gymnasium.make("ginrummy.envs:ginrummy/Solitaire-v0")``: Gymnasium 1.x has no
  entry-point plugins, so an id needs its module in a fresh interpreter);
* :class:`ginrummy.envs.vector.SolitaireVectorEnv` -- many solitaire games stepped at once on
  NumPy arrays (Gymnasium's vector API), also through
  ``gymnasium.make_vec(id, num_envs, vectorization_mode="vector_entry_point")``;
* :class:`ginrummy.envs.table_vector.TableVectorEnv` -- many table games stepped at once on NumPy
  arrays, with a batched AEC-style API.

Keyword arguments are the variant's options (rule book section 5; a bad one raises
:class:`ginrummy.errors.OptionError`) plus the environment's own: ``episode="hand"|"game"``,
``reward="points"|"win"``, ``reward_scale``, ``illegal_action="terminate"|"raise"``,
``illegal_reward`` and ``render_mode="ansi"|"human"``.

>>> from ginrummy.envs import make_aec, make_gym
>>> env = make_aec("three")
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
>>> make_gym("solitaire", scoring="bogus")
Traceback (most recent call last):
...
ginrummy.errors.OptionError: option scoring of solitaire must be one of knock, basic, none, got 'bogus'

``import ginrummy`` never needs these packages; importing this package without them raises an
ImportError that says what to install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import i18n
from ..variants import VARIANTS

try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401
except ImportError as _exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        i18n._("{module} needs numpy, gymnasium and pettingzoo ({error}); install them with: {command}").format(
            module="ginrummy.envs", error=_exc, command="pip install 'ginrummy[rl]'"
        )
    ) from _exc

if TYPE_CHECKING:
    from .aec import GinRummyAEC
    from .gym_env import SolitaireEnv

__all__ = ["GYM_IDS", "GinRummyAEC", "SolitaireEnv", "make_aec", "make_gym"]

GYM_IDS: dict[str, str] = {
    "ginrummy/" + "".join(part.capitalize() for part in v.name.split("-")) + "-v0": v.name for v in VARIANTS if v.solo
}
"""The registered Gymnasium ids and their variants."""


def make_aec(variant: str = "classic", **options: Any) -> GinRummyAEC:
    """A PettingZoo AEC environment of a table game (``classic``, ``oklahoma``, ``hollywood``, ``three``)."""
    try:
        from .aec import GinRummyAEC
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            i18n._("{function} needs pettingzoo ({error}); install it with: {command}").format(
                function="make_aec", error=exc, command="pip install 'ginrummy[rl]'"
            )
        ) from exc
    return GinRummyAEC(variant, **options)


def make_gym(variant: str = "solitaire", **options: Any) -> SolitaireEnv:
    """A Gymnasium environment of a solitaire (``solitaire``, ``gin-solitaire``)."""
    from .gym_env import SolitaireEnv

    return SolitaireEnv(variant, **options)


def __getattr__(name: str) -> Any:
    if name == "GinRummyAEC":
        from .aec import GinRummyAEC

        return GinRummyAEC
    if name == "SolitaireEnv":
        from .gym_env import SolitaireEnv

        return SolitaireEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register() -> None:
    registered = _gymnasium.envs.registration.registry
    for env_id, variant in GYM_IDS.items():
        if env_id not in registered:
            _gymnasium.register(
                id=env_id,
                entry_point="ginrummy.envs.gym_env:SolitaireEnv",
                vector_entry_point="ginrummy.envs.vector:SolitaireVectorEnv",
                kwargs={"variant": variant},
            )


_register()

"""The agent protocol: an observation and the legal actions in, an action out.

Agents see only :meth:`ginrummy.engine.State.observation` (what their seat may know).  The one
exception is the solitaire ``clairvoyant`` bound, which is given the deal itself and is used only
in analysis.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..actions import Action
from ..errors import GinRummyError
from ..observe import Observation
from .reasons import Value

__all__ = ["Agent", "Decision", "available_agents", "make_agent", "register"]


@dataclass(frozen=True)
class Decision:
    """An agent's choice, with an optional sentence of why and its estimate of each option.

    ``explanation`` talks about the agent's own hidden cards ("it keeps 7h-8h-9h"): it is private
    to the agent's seat.  It is data, not words (:mod:`ginrummy.agents.reasons`: a catalog message
    and its values; text is shown as it is), worded by :func:`ginrummy.words.reason_text` for each
    viewer in the viewer's language.  Front ends never print it themselves; the session's move log
    (:meth:`ginrummy.session.Session.move_text`) shows it only to a seat that may see that hand,
    or once the hand is over."""

    action: Action
    explanation: Value | None = None  # private to the seat until the hand is over
    values: dict[str, float] = field(default_factory=dict)  # action string -> estimated value


class Agent(ABC):
    """Base class of computer players.  Subclasses implement :meth:`decide`."""

    name: str = "agent"

    def __init__(self, variant: str, seed: int | None = None) -> None:
        self.variant = variant
        self.seed = seed

    @abstractmethod
    def decide(self, observation: Observation, legal: Sequence[Action]) -> Decision:
        """Choose one of ``legal`` from what ``observation`` shows."""

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return self.decide(observation, legal).action

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} for {self.variant}>"


_REGISTRY: dict[str, tuple[Callable[..., Agent], tuple[str, ...]]] = {}


def register(name: str, variants: Sequence[str]) -> Callable[[Callable[..., Agent]], Callable[..., Agent]]:
    """Class decorator: make an agent available to :func:`make_agent` for ``variants``."""

    def deco(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        _REGISTRY[name] = (factory, tuple(variants))
        return factory

    return deco


def available_agents(variant: str | None = None) -> list[str]:
    _load_all()
    return sorted(n for n, (_, vs) in _REGISTRY.items() if variant is None or variant in vs)


def make_agent(name: str, variant: str, *, seed: int | None = None, **kwargs: Any) -> Agent:
    """A new agent ``name`` (``random``, ``greedy``, ``expert``, ``planner``...) for ``variant``."""
    _load_all()
    if name not in _REGISTRY:
        raise GinRummyError(
            i18n._("unknown agent {agent}; agents are {agents}").format(
                agent=repr(name), agents=", ".join(sorted(_REGISTRY))
            )
        )
    factory, variants = _REGISTRY[name]
    if variant not in variants:
        raise GinRummyError(
            i18n._("agent {agent} does not play {variant}; for {variant} choose {agents}").format(
                agent=repr(name), variant=variant, agents=", ".join(available_agents(variant))
            )
        )
    if kwargs:
        params = inspect.signature(factory).parameters
        known = [p for p in params if p not in ("self", "variant", "seed")]
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
            for key in kwargs:
                if key not in known:
                    raise GinRummyError(
                        i18n._("agent {agent} has no option {option}; its options are {options}").format(
                            agent=repr(name), option=repr(key), options=", ".join(known)
                        )
                        if known
                        else i18n._("agent {agent} has no option {option}; it takes no options").format(
                            agent=repr(name), option=repr(key)
                        )
                    )
    try:
        return factory(variant, seed=seed, **kwargs)
    except (TypeError, ValueError, OverflowError) as exc:
        if not kwargs or isinstance(exc, GinRummyError):
            raise
        raise GinRummyError(
            i18n._("agent {agent}: an option value is not valid ({error})").format(agent=repr(name), error=exc)
        ) from None


def _load_all() -> None:
    # Importing the modules runs their @register decorators.
    import importlib
    import pkgutil

    from .. import agents as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        if mod.name not in ("base",) and not mod.name.startswith("_"):
            importlib.import_module(f"{pkg.__name__}.{mod.name}")

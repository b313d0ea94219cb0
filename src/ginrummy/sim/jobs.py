"""A simulation job: its seeds, its agents, and the outcome of one deal."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..agents import Agent, make_agent
from ..engine import State
from ..errors import GinRummyError
from ..i18n import _
from ..variants import seats_of, solo_variants, variant_names

Z95 = 1.959963984540054  # the normal distribution's 97.5% point: 95% intervals


# --- seeds ---------------------------------------------------------------------------------------
def _derive(*parts: object) -> int:
    digest = hashlib.sha256(("ginrummy-sim/1:" + ":".join(str(p) for p in parts)).encode()).digest()
    return int.from_bytes(digest, "big")


def deal_seed(seed: int, index: int, attempt: int = 0) -> int:
    """The deal seed of deal ``index`` (``attempt`` > 0: a redeal after the joker was dealt)."""
    return _derive("deal", seed, index, attempt)


def agent_seed(seed: int, position: int) -> int:
    """The seed of the agent at ``position`` in the job's list (a 63-bit integer)."""
    return _derive("agent", seed, position) >> 193


# --- agents --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgentSpec:
    """An agent name with keyword options, written ``planner`` or ``planner:rollouts=32:time_budget=0.05``."""

    name: str
    kwargs: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.kwargs)])

    def make(self, variant: str, seed: int | None) -> Agent:
        return make_agent(self.name, variant, seed=seed, **dict(self.kwargs))


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent(text: str) -> AgentSpec:
    """Read ``name`` or ``name:key=value:key=value``."""
    parts = [p.strip() for p in str(text).split(":")]
    if not parts[0]:
        raise GinRummyError(
            _("not an agent: {agent} (expected e.g. 'greedy' or 'planner:rollouts=32')").format(agent=repr(text))
        )
    kwargs = []
    for p in parts[1:]:
        key, eq, val = p.partition("=")
        if not eq or not key:
            raise GinRummyError(
                _("agent option {option} in {agent} must look like key=value").format(option=repr(p), agent=repr(text))
            )
        kwargs.append((key.strip(), _value(val.strip())))
    return AgentSpec(parts[0], tuple(kwargs))


# --- a job and its outcomes ----------------------------------------------------------------------
@dataclass(frozen=True)
class SimJob:
    """What to simulate.  ``hands`` is the number of deals."""

    variant: str
    agents: tuple[str | AgentSpec, ...]
    hands: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    exact: bool = False
    games: bool = False  # whole games to the target (hands = number of games), not single hands
    records: bool = False  # keep each game's record (RECORD.md) in its outcome

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        return tuple(a if isinstance(a, AgentSpec) else parse_agent(a) for a in self.agents)

    @property
    def solo(self) -> bool:
        """Is the job's variant a solitaire (one player against the Joker)?"""
        return self.variant in solo_variants()

    def seatings(self) -> list[tuple[int, ...]]:
        """For one deal: each seating as the agent position at each seat (the agents rotate
        round the table, one seating a seat)."""
        n = len(self.agents)
        if self.solo:
            return [(i,) for i in range(n)]
        k = seats_of(self.variant)
        return [tuple((r + s) % k for s in range(k)) for r in range(k)]

    def check(self) -> None:
        if self.variant not in variant_names():
            raise GinRummyError(
                _("unknown variant {variant}; choose one of {variants}").format(
                    variant=repr(self.variant), variants=", ".join(variant_names())
                )
            )
        n = len(self.agents)
        if self.solo:
            if n < 1:
                raise GinRummyError(_("name at least one agent"))
        elif n != seats_of(self.variant):
            raise GinRummyError(
                _("{variant} needs {seats} agents (one a seat), got {n}").format(
                    variant=self.variant, seats=seats_of(self.variant), n=n
                )
            )
        if self.hands < 1:
            raise GinRummyError(_("the number of hands must be at least 1, got {n}").format(n=self.hands))
        if self.exact and not self.solo:
            raise GinRummyError(_("exact scoring (the joker averaged out) applies to the solitaires only"))
        if self.exact and self.games:
            raise GinRummyError(_("exact scoring applies to single hands, not whole games"))
        if self.exact and self.records:
            raise GinRummyError(_("exact scoring plays no single game to record: drop --exact to write records"))
        State.new(self.variant, dict(self.options))  # validates the options
        for spec in self.specs:
            spec.make(self.variant, 0)  # validates the agent names and options


@dataclass(frozen=True)
class DealOutcome:
    """One hand: who sat where, what each seat scored, who won (solitaires: seat 0 is the player).

    ``win`` and ``points`` are per seat; with exact solitaire scoring they are expectations.
    """

    index: int
    seating: tuple[int, ...]
    points: tuple[float, ...]
    win: tuple[float, ...]
    result: str
    decisions: int
    seconds: float
    record: dict[str, Any] | None = None  # the game's record (RECORD.md), when the job keeps them

"""Computer players: ``random``, ``greedy``, ``expert`` (two and three players), ``planner`` and
``clairvoyant`` (solitaires), and the advisor behind hints.  See :func:`make_agent`."""

from .base import Agent, Decision, available_agents, make_agent, register

__all__ = ["Agent", "Decision", "available_agents", "make_agent", "register"]

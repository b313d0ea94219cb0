"""Finishing games, for every front end: the solitaire's post-game analysis and filing a finished
game in the history.  Above the store and the analysis in the layers (the session is below them)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from . import analysis
from .i18n import _
from .session import Session
from .store import Store
from .variants import find_variant

__all__ = ["file_finished_game", "solitaire_analysis"]


def solitaire_analysis(session: Session, rollouts: int | None = None) -> dict[str, Any] | None:
    """The post-game analysis of a solitaire (``ginrummy.analysis.analyse_record``) as JSON, with
    its ``summary`` lines for people (None for the table games; an ``error`` if it failed).  It replays
    every decision against the planner, so it takes a while: front ends run it in the background."""
    if not find_variant(session.state.variant).solo:
        return None
    try:
        kwargs: dict[str, Any] = {} if rollouts is None else {"rollouts": rollouts}
        result: Any = analysis.analyse_record(session.state.to_record(), **kwargs)
    except Exception as exc:  # a failing analysis never loses the game; say why
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "summary": [_("(The analysis failed: {error})").format(error=exc)],
        }
    summary = result.summary() if hasattr(result, "summary") else None
    if hasattr(result, "to_json"):
        result = result.to_json()
    elif hasattr(result, "__dataclass_fields__"):
        result = asdict(result)
    if not isinstance(result, dict):
        return None
    if isinstance(summary, str):
        result["summary"] = summary.splitlines()
    return result


def file_finished_game(
    store: Store | None, game_id: str, session: Session, *, analyse: bool = True
) -> dict[str, Any] | None:
    """File a finished game in the history, with the solitaire analysis when there is one."""
    analysis = solitaire_analysis(session) if analyse else None
    if store is not None:
        store.finish_game(game_id, session, analysis)
    return analysis

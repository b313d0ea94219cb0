"""Finishing games, for every front end: the solitaire's post-game analysis and filing a finished
game in the history.  Above the store and the analysis in the layers (the session is below them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from . import analysis
from .agents import reasons
from .session import Session
from .store import Store
from .variants import find_variant
from .words import reason_text

__all__ = ["analysis_lines", "file_finished_game", "solitaire_analysis"]


def solitaire_analysis(session: Session, rollouts: int | None = None) -> dict[str, Any] | None:
    """The post-game analysis of a solitaire (``ginrummy.analysis.analyse_record``) as JSON, with
    its ``summary`` lines for people as data, in no language (:mod:`ginrummy.agents.reasons`, JSON;
    :func:`analysis_lines` words them for a reader), None for the table games, an ``error`` if it
    failed.  It replays every decision against the planner, so it takes a while: front ends run it
    in the background (the web's in a worker process, whose language does not matter)."""
    if not find_variant(session.state.variant).solo:
        return None
    try:
        kwargs: dict[str, Any] = {} if rollouts is None else {"rollouts": rollouts}
        result: Any = analysis.analyse_record(session.state.to_record(), **kwargs)
    except Exception as exc:  # a failing analysis never loses the game; say why
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "summary": [reasons.to_json(reasons.N_("(The analysis failed: {error})", error=exc))],
        }
    summary = result.summary_messages() if hasattr(result, "summary_messages") else None
    if hasattr(result, "to_json"):
        result = result.to_json()
    elif hasattr(result, "__dataclass_fields__"):
        result = asdict(result)
    if not isinstance(result, dict):
        return None
    if isinstance(summary, list):
        result["summary"] = [reasons.to_json(line) for line in summary]
    return result


def analysis_lines(analysis: Mapping[str, Any] | None) -> list[str]:
    """The ``summary`` of an analysis (:func:`solitaire_analysis`) in words for the reader, in the
    current language: each line a message worded by :func:`ginrummy.words.reason_text`; a line of
    text (an analysis filed before the summary was data) as it was written; a damaged line left out."""
    out: list[str] = []
    lines = (analysis or {}).get("summary")
    for line in lines if isinstance(lines, list) else ():
        try:
            out.append(reason_text(reasons.from_json(line)))
        except ValueError:
            continue
    return out


def file_finished_game(
    store: Store | None, game_id: str, session: Session, *, analyse: bool = True
) -> dict[str, Any] | None:
    """File a finished game in the history, with the solitaire analysis when there is one."""
    analysis = solitaire_analysis(session) if analyse else None
    if store is not None:
        store.finish_game(game_id, session, analysis)
    return analysis

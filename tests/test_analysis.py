"""The post-game analysis of the solitaires (``ginrummy.analysis``) at its default settings: what a
player sees after a hand must credit good play, flag bad play, be reproducible and come quickly."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from ginrummy.actions import Action
from ginrummy.agents import make_agent
from ginrummy.agents.solitaire import PlannerAgent
from ginrummy.analysis import analyse_record, analyse_state
from ginrummy.cards import Card
from ginrummy.engine import State
from ginrummy.melds import best_arrangement, min_deadwood
from pseudo_audit import plain

CONFIGS = [("solitaire", {}), ("gin-solitaire", {}), ("solitaire", {"scoring": "none"})]


def _mask(cards: list[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(Card.parse(c))
    return m


def _played(
    variant: str, options: dict[str, Any], seed: int, agent: str = "planner", agent_seed: int | None = None, **kw: Any
) -> State:
    """One hand dealt from ``seed`` and played by ``agent`` (seeded with ``agent_seed``, else ``seed``)."""
    st = State.new(variant, options)
    st.deal(seed=seed)
    player = make_agent(agent, variant, seed=seed if agent_seed is None else agent_seed, **kw)
    while not st.is_hand_over:
        st.apply(player.act(st.observation(0), st.legal_actions()))
    return st


@pytest.mark.parametrize(("variant", "options"), CONFIGS)
def test_the_planner_own_play_is_accurate(variant: str, options: dict[str, Any]) -> None:
    # As it plays (32 rollouts, its own seed): the analysis (256 rollouts, seed 0) agrees with it.
    decisions = matches = 0
    for seed in range(3):
        a = analyse_record(_played(variant, options, seed).to_record())
        decisions += a.decisions
        matches += a.matches
        assert all(d.loss <= a.tolerance for d in a.reviews), [d.to_json() for d in a.reviews if not d.matches]
    assert decisions > 0 and matches / decisions >= 0.95
    # With the analysis's own settings the planner's choices are its choices: no loss at all.
    a = analyse_record(_played(variant, options, 5, rollouts=256, agent_seed=0).to_record())
    assert a.decisions > 0 and a.accuracy == 1.0 and a.expected_loss == 0.0


def _break_a_meld(
    variant: str, options: dict[str, Any], seed: int, *, close_to_gin: bool
) -> tuple[State, Action] | None:
    """A hand played by the planner except for one discard out of a made meld: the first one
    possible (``close_to_gin``: once the planner gives the hand at least a 30% chance of gin);
    None if the hand never offers one."""
    st = State.new(variant, options)
    st.deal(seed=seed)
    planner = PlannerAgent(variant, seed=0)
    bad: Action | None = None
    while not st.is_hand_over:
        obs, legal = st.observation(0), st.legal_actions()
        act = planner.act(obs, legal)
        if bad is None and act.kind == "discard" and len(obs["hand"]) == 11:
            hand = _mask(obs["hand"])
            melded = [c for m in best_arrangement(hand).melds for c in m]
            ready = not close_to_gin or planner.evaluate(obs, legal).values[0][1] >= 0.3
            if melded and ready:
                # The melded card whose loss leaves the most deadwood.
                worst = max(melded, key=lambda c: (min_deadwood(hand & ~(1 << int(c))), int(c)))
                act = bad = Action("discard", worst)
        st.apply(act)
    return None if bad is None else (st, bad)


@pytest.mark.parametrize(("variant", "options", "close_to_gin"), [(*c, c[1] == {"scoring": "none"}) for c in CONFIGS])
def test_breaking_a_made_meld_is_flagged(variant: str, options: dict[str, Any], close_to_gin: bool) -> None:
    cases = [c for c in (_break_a_meld(variant, options, s, close_to_gin=close_to_gin) for s in range(4)) if c]
    assert len(cases) >= 3
    for st, bad in cases:
        a = analyse_record(st.to_record())
        d = next(d for d in a.reviews if d.played == str(bad))
        assert not d.matches and d.loss > a.tolerance, d.to_json()
        assert d.loss == pytest.approx(d.best_value - d.played_value)
        assert d.best != d.played and dict(d.values)[d.played] == d.played_value
        if a.units == "points":
            assert d.loss > 5.0  # points: the broken meld is deadwood the joker may score
        assert d in a.worst(a.decisions) and a.expected_loss >= d.loss
        summary = plain(a.summary()).splitlines()
        assert any(line.startswith(f"Hand 1, after {d.draws} draws: played {bad}") for line in summary)


def test_only_real_decisions_of_the_player_are_reviewed() -> None:
    st = _played("gin-solitaire", {}, 3, agent="greedy")
    replay = State.new("gin-solitaire")
    replay.deal(seed=3)
    expected = []
    for i, text in enumerate(st.to_record()["hands"][0]["actions"]):
        if replay.current_player == 0 and len(replay.legal_actions()) > 1:
            expected.append(i)
        replay.apply(Action.parse(text))
    a = analyse_record(st.to_record())
    assert [d.action_index for d in a.reviews] == expected


def test_the_analysis_is_deterministic_for_a_seed() -> None:
    st = _played("solitaire", {}, 7, agent="greedy")
    record = st.to_record()
    first = analyse_record(record).to_json()
    assert analyse_record(record).to_json() == first
    assert analyse_state(st).to_json() == first
    assert analyse_record(record, seed=0).to_json() == first  # 0 is the default seed
    # Another process, another hash seed: the same figures (no dependence on set or dict order).
    code = (
        "import json, sys; from ginrummy.analysis import analyse_record; "
        "print(json.dumps(analyse_record(json.loads(sys.stdin.read())).to_json()))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(record), capture_output=True, text=True, env=env, check=True
    )
    assert json.loads(out.stdout) == json.loads(json.dumps(first))


def test_the_worst_decisions_are_the_mistakes() -> None:
    """``worst()`` (and so the summary) names exactly the decisions that do not match the planner,
    costliest first, however small the planner's tie-breaks make the other decisions' losses."""
    mistakes = 0
    for variant, options in CONFIGS:
        for seed in range(3):
            a = analyse_record(_played(variant, options, seed, agent="greedy").to_record())
            worst = a.worst(a.decisions)
            assert worst == sorted((d for d in a.reviews if not d.matches), key=lambda d: -d.loss)
            assert all(d.loss > a.tolerance for d in worst)
            mistakes += len(worst)
            assert a.summary().count("the planner prefers") == min(len(worst), 3)
    assert mistakes > 0

"""The expert's game-aware values (ginrummy.agents.gamevalue): the chance of winning a game to a
target, the corrections it gives, and where they apply (only where the game pays just its win)."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.agents import make_agent
from ginrummy.agents.expert import DEFAULT
from ginrummy.agents.gamevalue import (
    game_correction,
    game_of,
    gin_hunter,
    knock_for_game,
    outcomes_of_knock,
    outcomes_of_playing_on,
    win_chance,
)
from ginrummy.agents.knowledge import Knowledge
from ginrummy.engine import State

EAAI = {"box_bonus": 0, "game_bonus": 0, "shutout": "none"}


def test_win_chance_is_a_fair_game_model() -> None:
    assert win_chance(0, 0, 100) == pytest.approx(0.5)
    for a, b in ((10, 40), (70, 90), (95, 5), (0, 99)):
        # equal players: my chance from (a, b) is one minus theirs from (b, a)
        assert win_chance(a, b, 100) + win_chance(b, a, 100) == pytest.approx(1.0)
    row = [win_chance(a, 50, 100) for a in range(0, 100, 5)]
    assert row == sorted(row) and row[0] < 0.3 < 0.7 < row[-1]
    assert win_chance(100, 99, 100) == 1.0 and win_chance(99, 100, 100) == 0.0


def test_corrections_vanish_far_from_the_target_and_favour_ending_it_near() -> None:
    knock = outcomes_of_knock(12.0, 27.2, 0.2)
    assert sum(p for _, p in knock) == pytest.approx(1.0)
    assert sum(p for _, p in outcomes_of_playing_on(4.0)) == pytest.approx(1.0)
    # Expected points are kept: the crude outcome model of playing on has the expectation given.
    assert sum(x * p for x, p in outcomes_of_playing_on(4.0)) == pytest.approx(4.0)
    assert abs(game_correction(knock, 0, 0, 100)) < 1.0
    # Ten points from the target, a likely knock is worth more than its points; far behind, less.
    assert game_correction(knock, 90, 20, 100) > 3.0
    assert game_correction(knock, 20, 90, 100) < -1.0
    assert knock_for_game(None, DEFAULT, 5, 20, 25.0, 0.2) == 0.0
    assert knock_for_game((90, 20, 100), DEFAULT, 5, 20, 25.0, 0.2) > 0.0


def test_game_awareness_applies_only_where_the_game_pays_just_its_win() -> None:
    s = State.new("classic", options=EAAI)
    s.deal(seed=3)
    seat = s.current_player
    assert seat is not None
    obs = s.observation(seat)
    assert game_of(Knowledge.from_observation(obs), obs) == (0, 0, 100)
    d = State.new("classic")
    d.deal(seed=3)
    dobs = d.observation(seat)
    assert game_of(Knowledge.from_observation(dobs), dobs) is None  # box and game bonus: points count


def assert_same_play(one: Any, other: Any, deals: int) -> None:
    """``one`` and ``other`` choose the same moves, with the same values, at every decision of
    ``deals`` seeded classic hands played by ``one`` for both seats."""
    for deal in range(deals):
        s = State.new("classic", undo=False)
        s.deal(seed=deal)
        while not s.is_hand_over:
            seat = s.current_player
            assert seat is not None
            obs, legal = s.observation(seat), s.legal_actions()
            a, b = one.decide(obs, legal), other.decide(obs, legal)
            assert (a.action, a.values) == (b.action, b.values)
            s.apply(a.action)


def test_game_aware_expert_is_unchanged_under_the_default_rules() -> None:
    aware = make_agent("expert", "classic", seed=1, game_aware=True)
    plain = make_agent("expert", "classic", seed=1, game_aware=False)
    assert_same_play(aware, plain, deals=4)


def test_a_gin_hunter_is_told_by_its_points_a_hand_won() -> None:
    s = State.new("classic", options=EAAI)
    s.deal(seed=5)
    seat = s.current_player
    assert seat is not None
    obs = s.observation(seat)
    k = Knowledge.from_observation(obs)
    assert not gin_hunter(k, obs, 22.0)  # no hand won yet: no evidence
    totals = [0, 0]
    won = [0, 0]
    totals[k.opp], won[k.opp] = 62, 2  # two gins
    assert gin_hunter(k, {**obs, "totals": totals, "hands_won": won}, 22.0)
    totals[k.opp], won[k.opp] = 30, 3  # three small knocks
    assert not gin_hunter(k, {**obs, "totals": totals, "hands_won": won}, 22.0)

"""The five playing levels: available everywhere the expert is, legal and reproducible, weaker in
the documented human ways (memory, judgement, early knocks), never by blundering at random.
Their strength against each other is measured in docs/strength.md (a benchmark, not a test)."""

from __future__ import annotations

import pytest

from ginrummy.actions import Action
from ginrummy.agents import available_agents, make_agent
from ginrummy.agents.expert import ExpertAgent, evaluate
from ginrummy.agents.knowledge import Knowledge, iter_cards
from ginrummy.agents.levels import LEVEL_DESCRIPTIONS, LEVEL_PARAMS, LEVELS
from ginrummy.engine import State
from ginrummy.errors import GinRummyError

TABLE = ("classic", "oklahoma", "hollywood", "three")


def _positions(variant: str, name: str, seeds: range) -> list[tuple[dict[str, object], list[Action]]]:
    out = []
    for seed in seeds:
        s = State.new(variant)
        agents = [make_agent(name, variant, seed=seed + i) for i in range(s.num_seats)]
        s.deal(seed=seed)
        steps = 0
        while not s.is_hand_over:
            seat = s.current_player
            assert seat is not None
            obs, legal = s.observation(seat), s.legal_actions()
            out.append((obs, legal))
            action = agents[seat].act(obs, legal)
            assert action in legal
            s.apply(action)
            steps += 1
            assert steps < 500
    return out


def test_five_levels_weakest_first_for_every_table_game() -> None:
    assert len(LEVELS) == 5 and LEVELS[0] == "beginner" and LEVELS[-1] == "expert"
    assert set(LEVEL_DESCRIPTIONS) == set(LEVELS) == set(LEVEL_PARAMS)
    for variant in TABLE:
        assert set(LEVELS) <= set(available_agents(variant))
    for variant in ("solitaire", "gin-solitaire"):
        assert not set(LEVELS) & set(available_agents(variant))
    agent = make_agent("casual", "classic", seed=1)
    assert isinstance(agent, ExpertAgent) and agent.name == "casual"
    assert agent.params.memory == LEVEL_PARAMS["casual"]["memory"]


def test_level_options_can_be_changed_and_bad_ones_are_refused() -> None:
    assert make_agent("casual", "classic", noise=0.0).params.noise == 0.0  # type: ignore[attr-defined]
    with pytest.raises(GinRummyError, match="unknown expert option"):
        make_agent("casual", "classic", wisdom=3)


@pytest.mark.parametrize("variant", TABLE)
@pytest.mark.parametrize("name", LEVELS[:-1])
def test_levels_play_legal_hands(variant: str, name: str) -> None:
    assert _positions(variant, name, range(2))


def test_levels_are_reproducible() -> None:
    for obs, legal in _positions("classic", "casual", range(2)):
        a = make_agent("casual", "classic", seed=5).decide(obs, legal)
        b = make_agent("casual", "classic", seed=5).decide(obs, legal)
        assert a == b


def test_no_level_misses_gin() -> None:
    # A position with gin on offer: every level takes it.
    found = 0
    for obs, legal in _positions("classic", "expert", range(40)):
        if any(a.kind == "gin" for a in legal):
            found += 1
            for name in LEVELS:
                assert make_agent(name, "classic", seed=found).act(obs, legal).kind == "gin"
    assert found


def test_the_beginner_knocks_at_the_first_chance_the_expert_does_not_always() -> None:
    beginner, expert = make_agent("beginner", "classic", seed=1), make_agent("expert", "classic", seed=1)
    chances = expert_plays_on = 0
    for obs, legal in _positions("classic", "expert", range(30)):
        if any(a.kind == "knock" for a in legal) and not any(a.kind == "gin" for a in legal):
            chances += 1
            assert beginner.act(obs, legal).kind == "knock"
            expert_plays_on += expert.act(obs, legal).kind != "knock"
    assert chances and expert_plays_on


def test_a_short_memory_forgets_buried_cards_and_pickups() -> None:
    positions = [p for p in _positions("classic", "expert", range(5)) if len(p[0]["discard_pile"]) > 6]  # type: ignore[arg-type]
    assert positions
    obs, _ = positions[-1]
    full = Knowledge.from_observation(obs)
    short = Knowledge.from_observation(obs)
    short.forget(2, pickups=False)
    pile = full.pile
    forgotten = sum(1 << c for c in pile[:-3])
    assert short.unseen == full.unseen | forgotten | full.opp_known
    assert short.dead == full.dead & ~forgotten
    assert short.opp_known == 0 and short.opp_hidden == 10
    assert all(short.weights[c] > 0 for c in iter_cards(forgotten))
    same = Knowledge.from_observation(obs)
    same.forget(-1, pickups=True)
    assert same == full


def test_noise_only_swaps_options_the_expert_rates_close() -> None:
    """A misjudgement is among the options the expert considered, and never far below the best:
    six standard deviations of the casual player's judgement at most."""
    casual = make_agent("casual", "classic", seed=9)
    differ = 0
    for obs, legal in _positions("classic", "casual", range(20)):
        if len(legal) < 2:
            continue
        ev = evaluate(obs, legal, params=casual.params, seed=9)  # type: ignore[attr-defined]
        choice = casual.act(obs, legal)
        assert choice in ev.values
        if choice != ev.best:
            differ += 1
            assert ev.values[ev.best] - ev.values[choice] < 6 * casual.params.noise  # type: ignore[attr-defined]
    assert differ

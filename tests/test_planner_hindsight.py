"""The solitaire planner's hindsight option (``planner:hindsight=K``): its gin steps are the
clairvoyant's, and it only reorders the discards the hold model ties (or blends, with ``blend``)."""

from __future__ import annotations

import random

from ginrummy.agents import make_agent
from ginrummy.agents.planner import hindsight_steps, sample_orders
from ginrummy.agents.solitaire import SoloRules, clairvoyant_value
from ginrummy.engine import State
from ginrummy.observe import Observation


def test_hindsight_steps_are_the_clairvoyant_gin_steps() -> None:
    rules = SoloRules.of("solitaire", {"scoring": "none"})
    rng = random.Random(5)
    for _ in range(3):
        deck = rng.sample(range(52), 52)
        hand = sum(1 << c for c in deck[:11])
        unseen = deck[11:]
        orders = sample_orders(unseen, 3, seed=rng.randrange(1 << 30))
        assert sorted(orders[0]) == sorted(unseen) and orders[0][0] == unseen[0]
        steps = hindsight_steps(hand, hand, orders)
        for d, ts in steps.items():
            for order, t in zip(orders, ts, strict=True):
                res = clairvoyant_value(rules, hand & ~(1 << d), order, start=False)
                assert t == (len(order) + 1 if res.gin_step is None else res.gin_step)


def _first_discard() -> tuple[Observation, list]:  # type: ignore[type-arg]
    st = State.new("solitaire", {"scoring": "none"})
    st.deal(seed=6)
    st.apply(st.legal_actions()[0])  # the first draw
    return st.observation(0), st.legal_actions()


def test_hindsight_breaks_only_the_ties_of_the_hold_model() -> None:
    obs, legal = _first_discard()
    plain = dict(make_agent("planner", "solitaire", seed=1).evaluate(obs, legal).values)
    agent = make_agent("planner", "solitaire", seed=1, hindsight=4)
    report = agent.evaluate(obs, legal)
    again = make_agent("planner", "solitaire", seed=1, hindsight=4).evaluate(obs, legal)
    assert report.values == again.values  # seeded from the agent's seed and the position
    tied = report.notes["hindsight"]
    assert len(tied) >= 2
    best = max(plain.values())
    for a, v in report.values:
        if str(a) not in tied:  # untouched, and below every tied discard
            assert v == plain[a]
            assert all(v < w for b, w in report.values if str(b) in tied)
        else:
            assert abs(plain[a] - best) < 1e-3 and 0.0 <= tied[str(a)] <= 1.0
    blended = make_agent("planner", "solitaire", seed=1, hindsight=4, blend=1.0).evaluate(obs, legal)
    assert len(blended.notes["hindsight"]) == sum(1 for a in legal if a.kind == "discard")
    assert make_agent("planner", "solitaire", seed=1, hindsight=4).decide(obs, legal).action in legal

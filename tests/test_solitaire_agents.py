"""The solitaire planner, the clairvoyant bound, their meld primitives and the post-game analysis."""

from __future__ import annotations

import itertools
import json
import math
import random

import pytest

from ginrummy.agents import make_agent
from ginrummy.agents.solitaire import (
    ClairvoyantAgent,
    SoloRules,
    _completion_lists,
    _meld_sizes_with,
    _outs_and_degrees,
    advise_solitaire,
    clairvoyant_line,
    clairvoyant_value,
    gin_completions,
    gin_outs,
    gin_pairs,
    has_gin10,
    hold_chance,
    hold_value,
    melded_sizes,
    min_deadwood_of_ten,
    three_draw_value,
)
from ginrummy.analysis import analyse_record
from ginrummy.cards import JOKER, Card, CardSet
from ginrummy.engine import State
from ginrummy.errors import GinRummyError
from ginrummy.melds import all_melds, hand_mask, min_deadwood
from ginrummy.sim import SimJob, _deck, mean_ci, solo_line
from ginrummy.words import reason_text

VARIANTS = [
    ("solitaire", {"scoring": "none"}),
    ("solitaire", {}),
    ("solitaire", {"scoring": "basic"}),
    ("gin-solitaire", {}),
]
BOUND_CASES = [("solitaire", {}), ("solitaire", {"scoring": "none"}), ("gin-solitaire", {})]


# --- meld primitives against brute force -------------------------------------------------------
def _brute_sizes(cards: int, must: int | None = None) -> int:
    melds = [hand_mask(m) for m in all_melds(cards)]
    out = set()

    def walk(i: int, used: int, size: int) -> None:
        if must is None or used >> must & 1:
            out.add(size)
        for j in range(i, len(melds)):
            m = melds[j]
            if m & used or size + m.bit_count() > 11:
                continue
            walk(j + 1, used | m, size + m.bit_count())

    walk(0, 0, 0)
    return sum(1 << k for k in out)


def _meldy(rng: random.Random, k: int) -> int:
    ranks = rng.sample(range(13), rng.choice([5, 6, 7, 13]))
    pool = [r + 13 * s for r in ranks for s in range(4)]
    return sum(1 << c for c in rng.sample(pool, min(k, len(pool))))


def test_primitives_match_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(120):
        cards = _meldy(rng, rng.choice([10, 11, 12, 13]))
        if cards.bit_count() < 10:
            continue
        assert melded_sizes(cards) == _brute_sizes(cards)
        assert has_gin10(cards) == bool(_brute_sizes(cards) >> 10 & 1)
        c = rng.choice([i for i in range(52) if cards >> i & 1])
        assert _meld_sizes_with(cards, c) == _brute_sizes(cards, c)
        if cards.bit_count() <= 12:
            cs = [i for i in range(52) if cards >> i & 1]
            brute = min(min_deadwood(sum(1 << x for x in comb)) for comb in itertools.combinations(cs, 10))
            assert min_deadwood_of_ten(cards) == brute


def test_outs_and_pairs_match_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(25):
        cards = list(range(52))
        rng.shuffle(cards)
        ranks = set(rng.sample(range(13), 7))
        pool = [c for c in cards if c % 13 in ranks]
        hand = sum(1 << c for c in pool[:10])
        unseen = pool[10:26]
        um = sum(1 << c for c in unseen)
        outs = gin_outs(hand, um)
        assert outs == sum(1 << c for c in unseen if has_gin10(hand | 1 << c))
        deg: dict[int, int] = {}
        for a, b in itertools.combinations([c for c in unseen if not outs >> c & 1], 2):
            if has_gin10(hand | 1 << a | 1 << b):
                deg[a] = deg.get(a, 0) + 1
                deg[b] = deg.get(b, 0) + 1
        assert gin_pairs(hand, um, outs) == deg


def _meldy_position(rng: random.Random, unseen_n: int = 16) -> tuple[int, list[int]]:
    cards = list(range(52))
    rng.shuffle(cards)
    ranks = set(rng.sample(range(13), 7))
    pool = [c for c in cards if c % 13 in ranks]
    return sum(1 << c for c in pool[:11]), pool[11 : 11 + unseen_n]


def test_completions_are_exactly_the_gins_within_reach() -> None:
    """Every completion is a gin hand using all of its unseen cards; every set of up to three near
    unseen cards that makes a gin contains a completion; an eleven-card search gives each discard
    the same outs and pairs as a search of its own."""
    rng = random.Random(11)
    for _ in range(12):
        big, unseen = _meldy_position(rng, 12)
        um = sum(1 << c for c in unseen)
        hand = big & ~(big & -big)  # ten cards
        comps = gin_completions(hand, um, 3)
        for used, drops in comps.items():
            for dropped in drops:
                assert dropped & hand == dropped and dropped.bit_count() == used.bit_count()
                gin = (hand & ~dropped) | used
                assert min_deadwood(gin) == 0 and gin.bit_count() == 10
        for k in (1, 2, 3):
            for combo in itertools.combinations(unseen, k):
                u = sum(1 << c for c in combo)
                if has_gin10(hand | u):
                    assert any(v & ~u == 0 for v in comps), combo
        legal_hands = {1 << c: big & ~(1 << c) for c in range(52) if big >> c & 1}
        lists = _completion_lists(big, um, {c: h for c, h in legal_hands.items()}, 2)  # type: ignore[misc]
        for h in legal_hands.values():
            outs, deg = _outs_and_degrees(lists[h], h, um)
            assert outs == gin_outs(h, um) and deg == gin_pairs(h, um)


def test_three_draw_value() -> None:
    win = SoloRules.of("solitaire", {"scoring": "none"})
    pts = SoloRules.of("solitaire")
    hand = int(CardSet.parse("2c 3c 4c 7h 7d 7s 9s Ts Js Kd"))
    um = int(CardSet.parse("Qs 8s 5c Ah Kc"))
    comps = [(u, d) for u, ds in gin_completions(hand, um, 3).items() for d in ds]
    outs, deg = _outs_and_degrees(comps, hand, um)
    assert outs.bit_count() == 3 and not deg
    # No other card makes the hand better than three outs: the model stays at k / (k + 1).
    assert three_draw_value(win, comps, hand, um, 5) == pytest.approx(0.75)
    assert three_draw_value(pts, comps, hand, um, 5) == pytest.approx(hold_value(pts, 3, {}, 5, 10))
    rng = random.Random(4)
    for _ in range(10):
        big, unseen = _meldy_position(rng, 20)
        h = big & ~(big & -big)
        um = sum(1 << c for c in unseen)
        comps = [(u, d) for u, ds in gin_completions(h, um, 3).items() for d in ds]
        got = three_draw_value(win, comps, h, um, 20)
        assert 0.0 <= got <= 1.0
        assert (got == 0.0) == (not comps)
        assert -min_deadwood(h) <= three_draw_value(pts, comps, h, um, 20) <= 20 + 25


def test_hold_chance() -> None:
    assert hold_chance(1, {}) == 0.5
    assert hold_chance(0, {}) == 0.0
    # One pair: both cards must come before the joker.
    assert math.isclose(hold_chance(0, {1: 1, 2: 1}), 1 / 3)


# --- legality ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_planner_and_clairvoyant_play_legal_actions(variant: str, options: dict[str, str]) -> None:
    planner = make_agent("planner", variant, seed=3, rollouts=8)
    for seed in range(2):
        for who in ("planner", "clairvoyant"):
            st = State.new(variant, options)
            st.deal(seed=seed)
            agent = planner if who == "planner" else ClairvoyantAgent(variant, state=st)
            steps = 0
            while not st.is_hand_over:
                legal = st.legal_actions()
                d = agent.decide(st.observation(0), legal)
                assert d.action in legal
                assert d.explanation
                st.apply(d.action)
                steps += 1
            assert steps >= 1


def test_clairvoyant_refuses_without_the_deal() -> None:
    st = State.new("solitaire")
    st.deal(seed=1)
    agent = make_agent("clairvoyant", "solitaire")
    with pytest.raises(GinRummyError, match="analysis"):
        agent.decide(st.observation(0), st.legal_actions())
    with pytest.raises(GinRummyError):
        make_agent("planner", "classic")


def test_planner_is_reproducible_and_stateless() -> None:
    st = State.new("solitaire")
    st.deal(seed=4)
    obs, legal = st.observation(0), st.legal_actions()
    a = make_agent("planner", "solitaire", seed=9).decide(obs, legal)
    b = make_agent("planner", "solitaire", seed=9).decide(json.loads(json.dumps(obs)), legal)
    assert a.action == b.action and a.values == b.values


def test_advise_solitaire_ranks_every_legal_action() -> None:
    st = State.new("gin-solitaire")
    st.deal(seed=2)
    legal = st.legal_actions()
    ranked = advise_solitaire(st.observation(0), legal, "gin-solitaire")
    assert sorted(a.id for a, _ in ranked) == sorted(a.id for a in legal)
    vals = [v for _, v in ranked]
    assert vals == sorted(vals, reverse=True)


def test_planner_goes_gin_and_weighs_knocks_exactly() -> None:
    # Gin on the table: gin is worth C + 25 on average, more than anything else.
    st = State.new("solitaire", {"scoring": "knock"})
    deck = ["2c", "3c", "4c", "7h", "7d", "7s", "9s", "Ts", "Js", "Kd", "Qs"]
    rest = [str(c) for c in State.new("solitaire").deck_for_seed(1) if str(c) not in deck and c != JOKER]
    st.deal([*deck[:10], deck[10], *rest, "JK"])
    legal = st.legal_actions()
    d = make_agent("planner", "solitaire", seed=1, rollouts=8).decide(st.observation(0), legal)
    assert str(d.action) == "gin Kd"
    n = len(st.observation(0)["unseen"])
    assert math.isclose(d.values[str(d.action)], sum(c + 25 for c in range(n + 1)) / (n + 1))


# --- exact line scoring and the bound ------------------------------------------------------------
@pytest.mark.parametrize(("variant", "options"), [("solitaire", {}), ("gin-solitaire", {})])
def test_exact_line_matches_the_engine(variant: str, options: dict[str, str]) -> None:
    """Scoring a line with the joker taken out reproduces the real hand for the real joker place."""
    rules = SoloRules.of(variant, options)
    agent = make_agent("greedy", variant, seed=1)
    dealt = rules.dealt
    for i in range(12):
        deck, _ = _deck(SimJob(variant, ("greedy",), 1, 3, options), i)
        line = solo_line(variant, options, agent, deck)
        st = State.new(variant, options)
        st.deal([Card(c) for c in deck])
        while not st.is_hand_over:
            st.apply(agent.act(st.observation(0), st.legal_actions()))
        res = st.hand_result
        assert res is not None
        points, _ = line.outcome(rules, deck[dealt:].index(JOKER))
        assert points == res.points[0] - res.points[1]


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_clairvoyant_is_never_below_the_planner(variant: str, options: dict[str, str]) -> None:
    """For every deal and every place of the joker, the bound is at least the planner's result."""
    rules = SoloRules.of(variant, options)
    planner = make_agent("planner", variant, seed=2, rollouts=8)
    for i in range(8):
        deck, _ = _deck(SimJob(variant, ("planner",), 1, 11, options), i)
        line = solo_line(variant, options, planner, deck)
        order = [c for c in deck[rules.dealt :] if c != JOKER]
        bound = clairvoyant_value(rules, deck[: rules.dealt], order)
        for j, best in enumerate(bound.values):
            pts, win = line.outcome(rules, j)
            got = win if rules.objective == "win" else pts
            assert best >= got, (i, j, best, got)


@pytest.mark.parametrize(("variant", "options"), BOUND_CASES)
def test_clairvoyant_agent_achieves_its_bound(variant: str, options: dict[str, str]) -> None:
    """Playing the clairvoyant through the engine gives exactly the computed bound."""
    rules = SoloRules.of(variant, options)
    for seed in range(5):
        st = State.new(variant, options)
        st.deal(seed=seed)
        if st.is_hand_over:
            continue
        deck = [int(c) for c in st.logs[-1].deck]
        agent = ClairvoyantAgent(variant, state=st)
        while not st.is_hand_over:
            st.apply(agent.act(st.observation(0), st.legal_actions()))
        res = st.hand_result
        assert res is not None
        value, _ = clairvoyant_line(rules, deck)
        if rules.objective == "win":
            assert value == (1.0 if res.result in ("gin", "big-gin") else 0.0)
        else:
            assert value == res.points[0] - res.points[1]


def test_planner_beats_greedy_and_random() -> None:
    """Paired exact figures on fixed deals: the planner's points exceed greedy's and random's with
    the 95% interval of the paired difference above zero."""
    variant, options = "solitaire", {}
    rules = SoloRules.of(variant, options)
    agents = {name: make_agent(name, variant, seed=5) for name in ("greedy", "random")}
    agents["planner"] = make_agent("planner", variant, seed=5, rollouts=12)
    scores: dict[str, list[float]] = {name: [] for name in agents}
    for i in range(24):
        deck, _ = _deck(SimJob(variant, ("greedy",), 1, 77, options), i)
        for name, agent in agents.items():
            scores[name].append(solo_line(variant, options, agent, deck).expected(rules)[0])
    for other in ("greedy", "random"):
        diff = [p - q for p, q in zip(scores["planner"], scores[other], strict=True)]
        _, low, _ = mean_ci(diff)
        assert low > 0, (other, mean_ci(diff))


# --- analysis ------------------------------------------------------------------------------------
def test_analysis_of_a_game() -> None:
    st = State.new("solitaire")
    st.deal(seed=21)
    greedy = make_agent("greedy", "solitaire")
    while not st.is_hand_over:
        st.apply(greedy.act(st.observation(0), st.legal_actions()))
    record = st.to_record()
    a = analyse_record(record, rollouts=8)
    assert a.units == "points" and a.decisions >= 1
    assert 0.0 <= a.accuracy <= 1.0
    assert a.expected_loss == pytest.approx(sum(d.loss for d in a.reviews))
    assert all(d.loss >= 0 for d in a.reviews)
    hand = a.hands[0]
    assert hand.actual == st.hand_result.points[0] - st.hand_result.points[1]  # type: ignore[union-attr]
    data = json.loads(json.dumps(a.to_json()))
    assert data["format"] == "ginrummy-analysis/1" and data["decisions"] == a.decisions
    assert "accuracy" in a.summary()


def test_analysis_counts_the_planner_own_play_as_accurate() -> None:
    st = State.new("gin-solitaire")
    st.deal(seed=8)
    planner = make_agent("planner", "gin-solitaire", seed=0, rollouts=8)
    while not st.is_hand_over:
        st.apply(planner.act(st.observation(0), st.legal_actions()))
    a = analyse_record(st.to_record(), rollouts=8, seed=0)
    assert a.accuracy == 1.0 and a.expected_loss == 0.0


def test_analysis_rejects_table_games() -> None:
    from ginrummy.errors import RecordError

    st = State.new("classic")
    st.deal(seed=1)
    with pytest.raises(RecordError, match="solitaires"):
        analyse_record(st.to_record())


def test_cardset_helpers_still_agree() -> None:
    # The doctest hand of the module, through the public names.
    cards = int(CardSet.parse("2c 3c 4c 7h 7d 7s 9s Ts Js Qs Kd Ah"))
    assert has_gin10(cards)


def test_planner_depth_option() -> None:
    """``depth=3`` values discards by the three-draw model (its notes count the gins within three
    draws, and a far hand's explanation says so); the default is the two-draw model."""
    for options in ({}, {"scoring": "none"}):
        st = State.new("solitaire", options)
        st.deal(seed=6)
        st.apply(st.legal_actions()[0])  # the first draw
        obs, legal = st.observation(0), st.legal_actions()
        assert "triples" not in make_agent("planner", "solitaire", seed=1).evaluate(obs, legal).notes
        deep = make_agent("planner", "solitaire", seed=1, depth=3)
        assert "triples" in deep.evaluate(obs, legal).notes
        d = deep.decide(obs, legal)
        why = reason_text(d.explanation)
        assert d.action in legal and ("three" in why or "gin next" in why)
    with pytest.raises(GinRummyError, match="depth"):
        make_agent("planner", "solitaire", depth=4)

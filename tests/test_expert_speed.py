"""The expert's fast paths against their plain reference, bit for bit: a speed change must change
no decision (``benchmarks/decisions.py`` checks whole games; these check the parts on many more
positions, seeded)."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import Action
from ginrummy.agents import make_agent
from ginrummy.agents.basic import greedy_choice
from ginrummy.agents.expert import DEFAULT, _Eval
from ginrummy.agents.knowledge import RELATED, VALUES, Knowledge
from ginrummy.agents.reasons import N_
from ginrummy.cards import CARDS
from ginrummy.engine import State
from ginrummy.melds import best_discards, min_deadwood


def _reference_potential(ev: _Eval, hand: int, d: int) -> tuple[float, float]:
    """``potential`` and ``gin_chance`` the plain way: for every stock card related to the hand,
    in card order, the full search for the best discard of the hand with it."""
    bd9 = best_discards(hand)[0]
    tot = 0.0
    gin = 0.0
    for c, q in ev.qmap.items():
        if not hand & RELATED[c]:
            continue
        base = min(d, bd9 + VALUES[c])
        d2 = best_discards(hand | (1 << c))[0]
        if d2 < base:
            tot += q * (base - d2)
            if d2 == 0:
                gin += q
    return tot / ev.qsum, gin / ev.qsum


def _knowledge(rng: random.Random, hand: int, seen: int) -> Knowledge:
    """A seat's knowledge with ``hand`` and the cards of ``seen`` out of the stock, and a random
    chance for each unseen card of being in the opponent's hand (some certainly not)."""
    unseen = ((1 << 52) - 1) & ~hand & ~seen
    weights = [0.0] * 52
    for c in range(52):
        if unseen >> c & 1:
            weights[c] = rng.choice((0.0, 0.1, rng.random() * 0.95, 1 / 3))
    return Knowledge(
        seat=0, opp=1, hand=hand, pile=[], opp_known=0, opp_hidden=10, unseen=unseen, stock_size=20,
        knock_limit=10, opp_discards=0, opp_passed=0, opp_took=0, my_discards=0, opp_draws=0, my_turns=0,
        dead=0, weights=weights, options={}, wall=2,
    )  # fmt: skip


def _hand(rng: random.Random, set_rich: bool) -> int:
    if not set_rich:
        return sum(1 << c for c in rng.sample(range(52), 10))
    # Ranks held three and four times, and runs through them: the ways of using sets.
    cards: set[int] = set()
    for r in rng.sample(range(13), rng.choice((1, 2, 3))):
        cards.update(r + 13 * s for s in rng.sample(range(4), rng.choice((2, 3, 3, 4))))
    while len(cards) > 10:
        cards.discard(rng.choice(sorted(cards)))
    while len(cards) < 10:
        c = rng.randrange(52)
        near = [x for x in (c - 1, c + 1) if x // 13 == c // 13]
        cards.add(rng.choice(near) if rng.random() < 0.5 and near else c)
    return sum(1 << c for c in cards)


@pytest.mark.parametrize("set_rich", [False, True])
def test_potential_equals_the_full_search(set_rich: bool) -> None:
    rng = random.Random(20261204 + set_rich)
    for _ in range(1500):
        hand = _hand(rng, set_rich)
        seen = sum(1 << c for c in rng.sample([c for c in range(52) if not hand >> c & 1], rng.randrange(0, 25)))
        ev = _Eval(_knowledge(rng, hand, seen), DEFAULT, random.Random(0))
        d = min_deadwood(hand)
        pot, gin = _reference_potential(ev, hand, d)
        assert ev.potential(hand, d) == pot, hand
        assert ev.gin_chance(hand) == gin, hand


def _reference_greedy(hand: int, legal: list[Action], top: int | None, allow: bool) -> tuple[Action, int]:
    """The greedy draw or discard the plain way: every discard's deadwood by ``min_deadwood``."""
    if top is not None:
        with_top = hand | (1 << top)
        now = min_deadwood(hand)
        after = min(min_deadwood(with_top & ~(1 << c)) for c in range(52) if with_top >> c & 1 and (allow or c != top))
        return (legal[0] if after < now else legal[1]), after
    scored = []
    for a in legal:
        c = int(a.card or 0)
        d = min_deadwood(hand & ~(1 << c))
        scored.append(((d, -VALUES[c], -(c % 13), -(c // 13)), a))
    key, choice = min(scored, key=lambda t: t[0])
    return choice, key[0]


@pytest.mark.parametrize("set_rich", [False, True])
def test_greedy_equals_every_discard_tried(set_rich: bool) -> None:
    rng = random.Random(41 + set_rich)
    for i in range(1500):
        hand10 = _hand(rng, set_rich)
        extra = rng.choice([c for c in range(52) if not hand10 >> c & 1])
        texts = lambda m: [str(CARDS[c]) for c in range(52) if m >> c & 1]  # noqa: E731
        allow = i % 3 == 0
        # The upcard or the discard on offer: take it or draw.
        obs = {
            "hand": texts(hand10),
            "discard_pile": [str(CARDS[extra])],
            "options": {"discard_drawn_upcard_allowed": allow},
        }
        legal = [Action("take"), Action("draw")]
        want, after = _reference_greedy(hand10, legal, extra, allow)
        got = greedy_choice(obs, legal)
        assert got.action == want, (hand10, extra)
        if want.kind == "take":
            assert got.explanation == N_("Take it: deadwood {now} -> {after}.", now=min_deadwood(hand10), after=after)
        # Eleven cards to discard from, the card just taken not always among the legal discards.
        hand = hand10 | (1 << extra)
        legal = [Action("discard", CARDS[c]) for c in range(52) if hand >> c & 1 and (allow or c != extra)]
        want, dw = _reference_greedy(hand, legal, None, allow)
        got = greedy_choice({"hand": texts(hand), "discard_pile": [], "options": {}}, legal)
        assert got.action == want, (hand, extra)
        assert got.explanation == N_("Discard {card}: deadwood {deadwood}.", card=want.card, deadwood=dw)


EAAI = {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}


@pytest.mark.parametrize(
    ("variant", "options"),
    [("classic", {}), ("oklahoma", {}), ("hollywood", {}), ("three", {}), ("classic", EAAI)],
    ids=["classic", "oklahoma", "hollywood", "three", "classic-eaai"],
)
def test_act_is_decides_action(variant: str, options: dict[str, object]) -> None:
    """``act`` (no reasons, no values: the simulator's path) plays what ``decide`` chooses, for
    every level and greedy, in every table variant, and where the expert searches close calls
    (EAAI)."""
    levels = ("beginner", "casual", "intermediate", "advanced", "expert")
    n = 3 if variant == "three" else 2
    decisions = 0
    for g, level in enumerate(levels):
        agents = [
            make_agent(level, variant, seed=g * 10 + i) if i == 0 else make_agent("greedy", variant) for i in range(n)
        ]
        st = State.new(variant, options, undo=False)
        for hand in range(3):
            if st.is_terminal:
                break
            st.deal(seed=500 * g + hand)
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                obs, legal = st.observation(seat), st.legal_actions()
                action = agents[seat].act(obs, legal)
                assert action == agents[seat].decide(obs, legal).action
                decisions += 1
                st.apply(action)
    assert decisions > 100

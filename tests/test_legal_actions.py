"""The discard phase's legal actions (computed from per-suit tables and every discard's deadwood
in one pass) against a plain reference: one ``min_deadwood`` call per possible discard."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import BIG_GIN, DISCARD, GIN, KNOCK, Action
from ginrummy.engine import Phase, State
from ginrummy.errors import OptionError
from ginrummy.melds import deadwood_after_discards, deadwood_after_each, min_deadwood
from ginrummy.options import VARIANTS


def reference(s: State) -> list[Action]:
    assert s.current is not None
    hand = s.hands[s.current]
    forbidden = int(s.taken) if s.taken is not None and not s._discard_taken_allowed() else -1
    cards = [c for c in range(52) if hand >> c & 1 and c != forbidden]
    out = [DISCARD[c] for c in cards]
    if s._may_end():
        after = {c: min_deadwood(hand & ~(1 << c)) for c in cards}
        out += [KNOCK[c] for c in cards if after[c] and s._may_knock(after[c])]
        out += [GIN[c] for c in cards if after[c] == 0]
        if s._big_gin_allowed() and min_deadwood(hand) == 0:
            out.append(BIG_GIN)
    return out


def choose(s: State, rng: random.Random) -> Action:
    """Mostly a discard that keeps deadwood low, so that knocks and gins come up often."""
    legal = s.legal_actions()
    enders = [a for a in legal if a.kind in ("knock", "gin")]
    if enders and rng.random() < 0.3:
        return rng.choice(enders)
    if s.phase == Phase.DISCARD and rng.random() < 0.85:
        assert s.current is not None
        hand = s.hands[s.current]
        discards = [a for a in legal if a.kind == "discard"]
        return min(discards, key=lambda a: (min_deadwood(hand & ~(1 << int(a.card or 0))), rng.random()))
    return rng.choice(legal)


@pytest.mark.parametrize("variant", VARIANTS)
def test_discard_phase_matches_the_reference(variant: str) -> None:
    rng = random.Random(variant)
    checked = ends = 0
    for options in ({}, {"big_gin": True}, {"discard_drawn_upcard_allowed": True}):
        try:
            s = State.new(variant, options)
        except OptionError:  # an option this variant does not take
            continue
        for i in range(40):
            if s.is_terminal:
                s = State.new(variant, options)
            s.deal(seed=1000 * i + len(options))
            while not s.is_hand_over:
                if s.phase == Phase.DISCARD:
                    legal = s.legal_actions()
                    assert legal == reference(s)
                    checked += 1
                    ends += any(a.kind in ("knock", "gin") for a in legal)
                s.apply(choose(s, rng))
    assert checked > 100 and ends > 5


def test_every_discards_deadwood_in_one_pass() -> None:
    rng = random.Random(12)
    for n in (0, 1, 4, 10, 11, 12, 16):
        for _ in range(1500):
            ranks = rng.sample(range(13), rng.choice((0, 1, 2, 3)))
            cards = {r + 13 * s for r in ranks for s in rng.sample(range(4), rng.choice((3, 4)))}
            cards |= set(rng.sample(range(52), n))
            hand = sum(1 << c for c in list(cards)[:n])
            expected = [(c, min_deadwood(hand & ~(1 << c))) for c in range(52) if hand >> c & 1]
            assert deadwood_after_each(hand) == expected
            assert {int(c): v for c, v in deadwood_after_discards(hand).items()} == dict(expected)

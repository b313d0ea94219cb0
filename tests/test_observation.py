"""Observations are a security boundary: a seat sees only what the rules show it.

Property tests over random games of every variant, stopped at random points:

- the observation's JSON text never names a card hidden from that seat (another seat's cards
  that are not public, and the stock's cards in the table games) - public are the cards taken
  from the discard pile (``known_cards``), the piles, and everything spread at a showdown; in
  ``three`` the sitter may see the captain's hand (rule 2.2);
- it does not reveal the order of the stock: no value is the stock list, no seed of the hand in
  play appears, and shuffling what the seat cannot see (the stock, the opponent's hidden cards)
  leaves the observation exactly as it was.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.actions import Action
from ginrummy.cards import JOKER, Card, CardSet
from ginrummy.engine import State
from ginrummy.melds import best_discards
from ginrummy.options import VARIANTS

SOLO = ("solitaire", "gin-solitaire")
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "classic": [{}, {"discard_drawn_upcard_allowed": True, "layoffs": False}],
    "oklahoma": [{}],
    "hollywood": [{}],
    "three": [{}, {"end_bonuses": True}],
    "solitaire": [{}, {"end_before_first_draw": True}, {"joker_in_deal": "lose", "scoring": "basic"}],
    "gin-solitaire": [{}, {"end_after_opening_discard": True}],
}


def choose(state: State, rng: random.Random) -> Action:
    legal = state.legal_actions()
    enders = [a for a in legal if a.kind in ("gin", "knock")]
    if enders and rng.random() < 0.3:
        return rng.choice(enders)
    if state.phase == "discard" and rng.random() < 0.8:
        _, best = best_discards(state.hands[state.current_player or 0])
        good = [a for a in legal if a.kind == "discard" and a.card is not None and best >> a.card & 1]
        if good:
            return rng.choice(good)
    return rng.choice(legal)


def play(variant: str, seed: int, steps: int) -> tuple[State, list[int]]:
    """A random game after ``steps`` decisions and deals; and the seeds dealt."""
    rng = random.Random(seed)
    state = State.new(variant, rng.choice(OPTIONS[variant]))
    seeds: list[int] = []
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.needs_deal:
            seeds.append(rng.getrandbits(64))
            state.deal(seed=seeds[-1])
        else:
            state.apply(choose(state, rng))
    return state, seeds


def sitter(state: State) -> int:
    return 3 - state.hand_dealer - state.hand_nondealer


def revealed(state: State) -> bool:
    """Whether the hand just played ended in a showdown (every hand spread face up)."""
    r = state.hand_result
    return state.is_hand_over and r is not None and r.knocker is not None


def hidden_hand_cards(state: State, seat: int) -> dict[int, int]:
    """Per other seat holding cards: the cards ``seat`` may not see (as masks)."""
    if not state.logs or state.variant in SOLO or revealed(state):
        return {}
    out = {}
    for other in state.active_seats:
        if other == seat:
            continue
        if state.variant == "three" and seat == sitter(state) and other == state.hand_nondealer:
            continue  # rule 2.2: the sitter sees the captain's hand
        out[other] = state.hands[other] & ~state.known[other]
    return out


def token(card: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(str(Card(card)))}(?![A-Za-z0-9])")


def values(node: Any) -> list[Any]:
    out = [node]
    if isinstance(node, dict):
        for v in node.values():
            out += values(v)
    elif isinstance(node, list):
        for v in node:
            out += values(v)
    return out


def shuffled_twin(state: State, seat: int, rng: random.Random) -> State:
    """The same game with everything ``seat`` cannot see dealt afresh: the unseen part of the
    stock reshuffled and the opponent's hidden cards exchanged with it."""
    twin = state.clone()
    twin._legal = None  # the acting seat's cards may change below
    if state.variant in SOLO:
        # the discards lie at the bottom (their order is the player's own); above them all is unknown
        keep = len(state.out_of_play) if state.variant == "solitaire" else 0
        top = twin.stock[keep:]
        rng.shuffle(top)
        twin.stock[keep:] = top
        return twin
    hidden = hidden_hand_cards(state, seat)
    pool = list(twin.stock) + [c for m in hidden.values() for c in CardSet(m)]
    rng.shuffle(pool)
    for other, m in hidden.items():
        n = m.bit_count()
        twin.hands[other] = (twin.hands[other] & ~m) | sum(1 << c for c in pool[:n])
        pool = pool[n:]
    twin.stock = pool
    return twin


def check_observation(state: State, seat: int, seeds: list[int], rng: random.Random) -> None:
    obs = state.observation(seat)
    text = json.dumps(obs)
    assert obs["seat"] == seat
    # another seat's hidden cards, and (table games) the stock's cards, are never named
    secret = 0
    for m in hidden_hand_cards(state, seat).values():
        secret |= m
    if state.variant not in SOLO:
        secret |= sum(1 << c for c in state.stock)
    for c in CardSet(secret):
        assert not token(c).search(text), f"seat {seat} sees {Card(c)}"
    # own cards are all there
    if state.variant not in SOLO and state.logs and seat in state.active_seats:
        assert obs["hand"] == [str(c) for c in state.hand(seat)]
    if state.variant == "three" and state.logs and seat == sitter(state):
        assert obs["captain_hand"] == [str(c) for c in state.hand(state.hand_nondealer)]
    elif state.variant == "three":
        assert "captain_hand" not in obs
    # the stock's order: no value is the stock, no key names it, no seed of the hand in play
    stock = [str(c) for c in state.stock]
    if len(stock) >= 3:
        for v in values(obs):
            assert v != stock and v != stock[::-1]
    keys = {k for v in values(obs) if isinstance(v, dict) for k in v}
    assert not keys & {"stock", "deck", "seed", "seeds", "order"}
    if seeds and not state.is_hand_over:
        assert str(seeds[-1]) not in text
    # what the seat cannot see can be anything: a twin with it reshuffled looks the same
    if seat == 1 and state.variant in SOLO:
        return  # the Joker's seat: not a player (its view is built from the player's hand)
    if state.variant in SOLO and state.is_hand_over:
        return  # the count down to the joker has shown the top of the deck
    twin = shuffled_twin(state, seat, rng)
    assert twin.observation(seat) == obs
    assert twin.observation_masks(seat) == state.observation_masks(seat)  # the RL envs' numeric view


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400), check_seed=st.integers(0, 1000))
def test_observations_hide_what_they_must(variant: str, seed: int, steps: int, check_seed: int) -> None:
    state, seeds = play(variant, seed, steps)
    rng = random.Random(check_seed)
    for seat in range(state.num_seats):
        check_observation(state, seat, seeds, rng)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_along_whole_games(variant: str) -> None:
    """Every step of two hands, every seat (the hypothesis test samples single points)."""
    rng = random.Random(VARIANTS.index(variant))
    state = State.new(variant)
    seeds: list[int] = []
    for _ in range(2):
        seeds.append(rng.getrandbits(64))
        state.deal(seed=seeds[-1])
        while True:
            for seat in range(state.num_seats):
                check_observation(state, seat, seeds, rng)
            if state.is_hand_over:
                break
            state.apply(choose(state, rng))


def deal_classic(nondealer: str, dealer: str, rest_top: str) -> State:
    nd, dl = nondealer.split(), dealer.split()
    top = [c for pair in zip(nd, dl, strict=True) for c in pair] + rest_top.split()
    rest = [str(c) for c in CardSet((1 << 52) - 1) if str(c) not in top]
    state = State.new("classic")
    state.deal(top + rest)
    return state


def test_a_card_taken_from_the_pile_is_public_until_discarded() -> None:
    s = deal_classic("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d", "Ah 3h 5h 7h 9h Jh Kh 2s 4s 6s", "8s 8d")
    s.apply("take")  # seat 1 takes the 8s upcard
    assert s.observation(0)["known_cards"] == {"1": ["8s"]}
    assert s.observation(1)["known_cards"] == {"0": []}
    assert "Ac" not in json.dumps(s.observation(0)) and "8s" in s.observation(1)["hand"]
    s.apply("discard Kc")
    assert s.observation(0)["known_cards"] == {"1": ["8s"]} and s.observation(0)["discard_pile"] == ["Kc"]
    s.apply("draw")  # seat 0 draws the 8d: nobody else learns it
    assert not token(Card.parse("8d")).search(json.dumps(s.observation(1)))
    assert s.observation(1)["history"][-1] == {"seat": 0, "action": "draw"}
    s.apply("discard 8d")
    s.apply("draw")
    s.apply("discard 8s")  # seat 1 lets the taken card go: it is no longer known to be held
    assert s.observation(0)["known_cards"] == {"1": []}


def test_the_showdown_shows_both_hands() -> None:
    s = deal_classic("2c 3c 4c Kh Kd Ks 9s Ts Js Ah", "Ad 3d 6d 8d Qd 2h 4h 6h 8h Th", "5s 5d")
    for a in ("pass", "pass", "draw", "knock 5d"):
        s.apply(a)
    for seat in (0, 1):
        result = s.observation(seat)["result"]
        assert result["knocker"] == 1 and result["knocker_unmatched"] == ["Ah"]
        spread = [*result["defender_unmatched"], *result["laid_off"], *(c for m in result["defender_melds"] for c in m)]
        assert sorted(spread) == sorted(str(c) for c in s.hand(0))


def test_three_player_views() -> None:
    s = State.new("three", players=["Box", "Captain", "Sitter"])
    s.deal(seed=21)
    box, captain, sit = (s.observation(i) for i in range(3))
    assert box["roles"] == {"box": 0, "captain": 1, "sitter": 2}
    assert sit["hand"] == [] and sit["captain_hand"] == captain["hand"] and len(captain["hand"]) == 10
    assert "captain_hand" not in box and "captain_hand" not in captain
    for c in s.hand(0):
        assert not token(c).search(json.dumps(sit)) and not token(c).search(json.dumps(captain))
    for c in s.hand(1):
        assert not token(c).search(json.dumps(box))
    assert box["legal_actions"] == [] and captain["legal_actions"] == ["take", "pass"] and sit["legal_actions"] == []


def test_three_box_keeps_seeing_his_hand_after_it_ends() -> None:
    """Regression (engine fix): after a hand the box lost, the roles rotate for the next deal, but
    the cards on the table are still this hand's: the old box sees his own hand, the new sitter
    (who held no cards) sees none."""
    rng = random.Random(3)
    s = State.new("three")
    s.deal(seed=77)
    while not s.is_hand_over:
        s.apply(choose(s, rng))
    r = s.hand_result
    assert r is not None
    for seat in range(3):
        obs = s.observation(seat)
        want = [str(c) for c in s.hand(seat)] if seat in (s.hand_dealer, s.hand_nondealer) else []
        assert obs["hand"] == want
        assert obs["roles"] == {"box": s.hand_dealer, "captain": s.hand_nondealer, "sitter": sitter(s)}


def test_solitaire_view() -> None:
    s = State.new("solitaire")
    s.deal(seed=5)
    while s.is_hand_over:  # a redeal when the joker was dealt
        s.deal(seed=s.hand_number + 100)
    obs = s.observation(0)
    assert len(obs["hand"]) == 11 and obs["deck_size"] == 42
    assert obs["cards_above_joker_max"] == 41 and obs["joker_next_chance"] == pytest.approx(1 / 42)
    assert sorted(obs["unseen"] + obs["hand"]) == sorted(str(c) for c in CardSet((1 << 52) - 1))
    assert JOKER in s.stock and "JK" not in json.dumps(obs)

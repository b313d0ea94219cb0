"""``State.observation_masks``: the numeric observation of the RL environments' hot path.

It must say exactly what ``State.observation`` says (field by field, and the encoded arrays must
be identical), and, like it, nothing that depends on cards the seat cannot see."""

from __future__ import annotations

import random

import pytest

from ginrummy.cards import CardSet
from ginrummy.engine import SEATS, State
from ginrummy.errors import IllegalAction
from ginrummy.observe import MaskObservation

np = pytest.importorskip("numpy")

from ginrummy.envs.encoding import encode, encode_state  # noqa: E402

VARIANTS = list(SEATS)
SOLO = ("solitaire", "gin-solitaire")


def _mask(cards: list[str] | None) -> int:
    return int(CardSet.parse(" ".join(cards))) if cards else 0


def _states(variant: str, seed: int, hands: int = 3) -> list[State]:
    """Every state of a few random hands (clones), from before the first deal to the game's end."""
    rng = random.Random(seed)
    s = State.new(variant)
    out = [s.clone()]
    while not s.is_terminal and s.hand_number <= hands:
        if s.needs_deal:
            s.deal(seed=rng.randrange(2**32))
        else:
            s.apply(rng.choice(s.legal_actions()))
        out.append(s.clone())
    return out


def _agrees(m: MaskObservation, obs: dict, state: State) -> None:
    assert m.seat == obs["seat"] and m.hand_number == obs["hand_number"] and m.phase == obs["phase"]
    assert m.to_act == obs["to_act"]
    assert [str(state.legal_actions()[i]) for i in range(len(m.legal))] == obs["legal_actions"]
    assert list(m.legal) == [a.id for a in state.legal_actions()][: len(m.legal)]
    assert m.totals == tuple(obs["totals"])
    assert m.own == _mask(obs.get("hand"))
    assert m.held == (_mask(obs.get("captain_hand")) if obs.get("captain_hand") else m.own)
    assert m.deadwood == obs.get("deadwood")
    if state.variant in SOLO:
        assert m.pile == _mask(obs.get("discards"))
        assert m.stock_size == obs.get("deck_size", 0)
        if "unseen" in obs:
            assert m.unseen == _mask(obs["unseen"])
        elif obs["hand_number"]:
            assert m.unseen == 0  # the Joker's seat
        assert m.draws == obs.get("draws", 0)
    else:
        assert m.pile == _mask(obs.get("discard_pile"))
        assert m.stock_size == obs.get("stock_size", 0)
        assert m.known == _mask([c for cards in (obs.get("known_cards") or {}).values() for c in cards]) & ~m.held
        if obs["hand_number"]:
            assert m.dealer == obs["dealer"]
    if obs["hand_number"]:
        assert m.knock_limit == obs["knock_limit"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_say_what_the_observation_says(variant: str) -> None:
    for seed in range(4):
        for state in _states(variant, seed):
            for seat in range(state.num_seats):
                obs = state.observation(seat)
                _agrees(state.observation_masks(seat), obs, state)
                a, b = encode(obs), encode_state(state, seat)
                assert np.array_equal(a["observation"], b["observation"]), (variant, seat, state.phase)
                assert np.array_equal(a["action_mask"], b["action_mask"])
                assert b["observation"].flags.writeable and b["action_mask"].flags.writeable


def _hidden_swapped(state: State, seat: int, rng: random.Random) -> State:
    """The same game with the cards ``seat`` cannot see (an opponent's unrevealed cards and the
    stock; in the solitaires, the order of the deck above the discards) dealt afresh."""
    twin = state.clone()
    twin._legal = None
    if state.variant in SOLO:
        keep = len(state.out_of_play) if state.variant == "solitaire" else 0
        top = twin.stock[keep:]
        rng.shuffle(top)
        twin.stock[keep:] = top
        return twin
    hidden: dict[int, int] = {}
    for other in state.active_seats:
        if other == seat:
            continue
        sitter = 3 - state.hand_dealer - state.hand_nondealer
        if state.variant == "three" and seat == sitter and other == state.hand_nondealer:
            continue  # the sitter sees the captain's hand
        hidden[other] = state.hands[other] & ~state.known[other]
    pool = list(twin.stock) + [c for m in hidden.values() for c in CardSet(m)]
    rng.shuffle(pool)
    for other, m in hidden.items():
        n = m.bit_count()
        twin.hands[other] = (twin.hands[other] & ~m) | sum(1 << c for c in pool[:n])
        pool = pool[n:]
    twin.stock = pool
    return twin


@pytest.mark.parametrize("variant", VARIANTS)
def test_masks_do_not_depend_on_hidden_cards(variant: str) -> None:
    rng = random.Random(variant)
    checked = 0
    for state in _states(variant, 11, hands=2):
        if state.is_hand_over or not state.logs:
            continue  # a showdown (or the count to the joker) reveals what was hidden
        for seat in range(state.num_seats):
            if variant in SOLO and seat == 1:
                continue  # the Joker's seat is no player
            twin = _hidden_swapped(state, seat, rng)
            assert twin.observation_masks(seat) == state.observation_masks(seat)
            checked += 1
    assert checked > 20


def test_masks_refuse_a_seat_that_does_not_exist() -> None:
    s = State.new("classic")
    with pytest.raises(IllegalAction, match="no seat 2"):
        s.observation_masks(2)

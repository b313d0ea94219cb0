"""``State.observation_masks``: the numeric observation of the RL environments' hot path.

It must say exactly what ``State.observation`` says (field by field, and the encoded arrays must
be identical). That it shows nothing that depends on cards the seat cannot see is checked with
``State.observation`` in test_observation.py, on the same reshuffled twins."""

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


def test_masks_refuse_a_seat_that_does_not_exist() -> None:
    s = State.new("classic")
    with pytest.raises(IllegalAction, match="no seat 2"):
        s.observation_masks(2)


@pytest.mark.parametrize("variant", sorted(SEATS))
def test_observe_arrays_fast_path_equals_the_observer(variant: str) -> None:
    """The environments' hot path (``observe_arrays``: a table hand in play written straight from
    the state) gives the observer's arrays byte for byte, for every seat at every step, the hands'
    ends included."""
    from ginrummy.observe import Observer, observe_arrays

    for game in range(4):
        rng = random.Random(game)
        st = State.new(variant, undo=False)
        for hand in range(2):
            if st.is_terminal:
                break
            st.deal(seed=100 * game + hand)
            while True:
                for seat in range(st.num_seats):
                    assert observe_arrays(st, seat) == Observer(st, seat).arrays()
                if st.is_hand_over:
                    break
                st.apply(rng.choice(st.legal_actions()))

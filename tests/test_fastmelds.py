"""The vectorised meld engine (ginrummy.fastmelds) against the pure-Python engine, exactly."""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginrummy.fastmelds as fastmelds
from ginrummy import melds
from ginrummy.cards import CardSet, parse_cards
from ginrummy.errors import CardError

np = pytest.importorskip("numpy")

REFERENCE = Path(__file__).resolve().parent / "data" / "deadwood_reference.jsonl"


def random_hands(seed: int, count: int, sizes: range, pool: list[int] | None = None) -> list[int]:
    rng = random.Random(seed)
    cards = pool if pool is not None else list(range(52))
    return [sum(1 << c for c in rng.sample(cards, rng.choice(sizes))) for _ in range(count)]


def pure_md(hands: list[int]) -> list[int]:
    return [melds.min_deadwood(h) for h in hands]


def pure_bd(hands: list[int]) -> tuple[list[int], list[int]]:
    pairs = [melds.best_discards(h) for h in hands]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def check_md(hands: list[int]) -> None:
    got = fastmelds.min_deadwood_batch(hands)
    assert got.dtype == np.int32 and got.shape == (len(hands),)
    assert got.tolist() == pure_md(hands)


def check_bd(hands: list[int]) -> None:
    dw, cards = fastmelds.best_discards_batch(hands)
    assert dw.dtype == np.int32 and cards.dtype == np.int64
    assert (dw.tolist(), cards.tolist()) == pure_bd(hands)


# Only ranks 2..8 (set-rich: most hands hold sets, often two or three, and fours of a kind).
SET_RICH_POOL = [s * 13 + r for s in range(4) for r in range(1, 8)]


def test_doctests() -> None:
    assert doctest.testmod(fastmelds).failed == 0


def test_random_hands_every_size() -> None:
    hands = random_hands(1, 40_000, range(12))
    check_md(hands)
    check_bd(hands)


def test_random_ten_and_eleven_card_hands_across_chunks() -> None:
    # More hands than one step (CHUNK) takes, so the chunked loop and its joins are covered.
    hands10 = random_hands(2, fastmelds.CHUNK + 5_000, range(10, 11))
    check_md(hands10)
    hands11 = random_hands(3, fastmelds.CHUNK + 5_000, range(11, 12))
    check_bd(hands11)


def test_set_rich_hands_bulk() -> None:
    hands = random_hands(4, 30_000, range(12), SET_RICH_POOL)
    check_md(hands)
    check_bd(hands)


def test_four_of_a_kind_rich_hands() -> None:
    # Hands built from whole ranks: two or three fours of a kind plus a few loose cards.
    rng = random.Random(5)
    hands = []
    for _ in range(5_000):
        ranks = rng.sample(range(13), rng.choice((2, 3)))
        m = sum(melds._RANK_MASKS[r] for r in ranks)
        free = [c for c in range(52) if not m >> c & 1]
        for c in rng.sample(free, max(0, 11 - m.bit_count())):
            m |= 1 << c
        # Drop cards at random down to 10 or 11 (often leaving threes and fours of a kind).
        while m.bit_count() > rng.choice((10, 11)):
            cards = [c for c in range(52) if m >> c & 1]
            m &= ~(1 << rng.choice(cards))
        hands.append(m)
    check_md(hands)
    check_bd(hands)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SET_RICH_POOL), min_size=0, max_size=11, unique=True), max_size=40))
def test_hypothesis_set_rich(hand_lists: list[list[int]]) -> None:
    hands = [sum(1 << c for c in cards) for cards in hand_lists]
    check_md(hands)
    check_bd(hands)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True), max_size=40))
def test_hypothesis_any_hands(hand_lists: list[list[int]]) -> None:
    hands = [sum(1 << c for c in cards) for cards in hand_lists]
    check_md(hands)
    check_bd(hands)


def test_large_hands_exact() -> None:
    # Beyond 11 cards the results stay exact (very set-rich ones go through the pure engine).
    hands = random_hands(6, 300, range(12, 19), SET_RICH_POOL) + random_hands(7, 300, range(12, 21))
    check_md(hands)
    check_bd([h for h in hands if h.bit_count() <= 15])


def test_reference_data_exact() -> None:
    records = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
    tens = [r for r in records if len(r["cards"]) != 11]
    elevens = [r for r in records if len(r["cards"]) == 11]
    assert tens and elevens
    got = fastmelds.min_deadwood_batch([int(CardSet.of(parse_cards(r["cards"]))) for r in tens])
    assert got.tolist() == [r["min_deadwood"] for r in tens]
    dw, cards = fastmelds.best_discards_batch([int(CardSet.of(parse_cards(r["cards"]))) for r in elevens])
    for r, d, c in zip(elevens, dw.tolist(), cards.tolist(), strict=True):
        assert d == r["min_deadwood_after_best_discard"], r
        assert sorted(str(x) for x in CardSet(c)) == sorted(r["best_discards"]), r


def test_inputs_arrays_and_iterables() -> None:
    hands = random_hands(8, 1_000, range(12))
    expected = pure_md(hands)
    assert fastmelds.min_deadwood_batch(np.array(hands, dtype=np.uint64)).tolist() == expected
    assert fastmelds.min_deadwood_batch(np.array(hands, dtype=np.int64)).tolist() == expected
    assert fastmelds.min_deadwood_batch(iter(hands)).tolist() == expected
    assert fastmelds.min_deadwood_batch([CardSet(h) for h in hands]).tolist() == expected
    assert fastmelds.min_deadwood_batch([]).tolist() == []
    dw, cards = fastmelds.best_discards_batch(np.array([], dtype=np.uint64))
    assert dw.tolist() == [] and cards.tolist() == []
    # The empty hand has no discard, as in the pure engine.
    assert fastmelds.best_discards_batch([0])[0].tolist() == [melds.best_discards(0)[0]]


@pytest.mark.parametrize("bad", [[1 << 52], [-1], [1 << 63], [1.5], ["7"], [[1, 2]]])
def test_rejects_non_masks(bad: list[object]) -> None:
    with pytest.raises(CardError):
        fastmelds.min_deadwood_batch(bad)
    with pytest.raises(CardError):
        fastmelds.best_discards_batch(bad)


def test_min_deadwood_many_uses_batch_and_stays_identical() -> None:
    hands = random_hands(9, 5_000, range(12), SET_RICH_POOL) + random_hands(10, 5_000, range(12))
    assert fastmelds.min_deadwood_many(hands) == pure_md(hands)
    assert all(type(x) is int for x in fastmelds.min_deadwood_many(hands))
    assert fastmelds.min_deadwood_many(iter(hands)) == pure_md(hands)
    small = hands[: fastmelds.VECTOR_MIN - 1]
    assert fastmelds.min_deadwood_many(small) == pure_md(small)
    # Anything the vectorised path refuses goes through the loop, with its old behaviour.
    with pytest.raises(TypeError):
        fastmelds.min_deadwood_many([1.5] * fastmelds.VECTOR_MIN)


def test_fallback_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fastmelds, "_numpy", lambda: None)
    assert not fastmelds.have_numpy()
    hands = random_hands(11, 2_000, range(12), SET_RICH_POOL)
    assert fastmelds.min_deadwood_batch(hands) == pure_md(hands)
    dw, cards = fastmelds.best_discards_batch(hands)
    assert (dw, cards) == pure_bd(hands)
    assert fastmelds.min_deadwood_many(hands) == pure_md(hands)

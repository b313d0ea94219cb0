"""The compiled meld kernel (``ginrummy.jitmelds``, the ``[jit]`` extra) against the pure-Python
reference (``ginrummy.melds``) on every test hand: random hands of every size, the reference data,
hands with sets and four of a kind, and bad masks.  Skipped when numba is not installed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from ginrummy import jitmelds, melds  # noqa: E402  (after the skips)
from ginrummy.cards import CardSet, parse_cards  # noqa: E402
from ginrummy.errors import CardError  # noqa: E402

REFERENCE = Path(__file__).resolve().parent / "data" / "deadwood_reference.jsonl"


def check(hands: list[int]) -> None:
    got = jitmelds.min_deadwood_batch(hands)
    assert got.dtype == np.int32
    assert got.tolist() == [melds.min_deadwood(h) for h in hands]
    dw, cards = jitmelds.best_discards_batch(hands)
    assert list(zip(dw.tolist(), cards.tolist(), strict=True)) == [melds.best_discards(h) for h in hands]


def test_available() -> None:
    assert jitmelds.available()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 9, 10, 11, 12, 14, 17, 26])
def test_random_hands_of_every_size(size: int) -> None:
    rng = random.Random(size)
    check([sum(1 << c for c in rng.sample(range(52), size)) for _ in range(3000)])


def test_hands_rich_in_sets() -> None:
    """Hands built around one to four ranks held three or four times (the set paths)."""
    rng = random.Random(4)
    hands = []
    for _ in range(8000):
        ranks = rng.sample(range(13), rng.choice((1, 1, 2, 3, 4)))
        cards = {r + 13 * s for r in ranks for s in rng.sample(range(4), rng.choice((3, 4)))}
        cards |= set(rng.sample(range(52), rng.choice((0, 3, 7, 10))))
        keep = sorted(cards)
        rng.shuffle(keep)
        hands.append(sum(1 << c for c in keep[: rng.choice((10, 11, len(keep)))]))
    check(hands)


def test_reference_data() -> None:
    records = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
    hands = [int(CardSet.of(parse_cards(r["cards"]))) for r in records]
    md = jitmelds.min_deadwood_batch(hands).tolist()
    dw, cards = jitmelds.best_discards_batch(hands)
    for r, m, d, c in zip(records, md, dw.tolist(), cards.tolist(), strict=True):
        if len(r["cards"]) == 11:
            assert d == r["min_deadwood_after_best_discard"], r
            assert sorted(str(x) for x in CardSet(c)) == sorted(r["best_discards"]), r
        else:
            assert m == r["min_deadwood"], r


def test_arrays_and_lists_alike() -> None:
    rng = random.Random(9)
    hands = [sum(1 << c for c in rng.sample(range(52), 10)) for _ in range(500)]
    expected = [melds.min_deadwood(h) for h in hands]
    for form in (hands, np.array(hands, dtype=np.uint64), np.array(hands, dtype=np.int64), np.array(hands)[::-1][::-1]):
        assert jitmelds.min_deadwood_batch(form).tolist() == expected
    assert jitmelds.min_deadwood_batch(np.array(hands, dtype=np.int64)[::2]).tolist() == expected[::2]
    assert jitmelds.min_deadwood_batch([]).tolist() == []


def test_empty_hand_as_the_reference() -> None:
    dw, cards = jitmelds.best_discards_batch([0])
    assert (int(dw[0]), int(cards[0])) == melds.best_discards(0) == (jitmelds.NO_DISCARD, 0)


@pytest.mark.parametrize("bad", [1 << 52, (1 << 64) - 1, 1 << 63])
def test_bad_masks_are_refused(bad: int) -> None:
    good = int(CardSet.parse("As 2s 3s"))
    for fn in (jitmelds.min_deadwood_batch, jitmelds.best_discards_batch):
        with pytest.raises(CardError, match="not a hand of real cards"):
            fn(np.array([good, bad], dtype=np.uint64))
    with pytest.raises(CardError):
        jitmelds.min_deadwood_batch([good, -1])

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrummy.cards import CARDS, JOKER, Card, CardError, CardSet, ShuffleStream, parse_cards, shuffled


@given(st.integers(0, 52))
def test_round_trip_ascii_and_unicode(i: int) -> None:
    c = Card(i)
    assert Card.parse(str(c)) == c
    assert Card.parse(c.unicode()) == c
    assert Card.parse(str(c).lower()) == c


@pytest.mark.parametrize(
    "text,expected",
    [("As", "As"), ("td", "Td"), ("10d", "Td"), ("7♥", "7h"), ("q♠", "Qs"), ("JK", "JK"), ("joker", "JK")],
)
def test_parse_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("bad", ["", "1s", "Zs", "A", "Ax", "11h", "10", "AAs"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        Card.parse(bad)


def test_values_and_ranks() -> None:
    assert [Card.parse(x).value for x in ("As", "7d", "Tc", "Jh", "Qs", "Kd")] == [1, 7, 10, 10, 10, 10]
    assert Card.parse("Kd").rank == 13 and JOKER.value == 0 and JOKER.is_joker


def test_parse_cards_errors() -> None:
    with pytest.raises(CardError, match="duplicate card 'As'"):
        parse_cards("As Ks As")
    with pytest.raises(CardError, match="joker"):
        parse_cards("As JK")
    assert parse_cards("As JK", allow_joker=True)[1] == JOKER


def test_cardset() -> None:
    s = CardSet.parse("Kd 2c 3c")
    assert len(s) == 3 and Card.parse("Kd") in s and Card.parse("Ks") not in s
    assert str(s) == "2c 3c Kd" and s.value == 15
    assert str(s - CardSet.parse("2c")) == "3c Kd"


def test_seeded_shuffle_reproducible_and_a_permutation() -> None:
    a = shuffled(12345)
    assert a == shuffled(12345) and a != shuffled(12346)
    assert sorted(a) == list(CARDS)
    b = shuffled(1, joker=True)
    assert len(b) == 53 and JOKER in b


def test_shuffle_stream_uniform_enough() -> None:
    s = ShuffleStream(99)
    counts = [0] * 7
    for _ in range(7000):
        counts[s.below(7)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_bad_seed() -> None:
    with pytest.raises(CardError, match="seed"):
        ShuffleStream(-1)

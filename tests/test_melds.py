"""The meld engine against the independent reference data, a brute-force solver and properties."""

from __future__ import annotations

import doctest
import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginrummy.cards
import ginrummy.i18n
import ginrummy.melds
import ginrummy.melds.arrange
import ginrummy.melds.deadwood
import ginrummy.melds.layoffs
import ginrummy.melds.tables
import pseudo_audit
from ginrummy.cards import CARDS, CardSet, parse_cards
from ginrummy.errors import CardError
from ginrummy.melds import (
    all_melds,
    best_arrangement,
    best_defense,
    best_discards,
    deadwood_after_discards,
    hand_mask,
    is_meld,
    layoff_closure,
    min_deadwood,
    min_deadwood_many,
    optimal_arrangements,
)

REFERENCE = Path(__file__).resolve().parent / "data" / "deadwood_reference.jsonl"


def mask(text: str) -> int:
    return int(CardSet.parse(text))


def test_doctests() -> None:
    m = ginrummy.melds
    modules = (ginrummy.cards, m, m.tables, m.deadwood, m.arrange, m.layoffs)
    with ginrummy.i18n.using("en"):  # the examples are written in English (also in the pseudo-locale run)
        results = [doctest.testmod(module) for module in modules]
    assert all(r.failed == 0 for r in results) and all(r.attempted for r in results[:4])


def test_reference_data_exact() -> None:
    records = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
    assert len(records) == 7000
    for r in records:
        m = int(CardSet.of(parse_cards(r["cards"])))
        if len(r["cards"]) == 11:
            d, cards = best_discards(m)
            assert d == r["min_deadwood_after_best_discard"], r
            assert sorted(str(c) for c in CardSet(cards)) == sorted(r["best_discards"]), r
        else:
            assert min_deadwood(m) == r["min_deadwood"], r
            assert best_arrangement(m).deadwood == r["min_deadwood"], r


def brute_force(m: int) -> int:
    """Least deadwood by trying every disjoint combination of melds (independent of the engine)."""
    cards = [c for c in range(52) if m >> c & 1]
    melds: list[int] = []
    for r in range(13):
        same = [c for c in cards if c % 13 == r]
        for size in (3, 4):
            from itertools import combinations

            for combo in combinations(same, size):
                melds.append(sum(1 << c for c in combo))
    for s in range(4):
        ranks = [c % 13 for c in cards if c // 13 == s]
        for lo in range(13):
            for hi in range(lo + 3, 14):
                if all(r in ranks for r in range(lo, hi)):
                    melds.append(sum(1 << (s * 13 + r) for r in range(lo, hi)))

    @cache
    def best(rest: int, start: int) -> int:
        value = sum(CARDS[c].value for c in range(52) if rest >> c & 1)
        for i in range(start, len(melds)):
            if melds[i] & rest == melds[i]:
                value = min(value, best(rest & ~melds[i], i + 1))
        return value

    return best(m, 0)


hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True).map(lambda cs: sum(1 << c for c in cs))
# Hands rich in sets and runs, where the engine's set enumeration matters most.
dense_hands = st.lists(
    st.sampled_from([r + 13 * s for r in range(2, 8) for s in range(4)]), min_size=8, max_size=11, unique=True
).map(lambda cs: sum(1 << c for c in cs))


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, dense_hands))
def test_min_deadwood_matches_brute_force(m: int) -> None:
    assert min_deadwood(m) == brute_force(m)


@settings(max_examples=200, deadline=None)
@given(st.one_of(hands, dense_hands))
def test_arrangement_properties(m: int) -> None:
    arr = best_arrangement(m)
    used = 0
    for meld in arr.melds:
        mm = sum(1 << c for c in meld)
        assert is_meld(mm)
        assert used & mm == 0
        used |= mm
    unmatched = sum(1 << c for c in arr.unmatched)
    assert used & unmatched == 0 and used | unmatched == m
    assert arr.deadwood == sum(c.value for c in arr.unmatched) == min_deadwood(m)
    for other in optimal_arrangements(m):
        assert other.deadwood == arr.deadwood
    assert best_arrangement(m).melds in {a.melds for a in optimal_arrangements(m)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=11, max_size=11, unique=True))
def test_best_discard_exact(cards: list[int]) -> None:
    m = sum(1 << c for c in cards)
    d, discards = best_discards(m)
    after = deadwood_after_discards(m)
    assert d == min(after.values())
    assert discards == sum(1 << c for c, v in after.items() if v == d)
    # Adding a card never raises the best deadwood above that of the ten cards it came to.
    for c in cards:
        assert d <= min_deadwood(m & ~(1 << c))


def test_openspiel_shortcut_case_is_gin() -> None:
    d, discards = best_discards(mask("3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h"))
    assert d == 0 and str(CardSet(discards)) == "6c"


def test_four_of_a_kind_split() -> None:
    arr = best_arrangement(mask("5c 5d 5h 5s 6s 7s Tc Jc Qc 2d"))
    assert arr.deadwood == 2
    assert ("5c", "5d", "5h") in {tuple(str(c) for c in m) for m in arr.melds}


def test_aces_low_no_wrap() -> None:
    assert min_deadwood(mask("Qs Ks As 4d 5d 6d 8c 8h 8s 2h")) == 23


def test_all_melds_lists_sub_runs_and_sets() -> None:
    melds = {" ".join(str(c) for c in m) for m in all_melds(mask("4h 5h 6h 7h 7c 7d"))}
    assert melds == {"4h 5h 6h", "5h 6h 7h", "4h 5h 6h 7h", "7c 7d 7h"}


def test_optimal_arrangements_lists_every_partition() -> None:
    arrs = optimal_arrangements(mask("3h 4h 5h 6h 7h 8h"))
    assert {tuple(" ".join(map(str, m)) for m in a.melds) for a in arrs} == {
        ("3h 4h 5h 6h 7h 8h",),
        ("3h 4h 5h", "6h 7h 8h"),
    }


def test_chained_layoffs() -> None:
    knocker = [parse_cards("5s 6s 7s")]
    assert str(layoff_closure(knocker, parse_cards("8s 9s Ts 2c"))) == "8s 9s Ts"
    d = best_defense(knocker, parse_cards("8s 9s Ts 2c Kd"))
    assert d.deadwood == 12 and len(d.laid_off) == 0  # 8-9-T is its own run: no need to lay off


def test_layoffs_rule_book_s18_s19_c17() -> None:
    d = best_defense(
        [parse_cards(x) for x in ("4s 5s 6s", "Jd Jc Jh", "Ac 2c 3c")], parse_cards("3s 7s 8s Kc Kd Kh 9d 2h 5h 9c")
    )
    assert sorted(map(str, d.laid_off)) == ["3s", "7s", "8s"] and d.deadwood == 25
    d = best_defense(
        [parse_cards(x) for x in ("7c 7d 7h", "8h 9h Th", "2c 3c 4c")], parse_cards("7s Jh 6h 5h Kc Kd Ks 9c 9d 2d")
    )
    assert sorted(map(str, d.laid_off)) == ["7s", "Jh"] and d.deadwood == 31
    d = best_defense(
        [parse_cards(x) for x in ("8c 8d 8h", "Qc Qd Qh", "3s 4s 5s")], parse_cards("8s Qs 2s 6s 7s Kh Kc Kd 9h Th")
    )
    assert d.deadwood == 19
    d = best_defense(
        [parse_cards(x) for x in ("5d 6d 7d", "Jc Jh Js", "2h 3h 4h")], parse_cards("4d 8d 9d Kc Kd Ks 6c 6h Ac 2c")
    )
    assert d.deadwood == 15 and sorted(map(str, d.laid_off)) == ["4d", "8d", "9d"]


def test_batch_matches_single() -> None:
    import random

    rng = random.Random(7)
    hs = [sum(1 << c for c in rng.sample(range(52), 10)) for _ in range(2000)]
    assert min_deadwood_many(hs) == [min_deadwood(h) for h in hs]


def test_lists_of_cards_give_the_mask_answers() -> None:
    import random

    rng = random.Random(11)
    for n in (0, 3, 10, 11, 14):
        for _ in range(300):
            cards = rng.sample(range(52), n)
            m = sum(1 << c for c in cards)
            assert hand_mask(cards) == hand_mask(tuple(cards)) == hand_mask(iter(cards)) == m
            assert min_deadwood(cards) == min_deadwood([CARDS[c] for c in cards]) == min_deadwood(m)
            assert min_deadwood(CardSet(m)) == min_deadwood(m)
            if n:
                assert best_discards(cards) == best_discards(m)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([1, 1], "duplicate card 2c"),
        ([0, 5, 0], "duplicate card Ac"),
        ([52], "not a real card: 52"),
        ([-1], "not a real card: -1"),
        ([3, -52], "not a real card: -52"),
        ([1.0], "not a real card: 1.0"),
        (["As"], "not a real card: 'As'"),
        ((0, 60), "not a real card: 60"),
    ],
)
def test_bad_card_lists_are_refused_by_name(cards: list[object], message: str) -> None:
    for fn in (hand_mask, min_deadwood, best_discards):
        with pytest.raises(CardError) as caught:
            fn(cards)  # type: ignore[arg-type]  # bad cards on purpose
        assert pseudo_audit.plain(str(caught.value)) == message

"""Conformance with the rule book (issue 13, item 5): rules 0.7, 0.8, 0.9.3, 1.2 and 2.1.

Each test deals a chosen deck, plays the rule's situation and checks the result and that the game's
record replays to the same game.
"""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.cards import JOKER, Card, CardSet, full_pack
from ginrummy.engine import State
from ginrummy.errors import IllegalAction
from ginrummy.melds import lay_off_all
from ginrummy.record import replay

GIN_TEN = "Ah 2h 3h 4h 5c 5d 5s 9s Ts Js"  # all ten melded: Ah-4h, the fives, 9s-Js
JUNK_TEN = "2c 4c 6c 8c Tc Qd 2d 6h 8h Qh"  # no meld, nothing to lay off on GIN_TEN's melds


def table_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    """A deck for the table games: the first hand's non-dealer (seat 1; the captain in three) gets
    ``nondealer``, the dealer (seat 0; the box) ``dealer``; then the upcard and the stock's top."""
    nd, d = list(CardSet.parse(nondealer)), list(CardSet.parse(dealer))
    head = [c for pair in zip(nd, d, strict=True) for c in pair]
    head += list(CardSet.parse(upcard)) + list(CardSet.parse(stock_top))
    return head + [c for c in full_pack() if c not in head]


def solo_deck(dealt: str, then: str, *, eleven: bool = False) -> list[Card]:
    """A solitaire deck: ``dealt`` on top, then ``then`` in order; the joker at the bottom."""
    head = list(CardSet.parse(dealt)) + [Card.parse(c) for c in then.split()]
    return head + [c for c in full_pack() if c not in head] + [JOKER]


def same_replay(state: State) -> None:
    again = replay(state.to_record())
    assert again.to_record() == state.to_record()
    assert again.results == state.results and again.totals == state.totals


def knock_with_gin(variant: str, options: dict[str, Any], action: str) -> State:
    """The player to act holds GIN_TEN and draws Kc, then plays ``action``."""
    state = State.new(variant, options)
    if variant in ("solitaire", "gin-solitaire"):
        if variant == "solitaire":
            state.deal(solo_deck(GIN_TEN, "Kc"))
        else:
            state.deal(solo_deck(GIN_TEN + " Qc", "Kc"))
            state.apply("discard Qc")  # the opening discard (rule 4.2); then Kc is drawn
    else:
        state.deal(table_deck(GIN_TEN, JUNK_TEN, "Kd", "Kc"))
        for a in ("pass", "pass", "draw"):
            state.apply(a)
    assert state.phase == "discard" and Card.parse("Kc") in state.hand(state.current_player or 0)
    state.apply(action)
    return state


CASES = [
    ("classic", {}),
    ("classic", {"preset": "classic", "layoffs": False}),
    ("oklahoma", {}),
    ("hollywood", {}),
    ("three", {}),
    ("solitaire", {}),
    ("solitaire", {"scoring": "basic"}),
    ("solitaire", {"scoring": "none"}),
    ("gin-solitaire", {}),
]


@pytest.mark.parametrize(("variant", "options"), CASES)
@pytest.mark.parametrize("action", ["knock Kc", "knock Kc | Ah2h3h4h 5c5d5s 9sTsJs"])
def test_knocking_with_deadwood_zero_is_gin(variant: str, options: dict[str, Any], action: str) -> None:
    """Rule 0.7: ``knock Kc`` whose kept ten are all melded scores as gin, declared melds or not."""
    state = knock_with_gin(variant, options, action)
    gin = knock_with_gin(variant, options, action.replace("knock", "gin"))
    r, g = state.hand_result, gin.hand_result
    assert r is not None and g is not None
    assert r.result == "gin" and r.points == g.points and r.deadwood == g.deadwood
    assert r.knocker_melds == g.knocker_melds
    assert state.to_record()["hands"][-1]["actions"][-1] == action.replace("knock", "gin")
    same_replay(state)


def test_a_declared_knock_that_is_not_optimal_is_a_knock() -> None:
    """Rule 0.8: the knocker may spread a worse arrangement within the limit; it is scored as declared."""
    state = knock_with_gin("classic", {}, "knock Kc | Ah2h3h 5c5d5s 9sTsJs")
    r = state.hand_result
    assert r is not None and r.result == "knock" and r.deadwood[1] == 4
    assert [str(c) for c in r.knocker_unmatched] == ["4h"]
    same_replay(state)


def test_gin_declared_with_deadwood_is_refused() -> None:
    state = State.new("classic")
    state.deal(table_deck(GIN_TEN, JUNK_TEN, "Kd", "Kc"))
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    before = state.to_record()
    with pytest.raises(IllegalAction, match="meld every card"):
        state.apply("gin Kc | Ah2h3h 5c5d5s 9sTsJs")
    with pytest.raises(IllegalAction, match="not legal"):
        state.apply("knock | Ah2h3h4h 5c5d5s 9sTsJs")  # a knock discards
    assert state.to_record() == before


def test_knocking_the_dealt_ten_in_the_solitaire_opening_is_gin() -> None:
    state = State.new("solitaire", {"end_before_first_draw": True})
    state.deal(solo_deck(GIN_TEN, "Kc"))
    assert [str(a) for a in state.legal_actions()] == ["draw", "gin"]
    state.apply("knock")
    r = state.hand_result
    assert r is not None and r.result == "gin" and state.to_record()["hands"][0]["actions"] == ["gin"]
    same_replay(state)


def test_oklahoma_ace_upcard_gin_only_takes_a_knock_with_nothing_left() -> None:
    state = State.new("oklahoma")
    state.deal(table_deck(GIN_TEN, JUNK_TEN, "Ac", "Kc"))
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    assert state.knock_limit == 0
    state.apply("knock Kc")
    assert state.hand_result is not None and state.hand_result.result == "gin"


# --- rule 0.9.3: explicit layoffs chain ----------------------------------------------------------
KNOCKER = "7c 7d 7s 4h 5h 6h As Ad 2s 3c"  # melds 7c7d7s and 4h5h6h, deadwood 7
DEFENDER = "7h 8h Qd Js 9c Jd Qs 5d 2h Kh"  # 7h and 8h chain on 4h5h6h; no meld of his own


def knocked(options: dict[str, Any] | None = None) -> State:
    state = State.new("classic", options)
    state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    for a in ("pass", "pass", "draw", "knock Kc"):
        state.apply(a)
    return state


def test_explicit_layoffs_chain_like_the_automatic_ones() -> None:
    state = knocked()
    auto = state.hand_result
    assert auto is not None and sorted(map(str, auto.laid_off)) == ["7h", "8h"]
    assert [str(c) for c in state.layoff_options()] == ["7h"]  # 8h alone fits nowhere yet
    state.apply("layoff 7h")
    assert [str(c) for c in state.layoff_options()] == ["8h"]
    state.apply("layoff 8h")
    r = state.hand_result
    assert r is not None and [str(c) for c in r.laid_off] == ["7h", "8h"]
    assert r.points == auto.points and r.deadwood == auto.deadwood
    assert state.to_record()["hands"][0]["actions"][-2:] == ["layoff 7h", "layoff 8h"]
    same_replay(state)


def test_a_layoff_that_fits_no_meld_changes_nothing() -> None:
    state = knocked()
    before = state.to_record()
    with pytest.raises(IllegalAction, match="cards that can be laid off: 7h"):
        state.apply("layoff 8h")
    assert state.to_record() == before


def test_lay_off_all_shares_the_cards_among_the_melds() -> None:
    sevens, run = CardSet.parse("7c 7d 7s"), CardSet.parse("4h 5h 6h")
    out = lay_off_all([sevens, run], CardSet.parse("7h 8h"))
    assert out == [int(sevens), int(CardSet.parse("4h 5h 6h 7h 8h"))]
    assert lay_off_all([sevens, run], CardSet.parse("7h")) in (
        [int(sevens | CardSet.parse("7h")), int(run)],
        [int(sevens), int(run | CardSet.parse("7h"))],
    )
    assert lay_off_all([sevens, run], CardSet.parse("8h")) is None
    assert lay_off_all([sevens, run], CardSet.parse("7h 3h 8h")) is not None
    assert lay_off_all([sevens, run], CardSet.parse("7c")) is None  # already in a meld

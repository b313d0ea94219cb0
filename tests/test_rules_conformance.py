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


# --- rules 1.2 and 2.1: the cut ------------------------------------------------------------------
def test_the_lower_cut_deals_first_and_the_record_says_so() -> None:
    state = State.new("classic")
    cut = state.cut(["Qs", "3d"])  # seat 0 cuts the queen, seat 1 the three: seat 1 deals
    assert (cut.dealer, cut.order, len(cut.rounds)) == (1, (0, 1), 1)
    state.deal(seed=5)
    assert state.hand_dealer == 1 and state.current_player == 0  # the non-dealer has the upcard
    record = state.to_record()
    assert record["options"] == {"first_dealer": 1}
    again = replay(record)
    assert again.hand_dealer == 1 and again.to_record() == record


def test_a_tied_cut_is_cut_again() -> None:
    state = State.new("hollywood")
    cut = state.cut(["7c", "7h", "Kd", "2s"])
    assert cut.rounds[0] == ((0, Card.parse("7c")), (1, Card.parse("7h")))
    assert (cut.dealer, len(cut.rounds)) == (1, 2)


def test_a_cut_that_falls_like_seat_order_leaves_the_record_as_before() -> None:
    state = State.new("classic")
    state.cut(["2c", "Kh"])  # seat 0 is lower: seat 0 deals, as RECORD.md's default
    assert state.to_record()["options"] == {}


@pytest.mark.parametrize(
    ("cards", "cut_ties", "roles", "rounds"),
    [
        (["3c", "Kd", "8h"], "recut", (1, 2, 0), 1),
        (["Jc", "Jd", "3h", "2s", "9c"], "recut", (1, 0, 2), 2),  # J, J, 3: the 3 sits, the jacks re-cut
        (["5c", "5d", "5h", "4s", "Ks", "4c", "2h", "9d"], "recut", (1, 2, 0), 3),  # all equal: all re-cut
        (["Jc", "Jd", "3h"], "suit_order", (1, 0, 2), 1),  # diamonds beat clubs
        (["5c", "5d", "5h"], "suit_order", (2, 1, 0), 1),
    ],
)
def test_three_players_cut_for_the_roles(cards: list[str], cut_ties: str, roles: tuple[int, ...], rounds: int) -> None:
    state = State.new("three", {"cut_ties": cut_ties})
    cut = state.cut(cards)
    assert (cut.roles, len(cut.rounds), state.roles) == (roles, rounds, roles)
    state.deal(seed=11)
    box, captain, _ = roles
    assert (state.hand_dealer, state.hand_nondealer, state.current_player) == (box, captain, captain)
    again = replay(state.to_record())
    assert again.roles == state.roles and again.to_record() == state.to_record()


def test_a_seeded_cut_is_reproducible_and_decides_every_place() -> None:
    for seed in range(40):
        a, b = State.new("three"), State.new("three")
        ca, cb = a.cut(seed=seed), b.cut(seed=seed)
        assert ca == cb and sorted(ca.order) == [0, 1, 2] and ca.roles == ca.order
        first = ca.rounds[0]
        assert len({c for _, c in first}) == 3  # one pack: three different cards


def test_the_cut_is_refused_where_it_has_no_place() -> None:
    with pytest.raises(IllegalAction, match="no cut"):
        State.new("solitaire").cut(seed=1)
    state = State.new("classic")
    state.deal(seed=1)
    with pytest.raises(IllegalAction, match="before the first deal"):
        state.cut(seed=1)
    fresh = State.new("classic")
    with pytest.raises(IllegalAction, match="more cards"):
        fresh.cut(["7c", "7d"])  # a tie and nothing to re-cut with
    assert fresh.dealer == 0 and fresh.to_record()["options"] == {}


# --- rule 0.8 with knocker_arrangement=choose ----------------------------------------------------
def test_choose_offers_the_arrangements_and_spreads_the_one_declared() -> None:
    state = State.new("classic", {"knocker_arrangement": "choose"})
    state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    offered = state.declarable_arrangements("knock Kc")
    assert offered[0].deadwood == 7 and all(a.deadwood <= 10 for a in offered)
    texts = [" ".join("".join(map(str, m)) for m in a.melds) for a in offered]
    assert "7c7d7s 4h5h6h" in texts and "7c7d7s" not in texts  # 4h5h6h loose would leave 22
    # Declaring the sevens and the run keeps them apart: 7h may go on either, 8h only after 7h.
    state.apply("knock Kc | 7c7d7s 4h5h6h")
    r = state.hand_result
    assert r is not None and [list(map(str, m)) for m in r.knocker_melds] == [["7c", "7d", "7s"], ["4h", "5h", "6h"]]
    same_replay(state)


def test_declarable_arrangements_refuses_what_is_not_a_knock() -> None:
    state = State.new("classic")
    state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    with pytest.raises(IllegalAction):
        state.declarable_arrangements("knock Kc")  # not this seat's turn to end yet (upcard)
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    with pytest.raises(IllegalAction):
        state.declarable_arrangements("discard Kc")


def test_a_gin_offers_only_arrangements_that_meld_everything() -> None:
    state = State.new("classic", {"knocker_arrangement": "choose"})
    state.deal(table_deck(GIN_TEN, JUNK_TEN, "Kd", "Kc"))
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    gins = state.declarable_arrangements("gin Kc")
    assert gins and all(a.deadwood == 0 for a in gins)
    knocks = state.declarable_arrangements("knock Kc")  # the same ten: a knock may leave some out
    assert knocks[: len(gins)] == gins and any(a.deadwood > 0 for a in knocks)


def test_first_roles_options_name_two_seats() -> None:
    from ginrummy.errors import OptionError

    with pytest.raises(OptionError, match="first_box and first_captain"):
        State.new("three", {"first_box": 2, "first_captain": 2})
    state = State.new("three", {"first_box": 2, "first_captain": 0})
    assert state.roles == (2, 0, 1)

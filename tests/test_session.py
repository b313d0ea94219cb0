"""The application layer's choices for a person: taking moves back against the computer (marked),
the cut for the first deal and the roles, choosing the melds to spread, choosing layoffs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginrummy.cards import Card, CardSet, full_pack
from ginrummy.errors import IllegalAction, StoreError
from ginrummy.session import HUMAN, Session, make_session
from ginrummy.store import Store
from ginrummy.words import arrangement_line, cut_lines, takeback_line
from pseudo_audit import plain

KNOCKER = "7c 7d 7s 4h 5h 6h As Ad 2s 3c"  # melds 7c7d7s and 4h5h6h, deadwood 7
DEFENDER = "7h 8h Qd Js 9c Jd Qs 5d 2h Kh"  # 7h and 8h chain on 4h5h6h
CHOOSER = "Ac Ad As 2c 3c 4c 9h 9d 9s 2d"  # the aces, Ac-4c and the nines: several ways to spread


def table_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    """The first hand's non-dealer (seat 1) gets ``nondealer``, the dealer (seat 0) ``dealer``."""
    nd, d = list(CardSet.parse(nondealer)), list(CardSet.parse(dealer))
    head = [c for pair in zip(nd, d, strict=True) for c in pair]
    head += list(CardSet.parse(upcard)) + list(CardSet.parse(stock_top))
    return head + [c for c in full_pack() if c not in head]


def play_until(session: Session, decisions: int) -> None:
    """The person plays on (never ending the hand; the computers their own way) for ``decisions`` turns."""
    made = 0
    while made < decisions:
        session.run_computers()
        seat = session.human_to_act()
        assert seat is not None, "the hand ended too soon for this seed"
        legal = [a for a in session.state.legal_actions() if a.kind not in ("knock", "gin")]
        session.act(seat, legal[0])
        made += 1


# -- takebacks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["classic", "three", "solitaire", "gin-solitaire"])
def test_a_takeback_goes_back_to_the_persons_last_decision(variant: str) -> None:
    seats = {"classic": [HUMAN, "greedy"], "three": [HUMAN, "greedy", "greedy"]}.get(variant)
    s = make_session(variant, seats=seats, deal_seed=5)
    s.start_hand()
    play_until(s, 2)
    s.run_computers()
    seat = s.human_to_act()
    assert seat is not None
    before = s.to_json()
    s.act(seat, s.state.legal_actions()[-1])
    s.run_computers()
    assert s.can_undo(seat)
    undone = s.take_back(seat)
    assert undone and undone[0].seat == seat
    assert s.human_to_act() == seat
    after = s.to_json()
    assert after["record"] == before["record"] and after["notes"] == before["notes"]
    assert s.takebacks == 1 and after["takebacks"] == 1
    assert Session.from_json(after).takebacks == 1  # saved with the game


def test_no_takeback_once_the_hand_is_over() -> None:
    s = make_session("classic", seats=["greedy", HUMAN], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.act(1, "pass")
    s.play_computer(0, "pass")
    s.act(1, "draw")
    assert s.can_undo(1)
    s.act(1, "knock Kc")
    assert s.state.is_hand_over and not s.can_undo(1)
    refusal = plain(str(s.takeback_refusal(1)))
    assert refusal == "the hand is over and its cards were shown: its moves cannot be taken back"
    with pytest.raises(IllegalAction, match="the hand is over"):
        s.undo(1)
    assert s.takebacks == 0 and s.state.results


def test_takebacks_are_refused_where_they_do_not_belong() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=2)
    assert s.takeback_refusal(0) is not None  # nothing dealt
    s.start_hand()
    s.run_computers()
    assert "no move in this hand" in str(s.takeback_refusal(0))
    with pytest.raises(IllegalAction, match="no move in this hand"):
        s.take_back(0)
    assert plain(str(s.takeback_refusal(1))) == "only a person's moves can be taken back"
    people = make_session("classic", seats=[HUMAN, HUMAN], deal_seed=2)
    people.start_hand()
    people.act(people.state.current_player or 0, "pass")
    assert "not between people" in str(people.takeback_refusal(1))
    watched = make_session("solitaire", seats=["greedy", "joker"], deal_seed=2)
    assert plain(str(watched.takeback_refusal(0))) == "only a person's moves can be taken back"


def test_a_failed_save_leaves_the_takeback_undone(tmp_path: Path, monkeypatch: Any) -> None:
    store = Store(tmp_path)
    s = make_session("solitaire", deal_seed=3)
    store.autosave("g1", s)
    s.start_hand()
    s.act(0, s.state.legal_actions()[0])
    saved = s.to_json()

    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise StoreError("disk full")

    monkeypatch.setattr(store, "save_game", full_disk)
    with pytest.raises(StoreError, match="nothing changed"):
        s.take_back(0)
    assert s.to_json() == saved and s.takebacks == 0


def test_takeback_words() -> None:
    line = plain(takeback_line(2, 1))
    assert line == "Took back 2 moves: your turn again. This game now has 1 takeback (shown in your history)."


def test_a_finished_game_with_takebacks_is_marked_in_the_history(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = make_session("solitaire", deal_seed=3)
    s.start_hand()
    s.act(0, s.state.legal_actions()[0])
    s.take_back(0)
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
        else:
            s.act(0, s.state.legal_actions()[0])
    store.finish_game("g1", s)
    (game,) = store.history()
    assert game.takebacks == 1
    stats = store.stats()["solitaire"]
    assert stats["games"] == 1 and stats["takeback_games"] == 1
    assert store.stats(takebacks=False) == {}  # the statistics may leave such games out


# -- the cut ------------------------------------------------------------------------------------
def test_the_cut_decides_the_first_dealer_and_is_recorded() -> None:
    dealers = set()
    for seed in range(12):
        s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=seed, cut=True)
        assert s.first_cut is not None
        dealers.add(s.first_cut.dealer)
        assert s.state.options.first_dealer == s.first_cut.dealer  # type: ignore[union-attr]
        s.start_hand()
        assert s.state.hand_dealer == s.first_cut.dealer
        first = s.first_cut.rounds[0]
        low = min(card.rank for _, card in first)
        if len(s.first_cut.rounds) == 1:
            assert dict(first)[s.first_cut.dealer].rank == low  # rule 1.2: the lower card deals
        lines = [plain(line) for line in cut_lines(s.state.players, s.first_cut, viewer=0)]
        assert lines[0].startswith("The cut: You ") and "first" in lines[-1]
        assert Session.from_json(s.to_json()).first_cut == s.first_cut  # kept with the game
    assert dealers == {0, 1}  # not always the person


def test_the_cut_for_three_sets_the_roles_and_suit_order_breaks_ties() -> None:
    for seed in range(8):
        s = make_session("three", deal_seed=seed, cut=True, options={"cut_ties": "suit_order"})
        assert s.first_cut is not None and s.first_cut.roles is not None
        assert len(s.first_cut.rounds) == 1  # suits break every tie: nobody re-cuts
        s.start_hand()
        roles = s.roles()
        assert roles is not None and tuple(roles) == s.first_cut.roles
        assert plain(cut_lines(s.state.players, s.first_cut)[-1]).startswith("Highest in the box: ")


def test_no_cut_in_the_solitaires_nor_after_the_deal() -> None:
    assert make_session("solitaire", deal_seed=1, cut=True).first_cut is None
    s = make_session("classic", deal_seed=1)
    s.start_hand()
    assert s.cut_for_first_deal() is None and s.first_cut is None
    cut = make_session("classic", deal_seed=1, cut=True)
    assert cut.first_cut is not None and cut.cut_for_first_deal() is None  # not twice


# -- choosing the melds to spread, and the layoffs ---------------------------------------------
def knocker_to_choose(arrangement: str = "choose") -> Session:
    s = make_session("classic", seats=["greedy", HUMAN], deal_seed=1, options={"knocker_arrangement": arrangement})
    s.state.deal(table_deck(CHOOSER, DEFENDER, "Td", "Kc"))
    s.act(1, "pass")
    s.play_computer(0, "pass")
    s.act(1, "draw")
    return s


def test_a_person_chooses_the_melds_to_spread() -> None:
    s = knocker_to_choose()
    offered = s.spread_choices(1, "knock Kc")
    assert offered == s.arrangements(1, "knock Kc")
    assert len(offered) > 1 and offered[0].deadwood == 2 and all(a.deadwood <= 10 for a in offered)
    lines = [plain(arrangement_line(a)) for a in offered]
    assert "Ac2c3c4c 9d9h9s · deadwood Ad 2d As = 4" in lines
    chosen = offered[lines.index("Ac2c3c4c 9d9h9s · deadwood Ad 2d As = 4")]
    s.declare(1, "knock Kc", chosen)
    r = s.state.hand_result
    assert r is not None and r.knocker == 1 and sorted(map(str, r.knocker_unmatched)) == ["2d", "Ad", "As"]
    assert s.spread_choices(1, "knock Kc") == []  # no longer this seat's turn
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        s.arrangements(1, "knock Kc")


def test_no_choice_of_melds_with_auto_or_for_a_computer() -> None:
    assert knocker_to_choose("auto").spread_choices(1, "knock Kc") == []
    assert knocker_to_choose().spread_choices(0, "knock Kc") == []
    assert knocker_to_choose().spread_choices(1, "discard Kc") == []


def test_a_person_chooses_the_layoffs_as_defender() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")
    s.act(0, "pass")
    s.play_computer(1, "draw")
    s.play_computer(1, "knock Kc")
    assert s.defender() == 0
    assert {str(c) for c in s.layoff_options(0)} == {"7h"}  # 8h only after 7h (rule 0.9.3)
    assert s.layoff_options(1) == []  # the knocker lays off nothing
    s.act(0, "layoff 7h")
    assert [str(c) for c in s.layoff_options(0)] == ["8h"]
    s.act(0, "layoff 8h")
    r = s.state.hand_result
    assert r is not None and sorted(map(str, r.laid_off)) == ["7h", "8h"]
    with pytest.raises(IllegalAction):
        s.act(0, "layoff Kh")

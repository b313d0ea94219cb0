"""Plain mode: the cut before the first deal, taking a move back, choosing the melds to spread and
the layoffs, and a failed save that changes nothing (seeded or explicit deals throughout)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ginrummy.cards import Card, CardSet, full_pack
from ginrummy.errors import StoreError
from ginrummy.plain import PlainGame
from ginrummy.session import HUMAN, Session, make_session
from ginrummy.store import Store
from pseudo_audit import shown

KNOCKER = "7c 7d 7s 4h 5h 6h As Ad 2s 3c"  # melds 7c7d7s and 4h5h6h, deadwood 7
DEFENDER = "7h 8h Qd Js 9c Jd Qs 5d 2h Kh"  # 7h and 8h chain on 4h5h6h
CHOOSER = "Ac Ad As 2c 3c 4c 9h 9d 9s 2d"  # the aces, Ac-4c and the nines: several ways to spread


def table_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    """The first hand's non-dealer (seat 1) gets ``nondealer``, the dealer (seat 0) ``dealer``."""
    nd, d = list(CardSet.parse(nondealer)), list(CardSet.parse(dealer))
    head = [c for pair in zip(nd, d, strict=True) for c in pair]
    head += list(CardSet.parse(upcard)) + list(CardSet.parse(stock_top))
    return head + [c for c in full_pack() if c not in head]


def run(session: Session, text: str, store: Store | None = None) -> str:
    out = io.StringIO()
    assert PlainGame(session, store, "g1", inp=io.StringIO(text), out=out, analyse=False).run() == 0
    return shown("plain mode", out.getvalue())


def test_a_new_game_shows_the_cut() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=7, cut=True)
    assert s.first_cut is not None
    text = run(s, "quit\n")
    assert "The cut: You " in text and ("you deal first" in text or "Greedy deals first" in text)
    assert text.index("The cut") < text.index("Fairness commitment")
    assert s.state.hand_dealer == s.first_cut.dealer


def test_undo_takes_back_the_last_move_against_the_computer() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(DEFENDER, KNOCKER, "9d", "Kc"))  # the computer holds no meld: it plays on
    s.play_computer(1, "pass")
    text = run(s, "pass\nundo\nquit\n")
    assert "Took back " in text and "This game now has 1 takeback" in text
    assert s.takebacks == 1 and s.human_to_act() == 0 and s.state.phase == "upcard"
    assert [str(a) for a in s.state.logs[-1].actions] == ["pass"]  # the computer's pass stays

    over = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    over.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    over.play_computer(1, "pass")
    text = run(over, "pass\nundo\nquit\n")  # the computer draws Kc and knocks: the cards are shown
    assert "error: the hand is over and its cards were shown" in text and over.takebacks == 0


def test_undo_is_refused_in_one_line_when_there_is_nothing_to_take_back() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")
    text = run(s, "undo\nquit\n")
    assert "error: you have made no move in this hand to take back" in text and s.takebacks == 0


def test_the_defender_chooses_the_layoffs() -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")
    s.act(0, "pass")
    s.play_computer(1, "draw")
    s.play_computer(1, "knock Kc")
    text = run(s, "layoff 8h\nlayoff 7h\nlayoff 8h\nquit\n")
    assert "You may choose your layoffs" in text and "now one of 7h" in text
    assert "error: layoff 8h is not legal; cards that can be laid off: 7h" in text
    assert "You lay off 7h." in text and "You lay off 8h." in text
    r = s.state.hand_result
    assert r is not None and sorted(map(str, r.laid_off)) == ["7h", "8h"]


def chooser() -> Session:
    s = make_session("classic", seats=["greedy", HUMAN], deal_seed=1, options={"knocker_arrangement": "choose"})
    s.state.deal(table_deck(CHOOSER, DEFENDER, "Td", "Kc"))
    s.act(1, "pass")
    s.play_computer(0, "pass")
    return s


def test_the_knocker_chooses_the_melds_to_spread() -> None:
    s = chooser()
    text = run(s, "draw\nknock Kc\n2\nquit\n")
    assert "Which melds do you spread?" in text and "  2. Ac2c3c4c 9d9h9s · deadwood Ad 2d As = 4" in text
    r = s.state.hand_result
    assert r is not None and sorted(map(str, r.knocker_unmatched)) == ["2d", "Ad", "As"]


def test_a_bad_choice_of_melds_plays_nothing() -> None:
    s = chooser()
    text = run(s, "draw\nknock Kc\n9\nquit\n")
    assert "error: '9' is not one of 1 to 4; nothing was played" in text
    assert not s.state.is_hand_over and s.human_to_act() == 1


def test_a_failed_save_of_a_takeback_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(DEFENDER, KNOCKER, "9d", "Kc"))
    s.play_computer(1, "pass")
    text = run(s, "pass\nquit\n", store)  # the computer then draws and discards
    assert s.human_to_act() == 0 and len(s.state.logs[-1].actions) == 4
    saved = s.to_json()
    save = store.save_game

    def full_disk(game_id: str, session: Session) -> None:
        if session.takebacks:
            raise StoreError("database or disk is full")
        save(game_id, session)

    monkeypatch.setattr(store, "save_game", full_disk)
    text = run(s, "undo\nquit\n", store)
    assert "error: the game could not be saved (database or disk is full); nothing changed" in text
    assert s.to_json() == saved and s.takebacks == 0

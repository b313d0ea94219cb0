"""The terminal app, by Textual's pilot: the cut shown before the first deal, taking a move back
(u), choosing the melds to spread (k with knocker_arrangement=choose) and the layoffs (l), and a
failed save that changes nothing.  Explicit deals; waits for conditions, never for time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cards import Card, CardSet, full_pack
from ginrummy.errors import StoreError
from ginrummy.session import HUMAN, Session, make_session
from ginrummy.store import Store
from pseudo_audit import plain

pytest.importorskip("textual")

from textual.widgets import Input, RichLog, Select

from ginrummy.tui.app import GinRummyApp
from ginrummy.tui.choose import SpreadScreen
from ginrummy.tui.game import GameScreen
from ginrummy.tui.replay import HistoryScreen, ReplayScreen
from ginrummy.tui.start import StartScreen

KNOCKER = "7c 7d 7s 4h 5h 6h As Ad 2s 3c"  # melds 7c7d7s and 4h5h6h, deadwood 7
DEFENDER = "7h 8h Qd Js 9c Jd Qs 5d 2h Kh"  # 7h and 8h chain on 4h5h6h
CHOOSER = "Ac Ad As 2c 3c 4c 9h 9d 9s 2d"  # the aces, Ac-4c and the nines: several ways to spread


def table_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    """The first hand's non-dealer (seat 1) gets ``nondealer``, the dealer (seat 0) ``dealer``."""
    nd, d = list(CardSet.parse(nondealer)), list(CardSet.parse(dealer))
    head = [c for pair in zip(nd, d, strict=True) for c in pair]
    head += list(CardSet.parse(upcard)) + list(CardSet.parse(stock_top))
    return head + [c for c in full_pack() if c not in head]


async def wait_for(predicate: Callable[[], bool], limit: float = 60.0) -> None:
    """Until ``predicate()`` holds (the limit only stops a test that hangs)."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the app did not get there")
        await asyncio.sleep(0.005)


def log_text(screen: GameScreen) -> str:
    return "\n".join(strip.text for strip in screen.query_one("#log", RichLog).lines)


def play(session: Session, tmp_path: Path, body: Callable[[Any, GameScreen, Store], Any], **kw: Any) -> None:
    """Open ``session`` in the app (saved in a store under ``tmp_path``) and run ``body``."""
    store = Store(tmp_path)

    async def run() -> None:
        app = GinRummyApp(store=store, computer_delay=0, **kw)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.open_game(session)
            assert isinstance(screen, GameScreen)
            await pilot.pause()
            await body(pilot, screen, store)

    asyncio.run(run())


async def select(pilot: Any, screen: GameScreen, card: str) -> None:
    """Select ``card`` by its number key (a card just drawn is selected already)."""
    if screen.selected != card:
        key = "1234567890-"[screen.order.index(card)]
        await pilot.press("minus" if key == "-" else key)
    assert screen.selected == card


def test_u_takes_back_the_last_move_and_the_game_is_marked(tmp_path: Path) -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(DEFENDER, KNOCKER, "9d", "Kc"))  # the computer holds no meld: it plays on
    s.play_computer(1, "pass")

    async def body(pilot: Any, screen: GameScreen, store: Store) -> None:
        assert screen.takeback_seat() is None  # nothing of the person's to take back yet
        await pilot.press("u")
        assert s.takebacks == 0 and s.state.phase == "upcard"
        await pilot.press("p")
        await wait_for(lambda: s.human_to_act() is not None)
        assert not s.state.is_hand_over and screen.takeback_seat() == 0 and screen.query_one("#act-undo").display
        await pilot.press("u")
        await wait_for(lambda: s.takebacks == 1)
        assert s.state.phase == "upcard" and s.human_to_act() == 0
        assert [str(a) for a in s.state.logs[-1].actions] == ["pass"]
        assert "This game now has 1 takeback" in log_text(screen)
        saved = store.load_game(screen.game_id)
        assert saved is not None and saved.takebacks == 1 and saved.state.to_record() == s.state.to_record()

    play(s, tmp_path, body)


def test_the_defender_chooses_the_layoffs_with_l(tmp_path: Path) -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")
    s.act(0, "pass")
    s.play_computer(1, "draw")
    s.play_computer(1, "knock Kc")

    async def body(pilot: Any, screen: GameScreen, store: Store) -> None:
        result = plain(str(screen.query_one("#result").render()))
        assert "Choose your layoffs" in result and "7♥h" in result
        await select(pilot, screen, "8h")
        await pilot.press("l")  # 8h cannot go before 7h: nothing changes
        assert s.state.hand_result is not None and "layoff" not in str(s.state.logs[-1].actions)
        await select(pilot, screen, "7h")
        await pilot.press("l")
        await select(pilot, screen, "8h")
        await pilot.press("l")
        r = s.state.hand_result
        assert r is not None and sorted(map(str, r.laid_off)) == ["7h", "8h"]
        await pilot.pause()
        result = plain(str(screen.query_one("#result").render()))
        assert "lay off 7♥h 8♥h" in result and "Choose your layoffs" not in result
        assert not screen.layoff_cards() and not screen.query_one("#act-layoff").display

    play(s, tmp_path, body)


def chooser() -> Session:
    s = make_session("classic", seats=["greedy", HUMAN], deal_seed=1, options={"knocker_arrangement": "choose"})
    s.state.deal(table_deck(CHOOSER, DEFENDER, "Td", "Kc"))
    s.act(1, "pass")
    s.play_computer(0, "pass")
    return s


def test_the_knocker_chooses_the_melds_to_spread(tmp_path: Path) -> None:
    s = chooser()

    async def body(pilot: Any, screen: GameScreen, store: Store) -> None:
        await pilot.press("s")
        await wait_for(lambda: len(s.state.hand(1)) == 11)
        await select(pilot, screen, "Kc")
        await pilot.press("k")
        await wait_for(lambda: isinstance(screen.app.screen, SpreadScreen))
        await pilot.press("escape")  # plays nothing
        await wait_for(lambda: screen.app.screen is screen)
        assert not s.state.is_hand_over
        await pilot.press("k")
        await wait_for(lambda: isinstance(screen.app.screen, SpreadScreen))
        await pilot.press("down", "enter")  # the second way: Ac-4c and the nines, deadwood Ad As 2d
        await wait_for(lambda: s.state.is_hand_over)
        r = s.state.hand_result
        assert r is not None and sorted(map(str, r.knocker_unmatched)) == ["2d", "Ad", "As"]

    play(s, tmp_path, body)


def test_a_failed_save_changes_nothing_and_says_so_in_one_line(tmp_path: Path, monkeypatch: Any) -> None:
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")

    async def body(pilot: Any, screen: GameScreen, store: Store) -> None:
        record = s.state.to_record()

        def full_disk(*args: Any, **kwargs: Any) -> None:
            raise StoreError("database or disk is full")

        monkeypatch.setattr(store, "save_game", full_disk)
        await pilot.press("p")
        await pilot.pause()
        assert s.state.to_record() == record and s.human_to_act() == 0  # the pass is not kept in memory
        assert "could not be saved (database or disk is full); nothing changed" in screen.message
        assert "\n" not in screen.message
        monkeypatch.undo()
        saved = store.load_game(screen.game_id)
        assert saved is not None and saved.state.to_record() == record  # nor in the file

    play(s, tmp_path, body)


def test_a_new_game_from_the_start_screen_shows_the_cut(tmp_path: Path) -> None:
    async def run() -> None:
        app = GinRummyApp(store=Store(tmp_path), computer_delay=0, deal_seed=5)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            await pilot.press("ctrl+n")
            await wait_for(lambda: isinstance(app.screen, GameScreen))
            screen = app.screen
            assert isinstance(screen, GameScreen)
            cut = screen.session.first_cut
            assert cut is not None
            text = plain(log_text(screen))
            assert "The cut: You " in text and "first." in text
            await pilot.press("n")
            await wait_for(lambda: screen.session.state.hand_number == 1)
            assert screen.session.state.hand_dealer == cut.dealer

    asyncio.run(run())


def finished_solitaire() -> Session:
    s = make_session("solitaire", deal_seed=3, options={"game_target": 15})
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
        else:
            s.act(0, s.state.legal_actions()[0])
    return s


def test_the_replay_viewer_steps_through_a_finished_game(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = finished_solitaire()
    store.finish_game("done", s)
    record = s.state.to_record()
    moves = sum(len(h["actions"]) for h in record["hands"]) + len(record["hands"])

    async def run() -> None:
        app = GinRummyApp(store=store, computer_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+y")
            await wait_for(lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("enter")
            await wait_for(lambda: isinstance(app.screen, ReplayScreen))
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen)
            assert len(viewer.steps) >= moves  # a deal, then each action (and the solitaire's draws)
            shown = str(viewer.query_one("#replay-step").render())
            assert "Hand 1 · step 1 of" in shown and "Hand 1 is dealt." in shown
            await pilot.press("right", "right")
            assert viewer.position == 2 and "step 3 of" in str(viewer.query_one("#replay-step").render())
            await pilot.press("left")
            assert viewer.position == 1
            await pilot.press("end")
            last = plain(str(viewer.query_one("#replay-step").render()))
            assert viewer.position == len(viewer.steps) - 1 and "Totals: You " in last
            assert viewer.steps[-1].totals == tuple(s.state.totals)
            await pilot.press("pageup")  # the start of the last hand
            assert viewer.steps[viewer.position].index == -1
            await pilot.press("home")
            assert viewer.position == 0
            await pilot.press("escape", "escape")
            await wait_for(lambda: isinstance(app.screen, StartScreen))

    asyncio.run(run())


def test_settings_are_remembered_and_levels_offered(tmp_path: Path) -> None:
    async def first() -> None:
        app = GinRummyApp(store=Store(tmp_path), computer_delay=0, deal_seed=5)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            start.query_one("#variant", Select).value = "oklahoma"
            await wait_for(lambda: start.variant == "oklahoma" and bool(start.query(f"#seat-{start._build}-1")))
            await pilot.pause()
            level = start.query_one(f"#seat-{start._build}-1", Select)
            offered = [value for _, value in level._options]
            assert offered[:5] == ["beginner", "casual", "intermediate", "advanced", "expert"]
            level.value = "casual"
            start.query_one("#name", Input).value = "Ann"
            await pilot.press("ctrl+n")
            await wait_for(lambda: isinstance(app.screen, GameScreen))
            game = app.screen
            assert isinstance(game, GameScreen)
            assert game.session.seats == [HUMAN, "casual"] and game.session.state.players[0] == "Ann"
            await pilot.press("x")  # high contrast, remembered
            assert app.high_contrast

    asyncio.run(first())

    async def second() -> None:
        app = GinRummyApp(store=Store(tmp_path), computer_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            assert app.high_contrast
            await wait_for(lambda: bool(start.query(f"#seat-{start._build}-1")))
            await pilot.pause()
            assert start.variant == "oklahoma" and start.query_one("#name", Input).value == "Ann"
            assert start.query_one(f"#seat-{start._build}-1", Select).value == "casual"

    asyncio.run(second())


def test_a_watched_game_is_not_filed_in_the_history(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = make_session("solitaire", seats=["greedy", "joker"], deal_seed=3, options={"game_target": 15})
    assert s.watched

    async def run() -> None:
        app = GinRummyApp(store=store, computer_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.open_game(s)
            assert isinstance(screen, GameScreen)
            while not s.state.is_terminal:
                await wait_for(lambda: s.state.needs_deal or s.state.is_terminal)
                if s.state.needs_deal and not s.state.is_terminal:
                    await pilot.press("n")
                    await wait_for(lambda: not s.state.needs_deal or s.state.is_terminal)
            await wait_for(lambda: screen._filed)

    asyncio.run(run())
    assert store.history() == [] and store.saved_games() == []


# -- snapshots (pytest-textual-snapshot; `pytest --snapshot-update` rewrites them) ---------------
def _snap(request: pytest.FixtureRequest) -> Any:
    try:
        return request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")


async def _settle(pilot: Any) -> None:
    for _ in range(5):
        await pilot.pause(0.05)
    await pilot.wait_for_scheduled_animations()


@pytest.mark.english("an English snapshot")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_replay_viewer(tmp_path: Path, request: pytest.FixtureRequest, size: tuple[int, int]) -> None:
    snap_compare = _snap(request)
    record = finished_solitaire().state.to_record()

    async def before(pilot: Any) -> None:
        await pilot.pause()
        pilot.app.push_screen(ReplayScreen(record))
        await wait_for(lambda: isinstance(pilot.app.screen, ReplayScreen))
        await pilot.press("right", "right", "right")
        await _settle(pilot)

    app = GinRummyApp(store=Store(tmp_path), computer_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.english("an English snapshot")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_choosing_the_spread(tmp_path: Path, request: pytest.FixtureRequest, size: tuple[int, int]) -> None:
    snap_compare = _snap(request)
    s = chooser()

    async def before(pilot: Any) -> None:
        await pilot.pause()
        screen = pilot.app.open_game(s)
        await pilot.pause()
        await pilot.press("s")
        await wait_for(lambda: len(s.state.hand(1)) == 11)
        await select(pilot, screen, "Kc")
        await pilot.press("k")
        await wait_for(lambda: isinstance(pilot.app.screen, SpreadScreen))
        await _settle(pilot)

    app = GinRummyApp(store=Store(tmp_path), computer_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=before)

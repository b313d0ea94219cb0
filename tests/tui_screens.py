"""Every screen and dialog of the terminal app, reached from a seeded position (shared by
tests/test_tui_screens.py's snapshots and layout checks): each scenario makes the app and the
``before`` that brings it to the screen, waiting for conditions, never for time."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.cards import Card, CardSet, full_pack
from ginrummy.melds import min_deadwood
from ginrummy.session import HUMAN, Session, make_session
from ginrummy.store import DB_NAME, Store
from ginrummy.tui.app import GinRummyApp

Before = Callable[[Any], Awaitable[None]]


async def until(predicate: Callable[[], bool], limit: float = 120.0) -> None:
    """Until ``predicate()`` holds (the limit only stops a test that hangs)."""
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the app did not get there")
        await asyncio.sleep(0.003)


async def settle(pilot: Any) -> None:
    """Let every re-render settle before a screenshot."""
    for _ in range(4):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()


def choose(session: Session, seat: int) -> str:
    """A quick deterministic policy: go out when possible, else draw (or pass), then discard the
    card that leaves the least deadwood."""
    legal = [str(a) for a in session.state.legal_actions()]
    for a in legal:
        if a.split()[0] in ("gin", "knock"):
            return a
    for a in ("pass", "draw"):
        if a in legal:
            return a
    hand = int(CardSet.parse(" ".join(str(c) for c in session.state.hand(seat))))
    best = min(
        (a for a in legal if a.startswith("discard ")),
        key=lambda a: (min_deadwood(hand & ~int(CardSet.parse(a.split()[1]))), -CardSet.parse(a.split()[1]).value, a),
    )
    return best


def play_until(session: Session, stop: Callable[[Session], bool]) -> Session:
    """Play ``session`` (the person by :func:`choose`, the computers as themselves) until ``stop``."""
    for _ in range(5000):
        if stop(session):
            return session
        if session.state.needs_deal:
            session.start_hand()
            continue
        seat = session.human_to_act()
        if seat is not None:
            session.act(seat, choose(session, seat))
        else:
            session.computer_step()
    raise AssertionError("the game did not get there")


# -- positions -------------------------------------------------------------------------------------
KNOCKER = "7c 7d 7s 4h 5h 6h As Ad 2s 3c"  # melds 7c7d7s and 4h5h6h, deadwood 7
DEFENDER = "7h 8h Qd Js 9c Jd Qs 5d 2h Kh"  # 7h and 8h chain on 4h5h6h
CHOOSER = "Ac Ad As 2c 3c 4c 9h 9d 9s 2d"  # several ways to spread


def table_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    nd, d = list(CardSet.parse(nondealer)), list(CardSet.parse(dealer))
    head = [c for pair in zip(nd, d, strict=True) for c in pair]
    head += list(CardSet.parse(upcard)) + list(CardSet.parse(stock_top))
    return head + [c for c in full_pack() if c not in head]


def layoffs_session() -> Session:
    """The computer knocked; the person, defending, may choose the layoffs (7h 8h)."""
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=1)
    s.state.deal(table_deck(KNOCKER, DEFENDER, "9d", "Kc"))
    s.play_computer(1, "pass")
    s.act(0, "pass")
    s.play_computer(1, "draw")
    s.play_computer(1, "knock Kc")
    return s


def spread_session() -> Session:
    s = make_session("classic", seats=["greedy", HUMAN], deal_seed=1, options={"knocker_arrangement": "choose"})
    s.state.deal(table_deck(CHOOSER, DEFENDER, "Td", "Kc"))
    s.act(1, "pass")
    s.play_computer(0, "pass")
    return s


def finished(variant: str, seats: list[str], seed: int, target: int) -> Session:
    s = make_session(variant, seats=seats, deal_seed=seed, options={"game_target": target})
    return play_until(s, lambda x: x.state.is_terminal)


# -- scenarios ---------------------------------------------------------------------------------------
@dataclass
class Scenario:
    """``app(tmp_path)`` makes the app; ``before(pilot)`` brings it to the screen; ``doc`` says what it shows."""

    doc: str
    app: Callable[[Path], GinRummyApp]
    before: Before


def _app(tmp_path: Path, **kw: Any) -> GinRummyApp:
    kw.setdefault("store", Store(tmp_path))
    return GinRummyApp(computer_delay=0, analyse=False, **kw)


def _opening(session_of: Callable[[], Session], then: Before | None = None) -> Scenario:
    """A scenario that opens ``session_of()`` on the table, then runs ``then``."""

    async def before(pilot: Any) -> None:
        await until(lambda: pilot.app.screen is not None and pilot.app.screen.is_attached)
        screen = pilot.app.open_game(session_of())
        await until(lambda: pilot.app.screen is screen)
        if then is not None:
            await then(pilot)
        await settle(pilot)

    return Scenario("", lambda tmp: _app(tmp, start=None), before)


def _in_hand(variant: str, seats: list[str], seed: int, *keys: str) -> Before:
    """Deal, wait for the person's turn, press ``keys``."""

    async def before(pilot: Any) -> None:
        screen = pilot.app.screen
        await pilot.press("n")
        await until(lambda: screen.session.human_to_act() is not None)
        if keys:
            await pilot.press(*keys)
        await settle(pilot)

    return before


def _game(variant: str, seats: list[str], seed: int, *keys: str, options: dict[str, Any] | None = None) -> Any:
    def make(tmp_path: Path) -> GinRummyApp:
        start = {"variant": variant, "seats": seats, "options": options or {}, "cut": True}
        return _app(tmp_path, start=start, deal_seed=seed)

    return make


async def _start(pilot: Any) -> None:
    from ginrummy.tui.start import StartScreen

    await until(lambda: isinstance(pilot.app.screen, StartScreen) and pilot.app.screen.query("#seats Select"))
    await settle(pilot)


def _with_games(tmp_path: Path) -> GinRummyApp:
    """A store with a saved game in progress and two finished games (statistics, replays)."""
    store = Store(tmp_path)
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=3)
    store.save_game("g-progress", s)
    store.release_game("g-progress")
    store.finish_game("g-solo", finished("gin-solitaire", [HUMAN, "joker"], 2, 20))
    store.finish_game("g-classic", finished("classic", [HUMAN, "greedy"], 4, 25))
    fixed_times(tmp_path)
    return _app(tmp_path, store=store)


def fixed_times(data_dir: Path) -> None:
    """The saved and finished games dated 1 June 2026 (the screens show the dates)."""
    import sqlite3

    june = 1780300800.0  # 2026-06-01 08:00 UTC
    with contextlib.closing(sqlite3.connect(data_dir / DB_NAME)) as db, db:
        db.execute("UPDATE games SET created_at = ?, updated_at = ?", (june, june))
        db.execute("UPDATE finished SET started_at = ?, finished_at = ? WHERE id = 'g-solo'", (june, june + 600))
        db.execute("UPDATE finished SET started_at = ?, finished_at = ? WHERE id = 'g-classic'", (june, june + 1200))


async def _press_on_start(pilot: Any, key: str, screen_type: type) -> None:
    await _start(pilot)
    await pilot.press(key)
    await until(lambda: isinstance(pilot.app.screen, screen_type))
    await settle(pilot)


def _hand_over(variant: str, seats: list[str], seed: int) -> Scenario:
    def session() -> Session:
        s = make_session(variant, seats=seats, deal_seed=seed)
        s.start_hand()
        return play_until(s, lambda x: x.state.is_hand_over)

    return _opening(session)


def _discards_session() -> Session:
    """Classic a few turns in: several cards on the discard pile."""
    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=5)
    s.start_hand()
    return play_until(s, lambda x: len(x.state.pile) >= 5 and x.human_to_act() is not None)


async def _discards(pilot: Any) -> None:
    from ginrummy.tui.dialogs import DiscardsScreen

    await pilot.press("v")
    await until(lambda: isinstance(pilot.app.screen, DiscardsScreen))


def _final() -> Session:
    return finished("classic", [HUMAN, "greedy"], 4, 25)


def _final_three() -> Session:
    return finished("three", [HUMAN, "greedy", "greedy"], 4, 25)


async def _deal_wait(pilot: Any) -> None:
    screen = pilot.app.screen
    await pilot.press("n")
    await until(lambda: screen.session.human_to_act() is not None)


async def _hint(pilot: Any) -> None:
    await _deal_wait(pilot)
    await pilot.press("h")
    await until(lambda: bool(pilot.app.screen.message))  # the hint, in the screen's language


async def _scores(pilot: Any) -> None:
    await pilot.press("c")


async def _spread(pilot: Any) -> None:
    from ginrummy.tui.choose import SpreadScreen

    screen = pilot.app.screen
    s = screen.session
    await pilot.press("s")
    await until(lambda: len(s.state.hand(1)) == 11)
    key = "1234567890-"[screen.order.index("Kc")]
    if screen.selected != "Kc":
        await pilot.press("minus" if key == "-" else key)
    await settle(pilot)
    # Where the table stands behind the dialog depends on when its own scrolling (to the selected
    # card, then to the new message) ran: under load it had gone further than on a quiet machine.
    # Put it at its end, so the snapshot shows the same screen whatever the machine's load.
    table = screen.query_one("#table")
    for _ in range(100):  # until the table stays at its end (its layout can still grow by a row)
        table.scroll_end(animate=False, immediate=True)
        await settle(pilot)
        if table.scroll_y == table.max_scroll_y:
            break
    await pilot.press("k")
    await until(lambda: isinstance(pilot.app.screen, SpreadScreen))
    await settle(pilot)


async def _help_in_game(pilot: Any) -> None:
    from ginrummy.tui.dialogs import HelpScreen

    await pilot.press("question_mark")
    await until(lambda: isinstance(pilot.app.screen, HelpScreen))


async def _rules_in_game(pilot: Any) -> None:
    from ginrummy.tui.dialogs import RulesScreen

    await pilot.press("r")
    await until(lambda: isinstance(pilot.app.screen, RulesScreen))
    await settle(pilot)


async def _start_rules(pilot: Any) -> None:
    from ginrummy.tui.dialogs import RulesScreen

    await _press_on_start(pilot, "f2", RulesScreen)


async def _notice(pilot: Any) -> None:
    app = pilot.app
    notify = app.notify

    def lasting(*args: Any, **kwargs: Any) -> None:  # the notice stays until the screenshot is taken
        kwargs["timeout"] = 3600
        notify(*args, **kwargs)

    app.notify = lasting
    await _deal_wait(pilot)
    await pilot.press("d")  # nothing to discard yet: a notice says why
    await until(lambda: bool(pilot.app._notifications))


def _bad_db(tmp_path: Path) -> GinRummyApp:
    fixed = Path("/tmp/ginrummy-snapshot-bad-db")  # a fixed path: the message names the file
    fixed.mkdir(exist_ok=True)
    for p in fixed.iterdir():
        p.unlink()
    (fixed / DB_NAME).write_bytes(b"SQLite format 3\x00" + b"\x01" * 200)
    return GinRummyApp(data_dir=fixed, computer_delay=0, analyse=False)


async def _confirm(pilot: Any) -> None:
    from ginrummy.tui.dialogs import ConfirmScreen

    await _start(pilot)
    await pilot.press("ctrl+d")
    await until(lambda: isinstance(pilot.app.screen, ConfirmScreen))
    await settle(pilot)


async def _stats(pilot: Any) -> None:
    from ginrummy.tui.stats import StatsScreen

    await _press_on_start(pilot, "ctrl+t", StatsScreen)


async def _replays(pilot: Any) -> None:
    from ginrummy.tui.replay import HistoryScreen

    await _press_on_start(pilot, "ctrl+y", HistoryScreen)


async def _replay(pilot: Any) -> None:
    from ginrummy.tui.replay import ReplayScreen

    await _replays(pilot)
    await pilot.press("enter")
    await until(lambda: isinstance(pilot.app.screen, ReplayScreen))
    await pilot.press("pagedown", "right", "right")
    await settle(pilot)


async def _start_help(pilot: Any) -> None:
    from ginrummy.tui.dialogs import HelpScreen

    await _press_on_start(pilot, "f1", HelpScreen)


async def _store_error(pilot: Any) -> None:
    from ginrummy.tui.dialogs import StoreErrorScreen

    await until(lambda: isinstance(pilot.app.screen, StoreErrorScreen))
    await settle(pilot)


async def _start_rules_open(pilot: Any) -> None:
    from ginrummy.tui.start import StartScreen

    await _start(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, StartScreen)
    await pilot.click("#rules CollapsibleTitle")
    await until(lambda: bool(screen.query(".option")))
    await settle(pilot)


def _opened(variant: str, seats: list[str], seed: int, then: Before, **kw: Any) -> Scenario:
    return Scenario("", _game(variant, seats, seed, **kw), then)


async def _sitter(pilot: Any) -> None:
    """The person sits out this hand: the computers play it to its end."""
    screen = pilot.app.screen
    await pilot.press("n")
    await until(lambda: screen.session.state.is_hand_over and screen.session.state.hand_number == 1)
    await settle(pilot)


async def _just_settle(pilot: Any) -> None:
    await settle(pilot)


SCENARIOS: dict[str, Scenario] = {
    "start": Scenario("the start screen", _app, _start),
    "start-saved": Scenario("the start screen with a game in progress", _with_games, _start),
    "start-options": Scenario("the start screen, rules options open", _app, _start_rules_open),
    "cut": _opened("classic", [HUMAN, "greedy"], 5, _just_settle),
    "classic": _opened("classic", [HUMAN, "greedy"], 5, _in_hand("classic", [], 5)),
    "oklahoma": _opened("oklahoma", [HUMAN, "greedy"], 5, _in_hand("oklahoma", [], 5)),
    "hollywood": _opened("hollywood", [HUMAN, "greedy"], 5, _in_hand("hollywood", [], 5)),
    "three-captain": _opened("three", ["greedy", "greedy", HUMAN], 30, _in_hand("three", [], 30)),
    "three-sitter": _opened("three", ["greedy", HUMAN, "greedy"], 30, _sitter),
    "solitaire": _opened("solitaire", [HUMAN, "joker"], 3, _in_hand("solitaire", [], 3)),
    "gin-solitaire": _opened("gin-solitaire", [HUMAN, "joker"], 12, _in_hand("gin-solitaire", [], 12)),
    "hint": _opened("classic", [HUMAN, "greedy"], 5, _hint),
    "notice": _opened("classic", [HUMAN, "greedy"], 5, _notice),
    "discards": _opening(_discards_session, _discards),
    "keys": _opened("classic", [HUMAN, "greedy"], 5, _help_in_game),
    "rules": _opened("oklahoma", [HUMAN, "greedy"], 5, _rules_in_game),
    "start-rules": Scenario("the rules of the variant chosen, from the start screen (f2)", _app, _start_rules),
    "hand-over": _hand_over("classic", [HUMAN, "greedy"], 30),
    "hand-over-three": _hand_over("three", [HUMAN, "greedy", "greedy"], 30),
    "layoffs": _opening(layoffs_session),
    "spread": _opening(spread_session, _spread),
    "final": _opening(_final),
    "scores": _opening(_final_three, _scores),
    "stats": Scenario("statistics", _with_games, _stats),
    "replays": Scenario("the finished games", _with_games, _replays),
    "replay": Scenario("the replay viewer", _with_games, _replay),
    "confirm": Scenario("deleting a game asks first", _with_games, _confirm),
    "start-keys": Scenario("the keys from the start screen", _app, _start_help),
    "store-error": Scenario("the database cannot be opened", _bad_db, _store_error),
}

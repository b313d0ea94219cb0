"""The terminal app, driven by Textual's pilot: a full hand of every variant played through keys,
resuming a saved game, the bad-database screen, and snapshots of the main screens."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import pseudo_audit
from ginrummy.actions import Action
from ginrummy.agents import Agent, Decision, register
from ginrummy.cards import CardSet
from ginrummy.melds import best_discards, min_deadwood
from ginrummy.options import VARIANTS
from ginrummy.store import DB_NAME, Store
from ginrummy.words import result_lines, you_grammar
from pseudo_audit import plain

pytest.importorskip("textual")

from ginrummy.tui.app import GinRummyApp
from ginrummy.tui.screens import GameScreen, StartScreen, StatsScreen, StoreErrorScreen
from ginrummy.words import move_name

TEST_AGENT = "tui-test"


def choose(hand: Sequence[str], legal: Sequence[str], upcard: str | None = None) -> str:
    """A quick, deterministic policy: go out when possible, take the discard when it cuts the
    deadwood a lot, else draw; discard the card that leaves the least deadwood (the highest such)."""
    for kind in ("gin ", "gin", "knock ", "knock"):
        for a in legal:
            if a == kind or (kind.endswith(" ") and a.startswith(kind)):
                return a
    mask = int(CardSet.parse(" ".join(hand)))
    if "take" in legal and upcard is not None:
        up = int(CardSet.parse(upcard))
        if best_discards(mask | up)[0] < min_deadwood(mask) - 4:
            return "take"
    if "pass" in legal:
        return "pass"
    if "draw" in legal:
        return "draw"
    best: tuple[int, int, str] | None = None
    for a in legal:
        if not a.startswith("discard "):
            continue
        card = CardSet.parse(a.split()[1])
        key = (min_deadwood(mask & ~int(card)), -card.value, a)
        if best is None or key < best:
            best = key
    assert best is not None, legal
    return best[2]


class _TestAgent(Agent):
    name = TEST_AGENT

    def decide(self, observation: dict[str, Any], legal: Sequence[Action]) -> Decision:
        pile = observation.get("discard_pile") or []
        text = choose(observation.get("hand", []), [str(a) for a in legal], pile[-1] if pile else None)
        return Decision(Action.parse(text))


@pytest.fixture(autouse=True, scope="module")
def _test_agent() -> Any:
    """Register the quick test agent for this module's tests only."""
    from ginrummy.agents import base

    register(TEST_AGENT, VARIANTS)(_TestAgent)
    yield
    base._REGISTRY.pop(TEST_AGENT, None)


SEATS = {
    "classic": ["human", TEST_AGENT],
    "oklahoma": ["human", TEST_AGENT],
    "hollywood": ["human", TEST_AGENT],
    "three": ["human", TEST_AGENT, TEST_AGENT],
    "solitaire": ["human", "joker"],
    "gin-solitaire": ["human", "joker"],
}


# Deal seeds whose first hand ends in a knock after a few of the person's moves (keeps the tests quick).
HAND_SEEDS = {"classic": 30, "oklahoma": 30, "hollywood": 30, "three": 30, "solitaire": 3, "gin-solitaire": 12}


def make_app(
    tmp_path: Path,
    variant: str | None = None,
    *,
    seats: list[str] | None = None,
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> GinRummyApp:
    start = None
    if variant is not None:
        start = {"variant": variant, "seats": seats or SEATS[variant], "options": options or {}}
    kwargs.setdefault("store", Store(tmp_path))
    return GinRummyApp(computer_delay=0, deal_seed=kwargs.pop("deal_seed", 11), start=start, **kwargs)


def text_of(widget: Any) -> str:
    """The plain text a Static shows (rich renderables are printed to a console)."""
    import io

    from rich.console import Console

    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined]


async def wait_for(pilot: Any, predicate: Any, tries: int = 2000, limit: float = 120.0) -> None:
    """Wait (without forcing redraws, which pilot.pause does) until ``predicate()`` holds: at least
    ``tries`` looks, and for as long as ``limit`` seconds (a loaded machine saving every action to
    SQLite can take several seconds for one hand; the limit only stops a test that hangs)."""
    import time

    deadline = time.monotonic() + limit
    n = 0
    while n < tries or time.monotonic() < deadline:
        if predicate():
            return
        n += 1
        await asyncio.sleep(0.003)
    raise AssertionError("the app did not get there")


async def press_action(pilot: Any, screen: GameScreen, action: str) -> None:
    """Send one action through keys: select the card by its number key, then the action key."""
    kind, _, card = action.partition(" ")
    if card:
        index = screen.order.index(card)
        if screen.selected != card:
            key = "1234567890-"[index]
            await pilot.press("minus" if key == "-" else key)
        assert screen.selected == card
    key = {"draw": "s", "take": "t", "pass": "p", "discard": "d", "knock": "k", "gin": "g"}[kind]
    if kind == "gin" and not card and screen.obs()["phase"] != "opening":
        key = "b"
    await pilot.press(key)


async def play_one_hand(pilot: Any, app: GinRummyApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    session = screen.session
    await pilot.press("n")  # deal (the commitment was shown)
    start = session.state.hand_number
    assert start >= 1
    moves = 0
    while not session.state.is_hand_over:
        await wait_for(pilot, lambda: session.human_to_act() is not None or session.state.is_hand_over)
        if session.state.is_hand_over:
            break
        obs = screen.obs()
        pile = obs.get("discard_pile") or []
        action = choose(obs["hand"], obs["legal_actions"], pile[-1] if pile else None)
        before = len(session.state.logs[-1].actions)
        await press_action(pilot, screen, action)
        await wait_for(pilot, lambda n=before: len(session.state.logs[-1].actions) > n or session.state.is_hand_over)
        moves += 1
        assert moves < 200
    await pilot.pause()
    return screen


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_hand_of_every_variant_by_keys(tmp_path: Path, variant: str) -> None:
    async def run() -> None:
        store = Store(tmp_path)
        app = make_app(tmp_path, variant, store=store, deal_seed=HAND_SEEDS[variant])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = await play_one_hand(pilot, app)
            obs = screen.obs()
            assert obs["result"]["explanation"]
            result_text = plain(str(screen.query_one("#result").render()))
            # the engine's last line of explanation, as the screen's language words it (English: as written)
            said = result_lines(obs["result"]["explanation"][-1:], obs["players"], screen.session.seats)
            assert plain(said[0]) in result_text
            if not pseudo_audit.active():
                assert you_grammar(obs["result"]["explanation"][-1]) in result_text
            fair = str(screen.query_one("#fair").render())
            assert "seed revealed" in fair and obs["revealed_seed"] in fair.replace("\n", "")
            # saved after every action: the store holds exactly this game
            if not screen.session.state.is_terminal:
                saved = store.load_game(screen.game_id)
                assert saved is not None
                assert saved.state.to_record() == screen.session.state.to_record()

    asyncio.run(run())


def test_keys_sort_select_hint_and_display_toggles(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "classic")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert "Next deal committed" in str(screen.query_one("#fair").render())
            await pilot.press("n")
            await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
            first = list(screen.order)
            await pilot.press("m")  # ungroup, sorted by rank
            by_rank = list(screen.order)
            await pilot.press("o")  # by suit
            assert screen.sort_mode == "suit" and sorted(by_rank) == sorted(screen.order)
            assert sorted(first) == sorted(by_rank)
            await pilot.press("3")
            assert screen.selected == screen.order[2]
            await pilot.press("right")
            assert screen.selected == screen.order[3]
            await pilot.press("3", "3")  # select, then unselect
            assert screen.selected is None
            await pilot.press("f", "z", "x")
            assert app.four_colour and app.large and app.high_contrast
            assert app.has_class("four-colour") and app.theme == "ginrummy-high-contrast"
            await pilot.press("f", "z", "x")
            assert not (app.four_colour or app.large or app.high_contrast)
            # an illegal key changes nothing
            record = screen.session.state.to_record()
            await pilot.press("d")  # nothing selected / not the discard phase
            assert screen.session.state.to_record() == record

    asyncio.run(run())


def test_resume_exactly_where_it_was(tmp_path: Path) -> None:
    async def first() -> tuple[str, dict[str, Any]]:
        app = make_app(tmp_path, "gin-solitaire")
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("n")
            for _ in range(3):
                obs = screen.obs()
                if screen.session.state.is_hand_over:
                    break
                await press_action(pilot, screen, choose(obs["hand"], obs["legal_actions"]))
            record = screen.session.state.to_record()
            await pilot.press("q")
        return screen.game_id, record

    game_id, record = asyncio.run(first())

    async def second() -> None:
        app = GinRummyApp(store=Store(tmp_path), computer_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            assert "in progress" in str(app.screen.query_one("#resume-info").render())
            await pilot.press("enter")  # the saved list has the focus, newest first
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.game_id == game_id
            assert screen.session.state.to_record() == record

    asyncio.run(second())


def test_the_committed_seed_is_kept_when_quitting_before_the_deal(tmp_path: Path) -> None:
    store = Store(tmp_path)

    async def run() -> tuple[str, str]:
        app = make_app(tmp_path, "classic", store=store, deal_seed=None)  # secret seeds, as in real play
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            shown = screen.obs()["next_commitment"]
            assert shown in text_of(screen.query_one("#fair")).replace("\n", "")
            await pilot.press("q")
        return screen.game_id, shown

    game_id, shown = asyncio.run(run())
    resumed = store.load_game(game_id)
    assert resumed is not None and resumed.commitment_for_next_deal() == shown
    resumed.start_hand()
    assert resumed.state.logs[-1].commitment == shown


def test_start_screen_starts_a_game_with_options(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            start.variant = "solitaire"
            await start.rebuild_variant()
            await pilot.click("#rules CollapsibleTitle")  # open the rules options
            await pilot.pause()
            box = start.query_one(f"#opt-{start._build}-game_target")
            box.value = "150"  # type: ignore[attr-defined]
            await pilot.press("ctrl+n")
            await pilot.pause()
            game = app.screen
            assert isinstance(game, GameScreen)
            assert game.session.state.options.game_target == 150  # type: ignore[union-attr]
            await pilot.press("escape")
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            start.variant = "three"
            await start.rebuild_variant()
            start.query_one(f"#name-{start._build}-1").value = "Ada"  # type: ignore[attr-defined]
            start.query_one("#name").value = "Bo"  # type: ignore[attr-defined]
            await pilot.press("ctrl+n")
            await pilot.pause()
            game = app.screen
            assert isinstance(game, GameScreen)
            assert game.session.state.players == ["Bo", "Ada", "Expert"]
            assert game.session.seats == ["human", "expert", "expert"]
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            # a bad option is named and nothing starts
            start.variant = "solitaire"
            await start.rebuild_variant()
            await start.build_options()
            box = app.screen.query_one(f"#opt-{start._build}-game_target")
            box.value = "0"  # type: ignore[attr-defined]
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert isinstance(app.screen, StatsScreen)

    asyncio.run(run())


@pytest.mark.parametrize("choice", ["quit-store", "new-db"])
def test_bad_database_reported_and_untouched(tmp_path: Path, choice: str) -> None:
    bad = tmp_path / DB_NAME
    bad.write_bytes(b"not a database at all\n" * 10)
    before = bad.read_bytes()

    async def run() -> None:
        app = GinRummyApp(data_dir=tmp_path, computer_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StoreErrorScreen)
            assert "not a ginrummy database" in str(app.screen.query_one("#store-error-text").render())
            assert bad.read_bytes() == before
            await pilot.click(f"#{choice}")
            await pilot.pause()
            if choice == "new-db":
                assert isinstance(app.screen, StartScreen)
                assert app.store is not None

    asyncio.run(run())
    aside = [p for p in tmp_path.iterdir() if ".bad-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    if choice == "quit-store":
        assert bad.read_bytes() == before and not aside
    else:
        assert len(aside) == 1 and aside[0].read_bytes() == before
        Store(tmp_path)  # the new database is good


def test_hint_and_the_sitters_advice(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "three", seats=[TEST_AGENT, "human", TEST_AGENT], deal_seed=30)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("n")
            await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
            obs = screen.obs()
            assert obs["roles"]["captain"] == 1  # the person is the captain: the sitter advises
            advice = str(screen.query_one("#captain").render())
            assert "(the sitter) suggests:" in advice
            await pilot.press("h")
            assert plain(screen.message).startswith("Hint: ")
            best = plain(screen.message).removeprefix("Hint: ").split(" — ")[0].split("  (")[0]
            named = {plain(move_name(Action.parse(a))): a for a in obs["legal_actions"]}
            assert best in named  # the move as a reason names it (Take, Discard 7h), from the catalogs

    asyncio.run(run())


def test_the_sitter_sees_the_captains_hand(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "three", seats=[TEST_AGENT, TEST_AGENT, "human"], deal_seed=30)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("n")
            await wait_for(pilot, lambda: screen.session.state.is_hand_over)
            await pilot.pause()
            assert "You are the sitter. The captain's hand:" in str(screen.query_one("#captain").render())
            assert "sitter You" in str(screen.query_one("#info").render()) or "(you)" in str(
                screen.query_one("#info").render()
            )

    asyncio.run(run())


def test_a_game_to_the_end_is_filed_with_its_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ginrummy.tui.game as screens

    original = screens.solitaire_analysis
    monkeypatch.setattr(screens, "solitaire_analysis", lambda session, rollouts=None: original(session, rollouts=4))
    store = Store(tmp_path)

    async def run() -> None:
        app = make_app(tmp_path, "gin-solitaire", store=store, options={"game_target": 20}, deal_seed=2)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            for _ in range(10):
                await play_one_hand(pilot, app)
                if screen.session.state.is_terminal:
                    break
            assert screen.session.state.is_terminal
            await wait_for(pilot, lambda: "accuracy" in screen.message)
            await pilot.pause()
            assert "Game over" in str(screen.query_one("#status").render())
            sheet = text_of(screen.query_one("#scores"))
            assert "final" in sheet and "Winner:" in sheet
            [g] = store.history()
            assert g.id == screen.game_id and g.accuracy is not None
            assert store.saved_games() == []
            await pilot.press("n")  # a new game with the same settings
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen is not screen
            assert not app.screen.session.state.logs

    asyncio.run(run())


# ---------------------------------------------------------------------------------------------
# Snapshots of the main screens (pytest-textual-snapshot); `pytest --snapshot-update` rewrites them.
# ---------------------------------------------------------------------------------------------
SIZE = (120, 40)


def _snap(request: pytest.FixtureRequest) -> Any:
    try:
        return request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")


@pytest.mark.english("an English snapshot")
def test_snapshot_start_screen(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)
    assert snap_compare(make_app(tmp_path), terminal_size=SIZE)


@pytest.mark.english("an English snapshot")
def test_snapshot_classic_mid_hand(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        await pilot.press("n")
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
        if "pass" in screen.legal():  # a key that cannot act now would say so on the screenshot
            await pilot.press("p")
            await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
        await pilot.press("s", "2")
        # Let every re-render settle before the screenshot (one pause was not always enough on a busy machine).
        for _ in range(5):
            await pilot.pause(0.05)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(make_app(tmp_path, "classic", deal_seed=5), terminal_size=SIZE, run_before=before)


@pytest.mark.english("an English snapshot")
def test_snapshot_classic_mid_hand_80x24(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The game screen on the smallest supported terminal (the same position as at 120x40)."""
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        await pilot.press("n")
        screen = pilot.app.screen
        await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
        if "pass" in screen.legal():
            await pilot.press("p")
            await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
        await pilot.press("s", "2")
        for _ in range(5):
            await pilot.pause(0.05)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(make_app(tmp_path, "classic", deal_seed=5), terminal_size=(80, 24), run_before=before)


@pytest.mark.english("an English snapshot")
def test_snapshot_solitaire_four_colour(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        await pilot.press("n")
        await pilot.pause()

    app = make_app(tmp_path, "solitaire", deal_seed=3, four_colour=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=before)


@pytest.mark.english("an English snapshot")
def test_snapshot_hand_over_three_players(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        await play_one_hand(pilot, pilot.app)
        await pilot.pause()

    assert snap_compare(make_app(tmp_path, "three", deal_seed=30), terminal_size=SIZE, run_before=before)


@pytest.mark.english("an English snapshot")
def test_snapshot_bad_database(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)
    fixed = Path("/tmp/ginrummy-snapshot-bad-db")  # a fixed path: the message names the file
    fixed.mkdir(exist_ok=True)
    for p in fixed.iterdir():
        p.unlink()
    (fixed / DB_NAME).write_bytes(b"SQLite format 3\x00" + b"\x01" * 200)
    app = GinRummyApp(data_dir=fixed, computer_delay=0)
    assert snap_compare(app, terminal_size=(100, 24))


def _play_args(tmp_path: Path, *argv: str) -> Any:
    """``ginrummy play ARGV`` parsed as the command line does."""
    import argparse

    from ginrummy.commands import play

    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    return parser.parse_args(list(argv))


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--option", "gin_bonus=abc"], "gin_bonus"),
        (["--variant", "nope"], "unknown variant 'nope'"),
        (["--opponent", "bogus"], "unknown agent 'bogus'"),
        (["--name", "Bo", "--option", "nonsense"], "NAME=VALUE"),
        (["--resume", "nope"], "no saved game 'nope'"),
        (["--resume"], "no saved game to resume"),
        (["--new", "--resume", "x"], "exclude each other"),
    ],
)
def test_play_command_refuses_bad_choices_before_the_app_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], says: str
) -> None:
    from ginrummy.commands import play

    def no_app(*_a: Any, **_k: Any) -> None:
        raise AssertionError("the app must not start")

    args = _play_args(tmp_path, *argv)
    args.data_dir = str(tmp_path)
    monkeypatch.setattr(GinRummyApp, "run", no_app)
    assert play.run(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ginrummy play: ") and says in err[0], err
    assert Store(tmp_path).saved_games() == []  # nothing was saved


def test_play_command_new_game_honours_name_opponent_and_options(tmp_path: Path) -> None:
    from ginrummy.commands import play

    args = _play_args(
        tmp_path, "--variant", "oklahoma", "--name", "Ada", "--opponent", "greedy", "--option", "gin_bonus=30"
    )
    args.delay = 0

    async def run() -> None:
        app = play.make_app(args, str(tmp_path))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
            screen = app.screen
            assert isinstance(screen, GameScreen)
            s = screen.session
            assert s.state.variant == "oklahoma"
            assert s.names[0] == "Ada" and s.seats == ["human", "greedy"]
            assert s.state.options.gin_bonus == 30
            await pilot.press("q")

    asyncio.run(run())


def test_play_command_resume_opens_the_newest_saved_game(tmp_path: Path) -> None:
    from ginrummy.commands import play
    from ginrummy.session import make_session

    store = Store(tmp_path)
    session = make_session("hollywood", seats=["human", "greedy"], name="Kim", deal_seed=4)
    store.save_game("g-one", session)
    store.release_game("g-one")
    del store
    args = _play_args(tmp_path, "--resume")
    args.delay = 0

    async def run() -> None:
        app = play.make_app(args, str(tmp_path))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.game_id == "g-one" and screen.session.names[0] == "Kim"
            await pilot.press("q")

    asyncio.run(run())


def test_no_sitter_text_before_the_first_deal(tmp_path: Path) -> None:
    async def run() -> None:
        for variant in ("classic", "oklahoma", "hollywood"):
            app = make_app(tmp_path, variant)
            async with app.run_test(size=(120, 40)) as pilot:
                screen = app.screen
                assert isinstance(screen, GameScreen)
                await pilot.pause()
                melds = str(screen.query_one("#melds").render())
                assert "sitter" not in melds and "No hand is in play yet." in melds
                await pilot.press("n")
                await wait_for(pilot, lambda s=screen: bool(s.obs().get("hand")))
                await pilot.pause()
                assert "sitter" not in str(screen.query_one("#melds").render())

    asyncio.run(run())


def test_a_watched_solitaire_names_the_computer_and_is_not_filed_as_yours(tmp_path: Path) -> None:
    store = Store(tmp_path)

    async def run() -> None:
        app = make_app(
            tmp_path,
            "gin-solitaire",
            seats=[TEST_AGENT, "joker"],
            store=store,
            options={"game_target": 20},
            deal_seed=2,
        )
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            s = screen.session
            assert s.watched
            results: list[str] = []
            for _ in range(20):
                hand = s.state.hand_number
                await pilot.press("n")
                await wait_for(pilot, lambda h=hand: s.state.hand_number > h and s.state.is_hand_over)
                await pilot.pause()
                results.append(str(screen.query_one("#result").render()))
                if s.state.is_terminal:
                    break
            assert s.state.is_terminal
            text = "\n".join(results)
            assert "You score" not in text and "You win" not in text
            assert "Tui-test score" in text or "Tui-test win" in text
            info = str(screen.query_one("#info").render())
            assert "watching the tui-test v. the Joker" in info and "you v." not in info
            await pilot.pause()
            assert store.history() == [] and store.saved_games() == []

    asyncio.run(run())


@pytest.mark.parametrize("variant", ["solitaire", "gin-solitaire"])
def test_the_solitaires_show_the_card_just_drawn(tmp_path: Path, variant: str) -> None:
    async def run() -> None:
        app = make_app(tmp_path, variant, deal_seed=HAND_SEEDS[variant])
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            s = screen.session
            await pilot.press("n")
            await wait_for(pilot, lambda: s.human_to_act() is not None and screen.obs()["phase"] == "discard")
            obs = screen.obs()
            before = set(obs["hand"])
            action = choose(obs["hand"], [a for a in obs["legal_actions"] if a.startswith("discard ")])
            await press_action(pilot, screen, action)
            await wait_for(pilot, lambda: set(screen.obs().get("hand", [])) - before != set())
            await pilot.pause()
            [drawn] = set(screen.obs()["hand"]) - before
            assert screen.new_cards == {drawn}
            assert f"Just drawn: {drawn}" in text_of(screen.query_one("#opponents"))
            assert f"draw {drawn}" in "\n".join(str(line) for line in screen.query_one("#log").lines)

    asyncio.run(run())


def test_ctrl_d_asks_before_deleting_a_game_in_progress(tmp_path: Path) -> None:
    from ginrummy.session import make_session
    from ginrummy.tui.screens import ConfirmScreen

    store = Store(tmp_path)
    store.save_game("g-keep", make_session("classic", seats=["human", "greedy"], deal_seed=3))
    store.release_game("g-keep")

    async def run() -> None:
        app = GinRummyApp(computer_delay=0, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            await pilot.pause()
            await pilot.press("ctrl+d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert [g.id for g in store.saved_games()] == ["g-keep"]  # nothing yet
            await pilot.press("enter")  # the default answer is No
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            assert [g.id for g in store.saved_games()] == ["g-keep"]
            await pilot.press("ctrl+d")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await wait_for(pilot, lambda: store.saved_games() == [])
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            await pilot.press("ctrl+d")  # nothing left: it says so
            await wait_for(pilot, lambda: any("No saved game to delete" in str(n.message) for n in app._notifications))

    asyncio.run(run())


def test_keys_that_cannot_act_say_why(tmp_path: Path) -> None:
    def said(app: GinRummyApp, text: str) -> bool:
        return any(text in plain(str(n.message)) for n in app._notifications)  # (as in English)

    async def run() -> None:
        app = make_app(tmp_path, "classic", seats=["human", "greedy"], deal_seed=30)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("s")  # before the deal
            await wait_for(pilot, lambda: said(app, "You cannot draw from the stock: no hand is in play (n deals"))
            await pilot.press("h")
            await wait_for(pilot, lambda: said(app, "You cannot have a hint: no hand is in play"))
            await pilot.press("n")
            await wait_for(pilot, lambda: screen.session.human_to_act() is not None)
            legal = screen.legal()
            before = len(screen.session.state.logs[-1].actions)
            assert "discard" not in " ".join(legal)
            await pilot.press("d")
            await wait_for(pilot, lambda: said(app, "You cannot discard now; you can "))
            await pilot.press("n")
            await wait_for(pilot, lambda: said(app, "You cannot deal: the hand in play is not over."))
            assert len(screen.session.state.logs[-1].actions) == before and screen.legal() == legal  # unchanged

    asyncio.run(run())


def test_at_80x24_the_hands_scoring_is_reached_by_keyboard(tmp_path: Path) -> None:
    async def run() -> None:
        app = make_app(tmp_path, "classic", deal_seed=HAND_SEEDS["classic"])
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await play_one_hand(pilot, app)
            table = screen.query_one("#table")
            result = screen.query_one("#result")
            await wait_for(pilot, lambda: result.display and result.region.height > 0)
            assert table.max_scroll_y > 0  # it does not fit: the scoring lies below the fold
            for _ in range(30):  # Tab reaches the table
                if app.focused is table:
                    break
                await pilot.press("tab")
            assert app.focused is table
            await pilot.press("home")
            await wait_for(pilot, lambda: table.scroll_y == 0)
            await pilot.press("end")
            await wait_for(pilot, lambda: table.scroll_y == table.max_scroll_y)
            await pilot.pause()
            assert result.region.bottom <= table.region.bottom  # the last scoring line is on screen
            assert "Hand 1:" in str(result.render())

    asyncio.run(run())

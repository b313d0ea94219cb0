"""``ginrummy replay FILE --view``: the terminal's replay viewer on a game record read from a file
(every hand face up; forwards and back by move and by hand), for records of every variant; a bad
record gets one line and nothing is shown.  Seeded games (tests/test_record.py's random games),
Textual's pilot; waits for conditions, never for time."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cards import full_pack
from ginrummy.cli import main
from ginrummy.errors import RecordError
from ginrummy.record import dumps, replay
from ginrummy.replays import replay_game, replay_steps
from pseudo_audit import plain
from test_record import random_game

pytest.importorskip("textual")

from ginrummy.tui.records import RecordsApp
from ginrummy.tui.replay import HistoryScreen, RecordFileScreen, RecordListScreen, ReplayScreen

VARIANTS = ["classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire"]


def record_of(variant: str, seed: int = 5, **kw: Any) -> dict[str, Any]:
    return random_game(variant, random.Random(seed), max_hands=3, **kw).to_record()


async def wait_for(predicate: Callable[[], bool], limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the app did not get there")
        await asyncio.sleep(0.005)


def run_cli_view(
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    body: Callable[[Any, RecordsApp], Coroutine[Any, Any, None]],
    size: tuple[int, int] = (80, 24),
) -> int:
    """``ginrummy replay ... --view`` as typed, the app it opens driven by ``body`` (Textual's pilot)."""
    ran: list[bool] = []

    def run(self: RecordsApp, *a: Any, **kw: Any) -> None:
        async def go() -> None:
            async with self.run_test(size=size) as pilot:
                await pilot.pause()
                await body(pilot, self)
                ran.append(True)

        asyncio.run(go())

    monkeypatch.setattr(RecordsApp, "run", run)
    code = main(argv)
    assert ran, "the viewer did not open"
    return code


def shown(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-step").render())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_viewer_steps_through_a_record_file(variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = record_of(variant)
    path = tmp_path / f"{variant}.json"
    path.write_text(dumps(record), encoding="utf-8")
    steps = replay_steps(record, viewer=None)
    final = replay(record)
    deals = [i for i, s in enumerate(steps) if s.index == -1]
    assert len(deals) == len(record["hands"]) >= 2

    async def body(pilot: Any, app: RecordsApp) -> None:
        await wait_for(lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert [s.text for s in viewer.steps] == [s.text for s in steps]  # the one stepping of both apps
        assert viewer.position == 0 and "Hand 1 is dealt." in shown(viewer)
        assert f"step 1 of {len(steps)}" in shown(viewer)
        # every seat's hand face up: each card the deal gave, in the text
        first = steps[0]
        for seat, cards in enumerate(first.hands):
            if cards:
                assert f"{viewer.players[seat]}: " in shown(viewer)
        await pilot.press("right", "right")  # by move
        assert viewer.position == 2 and steps[2].text in shown(viewer)
        await pilot.press("left")
        assert viewer.position == 1
        await pilot.press("pagedown")  # by hand: the second deal
        assert viewer.position == deals[1] and "Hand 2 is dealt." in shown(viewer)
        await pilot.press("right")
        assert viewer.position == deals[1] + 1
        await pilot.press("pageup")  # back to this hand's deal, then the one before
        assert viewer.position == deals[1]
        await pilot.press("pageup")
        assert viewer.position == 0
        await pilot.press("end")
        assert viewer.position == len(steps) - 1
        assert viewer.steps[-1].totals == tuple(final.totals)
        await pilot.press("escape")  # the only screen: leaves
        await wait_for(lambda: app.return_code is not None)

    assert run_cli_view(monkeypatch, ["replay", str(path), "--view"], body) == 0


def test_a_file_of_several_records_lists_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = [record_of("classic", 7), record_of("solitaire", 8), record_of("three", 9, stop_inside=True)]
    path = tmp_path / "export.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    async def body(pilot: Any, app: RecordsApp) -> None:
        await wait_for(lambda: isinstance(app.screen, RecordListScreen))
        listing = app.screen
        assert isinstance(listing, RecordListScreen)
        assert len(listing.lines) == 3
        assert plain(listing.lines[0]).startswith("record 1 of 3 · Classic gin: ")  # the title, not the code name
        assert "stopped inside a hand" in plain(listing.lines[2])
        await pilot.press("down", "down", "enter")
        await wait_for(lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert len(viewer.steps) == len(replay_steps(records[2], viewer=None))
        assert viewer.steps[-1].to_act is not None  # a saved game: it stops inside the hand
        await pilot.press("end", "escape")
        await wait_for(lambda: isinstance(app.screen, RecordListScreen))
        await pilot.press("escape")
        await wait_for(lambda: app.return_code is not None)

    assert run_cli_view(monkeypatch, ["replay", str(path), "--view"], body) == 0


BAD = {
    "a card that is not a card": ("hands.1.actions", lambda acts: [*acts[:2], "discard QQ"], "actions[2] (action 3"),
    "an illegal action": ("hands.1.actions", lambda acts: [*acts[:1], "layoff As"], "actions[1] (action 2"),
    "a deck that is not a deck": ("hands.0.deck", lambda _d: ["As", "As"], "hands[0]"),
    "an unknown variant": ("variant", lambda _v: "canasta", "variant"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_record_gets_one_line_and_no_viewer(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of("classic")
    where, change, named = BAD[case]
    node: Any = record
    *path, last = where.split(".")
    for part in path:
        node = node[int(part)] if part.isdigit() else node[part]
    node[last] = change(node.get(last))
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(record), encoding="utf-8")
    before = file.read_bytes()
    monkeypatch.setattr(RecordsApp, "run", lambda self: pytest.fail("the viewer opened on a bad record"))
    assert main(["replay", str(file), "--view"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"ginrummy replay: {file}: ")
    assert named in err and "Traceback" not in err
    assert file.read_bytes() == before  # nothing changed


def test_a_bad_record_among_several_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = record_of("oklahoma"), record_of("solitaire")
    bad["hands"][0]["actions"].append("knock")
    file = tmp_path / "two.json"
    file.write_text(json.dumps([good, bad]), encoding="utf-8")
    assert main(["replay", str(file), "--view"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "records[1] (record 2)" in err and "hands[0] (hand 1).actions[" in err


def test_view_and_json_exclude_each_other_and_text_output_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "g.json"
    file.write_text(dumps(record_of("hollywood")), encoding="utf-8")
    assert main(["replay", str(file)]) == 0
    assert "Hollywood gin: " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["replay", str(file), "--view", "--json"])
    assert "not allowed with argument" in capsys.readouterr().err
    assert main(["replay", "-", "--view"]) == 1
    assert "standard input" in capsys.readouterr().err


def test_replay_game_checks_the_whole_record_first() -> None:
    """A fault in the record is reported before any position is made, naming the hand and field
    as the replay command does (the stepping alone would not check that a seed deals the deck)."""
    record = record_of("classic", 11)
    i, seeded = next((i, h) for i, h in enumerate(record["hands"]) if "seed" in h)
    seeded["deck"] = [str(c) for c in full_pack()]  # a deck, but not the one the seed deals
    fault = rf"hands\[{i}\] \(hand {i + 1}\)\.deck: the deck is not the one its seed deals"
    with pytest.raises(RecordError) as caught:
        replay_game(record)
    assert re.search(fault, plain(str(caught.value))), caught.value


def test_a_long_record_is_shown_from_its_start() -> None:
    record = record_of("classic", 5)
    every = replay_steps(record, viewer=None)
    game = replay_game(record, viewer=None, limit=10)
    assert game.truncated and [s.text for s in game.steps] == [s.text for s in every[:10]]
    whole = replay_game(record, viewer=None, limit=len(every))
    assert not whole.truncated and len(whole.steps) == len(every)


def test_the_finished_games_list_opens_a_record_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the terminal app: o in the list of finished games asks for a path; a bad record is named
    on one line and nothing opens; a good one opens in the viewer, Escape comes back to the list."""
    from textual.widgets import Input, Static

    from ginrummy.store import Store
    from ginrummy.tui.app import GinRummyApp

    good = record_of("gin-solitaire", 12)
    (tmp_path / "good.json").write_text(dumps(good), encoding="utf-8")
    bad = record_of("classic", 13)
    bad["hands"][0]["actions"] = ["layoff As"]
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    store = Store(tmp_path / "data")
    monkeypatch.chdir(tmp_path)

    async def run() -> None:
        app = GinRummyApp(store=store, computer_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+y")
            await wait_for(lambda: isinstance(app.screen, HistoryScreen))
            await pilot.press("o")
            await wait_for(lambda: isinstance(app.screen, RecordFileScreen))
            asking = app.screen
            path = asking.query_one("#record-path", Input)
            path.value = "bad.json"  # (relative: a long path wraps, its pieces no longer read as a path)
            await pilot.press("enter")
            error = asking.query_one("#record-error", Static)
            await wait_for(lambda: "hands[0] (hand 1).actions[0]" in plain(str(error.render())))
            assert app.screen is asking and "\n" not in str(error.render()).strip()
            path.value = str(tmp_path / "good.json")
            await pilot.press("enter")
            await wait_for(lambda: isinstance(app.screen, ReplayScreen))
            viewer = app.screen
            assert isinstance(viewer, ReplayScreen)
            assert [s.text for s in viewer.steps] == [s.text for s in replay_steps(good, viewer=None)]
            await pilot.press("pagedown", "end", "escape")
            await wait_for(lambda: isinstance(app.screen, HistoryScreen))

    asyncio.run(run())
    store.close()


# -- snapshots (pytest-textual-snapshot; `pytest --snapshot-update` rewrites them) ---------------
def _snap(request: pytest.FixtureRequest) -> Any:
    try:
        return request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")


@pytest.mark.english("an English snapshot")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_record_file_viewer(request: pytest.FixtureRequest, size: tuple[int, int]) -> None:
    """Oklahoma, the second hand a few moves in: both hands face up, the pile, the totals."""
    snap_compare = _snap(request)
    app = RecordsApp([record_of("oklahoma")], source="game.json")

    async def before(pilot: Any) -> None:
        await wait_for(lambda: isinstance(pilot.app.screen, ReplayScreen))
        await pilot.press("pagedown", "right", "right", "right")
        for _ in range(5):
            await pilot.pause(0.05)

    assert snap_compare(app, terminal_size=size, run_before=before)

"""The running-average chart per opponent and level (issue 14): ginrummy.statwords.chart_choices
gives both apps the same charts from Store.stats (over all games, then one per opponent); the
terminal's statistics screen shows the chosen one (Textual's pilot), the page gets them from
/api/stats.  Seeded games; waits for conditions, never for time."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ginrummy.i18n import using
from ginrummy.statwords import chart_choices, chart_line
from ginrummy.store import Store
from pseudo_audit import plain
from test_stats import _finished_session

OPPONENTS = {"beginner": [2, 4, 6], "expert": [3, 5], "greedy": [7]}


def history(tmp_path: Path) -> Store:
    """Six games of classic: three against the beginner, two against the expert, one against greedy."""
    store = Store(tmp_path)
    for opponent, seeds in OPPONENTS.items():
        for seed in seeds:
            store.finish_game(f"{opponent}{seed}", _finished_session(["human", opponent], seed))
    return store


def test_one_chart_over_all_games_then_one_per_opponent(tmp_path: Path) -> None:
    store = history(tmp_path)
    st = store.stats()["classic"]
    store.close()
    charts = chart_choices(st)
    assert [c["key"] for c in charts] == ["", "beginner", "expert", "greedy"]
    assert [plain(c["label"]) for c in charts] == [
        "all opponents",
        "against beginner (level)",
        "against expert (level)",
        "against greedy",
    ]
    assert charts[0]["values"] == st["running_average"] and charts[0]["games"] == 6
    for chart in charts[1:]:
        own = st["by_opponent"][chart["key"]]
        assert chart["values"] == own["running_average"] and chart["games"] == len(OPPONENTS[chart["key"]])
        assert chart["line"] == chart_line(chart["values"])
    assert charts[1]["values"] != charts[2]["values"]
    with using("ko"):
        korean = chart_choices(st)
    assert [c["values"] for c in korean] == [c["values"] for c in charts] and korean[1]["label"] != charts[1]["label"]
    one = Store(tmp_path / "one")
    one.finish_game("x", _finished_session(["human", "expert"], 3))
    assert [c["key"] for c in chart_choices(one.stats()["classic"])] == [""]  # one opponent: one chart
    one.close()


async def wait_for(predicate: Callable[[], bool], limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the app did not get there")
        await asyncio.sleep(0.005)


def test_the_terminal_chart_follows_the_opponent_chosen(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from textual.widgets import Select, Sparkline, Static

    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import StatsScreen

    store = history(tmp_path)
    charts = chart_choices(store.stats()["classic"])

    async def run() -> None:
        app = GinRummyApp(computer_delay=0, deal_seed=1, store=store)
        async with app.run_test(size=(80, 24)) as pilot:
            from ginrummy.tui.start import StartScreen

            # the start screen first: pushed before it is up, the statistics could end up under it
            await wait_for(lambda: isinstance(app.screen, StartScreen) and bool(app.screen.query("#seats Select")))
            app.push_screen(StatsScreen())
            await wait_for(lambda: bool(app.screen.query("#chart-classic-spark")))
            screen = app.screen
            assert isinstance(screen, StatsScreen)
            choice = screen.query_one("#chart-classic", Select)
            spark = screen.query_one("#chart-classic-spark", Sparkline)
            line = screen.query_one("#chart-classic-line", Static)
            assert [label for label, _ in choice._options] == [c["label"] for c in charts]
            assert list(spark.data or []) == charts[0]["values"]
            assert str(line.render()) == charts[0]["line"]
            await wait_for(lambda: choice.is_mounted)
            await pilot.pause()  # the list's own start (its first value, posted when it mounts) handled first
            choice.focus()
            choice.value = 2  # against the expert
            await wait_for(lambda: list(spark.data or []) == charts[2]["values"])
            assert str(line.render()) == charts[2]["line"] and screen.chosen["classic"] == 2
            choice.value = 3  # one game against greedy: drawn flat
            await wait_for(lambda: list(spark.data or []) == charts[3]["values"] * 2)
            await pilot.press("escape")

    asyncio.run(run())
    store.close()


def test_the_page_gets_the_same_charts(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from ginrummy.web.server import create_app

    store = history(tmp_path)
    charts = chart_choices(store.stats()["classic"])
    store.close()
    app = create_app(tmp_path, computer_delay=0, deal_seed=5)
    with TestClient(app, client=("127.0.0.1", 50000), base_url="http://127.0.0.1:8000") as local:
        got = local.get("/api/stats").json()["variants"]["classic"]["charts"]
        assert got == charts
        lv = local.get("/api/stats?lang=lv").json()["variants"]["classic"]["charts"]
        assert [c["values"] for c in lv] == [c["values"] for c in charts] and lv[0]["label"] != "all opponents"


@pytest.mark.english("an English snapshot")
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_statistics_with_the_chart_of_one_opponent(
    tmp_path: Path, request: pytest.FixtureRequest, size: tuple[int, int]
) -> None:
    pytest.importorskip("textual")
    try:
        snap_compare = request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")
    from textual.widgets import Select, Sparkline

    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import StatsScreen

    store = history(tmp_path)
    expert = chart_choices(store.stats()["classic"])[2]["values"]

    async def before(pilot: Any) -> None:
        from ginrummy.tui.start import StartScreen

        # the start screen first: pushed before it is up, the statistics could end up under it
        await wait_for(
            lambda: isinstance(pilot.app.screen, StartScreen) and bool(pilot.app.screen.query("#seats Select"))
        )
        pilot.app.push_screen(StatsScreen())
        await wait_for(lambda: bool(pilot.app.screen.query("#chart-classic-spark")))
        screen = pilot.app.screen
        # the list's own start (its first value, posted when it mounts) handled before choosing
        await wait_for(lambda: screen.query_one("#chart-classic", Select).is_mounted)
        await pilot.pause()
        screen.query_one("#chart-classic", Select).value = 2  # against the expert
        await wait_for(lambda: list(screen.query_one("#chart-classic-spark", Sparkline).data or []) == expert)
        screen.query_one("#chart-classic", Select).scroll_visible(animate=False)
        for _ in range(4):  # every re-render settled (no time waited)
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    app = GinRummyApp(computer_delay=0, deal_seed=1, store=store)
    assert snap_compare(app, terminal_size=size, run_before=before)

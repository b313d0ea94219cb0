"""Every screen and dialog of the terminal app in every language, at the smallest supported terminal
(80x24) and at 120x40 (issue 14 item 4, issue 18 item 4): snapshots in Korean and Latvian at 80x24
and in English at 120x40 (docs/screens.md lists them), and pilot checks that nothing is cut off at
the side, that every button, field and line is on screen or reachable by keyboard (a focusable
widget, or inside a container the keys scroll), that no button's label is cut, and that the footer
shows all its keys.  The screens are reached from seeded positions (tests/tui_screens.py), waiting
for conditions, never for time.  `pytest --snapshot-update` rewrites the snapshots; look at them
(tests/__snapshots__/test_tui_screens/) before accepting a change."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.cells import cell_len
from textual.app import App
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, RichLog, Select, Static

from ginrummy import i18n
from tui_screens import SCENARIOS

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
# what each snapshot shows, by language and size: every screen small in Korean and Latvian, large in English
SNAPSHOTS = [(name, lang, "80x24") for name in SCENARIOS for lang in ("ko", "lv")] + [
    (name, "en", "120x40") for name in SCENARIOS
]
ENGLISH = pytest.mark.english("the English screens chosen as such: the pseudo-locale run has its own audit")


@pytest.fixture
def speak(request: pytest.FixtureRequest) -> Iterator[str]:
    """The whole process speaks the test's language while the app runs, then the one before."""
    before = i18n.current_language()
    i18n.set_language(request.param)
    try:
        yield request.param
    finally:
        i18n.set_language(before)


def _shown(widget: Widget) -> bool:
    """Displayed, with every container it is in, and of some size."""
    if not all(w.display for w in widget.ancestors_with_self if isinstance(w, Widget)):
        return False
    return widget.region.width > 0 and widget.region.height > 0


def _keyboard_scrolled(widget: Widget) -> bool:
    """Inside a container that scrolls and that the keys can scroll (it takes the focus)."""
    return any(
        isinstance(a, Widget) and a.is_scrollable and a.max_scroll_y > 0 and a.focusable for a in widget.ancestors
    )


def layout_problems(app: App[Any]) -> list[str]:
    """What is wrong with the screen shown: cut at the side, out of reach below, a label cut."""
    width, height = app.size
    screen = app.screen
    problems: list[str] = []
    controls = (Button, Input, Select, Checkbox, OptionList, RichLog, Static, Label)
    for w in screen.query("*"):
        if not isinstance(w, controls) or not _shown(w):
            continue
        r = w.region
        if type(w).__module__.startswith("textual.widgets._footer"):
            continue
        if r.right > width:
            problems.append(f"{w!r} runs past column {width} (to {r.right})")
        if r.bottom > height and not _keyboard_scrolled(w):
            problems.append(f"{w!r} is below row {height} and the keys cannot scroll to it")
        if isinstance(w, Button) and cell_len(str(w.label)) > w.content_region.width:
            problems.append(f"the button {str(w.label)!r} is cut to {w.content_region.width} columns")
    for w in screen.query("*"):
        if not isinstance(w, Widget) or not _shown(w) or not w.is_scrollable:
            continue
        if w.max_scroll_y > 0 and not w.focusable and not any(c.focusable for c in w.query("*")):
            problems.append(f"{w!r} scrolls but nothing in it takes the focus")
    for key in screen.query("FooterKey"):
        if _shown(key) and key.region.right > width:
            problems.append(f"the footer's key {key!r} is cut off at column {width}")
    return problems


@pytest.mark.parametrize(
    ("name", "speak", "size"),
    [pytest.param(*s, id="-".join(s), marks=[ENGLISH] if s[1] == "en" else []) for s in SNAPSHOTS],
    indirect=["speak"],
)
def test_snapshot(name: str, speak: str, size: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """The screen ``name`` in the language and size of its id (``hand-over-ko-80x24``), checked
    for layout problems before the snapshot is taken."""
    try:
        snap_compare = request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")
    scenario = SCENARIOS[name]
    problems: list[str] = []

    async def before(pilot: Any) -> None:
        await scenario.before(pilot)
        problems.extend(layout_problems(pilot.app))

    assert snap_compare(scenario.app(tmp_path), terminal_size=SIZES[size], run_before=before)
    assert problems == []


@ENGLISH
@pytest.mark.parametrize("speak", ["en"], indirect=True)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_screen_fits_80x24_in_english(name: str, speak: str, tmp_path: Path) -> None:
    """English at 80x24 (its snapshots are at 120x40): the same layout checks."""
    scenario = SCENARIOS[name]

    async def run() -> list[str]:
        app = scenario.app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario.before(pilot)
            return layout_problems(app)

    assert asyncio.run(run()) == []


def test_v_shows_the_discard_pile_oldest_first(tmp_path: Path) -> None:
    """The discard history (v): every card of the pile, numbered oldest first; Esc closes it."""
    from ginrummy.tui.dialogs import DiscardsScreen
    from ginrummy.tui.game import GameScreen
    from ginrummy.tui.widgets import card_label

    scenario = SCENARIOS["discards"]

    async def run() -> None:
        app = scenario.app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario.before(pilot)
            dialog = app.screen
            assert isinstance(dialog, DiscardsScreen)
            game = app.screen_stack[-2]
            assert isinstance(game, GameScreen)
            pile = [str(c) for c in game.session.state.pile]
            assert len(pile) >= 5 and dialog.cards == pile
            shown = str(dialog.query_one("#discards-list", Static).render())
            places = [shown.index(f"{i}. {card_label(c)}") for i, c in enumerate(pile, 1)]
            assert places == sorted(places)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is game

    asyncio.run(run())


@pytest.mark.parametrize("speak", ["lv"], indirect=True)
def test_r_shows_the_rules_of_the_variant_in_play(speak: str, tmp_path: Path) -> None:
    """The rules one key away (r in a game, f2 on the start screen): the rule book's sections of
    the variant in play, in the language in effect (as the page's Rules dialog); r or Esc closes."""
    from textual.widgets import Markdown

    from ginrummy.rulebook import rules_markdown, variant_rules
    from ginrummy.tui.dialogs import RulesScreen
    from ginrummy.tui.game import GameScreen

    scenario = SCENARIOS["rules"]

    async def run() -> None:
        app = scenario.app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario.before(pilot)
            dialog = app.screen
            assert isinstance(dialog, RulesScreen) and dialog.variant == "oklahoma"
            shown = dialog.query_one(Markdown)
            assert shown.source == rules_markdown("oklahoma", "lv")
            titles = [s["title"] for s in variant_rules("oklahoma", "lv")["sections"]]
            assert len(titles) >= 3 and all(f"## {t}" in shown.source for t in titles)
            assert shown.source != rules_markdown("oklahoma", "en")  # the Latvian book, not the English
            assert "Kopīgās definīcijas" in shown.source
            await pilot.press("r")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)

    asyncio.run(run())

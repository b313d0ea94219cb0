"""The terminal app in Korean and Latvian (issue 18 items 4 and 5): screen snapshots at the smallest
supported terminal (80x24) and at 120x40, the start screen and the classic game mid-hand (the
position of tests/test_tui.py's snapshots).  `pytest --snapshot-update` rewrites them; look at
them (tests/__snapshots__/test_i18n_tui/) before accepting a change."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy import i18n
from ginrummy.store import Store
from ginrummy.tui.app import GinRummyApp

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


@pytest.fixture
def speak(request: pytest.FixtureRequest) -> Iterator[None]:
    """The whole process speaks the test's language while the app runs (the app may run its
    screens outside the test's context), then English again."""
    before = i18n.current_language()
    i18n.set_language(request.param)
    try:
        yield
    finally:
        i18n.set_language(before)


def _snap(request: pytest.FixtureRequest) -> Any:
    try:
        return request.getfixturevalue("snap_compare")
    except pytest.FixtureLookupError:
        pytest.skip("pytest-textual-snapshot is not installed")


def make_app(tmp_path: Path, variant: str | None = None, deal_seed: int = 11) -> GinRummyApp:
    start = {"variant": variant, "seats": ["human", "expert"], "options": {}} if variant else None
    return GinRummyApp(computer_delay=0, deal_seed=deal_seed, start=start, store=Store(tmp_path))


async def _until(predicate: Any) -> None:
    deadline = time.monotonic() + 120
    while not predicate():
        assert time.monotonic() < deadline, "the app did not get there"
        await asyncio.sleep(0.003)


@pytest.mark.parametrize("speak", ["ko", "lv"], indirect=True)
@pytest.mark.parametrize("size", SIZES)
def test_snapshot_start_screen(speak: None, size: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        for _pause in range(3):
            await pilot.pause(0.05)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZES[size], run_before=before)


@pytest.mark.parametrize("speak", ["ko", "lv"], indirect=True)
@pytest.mark.parametrize("size", SIZES)
def test_snapshot_classic_mid_hand(speak: None, size: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    snap_compare = _snap(request)

    async def before(pilot: Any) -> None:
        await pilot.press("n")
        screen = pilot.app.screen
        await _until(lambda: screen.session.human_to_act() is not None)
        if "pass" in screen.legal():
            await pilot.press("p")
            await _until(lambda: screen.session.human_to_act() is not None)
        await pilot.press("s", "2")
        for _pause in range(5):
            await pilot.pause(0.05)
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(make_app(tmp_path, "classic", deal_seed=5), terminal_size=SIZES[size], run_before=before)


@pytest.mark.english("switches from English to Korean and Latvian: checks the choice of language")
def test_the_start_screen_switches_the_language_and_remembers_it(tmp_path: Path) -> None:
    """ctrl+l on the start screen: the next language at once (the screen made again in it, its
    footer too), saved in the data directory's settings as --lang saves it."""
    from textual.widgets import Static

    from ginrummy.tui.start import StartScreen

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(lambda: isinstance(app.screen, StartScreen))
            first = app.screen
            await pilot.press("ctrl+l")
            await _until(lambda: isinstance(app.screen, StartScreen) and app.screen is not first)
            await pilot.pause()
            assert i18n.current_language() == "ko"
            assert i18n.saved_language(tmp_path) == "ko"
            title = app.screen.query_one("#start-title", Static)
            assert "진 러미 게임 모음" in str(title.content)
            assert any(b.description == "게임 시작" for _key, b in app.screen._bindings)
            assert app._bindings.key_to_bindings["ctrl+p"][0].description == "명령"  # the app's own keys too
            await pilot.press("ctrl+l")
            await _until(lambda: i18n.current_language() == "lv")
            assert i18n.saved_language(tmp_path) == "lv"
            assert app._bindings.key_to_bindings["ctrl+p"][0].tooltip == "Atvērt komandu sarakstu"
            await pilot.press("ctrl+l")
            await _until(lambda: i18n.current_language() == "en")
            assert i18n.saved_language(tmp_path) == "en"

    before = i18n.current_language()
    try:
        asyncio.run(run())
    finally:
        i18n.set_language(before)


@pytest.mark.parametrize("speak", ["ko", "lv"], indirect=True)
@pytest.mark.parametrize("variant", ["classic", "oklahoma", "solitaire", "three"])
def test_the_rules_options_are_in_words(speak: None, variant: str, tmp_path: Path) -> None:
    """Issue 18: the start screen's rules options name each option in words in the screen's
    language (no code name such as ``knock_limit`` on screen), a choice lists its values in words
    (the value chosen stays the code's), a default is worded (``예``, not ``true``), and a number
    left out is named by the option's words."""
    from textual.widgets import Input, Label, Select, Static

    from ginrummy.options import option_help
    from ginrummy.tui.start import StartScreen
    from ginrummy.words import option_name, option_value

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(lambda: isinstance(app.screen, StartScreen))
            start = app.screen
            assert isinstance(start, StartScreen)
            start.variant = variant
            await start.rebuild_variant()
            await pilot.click("#rules CollapsibleTitle")
            helps = option_help(variant)
            # every row mounted, each choice showing its value (a Select takes it when mounted)
            await _until(
                lambda: (
                    len(start.query(".option")) == len(helps)
                    and all(s.value != Select.NULL for s in start.query("#options Select"))
                )
            )
            rows = list(start.query(".option"))
            assert len(rows) == len(helps)
            numbers = []
            for row, (name, default, _doc, allowed) in zip(rows, helps, strict=True):
                label = str(row.query_one(Label).content)
                assert label == option_name(name) and name not in label
                control = row.query_one(f"#opt-{start._build}-{name}")
                if isinstance(control, Select) and allowed:
                    prompts = [str(prompt) for prompt, _value in control._options]
                    assert prompts == [option_value(a) for a in allowed]
                    assert all(str(a) not in prompts for a in allowed)
                    assert control.value == default  # the code's value
                elif isinstance(control, Input):
                    numbers.append(name)
                doc = str(row.query_one(".doc", Static).content)
                assert option_value(default) in doc
                if isinstance(default, bool):
                    assert str(default).lower() not in doc
            if numbers:  # a number left out: the message names the option in words
                start.query_one(f"#opt-{start._build}-{numbers[0]}", Input).value = ""
                await pilot.press("ctrl+n")
                await _until(lambda: bool(app._notifications))
                message = next(iter(app._notifications)).message
                assert option_name(numbers[0]) in message and numbers[0] not in message
                assert isinstance(app.screen, StartScreen)  # nothing started

    asyncio.run(run())


@pytest.mark.parametrize("speak", ["ko", "lv"], indirect=True)
def test_the_command_palette_speaks_the_screens_language(speak: None, tmp_path: Path) -> None:
    """Issue 18: ctrl+p opens Textual's command palette with the app's own commands, worded in the
    screen's language (the keys screen and quitting), its search box too; the keys command opens
    the app's keys screen."""
    from textual.command import CommandInput, CommandList, CommandPalette

    from ginrummy.i18n import _
    from ginrummy.tui.dialogs import HelpScreen
    from ginrummy.tui.start import StartScreen

    async def run() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(lambda: isinstance(app.screen, StartScreen))
            assert app._bindings.key_to_bindings["ctrl+p"][0].description == _("commands") != "commands"
            await pilot.press("ctrl+p")
            await _until(lambda: isinstance(app.screen, CommandPalette))
            palette = app.screen
            commands = palette.query_one(CommandList)
            await _until(lambda: commands.option_count == 2)
            assert palette.query_one(CommandInput).placeholder == _("Search for commands…") != "Search for commands…"
            shown = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
            assert sorted(shown) == sorted(
                [
                    f"{_('Keys')}\n{_('Show the keys and what they do')}",
                    f"{_('Quit')}\n{_('Quit ginrummy (a game in progress is saved)')}",
                ]
            )
            assert not any(word in " ".join(shown) for word in ("Theme", "Keys", "Quit", "Screenshot", "Maximize"))
            # a search that finds nothing says so in the screen's language (Textual's words are English)
            await pilot.press("z", "z", "q")
            nothing = _("No command matches “{query}”").format(query="zzq")
            await _until(
                lambda: (
                    palette.has_class("-ready")
                    and commands.option_count == 1
                    and str(commands.get_option_at_index(0).prompt) == nothing
                )
            )
            assert "No matches" not in nothing
            for _key in range(3):
                await pilot.press("backspace")
            await _until(lambda: palette.has_class("-ready") and commands.option_count == 2)
            shown = [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]
            index = next(i for i, text in enumerate(shown) if text.startswith(_("Keys")))
            commands.highlighted = index
            await pilot.press("enter")
            await _until(lambda: isinstance(app.screen, HelpScreen))

    asyncio.run(run())

"""The terminal app (Textual): ``ginrummy`` with no arguments, or ``ginrummy play``.

>>> app = GinRummyApp(store=None, computer_delay=0)   # doctest: +SKIP
>>> app.run()                                         # doctest: +SKIP

Hidden options for tests and demonstrations: ``deal_seed`` makes every deal reproducible, and
``start`` (a dict for :func:`ginrummy.session.make_session`) opens a game at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, cast

from rich.text import Text
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, Hit, Hits, Provider
from textual.screen import Screen
from textual.theme import Theme

from ..errors import StoreError
from ..i18n import N_, _
from ..session import Session, make_session
from ..store import Store, new_game_id
from .common import speak_keys
from .dialogs import HelpScreen, StoreErrorScreen
from .game import GameScreen
from .settings import load_settings, save_settings
from .start import StartScreen

__all__ = ["HIGH_CONTRAST", "GinRummyApp"]

HIGH_CONTRAST = Theme(
    name="ginrummy-high-contrast",
    primary="#ffff00",
    secondary="#00ffff",
    accent="#ffff00",
    warning="#ffaf00",
    error="#ff5f5f",
    success="#00ff5f",
    foreground="#ffffff",
    background="#000000",
    surface="#000000",
    panel="#1c1c1c",
    boost="#303030",
    dark=True,
)
_UNSET: Any = object()


class NothingFound(Provider):
    """The command palette's answer to a search that finds none of the app's commands, in the
    screen's language (Textual's own, ``No matches found``, is English): one line that says so,
    closing the palette when chosen."""

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        commands = cast(GinRummyApp, self.app).get_system_commands(self.screen)
        if query.strip() and not any(matcher.match(command.title) > 0 for command in commands):
            yield Hit(1.0, Text(_("No command matches “{query}”").format(query=query)), lambda: None)


class GinRummyApp(App[int]):
    """Play every variant; games are saved after every action and resume exactly where they were."""

    CSS_PATH = "ginrummy.tcss"
    TITLE = "ginrummy"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = App.COMMANDS | {NothingFound}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit", N_("Quit"), show=False, priority=True),
        Binding("ctrl+q", "quit", N_("Quit"), show=False, priority=True),  # Textual's, worded
        # Textual's command palette (its key in the footer is hidden: ginrummy.tcss), worded; its
        # commands are the app's (get_system_commands)
        Binding(
            "ctrl+p",
            "command_palette",
            N_("commands"),
            show=False,
            priority=True,
            tooltip=N_("Open the list of commands"),
        ),
    ]

    def __init__(
        self,
        *,
        data_dir: str | os.PathLike[str] | None = None,
        store: Store | None = _UNSET,
        new_database: bool = False,
        variant: str | None = None,
        four_colour: bool = False,
        large: bool = False,
        high_contrast: bool = False,
        computer_delay: float = 0.6,
        deal_seed: int | None = None,
        start: dict[str, Any] | None = None,
        resume: str | None = None,
        analyse: bool = True,
    ) -> None:
        super().__init__()
        speak_keys(self)
        self.analyse = analyse
        self.data_dir = data_dir
        self._given_store = store
        self.store: Store | None = None
        self.new_database = new_database
        self.initial_variant = variant
        self.four_colour = four_colour
        self.large = large
        self.high_contrast = high_contrast
        self.computer_delay = computer_delay
        self.deal_seed = deal_seed
        self.start_game = start
        self.resume_id = resume
        self.store_error: str | None = None

    # -- the command palette (ctrl+p) -------------------------------------------------------------
    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette's commands, in the current language.  Textual's own are in English,
        and some would show more English (its keys panel names Textual's widgets' keys, its theme
        list, its screenshot's notices) or undo the display settings (a theme): the app keeps two,
        the keys being its own keys screen."""
        if not isinstance(screen, HelpScreen):
            yield SystemCommand(_("Keys"), _("Show the keys and what they do"), self.action_keys)
        yield SystemCommand(_("Quit"), _("Quit ginrummy (a game in progress is saved)"), self.action_quit)

    def action_command_palette(self) -> None:
        """Textual's command palette, its search box named in the current language."""
        if self.use_command_palette and not CommandPalette.is_open(cast(App[object], self)):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"), id="--command-palette"))

    def action_keys(self) -> None:
        self.push_screen(HelpScreen())

    # -- start-up --------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        self._apply_display()
        if self._given_store is not _UNSET:
            self.store = self._given_store
        else:
            try:
                where = "the terminal app"  # named to anyone who finds a game open here
                self.store = (
                    Store.fresh(self.data_dir, front_end=where)
                    if self.new_database
                    else Store(self.data_dir, front_end=where)
                )
            except StoreError as exc:
                self.store_error = str(exc)
                self.push_screen(StoreErrorScreen(str(exc)))
                return
        self._remembered_display()
        self._enter()

    def _remembered_display(self) -> None:
        """The display last chosen, unless the command line chose one (--four-colour, --large...)."""
        if self.four_colour or self.large or self.high_contrast:
            return
        settings = load_settings(self.store)
        self.set_display(
            four_colour=settings.get("four_colour", False),
            large=settings.get("large", False),
            high_contrast=settings.get("high_contrast", False),
            remember=False,
        )

    def _enter(self) -> None:
        if self.start_game is None and self.resume_id is None:
            self.push_screen(StartScreen(self.initial_variant))
        if self.start_game is not None:
            spec = dict(self.start_game)
            spec.setdefault("deal_seed", self.deal_seed)
            variant = spec.pop("variant")
            self.open_game(make_session(variant, **spec))
        elif self.resume_id is not None:
            self.resume_game(self.resume_id)

    def start_new_database(self) -> None:
        """The person chose to start a new database: move the bad file aside."""
        try:
            self.store = Store.fresh(self.data_dir, front_end="the terminal app")
        except StoreError as exc:
            self.notify(str(exc), severity="error", timeout=15, markup=False)
            return
        self.store_error = None
        self.pop_screen()
        self._enter()
        self.notify(_("A new database was started; the old file was kept beside it as .bad-<date>."))

    def play_without_saving(self) -> None:
        self.store = None
        self.pop_screen()
        self._enter()

    # -- games -----------------------------------------------------------------------------------
    def open_game(self, session: Session, *, replace: bool = False) -> GameScreen | None:
        """Show ``session`` as a new game; None (one line says why) if it could not be saved:
        then nothing was started."""
        game_id = new_game_id()
        if self.store is not None:
            try:
                self.store.save_game(game_id, session)
            except StoreError as exc:
                self.notify(
                    _("The game could not be saved ({error}); it was not started.").format(error=exc),
                    severity="error",
                    markup=False,
                )
                return None
        screen = GameScreen(session, game_id)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        return screen

    def resume_game(self, game_id: str) -> GameScreen | None:
        if self.store is None:
            return None
        try:
            session = self.store.open_game(game_id)  # locks it: GameInUse says where it is open
        except StoreError as exc:
            self.notify(str(exc), title=_("Cannot resume"), severity="error", timeout=10, markup=False)
            return None
        if session is None:
            self.notify(_("No saved game {id}.").format(id=game_id), severity="warning", markup=False)
            return None
        screen = GameScreen(session, game_id)
        self.push_screen(screen)
        return screen

    # -- display ---------------------------------------------------------------------------------
    def _apply_display(self) -> None:
        self.set_class(self.four_colour, "four-colour")
        self.set_class(self.large, "large-cards")
        self.set_class(self.high_contrast, "high-contrast")
        self.theme = "ginrummy-high-contrast" if self.high_contrast else "textual-dark"

    def set_display(
        self,
        *,
        four_colour: bool | None = None,
        large: bool | None = None,
        high_contrast: bool | None = None,
        remember: bool = True,
    ) -> None:
        if four_colour is not None:
            self.four_colour = four_colour
        if large is not None:
            self.large = large
        if high_contrast is not None:
            self.high_contrast = high_contrast
        self._apply_display()
        if remember:  # kept for next time, beside the saved games
            problem = save_settings(
                self.store, four_colour=self.four_colour, large=self.large, high_contrast=self.high_contrast
            )
            if problem:
                self.notify(problem, severity="warning", markup=False)
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.refresh_display()

    def action_toggle_display(self, name: str) -> None:
        if name in ("four_colour", "large", "high_contrast"):
            self.set_display(**{name: not getattr(self, name)})
            what = {"four_colour": _("four colour"), "large": _("large"), "high_contrast": _("high contrast")}[name]
            state = _("on") if getattr(self, name) else _("off")
            self.notify(_("{setting}: {state}").format(setting=what, state=state), timeout=2)

    def leave_game(self) -> None:
        """Back from a game to the start screen (built now if the app opened straight into a game)."""
        if len(self.screen_stack) > 2:
            self.pop_screen()
        else:
            self.switch_screen(StartScreen(self.initial_variant))

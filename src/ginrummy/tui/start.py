"""The start screen: resume a saved game, or choose a variant, its options, the opponents and names."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Collapsible, Footer, Header, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from .. import i18n
from ..agents import available_agents
from ..agents.levels import LEVELS
from ..errors import GinRummyError, StoreError
from ..i18n import N_, _, ngettext, pgettext
from ..options import option_help, options_for
from ..session import HUMAN, make_session
from ..variants import seats_of, variant_names
from ..words import default_players, display_name, display_names, option_name, option_value, variant_title
from .common import SOLO, host, level_text, speak_keys
from .dialogs import ConfirmScreen, HelpScreen, RulesScreen
from .replay import HistoryScreen
from .settings import load_settings, save_settings
from .stats import StatsScreen

__all__ = ["StartScreen"]


def _available(variant: str) -> list[str]:
    """The computer players of ``variant``: the levels weakest first, then the others."""
    try:
        names = available_agents(variant)
    except Exception:  # an agent module failing to load must not take the menu down
        return []
    return [x for x in LEVELS if x in names] + [x for x in names if x not in LEVELS]


class StartScreen(Screen[None]):
    """Choose a variant, its options, the opponents and names; resume a saved game; statistics."""

    # Below 110 columns the five buttons do not fit one row (English ends at column 106 with its
    # margins, Korean and Latvian later): the screen is then "-narrow" and they sit in a grid.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 (Textual declares it)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "start", N_("Start game"), priority=True),
        Binding("ctrl+r", "resume", N_("Resume newest"), priority=True),
        # Not in the footer (it cannot hold them all at 80 columns in Latvian): their buttons, always
        # in view, name their keys.
        Binding("ctrl+t", "stats", N_("Statistics"), show=False, priority=True),
        Binding("ctrl+y", "replays", N_("Replay a game"), show=False, priority=True),
        Binding("ctrl+d", "delete_saved", N_("Delete saved game"), show=False),
        Binding("ctrl+l", "language", N_("Language"), show=False, priority=True),
        Binding("f1", "help", N_("Keys")),
        Binding("f2", "rules", N_("Rules")),
        Binding("ctrl+q", "app.quit", N_("Quit"), priority=True),
    ]

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        speak_keys(self)
        self.requested = variant if variant in variant_names() else None  # --variant wins over the remembered one
        self.variant = self.requested or "classic"
        self.settings: dict[str, Any] = {}
        self._build = 0
        self._options_built: int | None = None

    def compose(self) -> ComposeResult:
        self.settings = load_settings(host(self).store)  # the last game's choices, checked
        self.variant = self.requested or self.settings.get("variant", "classic")
        yield Header()
        with VerticalScroll(id="start"):
            yield Static("[b]ginrummy[/b] — " + _("the Gin Rummy family"), id="start-title")
            yield Static("", id="resume-info")
            yield OptionList(id="saved")
            with Horizontal(classes="row"):
                yield Label(_("Variant"), classes="label")
                yield Select(
                    [(variant_title(v), v) for v in variant_names()],
                    value=self.variant,
                    allow_blank=False,
                    id="variant",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label(_("Your name"), classes="label")
                # the default name is ginrummy's "You", shown in the screen's language (it is filed in English)
                saved = self.settings.get("name", "You")
                yield Input(
                    value="" if saved == "You" else saved,
                    placeholder=display_name("You"),
                    id="name",
                    max_length=20,
                    compact=True,
                )
            yield Vertical(id="seats")
            with Collapsible(title=_("Rules options (the rule book's defaults; open to change them)"), id="rules"):
                yield Vertical(id="options")
            with Horizontal(classes="row"):
                yield Label(_("Display"), classes="label")
                yield Checkbox(_("Four-colour deck"), host(self).four_colour, id="four-colour", compact=True)
                yield Checkbox(_("Large cards"), host(self).large, id="large", compact=True)
                yield Checkbox(_("High contrast"), host(self).high_contrast, id="high-contrast", compact=True)
        # Below the scrolled choices, always in view: on a small terminal a long list of saved games
        # or the open rules options would push them out of sight (the footer cannot name them all).
        with Horizontal(id="start-buttons"):
            yield Button(_("Start game (ctrl+n)"), id="start-game", variant="primary")
            yield Button(_("Statistics (ctrl+t)"), id="open-stats")
            yield Button(_("Replays (ctrl+y)"), id="open-replays")
            yield Button(_("Keys (F1)"), id="keys")
            yield Button(_("Quit (ctrl+q)"), id="quit")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "ginrummy"
        self.sub_title = pgettext("screen title", "start")
        self.refresh_saved()
        await self.rebuild_variant()
        saved = self.query_one("#saved", OptionList)
        if saved.option_count:
            saved.focus()
        else:
            self.query_one("#start-game", Button).focus()

    def on_screen_resume(self) -> None:
        self.refresh_saved()

    def refresh_saved(self) -> None:
        store = host(self).store
        saved_list = self.query_one("#saved", OptionList)
        saved_list.clear_options()
        games = store.saved_games() if store is not None else []
        info = self.query_one("#resume-info", Static)
        if store is None:
            info.update(_("[b]Games are not being saved[/b] (no database): they cannot be resumed."))
        elif games:
            info.update(
                "[b]"
                + ngettext("You have {n} game in progress.", "You have {n} games in progress.", len(games)).format(
                    n=len(games)
                )
                + "[/b] "
                + _(
                    "Choose one to resume exactly where you left it (Enter, or ctrl+r for the newest; "
                    "ctrl+d deletes one):"
                )
            )
        else:
            info.update(_("No game in progress. Choose a variant and start one."))
        for g in games:
            names = _(" v. ").join(display_names(g.players))
            totals = "–".join(str(t) for t in g.totals)
            saved_list.add_option(
                Option(
                    Text(  # a Text, not markup: a name like "[/b]" or "[@click=...]" is shown as typed
                        f"{variant_title(g.variant, short=True)}: {names} · "
                        + _("hand {number}").format(number=g.hand_number)
                        + f" · {totals} · {g.updated_at[:16].replace('T', ' ')} UTC"
                        + (" · " + _("open in {where}").format(where=g.open_in) if g.open_in else "")
                    ),
                    id=g.id,
                )
            )
        saved_list.display = bool(games)
        if games:
            saved_list.highlighted = 0

    async def rebuild_variant(self) -> None:
        v = self.variant
        self._build += 1
        b = self._build
        seats = self.query_one("#seats", Vertical)
        await seats.remove_children()
        levels = _available(v)
        rows: list[Any] = []
        if v in SOLO:
            watchable = [x for x in levels if x != "clairvoyant"]  # it needs the deal itself: analysis only
            choices = [(_("You play"), HUMAN)] + [
                (_("Watch the {level}").format(level=level_text(x)), x) for x in watchable
            ]
            rows.append(
                Horizontal(
                    Label(_("Who plays"), classes="label"),
                    Select(choices, value=HUMAN, allow_blank=False, id=f"seat-{b}-0", compact=True),
                    classes="row",
                )
            )
        else:
            table_levels = [x for x in levels if x not in ("planner", "clairvoyant")] or ["expert"]
            default = "expert" if "expert" in table_levels else table_levels[-1]
            remembered = self.settings.get("levels", {}).get(v, [])
            for i in range(1, seats_of(v)):
                level = remembered[i - 1] if i - 1 < len(remembered) else default
                level = level if level in table_levels else default
                label = _("Opponent") if seats_of(v) == 2 else _("Opponent {number}").format(number=i)
                rows.append(
                    Horizontal(
                        Label(label, classes="label"),
                        Select(
                            [(level_text(x), x) for x in table_levels],
                            value=level,
                            allow_blank=False,
                            id=f"seat-{b}-{i}",
                            compact=True,
                        ),
                        Input(placeholder=_("name (optional)"), id=f"name-{b}-{i}", max_length=20, compact=True),
                        classes="row seat",
                    )
                )
        await seats.mount_all(rows)
        opts = self.query_one("#options", Vertical)
        await opts.remove_children()
        self._options_built = None
        if not self.query_one("#rules", Collapsible).collapsed:
            await self.build_options()

    async def build_options(self) -> None:
        """The rules options of the variant, each with its explanation (built when first shown)."""
        v, b = self.variant, self._build
        if self._options_built == b:
            return
        self._options_built = b
        opts = self.query_one("#options", Vertical)
        orows = []
        remembered = self.remembered_options()
        for name, default_value, doc, allowed in option_help(v):
            value = remembered.get(name, default_value)
            if isinstance(default_value, bool):
                control: Any = Checkbox("", bool(value), id=f"opt-{b}-{name}", compact=True)
            elif allowed:
                control = Select(  # the values in words; the value chosen is the code's
                    [(option_value(a), a) for a in allowed],
                    value=value if value in allowed else default_value,
                    allow_blank=False,
                    id=f"opt-{b}-{name}",
                    compact=True,
                )
            else:
                control = Input(value=str(value), type="integer", id=f"opt-{b}-{name}", compact=True)
            orows.append(
                Horizontal(
                    Label(option_name(name), classes="label"),
                    control,
                    Static(
                        _(doc) + " [dim]" + _("(default {value})").format(value=option_value(default_value)) + "[/dim]",
                        classes="doc",
                    ),
                    classes="row option",
                )
            )
        await opts.mount_all(orows)

    @on(Collapsible.Expanded, "#rules")
    async def rules_opened(self) -> None:
        await self.build_options()

    @on(Select.Changed, "#variant")
    async def variant_changed(self, event: Select.Changed) -> None:
        if event.value != self.variant and isinstance(event.value, str):
            self.variant = event.value
            await self.rebuild_variant()

    @on(Checkbox.Changed)
    def display_switch(self, event: Checkbox.Changed) -> None:
        app = host(self)
        wid = event.checkbox.id
        if wid == "four-colour":
            app.set_display(four_colour=event.value)
        elif wid == "large":
            app.set_display(large=event.value)
        elif wid == "high-contrast":
            app.set_display(high_contrast=event.value)

    def remembered_options(self) -> dict[str, Any]:
        """The rules options last played in this variant (checked when read), the first-deal
        options left out: a new game cuts for them."""
        given = dict(self.settings.get("options", {}).get(self.variant, {}))
        return {k: v for k, v in given.items() if k not in ("first_dealer", "first_box", "first_captain")}

    def chosen(self) -> tuple[dict[str, Any], list[str], str]:
        """(options that differ from the defaults, seats, name); raises GinRummyError if an option is bad."""
        v, b = self.variant, self._build
        given: dict[str, Any] = {} if self._options_built == b else self.remembered_options()
        for name, default_value, _doc, _allowed in option_help(v) if self._options_built == b else []:
            w = self.query_one(f"#opt-{b}-{name}")
            if isinstance(w, Checkbox):
                value: Any = w.value
            elif isinstance(w, Select):
                value = w.value
            else:
                value = cast(Input, w).value.strip()
                if value == "":
                    raise GinRummyError(
                        _("option {name}: give a number (default {value})").format(
                            name=option_name(name), value=default_value
                        )
                    )
            if str(value) != str(default_value):
                given[name] = value
        options_for(v, given)  # validates; the message names the option
        if v in SOLO:
            seats = [str(self.query_one(f"#seat-{b}-0", Select).value), "joker"]
        else:
            seats = [HUMAN] + [str(self.query_one(f"#seat-{b}-{i}", Select).value) for i in range(1, seats_of(v))]
        name = self.query_one("#name", Input).value.strip() or "You"
        return given, seats, name

    def opponent_names(self, seats: list[str], name: str) -> list[str]:
        """Display names: the ones typed, else the defaults (the level, numbered when repeated)."""
        players = default_players(self.variant, seats, name)
        if self.variant in SOLO:
            return players
        for i in range(1, len(seats)):
            typed = self.query_one(f"#name-{self._build}-{i}", Input).value.strip()
            players[i] = typed or seats[i].capitalize()
        seen: set[str] = set()
        for i, p in enumerate(players):
            label, n = p, 2
            while label in seen:
                label, n = f"{p} {n}", n + 1
            players[i] = label
            seen.add(label)
        return players

    def action_start(self) -> None:
        try:
            given, seats, name = self.chosen()
            session = make_session(
                self.variant,
                options=given,
                seats=seats,
                players=self.opponent_names(seats, name),
                deal_seed=host(self).deal_seed,
                cut=True,  # the cut for the first deal (or the roles), shown before the deal
            )
        except GinRummyError as exc:
            self.notify(str(exc), title=_("Cannot start"), severity="error", markup=False)
            return
        if host(self).open_game(session) is None:
            return  # it could not be saved: nothing started, and the choices are not remembered
        self.remember(variant=self.variant, name=name, levels={self.variant: seats[1:]}, options={self.variant: given})

    def remember(self, **changes: Any) -> None:
        """Keep the choices for next time (a failure says so in one line and changes nothing)."""
        problem = save_settings(host(self).store, **changes)
        if problem:
            self.notify(problem, severity="warning", markup=False)
        self.settings = load_settings(host(self).store)

    def action_resume(self) -> None:
        store = host(self).store
        games = store.saved_games() if store else []
        if games:
            free = [g for g in games if not g.open_in]  # the newest not open in another program
            host(self).resume_game((free or games)[0].id)
        else:
            self.notify(_("No saved game to resume."))

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen())

    def action_replays(self) -> None:
        self.app.push_screen(HistoryScreen())

    def action_delete_saved(self) -> None:
        """Forget the highlighted saved game (ctrl+d on the list), once the person confirms."""
        saved = self.query_one("#saved", OptionList)
        store = host(self).store
        if store is None or saved.highlighted is None or not saved.option_count:
            self.notify(_("No saved game to delete.") if store is not None else _("Games are not being saved here."))
            return
        option = saved.get_option_at_index(saved.highlighted)
        game_id = option.id
        if not game_id:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.notify(_("Nothing was deleted."))
                return
            try:
                store.delete_game(game_id)
            except StoreError as exc:  # open in another program, or the disk failed
                self.notify(str(exc), title=_("Not deleted"), severity="error", timeout=10, markup=False)
                return
            self.notify(_("The saved game was deleted."))
            self.refresh_saved()

        question = Text(_("Delete this game in progress? It cannot be resumed afterwards.") + "\n\n")
        question.append_text(Text(str(option.prompt)))
        self.app.push_screen(ConfirmScreen(question), answered)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        """The rules of the variant chosen in the list."""
        self.app.push_screen(RulesScreen(self.variant))

    def action_language(self) -> None:
        """The next language (English, Korean, Latvian), remembered in the data directory's settings
        as --lang remembers it; the start screen is made again in it."""
        langs = i18n.LANGUAGES
        current = i18n.current_language()
        lang = langs[(langs.index(current) + 1) % len(langs)] if current in langs else langs[0]
        store = host(self).store
        saved = True
        if store is not None:
            try:
                i18n.save_language(store.data_dir, lang)
            except OSError:
                saved = False
        i18n.set_language(lang)
        speak_keys(self.app)  # the app's own keys (the command palette's) in the new language
        self.app.switch_screen(StartScreen(self.variant))
        name = i18n.LANGUAGE_NAMES[lang]
        if store is not None and saved:
            self.app.notify(_("Language: {name} (remembered)").format(name=name), timeout=3)
        else:
            self.app.notify(_("Language: {name} (not remembered: settings cannot be written)").format(name=name))

    @on(OptionList.OptionSelected, "#saved")
    def saved_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            host(self).resume_game(event.option.id)

    @on(Input.Submitted, "#name")
    def name_submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        bid = event.button.id
        if bid == "start-game":
            self.action_start()
        elif bid == "open-stats":
            self.action_stats()
        elif bid == "open-replays":
            self.action_replays()
        elif bid == "keys":
            self.action_help()
        elif bid == "quit":
            self.app.exit(0)

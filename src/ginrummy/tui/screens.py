"""Screens of the terminal app: start, game, statistics, help, and the bad-database screen."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import (
    Button,
    Checkbox,
    Collapsible,
    Footer,
    Header,
    Input,
    Label,
    Markdown,
    OptionList,
    RichLog,
    Select,
    Sparkline,
    Static,
)
from textual.widgets.option_list import Option

from ..actions import Action
from ..errors import GinRummyError, StoreError
from ..finish import file_finished_game, solitaire_analysis
from ..options import option_help, options_for
from ..record import summary as record_summary
from ..session import HUMAN, ComputerPlayerError, Session, make_session, viewer_seat
from ..variants import VARIANTS, find_variant, seats_of, solo_variants, variant_names
from ..words import (
    cannot_line,
    clean_names,
    default_players,
    just_drawn,
    no_hand_line,
    result_lines,
    result_name,
    upcard_notes,
)
from .widgets import KEY_LABELS, HandView, PileView, ScoreSheet, TableView, cards_text, palette_name

if TYPE_CHECKING:
    from .app import GinRummyApp

__all__ = ["ConfirmScreen", "GameScreen", "HelpScreen", "StartScreen", "StatsScreen", "StoreErrorScreen"]

VARIANT_TITLES = {v.name: v.title for v in VARIANTS}
SOLO = solo_variants()  # the solitaires, from the registry
LEVEL_TEXT = {
    "random": "random (any legal move)",
    "greedy": "greedy (least deadwood now)",
    "expert": "expert (the strongest)",
    "planner": "planner (watch it play)",
    "clairvoyant": "clairvoyant (sees the deck; watch it)",
}
KEYS_HELP = """\
# Keys

| key | does |
|---|---|
| 1 – 9, 0, - | select card 1 to 11 (or click a card) |
| ← → | move the selection |
| s | draw from the stock (or click the stock) |
| t | take the upcard / top discard (or click it) |
| p | pass on the first upcard |
| d | discard the selected card |
| k | knock, discarding the selected card |
| g | gin, discarding the selected card (no card: big gin / declare) |
| b | big gin: all eleven cards melded, no discard |
| n | deal the next hand (after the commitment is shown); new game when over |
| h | hint: the advisor's suggestion |
| o | sort the hand by rank or by suit |
| m | group the melds together, or not |
| c | show or hide the score sheet |
| f | four-colour deck (clubs green, diamonds blue) |
| z | large cards |
| x | high-contrast theme |
| Tab, then ↑ ↓ PgUp PgDn Home End | scroll the table (a small terminal: the hand's scoring below) |
| ? | this help |
| Esc | back to the menu (the game is saved) |
| q | quit (the game is saved; you resume next time) |

Every card shows its rank, suit symbol and suit letter (7♥h). Cards in a meld carry the meld's
number under them; the selected card has a heavy border; a card just drawn is marked with `*`.
"""


def _app(screen: Screen[Any]) -> GinRummyApp:
    return cast("GinRummyApp", screen.app)


def _available(variant: str) -> list[str]:
    try:
        from ..agents import available_agents

        return available_agents(variant)
    except Exception:  # an agent module failing to import must not take the menu down
        return []


# =============================================================================================
# The start screen
# =============================================================================================
class StartScreen(Screen[None]):
    """Choose a variant, its options, the opponents and names; resume a saved game; statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "start", "Start game", priority=True),
        Binding("ctrl+r", "resume", "Resume newest", priority=True),
        Binding("ctrl+t", "stats", "Statistics", priority=True),
        Binding("ctrl+d", "delete_saved", "Delete saved game", show=False),
        Binding("f1", "help", "Keys"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),
    ]

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.variant = variant if variant in variant_names() else "classic"
        self._build = 0
        self._options_built: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="start"):
            yield Static("[b]ginrummy[/b] — the Gin Rummy family", id="start-title")
            yield Static("", id="resume-info")
            yield OptionList(id="saved")
            with Horizontal(classes="row"):
                yield Label("Variant", classes="label")
                yield Select(
                    [(f"{v} — {VARIANT_TITLES[v]}", v) for v in variant_names()],
                    value=self.variant,
                    allow_blank=False,
                    id="variant",
                    compact=True,
                )
            with Horizontal(classes="row"):
                yield Label("Your name", classes="label")
                yield Input(value="You", id="name", max_length=20, compact=True)
            yield Vertical(id="seats")
            with Collapsible(title="Rules options (the rule book's defaults; open to change them)", id="rules"):
                yield Vertical(id="options")
            with Horizontal(classes="row"):
                yield Label("Display", classes="label")
                yield Checkbox("Four-colour deck", _app(self).four_colour, id="four-colour", compact=True)
                yield Checkbox("Large cards", _app(self).large, id="large", compact=True)
                yield Checkbox("High contrast", _app(self).high_contrast, id="high-contrast", compact=True)
            with Horizontal(id="start-buttons"):
                yield Button("Start game (ctrl+n)", id="start-game", variant="primary")
                yield Button("Statistics (ctrl+t)", id="open-stats")
                yield Button("Keys (F1)", id="keys")
                yield Button("Quit (ctrl+q)", id="quit")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "ginrummy"
        self.sub_title = "start"
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
        store = _app(self).store
        saved_list = self.query_one("#saved", OptionList)
        saved_list.clear_options()
        games = store.saved_games() if store is not None else []
        info = self.query_one("#resume-info", Static)
        if store is None:
            info.update("[b]Games are not being saved[/b] (no database): they cannot be resumed.")
        elif games:
            info.update(
                f"[b]You have {len(games)} game{'s' if len(games) > 1 else ''} in progress.[/b] "
                "Choose one to resume exactly where you left it (Enter, or ctrl+r for the newest; "
                "ctrl+d deletes one):"
            )
        else:
            info.update("No game in progress. Choose a variant and start one.")
        for g in games:
            names = " v. ".join(clean_names(g.players))
            totals = "–".join(str(t) for t in g.totals)
            saved_list.add_option(
                Option(
                    Text(  # a Text, not markup: a name like "[/b]" or "[@click=...]" is shown as typed
                        f"{g.variant}: {names} · hand {g.hand_number} · {totals} · "
                        f"{g.updated_at[:16].replace('T', ' ')} UTC" + (f" · open in {g.open_in}" if g.open_in else "")
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
            choices = [("You play", HUMAN)] + [(f"Watch the {LEVEL_TEXT.get(x, x)}", x) for x in watchable]
            rows.append(
                Horizontal(
                    Label("Who plays", classes="label"),
                    Select(choices, value=HUMAN, allow_blank=False, id=f"seat-{b}-0", compact=True),
                    classes="row",
                )
            )
        else:
            table_levels = [x for x in levels if x not in ("planner", "clairvoyant")] or ["expert"]
            default = "expert" if "expert" in table_levels else table_levels[-1]
            for i in range(1, seats_of(v)):
                label = "Opponent" if seats_of(v) == 2 else f"Opponent {i}"
                rows.append(
                    Horizontal(
                        Label(label, classes="label"),
                        Select(
                            [(LEVEL_TEXT.get(x, x), x) for x in table_levels],
                            value=default,
                            allow_blank=False,
                            id=f"seat-{b}-{i}",
                            compact=True,
                        ),
                        Input(placeholder="name (optional)", id=f"name-{b}-{i}", max_length=20, compact=True),
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
        for name, default_value, doc, allowed in option_help(v):
            if isinstance(default_value, bool):
                control: Any = Checkbox("", default_value, id=f"opt-{b}-{name}", compact=True)
            elif allowed:
                control = Select(
                    [(str(a), a) for a in allowed],
                    value=default_value,
                    allow_blank=False,
                    id=f"opt-{b}-{name}",
                    compact=True,
                )
            else:
                control = Input(value=str(default_value), type="integer", id=f"opt-{b}-{name}", compact=True)
            orows.append(
                Horizontal(
                    Label(name, classes="label"),
                    control,
                    Static(f"{doc} [dim](default {_fmt(default_value)})[/dim]", classes="doc"),
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
        app = _app(self)
        wid = event.checkbox.id
        if wid == "four-colour":
            app.set_display(four_colour=event.value)
        elif wid == "large":
            app.set_display(large=event.value)
        elif wid == "high-contrast":
            app.set_display(high_contrast=event.value)

    def chosen(self) -> tuple[dict[str, Any], list[str], str]:
        """(options that differ from the defaults, seats, name); raises GinRummyError if an option is bad."""
        v, b = self.variant, self._build
        given: dict[str, Any] = {}
        for name, default_value, _doc, _allowed in option_help(v) if self._options_built == b else []:
            w = self.query_one(f"#opt-{b}-{name}")
            if isinstance(w, Checkbox):
                value: Any = w.value
            elif isinstance(w, Select):
                value = w.value
            else:
                value = cast(Input, w).value.strip()
                if value == "":
                    raise GinRummyError(f"option {name}: give a number (default {default_value})")
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
                deal_seed=_app(self).deal_seed,
            )
        except GinRummyError as exc:
            self.notify(str(exc), title="Cannot start", severity="error", markup=False)
            return
        _app(self).open_game(session)

    def action_resume(self) -> None:
        store = _app(self).store
        games = store.saved_games() if store else []
        if games:
            free = [g for g in games if not g.open_in]  # the newest not open in another program
            _app(self).resume_game((free or games)[0].id)
        else:
            self.notify("No saved game to resume.")

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen())

    def action_delete_saved(self) -> None:
        """Forget the highlighted saved game (ctrl+d on the list), once the person confirms."""
        saved = self.query_one("#saved", OptionList)
        store = _app(self).store
        if store is None or saved.highlighted is None or not saved.option_count:
            self.notify("No saved game to delete." if store is not None else "Games are not being saved here.")
            return
        option = saved.get_option_at_index(saved.highlighted)
        game_id = option.id
        if not game_id:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.notify("Nothing was deleted.")
                return
            try:
                store.delete_game(game_id)
            except StoreError as exc:  # open in another program, or the disk failed
                self.notify(str(exc), title="Not deleted", severity="error", timeout=10, markup=False)
                return
            self.notify("The saved game was deleted.")
            self.refresh_saved()

        question = Text("Delete this game in progress? It cannot be resumed afterwards.\n\n")
        question.append_text(Text(str(option.prompt)))
        self.app.push_screen(ConfirmScreen(question), answered)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    @on(OptionList.OptionSelected, "#saved")
    def saved_chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            _app(self).resume_game(event.option.id)

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
        elif bid == "keys":
            self.action_help()
        elif bid == "quit":
            self.app.exit(0)


def _put(widget: Static, content: Any) -> None:
    """Update a Static only when its content changed (an update costs a redraw)."""
    key = content.markup if isinstance(content, Text) else str(content)
    if getattr(widget, "_ginrummy_last", None) != key:
        widget._ginrummy_last = key  # type: ignore[attr-defined]
        widget.update(content)


def _params(action: str) -> tuple[object, ...]:
    """The parameters of a binding's action string: ``play('draw')`` -> ``('draw',)``."""
    _, _, rest = action.partition("(")
    rest = rest.rstrip(")")
    return tuple(x.strip().strip("'\"") for x in rest.split(",")) if rest else ()


def _fmt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# =============================================================================================
# The game
# =============================================================================================
class GameScreen(Screen[None]):
    """The table: the hand, the piles, the opponents, the score sheet, the fairness commitments."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "play('draw')", "Draw", show=False),
        Binding("t", "play('take')", "Take", show=False),
        Binding("p", "play('pass')", "Pass", show=False),
        Binding("d", "play('discard')", "Discard", show=False),
        Binding("k", "play('knock')", "Knock", show=False),
        Binding("g", "play('gin')", "Gin", show=False),
        Binding("b", "play('big')", "Big gin", show=False),
        Binding("n", "next_hand", "Deal", show=False),
        Binding("h", "hint", "Hint"),
        Binding("o", "sort", "Sort"),
        Binding("m", "group", "Group melds", show=False),
        Binding("c", "scores", "Scores"),
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("f", "app.toggle_display('four_colour')", "4 colours", show=False),
        Binding("z", "app.toggle_display('large')", "Large", show=False),
        Binding("x", "app.toggle_display('high_contrast')", "Contrast", show=False),
        Binding("question_mark", "help", "Keys"),
        Binding("escape", "leave", "Menu"),
        Binding("q", "app.quit", "Quit"),
        *[Binding(k if k != "-" else "minus", f"select({i})", show=False) for i, k in enumerate(KEY_LABELS)],
    ]

    def __init__(self, session: Session, game_id: str) -> None:
        super().__init__()
        self.session = session
        self.game_id = game_id
        self.sort_mode = "rank"
        self.group_melds = True
        self.order: list[str] = []
        self.selected: str | None = None
        self.new_cards: set[str] = set()
        self._prev_hand: tuple[int, frozenset[str]] = (0, frozenset())
        self.hinted: str | None = None
        self.message = ""
        self._timer: Timer | None = None
        self._filed = False
        self._result_shown: tuple[int, bool] | None = None
        self._logged_hand = 0
        self._sheet_key: tuple[Any, ...] = ()
        self.analysis_lines: list[str] = []
        self.recent: list[str] = []  # the computers' moves since the person's last one
        self._saved_pending: Any = None
        store = _app(self).store
        if store is not None:

            def save(s: Session) -> None:
                try:
                    if s.watched and s.state.is_terminal:  # saving would file it as the person's game
                        store.delete_game(game_id)
                    else:
                        store.save_game(game_id, s)
                except StoreError as exc:
                    self.notify(f"Could not save: {exc}", severity="error", markup=False)

            session.on_change = save

    # -- layout -----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with TableView(id="table"):
                yield Static("", id="info")
                with Horizontal(id="piles"):
                    yield PileView("stock", id="stock", classes="pile")
                    yield PileView("discard", id="discard", classes="pile")
                    yield Static("", id="opponents")
                yield Static("", id="fair")
                yield RichLog(id="log", wrap=True, markup=False, max_lines=200)
                yield Static("", id="status")
                yield HandView(id="hand")
                yield Static("", id="melds")
                yield Static("", id="captain")
                with Horizontal(id="actions"):
                    yield Button("Draw (s)", id="act-draw", compact=True)
                    yield Button("Take (t)", id="act-take", compact=True)
                    yield Button("Pass (p)", id="act-pass", compact=True)
                    yield Button("Discard (d)", id="act-discard", compact=True)
                    yield Button("Knock (k)", id="act-knock", variant="warning", compact=True)
                    yield Button("Gin (g)", id="act-gin", variant="success", compact=True)
                    yield Button("Big gin (b)", id="act-big", variant="success", compact=True)
                    yield Button("Deal (n)", id="act-deal", variant="primary", compact=True)
                    yield Button("Hint (h)", id="act-hint", compact=True)
                yield Static("", id="result")
            yield ScoreSheet(id="scores")
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        self.title = f"ginrummy · {s.state.variant}"
        for button in self.query("#actions Button"):
            button.can_focus = False  # keys drive play; focus moving off hidden buttons would churn the footer
        log = self.query_one("#log", RichLog)
        if s.state.logs:
            log.write(f"Resumed: hand {s.state.hand_number}, exactly where it was left.")
            self._logged_hand = s.state.hand_number
        self.update_view()
        self.schedule()

    def on_resize(self) -> None:
        self.query_one("#scores").set_class(self.size.width < 116, "narrow")
        short = self.size.height < 30
        if short != self.has_class("short"):
            self.set_class(short, "short")
            self.update_view()

    # -- helpers ----------------------------------------------------------------------------------
    @property
    def viewer(self) -> int:
        return viewer_seat(self.session)

    @property
    def shared(self) -> bool:
        """Several people at this screen (a hot seat): the log is theirs together."""
        return sum(k == HUMAN for k in self.session.seats) > 1

    @property
    def log_viewer(self) -> int | None:
        """Whose view the log tells the moves in: the person's; at a shared screen nobody's (no
        drawn card, no reasons: the lines stay in view when the next person takes the seat)."""
        return None if self.shared else self.viewer

    @property
    def palette(self) -> str:
        app = _app(self)
        return palette_name(app.four_colour, app.high_contrast)

    def obs(self) -> dict[str, Any]:
        obs = self.session.observation(self.viewer)
        obs["players"] = self.session.names  # names safe to print
        return obs

    def legal(self) -> list[str]:
        s = self.session
        return [str(a) for a in s.state.legal_actions()] if s.human_to_act() is not None else []

    def _sorted_hand(self, obs: dict[str, Any]) -> list[str]:
        from ..cards import Card

        def key(c: str) -> tuple[int, int]:
            card = Card.parse(c)
            return (card.rank, int(card.suit)) if self.sort_mode == "rank" else (int(card.suit), card.rank)

        hand = list(obs.get("hand", []))
        if not self.group_melds:
            return sorted(hand, key=key)
        melds = [sorted(m, key=key) for m in obs.get("melds", [])]
        melds.sort(key=lambda m: key(m[0]))
        in_melds = {c for m in melds for c in m}
        return [c for m in melds for c in m] + sorted((c for c in hand if c not in in_melds), key=key)

    # -- drawing ------------------------------------------------------------------------------------
    def update_view(self) -> None:
        app = _app(self)
        s = self.session
        obs = self.obs()
        v = obs["variant"]
        players: list[str] = obs["players"]
        hand = list(obs.get("hand", []))
        key = (obs["hand_number"], frozenset(hand))
        if key != self._prev_hand:
            arrived = set(hand) - set(self._prev_hand[1])
            # a draw: the hand grew, or (the solitaires) a discard and the next card in one move
            if key[0] == self._prev_hand[0] and len(hand) >= len(self._prev_hand[1]) > 0 and arrived:
                self.new_cards = arrived
                drawn = next(iter(self.new_cards)) if len(self.new_cards) == 1 else None
                legal = self.legal()
                if drawn and f"discard {drawn}" in legal:
                    self.selected = drawn
            elif key[0] != self._prev_hand[0] or len(hand) < len(self._prev_hand[1]):
                self.new_cards = set()
            self._prev_hand = key
        if self.selected not in hand:
            self.selected = None
        if self.hinted not in hand:
            self.hinted = None
        self.order = self._sorted_hand(obs)
        meld_of = {c: i for i, m in enumerate(obs.get("melds", []), 1) for c in m}
        # Number melds in display order so the numbers read left to right.
        renumber: dict[int, int] = {}
        for c in self.order:
            m = meld_of.get(c)
            if m is not None and m not in renumber:
                renumber[m] = len(renumber) + 1
        meld_of = {c: renumber[m] for c, m in meld_of.items()}
        sel_index = self.order.index(self.selected) if self.selected in self.order else None
        self.query_one(HandView).show(
            self.order,
            large=app.large,
            selected=sel_index,
            melds=meld_of,
            new=self.new_cards,
            hinted=self.hinted,
            four_colour=app.four_colour,
            high_contrast=app.high_contrast,
        )
        self._show_info(obs)
        self._show_piles(obs)
        self._show_melds(obs)
        self._show_fairness(obs)
        self._show_status(obs)
        self._show_captain(obs)
        self._show_buttons(obs)
        self._show_result(obs)
        if s.state.needs_deal:
            self._save_commitment()
        sheet_key = (len(s.state.results), s.state.hand_number, s.state.is_terminal)
        if sheet_key != self._sheet_key:
            self._sheet_key = sheet_key
            self.query_one(ScoreSheet).show(obs, record_summary(s.state))
        self.sub_title = f"hand {obs['hand_number']} · " + " – ".join(
            f"{p} {t}" for p, t in zip(players, obs["totals"], strict=True)
        )
        if v in SOLO:
            self.query_one("#piles").set_class(True, "solo")
        # The footer lists the general keys only: rebuilding it after every move is slow, and the
        # action buttons above already show exactly the legal moves (a key that cannot act now says why).

    def _save_commitment(self) -> None:
        """The next deal's commitment is on screen: save it with the game, so that a resumed game
        deals from the very seed that was committed to."""
        store = _app(self).store
        pending = self.session.to_json()["pending"]
        if store is not None and pending is not None and pending != self._saved_pending:
            self._saved_pending = pending
            try:
                store.save_game(self.game_id, self.session)
            except StoreError as exc:
                self.notify(f"Could not save: {exc}", severity="error", markup=False)

    def _show_info(self, obs: dict[str, Any]) -> None:
        v = obs["variant"]
        players = obs["players"]
        parts = [f"hand {obs['hand_number'] or 1}"]  # names are text, never markup: the line is a Text
        kinds = obs.get("seat_kinds", [])
        if v in SOLO:
            if kinds and kinds[0] != HUMAN:
                parts.append(f"watching the {kinds[0]} v. the Joker")
            else:
                parts.append("you v. the Joker")
        else:
            if "dealer" in obs and not find_variant(v).roles:
                parts.append(f"dealer {players[obs['dealer']]}")
            opp = [f"{players[i]} ({k})" for i, k in enumerate(kinds) if k != HUMAN]
            if opp:
                parts.append("v. " + ", ".join(opp))
        notes = upcard_notes(obs)  # Oklahoma: the knock limit, gin only, spades double, all hand
        if notes:
            parts.extend(notes)
        elif obs.get("knock_limit") is not None and obs.get("hand"):
            parts.append(f"knock limit {obs['knock_limit']}")
        if "roles" in obs:
            r = obs["roles"]
            parts.append(
                f"box {players[r['box']]} · captain {players[r['captain']]} · sitter {players[r['sitter']]}"
                + (" (you)" if r["sitter"] == obs["seat"] else "")
            )
        line = Text()
        line.append(v, style="bold")
        line.append(" · " + " · ".join(parts))
        _put(self.query_one("#info", Static), line)

    def _show_piles(self, obs: dict[str, Any]) -> None:
        large = _app(self).large
        stock = self.query_one("#stock", PileView)
        discard = self.query_one("#discard", PileView)
        opp = self.query_one("#opponents", Static)
        players = obs["players"]
        if obs["variant"] in SOLO:
            stock.show("deck", None, obs.get("deck_size", 0), large=large)
            discard.display = False
            info: list[str] = []
            if "deck_size" in obs:
                above = obs.get("cards_above_joker_max", 0)
                chance = obs.get("joker_next_chance")
                info.append(f"Deck: {obs['deck_size']} cards, the joker among them.")
                info.append(f"At most {above} cards lie above the joker.")
                if chance is not None:
                    info.append(f"Chance the joker is next: {chance:.1%}")
            if len(self.new_cards) == 1 and not self.session.state.is_hand_over:
                info.insert(0, just_drawn(next(iter(self.new_cards))))
            if obs.get("discards"):
                in_pack = find_variant(obs["variant"]).joker == "in_pack"
                where = "under the joker" if in_pack else "face down, out of play"
                t = Text(f"Discards ({where}): ")
                t.append_text(cards_text(obs["discards"][-12:], self.palette))
                _put(opp, Text("\n").join([Text("\n".join(info)), t]))
            else:
                _put(opp, "\n".join(info))
            return
        discard.display = True
        pile = obs.get("discard_pile") or []
        stock.show("stock", None, obs.get("stock_size", 0), large=large)
        title = "upcard" if obs.get("phase") == "upcard" else "discard"
        discard.show(title, pile[-1] if pile else None, len(pile), large=large)
        lines = Text()
        if obs.get("stock_size") is not None:
            lines.append(f"Stock {obs['stock_size']} cards · discard pile {len(pile)}", style="dim")
            if pile:
                lines.append(" · top ", style="dim")
                lines.append_text(cards_text(pile[-1:], self.palette))
            lines.append("\n")
        for i in range(len(players)):
            if i == obs["seat"] or obs.get("hand_sizes", [0] * 3)[i] == 0:
                continue
            n = obs["hand_sizes"][i]
            lines.append(f"{players[i]}: {n} cards " + "▮" * n)
            known = (obs.get("known_cards") or {}).get(str(i))
            if known:
                lines.append("\n  known to hold: ")
                lines.append_text(cards_text(known, self.palette))
            lines.append("\n")
        if obs.get("current_player") is not None and obs["current_player"] != obs["seat"]:
            lines.append(f"{players[obs['current_player']]} to play…", style="italic")
        _put(opp, lines)

    def _show_melds(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#melds", Static)
        hand = obs.get("hand") or []
        if not hand:
            _put(w, no_hand_line(obs))
            return
        four = self.palette
        t = Text()
        melds = obs.get("melds") or []
        t.append("Melds: ", style="bold")
        if melds:
            for i, m in enumerate(melds):
                if i:
                    t.append("  ")
                t.append_text(cards_text(m, four))
        else:
            t.append("none")
        t.append(f"   Deadwood: {obs.get('deadwood', 0)}", style="bold")
        legal = self.legal()
        if self.selected and len(hand) == 11 and any(a.startswith("discard") for a in legal):
            from ..cards import CardSet
            from ..melds import min_deadwood

            rest = CardSet.parse(" ".join(c for c in hand if c != self.selected))
            t.append(f" → {min_deadwood(int(rest))} after discarding {self.selected}")
        knocks = [a.split()[1] for a in legal if a.startswith("knock ")]
        gins = [a.split()[1] for a in legal if a.startswith("gin ")]
        if gins:
            t.append("\nGin is yours: discard ", style="bold")
            t.append_text(cards_text(gins, four))
            t.append(" and press g")
        if knocks:
            t.append("\nYou may knock discarding ")
            t.append_text(cards_text(knocks, four))
        if "gin" in legal:
            t.append("\nAll your cards are melded: big gin (b) / declare (g)", style="bold")
        if "knock" in legal:
            t.append("\nYou may knock with the dealt hand (k)")
        _put(w, t)

    def _show_fairness(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#fair", Static)
        lines = []
        if self.has_class("short"):  # a small terminal: one line, the digests shortened
            if obs.get("revealed_seed"):
                lines.append(f"Deal seed revealed: {obs['revealed_seed'][:24]}… (ginrummy verify)")
            if obs.get("next_commitment"):
                lines.append(f"Next deal committed: {obs['next_commitment'][:32]}…")
            elif obs.get("commitment") and not obs.get("revealed_seed"):
                lines.append(f"Deal committed: {obs['commitment'][:32]}…")
            _put(w, "\n".join(lines))
            return
        if obs.get("revealed_seed"):
            lines.append(
                f"Deal {obs['hand_number']} seed revealed: {obs['revealed_seed']}\n"
                f"  its commitment was {obs.get('commitment', '?')} (check: ginrummy verify)"
            )
        if obs.get("next_commitment"):
            lines.append(f"Next deal committed before dealing: {obs['next_commitment']}")
        elif obs.get("commitment") and not obs.get("revealed_seed"):
            lines.append(f"This deal was committed: {obs['commitment']}")
        _put(w, "\n".join(lines))

    def _show_status(self, obs: dict[str, Any]) -> None:
        s = self.session
        w = self.query_one("#status", Static)
        players = obs["players"]
        t = Text()
        if self.recent and self.has_class("short"):  # no room for the log: the latest moves here
            t.append("; ".join(self.recent[-3:]) + ".\n", style="italic")
        if self.message:
            t.append(self.message + "\n", style="bold")
        if obs.get("game_over"):
            win = obs.get("winner")
            t.append(
                "Game over: " + ("nobody wins" if win is None else f"{players[win]} wins") + ". ",
                style="bold reverse",
            )
            t.append("Press n for a new game with the same settings, Esc for the menu.")
        elif s.state.needs_deal:
            t.append(f"Hand {obs['hand_number'] + 1}: the deal is committed (see above). Press n to deal.")
        elif s.human_to_act() is not None:
            phase = obs["phase"]
            legal = self.legal()
            if phase == "upcard":
                t.append(f"Your turn: take the upcard {obs.get('upcard')} (t) or pass (p).")
            elif phase == "draw":
                tail = " or take the discard (t)." if "take" in legal else "."
                t.append("Your turn: draw from the stock (s)" + tail)
            elif phase == "opening":
                t.append("Your turn: draw (s), or declare the dealt ten if you can.")
            else:
                t.append("Your turn: select a card (1-9, 0, -, ← →, or click) and discard it (d)")
                if any(a.startswith(("knock", "gin")) for a in legal):
                    t.append(", knock (k) or go gin (g)")
                t.append(".")
        elif s.to_act is not None:
            t.append(f"{players[s.to_act]} is playing…", style="italic")
        _put(w, t)

    def _show_captain(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#captain", Static)
        s = self.session
        t = Text()
        roles = obs.get("roles")
        if roles and obs.get("captain_hand"):
            t.append("You are the sitter. The captain's hand: ", style="bold")
            t.append_text(cards_text(obs["captain_hand"], self.palette))
        elif roles and roles["captain"] == obs["seat"] and s.human_to_act() == obs["seat"]:
            suggestion = s.sitter_text()  # a computer sitter advises the person who captains
            if suggestion:
                name, _, advice = suggestion.partition(" suggests: ")
                t.append(f"{name} suggests: ", style="bold")
                t.append(advice)
        _put(w, t)
        w.display = bool(t.plain)

    def _show_buttons(self, obs: dict[str, Any]) -> None:
        legal = self.legal()
        sel = self.selected
        s = self.session
        show = {
            "draw": "draw" in legal,
            "take": "take" in legal,
            "pass": "pass" in legal,
            "discard": any(a.startswith("discard") for a in legal),
            "knock": (sel is not None and f"knock {sel}" in legal) or "knock" in legal,
            "gin": (sel is not None and f"gin {sel}" in legal) or ("gin" in legal and obs.get("phase") == "opening"),
            "big": "gin" in legal and obs.get("phase") != "opening",
            "deal": s.state.needs_deal or s.state.is_terminal,
            "hint": bool(legal),
        }
        pile = obs.get("discard_pile") or []
        labels = {
            "take": f"Take {pile[-1]} (t)" if pile else "Take (t)",
            "discard": f"Discard {sel} (d)" if sel else "Discard (d)",
            "knock": f"Knock {sel} (k)" if sel and f"knock {sel}" in legal else "Knock (k)",
            "gin": f"Gin {sel} (g)" if sel and f"gin {sel}" in legal else "Gin (g)",
            "deal": "New game (n)" if s.state.is_terminal else "Deal (n)",
        }
        for name, visible in show.items():
            b = self.query_one(f"#act-{name}", Button)
            if b.display != visible:
                b.display = visible
            label = labels.get(name)
            if visible and label is not None and str(b.label) != label:
                b.label = label

    def _show_result(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#result", Static)
        res = obs.get("result")
        log = self.query_one("#log", RichLog)
        over = bool(res) and self.session.state.is_hand_over
        show_log = not over and not self.has_class("short")  # the hand's explanation takes the log's place
        if log.display != show_log:
            log.display = show_log
        if not res or not self.session.state.is_hand_over:
            w.display = False
            return
        four = self.palette
        players = obs["players"]
        t = Text(f"Hand {obs['hand_number']}: {result_name(res['result'])}\n", style="bold")
        defender = self.session.defender()
        if res.get("knocker") is not None and "knocker_melds" in res and defender is not None:
            k, d = res["knocker"], defender
            you = obs["seat"]
            t.append(f"{'You' if k == you else players[k]} {'spread' if k == you else 'spreads'}: ", style="bold")
            for m in res["knocker_melds"]:
                t.append_text(cards_text(m, four))
                t.append("  ")
            if res.get("knocker_unmatched"):
                t.append("deadwood ")
                t.append_text(cards_text(res["knocker_unmatched"], four))
            t.append("\n")
            t.append(f"{'You' if d == you else players[d]} {'spread' if d == you else 'spreads'}: ", style="bold")
            for m in res.get("defender_melds", []):
                t.append_text(cards_text(m, four))
                t.append("  ")
            if not res.get("defender_melds"):
                t.append("no melds  ")
            if res.get("laid_off"):
                t.append("lay off " if d == you else "lays off ")
                t.append_text(cards_text(res["laid_off"], four))
                t.append("  ")
            if res.get("defender_unmatched"):
                t.append("deadwood ")
                t.append_text(cards_text(res["defender_unmatched"], four))
            t.append("\n")
        if res.get("counted_cards"):
            t.append(f"Counted down to the joker ({res.get('counted', 0)}): ")
            t.append_text(cards_text(res["counted_cards"], four))
            t.append("\n")
        for line in result_lines(res.get("explanation", []), players, self.session.seats):
            t.append("• " + line + "\n")
        reasons = self.session.reasons_text(obs["seat"])  # the hand is over: the computers' reasons
        if reasons:
            t.append("Why the computer players moved as they did:\n", style="bold")
            for line in reasons[-12:]:
                t.append("  " + line + "\n")
        if self.analysis_lines and self.session.state.is_terminal:
            t.append("Your play against the planner:\n", style="bold")
            for line in self.analysis_lines:
                t.append("  " + line + "\n")
        _put(w, t)
        w.display = True
        shown = (obs["hand_number"], self.session.state.is_terminal)
        if shown != self._result_shown:  # a hand just ended: bring its scoring into view
            self._result_shown = shown
            self.call_after_refresh(w.scroll_visible, animate=False)

    # -- the flow of play --------------------------------------------------------------------------
    def schedule(self) -> None:
        """After any change: let computers move (after a short delay), or file a finished game."""
        s = self.session
        if s.state.is_terminal:
            if not self._filed:
                self._filed = True
                store = _app(self).store
                log = self.query_one("#log", RichLog)
                if s.watched:  # the computer's game, not the person's: kept out of their history
                    if store is not None:
                        with contextlib.suppress(StoreError):
                            store.delete_game(self.game_id)
                    log.write("The game is over. You watched it: it is not filed in your history.")
                else:
                    file_finished_game(store, self.game_id, s, analyse=False)
                    log.write("The game is over and filed in your history.")
                if s.state.variant in SOLO and _app(self).analyse and not s.watched:
                    self.message = "Analysing your play against the planner…"
                    self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")
                self.update_view()
            return
        if self._timer is not None:
            return
        if s.to_act is not None and s.human_to_act() is None:
            delay = _app(self).computer_delay
            self._timer = self.set_timer(max(delay, 0.001), self._computer_move)

    def _analyse(self) -> None:
        """In a worker thread: the solitaire post-game analysis, then file it with the game."""
        analysis = solitaire_analysis(self.session)
        store = _app(self).store
        if analysis is not None and store is not None:
            with contextlib.suppress(StoreError):
                store.finish_game(self.game_id, self.session, analysis)
        self.app.call_from_thread(self._analysis_done, analysis)

    def _analysis_done(self, analysis: dict[str, Any] | None) -> None:
        if not self.is_attached:
            return  # the person left the table meanwhile; the analysis is filed all the same
        if analysis is None:
            self.message = "(No analysis available.)"
        else:
            acc = analysis.get("accuracy")
            self.message = f"Your accuracy this game: {float(acc):.0%}." if acc is not None else ""
            self.analysis_lines = list(analysis.get("summary", []))
        self.update_view()

    def _computer_move(self) -> None:
        self._timer = None
        s = self.session
        hand_before = s.state.hand_number
        viewer = self.log_viewer
        log = self.query_one("#log", RichLog)
        try:
            event = s.computer_step()
            while event is not None:
                words = s.move_text(event, viewer)  # what this seat may read: no reasons before the hand ends
                log.write(words + ".")
                self.recent.append(words)
                if _app(self).computer_delay > 0 or s.state.is_hand_over:
                    break
                event = s.computer_step()  # no delay wanted (tests, demonstrations): play on, draw once
        except ComputerPlayerError as exc:  # its message names the player, never its cards
            self.notify(str(exc), severity="error", timeout=10, markup=False)
            self.update_view()
            return  # not rescheduled: the game stays as it was, saved
        self._after_change(hand_before)

    def _after_change(self, hand_before: int) -> None:
        s = self.session
        if s.state.is_hand_over and s.state.hand_number == hand_before and hand_before > 0:
            res = s.state.hand_result
            if res is not None:
                self.query_one("#log", RichLog).write(f"Hand {hand_before} is over: {res.result}.")
        self.update_view()
        self.schedule()

    def human(self, action: Action | str) -> bool:
        s = self.session
        seat = s.human_to_act()
        if seat is None:
            self.notify("It is not your turn.", severity="warning")
            return False
        hand_before = s.state.hand_number
        try:
            event = s.act(seat, action)
        except GinRummyError as exc:
            self.notify(str(exc), title="Not allowed", severity="error", markup=False)
            return False
        self.message = ""
        self.hinted = None
        self.recent = []
        self.query_one("#log", RichLog).write(s.move_text(event, self.log_viewer if self.shared else seat) + ".")
        self._after_change(hand_before)
        return True

    # -- actions (keys and buttons) ----------------------------------------------------------------
    def can(self, what: str) -> bool:
        """Whether the play key ``what`` (draw, take, pass, discard, knock, gin, big) can act now."""
        legal = self.legal()
        if what in ("draw", "take", "pass"):
            return what in legal
        if what == "big":
            return "gin" in legal
        return any(a.split()[0] == what for a in legal)

    def cannot(self, what: str) -> None:
        """Say briefly why ``what`` cannot be done now (the words are :func:`ginrummy.words.cannot_line`)."""
        s = self.session
        playing = s.names[s.to_act] if s.to_act is not None else None
        line = cannot_line(
            what,
            self.legal(),
            game_over=s.state.is_terminal,
            between_hands=s.state.needs_deal or not s.state.logs,
            playing=playing,
        )
        self.notify(line, severity="warning", timeout=4, markup=False)

    def action_play(self, what: str) -> None:
        legal = self.legal()
        sel = self.selected
        if not self.can(what) and (what not in ("knock", "gin") or not any(a.startswith("discard") for a in legal)):
            self.cannot(what)  # knock and gin in the discard phase say more below (the limit, the card)
            return
        if what in ("draw", "take", "pass"):
            self.human(what)
            return
        if what == "big":
            self.human("gin")
            return
        if what == "discard":
            if sel is None:
                self.notify("Select a card first: 1-9, 0, - or the arrows, or click it.", severity="warning")
                return
            self.human(f"discard {sel}")
            return
        if what in ("knock", "gin"):
            if sel is not None and f"{what} {sel}" in legal:
                self.human(f"{what} {sel}")
                return
            if what in legal and (sel is None or not any(a.startswith(f"{what} ") for a in legal)):
                self.human(what)
                return
            options = [a.split()[1] for a in legal if a.startswith(f"{what} ")]
            if options:
                self.notify(
                    f"To {'knock' if what == 'knock' else 'go gin'}, select one of {', '.join(options)} first.",
                    severity="warning",
                    markup=False,
                )
            else:
                obs = self.obs()
                self.notify(
                    f"You cannot {'knock' if what == 'knock' else 'go gin'} now "
                    f"(knock limit {obs.get('knock_limit')}, deadwood {obs.get('deadwood')}).",
                    severity="warning",
                )

    def action_select(self, index: int) -> None:
        if index < len(self.order):
            card = self.order[index]
            self.selected = None if self.selected == card else card
            self.update_view()

    def action_move(self, step: int) -> None:
        if not self.order:
            return
        if self.selected in self.order:
            i = (self.order.index(self.selected) + step) % len(self.order)
        else:
            i = 0 if step > 0 else len(self.order) - 1
        self.selected = self.order[i]
        self.update_view()

    def action_next_hand(self) -> None:
        s = self.session
        if s.state.is_terminal:
            self._new_game_same_settings()
            return
        if not s.state.needs_deal:
            self.cannot("deal")
            return
        n = s.state.hand_number + 1
        commit = s.commitment_for_next_deal()
        try:
            s.start_hand()
        except GinRummyError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.message = ""
        self.query_one("#log", RichLog).write(f"— Hand {n} dealt (committed {str(commit)[:16]}…) —")
        self._after_change(n)

    def _new_game_same_settings(self) -> None:
        s = self.session
        st = s.state
        session = Session.new(
            st.variant,
            st.options.to_dict(only_changed=True, variant=st.variant),
            list(st.players),
            list(s.seats),
            deal_seed=None if s.deal_seed is None else s.deal_seed + 1000,
        )
        _app(self).open_game(session, replace=True)

    def action_hint(self) -> None:
        s = self.session
        seat = self.viewer
        if not self.legal():
            self.cannot("hint")
            return
        try:
            advice = s.hint(seat)
        except ImportError:
            self.notify("Hints are not available in this installation.", severity="warning")
            return
        except Exception as exc:  # a hint is a courtesy: never stop the game for it
            self.notify(f"No hint: {exc}", severity="warning", markup=False)
            return
        best = advice.best
        why = getattr(advice, "why", None)
        ranked = getattr(advice, "ranked", None) or []
        text = f"Hint: {best}" + (f" — {why}" if why else "")
        if ranked:
            text += "  (" + ", ".join(f"{a} {v:+.1f}" for a, v in ranked[:3]) + ")"
        self.message = text
        card = getattr(best, "card", None)
        if card is not None and str(card) in self.order:
            self.hinted = str(card)
            self.selected = str(card)
        self.update_view()

    def action_sort(self) -> None:
        self.sort_mode = "suit" if self.sort_mode == "rank" else "rank"
        self.notify(f"Hand sorted by {self.sort_mode}.", timeout=2, markup=False)
        self.update_view()

    def action_group(self) -> None:
        self.group_melds = not self.group_melds
        self.update_view()

    def action_scores(self) -> None:
        sheet = self.query_one("#scores")
        sheet.display = not sheet.display

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_leave(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.session.on_change = None
        store = _app(self).store
        if store is not None:
            store.release_game(self.game_id)  # saved and closed here: it may be opened elsewhere now
        _app(self).leave_game()

    @on(HandView.Clicked)
    def card_clicked(self, event: HandView.Clicked) -> None:
        self.action_select(event.index)

    @on(PileView.Clicked)
    def pile_clicked(self, event: PileView.Clicked) -> None:
        legal = self.legal()
        if event.pile == "stock" and "draw" in legal:
            self.human("draw")
        elif event.pile == "discard" and "take" in legal:
            self.human("take")

    @on(Button.Pressed)
    def button(self, event: Button.Pressed) -> None:
        bid = (event.button.id or "").removeprefix("act-")
        if bid in ("draw", "take", "pass", "discard", "knock", "gin", "big"):
            self.action_play(bid)
        elif bid == "deal":
            self.action_next_hand()
        elif bid == "hint":
            self.action_hint()

    def refresh_display(self) -> None:
        self.update_view()


# =============================================================================================
# Statistics, help, the bad-database screen
# =============================================================================================
class StatsScreen(Screen[None]):
    """Per variant: games, win rate, points per hand, the running average as a chart, accuracy."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("q", "app.pop_screen", "Back", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield VerticalScroll(id="stats")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "your statistics"
        store = _app(self).store
        box = self.query_one("#stats", VerticalScroll)
        stats = store.stats() if store is not None else {}
        if not stats:
            box.mount(
                Static(
                    "No finished games yet. Finished games appear here with your win rate, points per hand "
                    "and a chart of your running average.",
                    classes="stat-empty",
                )
            )
            return
        for variant in [v for v in variant_names() if v in stats]:
            st = stats[variant]
            text = (
                f"[b]{variant}[/b] — {VARIANT_TITLES[variant]}\n"
                f"games {st['games']} · wins {st['wins']} · win rate {st['win_rate']:.0%} · hands {st['hands']}\n"
                f"points per hand (yours minus the opponents') {st['points_per_hand']:+.2f} · "
                f"scored per hand {st['scored_per_hand']:.2f}"
            )
            if st.get("accuracy") is not None:
                text += f"\naccuracy (solitaire analysis) {st['accuracy']:.0%} over {len(st['accuracy_history'])} games"
            ra = st["running_average"]
            text += (
                f"\nrunning average of points per hand, game by game (chart: oldest to newest): "
                f"{' '.join(f'{x:+.1f}' for x in ra[-8:])}"
            )
            box.mount(Static(text, classes="stat-text"))
            data = ra if len(ra) > 1 else [*ra, *ra]
            box.mount(Sparkline(data, classes="stat-chart"))


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Close"),
        Binding("question_mark", "app.pop_screen", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(KEYS_HELP)
            yield Button("Close (Esc)", id="close-help")

    @on(Button.Pressed, "#close-help")
    def close(self) -> None:
        self.app.pop_screen()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before something that cannot be undone: y or Enter on Yes, n or Esc for no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, question: Text | str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes, delete (y)", id="confirm-yes", variant="error")
                yield Button("No (n, Esc)", id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()  # the safe answer is the default

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")


class StoreErrorScreen(Screen[None]):
    """The database cannot be used: say why, change nothing unless the person chooses."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit")]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.error_message = message

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="store-error"):
            yield Static("[b]Your saved games could not be opened[/b]", classes="section")
            yield Static(Text(self.error_message), id="store-error-text")
            yield Static(
                "Nothing has been changed. You can start a new database (the old file is renamed "
                "to ….bad-<date> so it can still be rescued), play without saving, or quit and "
                "look at the file yourself."
            )
            with Horizontal(id="store-buttons"):
                yield Button("Start a new database", id="new-db", variant="warning")
                yield Button("Play without saving", id="no-save")
                yield Button("Quit", id="quit-store", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#quit-store", Button).focus()

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        app = _app(self)
        if event.button.id == "new-db":
            app.start_new_database()
        elif event.button.id == "no-save":
            app.play_without_saving()
        else:
            app.exit(1)

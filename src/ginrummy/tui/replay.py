"""Replaying finished games: the list of your finished games (newest first) and a viewer that steps
through one, or through a game record read from a file, forwards and back (the positions come from
:func:`ginrummy.replays.replay_game`).  A record file is opened with ``o`` in the list of finished
games (:class:`RecordFileScreen`) or by ``ginrummy replay FILE --view``; it is checked whole
first (:func:`check_records`), and a file of several records is listed (:class:`RecordListScreen`)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import GinRummyError, RecordError
from ..i18n import N_, _, ngettext
from ..record import load_records, replay, summary
from ..replays import ReplayStep, replay_game
from ..store import FinishedGame
from ..words import clean_names, display_names, variant_title
from .common import host, put, speak_keys
from .widgets import cards_text, palette_name

__all__ = [
    "MAX_STEPS",
    "HistoryScreen",
    "RecordFileScreen",
    "RecordListScreen",
    "ReplayScreen",
    "check_records",
    "record_line",
    "step_text",
]

MAX_STEPS = 50_000
"""The positions the viewer makes at most (a record of hundreds of hands is shown from its start)."""


def step_text(step: ReplayStep, players: Sequence[str], position: tuple[int, int], palette: str) -> Text:
    """One position of the replay: where we are, the move, every hand face up, the pile, the totals,
    and at the end of a hand its result."""
    n, total = position
    t = Text()
    t.append(_("Hand {hand} · step {n} of {total}").format(hand=step.hand, n=n, total=total) + "\n", style="bold")
    t.append(
        (step.text if step.index < 0 else _("{move}.").format(move=step.text)) + "\n",
        style="bold" if step.index >= 0 else "italic",
    )
    for seat, cards in enumerate(step.hands):
        t.append(_("{name}: ").format(name=players[seat]))
        t.append_text(cards_text(list(cards), palette) if cards else Text(_("no cards")))
        t.append("\n")
    t.append(_("Stock {n} · pile ").format(n=step.stock))
    t.append_text(cards_text(list(step.pile[-6:]), palette) if step.pile else Text(_("empty")))
    t.append("\n")
    totals = " – ".join(f"{p} {x}" for p, x in zip(players, step.totals, strict=True))
    t.append(_("Totals: {totals}").format(totals=totals) + "\n")
    for line in step.result:
        t.append("• " + line + "\n")
    return t


class ReplayScreen(Screen[None]):
    """Step through a finished game: → or . forwards, ← or , back, PgDn/PgUp a hand, Home/End."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Forward")),
        Binding("left", "step(-1)", N_("Back")),
        Binding("full_stop", "step(1)", N_("Forward"), show=False),
        Binding("comma", "step(-1)", N_("Back"), show=False),
        Binding("pagedown", "hand(1)", N_("Next hand")),
        Binding("pageup", "hand(-1)", N_("Previous hand")),
        Binding("home", "jump(0)", N_("Start"), show=False),
        Binding("end", "jump(-1)", N_("End"), show=False),
        Binding("escape", "app.pop_screen", N_("Back to the list")),
    ]

    def __init__(
        self, record: Mapping[str, Any], *, viewer: int | None = 0, title: str = "", back: str | None = None
    ) -> None:
        """``back``: what Escape does, in words for the footer (default: back to the list)."""
        super().__init__()
        speak_keys(self)
        if back is not None:
            keys = self._bindings.key_to_bindings
            keys["escape"] = [replace(b, description=back) for b in keys["escape"]]
        # RecordError for a bad record, naming its field, hand and action: nothing is shown
        game = replay_game(record, viewer=viewer, limit=MAX_STEPS)
        self.steps = game.steps
        self.truncated = game.truncated
        players = list(game.final.players)
        self.players = [_("You") if i == viewer else p for i, p in enumerate(display_names(clean_names(players)))]
        self.position = 0
        self.game_title = title

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="replay"):
            yield Static("", id="replay-step")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("replay") + (f" · {self.game_title}" if self.game_title else "")
        self.show()
        if self.truncated:
            self.notify(_("A long record: its first {n} positions are shown.").format(n=len(self.steps)), markup=False)

    def show(self) -> None:
        app = host(self)
        step = self.steps[self.position]
        palette = palette_name(app.four_colour, app.high_contrast)
        put(
            self.query_one("#replay-step", Static),
            step_text(step, self.players, (self.position + 1, len(self.steps)), palette),
        )

    def action_step(self, by: int) -> None:
        self.position = max(0, min(len(self.steps) - 1, self.position + by))
        self.show()

    def action_jump(self, to: int) -> None:
        self.position = to % len(self.steps)
        self.show()

    def action_hand(self, by: int) -> None:
        """To the deal of the next (or this, then the previous) hand."""
        here = self.steps[self.position]
        deals = [i for i, s in enumerate(self.steps) if s.index == -1]
        if by > 0:
            later = [i for i in deals if i > self.position]
            self.position = later[0] if later else len(self.steps) - 1
        else:
            earlier = [i for i in deals if i < self.position]
            start = next(i for i in deals if self.steps[i].hand == here.hand)
            self.position = start if self.position != start else (earlier[-1] if earlier else 0)
        self.show()


def record_line(record: Mapping[str, Any], i: int, n: int) -> str:
    """One record of a file, in words: which of how many, the variant, the players, the hands
    and whether it is complete (the ``replay`` command's title)."""
    state = replay(record)
    out = summary(state)
    players = display_names(clean_names(state.players))
    hands = len(out["hands"])
    if out["complete"]:
        title = ngettext("{variant}: {players}; {n} hand, complete", "{variant}: {players}; {n} hands, complete", hands)
    else:
        title = ngettext(
            "{variant}: {players}; {n} hand, stopped inside a hand (a saved game)",
            "{variant}: {players}; {n} hands, stopped inside a hand (a saved game)",
            hands,
        )
    totals = "–".join(str(t) for t in state.totals)
    head = _("record {i} of {n}").format(i=i, n=n)
    game = variant_title(state.variant, short=True)  # the title, as the saved games' lists name it
    return f"{head} · {title.format(variant=game, players=_(' v ').join(players), n=hands)} · {totals}"


def check_records(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every record replayed, the lines that name them (:func:`record_line`); the first fault
    raises :class:`~ginrummy.errors.RecordError` naming the record (when there are several), its
    field, hand and action."""
    lines = []
    for i, record in enumerate(records):
        try:
            lines.append(record_line(record, i + 1, len(records)))
        except RecordError as exc:
            if len(records) == 1:
                raise
            raise RecordError(_("records[{i}] (record {n}): {error}").format(i=i, n=i + 1, error=exc)) from None
    return lines


class RecordListScreen(Screen[None]):
    """The records of a file; Enter steps through the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(
        self, records: Sequence[Mapping[str, Any]], lines: Sequence[str], source: str, *, back: str | None = None
    ) -> None:
        """``back``: what Escape does, in words for the footer (default: back)."""
        super().__init__()
        speak_keys(self)
        if back is not None:
            keys = self._bindings.key_to_bindings
            keys["escape"] = [replace(b, description=back) for b in keys["escape"]]
        self.records = list(records)
        self.lines = list(lines)
        self.source = source

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="history"):
            yield Static("", id="history-info")
            yield OptionList(*(Option(Text(line), id=str(i)) for i, line in enumerate(self.lines)), id="records")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.source
        info = _("Choose a game and press Enter to step through it (← → a move, PgUp PgDn a hand).")
        put(self.query_one("#history-info", Static), Text(info))
        listing = self.query_one("#records", OptionList)
        listing.highlighted = 0
        listing.focus()

    @on(OptionList.OptionSelected, "#records")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        i = int(event.option.id or 0)
        self.app.push_screen(ReplayScreen(self.records[i], viewer=None, title=self.lines[i]))


class RecordFileScreen(ModalScreen[None]):
    """Open a record file by its path: Enter checks it whole and opens the viewer on it (a list
    first for several records); a bad one is named on one line here and nothing opens."""

    DEFAULT_CSS = """
    RecordFileScreen { align: center middle; }
    #record-file { width: 76; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    #record-file Static { height: auto; }
    #record-error { color: $error; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        speak_keys(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="record-file"):
            yield Static(_("A game record file (as ginrummy export writes them): type its path and press Enter."))
            yield Input(placeholder=_("path of the record file"), id="record-path")
            yield Static("", id="record-error")

    def on_mount(self) -> None:
        self.query_one("#record-path", Input).focus()

    @on(Input.Submitted, "#record-path")
    def submitted(self, event: Input.Submitted) -> None:
        path = os.path.expanduser(event.value.strip())
        error = self.query_one("#record-error", Static)
        if not path:
            error.update(Text(_("Type the path of a record file first.")))
            return
        try:
            records = load_records(path)
            lines = check_records(records)
        except RecordError as exc:  # named on one line; nothing opens
            error.update(Text(" ".join(f"{path}: {exc}".split())))
            return
        self.dismiss()
        source = os.path.basename(path)
        if len(records) == 1:
            self.app.push_screen(ReplayScreen(records[0], viewer=None, title=f"{source} · {lines[0]}"))
        else:
            self.app.push_screen(RecordListScreen(records, lines, source))


class HistoryScreen(Screen[None]):
    """Your finished games, newest first; Enter replays the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("o", "open_record", N_("Open a record file")),
    ]

    def __init__(self) -> None:
        super().__init__()
        speak_keys(self)

    def action_open_record(self) -> None:
        self.app.push_screen(RecordFileScreen())

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="history"):
            yield Static("", id="history-info")
            yield OptionList(id="finished")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("replay a finished game")
        store = host(self).store
        problems: list[str] = []
        games = list(reversed(store.history(problems=problems))) if store is not None else []
        self.games = {g.id: g for g in games}
        listing = self.query_one("#finished", OptionList)
        for g in games:
            listing.add_option(Option(Text(_line(g)), id=g.id))
        info = _("Choose a game and press Enter to step through it (← → a move, PgUp PgDn a hand).")
        if not games:
            info = _("No finished games yet: a game appears here when it is over.")
        put(self.query_one("#history-info", Static), Text(info))
        if games:
            listing.highlighted = 0
            listing.focus()

    @on(OptionList.OptionSelected, "#finished")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        g = self.games.get(event.option.id or "")
        if g is None:
            return
        try:
            screen = ReplayScreen(g.record, viewer=g.player_seat if "human" in g.seats else None, title=_line(g))
        except GinRummyError as exc:  # a damaged record: say so, replay nothing
            self.notify(_("This game cannot be replayed: {error}").format(error=exc), severity="error", markup=False)
            return
        self.app.push_screen(screen)


def _line(g: FinishedGame) -> str:
    names = _(" v ").join(display_names(clean_names(g.players)))
    totals = "–".join(str(t) for t in g.final_totals or g.totals)
    marks = " · " + ngettext("{n} takeback", "{n} takebacks", g.takebacks).format(n=g.takebacks) if g.takebacks else ""
    hands = ngettext("{n} hand", "{n} hands", g.hands).format(n=g.hands)
    game = variant_title(g.variant, short=True)  # as the page's list names it
    return f"{game}: {names} · {totals} · {hands} · {g.finished_at[:16].replace('T', ' ')} UTC{marks}"

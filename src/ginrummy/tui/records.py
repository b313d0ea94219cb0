"""The replay viewer on game records read from a file (``ginrummy replay FILE --view``): a small
terminal app that opens :class:`~ginrummy.tui.replay.ReplayScreen` on the record (every hand face
up, forwards and back by move and by hand, the keys of the finished-game viewer), or on a file of
several records (as ``ginrummy export`` writes them) a list to choose one from.

The records are checked whole before the app starts (:func:`check_records`): a bad one is refused
with one line naming the record, its field, hand and action, and nothing is shown.  The viewer
reads no saved games and writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import RecordError
from ..i18n import N_, _, ngettext
from ..record import replay, summary
from ..store import Store
from ..words import clean_names, display_names
from .app import HIGH_CONTRAST
from .common import put, speak_keys
from .replay import ReplayScreen

__all__ = ["RecordListScreen", "RecordsApp", "check_records", "record_line"]


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
    return f"{head} · {title.format(variant=state.variant, players=_(' v ').join(players), n=hands)} · {totals}"


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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.quit", N_("Quit"))]

    def __init__(self, records: Sequence[Mapping[str, Any]], lines: Sequence[str], source: str) -> None:
        super().__init__()
        speak_keys(self)
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


class RecordsApp(App[int]):
    """Step through the records of a file: one opens at once, several are listed first.  Escape
    leaves (from a record of several, back to the list)."""

    CSS_PATH = "ginrummy.tcss"
    TITLE = "ginrummy"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

    def __init__(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        source: str = "",
        four_colour: bool = False,
        high_contrast: bool = False,
    ) -> None:
        super().__init__()
        self.lines = check_records(records)  # RecordError before anything is shown
        self.records = list(records)
        self.source = source
        # what the screens ask of their app (tui.common.Host): no saved games here
        self.store: Store | None = None
        self.four_colour = four_colour
        self.large = False
        self.high_contrast = high_contrast
        self.computer_delay = 0.0
        self.deal_seed: int | None = None
        self.analyse = False

    def on_mount(self) -> None:
        self.register_theme(HIGH_CONTRAST)
        self.set_class(self.four_colour, "four-colour")
        self.set_class(self.high_contrast, "high-contrast")
        self.theme = "ginrummy-high-contrast" if self.high_contrast else "textual-dark"
        if len(self.records) == 1:
            title = f"{self.source} · {self.lines[0]}" if self.source else self.lines[0]
            self.push_screen(ReplayScreen(self.records[0], viewer=None, title=title, back=_("Quit")))
        else:
            self.push_screen(RecordListScreen(self.records, self.lines, self.source))

    async def action_pop_screen(self) -> None:
        """Back to the list; from the only screen, leave."""
        if len(self.screen_stack) <= 2:  # Textual's default screen and ours
            self.exit(0)
        else:
            self.pop_screen()

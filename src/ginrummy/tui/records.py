"""The replay viewer on game records read from a file (``ginrummy replay FILE --view``): a small
terminal app that opens :class:`~ginrummy.tui.replay.ReplayScreen` on the record (every hand face
up, forwards and back by move and by hand, the keys of the finished-game viewer), or on a file of
several records (as ``ginrummy export`` writes them) a list to choose one from.

The records are checked whole before the app starts (:func:`~ginrummy.tui.replay.check_records`): a bad one is refused
with one line naming the record, its field, hand and action, and nothing is shown.  The viewer
reads no saved games and writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from ..i18n import _
from ..store import Store
from .app import HIGH_CONTRAST
from .replay import RecordListScreen, ReplayScreen, check_records

__all__ = ["RecordsApp"]


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
            self.push_screen(RecordListScreen(self.records, self.lines, self.source, back=_("Quit")))

    async def action_pop_screen(self) -> None:
        """Back to the list; from the only screen, leave."""
        if len(self.screen_stack) <= 2:  # Textual's default screen and ours
            self.exit(0)
        else:
            self.pop_screen()

"""Choosing the melds to spread with a knock (``knocker_arrangement=choose``, rule 0.8): a list of
the ways, least deadwood first; Enter spreads the highlighted one, Esc plays nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..i18n import N_, _
from ..melds import Arrangement
from .common import speak_keys
from .widgets import cards_text

__all__ = ["SpreadScreen"]


def arrangement_text(arrangement: Arrangement, palette: str) -> Text:
    """``3♥h 4♥h 5♥h  K♣c K♦d K♠s · deadwood 2♣c = 2``, the cards drawn as in the hand."""
    t = Text()
    for i, meld in enumerate(arrangement.melds):
        if i:
            t.append("  ")
        t.append_text(cards_text([str(c) for c in meld], palette))
    if not arrangement.melds:
        t.append(_("no melds"))
    t.append(_(" · deadwood "))
    if arrangement.unmatched:
        t.append_text(cards_text([str(c) for c in arrangement.unmatched], palette))
        t.append(f" = {arrangement.deadwood}")
    else:
        t.append("0")
    return t


class SpreadScreen(ModalScreen[int | None]):
    """Which melds to spread with ``action``: dismissed with the index chosen, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Play nothing"))]
    # Below 100 columns the list takes the whole width: a way to spread, with its deadwood, is one line.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (Textual declares it)

    def __init__(self, action: str, choices: Sequence[Arrangement], palette: str = "normal") -> None:
        super().__init__()
        speak_keys(self)
        self.action_text = action
        self.choices = list(choices)
        self.palette = palette

    def compose(self) -> ComposeResult:
        with Vertical(id="spread"):
            yield Static(
                Text(
                    _("{action}: which melds do you spread? (Enter spreads, Esc plays nothing)").format(
                        action=self.action_text
                    )
                ),
                id="spread-title",
            )
            yield OptionList(
                *[
                    Option(Text(f"{i}. ").append_text(arrangement_text(a, self.palette)), id=str(i - 1))
                    for i, a in enumerate(self.choices, 1)
                ],
                id="spread-choices",
            )
            yield Button(_("Play nothing (Esc)"), id="spread-cancel")

    def on_mount(self) -> None:
        choices = self.query_one("#spread-choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected, "#spread-choices")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    @on(Button.Pressed, "#spread-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

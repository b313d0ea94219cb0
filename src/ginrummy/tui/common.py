"""What every screen of the terminal app shares: the :class:`Host` the screens ask for the app's
services (a Protocol, so that no screen imports the app), the variants' titles and the levels' words,
and a redraw-saving ``put``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol, cast

from rich.text import Text
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Static

from ..i18n import N_, _
from ..session import Session
from ..store import Store
from ..variants import VARIANTS, solo_variants
from ..words import seat_kind

__all__ = ["LEVEL_TEXT", "SOLO", "VARIANT_TITLES", "Host", "host", "level_text", "put", "speak_keys"]

VARIANT_TITLES = {v.name: v.title for v in VARIANTS}
SOLO = solo_variants()  # the solitaires, from the registry
LEVEL_TEXT = {  # translated where shown (level_text)
    "beginner": N_("beginner (knocks at once, remembers little)"),
    "casual": N_("casual (remembers the last discard)"),
    "intermediate": N_("intermediate (some memory, knocks early)"),
    "advanced": N_("advanced (good memory, small slips)"),
    "random": N_("random (any legal move)"),
    "greedy": N_("greedy (least deadwood now)"),
    "expert": N_("expert (the strongest)"),
    "planner": N_("planner (watch it play)"),
    "clairvoyant": N_("clairvoyant (sees the deck; watch it)"),
}


def speak_keys(node: DOMNode) -> None:
    """Name ``node``'s keys (its ``BINDINGS``, written in English and marked ``N_``: descriptions
    and tooltips) in the current language, for the footer: the instance's own copy of the bindings
    is changed, never the class's.  Called again (the language changed), it words them anew."""
    keys = node._bindings.key_to_bindings
    english: dict[str, list[Binding]] | None = getattr(node, "_ginrummy_english_keys", None)
    if english is None:
        english = {key: list(bindings) for key, bindings in keys.items()}
        setattr(node, "_ginrummy_english_keys", english)  # noqa: B010 (an attribute Textual's node does not declare)
    for key, bindings in english.items():
        keys[key] = [
            replace(b, description=_(b.description) if b.description else "", tooltip=_(b.tooltip) if b.tooltip else "")
            for b in bindings
        ]


def level_text(level: str) -> str:
    """A computer level with what it does, in the current language, for the start screen's menus."""
    return _(LEVEL_TEXT[level]) if level in LEVEL_TEXT else seat_kind(level)


class Host(Protocol):
    """The services of the app that the screens use (the app, :class:`~ginrummy.tui.app.GinRummyApp`,
    owns them: the store, the display settings, opening and leaving games)."""

    store: Store | None
    four_colour: bool
    large: bool
    high_contrast: bool
    computer_delay: float
    deal_seed: int | None
    analyse: bool

    def set_display(
        self,
        *,
        four_colour: bool | None = None,
        large: bool | None = None,
        high_contrast: bool | None = None,
        remember: bool = True,
    ) -> None: ...

    def open_game(self, session: Session, *, replace: bool = False) -> Screen[None] | None: ...

    def resume_game(self, game_id: str) -> Screen[None] | None: ...

    def leave_game(self) -> None: ...

    def start_new_database(self) -> None: ...

    def play_without_saving(self) -> None: ...


def host(screen: Screen[Any]) -> Host:
    """The app that shows ``screen``, as the services it offers the screens."""
    return cast(Host, screen.app)


def put(widget: Static, content: Any) -> None:
    """Update a Static only when its content changed (an update costs a redraw)."""
    key = content.markup if isinstance(content, Text) else str(content)
    if getattr(widget, "_ginrummy_last", None) != key:
        widget._ginrummy_last = key  # type: ignore[attr-defined]  # a cache on the widget, read above
        widget.update(content)

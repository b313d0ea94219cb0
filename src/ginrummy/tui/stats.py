"""The statistics screen: per variant (and per opponent), games, win rate, points per hand, gins
and undercuts, streaks, best and worst, the running average as a chart."""

from __future__ import annotations

from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Sparkline, Static

from ..i18n import N_, _, ngettext
from ..statwords import opponent_sections, stats_lines
from ..variants import variant_names
from ..words import variant_title
from .common import host, speak_keys

__all__ = ["StatsScreen"]


class StatsScreen(Screen[None]):
    """Per variant: games, win rate, points per hand, the running average as a chart, accuracy."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("q", "app.pop_screen", N_("Back"), show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        speak_keys(self)

    def compose(self) -> ComposeResult:
        yield Header()
        yield VerticalScroll(id="stats")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("your statistics")
        store = host(self).store
        box = self.query_one("#stats", VerticalScroll)
        stats = store.stats() if store is not None else {}
        if not stats:
            box.mount(
                Static(
                    _(
                        "No finished games yet. Finished games appear here with your win rate, points per hand "
                        "and a chart of your running average."
                    ),
                    classes="stat-empty",
                )
            )
            return
        for variant in [v for v in variant_names() if v in stats]:
            st = stats[variant]
            text = f"[b]{variant}[/b] — {variant_title(variant)}\n" + "\n".join(
                escape(line) for line in stats_lines(st)
            )
            if st.get("accuracy") is not None:
                n = len(st["accuracy_history"])
                text += "\n" + ngettext(
                    "accuracy (solitaire analysis) {accuracy} over {n} game",
                    "accuracy (solitaire analysis) {accuracy} over {n} games",
                    n,
                ).format(accuracy=f"{st['accuracy']:.0%}", n=n)
            ra = st["running_average"]
            text += "\n" + _(
                "running average of points per hand, game by game (chart: oldest to newest): {values}"
            ).format(values=" ".join(f"{x:+.1f}" for x in ra[-8:]))
            box.mount(Static(text, classes="stat-text"))
            data = ra if len(ra) > 1 else [*ra, *ra]
            box.mount(Sparkline(data, classes="stat-chart"))
            for heading, figures in opponent_sections(st):
                lines = "\n".join("  " + escape(line) for line in figures)
                box.mount(Static(f"[b]{escape(heading)}[/b]\n{lines}", classes="stat-text"))

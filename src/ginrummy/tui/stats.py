"""The statistics screen: per variant (and per opponent), games, win rate, points per hand, gins
and undercuts, streaks, best and worst, the running average as a chart: over all the variant's
games, or, chosen in the list above it, against one opponent (and so one playing level).  The
charts and their words come from :func:`ginrummy.statwords.chart_choices`, as on the page."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Select, Sparkline, Static

from ..i18n import N_, _, ngettext
from ..statwords import chart_choices, opponent_sections, stats_lines
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
        self.charts: dict[str, list[dict[str, Any]]] = {}
        """Per variant: the charts offered (:func:`~ginrummy.statwords.chart_choices`)."""
        self.chosen: dict[str, int] = {}
        """Per variant: the chart shown (an index into ``charts``)."""

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
            text = f"[b]{variant_title(variant)}[/b]\n" + "\n".join(escape(line) for line in stats_lines(st))
            if st.get("accuracy") is not None:
                n = len(st["accuracy_history"])
                text += "\n" + ngettext(
                    "accuracy (solitaire analysis) {accuracy} over {n} game",
                    "accuracy (solitaire analysis) {accuracy} over {n} games",
                    n,
                ).format(accuracy=f"{st['accuracy']:.0%}", n=n)
            box.mount(Static(text, classes="stat-text"))
            charts = self.charts[variant] = chart_choices(st)
            self.chosen[variant] = 0
            if len(charts) > 1:
                options = [(c["label"], i) for i, c in enumerate(charts)]
                box.mount(Static(_("Opponent"), classes="stat-caption"))
                box.mount(Select(options, value=0, allow_blank=False, id=f"chart-{variant}", classes="stat-choice"))
            box.mount(Static(charts[0]["line"], id=f"chart-{variant}-line", classes="stat-caption", markup=False))
            box.mount(Sparkline(_points(charts[0]["values"]), id=f"chart-{variant}-spark", classes="stat-chart"))
            for heading, figures in opponent_sections(st):
                lines = "\n".join("  " + escape(line) for line in figures)
                box.mount(Static(f"[b]{escape(heading)}[/b]\n{lines}", classes="stat-text"))

    @on(Select.Changed, ".stat-choice")
    def chart_chosen(self, event: Select.Changed) -> None:
        """The chart follows the opponent chosen (or all of them)."""
        variant = (event.select.id or "").removeprefix("chart-")
        charts = self.charts.get(variant)
        if not charts or not isinstance(event.value, int):
            return
        self.chosen[variant] = event.value
        chart = charts[event.value]
        self.query_one(f"#chart-{variant}-line", Static).update(chart["line"])
        self.query_one(f"#chart-{variant}-spark", Sparkline).data = _points(chart["values"])


def _points(values: list[float]) -> list[float]:
    """A Sparkline needs two points to draw a line: one game's value is drawn flat."""
    return values if len(values) > 1 else [*values, *values]

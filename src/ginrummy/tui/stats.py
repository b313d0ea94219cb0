"""The statistics screen: per variant, games, win rate, points per hand, the running average as a chart."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Sparkline, Static

from ..i18n import N_, _, ngettext
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
            text = (
                f"[b]{variant}[/b] — {variant_title(variant)}\n"
                + _("games {games} · wins {wins} · win rate {rate} · hands {hands}").format(
                    games=st["games"], wins=st["wins"], rate=f"{st['win_rate']:.0%}", hands=st["hands"]
                )
                + "\n"
                + _("points per hand (yours minus the opponents') {points} · scored per hand {scored}").format(
                    points=f"{st['points_per_hand']:+.2f}", scored=f"{st['scored_per_hand']:.2f}"
                )
            )
            if st.get("takeback_games"):
                text += "\n" + ngettext(
                    "{n} of these games had takebacks (moves taken back)",
                    "{n} of these games had takebacks (moves taken back)",
                    st["takeback_games"],
                ).format(n=st["takeback_games"])
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

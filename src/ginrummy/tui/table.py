"""The table the game is drawn on: the layout and the drawing of the game screen, from what the
person's seat may see (the texts come from :mod:`ginrummy.tui.render`).  Playing on it, the keys
and the flow of the game are :class:`ginrummy.tui.game.GameScreen`'s."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, RichLog, Static

from ..errors import GinRummyError
from ..i18n import _, pgettext
from ..observe import Observation
from ..record import summary as record_summary
from ..session import HUMAN, Session, viewer_seat
from ..words import display_name
from . import render
from .common import SOLO, host, put
from .widgets import HandView, PileView, ScoreSheet, TableView, palette_name

__all__ = ["TableScreen"]


def show_log_now(log: RichLog) -> bool:
    """Whether the log is meant to be shown (it is hidden while a hand's result takes its place;
    the class ``squeezed`` hides it only for want of room)."""
    return log.styles.inline.display != "none"


class TableScreen(Screen[None]):
    """The table: the hand, the piles, the opponents, the score sheet, the fairness commitments."""

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
        self._result_shown: tuple[int, bool] | None = None
        self._scroll_tries = 0  # looks left to bring a hand's result into view
        self._fit_tries = 0  # looks left to fit the log to the rows the table leaves free
        self._sheet_key: tuple[Any, ...] = ()
        self.analysis_lines: list[str] = []
        self.recent: list[str] = []  # the computers' moves since the person's last one

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
                    yield Button(_("Draw (s)"), id="act-draw", compact=True)
                    yield Button(_("Take (t)"), id="act-take", compact=True)
                    yield Button(_("Pass (p)"), id="act-pass", compact=True)
                    yield Button(_("Discard (d)"), id="act-discard", compact=True)
                    yield Button(_("Knock (k)"), id="act-knock", variant="warning", compact=True)
                    yield Button(_("Gin (g)"), id="act-gin", variant="success", compact=True)
                    yield Button(_("Big gin (b)"), id="act-big", variant="success", compact=True)
                    yield Button(_("Deal (n)"), id="act-deal", variant="primary", compact=True)
                    yield Button(_("Lay off (l)"), id="act-layoff", compact=True)
                    yield Button(_("Hint (h)"), id="act-hint", compact=True)
                    yield Button(_("Undo (u)"), id="act-undo", compact=True)
                yield Static("", id="result")
            yield ScoreSheet(id="scores")
        yield Footer()

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
        app = host(self)
        return palette_name(app.four_colour, app.high_contrast)

    def obs(self) -> Observation:
        """What the person's seat sees.  Between hands it commits to the next deal, which is saved
        at once; if that save fails the game is as it was saved, and the commitment waits."""
        try:
            obs = self.session.observation(self.viewer)
        except GinRummyError as exc:  # the save of the next deal's commitment failed
            self.save_failed(exc)
            obs = self.session.state.observation(self.viewer)
            obs["seat_kinds"] = list(self.session.seats)
        obs["players"] = self.session.names  # names safe to print
        return obs

    def save_failed(self, exc: GinRummyError) -> None:
        """Say once, in one line, that the game could not be saved (it is as it was saved)."""
        self.message = str(exc)
        self.notify(str(exc), title=_("Not saved"), severity="error", timeout=10, markup=False)

    def takeback_seat(self) -> int | None:
        """The person's seat when a takeback is possible now (shown as the Undo button)."""
        s = self.session
        seat = next((i for i, k in enumerate(s.seats) if k == HUMAN), None)
        return seat if seat is not None and s.takeback_refusal(seat) is None else None

    def layoff_cards(self) -> list[str]:
        """The cards the person defending a knock may lay off now (choosing the layoffs)."""
        s = self.session
        seat = s.defender()
        return [str(c) for c in s.layoff_options(seat)] if seat is not None else []

    def legal(self) -> list[str]:
        s = self.session
        return [str(a) for a in s.state.legal_actions()] if s.human_to_act() is not None else []

    # -- drawing ------------------------------------------------------------------------------------
    def update_view(self) -> None:
        app = host(self)
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
        self.order = render.sorted_hand(obs, self.sort_mode, self.group_melds)
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
        put(self.query_one("#melds", Static), render.melds_text(obs, self.legal(), self.selected, self.palette))
        put(self.query_one("#fair", Static), render.fairness_text(obs, short=self.has_class("short")))
        status = render.status_text(
            obs, s, self.legal(), message=self.message, recent=self.recent, short=self.has_class("short")
        )
        put(self.query_one("#status", Static), status)
        self._show_captain(obs)
        self._show_buttons(obs)
        self._show_result(obs)
        sheet_key = (len(s.state.results), s.state.hand_number, s.state.is_terminal, s.takebacks)
        if sheet_key != self._sheet_key:
            self._sheet_key = sheet_key
            self.query_one(ScoreSheet).show(obs, record_summary(s.state), s.takebacks)
        shown_totals = obs.get("final_totals", obs["totals"]) if obs.get("game_over") else obs["totals"]
        self.sub_title = (
            _("hand {number}").format(number=obs["hand_number"])
            + " · "
            + " – ".join(f"{display_name(p)} {t}" for p, t in zip(players, shown_totals, strict=True))
        )
        if v in SOLO:
            self.query_one("#piles").set_class(True, "solo")
        # The footer lists the general keys only: rebuilding it after every move is slow, and the
        # action buttons above already show exactly the legal moves (a key that cannot act now says why).

    def _show_info(self, obs: Observation) -> None:
        put(self.query_one("#info", Static), render.info_line(obs))

    def _show_piles(self, obs: Observation) -> None:
        large = host(self).large
        stock = self.query_one("#stock", PileView)
        discard = self.query_one("#discard", PileView)
        solo = obs["variant"] in SOLO
        if solo:
            stock.show(pgettext("pile", "deck"), None, obs.get("deck_size", 0), large=large)
            discard.display = False
        else:
            discard.display = True
            pile = obs.get("discard_pile") or []
            stock.show(pgettext("pile", "stock"), None, obs.get("stock_size", 0), large=large)
            title = pgettext("pile", "upcard") if obs.get("phase") == "upcard" else pgettext("pile", "discard")
            discard.show(title, pile[-1] if pile else None, len(pile), large=large)
        one_new = len(self.new_cards) == 1 and not self.session.state.is_hand_over
        drawn = next(iter(self.new_cards)) if one_new else None
        put(self.query_one("#opponents", Static), render.piles_text(obs, self.palette, drawn=drawn))

    def _show_captain(self, obs: Observation) -> None:
        w = self.query_one("#captain", Static)
        t = render.captain_text(obs, self.session, self.palette)
        put(w, t)
        w.display = bool(t.plain)

    def _show_buttons(self, obs: Observation) -> None:
        show, labels = render.buttons(
            obs,
            self.session,
            self.legal(),
            self.selected,
            undo=self.takeback_seat() is not None,
            layoffs=self.layoff_cards(),
        )
        for name, visible in show.items():
            b = self.query_one(f"#act-{name}", Button)
            if b.display != visible:
                b.display = visible
            label = labels.get(name)
            if visible and label is not None and str(b.label) != label:
                b.label = label

    def _show_result(self, obs: Observation) -> None:
        w = self.query_one("#result", Static)
        log = self.query_one("#log", RichLog)
        over = bool(obs.get("result")) and self.session.state.is_hand_over
        show_log = not over  # the hand's explanation takes the log's place
        if log.display != show_log:
            log.display = show_log
        if show_log and self.has_class("short"):
            self._fit_tries = 4
            self.call_after_refresh(self._fit_log)
        if not over:
            w.display = False
            return
        put(w, render.result_text(obs, self.session, self.palette, self.analysis_lines, self.layoff_cards()))
        w.display = True
        shown = (obs["hand_number"], self.session.state.is_terminal)
        if shown != self._result_shown:  # a hand just ended: bring its scoring into view
            self._result_shown = shown
            self._scroll_tries = 4
            self.call_after_refresh(self._scroll_to_result)

    def _scroll_to_result(self) -> None:
        """Scroll the table to the hand's result, again after the next refresh while the table's
        layout still moves it out of view (the log folding away, the captain's box appearing): at
        80x24 the last scoring line must end in view, not one row short of it."""
        w = self.query_one("#result", Static)
        table = self.query_one("#table")
        if not w.display or self._scroll_tries <= 0:
            return
        self._scroll_tries -= 1
        if w.region.height and table.region.contains_region(w.region):
            return
        w.scroll_visible(animate=False, immediate=True)
        self.call_after_refresh(self._scroll_to_result)

    def _fit_log(self) -> None:
        """On a small terminal the log takes the rows the table leaves free (at most six, none
        when fewer than three are free): the hand and the buttons are never pushed below the fold
        by it, and the cut and the computers' moves stay in view when there is room."""
        table = self.query_one("#table")
        log = self.query_one("#log", RichLog)
        if not self.has_class("short") or not show_log_now(log) or not table.size.height:
            return
        used = 0
        for child in table.children:
            if child is log or not child.display:
                continue
            margin = child.styles.margin
            used += child.outer_size.height + margin.top + margin.bottom
        room = min(6, table.scrollable_content_region.height - used)
        fits = room >= 3
        changed = False
        if log.has_class("squeezed") == fits:
            log.set_class(not fits, "squeezed")
            changed = True
        if fits and (log.styles.height is None or log.styles.height.value != room):
            log.styles.height = room
            changed = True
        # The other rows' heights may not have been laid out yet when this ran (a line that wraps
        # once its text is in): look again after the next refresh until nothing changes, else the
        # log keeps rows the table no longer has and the hand scrolls (it depended on timing).
        self._fit_tries -= 1
        if changed and self._fit_tries > 0:
            self.call_after_refresh(self._fit_log)

    def refresh_display(self) -> None:
        self.update_view()

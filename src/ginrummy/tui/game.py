"""The game screen: the table, the hand, the piles, the score sheet; keys and buttons play through
the :class:`~ginrummy.session.Session` (the texts are built in :mod:`ginrummy.tui.render`)."""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, RichLog, Static

from ..actions import Action
from ..errors import GinRummyError, StoreError
from ..finish import file_finished_game, solitaire_analysis
from ..i18n import N_, _, pgettext
from ..record import summary as record_summary
from ..session import HUMAN, ComputerPlayerError, Session, viewer_seat
from ..words import cannot_line, display_name, result_name
from . import render
from .common import SOLO, host, put, speak_keys
from .dialogs import HelpScreen
from .widgets import KEY_LABELS, HandView, PileView, ScoreSheet, TableView, palette_name

__all__ = ["GameScreen"]


class GameScreen(Screen[None]):
    """The table: the hand, the piles, the opponents, the score sheet, the fairness commitments."""

    # The keys' names in English (N_): each screen shows them in the current language (speak_keys).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "play('draw')", N_("Draw"), show=False),
        Binding("t", "play('take')", N_("Take"), show=False),
        Binding("p", "play('pass')", N_("Pass"), show=False),
        Binding("d", "play('discard')", N_("Discard"), show=False),
        Binding("k", "play('knock')", N_("Knock"), show=False),
        Binding("g", "play('gin')", N_("Gin"), show=False),
        Binding("b", "play('big')", N_("Big gin"), show=False),
        Binding("n", "next_hand", N_("Deal"), show=False),
        Binding("h", "hint", N_("Hint")),
        Binding("o", "sort", N_("Sort")),
        Binding("m", "group", N_("Group melds"), show=False),
        Binding("c", "scores", N_("Scores")),
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("f", "app.toggle_display('four_colour')", "4 colours", show=False),
        Binding("z", "app.toggle_display('large')", N_("Large"), show=False),
        Binding("x", "app.toggle_display('high_contrast')", N_("Contrast"), show=False),
        Binding("question_mark", "help", N_("Keys")),
        Binding("escape", "leave", N_("Menu")),
        Binding("q", "app.quit", N_("Quit")),
        *[Binding(k if k != "-" else "minus", f"select({i})", show=False) for i, k in enumerate(KEY_LABELS)],
    ]

    def __init__(self, session: Session, game_id: str) -> None:
        super().__init__()
        speak_keys(self)
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
        store = host(self).store
        if store is not None:

            def save(s: Session) -> None:
                try:
                    if s.watched and s.state.is_terminal:  # saving would file it as the person's game
                        store.delete_game(game_id)
                    else:
                        store.save_game(game_id, s)
                except StoreError as exc:
                    self.notify(_("Could not save: {error}").format(error=exc), severity="error", markup=False)

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
                    yield Button(_("Draw (s)"), id="act-draw", compact=True)
                    yield Button(_("Take (t)"), id="act-take", compact=True)
                    yield Button(_("Pass (p)"), id="act-pass", compact=True)
                    yield Button(_("Discard (d)"), id="act-discard", compact=True)
                    yield Button(_("Knock (k)"), id="act-knock", variant="warning", compact=True)
                    yield Button(_("Gin (g)"), id="act-gin", variant="success", compact=True)
                    yield Button(_("Big gin (b)"), id="act-big", variant="success", compact=True)
                    yield Button(_("Deal (n)"), id="act-deal", variant="primary", compact=True)
                    yield Button(_("Hint (h)"), id="act-hint", compact=True)
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
            log.write(_("Resumed: hand {number}, exactly where it was left.").format(number=s.state.hand_number))
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
        app = host(self)
        return palette_name(app.four_colour, app.high_contrast)

    def obs(self) -> dict[str, Any]:
        obs = self.session.observation(self.viewer)
        obs["players"] = self.session.names  # names safe to print
        return obs

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
        if s.state.needs_deal:
            self._save_commitment()
        sheet_key = (len(s.state.results), s.state.hand_number, s.state.is_terminal)
        if sheet_key != self._sheet_key:
            self._sheet_key = sheet_key
            self.query_one(ScoreSheet).show(obs, record_summary(s.state))
        self.sub_title = (
            _("hand {number}").format(number=obs["hand_number"])
            + " · "
            + " – ".join(f"{display_name(p)} {t}" for p, t in zip(players, obs["totals"], strict=True))
        )
        if v in SOLO:
            self.query_one("#piles").set_class(True, "solo")
        # The footer lists the general keys only: rebuilding it after every move is slow, and the
        # action buttons above already show exactly the legal moves (a key that cannot act now says why).

    def _save_commitment(self) -> None:
        """The next deal's commitment is on screen: save it with the game, so that a resumed game
        deals from the very seed that was committed to."""
        store = host(self).store
        pending = self.session.to_json()["pending"]
        if store is not None and pending is not None and pending != self._saved_pending:
            self._saved_pending = pending
            try:
                store.save_game(self.game_id, self.session)
            except StoreError as exc:
                self.notify(_("Could not save: {error}").format(error=exc), severity="error", markup=False)

    def _show_info(self, obs: dict[str, Any]) -> None:
        put(self.query_one("#info", Static), render.info_line(obs))

    def _show_piles(self, obs: dict[str, Any]) -> None:
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

    def _show_captain(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#captain", Static)
        t = render.captain_text(obs, self.session, self.palette)
        put(w, t)
        w.display = bool(t.plain)

    def _show_buttons(self, obs: dict[str, Any]) -> None:
        show, labels = render.buttons(obs, self.session, self.legal(), self.selected)
        for name, visible in show.items():
            b = self.query_one(f"#act-{name}", Button)
            if b.display != visible:
                b.display = visible
            label = labels.get(name)
            if visible and label is not None and str(b.label) != label:
                b.label = label

    def _show_result(self, obs: dict[str, Any]) -> None:
        w = self.query_one("#result", Static)
        log = self.query_one("#log", RichLog)
        over = bool(obs.get("result")) and self.session.state.is_hand_over
        show_log = not over and not self.has_class("short")  # the hand's explanation takes the log's place
        if log.display != show_log:
            log.display = show_log
        if not over:
            w.display = False
            return
        put(w, render.result_text(obs, self.session, self.palette, self.analysis_lines))
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
                store = host(self).store
                log = self.query_one("#log", RichLog)
                if s.watched:  # the computer's game, not the person's: kept out of their history
                    if store is not None:
                        with contextlib.suppress(StoreError):
                            store.delete_game(self.game_id)
                    log.write(_("The game is over. You watched it: it is not filed in your history."))
                else:
                    file_finished_game(store, self.game_id, s, analyse=False)
                    log.write(_("The game is over and filed in your history."))
                if s.state.variant in SOLO and host(self).analyse and not s.watched:
                    self.message = _("Analysing your play against the planner…")
                    self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")
                self.update_view()
            return
        if self._timer is not None:
            return
        if s.to_act is not None and s.human_to_act() is None:
            delay = host(self).computer_delay
            self._timer = self.set_timer(max(delay, 0.001), self._computer_move)

    def _analyse(self) -> None:
        """In a worker thread: the solitaire post-game analysis, then file it with the game."""
        analysis = solitaire_analysis(self.session)
        store = host(self).store
        if analysis is not None and store is not None:
            with contextlib.suppress(StoreError):
                store.finish_game(self.game_id, self.session, analysis)
        self.app.call_from_thread(self._analysis_done, analysis)

    def _analysis_done(self, analysis: dict[str, Any] | None) -> None:
        if not self.is_attached:
            return  # the person left the table meanwhile; the analysis is filed all the same
        if analysis is None:
            self.message = _("(No analysis available.)")
        else:
            acc = analysis.get("accuracy")
            self.message = (
                _("Your accuracy this game: {accuracy}.").format(accuracy=f"{float(acc):.0%}")
                if acc is not None
                else ""
            )
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
                log.write(_("{move}.").format(move=words))
                self.recent.append(words)
                if host(self).computer_delay > 0 or s.state.is_hand_over:
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
                self.query_one("#log", RichLog).write(
                    _("Hand {number} is over: {result}.").format(number=hand_before, result=result_name(res.result))
                )
        self.update_view()
        self.schedule()

    def human(self, action: Action | str) -> bool:
        s = self.session
        seat = s.human_to_act()
        if seat is None:
            self.notify(_("It is not your turn."), severity="warning")
            return False
        hand_before = s.state.hand_number
        try:
            event = s.act(seat, action)
        except GinRummyError as exc:
            self.notify(str(exc), title=_("Not allowed"), severity="error", markup=False)
            return False
        self.message = ""
        self.hinted = None
        self.recent = []
        self.query_one("#log", RichLog).write(
            _("{move}.").format(move=s.move_text(event, self.log_viewer if self.shared else seat))
        )
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
                self.notify(_("Select a card first: 1-9, 0, - or the arrows, or click it."), severity="warning")
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
                msg = (
                    _("To knock, select one of {cards} first.")
                    if what == "knock"
                    else _("To go gin, select one of {cards} first.")
                )
                self.notify(msg.format(cards=", ".join(options)), severity="warning", markup=False)
            else:
                obs = self.obs()
                msg = (
                    _("You cannot knock now (knock limit {limit}, deadwood {deadwood}).")
                    if what == "knock"
                    else _("You cannot go gin now (knock limit {limit}, deadwood {deadwood}).")
                )
                self.notify(msg.format(limit=obs.get("knock_limit"), deadwood=obs.get("deadwood")), severity="warning")

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
        self.query_one("#log", RichLog).write(
            _("— Hand {number} dealt (committed {commitment}…) —").format(number=n, commitment=str(commit)[:16])
        )
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
        host(self).open_game(session, replace=True)

    def action_hint(self) -> None:
        s = self.session
        seat = self.viewer
        if not self.legal():
            self.cannot("hint")
            return
        try:
            advice = s.hint(seat)
        except ImportError:
            self.notify(_("Hints are not available in this installation."), severity="warning")
            return
        except Exception as exc:  # a hint is a courtesy: never stop the game for it
            self.notify(_("No hint: {error}").format(error=exc), severity="warning", markup=False)
            return
        best = advice.best
        why = getattr(advice, "why", None)
        ranked = getattr(advice, "ranked", None) or []
        text = _("Hint: {move} — {why}").format(move=best, why=why) if why else _("Hint: {move}").format(move=best)
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
        by_rank = self.sort_mode == "rank"
        self.notify(_("Hand sorted by rank.") if by_rank else _("Hand sorted by suit."), timeout=2, markup=False)
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
        store = host(self).store
        if store is not None:
            store.release_game(self.game_id)  # saved and closed here: it may be opened elsewhere now
        host(self).leave_game()

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

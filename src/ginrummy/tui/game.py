"""The game screen: playing on the table (:class:`~ginrummy.tui.table.TableScreen` draws it): keys
and buttons act through the :class:`~ginrummy.session.Session`, computer players move on a timer,
finished games are filed.  A failed save changes nothing: the game goes back to its last save and
one line says why."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Button, RichLog
from textual.worker import Worker

from ..actions import Action
from ..errors import GinRummyError, StoreError
from ..finish import analysis_lines, file_finished_game, solitaire_analysis
from ..i18n import N_, _
from ..session import ComputerPlayerError, Session
from ..words import cannot_line, cut_lines, move_name, reason_text, result_name, takeback_line, variant_title
from .choose import SpreadScreen
from .common import SOLO, host, speak_keys
from .dialogs import DiscardsScreen, HelpScreen, RulesScreen
from .table import TableScreen
from .widgets import KEY_LABELS, HandView, PileView

__all__ = ["GameScreen"]


class GameScreen(TableScreen):
    """The table, played: the keys, the buttons, the computer players' moves and saving."""

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
        Binding("l", "layoff", N_("Lay off"), show=False),
        Binding("u", "undo", N_("Undo"), show=False),
        Binding("h", "hint", N_("Hint")),
        Binding("o", "sort", N_("Sort")),
        Binding("m", "group", N_("Group melds"), show=False),
        Binding("c", "scores", N_("Scores")),
        Binding("v", "discards", N_("Discards")),
        Binding("r", "rules", N_("Rules"), show=False),
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
        super().__init__(session, game_id)
        speak_keys(self)
        self._timer: Worker[None] | None = None  # a computer's move on its way (cancelled by undo, leave)
        self._filed = False
        store = host(self).store
        if store is not None:
            last = session.to_json()

            def save(s: Session) -> None:
                """Save after every change, all or nothing: when a save fails the session goes back
                to its last save and the StoreError reaches the action (which says so in one line)."""
                nonlocal last
                now = s.to_json()
                try:
                    if s.watched and s.state.is_terminal:  # the computer's game: never filed as the person's
                        store.delete_game(game_id)
                    else:
                        store.save_game(game_id, s)
                except StoreError as exc:
                    s.restore(last)
                    raise StoreError(
                        _("The game could not be saved ({error}); nothing changed.").format(error=exc)
                    ) from exc
                last = now

            session.on_change = save

    def on_mount(self) -> None:
        s = self.session
        # the short title, in the reader's words: the header keeps room for three players' totals at 80 columns
        self.title = variant_title(s.state.variant, short=True)
        for button in self.query("#actions Button"):
            button.can_focus = False  # keys drive play; focus moving off hidden buttons would churn the footer
        log = self.query_one("#log", RichLog)
        if s.state.logs:
            log.write(_("Resumed: hand {number}, exactly where it was left.").format(number=s.state.hand_number))
        elif s.first_cut is not None:
            for line in cut_lines(s.names, s.first_cut, self.log_viewer):
                log.write(line)
        self.update_view()
        self.schedule()

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
                    try:
                        file_finished_game(store, self.game_id, s, analyse=False)
                        log.write(_("The game is over and filed in your history."))
                    except StoreError as exc:
                        self.save_failed(exc)
                if s.state.variant in SOLO and host(self).analyse and not s.watched:
                    self.message = _("Analysing your play against the planner…")
                    self.run_worker(self._analyse, thread=True, exclusive=True, group="analysis")
                self.update_view()
            return
        if self._timer is not None:
            return
        if s.to_act is not None and s.human_to_act() is None:
            # Not set_timer: a Textual one-shot timer whose thread is preempted for longer than its
            # delay just as it starts skips its only tick, so on a loaded machine the computer never moved.
            self._timer = self.run_worker(self._move_after(host(self).computer_delay), group="computer")

    async def _move_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        self._computer_move()

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
            self.analysis_lines = analysis_lines(analysis)  # worded here, in the app's language
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
        except GinRummyError as exc:  # its move could not be saved: the game is back at its last save
            self.save_failed(exc)
            self.update_view()
            return  # not rescheduled: a full disk would fail again at once
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
        except StoreError as exc:
            self.save_failed(exc)
            self.update_view()
            return False
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
                self.knock_or_gin(f"{what} {sel}")
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

    def knock_or_gin(self, action: str) -> None:
        """Knock or go gin; with ``knocker_arrangement=choose`` and more than one way to spread, the
        person chooses the melds first (Esc: nothing is played)."""
        s = self.session
        seat = s.human_to_act()
        choices = s.spread_choices(seat, action) if seat is not None else []
        if not choices:
            self.human(action)
            return

        def chosen(index: int | None) -> None:
            if index is None:
                self.notify(_("Nothing was played."), timeout=3)
                return
            melds = choices[index].melds
            self.human(Action(Action.parse(action).kind, Action.parse(action).card, tuple(melds)))

        self.app.push_screen(SpreadScreen(action, choices, self.palette), chosen)

    def action_undo(self) -> None:
        """Take back the person's last move against the computer (the game is marked for it)."""
        s = self.session
        seat = self.takeback_seat()
        if seat is None:
            person = next((i for i, k in enumerate(s.seats) if k == "human"), None)
            why = s.takeback_refusal(person) if person is not None else _("only a person's moves can be taken back")
            self.notify(
                _("You cannot take back now: {why}.").format(why=why), severity="warning", timeout=4, markup=False
            )
            return
        if self._timer is not None:  # a computer's move was about to come: it is taken back too
            self._timer.cancel()
            self._timer = None
        try:
            undone = s.take_back(seat)
        except GinRummyError as exc:
            self.save_failed(exc)
            self.update_view()
            self.schedule()
            return
        self.message = takeback_line(len(undone), s.takebacks)
        self.hinted = None
        self.recent = []
        self._result_shown = None
        self.query_one("#log", RichLog).write(f"— {self.message} —")
        self.update_view()
        self.schedule()

    def action_layoff(self) -> None:
        """The person defending a knock lays off the selected card (choosing the layoffs)."""
        s = self.session
        cards = self.layoff_cards()
        seat = s.defender()
        if not cards or seat is None:
            self.notify(
                _("You cannot lay off now: layoffs come after the other side knocks, from the defender."),
                severity="warning",
                timeout=4,
            )
            return
        if self.selected not in cards:
            msg = _("Select a card to lay off first: one of {cards}.").format(cards=", ".join(cards))
            self.notify(msg, severity="warning", markup=False)
            return
        try:
            event = s.act(seat, f"layoff {self.selected}")
        except StoreError as exc:
            self.save_failed(exc)
            self.update_view()
            return
        except GinRummyError as exc:
            self.notify(str(exc), title=_("Not allowed"), severity="error", markup=False)
            return
        self.message = ""
        self.query_one("#log", RichLog).write(_("{move}.").format(move=s.move_text(event, seat)))
        self.update_view()

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
        try:
            commit = s.commitment_for_next_deal()
            s.start_hand()
        except StoreError as exc:
            self.save_failed(exc)
            self.update_view()
            return
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
        session.cut_for_first_deal()  # a new game cuts again for the first deal
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
        why = reason_text(getattr(advice, "why", None))
        ranked = getattr(advice, "ranked", None) or []
        named = move_name(best)
        text = _("Hint: {move} — {why}").format(move=named, why=why) if why else _("Hint: {move}").format(move=named)
        if ranked:  # the moves named as a reason names them (Discard 7h), in the reader's words
            text += "  (" + " · ".join(f"{move_name(a)} {v:+.1f}" for a, v in ranked[:3]) + ")"
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
        """Show or hide the score sheet: beside the table on a wide terminal; on a narrow one it
        takes the table's place (beside it, the table would be squeezed to 44 columns) until c again."""
        if self.query_one("#scores").has_class("narrow"):
            self.set_class(not self.has_class("-sheet"), "-sheet")
            return
        sheet = self.query_one("#scores")
        sheet.display = not sheet.display

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.obs()["variant"]))

    def action_discards(self) -> None:
        """The discard history: the pile oldest first (the solitaires: their discards)."""
        obs = self.obs()
        cards = obs.get("discards") if obs["variant"] in SOLO else obs.get("discard_pile")
        self.app.push_screen(DiscardsScreen([str(c) for c in cards or []], self.palette))

    def action_leave(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.session.on_change = None
        store = host(self).store
        if store is not None:
            with contextlib.suppress(StoreError):  # a failed release frees itself when this program ends
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
        elif bid == "layoff":
            self.action_layoff()
        elif bid == "undo":
            self.action_undo()

"""The play at the browser's tables: a person's action, the deal, hints, the sitter's
suggestions, the computer players' moves and a finished solitaire's analysis.  Every rule is the
session's (:class:`ginrummy.session.Session`); this module only orders the steps, holds each
table's lock, saves and tells every seat."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from ..actions import Action
from ..agents import reasons
from ..errors import GinRummyError, IllegalAction, StoreError
from ..i18n import N_, _, ngettext
from ..store import Store
from ..variants import solo_variants
from ..words import display_names
from .protocol import ProtocolError
from .replay import replay_frames
from .saver import Saver
from .seatbook import SeatBook
from .table import Client, Table
from .thinker import Thinker, advice_words, hint_inputs

__all__ = ["TablePlay"]

log = logging.getLogger("ginrummy.web")
SOLO = solo_variants()
# a card the seat does not hold, named in an action: the card is not echoed (the session's own
# refusal would name it)
_ONLY_YOUR_CARDS = {
    "discard": N_("you can only discard a card you hold"),
    "knock": N_("you can only knock with a card you hold"),
    "gin": N_("you can only go gin with a card you hold"),
    "layoff": N_("you can only lay off a card you hold"),
}
_ONLY_HELD = N_("you can only play a card you hold")


class TablePlay:
    """Plays the tables it is given: checks and applies the people's actions, deals, gives hints
    and suggestions, moves the computer players (one every ``computer_delay`` seconds) and
    analyses finished solitaires.  :class:`~ginrummy.web.tables.TableManager` adds who sits where."""

    def __init__(self, store: Store, *, computer_delay: float = 0.6, workers: int = 0) -> None:
        self.store = store
        self.book = SeatBook(store.data_dir)  # who is ready for the next deal survives a restart
        self.computer_delay = computer_delay
        self.saver = Saver(store)
        self.thinker = Thinker(workers)

    # -- playing ----------------------------------------------------------------------------------
    async def act(self, table: Table, seat: int, text: str, conn: Client, seq: int | None) -> None:
        async with table.lock:
            s = table.session
            try:
                action = Action.parse(text)
            except GinRummyError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            if s.state.game_over:
                raise ProtocolError("game_over", _("the game is over"))
            if action.kind != "layoff":  # a layoff is the defender's, after the knock (the session checks it)
                if s.state.needs_deal:
                    raise ProtocolError("not_your_turn", _("the hand is over: press Deal for the next one"))
                if s.to_act != seat:
                    raise ProtocolError("not_your_turn", _("it is not your turn"))
            if not s.is_human(seat):
                raise ProtocolError("not_your_turn", _("a computer player plays this seat: you are watching"))
            if action.card is not None and action.card not in s.state.hand(seat):
                # the session's refusal would name the card: a card the seat does not hold is not echoed
                raise ProtocolError("illegal_action", _(_ONLY_YOUR_CARDS.get(action.kind, _ONLY_HELD)))
            try:  # the session checks the action (the engine's rules, rule 0.7's knock with no deadwood...)
                s.act(seat, action)
            except IllegalAction as exc:
                raise ProtocolError("illegal_action", str(exc)) from None
            table.suggestion = None
            self._changed(table, conn, seq)
            self._maybe_analyse(table)

    async def undo(self, table: Table, seat: int, conn: Client, seq: int | None) -> None:
        """Against the computer: take back ``seat``'s last decision of the hand, with the computer
        moves after it (:meth:`Session.undo`; the game is marked as played with takebacks)."""
        async with table.lock:
            if table.kind != "solo":
                raise ProtocolError("not_allowed", _("undo is for games against the computer, never at a table"))
            try:
                table.session.undo(seat)
            except IllegalAction as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
            table.suggestion = None
            self._changed(table, conn, seq, urgent=True)

    async def replay(self, table: Table) -> dict[str, Any]:
        """The finished game of ``table`` step by step (:func:`~ginrummy.web.replay.replay_frames`):
        once the game is over every seed is revealed, so every position may be shown."""
        async with table.lock:
            st = table.session.state
            if not st.game_over:
                raise ProtocolError("not_allowed", _("the replay is for a finished game"))
            record = st.to_record()
        frames = await asyncio.to_thread(replay_frames, record)
        frames["players"] = display_names(frames["players"])  # in the asking connection's language
        return {"type": "replay", "game": table.game_id, **frames}

    async def arrangements(self, table: Table, seat: int, text: str) -> dict[str, Any]:
        """Rule 0.8 (``knocker_arrangement=choose``): the melds ``seat`` may spread with the knock
        or gin ``text``, each as the action that declares them (least deadwood first)."""
        async with table.lock:
            s = table.session
            try:
                action = Action.parse(text)
            except GinRummyError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            if not s.is_human(seat):
                raise ProtocolError("not_your_turn", _("a computer player plays this seat: you are watching"))
            try:
                found = s.arrangements(seat, action)
            except IllegalAction as exc:
                raise ProtocolError("illegal_action", str(exc)) from None
        return {
            "type": "arrangements",
            "action": str(action),
            "choices": [{"action": str(Action(action.kind, action.card, a.melds)), **a.to_json()} for a in found[:40]],
        }

    async def deal(self, table: Table, seat: int, conn: Client, seq: int | None) -> None:
        """``seat`` is ready for the next hand; deal it once every person is ready."""
        async with table.lock:
            s = table.session
            if s.state.game_over:
                raise ProtocolError("game_over", _("the game is over"))
            if not s.state.needs_deal:
                raise ProtocolError("not_allowed", _("the hand in play is not over"))
            if table.open_seats():
                n = len(table.open_seats())
                raise ProtocolError(
                    "waiting",
                    ngettext(
                        "waiting for {n} more person: share the invitation links",
                        "waiting for {n} more people: share the invitation links",
                        n,
                    ).format(n=n),
                )
            table.ready.add(seat)
            if not self._maybe_deal(table):
                self.book.set_ready(table.game_id, table.ready)  # who is ready survives a restart
            self._maybe_analyse(table)
            self._changed(table, conn, seq, urgent=True)

    # -- the solitaires' analysis -----------------------------------------------------------------
    def _maybe_analyse(self, table: Table) -> None:
        """A solitaire just finished: analyse it (as the terminal app does) and file the analysis
        with the game, so that browser games get an accuracy figure too (call with the lock held)."""
        st = table.session.state
        if (
            st.game_over
            and st.variant in SOLO
            and not table.session.watched
            and table.analysis is None
            and table.analysing is None
        ):
            table.analysing = asyncio.create_task(self._analyse(table))

    async def _analyse(self, table: Table) -> None:
        session = table.session  # over: it changes no more
        try:
            analysis = await self.thinker.analyse(session)
        except Exception:  # the analysis never loses the game
            log.exception("the analysis of game %s failed", table.game_id)
            analysis = None
        analysis = analysis or {
            "error": "no analysis",
            "summary": [reasons.to_json(reasons.N_("(No analysis of this game.)"))],  # worded per reader
        }
        await self.saver.flush()  # the game is filed first (without analysis)...
        if analysis.get("accuracy") is not None:
            try:  # ...then with it
                await asyncio.to_thread(self.store.finish_game, table.game_id, session, analysis)
            except (StoreError, OSError) as exc:
                log.error("could not file the analysis of game %s: %s", table.game_id, exc)
        async with table.lock:
            table.analysis = analysis
            table.broadcast()

    def _maybe_deal(self, table: Table) -> bool:
        """Deal the next hand if every person is ready (call with the lock held)."""
        s = table.session
        if not s.state.needs_deal or s.state.game_over or table.open_seats():
            return False
        if not set(table.person_seats()) <= table.ready:
            return False
        table.ready.clear()
        self.book.set_ready(table.game_id, table.ready)
        table.suggestion = None
        table.failure = None
        s.start_hand()
        return True

    async def hint(self, table: Table, seat: int) -> dict[str, Any]:
        async with table.lock:
            if not table.hints:
                raise ProtocolError("not_allowed", _("hints are turned off at this table"))
            try:
                inputs = hint_inputs(table.session, seat)
                actor = table.session.advised_seat(seat)
            except IllegalAction as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
            players = list(table.session.state.players)
        try:
            advice = await self.thinker.advise(*inputs)
        except ImportError:
            raise ProtocolError("not_available", _("hints are not available in this installation")) from None
        except ValueError as exc:  # the advisor has nothing to advise on
            raise ProtocolError("not_allowed", _("no hint: {reason}").format(reason=exc)) from None
        return advice_words(advice, players, actor, seat, inputs[0])

    async def suggest(
        self, table: Table, seat: int, text: str, note: str | None, conn: Client, seq: int | None = None
    ) -> None:
        """Three: the sitter suggests an action to the captain, who alone decides (rule 2.2)."""
        async with table.lock:
            roles = table.session.roles()
            st = table.session.state
            if roles is None or st.is_hand_over:
                raise ProtocolError(
                    "not_allowed", _("suggestions are for the sitter in three-player gin, during a hand")
                )
            if seat != roles.sitter:
                raise ProtocolError("not_allowed", _("only the sitter makes suggestions; the captain decides"))
            if st.current_player != roles.captain:
                raise ProtocolError("not_allowed", _("the captain is not to act"))
            try:
                action = str(Action.parse(text))
            except GinRummyError as exc:
                raise ProtocolError("bad_action", str(exc)) from None
            legal = {str(a) for a in st.legal_actions()}
            if action not in legal:
                raise ProtocolError(
                    "illegal_action", _("{action} is not legal for the captain now").format(action=action)
                )
            table.suggestion = {"from": seat, "action": action, "text": note or ""}
            table.broadcast(conn, seq)

    def _changed(
        self, table: Table, acting: Client | None = None, seq: int | None = None, urgent: bool = False
    ) -> None:
        table.last_seen = time.monotonic()
        self.saver.mark(table, urgent=urgent or table.session.state.is_hand_over)
        table.broadcast(acting, seq)
        self._kick(table)

    # -- computer players -------------------------------------------------------------------------
    def _kick(self, table: Table) -> None:
        """Start the table's computer driver if a computer is to act (call with the lock held)."""
        if table.driver is None and (table.computer_to_act() or self._wants_auto_suggestion(table)):
            table.driver = asyncio.create_task(self._drive(table))

    def _wants_auto_suggestion(self, table: Table) -> bool:
        """Three: a computer sitter suggests once per position when a person captains (and hints are on)."""
        roles = table.session.roles()
        if roles is None or table.suggestion is not None or table.session.state.is_hand_over:
            return False
        s = table.session
        sitter, captain = roles.sitter, roles.captain
        if not (s.to_act == captain and s.is_human(captain) and not s.is_human(sitter) and table.hints):
            return False
        return table.suggested_at != _position(table)

    async def _drive(self, table: Table) -> None:
        """Let the computer seats play, one action every ``computer_delay`` seconds; a computer
        sitter's suggestion is worked out without holding the table up."""
        try:
            while True:
                if self.computer_delay:
                    await asyncio.sleep(self.computer_delay)
                async with table.lock:
                    s = table.session
                    if table.computer_to_act():
                        try:
                            await self.thinker.computer_step(s)
                        except Exception:  # an agent's bug must not take the server down
                            log.exception("computer player failed in game %s", table.game_id)
                            seat = s.to_act
                            name = s.state.players[seat] if seat is not None else "?"
                            # the agent's own error may list its hand: the table is told only who failed
                            # (worded for each viewer in its language: Table.public)
                            table.failure = name
                            table.broadcast()
                            table.driver = None
                            return
                        table.suggestion = None
                        table.last_seen = time.monotonic()
                        self.saver.mark(table, urgent=s.state.is_hand_over)
                        table.broadcast()
                        continue
                    inputs = None
                    if self._wants_auto_suggestion(table):
                        roles = table.session.roles()
                        assert roles is not None
                        sitter, position = roles.sitter, _position(table)
                        table.suggested_at = position  # once per position, even if the advisor fails
                        with contextlib.suppress(GinRummyError):
                            inputs = hint_inputs(s, sitter)
                    if inputs is None:
                        table.driver = None
                        return
                advice = None
                with contextlib.suppress(GinRummyError, ImportError, ValueError):
                    advice = await self.thinker.advise(*inputs)
                async with table.lock:
                    if advice is not None and table.suggestion is None and _position(table) == position:
                        table.suggestion = {"from": sitter, "action": advice["best"], "text": advice["why"]}
                        table.broadcast()
        except asyncio.CancelledError:
            table.driver = None
            raise


def _position(table: Table) -> tuple[int, int, int]:
    """Which position a table is in: the hand, the number of actions taken in it and the takebacks
    so far (a takeback makes (hand, actions) recur for what may be another position)."""
    s = table.session
    st = s.state
    return st.hand_number, len(st.logs[-1].actions) if st.logs else 0, s.takebacks

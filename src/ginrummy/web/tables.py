"""All the tables of one browser-app server (:class:`TableManager`): creating games and tables
for friends, joining by invitation, giving seats away, loading from the store and attaching
connections, and keeping memory bounded.  The play itself is :class:`~ginrummy.web.play.TablePlay`'s.

Games are saved with :class:`ginrummy.store.Store` (the terminal app's database) by a background
:class:`~ginrummy.web.saver.Saver`; seat tokens and invitations live in the
:class:`~ginrummy.web.seatbook.SeatBook`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from typing import Any

from .. import i18n
from ..agents import available_agents
from ..engine import Cut
from ..errors import GinRummyError, StoreError
from ..i18n import N_, _, ngettext
from ..names import BadName, distinct_name, safe_display_name
from ..record import replay
from ..session import HUMAN, Session
from ..store import GameInUse, Store, new_game_id
from ..variants import find_variant, seats_of, solo_variants, variant_names
from ..words import default_players, display_name, variant_title
from .play import TablePlay
from .protocol import TABLE_VARIANTS, ProtocolError
from .quotas import Quotas
from .table import JOKER_SEAT, Client, Table, default_opponent, default_player

__all__ = ["Quotas", "TableManager"]

log = logging.getLogger("ginrummy.web")
SOLO = solo_variants()
CUT_OPTIONS = frozenset({"first_dealer", "first_box", "first_captain"})  # what the cut decides


def _tell(conn: Client, code: str, message: str) -> None:
    """Send ``conn`` an error ``message`` (marked with ``N_``) in its own language: another
    connection than the one whose request is being handled."""
    with i18n.using(getattr(conn, "lang", "en")):
        conn.error(code, _(message))


class TableManager(TablePlay):
    """All tables of one server: creating, joining, giving seats away, loading, attaching, and
    keeping memory bounded; the play itself is inherited from :class:`TablePlay`."""

    def __init__(
        self,
        store: Store,
        *,
        computer_delay: float = 0.6,
        workers: int = 0,
        quotas: Quotas | None = None,
        replace_after: float = 120.0,
        deal_seed: int | None = None,
    ) -> None:
        super().__init__(store, computer_delay=computer_delay, workers=workers)
        self.tables: dict[str, Table] = {}
        self.quotas = quotas or Quotas()
        self.replace_after = replace_after
        self.deal_seed = deal_seed  # tests: every game's deals follow from this seed (never in real play)
        self._games_made = 0
        self._sweeper: asyncio.Task[None] | None = None
        self._releasing: dict[str, asyncio.Future[None]] = {}  # game locks being given up

    async def start(self) -> None:
        self.tables.clear()  # tables belong to one event loop; they reload from the store on demand
        self.saver.dirty.clear()
        self.saver.start()
        self.thinker.start()
        self._sweeper = asyncio.create_task(self._sweep_forever())

    async def shutdown(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
            for handle in table.wakeups.values():
                handle.cancel()
        await self.saver.stop()
        for pending in list(self._releasing.values()):
            await pending
        await asyncio.to_thread(self.store.release_all)  # other programs may open these games now
        await asyncio.to_thread(self.thinker.stop)  # every worker process joined before we return

    # -- creating ---------------------------------------------------------------------------------
    def _new_session(self, variant: str, options: dict[str, Any] | None, seats: list[str], names: list[str]) -> Session:
        seed = None
        if self.deal_seed is not None:
            self._games_made += 1
            seed = self.deal_seed + 1000 * self._games_made
        try:
            return Session.new(variant, options, players=names, seats=seats, deal_seed=seed)
        except GinRummyError as exc:
            raise ProtocolError("bad_options", str(exc)) from None

    @staticmethod
    def _cut(session: Session, options: dict[str, Any] | None) -> Cut | None:
        """The cut for the first deal (rule 1.2) or for three's roles (rule 2.1), unless the game has
        no cut (the solitaires) or its options already say who deals first."""
        if find_variant(session.state.variant).solo or CUT_OPTIONS & set(options or {}):
            return None
        return session.cut()

    async def create_solo(
        self,
        variant: str,
        options: dict[str, Any] | None,
        opponent: str | None,
        name: str | None,
        watch: bool = False,
    ) -> tuple[Table, int, str]:
        """A game of one person (seat 0) against computer players (or the Joker); with ``watch``,
        ``opponent`` (default: the strongest) plays every seat and the person watches seat 0's
        view: such a game is filed in nobody's history (:attr:`Session.watched`)."""
        n = seats_of(variant) if variant in variant_names() else 2
        if watch:
            agent = opponent or default_player(variant)
            self._check_agent(variant, agent)
            assert agent is not None
            seats = [agent, JOKER_SEAT] if variant in SOLO else [agent] * n
            session = self._new_session(variant, options, seats, default_players(variant, seats))
            return await self._register(session, kind="solo", hints=False, cut=self._cut(session, options))
        if variant in SOLO:
            if opponent not in (None, JOKER_SEAT):
                raise ProtocolError(
                    "bad_message",
                    _("{game} is played against the Joker; leave out 'opponent'").format(
                        game=variant_title(variant, short=True)
                    ),
                )
            seats, names = [HUMAN, JOKER_SEAT], ["Joker"]
        else:
            agent = opponent or default_opponent(variant)
            self._check_agent(variant, agent)
            assert agent is not None
            seats = [HUMAN] + [agent] * (n - 1)
            names = default_players(variant, seats)[1:]  # the names every front end gives
        you = name or "You"
        try:
            distinct_name(you, ["", *names], 0)
        except BadName as exc:
            raise ProtocolError("name_taken", str(exc)) from None
        session = self._new_session(variant, options, seats, [you, *names])
        return await self._register(session, kind="solo", hints=True, cut=self._cut(session, options))

    async def create_table(
        self, variant: str, others: list[str], options: dict[str, Any] | None, hints: bool, name: str | None
    ) -> tuple[Table, int, str]:
        """A table for several people; the creator takes seat 0, ``others`` fill seats 1, 2...; each
        open seat gets its own invitation."""
        if variant not in TABLE_VARIANTS:
            raise ProtocolError(
                "bad_message",
                _("tables are for {games}, not {variant}").format(games=", ".join(TABLE_VARIANTS), variant=variant),
            )
        n = seats_of(variant)
        if len(others) != n - 1:
            raise ProtocolError(
                "bad_message",
                ngettext(
                    "a table of {game} has {n} other seat, got {got}",
                    "a table of {game} has {n} other seats, got {got}",
                    n - 1,
                ).format(game=variant_title(variant, short=True), n=n - 1, got=len(others)),
            )
        seats, names = [HUMAN], [name or "Player 1"]
        for i, kind in enumerate(others, start=2):
            if kind == "person":
                seats.append(HUMAN)
                names.append(f"Player {i}")
            else:
                self._check_agent(variant, kind)
                seats.append(kind)
                names.append(default_players(variant, seats)[-1])  # as every front end names it
        if seats.count(HUMAN) < 2:
            raise ProtocolError(
                "bad_message", _("a table needs at least one other person; play against the computer with 'new'")
            )
        try:
            distinct_name(names[0], names, 0)
        except BadName as exc:
            raise ProtocolError("name_taken", str(exc)) from None
        session = self._new_session(variant, options, seats, names)
        return await self._register(session, kind="table", hints=hints, cut=self._cut(session, options))

    def _check_agent(self, variant: str, agent: str | None) -> None:
        agents = available_agents(variant)
        if agent is None or agent not in agents:
            raise ProtocolError(
                "bad_message",
                _("no computer player {agent} for {game}; choose one of {agents}").format(
                    agent=repr(agent),
                    game=variant_title(variant, short=True),
                    agents=", ".join(agents) or _("(none installed)"),
                ),
            )

    async def _register(
        self, session: Session, *, kind: str, hints: bool, cut: Cut | None = None
    ) -> tuple[Table, int, str]:
        self._make_room()
        game_id = new_game_id()
        while game_id in self.tables:
            game_id = new_game_id()
        self.book.add_game(game_id, kind, hints)
        token = self.book.add_token(game_id, 0)
        invites = {}
        if kind == "table":
            for seat, seat_kind in enumerate(session.seats):
                if seat != 0 and seat_kind == HUMAN:
                    invites[seat] = self.book.issue_invite(game_id, seat)
        table = Table(game_id, session, kind=kind, hints=hints, claimed={0}, invites=invites)
        table.cut = cut
        table.replace_after = self.replace_after
        self.tables[game_id] = table
        self.saver.mark(table, urgent=True)
        self._warm(table)
        return table, 0, token

    def _warm(self, table: Table) -> None:
        """Start the worker processes now if this table will need them (computer players)."""
        if any(not table.session.is_human(i) for i in range(table.session.state.num_seats)):
            self.thinker.warm()

    async def join(self, invite: str, seat: int | None, name: str | None) -> tuple[Table, int, str]:
        """Take the seat that ``invite`` opens (each open seat has its own invitation)."""
        found = self.book.seat_by_invite(invite)
        if found is None:
            if self.book.legacy_invite(invite) is not None:
                raise ProtocolError(
                    "unknown_invite",
                    _("this invitation link is from an older version: ask the table's creator for your seat's link"),
                )
            raise ProtocolError("unknown_invite", _("no seat has this invitation (it may have been replaced or used)"))
        game_id, invited = found
        table = await self._load(game_id)
        if table is None:
            raise ProtocolError("unknown_invite", _("no table has this invitation (it may have ended)"))
        async with table.lock:
            if seat is not None and seat != invited:
                raise ProtocolError(
                    "seat_taken",
                    _("this invitation opens seat {seat}, not seat {asked}").format(seat=invited, asked=seat),
                )
            if table.invites.get(invited) != invite or invited not in table.open_seats():
                raise ProtocolError("unknown_invite", _("this invitation has been used or replaced"))
            st = table.session.state
            if name and not st.logs:  # names are fixed once the first hand is dealt
                try:
                    distinct_name(name, st.players, invited)
                except BadName as exc:
                    raise ProtocolError("name_taken", str(exc)) from None
            token = self.book.claim(table.game_id, invited)
            table.claimed.add(invited)
            del table.invites[invited]
            table.away_since[invited] = time.monotonic()
            if name and not st.logs:
                st.players[invited] = name
            self.saver.mark(table, urgent=True)
            table.broadcast()
        return table, invited, token

    async def reissue(
        self, table: Table, seat: int, by: int, conn: Client | None = None, seq: int | None = None
    ) -> None:
        """The creator gives ``seat`` a new invitation: the old link stops working; a seat whose
        person has been away long enough opens again (their token stops working)."""
        async with table.lock:
            self._check_replaceable(table, seat, by)
            if seat in table.claimed:
                self.book.revoke_seat(table.game_id, seat)
                table.claimed.discard(seat)
                table.away_since.pop(seat, None)
                table.ready.discard(seat)
                self.book.set_ready(table.game_id, table.ready)
                for conn in list(table.conns.pop(seat, set())):
                    _tell(conn, "seat_reissued", N_("the table's creator gave your seat to someone else"))
                    conn.table = conn.seat = None
            table.invites[seat] = self.book.issue_invite(table.game_id, seat)
            table.broadcast(conn, seq)

    async def seat_computer(
        self,
        table: Table,
        seat: int,
        agent: str | None,
        by: int,
        conn: Client | None = None,
        seq: int | None = None,
    ) -> None:
        """The creator lets a computer player take an open seat or one whose person is away."""
        async with table.lock:
            self._check_replaceable(table, seat, by)
            s = table.session
            agent = agent or default_opponent(s.state.variant)
            self._check_agent(s.state.variant, agent)
            assert agent is not None
            seats = list(s.seats)
            seats[seat] = agent
            try:
                session = Session.from_json({**s.to_json(), "seats": seats})
            except GinRummyError as exc:
                raise ProtocolError("not_allowed", str(exc)) from None
            table.session = session
            self.book.revoke_seat(table.game_id, seat)
            self.book.drop_invite(table.game_id, seat)
            table.claimed.discard(seat)
            table.invites.pop(seat, None)
            table.away_since.pop(seat, None)
            table.ready.discard(seat)
            self.book.set_ready(table.game_id, table.ready)
            for gone in list(table.conns.pop(seat, set())):
                _tell(gone, "seat_reissued", N_("the table's creator gave your seat to a computer player"))
                gone.table = gone.seat = None
            self._warm(table)
            self._maybe_deal(table)
            self._changed(table, conn, seq, urgent=True)

    def _check_replaceable(self, table: Table, seat: int, by: int) -> None:
        if table.kind != "table" or by != table.creator:
            raise ProtocolError("not_allowed", _("only the table's creator manages its seats"))
        if seat not in table.person_seats() or seat == table.creator:
            raise ProtocolError("not_allowed", _("seat {seat} is not a seat for a friend").format(seat=seat))
        if seat not in table.replaceable():
            left = table.replace_after - (time.monotonic() - table.away_since.get(seat, time.monotonic()))
            raise ProtocolError(
                "waiting",
                _(
                    "{name} is still at the table or left only lately: "
                    "a seat can be given away after {after} s away ({left} s to go)"
                ).format(
                    name=display_name(table.session.state.players[seat]),
                    after=f"{table.replace_after:g}",
                    left=max(1, round(left)),
                ),
            )

    async def resume(self, game_id: str) -> tuple[Table, int, str]:
        """Take up a saved game (terminal or browser) of one person: a new token for that seat."""
        info = self.book.game(game_id)
        if info is not None and info[0] == "table":
            raise ProtocolError("not_allowed", _("this is a table for several people: use your invitation link"))
        table = await self._load(game_id)
        if table is None or table.session.state.game_over:
            raise ProtocolError("unknown_game", _("no saved game {game}").format(game=repr(game_id)))
        people = table.person_seats()
        if len(people) != 1:
            raise ProtocolError(
                "not_allowed", _("this game has several people at one screen: resume it in the terminal app")
            )
        if info is None:
            self.book.add_game(game_id, "solo", True)
        token = self.book.add_token(game_id, people[0])
        table.claimed.add(people[0])
        return table, people[0], token

    async def delete(self, game_id: str) -> bool:
        """The owner deletes a saved game (not one somebody is playing now); False if there is none."""
        table = self.tables.get(game_id)
        if table is not None and any(table.conns.values()):
            raise ProtocolError("not_allowed", _("this game is open in a browser now: close it first"))
        exists = any(g.id == game_id for g in await asyncio.to_thread(self.store.saved_games))
        if table is not None:
            self._drop(table)
        self.saver.dirty.pop(game_id, None)
        try:
            await asyncio.to_thread(self.store.delete_game, game_id)
        except GameInUse as exc:  # open in the terminal app, plain mode or another server
            raise ProtocolError("game_in_use", str(exc)) from None
        self.book.forget(game_id)
        return exists

    def _drop(self, table: Table) -> None:
        if table.driver is not None:
            table.driver.cancel()
        for handle in table.wakeups.values():
            handle.cancel()
        if self.tables.pop(table.game_id, None) is table:
            self._release(table.game_id)

    def _release(self, game_id: str) -> None:
        """Let other programs open ``game_id`` (its table left memory); :meth:`_load` waits for this."""
        done = asyncio.ensure_future(asyncio.to_thread(self.store.release_game, game_id))
        self._releasing[game_id] = done

        def finished(f: asyncio.Future[None]) -> None:
            if self._releasing.get(game_id) is f:
                del self._releasing[game_id]

        done.add_done_callback(finished)

    # -- attaching --------------------------------------------------------------------------------
    async def attach_token(self, game_id: str, token: str) -> tuple[Table, int]:
        seat = self.book.seat_of(game_id, token)
        table = None if seat is None else await self._load(game_id)
        if table is None or seat is None:
            raise ProtocolError("bad_token", _("this seat token does not open a seat of that game"))
        return table, seat

    async def _load(self, game_id: str) -> Table | None:
        """The table of ``game_id``, from memory or from the store (after a restart, or after
        everyone left it).  Loading locks the game for this server: ``game_in_use`` if another
        program (the terminal app, plain mode, another server) has it open."""
        pending = self._releasing.get(game_id)
        if pending is not None:
            await pending  # the lock being given up: take it again after that
        table = self.tables.get(game_id)
        if table is not None:
            return table
        info = self.book.game(game_id)
        try:
            session = await asyncio.to_thread(self.store.open_game, game_id)
        except GameInUse as exc:
            raise ProtocolError("game_in_use", str(exc)) from None
        except StoreError as exc:  # a damaged or unreadable saved game: say so, change nothing
            log.warning("cannot load game %s: %s", game_id, exc)
            raise ProtocolError("unknown_game", str(exc)) from None
        if session is None:
            session = await asyncio.to_thread(self._finished_session, game_id)
        if session is None:
            return None
        table = self.tables.get(game_id)  # loaded meanwhile by another connection
        if table is not None:
            return table
        st = session.state
        for i, name in enumerate(st.players):  # a name saved before the rules of ginrummy.names
            st.players[i] = safe_display_name(name, f"Player {i + 1}")
        kind, hints = info if info is not None else ("solo", True)
        claimed = self.book.claimed_seats(game_id)
        invites = self.book.invites(game_id) if kind == "table" else {}
        if kind == "table" and not st.game_over:
            for seat, seat_kind in enumerate(session.seats):  # a table of an older version: one code per seat
                if seat_kind == HUMAN and seat not in claimed and seat not in invites:
                    invites[seat] = self.book.issue_invite(game_id, seat)
        try:
            self._make_room()
        except ProtocolError:
            self._release(game_id)  # not kept here after all: others may open it
            raise
        table = Table(
            game_id, session, kind=kind, hints=hints, claimed=claimed, invites=invites, ready=self.book.ready(game_id)
        )
        table.replace_after = self.replace_after
        self.tables[game_id] = table
        for seat in claimed:  # nobody is connected yet: the seats of friends may be given away in time
            self._wake_creator(table, seat)
        self._warm(table)
        return table

    def _finished_session(self, game_id: str) -> Session | None:
        """A finished game, rebuilt from the history so that its last screen can be shown again."""
        for game in reversed(self.store.history(watched=True)):  # a watched game too
            if game.id == game_id:
                state = replay(game.record)
                try:
                    return Session(state, game.seats)
                except GinRummyError:  # a computer player no longer installed: the game is over anyway
                    return Session(state, [HUMAN] * state.num_seats)
        return None

    async def attach(self, table: Table, seat: int, conn: Client) -> None:
        async with table.lock:
            table.conns.setdefault(seat, set()).add(conn)
            table.last_seen = time.monotonic()
            table.away_since.pop(seat, None)
            handle = table.wakeups.pop(seat, None)
            if handle is not None:
                handle.cancel()
            table.broadcast()
            self._kick(table)

    async def detach(self, table: Table, seat: int, conn: Client) -> None:
        async with table.lock:
            conns = table.conns.get(seat)
            if conns is not None:
                conns.discard(conn)
            now = table.last_seen = time.monotonic()
            if not conns and seat in table.claimed and seat not in table.away_since:
                table.away_since[seat] = now
                self._wake_creator(table, seat)
            table.broadcast()
        if not any(table.conns.values()):
            # Everyone left: once the computers have moved and the game is written, close it here
            # so that another program may open it (one game, one process); it reloads from the
            # store when someone comes back.
            if table.driver is not None:
                await asyncio.wait([table.driver])
            saver = self.saver._task
            if saver is not None and not saver.done():
                await self.saver.flush()
                if self._idle(table) and self.tables.get(table.game_id) is table:
                    self._drop(table)
        self._evict_idle()

    def _wake_creator(self, table: Table, seat: int) -> None:
        """Send the creator a fresh state when ``seat`` (away) may be given away, so that the page
        offers it without being asked."""
        if table.kind != "table" or seat == table.creator:
            return
        old = table.wakeups.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = table.replace_after - (time.monotonic() - table.away_since.get(seat, time.monotonic()))
        table.wakeups[seat] = asyncio.get_running_loop().call_later(max(0.0, delay) + 0.05, table.broadcast)

    # -- memory and expiry ------------------------------------------------------------------------
    def _idle(self, table: Table) -> bool:
        return not any(table.conns.values()) and table.game_id not in self.saver.dirty and table.driver is None

    def _evict_idle(self) -> None:
        """Tables nobody has used for ``idle_seconds`` leave memory (they stay saved)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if self._idle(table) and now - table.last_seen > self.quotas.idle_seconds:
                self._drop(table)

    def _make_room(self) -> None:
        """Keep at most ``max_tables`` tables in memory: the longest idle go first."""
        if len(self.tables) < self.quotas.max_tables:
            return
        idle = sorted((t for t in self.tables.values() if self._idle(t)), key=lambda t: t.last_seen)
        for table in idle[: len(self.tables) - self.quotas.max_tables + 1]:
            self._drop(table)
        if len(self.tables) >= self.quotas.max_tables:
            raise ProtocolError("server_busy", _("the server has as many games open as it can hold: try again later"))

    async def sweep(self) -> list[str]:
        """Evict idle tables and delete browser games never dealt within ``unplayed_expiry``; the
        ids of the deleted games."""
        self._evict_idle()
        cutoff = time.time() - self.quotas.unplayed_expiry
        candidates = set(self.book.games_created_before(cutoff))
        if not candidates:
            return []
        saved = {g.id: g for g in await asyncio.to_thread(self.store.saved_games)}
        deleted = []
        for game_id in sorted(candidates):
            table = self.tables.get(game_id)
            if table is not None and (not self._idle(table) or table.session.state.logs):
                continue
            game = saved.get(game_id)
            if game is None or game.hand_number > 0:
                continue
            if table is not None:
                self._drop(table)
            try:
                await asyncio.to_thread(self.store.delete_game, game_id)
            except GameInUse:  # taken up in another program meanwhile: it is that program's now
                continue
            self.book.forget(game_id)
            deleted.append(game_id)
        if deleted:
            log.info("deleted %d browser games that were never dealt", len(deleted))
        return deleted

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.quotas.sweep_seconds)
            try:
                await self.sweep()
            except (StoreError, sqlite3.Error, OSError) as exc:
                log.error("could not tidy up old games: %s", exc)

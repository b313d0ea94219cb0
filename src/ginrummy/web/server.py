"""The browser app's server: an ASGI application (Starlette) with one WebSocket endpoint.

``create_app(data_dir)`` builds it; ``ginrummy serve`` runs it under uvicorn.  Pages and assets
come from the package (``ginrummy/web/static``, nothing from a CDN).  Play goes through ``/ws``:
the client sends small JSON requests (:mod:`ginrummy.web.protocol`), the server answers each
connection with its own seat's observation only (:mod:`ginrummy.web.table`).

HTTP routes: ``/`` (the app), ``/join/<invite>`` (the app, opened on an invitation),
``/stats`` (the app's statistics page), ``/static/...``, ``/api/rules/<variant>`` (the rule
book's sections for a variant), ``/api/info`` (variants, options, computer players), and, for
the person at this computer only (a loopback client), ``/api/saved``, ``/api/stats``,
``/api/history`` (the finished games) and ``/api/replay/<game>`` (one of them, step by step);
for anyone, ``POST /api/replay`` (a record file the page sends, step by step: it reads and keeps
nothing of this computer's).

The layers below: :mod:`~ginrummy.web.guard` (host names, owner, security headers),
:mod:`~ginrummy.web.connection` (one client), :mod:`~ginrummy.web.tables` (the tables).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..agents import available_agents
from ..agents.levels import LEVEL_DESCRIPTIONS, LEVELS
from ..errors import GinRummyError, RecordError, StoreError, system_reason
from ..i18n import N_
from ..names import safe_display_name
from ..options import option_help
from ..rulebook import variant_rules
from ..statwords import chart_choices, opponent_sections, stats_lines
from ..store import Store
from ..variants import VARIANTS, variant_names
from ..words import display_names, option_name, option_value
from .connection import Connection, Tap
from .guard import FORWARDING, GuardedStarlette, HostPolicy, is_owner
from .messages import agent_names, card_names, page_messages, result_names
from .protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    TABLE_VARIANTS,
    ProtocolError,
    RateLimiter,
    dumps,
    readable,
    validate,
    variant_facts,
)
from .quotas import ClientQuotas, Quotas
from .replay import MAX_RECORD_BYTES, record_frames, replay_frames
from .table import Table, default_opponent, default_player
from .tables import CUT_OPTIONS, TableManager

__all__ = ["STATIC_DIR", "Quotas", "create_app"]

log = logging.getLogger("ginrummy.web")


def page_language(asked: str | None, accept: str | None) -> str:
    """The language a page or connection speaks: ``?lang=`` (the page's remembered setting; ``xx``
    the pseudo-locale for tests) when it is one, else the browser's ``Accept-Language``."""
    lang = i18n.normalize_language(asked)
    return lang if lang is not None else i18n.accept_language(accept)


STATIC_DIR = Path(__file__).parent / "static"
# a client starting games faster than its quota allows (server.py's ``quota`` error)
_MANY_FROM_CONNECTION = N_("too many new games from one connection: one more every {seconds} s (bursts of {burst})")
_MANY_FROM_ADDRESS = N_("too many new games from one address: one more every {seconds} s (bursts of {burst})")
_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    store: Store | None = None,
    computer_delay: float = 0.6,
    rate: float = 20.0,
    burst: float = 40.0,
    tap: Tap | None = None,
    workers: int = 0,
    allowed_hosts: Iterable[str] = (),
    any_address: bool = False,
    behind_proxy: bool = False,
    invite_base: str | None = None,
    quotas: Quotas | None = None,
    replace_after: float = 120.0,
    deal_seed: int | None = None,
) -> Starlette:
    """The browser app.  ``data_dir`` (or ``store``) is where games are saved, shared with the
    terminal app; ``computer_delay`` paces the computer players' moves (seconds); ``rate`` and
    ``burst`` limit each connection's messages; ``tap`` (tests) sees every message sent;
    ``workers`` is the number of processes in which computer players and hints think (0: in the
    server's own event loop).

    On a network: ``allowed_hosts`` are the names the server is served as besides the loopback
    names (``any_address``: also any IP address, when listening on every interface);
    ``behind_proxy`` means a reverse proxy on this computer forwards every visitor, so nobody is
    taken for the owner; ``invite_base`` (``http://192.168.1.5:8000``) is the address shown in
    invitation links when the page itself was opened on a loopback address.  ``quotas`` limit
    each client; ``replace_after`` is how long a friend may be away before the table's creator
    may give the seat away; ``deal_seed`` makes every deal predictable (tests only)."""
    if store is None:
        store = Store(data_dir, front_end="the browser app (ginrummy serve)")
    quotas = quotas or Quotas()
    manager = TableManager(
        store,
        computer_delay=computer_delay,
        workers=workers,
        quotas=quotas,
        replace_after=replace_after,
        deal_seed=deal_seed,
    )
    clients = ClientQuotas(quotas)

    def owner_of(client_host: str | None, host_header: str | None, headers: Any) -> bool:
        if behind_proxy or any(headers.get(h) for h in FORWARDING):
            return False  # a proxy's visitors all arrive from this computer: none of them is the owner
        return is_owner(client_host, host_header)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.shutdown()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    async def info(request: Request) -> Response:
        with i18n.using(page_language(request.query_params.get("lang"), request.headers.get("accept-language"))):
            return info_in_language(request)

    def info_in_language(request: Request) -> Response:
        variants = {}
        for variant in VARIANTS:
            v = variant.name
            variants[v] = {
                **variant_facts(v),
                "seats": variant.seats,
                "options": [
                    {
                        "name": n,
                        "label": option_name(n),
                        "default": d,
                        "doc": i18n._(doc) if doc else "",
                        "choices": list(choices),
                        "choice_labels": [option_value(c) for c in choices],
                    }
                    for n, d, doc, choices in option_help(v)
                    if n not in CUT_OPTIONS  # the cut before the first deal decides these
                ],
                "agents": [] if variant.solo else available_agents(v),
                "default_agent": default_opponent(v),
                # the playing levels, weakest first, with what each does (ginrummy.agents.levels)
                "levels": [
                    {"name": n, "description": i18n._(LEVEL_DESCRIPTIONS[n])}
                    for n in LEVELS
                    if n in available_agents(v)
                ],
                # watching: the computer players that can play every seat (the solitaires' too)
                "players": available_agents(v),
                "default_player": default_player(v),
            }
        return JSONResponse(
            {
                "protocol": PROTOCOL_VERSION,
                "variants": variants,
                "table_variants": list(TABLE_VARIANTS),
                "max_message_bytes": MAX_MESSAGE_BYTES,
                "owner": owner_of(
                    request.client.host if request.client else None, request.headers.get("host"), request.headers
                ),
                "invite_base": invite_base,
            }
        )

    def asked_language(request: Request) -> str:
        return page_language(request.query_params.get("lang"), request.headers.get("accept-language"))

    def refusal(request: Request, status: int, message: str, **values: Any) -> Response:
        """``{"error": message}`` in the language the request asks for (``?lang=``, else
        ``Accept-Language``), its placeholders filled in."""
        with i18n.using(asked_language(request)):
            return JSONResponse({"error": i18n._(message).format(**values)}, status_code=status)

    def shown_players(request: Request, players: list[str]) -> list[str]:
        """The seats' names as the page shows them: the names ginrummy gives (``You``,
        ``Expert 2``) in the page's language, any other as typed (made safe to show)."""
        with i18n.using(asked_language(request)):
            return display_names([safe_display_name(p, f"Player {i + 1}") for i, p in enumerate(players)])

    def owner_only(request: Request) -> Response | None:
        if not owner_of(request.client.host if request.client else None, request.headers.get("host"), request.headers):
            return refusal(request, 403, N_("only on the computer running the server"))
        return None

    async def saved(request: Request) -> Response:
        denied = owner_only(request)
        if denied is not None:
            return denied
        games = await asyncio.to_thread(store.saved_games)
        out = []
        for g in games:
            web = manager.book.game(g.id)
            if web is not None and web[0] == "table":
                continue
            if g.seats.count("human") != 1:
                continue
            entry = g.to_json()
            entry["players"] = shown_players(request, g.players)
            out.append(entry)
        return JSONResponse({"games": out})

    async def delete_saved(request: Request) -> Response:
        denied = owner_only(request)
        if denied is not None:
            return denied
        game_id = request.path_params["game"]
        if not _GAME_ID.match(game_id):
            return refusal(request, 400, N_("not a game id"))
        try:
            with i18n.using(asked_language(request)):
                existed = await manager.delete(game_id)
        except ProtocolError as exc:
            return JSONResponse({"error": exc.message}, status_code=409)
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        if not existed:
            return refusal(request, 404, N_("no saved game {game}"), game=game_id)
        return JSONResponse({"deleted": game_id})

    async def rules(request: Request) -> Response:
        variant = request.path_params["variant"]
        if variant not in variant_names():
            return refusal(request, 404, N_("unknown variant {variant}"), variant=repr(variant[:40]))
        try:
            return JSONResponse(await asyncio.to_thread(variant_rules, variant, asked_language(request)))
        except OSError as exc:  # the rule book missing from this installation: say so
            with i18n.using(asked_language(request)):
                reason = system_reason(exc)
            return refusal(request, 404, N_("the rule book cannot be read: {error}"), error=reason)

    async def messages(request: Request) -> Response:
        """The page's own texts in the language asked for (``?lang=``, else ``Accept-Language``):
        ``{"lang": "ko", "messages": {english: translation}, "cards": {"Qd": name}}`` from the same
        catalogs."""
        lang = page_language(request.query_params.get("lang"), request.headers.get("accept-language"))
        return JSONResponse(
            {
                "lang": lang,
                "messages": page_messages(lang),
                "cards": card_names(lang),
                "agents": agent_names(lang),
                "results": result_names(lang),
            }
        )

    async def history(request: Request) -> Response:
        """The finished games of this computer, newest first (for the replay viewer)."""
        denied = owner_only(request)
        if denied is not None:
            return denied
        try:
            games = await asyncio.to_thread(store.history)
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        out = [
            {
                "id": g.id,
                "variant": g.variant,
                "players": shown_players(request, g.players),
                "finished_at": g.finished_at,
                "hands": g.hands,
                "final_totals": g.final_totals,
                "winner": g.winner,
            }
            for g in reversed(games[-100:])
        ]
        return JSONResponse({"games": out})

    async def replay_game(request: Request) -> Response:
        """A finished game of this computer step by step (:func:`ginrummy.web.replay.replay_frames`)."""
        denied = owner_only(request)
        if denied is not None:
            return denied
        game_id = request.path_params["game"]
        if not _GAME_ID.match(game_id):
            return refusal(request, 400, N_("not a game id"))

        def find() -> dict[str, Any] | None:
            for g in store.history():
                if g.id == game_id:
                    return {"game": g.id, **replay_frames(g.record)}
            return None

        try:
            with i18n.using(asked_language(request)):  # the moves in words, in the page's language
                found = await asyncio.to_thread(find)
        except (StoreError, GinRummyError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)
        if found is None:
            return refusal(request, 404, N_("no finished game {game}"), game=game_id)
        found["players"] = shown_players(request, found["players"])
        return JSONResponse(found)

    record_slot = asyncio.Semaphore(1)  # one record file replayed at a time: its cost stays bounded

    async def replay_record(request: Request) -> Response:
        """A record file the page sends (the body, at most :data:`~ginrummy.web.replay.MAX_RECORD_BYTES`;
        ``?record=`` picks one of several, 0-based) step by step, its moves in the page's language
        (:func:`ginrummy.web.replay.record_frames`).  A bad record is a 400 with one line naming
        what was wrong.  Anyone may send one: nothing of this computer's is read or kept."""
        asked = request.query_params.get("record", "0")
        if not asked.isdigit() or len(asked) > 6:
            return refusal(request, 400, N_("record: ?record= must be a record's number, 0 for the first"))
        index = int(asked)
        too_large = N_("record: larger than {size} KiB, too large to send")
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_RECORD_BYTES:
            return refusal(request, 413, too_large, size=MAX_RECORD_BYTES // 1024)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_RECORD_BYTES:
                return refusal(request, 413, too_large, size=MAX_RECORD_BYTES // 1024)
        lang = asked_language(request)
        async with record_slot:
            try:
                with i18n.using(lang):  # asyncio.to_thread carries the language into the thread
                    found = await asyncio.to_thread(record_frames, bytes(body), index)
            except RecordError as exc:
                return JSONResponse({"error": " ".join(str(exc).split())}, status_code=400)
        found["players"] = [safe_display_name(p, f"Player {i + 1}") for i, p in enumerate(found["players"])]
        return JSONResponse(found)

    async def stats(request: Request) -> Response:
        denied = owner_only(request)
        if denied is not None:
            return denied

        def collect() -> dict[str, Any]:
            history: dict[str, list[dict[str, Any]]] = {}
            for g in store.history():
                history.setdefault(g.variant, []).append(
                    {
                        "finished_at": g.finished_at,
                        "hands": g.hands,
                        "final_totals": g.final_totals,
                        "player_seat": g.player_seat,
                        "won": g.won,
                        "accuracy": g.accuracy,
                    }
                )
            variants = store.stats()
            # the figures in words (the stats command's and the terminal's lines), per variant and opponent
            for st in variants.values():
                st["lines"] = stats_lines(st)
                st["opponents"] = [{"heading": h, "lines": lines} for h, lines in opponent_sections(st)]
                st["charts"] = chart_choices(st)  # the running average over all games, then per opponent
            return {"variants": variants, "history": {v: h[-200:] for v, h in history.items()}}

        lang = page_language(request.query_params.get("lang"), request.headers.get("accept-language"))
        try:
            with i18n.using(lang):  # asyncio.to_thread carries the language into the thread
                return JSONResponse(await asyncio.to_thread(collect))
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)

    async def websocket_endpoint(websocket: WebSocket) -> None:
        # (Guard has refused other hosts and other sites' pages already.)
        host = websocket.headers.get("host")
        await websocket.accept()
        client_host = websocket.client.host if websocket.client else ""
        owner = owner_of(client_host, host, websocket.headers)
        limited = not clients.exempt(client_host, behind_proxy)
        lang = page_language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
        if limited and not clients.open(client_host):
            with i18n.using(lang):
                refused = i18n.ngettext(
                    "at most {n} connection from one address: close some tabs",
                    "at most {n} connections from one address: close some tabs",
                    quotas.connections_per_client,
                ).format(n=quotas.connections_per_client)
            text = dumps({"type": "error", "code": "too_many_connections", "message": refused})
            with contextlib.suppress(Exception):
                await websocket.send_text(text)
                await websocket.close(code=1008)
            return
        conn = Connection(websocket, owner=owner, rate=rate, burst=burst, tap=tap, client=client_host)
        conn.limited = limited
        conn.lang = lang
        conn.games = RateLimiter(1.0 / max(quotas.game_refill_seconds, 1e-9), float(quotas.games_per_client))
        writer = asyncio.create_task(conn.writer())
        conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "max_message_bytes": MAX_MESSAGE_BYTES})
        try:
            while not conn.overflow and not writer.done():
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await handle(conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            if conn.table is not None and conn.seat is not None:
                await manager.detach(conn.table, conn.seat, conn)
            if not writer.done():
                with contextlib.suppress(asyncio.QueueFull):
                    conn.queue.put_nowait(None)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 2)
            writer.cancel()
            if limited:
                clients.close(client_host)

    async def handle(conn: Connection, raw: str | bytes) -> None:
        """Validate one message and carry it out; any problem goes back as an ``error``, worded in
        the connection's language, with the request's type and ``seq`` whenever they can be read
        (a refused or malformed request too: a client waiting for its reply gets it)."""
        with i18n.using(conn.lang):  # what is worded for this connection, in its language
            await handle_in_language(conn, raw)

    async def handle_in_language(conn: Connection, raw: str | bytes) -> None:
        seq: int | None = None
        kind: str | None = None
        try:
            if not conn.limiter.allow():
                kind, seq = readable(raw)
                raise ProtocolError(
                    "rate_limited", i18n._("too many messages: slow down (at most {n} a second)").format(n=f"{rate:g}")
                )
            try:
                msg = validate(raw)
            except ProtocolError:
                kind, seq = readable(raw)
                raise
            kind, seq = msg["type"], msg.get("seq")
            await dispatch(conn, msg)
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, ref=kind, seq=seq)
        except GinRummyError as exc:
            conn.error("rejected", str(exc), ref=kind, seq=seq)
        except Exception:  # a bug: log it, tell the client, keep the connection
            log.exception("error handling a %s message", kind)
            conn.error(
                "server_error", i18n._("the server failed on this message; the game is unchanged"), ref=kind, seq=seq
            )

    async def seat_client(conn: Connection, table: Table, seat: int, token: str | None) -> None:
        if conn.table is not None and conn.seat is not None:
            await manager.detach(conn.table, conn.seat, conn)
        conn.table, conn.seat = table, seat
        joined: dict[str, Any] = {
            "type": "joined",
            "game": table.game_id,
            "seat": seat,
            "variant": table.variant,
            "kind": table.kind,
            "invite": table.invite if seat == table.creator else None,
        }
        if seat == table.creator:
            joined["invites"] = {str(k): v for k, v in sorted(table.invites.items())}
        if token is not None:
            joined["token"] = token  # the only time the token is sent: the client keeps it
        conn.send(joined)
        await manager.attach(table, seat, conn)

    async def dispatch(conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        seq = msg.get("seq")
        if kind == "ping":
            conn.send({"type": "pong", **({"seq": seq} if seq is not None else {})})
            return
        if kind == "hello":
            table, seat = await manager.attach_token(msg["game"], msg["token"])
            await seat_client(conn, table, seat, None)
            return
        if kind in ("new", "create_table"):
            # every connection (this computer's too), and every address but this computer's
            where = _MANY_FROM_CONNECTION if not conn.games.allow() else None
            if where is None and conn.limited and not clients.start_game(conn.client):
                where = _MANY_FROM_ADDRESS
            if where is not None:
                raise ProtocolError(
                    "quota",
                    i18n._(where).format(seconds=f"{quotas.game_refill_seconds:g}", burst=quotas.games_per_client),
                )
        if kind == "new":
            table, seat, token = await manager.create_solo(
                msg["variant"], msg.get("options"), msg.get("opponent"), msg.get("name"), msg.get("watch", False)
            )
            await seat_client(conn, table, seat, token)
            return
        if kind == "create_table":
            table, seat, token = await manager.create_table(
                msg["variant"], msg["seats"], msg.get("options"), msg.get("hints", False), msg.get("name")
            )
            await seat_client(conn, table, seat, token)
            return
        if kind == "join":
            table, seat, token = await manager.join(msg["invite"], msg.get("seat"), msg.get("name"))
            await seat_client(conn, table, seat, token)
            return
        if kind == "resume":
            if not conn.owner:
                raise ProtocolError(
                    "not_allowed", i18n._("saved games can be resumed only on the computer running the server")
                )
            table, seat, token = await manager.resume(msg["game"])
            await seat_client(conn, table, seat, token)
            return
        if conn.table is None or conn.seat is None:
            raise ProtocolError("no_seat", i18n._("take a seat first: send hello, new, create_table or join"))
        table, seat = conn.table, conn.seat
        if kind == "act":
            await manager.act(table, seat, msg["action"], conn, seq)
        elif kind == "replay":
            frames = await manager.replay(table)
            conn.send({**frames, **({"seq": seq} if seq is not None else {})})
        elif kind == "undo":
            await manager.undo(table, seat, conn, seq)
        elif kind == "arrangements":
            choices = await manager.arrangements(table, seat, msg["action"])
            conn.send({**choices, **({"seq": seq} if seq is not None else {})})
        elif kind == "deal":
            await manager.deal(table, seat, conn, seq)
        elif kind == "hint":
            advice = await manager.hint(table, seat)
            conn.send({**advice, **({"seq": seq} if seq is not None else {})})
        elif kind == "suggest":
            await manager.suggest(table, seat, msg["action"], msg.get("text"), conn, seq)
        elif kind == "reissue":
            await manager.reissue(table, msg["seat"], seat, conn, seq)
        elif kind == "seat_computer":
            await manager.seat_computer(table, msg["seat"], msg.get("agent"), seat, conn, seq)
        else:  # pragma: no cover - validate() knows every type
            raise ProtocolError("bad_message", i18n._("unknown message type {type}").format(type=repr(kind)))

    routes = [
        Route("/", page),
        Route("/stats", page),
        Route("/join/{invite}", page),
        Route("/api/info", info),
        Route("/api/messages", messages),
        Route("/api/saved", saved),
        Route("/api/saved/{game}", delete_saved, methods=["DELETE"]),
        Route("/api/stats", stats),
        Route("/api/history", history),
        Route("/api/replay", replay_record, methods=["POST"]),
        Route("/api/replay/{game}", replay_game),
        Route("/api/rules/{variant}", rules),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = GuardedStarlette(routes=routes, lifespan=lifespan)
    app.hosts = HostPolicy(allowed_hosts, any_address=any_address)
    app.state.manager = manager
    app.state.clients = clients
    app.state.store = store
    return app

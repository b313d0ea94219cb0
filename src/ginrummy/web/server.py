"""The browser app's server: an ASGI application (Starlette) with one WebSocket endpoint.

``create_app(data_dir)`` builds it; ``ginrummy serve`` runs it under uvicorn.  Pages and assets
come from the package (``ginrummy/web/static``, nothing from a CDN).  Play goes through ``/ws``:
the client sends small JSON requests (:mod:`ginrummy.web.protocol`), the server answers each
connection with its own seat's observation only (:mod:`ginrummy.web.tables`).

HTTP routes: ``/`` (the app), ``/join/<invite>`` (the app, opened on an invitation),
``/stats`` (the app's statistics page), ``/static/...``, ``/api/info`` (variants, options,
computer players), and, for the person at this computer only (a loopback client),
``/api/saved`` and ``/api/stats``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..agents import available_agents
from ..errors import GinRummyError, StoreError
from ..options import VARIANTS, option_help
from ..store import Store
from .protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, TABLE_VARIANTS, ProtocolError, RateLimiter, validate
from .tables import Table, TableManager, Tap, default_opponent, dumps

__all__ = ["STATIC_DIR", "Connection", "create_app", "is_loopback", "is_owner"]

log = logging.getLogger("ginrummy.web")
STATIC_DIR = Path(__file__).parent / "static"
SEND_QUEUE = 256  # messages waiting for a slow client before it is disconnected

_SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # invitation links stay out of other sites' logs
    (b"x-frame-options", b"DENY"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


def is_loopback(host: str | None) -> bool:
    """True for a client on this computer (127.0.0.0/8 or ::1)."""
    if not host:
        return False
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def is_owner(client_host: str | None, host_header: str | None) -> bool:
    """The person at the computer running the server: a loopback client that asked for a loopback
    name.  (Checking the Host header too keeps a DNS-rebinding page from passing as the owner.)"""
    if not is_loopback(client_host) or not host_header:
        return False
    return is_loopback(urlsplit("//" + host_header).hostname)


class Connection:
    """One WebSocket client: its seat (once attached), its rate limit and its send queue."""

    _next_id = 0

    def __init__(self, websocket: WebSocket, *, owner: bool, rate: float, burst: float, tap: Tap | None) -> None:
        Connection._next_id += 1
        self.id = Connection._next_id
        self.websocket = websocket
        self.owner = owner  # on this computer: may list and resume saved games
        self.limiter = RateLimiter(rate, burst)
        self.table: Table | None = None
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self.tap = tap
        self.overflow = False

    def send(self, msg: dict[str, Any]) -> None:
        """Queue one message for this client (never blocks the game)."""
        text = dumps(msg)
        if self.tap is not None:
            self.tap(self, msg, text)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflow = True  # the client stopped reading: drop it, it will reconnect

    def error(self, code: str, message: str, *, ref: str | None = None, seq: int | None = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            msg["ref"] = ref
        if seq is not None:
            msg["seq"] = seq
        self.send(msg)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.overflow:
                with contextlib.suppress(Exception):
                    await self.websocket.close(code=1008 if self.overflow else 1000)
                return
            await self.websocket.send_text(text)


class SecurityHeaders:
    """Adds a strict Content-Security-Policy and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]], send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    data_dir: str | os.PathLike[str] | None = None,
    *,
    store: Store | None = None,
    computer_delay: float = 0.6,
    rate: float = 20.0,
    burst: float = 40.0,
    tap: Tap | None = None,
    workers: int = 0,
) -> Starlette:
    """The browser app.  ``data_dir`` (or ``store``) is where games are saved, shared with the
    terminal app; ``computer_delay`` paces the computer players' moves (seconds); ``rate`` and
    ``burst`` limit each connection's messages; ``tap`` (tests) sees every message sent;
    ``workers`` is the number of processes in which computer players and hints think (0: in the
    server's own event loop)."""
    if store is None:
        store = Store(data_dir)
    manager = TableManager(store, computer_delay=computer_delay, tap=tap, workers=workers)

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
        variants = {}
        for v in VARIANTS:
            variants[v] = {
                "options": [
                    {"name": n, "default": d, "doc": doc, "choices": list(choices)}
                    for n, d, doc, choices in option_help(v)
                ],
                "agents": available_agents(v) if v not in ("solitaire", "gin-solitaire") else [],
                "default_agent": default_opponent(v),
            }
        return JSONResponse(
            {
                "protocol": PROTOCOL_VERSION,
                "variants": variants,
                "table_variants": list(TABLE_VARIANTS),
                "max_message_bytes": MAX_MESSAGE_BYTES,
                "owner": is_owner(request.client.host if request.client else None, request.headers.get("host")),
            }
        )

    def owner_only(request: Request) -> Response | None:
        if not is_owner(request.client.host if request.client else None, request.headers.get("host")):
            return JSONResponse({"error": "only on the computer running the server"}, status_code=403)
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
            out.append(g.to_json())
        return JSONResponse({"games": out})

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
            return {"variants": store.stats(), "history": {v: h[-200:] for v, h in history.items()}}

        try:
            return JSONResponse(await asyncio.to_thread(collect))
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=500)

    async def websocket_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if origin and host and urlsplit(origin).netloc != host:
            await websocket.close(code=1008)  # another site's page may not play in your name
            return
        await websocket.accept()
        client_host = websocket.client.host if websocket.client else None
        owner = is_owner(client_host, host)
        conn = Connection(websocket, owner=owner, rate=rate, burst=burst, tap=tap)
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

    async def handle(conn: Connection, raw: str | bytes) -> None:
        """Validate one message and carry it out; any problem goes back as an ``error``."""
        seq: int | None = None
        kind: str | None = None
        try:
            if not conn.limiter.allow():
                raise ProtocolError("rate_limited", f"too many messages: slow down (at most {rate:g} a second)")
            msg = validate(raw)
            kind, seq = msg["type"], msg.get("seq")
            await dispatch(conn, msg)
        except ProtocolError as exc:
            conn.error(exc.code, exc.message, ref=kind, seq=seq)
        except GinRummyError as exc:
            conn.error("rejected", str(exc), ref=kind, seq=seq)
        except Exception:  # a bug: log it, tell the client, keep the connection
            log.exception("error handling a %s message", kind)
            conn.error("server_error", "the server failed on this message; the game is unchanged", ref=kind, seq=seq)

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
            "invite": table.invite,
        }
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
        if kind == "new":
            table, seat, token = await manager.create_solo(
                msg["variant"], msg.get("options"), msg.get("opponent"), msg.get("name")
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
                raise ProtocolError("not_allowed", "saved games can be resumed only on the computer running the server")
            table, seat, token = await manager.resume(msg["game"])
            await seat_client(conn, table, seat, token)
            return
        if conn.table is None or conn.seat is None:
            raise ProtocolError("no_seat", "take a seat first: send hello, new, create_table or join")
        table, seat = conn.table, conn.seat
        if kind == "act":
            await manager.act(table, seat, msg["action"], conn, seq)
        elif kind == "deal":
            await manager.deal(table, seat, conn, seq)
        elif kind == "hint":
            advice = await manager.hint(table, seat)
            conn.send({**advice, **({"seq": seq} if seq is not None else {})})
        elif kind == "suggest":
            await manager.suggest(table, seat, msg["action"], msg.get("text"), conn, seq)
        else:  # pragma: no cover - validate() knows every type
            raise ProtocolError("bad_message", f"unknown message type {kind!r}")

    routes = [
        Route("/", page),
        Route("/stats", page),
        Route("/join/{invite}", page),
        Route("/api/info", info),
        Route("/api/saved", saved),
        Route("/api/stats", stats),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    app.state.manager = manager
    app.state.store = store
    return app

"""The browser app's outermost layer: the names the server answers (against DNS rebinding), the
owner (the person at this computer), WebSocket origins, and the security headers on every response."""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette

from .. import i18n
from ..i18n import N_

__all__ = [
    "CSP",
    "FORWARDING",
    "LOCAL_NAMES",
    "SECURITY_HEADERS",
    "Guard",
    "GuardedStarlette",
    "HostPolicy",
    "is_loopback",
    "is_owner",
    "same_origin",
]
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # invitation links stay out of other sites' logs
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=(), usb=()"),
]
FORWARDING = (  # headers a proxy adds: a request carrying one is never the owner
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-real-ip",
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str | None) -> bool:
    """True for a client on this computer (127.0.0.0/8 or ::1)."""
    if not host:
        return False
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def host_name(host_header: str | None) -> str | None:
    """The name in a Host header (lower case, without the port or brackets), or None if malformed."""
    if not host_header:
        return None
    try:
        name = urlsplit("//" + host_header).hostname
        urlsplit("//" + host_header).port  # noqa: B018 - raises on a bad port
    except ValueError:
        return None
    return name or None


def is_owner(client_host: str | None, host_header: str | None) -> bool:
    """The person at the computer running the server: a loopback client that asked for a loopback
    name.  (Checking the Host header too keeps a DNS-rebinding page from passing as the owner.)"""
    if not is_loopback(client_host) or not host_header:
        return False
    return is_loopback(host_name(host_header))


class HostPolicy:
    """Which Host headers the server answers: the names it is served as.  Always the loopback
    names (``localhost``, ``127.0.0.1``, ``[::1]``); the ``--host`` name; each ``--allowed-host``;
    and, when listening on every interface (``0.0.0.0``/``::``), any IP address written as such
    (a page can be rebound to this server only through a *name*, never through an address).
    Anything else is refused: that is how a DNS-rebinding page is kept out."""

    def __init__(self, names: Iterable[str] = (), *, any_address: bool = False) -> None:
        self.names = frozenset(n.strip().lower().strip("[]") for n in names if n.strip())
        self.any_address = any_address

    def allows(self, host_header: str | None) -> bool:
        name = host_name(host_header)
        if name is None:
            return False
        if name in LOCAL_NAMES or name in self.names:
            return True
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return False
        return address.is_loopback or self.any_address


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _said(scope: Scope, message: str) -> bytes:
    """A refusal's text (``message``, marked with ``N_``) as one line of UTF-8, in the language the
    request asks for: ``?lang=``, else its ``Accept-Language``."""
    asked = parse_qs(bytes(scope.get("query_string") or b"").decode("latin-1")).get("lang", [None])[-1]
    lang = i18n.normalize_language(asked) or i18n.accept_language(_header(scope, b"accept-language"))
    with i18n.using(lang):
        return (i18n._(message) + "\n").encode("utf-8")


class Guard:
    """The outermost layer: refuses requests for a host the server is not served as and WebSockets
    opened by pages of other sites, and adds the security headers to every HTTP response, error
    pages included."""

    def __init__(self, app: ASGIApp, hosts: HostPolicy) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            host = _header(scope, b"host")
            origin = _header(scope, b"origin")
            if not self.hosts.allows(host):
                await self._refuse(
                    scope, send, _said(scope, N_("unknown host: this server answers only the names it is served as"))
                )
                return
            if origin is not None and not same_origin(origin, host):
                await self._refuse(
                    scope, send, _said(scope, N_("a page of another site may not open this server's WebSocket"))
                )
                return
            await self.app(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, body: bytes) -> None:
        """Refuse a WebSocket before the handshake: a 403 with the security headers where the
        server can send one, else a plain close."""
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", b"%d" % len(body))]
        await send({"type": "websocket.http.response.start", "status": 403, "headers": headers + SECURITY_HEADERS})
        await send({"type": "websocket.http.response.body", "body": body})

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in _OURS]
                headers += SECURITY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        if not self.hosts.allows(_header(scope, b"host")):
            body = _said(
                scope, N_("unknown host: this server answers only the names it is served as (see --allowed-host)")
            )
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"content-length", b"%d" % len(body)),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_with_headers)


_OURS = {name for name, _ in SECURITY_HEADERS} | {b"cache-control"}


def same_origin(origin: str, host_header: str | None) -> bool:
    """A WebSocket's ``Origin`` names this very server (the page came from here)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(host_header) and parts.netloc.lower() == str(host_header).lower()


class GuardedStarlette(Starlette):
    """Starlette with :class:`Guard` outside everything, even the error handler: a 500 carries the
    security headers too."""

    hosts: HostPolicy = HostPolicy()

    def build_middleware_stack(self) -> ASGIApp:
        return Guard(super().build_middleware_stack(), self.hosts)

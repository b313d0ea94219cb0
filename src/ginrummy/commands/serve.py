"""``ginrummy serve``: the browser app on a local web server (uvicorn).

It listens on 127.0.0.1 (this computer only) unless ``--host`` opens it to others, e.g.
``--host 0.0.0.0`` to invite friends on the same network: then the invitation links show this
computer's address on the network.  ``--certfile``/``--keyfile`` serve HTTPS; ``--behind-proxy``
is for a reverse proxy on this computer (nobody is taken for the owner; the proxy's
``X-Forwarded-For`` names each client).  Only the names given by ``--host`` and ``--allowed-host``
(and the loopback names) are answered: a DNS-rebinding page gets nothing.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import ssl
import sys
from typing import Any

from ..errors import system_reason
from ..i18n import _


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1: this computer only)")
    )
    p.add_argument("--port", type=int, default=8000, help=_("port to listen on (default 8000; 0 picks a free one)"))
    p.add_argument(
        "--computer-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help=_("pause before each computer move so people can follow (default 0.6)"),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help=_("processes for the computer players and hints (default: one fewer than the cores, 1 to 4)"),
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help=_("a host name the server is reached by (repeatable), e.g. the name of this computer or of a proxy"),
    )
    p.add_argument("--certfile", metavar="PEM", help=_("serve HTTPS with this certificate (with --keyfile)"))
    p.add_argument("--keyfile", metavar="PEM", help=_("the certificate's private key"))
    p.add_argument(
        "--behind-proxy",
        action="store_true",
        help=_("a reverse proxy on this computer forwards the visitors (see docs/web.md): nobody is the owner"),
    )
    p.add_argument(
        "--replace-after",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help=_("how long a friend may be away before the table's creator may give the seat away (default 120)"),
    )
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    # tests: every deal follows from this seed (deals become predictable: never for real games)
    p.add_argument("--test-deal-seed", type=int, default=None, help=argparse.SUPPRESS)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET
    try:
        if ipaddress.ip_address(host).version == 6:
            family = socket.AF_INET6
    except ValueError:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)  # connections made before uvicorn starts wait in the backlog
    sock.set_inheritable(True)
    return sock


def _is_local(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def lan_address(probe: str = "192.0.2.1", family: int = socket.AF_INET) -> str | None:
    """This computer's address on its network, or None.  A UDP socket ``connect`` only asks the
    kernel which interface would route to ``probe``: no packet is sent (the default probe is a
    documentation address, TEST-NET-1)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            address = str(s.getsockname()[0])
    except OSError:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return None if ip.is_unspecified else address


def shown_address(bound_host: str, lan: str | None) -> str:
    """The address to print and to put in invitation links for a server bound to ``bound_host``."""
    if bound_host in ("0.0.0.0", "::"):
        if lan is not None:
            return f"[{lan}]" if ":" in lan else lan
        return "127.0.0.1" if bound_host == "0.0.0.0" else "[::1]"
    return f"[{bound_host}]" if ":" in bound_host else bound_host


def network_settings(
    args: argparse.Namespace, bound_host: str, bound_port: int, lan: str | None
) -> tuple[str, dict[str, Any]]:
    """The address to show (``http://HOST:PORT``) and the app's network settings: the host names
    it answers, whether any IP address may be asked for (listening on every interface), proxy
    mode, and the address for invitation links made on this computer."""
    wildcard = bound_host in ("0.0.0.0", "::")
    scheme = "https" if args.certfile else "http"
    base = f"{scheme}://{shown_address(bound_host, lan)}:{bound_port}"
    names = [*args.allowed_host]
    if not wildcard:
        names.append(args.host)
    return base, {
        "allowed_hosts": names,
        "any_address": wildcard,
        "behind_proxy": args.behind_proxy,
        "invite_base": base if wildcard and lan is not None and not args.behind_proxy else None,
    }


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..errors import StoreError
    from ..web import create_app

    if not 0 <= args.port <= 65535:
        print(
            "ginrummy serve: " + _("--port must be from 0 to 65535, got {port}").format(port=args.port), file=sys.stderr
        )
        return 2
    if args.computer_delay < 0 or args.computer_delay > 10:
        print("ginrummy serve: " + _("--computer-delay must be from 0 to 10 seconds"), file=sys.stderr)
        return 2
    workers = args.workers if args.workers is not None else max(1, min(4, (os.cpu_count() or 2) - 1))
    if not 0 <= workers <= 32:
        print("ginrummy serve: " + _("--workers must be from 0 to 32"), file=sys.stderr)
        return 2
    if bool(args.certfile) != bool(args.keyfile):
        print("ginrummy serve: " + _("HTTPS needs both --certfile and --keyfile"), file=sys.stderr)
        return 2
    for path in (args.certfile, args.keyfile):
        if path and not os.path.isfile(path):
            print("ginrummy serve: " + _("no such file: {path}").format(path=path), file=sys.stderr)
            return 2
    if not 0 <= args.replace_after <= 86400:
        print("ginrummy serve: " + _("--replace-after must be from 0 to 86400 seconds"), file=sys.stderr)
        return 2
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(
            "ginrummy serve: "
            + _("cannot listen on {address}: {error}").format(
                address=f"{args.host}:{args.port}", error=system_reason(exc)
            ),
            file=sys.stderr,
        )
        return 1
    bound_host, bound_port = sock.getsockname()[:2]
    wildcard = bound_host in ("0.0.0.0", "::")
    lan = lan_address(family=sock.family) if wildcard else None
    base, network = network_settings(args, bound_host, bound_port, lan)
    scheme = "https" if args.certfile else "http"
    try:
        app = create_app(
            getattr(args, "data_dir", None),
            computer_delay=args.computer_delay,
            workers=workers,
            replace_after=args.replace_after,
            deal_seed=args.test_deal_seed,
            **network,
        )
    except StoreError as exc:
        sock.close()
        print(f"ginrummy serve: {exc}", file=sys.stderr)
        return 1
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=16 * 1024,  # the protocol's limit is 4 KiB; bigger frames are refused outright
        ws_per_message_deflate=False,  # messages are small; compressing each costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
        # X-Forwarded-For is believed only in proxy mode, and only from a proxy on this computer
        proxy_headers=args.behind_proxy,
        forwarded_allow_ips="127.0.0.1,::1" if args.behind_proxy else None,
        ssl_certfile=args.certfile,
        ssl_keyfile=args.keyfile,
        timeout_graceful_shutdown=10,
    )
    try:
        config.load()  # reads the certificate now, so that a bad one is one clear line
    except (OSError, ssl.SSLError) as exc:
        sock.close()
        print(
            "ginrummy serve: " + _("cannot use the certificate: {error}").format(error=system_reason(exc)),
            file=sys.stderr,
        )
        return 1
    print("ginrummy: " + _("serving the browser app at {url}  (Ctrl-C to stop)").format(url=f"{base}/"), flush=True)
    if wildcard:
        here = f"{scheme}://127.0.0.1:{bound_port}/"
        address = _("<this computer's address>")
        there = f"{base}/" if lan is not None else f"{scheme}://{address}:{bound_port}/"
        print(
            "ginrummy: "
            + _("friends on your network open {there} ; on this computer {here}").format(there=there, here=here),
            flush=True,
        )
    elif not _is_local(args.host):
        print(
            "ginrummy: " + _("listening on {host}: other computers open {url}").format(host=args.host, url=f"{base}/"),
            flush=True,
        )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0

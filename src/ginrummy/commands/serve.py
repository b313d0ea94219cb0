"""``ginrummy serve``: the browser app on a local web server (uvicorn).

It listens on 127.0.0.1 (this computer only) unless ``--host`` opens it to others, e.g.
``--host 0.0.0.0`` to invite friends on the same network.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    p.add_argument(
        "--computer-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each computer move so people can follow (default 0.6)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for the computer players and hints (default: one fewer than the cores, 1 to 4)",
    )
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])


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


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..errors import StoreError
    from ..web import create_app

    if not 0 <= args.port <= 65535:
        print(f"ginrummy serve: --port must be from 0 to 65535, got {args.port}", file=sys.stderr)
        return 2
    if args.computer_delay < 0 or args.computer_delay > 10:
        print("ginrummy serve: --computer-delay must be from 0 to 10 seconds", file=sys.stderr)
        return 2
    workers = args.workers if args.workers is not None else max(1, min(4, (os.cpu_count() or 2) - 1))
    if not 0 <= workers <= 32:
        print("ginrummy serve: --workers must be from 0 to 32", file=sys.stderr)
        return 2
    try:
        app = create_app(getattr(args, "data_dir", None), computer_delay=args.computer_delay, workers=workers)
    except StoreError as exc:
        print(f"ginrummy serve: {exc}", file=sys.stderr)
        return 1
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"ginrummy serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    bound_host, bound_port = sock.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    if bound_host in ("0.0.0.0", "::"):
        shown = "127.0.0.1" if bound_host == "0.0.0.0" else "[::1]"
    print(f"ginrummy: serving the browser app at http://{shown}:{bound_port}/  (Ctrl-C to stop)", flush=True)
    if not _is_local(args.host):
        print(
            f"ginrummy: listening on {args.host}: other computers on your network can open it at "
            f"http://<this computer's address>:{bound_port}/ (invitation links show the address you use)",
            flush=True,
        )
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=16 * 1024,  # the protocol's limit is 4 KiB; bigger frames are refused outright
        ws_per_message_deflate=False,  # messages are small; compressing each costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0

"""``ginrummy serve`` as a process on a free loopback port: no worker process until one is needed,
none left behind after SIGTERM or after the server is killed, HTTPS, the host names it answers,
proxy mode, and the address it shows for playing across a room.  Every wait polls a condition
with a deadline; only loopback addresses are ever contacted."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.commands.serve import lan_address, network_settings, shown_address

DEADLINE = 30.0  # seconds: generous for a loaded 2-core machine; the waits end as soon as the condition holds


def wait_for(what: str, cond: Callable[[], Any], timeout: float = DEADLINE) -> Any:
    end = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None if it is gone (a zombie counts as gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    state, ppid = fields[0], int(fields[1])
    return None if state in ("Z", "X") else (ppid, state)


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None:
                parents[int(entry)] = st[0]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def workers_of(pid: int) -> set[int]:
    """The server's worker processes (multiprocessing's spawned children)."""
    out = set()
    for child in descendants(pid):
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:
            out.add(child)
    return out


def some(pids: set[int]) -> set[int] | None:
    return pids or None


def alive(pids: set[int]) -> set[int]:
    return {p for p in pids if _stat(p) is not None}


class Serve:
    """``ginrummy serve`` in a subprocess on a free loopback port."""

    def __init__(self, data_dir: Path, *extra: str) -> None:
        cmd = [
            sys.executable,
            "-m",
            "ginrummy.cli",
            "--data-dir",
            str(data_dir),
            "serve",
            "--port",
            "0",
            "--computer-delay",
            "0",
            "--test-deal-seed",
            "7",
            *extra,
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.first_line = self.proc.stdout.readline()
        m = re.search(r"(https?)://127\.0\.0\.1:(\d+)/", self.first_line)
        assert m, (self.first_line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.scheme, self.port = m.group(1), int(m.group(2))
        self.url = f"{self.scheme}://127.0.0.1:{self.port}"

    def get(self, path: str, headers: dict[str, str] | None = None, context: Any = None) -> tuple[int, Any, bytes]:
        req = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=5, context=context) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def wait_up(self, context: Any = None) -> None:
        def up() -> bool:
            try:
                return self.get("/api/info", context=context)[0] == 200
            except OSError:
                return False

        wait_for("the server to answer", up)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Serve]]:
    started: list[Serve] = []

    def start(*extra: str) -> Serve:
        s = Serve(tmp_path / "data", *extra)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def play_against_the_computer(port: int) -> None:
    """Open a game against a computer player (which starts the worker processes) and deal."""
    connect = pytest.importorskip("websockets.sync.client").connect  # websockets >= 11 (uvicorn[standard])

    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "new", "variant": "classic", "opponent": "greedy"}))
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
        ws.send(json.dumps({"type": "deal", "seq": 1}))
        while json.loads(ws.recv(timeout=10)).get("seq") != 1:
            pass


def test_no_worker_until_needed_and_none_left_after_sigterm(serve: Callable[..., Serve]) -> None:
    s = serve("--workers", "1")
    s.wait_up()
    assert workers_of(s.proc.pid) == set()  # an idle server starts no worker process (issue 16 item 6)
    play_against_the_computer(s.port)
    workers = wait_for("a worker process", lambda: some(workers_of(s.proc.pid)))
    everything = descendants(s.proc.pid)
    assert workers <= everything
    s.proc.send_signal(signal.SIGTERM)
    code = s.proc.wait(DEADLINE)
    assert code in (0, -signal.SIGTERM), code  # uvicorn stops cleanly, then re-raises SIGTERM
    wait_for("every child of the server to end", lambda: not alive(everything))
    assert "Traceback" not in (s.proc.stderr.read() if s.proc.stderr else "")


def test_workers_end_when_the_server_is_killed(serve: Callable[..., Serve]) -> None:
    s = serve("--workers", "1")
    s.wait_up()
    play_against_the_computer(s.port)
    workers = wait_for("a worker process", lambda: some(workers_of(s.proc.pid)))
    everything = descendants(s.proc.pid)
    s.proc.kill()  # SIGKILL: the server cannot stop anything itself
    s.proc.wait(DEADLINE)
    wait_for("the orphaned workers to notice and end", lambda: not alive(workers))
    wait_for("every child of the server to end", lambda: not alive(everything))


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_https_allowed_hosts_and_proxy_mode(serve: Callable[..., Serve], certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    s = serve(
        "--workers", "0", "--certfile", str(cert), "--keyfile", str(key), "--allowed-host", "games.example",
        "--allowed-host", "cards.example", "--behind-proxy",
    )  # fmt: skip
    assert s.scheme == "https"
    context = ssl.create_default_context(cafile=str(cert))
    s.wait_up(context)
    status, headers, body = s.get("/api/info", context=context)
    assert status == 200 and "connect-src 'self'" in headers["content-security-policy"]
    assert json.loads(body)["owner"] is False  # behind a proxy nobody is taken for the owner
    assert s.get("/api/saved", context=context)[0] == 403
    assert s.get("/api/saved", {"x-forwarded-for": "192.0.2.4"}, context)[0] == 403
    for name in ("games.example", "cards.example:443"):
        assert s.get("/", {"host": name}, context)[0] == 200
    status, headers, body = s.get("/", {"host": "rebind.evil.example"}, context)
    assert status == 400 and b"unknown host" in body and "x-frame-options" in headers
    # WebSockets: this server's own page may connect (wss), another site's page gets a 403 with the headers.
    # (websockets' asyncio client, not its threaded one: over TLS the threaded client reads in one
    # thread while it writes the handshake request in another, and in about one connection in ten
    # here the request never reached the server, which sat idle until the client gave up.)
    connect = pytest.importorskip("websockets.asyncio.client").connect
    InvalidStatus = pytest.importorskip("websockets.exceptions").InvalidStatus

    async def welcome() -> Any:
        async with connect(f"wss://127.0.0.1:{s.port}/ws", ssl=context, origin=s.url, open_timeout=10) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 10))["type"]

    async def refused() -> Any:
        with pytest.raises(InvalidStatus) as got:
            await connect(f"wss://127.0.0.1:{s.port}/ws", ssl=context, origin="https://evil.example", open_timeout=10)
        return got.value.response

    assert asyncio.run(welcome()) == "welcome"
    response = asyncio.run(refused())
    assert response.status_code == 403
    assert "connect-src 'self'" in response.headers["content-security-policy"]
    # plain HTTP to the HTTPS port gets nowhere
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{s.port}/", timeout=5).read()


def test_a_bad_certificate_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a certificate\n")
    args = ["--data-dir", str(tmp_path / "d"), "serve", "--port", "0", "--certfile", str(bad), "--keyfile", str(bad)]
    run = subprocess.run([sys.executable, "-m", "ginrummy.cli", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("ginrummy serve: cannot use the certificate")
    half = ["--data-dir", str(tmp_path / "d"), "serve", "--certfile", str(bad)]
    run = subprocess.run([sys.executable, "-m", "ginrummy.cli", *half], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "both --certfile and --keyfile" in run.stderr


def _args(**kw: Any) -> argparse.Namespace:
    base = {"host": "127.0.0.1", "allowed_host": [], "certfile": None, "behind_proxy": False}
    return argparse.Namespace(**{**base, **kw})


def test_the_address_shown_for_playing_across_a_room() -> None:
    # the kernel's routing answer for a loopback probe: no packet leaves this computer
    assert lan_address("127.0.0.1") == "127.0.0.1"
    assert shown_address("0.0.0.0", "192.168.1.5") == "192.168.1.5"
    assert shown_address("0.0.0.0", None) == "127.0.0.1"
    assert shown_address("::", "fe80::1") == "[fe80::1]"
    assert shown_address("192.168.1.5", None) == "192.168.1.5"
    base, net = network_settings(_args(host="0.0.0.0"), "0.0.0.0", 8000, "192.168.1.5")
    assert base == "http://192.168.1.5:8000" and net["invite_base"] == base and net["any_address"] is True
    base, net = network_settings(_args(host="0.0.0.0", certfile="c.pem"), "0.0.0.0", 8443, "10.0.0.2")
    assert base == "https://10.0.0.2:8443" and net["invite_base"] == base
    base, net = network_settings(_args(allowed_host=["games.example"]), "127.0.0.1", 8000, None)
    assert base == "http://127.0.0.1:8000" and net["invite_base"] is None and net["any_address"] is False
    assert net["allowed_hosts"] == ["games.example", "127.0.0.1"]
    _, net = network_settings(_args(host="0.0.0.0", behind_proxy=True), "0.0.0.0", 8000, "192.168.1.5")
    assert net["invite_base"] is None and net["behind_proxy"] is True  # visitors use the proxy's name

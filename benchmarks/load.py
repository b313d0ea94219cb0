"""Load test of the browser app's server: N WebSocket clients on loopback playing hands at once.

    python benchmarks/load.py                      # 200 clients, solitaire and classic vs computer
    python benchmarks/load.py --clients 50 --variant classic --duration 30 --json

It starts ``ginrummy serve`` in its own process on a free 127.0.0.1 port (fresh data directory,
no pause before computer moves) unless ``--url`` names a server already running on this computer.
Only loopback addresses are accepted.  Clients arrive over ``--ramp`` seconds; each creates a
game, deals, and plays until its hands are done or the hard time limit is reached, pausing
``--think-min``..``--think-max`` seconds between actions (default 1 to 3 s, a person's pace; use
``--think-min 0.3 --think-max 1`` for quick players, ``0.05`` and ``0.05`` (the rate limit's pace)
to find the saturation point).

Latency is measured per request: from sending an ``act`` or ``deal`` message with a sequence
number to receiving the server's reply carrying that number.  Reported: actions a second,
p50/p90/p99/max latency, and errors (error replies, timeouts, dropped connections).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import websockets

from ginrummy.cards import Card, CardSet
from ginrummy.melds import deadwood_after_discards


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)  # seconds, one per act/deal request
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (when sent, latency)
    actions: int = 0
    hands: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    connected: int = 0


def choose(obs: dict[str, Any], rng: random.Random) -> str:
    legal = obs["legal_actions"]
    ends = [a for a in legal if a.startswith(("gin", "knock"))]
    if ends:
        return ends[0]
    for a in ("draw", "pass"):
        if a in legal:
            return a
    discards = [a for a in legal if a.startswith("discard")]
    if not discards:
        return legal[0]
    mask = int(CardSet.of(Card.parse(c) for c in obs["hand"]))
    after = {str(c): d for c, d in deadwood_after_discards(mask).items()}
    return min(discards, key=lambda a: (after.get(a.split()[1], 999), rng.random()))


class Player:
    """One scripted client."""

    def __init__(self, url: str, variant: str, hands: int, think: tuple[float, float], seed: int, t: Totals) -> None:
        self.url, self.variant, self.hands, self.think = url, variant, hands, think
        self.rng = random.Random(seed)
        self.t = t
        self.seq = 0
        self.obs: dict[str, Any] | None = None
        self.ws: Any = None

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg.get("type") == "state":
            self.obs = msg["obs"]
        return msg

    async def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        start = time.perf_counter()
        await self.ws.send(json.dumps({**msg, "seq": self.seq}))
        while True:
            reply = await self.recv()
            if reply.get("seq") == self.seq:
                took = time.perf_counter() - start
                self.t.latencies.append(took)
                self.t.by_kind.setdefault(msg["type"], []).append(took)
                self.t.timeline.append((start, took))
                if reply["type"] == "error":
                    self.t.errors.append(f"{msg['type']}: {reply['code']}: {reply['message']}")
                return reply

    async def wait_turn(self) -> dict[str, Any]:
        while True:
            obs = self.obs
            assert obs is not None
            if obs["to_act"] or obs["phase"] in ("deal", "over"):
                return obs
            await self.recv()

    async def run(self, deadline: float, start_after: float = 0.0) -> None:
        await asyncio.sleep(start_after)  # clients arrive over the ramp, not all in the same instant
        try:
            async with websockets.connect(self.url, max_size=2**20, open_timeout=20) as ws:
                self.ws = ws
                self.t.connected += 1
                await self.recv()  # welcome
                await ws.send(json.dumps({"type": "new", "variant": self.variant}))
                while (await self.recv())["type"] != "state":
                    pass
                self.t.games += 1
                for _ in range(self.hands):
                    if time.monotonic() > deadline or self.obs is None or self.obs["game_over"]:
                        break
                    reply = await self.request({"type": "deal"})
                    if reply["type"] == "error":
                        break
                    while time.monotonic() < deadline:
                        obs = await self.wait_turn()
                        if obs["phase"] in ("deal", "over"):
                            self.t.hands += 1
                            break
                        await asyncio.sleep(self.rng.uniform(*self.think))
                        await self.request({"type": "act", "action": choose(obs, self.rng)})
                        self.t.actions += 1
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            self.t.errors.append(f"connection: {type(exc).__name__}: {exc}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def start_server(data_dir: str) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "ginrummy.cli", "--data-dir", data_dir, "serve", "--port", "0"]
    cmd += ["--computer-delay", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://(127\.0\.0\.1:\d+)/", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, f"ws://{m.group(1)}/ws"


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time (user + system) of a process, and of its children still running (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    own = children = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            used = (int(fields[11]) + int(fields[12])) / tick
            if p == pid:
                own = used
            else:
                children += used
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError, IndexError):
            continue
    return own, children


def loopback_only(url: str) -> str:
    host = urlsplit(url).hostname or ""
    try:
        ok = ipaddress.ip_address(host).is_loopback
    except ValueError:
        ok = host == "localhost"
    if not ok:
        raise SystemExit(f"load tests target this computer only (127.0.0.1, ::1, localhost), not {host!r}")
    return url


async def main_async(args: argparse.Namespace, url: str, server_pid: int | None = None) -> dict[str, Any]:
    t = Totals()
    if server_pid:
        await asyncio.sleep(3)  # let the worker processes finish starting
    cpu0 = cpu_seconds(server_pid) if server_pid else (0.0, 0.0)
    variants = ["solitaire", "classic"] if args.variant == "mixed" else [args.variant]
    deadline = time.monotonic() + args.duration
    players = [
        Player(url, variants[i % len(variants)], args.hands, (args.think_min, args.think_max), args.seed + i, t)
        for i in range(args.clients)
    ]
    start = time.perf_counter()
    tasks = [asyncio.create_task(p.run(deadline, args.ramp * i / len(players))) for i, p in enumerate(players)]
    _done, pending = await asyncio.wait(tasks, timeout=args.duration + 15)  # the hard limit
    for task in pending:
        task.cancel()
        t.errors.append("client still running at the hard time limit")
    elapsed = time.perf_counter() - start
    cpu1 = cpu_seconds(server_pid) if server_pid else (0.0, 0.0)
    server_cpu = cpu1[0] - cpu0[0] if server_pid else None
    worker_cpu = cpu1[1] - cpu0[1] if server_pid else None
    lat_ms = [x * 1000 for x in t.latencies]
    return {
        "clients": args.clients,
        "connected": t.connected,
        "variant": args.variant,
        "games": t.games,
        "hands": t.hands,
        "actions": t.actions,
        "requests": len(lat_ms),
        "seconds": round(elapsed, 2),
        "actions_per_second": round(t.actions / elapsed, 1) if elapsed else 0.0,
        "requests_per_second": round(len(lat_ms) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {
            "p50": round(percentile(lat_ms, 50), 2),
            "p90": round(percentile(lat_ms, 90), 2),
            "p99": round(percentile(lat_ms, 99), 2),
            "max": round(max(lat_ms), 2) if lat_ms else None,
            "mean": round(statistics.fmean(lat_ms), 2) if lat_ms else None,
        },
        "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 2),
        "worker_cpu_seconds": None if worker_cpu is None else round(worker_cpu, 2),
        "server_cpu_ms_per_request": round(1000 * server_cpu / len(lat_ms), 2) if server_cpu and lat_ms else None,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "latency_ms_by_request": {
            kind: {
                "n": len(v),
                "p50": round(percentile([x * 1000 for x in v], 50), 2),
                "p99": round(percentile([x * 1000 for x in v], 99), 2),
            }
            for kind, v in t.by_kind.items()
        },
        "p99_ms_by_10s": [
            round(percentile([lat * 1000 for s, lat in t.timeline if w <= s - start < w + 10], 99), 1)
            for w in range(0, int(elapsed) + 1, 10)
        ],
        "errors": len(t.errors),
        "error_samples": sorted(set(t.errors))[:5],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=200, help="concurrent WebSocket clients (default 200)")
    p.add_argument("--hands", type=int, default=3, help="hands each client plays (default 3)")
    p.add_argument("--variant", default="mixed", choices=["mixed", "solitaire", "gin-solitaire", "classic"])
    p.add_argument("--duration", type=float, default=60.0, help="hard time limit in seconds (default 60)")
    p.add_argument("--think-min", type=float, default=1.0, help="shortest pause between actions (default 1 s)")
    p.add_argument("--think-max", type=float, default=3.0, help="longest pause between actions (default 3 s)")
    p.add_argument("--ramp", type=float, default=5.0, help="seconds over which the clients arrive (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--url", help="a server already running on this computer, e.g. ws://127.0.0.1:8000/ws")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = p.parse_args(argv)
    if not 1 <= args.clients <= 2000 or not 1 <= args.hands <= 100 or not 1 <= args.duration <= 600:
        p.error("--clients 1..2000, --hands 1..100, --duration 1..600")
    proc = None
    with tempfile.TemporaryDirectory() as data_dir:
        if args.url:
            url = loopback_only(args.url)
        else:
            proc, url = start_server(data_dir)
        try:
            report = asyncio.run(main_async(args, url, proc.pid if proc is not None else None))
        finally:
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["latency_ms"]
        print(
            f"{report['clients']} clients ({report['connected']} connected), {report['variant']}: "
            f"{report['games']} games, {report['hands']} hands, {report['actions']} actions in {report['seconds']} s"
        )
        print(f"  {report['actions_per_second']} actions/s ({report['requests_per_second']} requests/s)")
        print(f"  latency ms: p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  max {lat['max']}")
        for kind, figs in report["latency_ms_by_request"].items():
            print(f"    {kind}: {figs['n']} requests, p50 {figs['p50']}  p99 {figs['p99']}")
        print(f"  p99 ms in each 10 s: {report['p99_ms_by_10s']}")
        if report["server_cpu_seconds"] is not None:
            print(
                f"  server CPU: {report['server_cpu_seconds']} s ({report['server_cpu_ms_per_request']} ms a request), "
                f"computer players' workers {report['worker_cpu_seconds']} s; "
                f"load average {report['load_average']:.1f} on {os.cpu_count()} cores"
            )
        print(f"  errors: {report['errors']}" + (f"  e.g. {report['error_samples']}" if report["errors"] else ""))
    return 0 if report["errors"] == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    raise SystemExit(main())

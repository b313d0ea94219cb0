"""What the Ray backend costs on one machine: ``ginrummy simulate --backend ray`` against the
default process pool, as whole processes.

    python benchmarks/ray_backend.py [--hands 2000] [--rounds 3] [--agents greedy,greedy]

Needs the ``[ray]`` extra.  In each of ``--rounds`` alternating rounds (``benchmarks/rounds.py``'s
order: reversed every other round) the same ``ginrummy simulate`` job runs once with each backend
as a child process (``--workers 2``, the same seed, so the same deals and results).  For each run:
the wall time (Ray's cost is mostly its start-up, waiting included) and the peak resident memory
of the whole process tree (the command, and for Ray its GCS server, raylet and workers), sampled
from ``/proc`` every 50 ms.  Medians and ranges over the rounds, beside the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = os.sysconf("SC_PAGE_SIZE")


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process descending from it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/statm") as f:
                resident = int(f.read().split()[1]) * PAGE
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = resident
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, ()))
    return total


def run(backend: str, args: argparse.Namespace) -> tuple[float, int]:
    """(wall seconds, peak resident bytes of the process tree) of one simulate run."""
    cmd = [sys.executable, "-c", "import sys; from ginrummy.cli import main; sys.exit(main())"]
    cmd += ["simulate", "--variant", args.variant, "--agents", args.agents, "--hands", str(args.hands)]
    cmd += ["--workers", "2", "--seed", "7", "--backend", backend, "--json"]
    env = dict(os.environ, PYTHONPATH=str(HERE.parent / "src"))
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"simulate --backend {backend} failed with status {proc.returncode}")
    return wall, peak


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--agents", default="greedy,greedy")
    args = ap.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print("ray is not installed: pip install -e '.[ray]'")
        return 1
    got: dict[str, list[tuple[float, int]]] = {"process": [], "ray": []}
    loads = []
    for r in range(args.rounds):
        loads.append(os.getloadavg()[0])
        for backend in ("process", "ray") if r % 2 == 0 else ("ray", "process"):
            got[backend].append(run(backend, args))
        last = ", ".join(f"{b} {v[-1][0]:.2f} s {v[-1][1] / 2**20:.0f} MiB" for b, v in got.items())
        print(f"  round {r + 1}: {last}")
    loads.append(os.getloadavg()[0])
    print(
        f"simulate {args.variant} {args.agents}, {args.hands} deals, 2 workers; {args.rounds} alternating rounds, "
        f"wall time, load {min(loads):.2f}-{max(loads):.2f}"
    )
    for b, v in got.items():
        walls, mems = [w for w, _ in v], [m / 2**20 for _, m in v]
        print(
            f"  {b:8} {statistics.median(walls):6.2f} s ({min(walls):.2f}-{max(walls):.2f}), "
            f"peak {statistics.median(mems):5.0f} MiB ({min(mems):.0f}-{max(mems):.0f})"
        )
    extra = [rw - pw for (rw, _), (pw, _) in zip(got["ray"], got["process"], strict=True)]
    more = [(rm - pm) / 2**20 for (_, rm), (_, pm) in zip(got["ray"], got["process"], strict=True)]
    print(
        f"  Ray adds {statistics.median(extra):.2f} s ({min(extra):.2f}-{max(extra):.2f}) and "
        f"{statistics.median(more):.0f} MiB ({min(more):.0f}-{max(more):.0f}) a run"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

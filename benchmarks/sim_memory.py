"""The simulator's memory over a long run: does it stay flat once the bounded caches are full?

    python benchmarks/sim_memory.py [--variant classic] [--agents random,random] [--deals 100000]
                                    [--samples 20] [--trace] [--seed 1]

Runs ``ginrummy.sim.simulate`` on one worker, in this process (a process pool's workers run the
same ``_play_chunk``; one process keeps all the memory where it can be read), and at ``--samples``
points of the run reads this process's resident memory (``/proc/self/statm``; elsewhere the peak,
``ru_maxrss``), with ``--trace`` also the bytes Python holds (``tracemalloc``: exact but about
three times slower), and how full the package's bounded caches are (every ``functools.lru_cache``
of a loaded ``ginrummy`` module, and the rules' table of discard actions per suit pattern).
It prints one line a sample and the growth in bytes a deal between samples, then the growth over
the last half of the run: a simulator whose memory is flat shows about zero there once the caches
are full (a leak shows a steady slope).  A script, not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from ginrummy.sim import SimJob, simulate

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss() -> int:
    """This process's resident memory now, in bytes (the peak where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def caches() -> dict[str, tuple[int, int | None]]:
    """Every bounded cache of the package that is loaded: name -> (entries, bound)."""
    out: dict[str, tuple[int, int | None]] = {}
    for name, mod in sorted(sys.modules.items()):
        if not name.startswith("ginrummy") or mod is None:
            continue
        for attr, value in sorted(vars(mod).items()):
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                ci = info()
                out[f"{name}.{attr}"] = (ci.currsize, ci.maxsize)
    base = sys.modules.get("ginrummy.rules.base")
    tables = getattr(base, "_SUIT_DISCARDS", None)
    if tables is not None:
        out["ginrummy.rules.base._SUIT_DISCARDS"] = (
            sum(v is not None for t in tables for v in t),
            sum(len(t) for t in tables),
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--agents", default="random,random", help="comma-separated, as ginrummy simulate takes them")
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--samples", type=int, default=20, help="memory readings over the run (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trace", action="store_true", help="also count Python's own allocations (tracemalloc)")
    args = ap.parse_args()
    agents = tuple(a for a in args.agents.split(",") if a)
    job = SimJob(args.variant, agents, args.deals, seed=args.seed)
    print(
        f"ginrummy simulator memory, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.python_implementation()} {platform.python_version()}; {args.variant} "
        f"{','.join(agents)}, {args.deals:,} deals, one worker in this process"
        + (", tracemalloc on" if args.trace else "")
    )
    if args.trace:
        tracemalloc.start()
    step = max(1, args.deals // max(1, args.samples))
    Row = tuple[int, int, int | None]  # deals done, RSS bytes, traced bytes
    rows: list[Row] = []
    half: list[Row] = []  # the first sample at or past half the run
    snaps: list[tracemalloc.Snapshot] = []
    t0 = time.process_time()
    print(
        f"{'deals':>9} {'cpu s':>8} {'RSS MiB':>9} {'B/deal':>8}"
        + (f" {'traced KiB':>11} {'B/deal':>8}" if args.trace else "")
        + f" {'cache entries':>14} {'load':>6}",
        flush=True,
    )

    def sample(done: int) -> None:
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] if args.trace else None
        row = (done, rss(), traced)
        prev = rows[-1] if rows else None
        line = f"{done:>9,} {time.process_time() - t0:>8.1f} {row[1] / 2**20:>9.1f} "
        line += f"{(row[1] - prev[1]) / (done - prev[0]):>8.0f}" if prev and done > prev[0] else f"{'':>8}"
        if traced is not None:
            line += f" {traced / 1024:>11.1f} "
            line += (
                f"{(traced - prev[2]) / (done - prev[0]):>8.0f}"
                if prev and prev[2] is not None and done > prev[0]
                else f"{'':>8}"
            )
        entries = sum(size for size, _bound in caches().values())
        print(line + f" {entries:>14,} {os.getloadavg()[0]:>6.1f}", flush=True)
        rows.append(row)
        if not half and done >= args.deals / 2:
            half.append(row)
            if args.trace:
                snaps.append(tracemalloc.take_snapshot())
        elif done == args.deals and args.trace:
            snaps.append(tracemalloc.take_snapshot())

    next_at = [step]

    def progress(done: int, total: int) -> None:
        if done >= next_at[0] or done == total:
            sample(done)
            while next_at[0] <= done:
                next_at[0] += step

    sample(0)
    result = simulate(job, workers=1, progress=progress)
    last = rows[-1]
    n = last[0] - half[0][0] if half else 0
    if n > 0:
        h = half[0]
        msg = f"last half ({h[0]:,} to {last[0]:,} deals): RSS {(last[1] - h[1]) / n:+.1f} B/deal"
        if h[2] is not None and last[2] is not None:
            msg += f", traced {(last[2] - h[2]) / n:+.1f} B/deal"
        print(msg)
    if len(snaps) == 2 and n > 0:
        print("where Python's memory grew over the last half (tracemalloc, by line, the top 6):")
        for stat in snaps[1].compare_to(snaps[0], "lineno")[:6]:
            frame = stat.traceback[0]
            where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
            print(f"  {stat.size_diff / n:+8.1f} B/deal  {stat.count_diff:+7,} blocks  {where}")
    print("bounded caches at the end:")
    for name, (size, bound) in caches().items():
        print(f"  {name}: {size:,} of {bound if bound is not None else 'unbounded'}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.1f} MiB; {result.hands_played:,} hands played")


if __name__ == "__main__":
    main()

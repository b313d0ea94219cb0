"""Running a job on a process pool (or Ray) with progress."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..errors import GinRummyError
from ..i18n import _, ngettext
from .jobs import DealOutcome, SimJob
from .play import _play_chunk
from .stats import SimResult, _Tally

# --- running -------------------------------------------------------------------------------------
Progress = Callable[[int, int], None]


def _chunks(n: int, workers: int) -> Iterator[list[int]]:
    size = max(1, min(50, n // max(1, workers * 8)))
    for i in range(0, n, size):
        yield list(range(i, min(n, i + size)))


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_cap(requested: int | None, deals: int) -> int:
    """The number of worker processes to start: as asked (default: every core), but never more
    than the cores this process may use nor more than the job's deals."""
    want = _cores() if requested is None else max(1, int(requested))
    return max(1, min(want, _cores(), deals))


def simulate(
    job: SimJob,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    backend: str = "process",
    keep_outcomes: bool | None = None,
) -> SimResult:
    """Run ``job`` on ``workers`` processes (default: every core; capped to the cores and to the
    job's deals; 1 runs in this process).

    The rows are summed up as chunks of deals come back, so memory stays flat over a long run;
    ``keep_outcomes=True`` also keeps every hand's outcome in the result (``SimResult.outcomes``);
    by default they are kept only for a job that writes records (``SimJob.records``: the records
    are in the outcomes).
    ``backend='ray'`` runs the same chunks as Ray tasks (needs the ``[ray]`` extra): the way to use
    many machines (see docs/performance.md).
    """
    job.check()
    if keep_outcomes is None:
        keep_outcomes = job.records
    if backend not in ("process", "ray"):
        raise GinRummyError(_("unknown backend {backend}; choose process or ray").format(backend=repr(backend)))
    if backend == "process":
        workers = worker_cap(workers, job.hands)
    else:
        workers = max(1, int(workers)) if workers is not None else _cores()
    t0 = time.perf_counter()
    chunks = _chunks(job.hands, workers)
    tally = _Tally(job)
    kept: list[DealOutcome] = []
    done = 0

    def take(outs: list[DealOutcome], deals: int) -> None:
        nonlocal done
        tally.add(outs)
        if keep_outcomes:
            kept.extend(outs)
        done += deals
        if progress:
            progress(done, job.hands)

    if backend == "ray":
        _run_ray(job, chunks, workers, take)
    elif workers == 1:
        for ch in chunks:
            take(_play_chunk(job, ch), len(ch))
    else:
        # At most two chunks a worker in flight: results are summed up and dropped as they come.
        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: dict[Future[list[DealOutcome]], int] = {}
            for ch in chunks:
                while len(pending) >= 2 * workers:
                    _drain(pending, take)
                pending[pool.submit(_play_chunk, job, ch)] = len(ch)
            while pending:
                _drain(pending, take)
    kept.sort(key=lambda o: (o.index, o.seating))
    return SimResult(job, kept, tally.rows(), workers, time.perf_counter() - t0, backend, tally.played)


def _drain(pending: dict[Future[list[DealOutcome]], int], take: Callable[[list[DealOutcome], int], None]) -> None:
    """Wait for at least one pending chunk; hand each finished one to ``take`` and forget it."""
    finished, _running = wait(pending, return_when=FIRST_COMPLETED)
    for fut in finished:
        take(fut.result(), pending.pop(fut))


def have_ray() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _run_ray(
    job: SimJob, chunks: Iterable[list[int]], workers: int, take: Callable[[list[DealOutcome], int], None]
) -> None:  # pragma: no cover
    """The chunks as Ray tasks (on the cluster ``ray.init`` finds: ``RAY_ADDRESS``, or a local one),
    at most two a worker in flight."""
    import ray

    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(_play_chunk)
    limit = 2 * max(workers, int(ray.cluster_resources().get("CPU", 1)))
    pending: dict[Any, int] = {}

    def drain() -> None:
        ready, _waiting = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            take(ray.get(ref), pending.pop(ref))

    for ch in chunks:
        while len(pending) >= limit:
            drain()
        pending[remote.remote(job, ch)] = len(ch)
    while pending:
        drain()


def progress_printer(stream: Any = None, label: str = "simulate") -> tuple[Progress, Callable[[], None]]:
    """A progress callback for ``stream`` (stderr): a rich bar on a terminal, else a line every 10%."""
    stream = stream or sys.stderr
    if getattr(stream, "isatty", lambda: False)():
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
        except ImportError:  # pragma: no cover
            pass
        else:
            bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(file=stream),
                transient=True,
            )
            task = None

            def update(done: int, total: int) -> None:
                nonlocal task
                if task is None:
                    bar.start()
                    task = bar.add_task(label, total=total)
                bar.update(task, completed=done)

            return update, bar.stop
    last = [-1]

    def plain(done: int, total: int) -> None:
        step = int(10 * done / total)
        if step != last[0] or done == total:
            last[0] = step
            print(
                f"{label}: "
                + ngettext("{done}/{total} deal", "{done}/{total} deals", total).format(done=done, total=total),
                file=stream,
                flush=True,
            )

    return plain, lambda: None

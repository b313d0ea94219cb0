"""Alternating rounds: the one way every benchmark here times one thing against another.

On a shared machine, "best of many runs" flatters short calls (they find quiet slices that a long
call never gets), and timing one engine after the other lets the load change between them.  So:

* every case is timed in every round, one after the other, with the order reversed every other
  round, and the same number of timed runs per round for each case;
* a ratio is taken within each round (both sides saw about the same machine) and reported as the
  median of the rounds with its range, never as a best case;
* the clock is CPU time by default (this process's, plus that of the child processes it waited
  for, so whole-process timings count too): on a busy machine the wall clock mostly measures the
  other work; ``clock="wall"`` is there where waiting is part of what is measured;
* the machine's load (``os.getloadavg()``, 1-minute figure) is read before every round and
  reported as its range beside the figures.

Used by ``deadwood.py``, ``cli.py``, ``play.py``, ``envs.py``, ``versus.py`` and the others in this folder.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


def cpu_clock() -> float:
    """CPU seconds of this process plus those of its waited-for children."""
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


CLOCKS: dict[str, Callable[[], float]] = {"cpu": cpu_clock, "wall": time.perf_counter}


def load1() -> float:
    return os.getloadavg()[0]


@dataclass
class Case:
    """One thing to time: ``run()`` does ``work`` units (hands, steps...) each time it is called;
    with ``work=None`` it returns the units it did (steps of random hands, say)."""

    name: str
    run: Callable[[], object]
    work: float | None
    self_timed: bool = False
    """``run()`` returns ``(units, CPU seconds)`` measured where the work ran (a child process that
    times its own work, say); the round's time is the sum of those."""
    seconds: list[float] = field(default_factory=list)
    """Per round: the time of that round's runs together."""
    wall: list[float] = field(default_factory=list)
    done: list[float] = field(default_factory=list)
    """Per round: the units done by that round's runs."""

    def rates(self) -> list[float]:
        return [w / s if s > 0 else float("inf") for w, s in zip(self.done, self.seconds, strict=True)]

    def rate(self) -> float:
        """Median units a second over the rounds."""
        return statistics.median(self.rates())

    def rate_range(self) -> tuple[float, float]:
        r = self.rates()
        return min(r), max(r)


@dataclass
class Rounds:
    cases: dict[str, Case]
    rounds: int
    runs: int
    clock: str
    loads: list[float]

    def ratios(self, num: str, den: str) -> list[float]:
        """``num``'s rate over ``den``'s, one ratio a round."""
        return [a / b for a, b in zip(self.cases[num].rates(), self.cases[den].rates(), strict=True)]

    def ratio(self, num: str, den: str) -> tuple[float, float, float]:
        """(median, lowest, highest) of the rounds' ratios."""
        r = self.ratios(num, den)
        return statistics.median(r), min(r), max(r)

    def load_text(self) -> str:
        return f"load {min(self.loads):.2f}-{max(self.loads):.2f}"

    def describe(self) -> str:
        return f"{self.rounds} alternating rounds x {self.runs} run(s) each, {self.clock} time, {self.load_text()}"


def alternate(
    cases: Sequence[Case],
    *,
    rounds: int = 7,
    runs: int = 1,
    clock: str = "cpu",
    warmup: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Rounds:
    """Time every case ``runs`` times in each of ``rounds`` rounds, alternating the order."""
    tick = CLOCKS[clock]
    if warmup:
        for c in cases:
            c.run()
    loads: list[float] = []
    order = list(cases)
    for r in range(rounds):
        loads.append(load1())
        for c in order if r % 2 == 0 else reversed(order):
            done = 0.0
            spent = 0.0
            w0 = time.perf_counter()
            t0 = tick()
            for _ in range(runs):
                got = c.run()
                if c.self_timed:
                    units, secs = got  # type: ignore[misc]
                    done += units
                    spent += secs
                else:
                    done += got if c.work is None else c.work  # type: ignore[operator]
            c.seconds.append(spent if c.self_timed else tick() - t0)
            c.wall.append(time.perf_counter() - w0)
            c.done.append(done)
        if progress:
            rates = ", ".join(f"{c.name} {c.rates()[-1]:,.0f}/s" for c in cases)
            progress(f"round {r + 1}/{rounds} (load {loads[-1]:.2f}): {rates}")
    loads.append(load1())
    return Rounds({c.name: c for c in cases}, rounds, runs, clock, loads)


def fmt_ratio(r: tuple[float, float, float]) -> str:
    return f"{r[0]:.2f}x (rounds {r[1]:.2f}-{r[2]:.2f})"


def fmt_rate(c: Case) -> str:
    lo, hi = c.rate_range()
    return f"{c.rate():>14,.0f}/s  ({lo:,.0f}-{hi:,.0f})"

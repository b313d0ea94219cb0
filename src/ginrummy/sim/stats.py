"""The statistics of a job's outcomes: per agent, clustered by deal."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..i18n import NP_, pgettext
from .jobs import Z95, DealOutcome, SimJob

# The table's headings (SimResult.table), translated when shown
_HEADINGS = {
    "agent": NP_("simulation table", "agent"),
    "games": NP_("simulation table", "games"),
    "hands": NP_("simulation table", "hands"),
    "win rate": NP_("simulation table", "win rate"),
    "game win rate": NP_("simulation table", "game win rate"),
    "95% CI": NP_("simulation table", "95% CI"),
    "points/hand": NP_("simulation table", "points/hand"),
    "net points/hand": NP_("simulation table", "net points/hand"),
    "points/game": NP_("simulation table", "points/game"),
    "net points/game": NP_("simulation table", "net points/game"),
    "net/hand": NP_("simulation table", "net/hand"),
    "net/game": NP_("simulation table", "net/game"),
    "decisions/s": NP_("simulation table", "decisions/s"),
}


def _heading(key: str) -> str:
    return pgettext("simulation table", _HEADINGS[key])


def _cells(text: str) -> int:
    """The columns ``text`` takes in a terminal (wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# --- statistics ----------------------------------------------------------------------------------
def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the 95% normal interval of the mean (0 width for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = math.fsum(values) / n
    if n < 2:
        return (m, m, m)
    var = math.fsum((x - m) ** 2 for x in values) / (n - 1)
    h = Z95 * math.sqrt(var / n)
    return (m, m - h, m + h)


@dataclass(frozen=True)
class SimRow:
    """One agent's results.  Intervals are 95%, from per-deal averages (clustered by deal)."""

    agent: str
    position: int
    hands: int
    win: tuple[float, float, float]
    points: tuple[float, float, float]
    net: tuple[float, float, float] | None  # table games: own points minus the others' average
    decisions_per_second: float

    def to_json(self, unit: str = "hand") -> dict[str, Any]:
        """JSON form; ``unit`` is ``hand`` or ``game`` (whole games)."""
        out: dict[str, Any] = {
            "agent": self.agent,
            "position": self.position,
            f"{unit}s": self.hands,
            "win_rate": self.win[0],
            "win_rate_ci95": [self.win[1], self.win[2]],
            f"points_per_{unit}": self.points[0],
            f"points_per_{unit}_ci95": [self.points[1], self.points[2]],
            "decisions_per_second": self.decisions_per_second,
        }
        if self.net is not None:
            out[f"net_per_{unit}"] = self.net[0]
            out[f"net_per_{unit}_ci95"] = [self.net[1], self.net[2]]
        return out


@dataclass
class SimResult:
    """A finished job.  ``outcomes`` holds every hand only when :func:`simulate` was asked to keep
    them (``keep_outcomes=True``, or a job that writes records); the rows are summed up as the
    hands come in, so that a long run needs no more memory than a short one."""

    job: SimJob
    outcomes: list[DealOutcome]
    rows: list[SimRow]
    workers: int
    seconds: float
    backend: str = "process"
    hands_played: int = -1
    """Hands played (every seating of every deal); -1: ``len(outcomes)``."""

    def __post_init__(self) -> None:
        if self.hands_played < 0:
            self.hands_played = len(self.outcomes)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.job.variant,
            "options": dict(self.job.options),
            "agents": [str(s) for s in self.job.specs],
            "deals": self.job.hands,
            "hands_played": self.hands_played,
            "seed": self.job.seed,
            "exact": self.job.exact,
            "games": self.job.games,
            "mirrored": not self.job.solo,
            "workers": self.workers,
            "backend": self.backend,
            "seconds": round(self.seconds, 3),
            "rows": [r.to_json("game" if self.job.games else "hand") for r in self.rows],
        }

    def table(self) -> str:
        """A plain-text table of the rows, its headings in the current language (columns aligned
        by the cells a terminal gives each character: Korean is double width)."""
        solo, games = self.job.solo, self.job.games
        head = [
            _heading("agent"),
            _heading("games" if games else "hands"),
            _heading("game win rate" if games else "win rate"),
            _heading("95% CI"),
            _heading(
                ("net points/game" if solo else "points/game")
                if games
                else "net points/hand"
                if solo
                else "points/hand"
            ),
            _heading("95% CI"),
        ]
        if not solo:
            head += [_heading("net/game" if games else "net/hand"), _heading("95% CI")]
        head.append(_heading("decisions/s"))
        lines = [head]
        for r in self.rows:
            row = [
                r.agent if solo else f"{r.agent} (#{r.position + 1})",
                str(r.hands),
                f"{r.win[0]:.4f}",
                f"{r.win[1]:.4f}..{r.win[2]:.4f}",
                f"{r.points[0]:.3f}",
                f"{r.points[1]:.3f}..{r.points[2]:.3f}",
            ]
            if r.net is not None:
                row += [f"{r.net[0]:+.3f}", f"{r.net[1]:+.3f}..{r.net[2]:+.3f}"]
            row.append(f"{r.decisions_per_second:,.0f}")
            lines.append(row)
        widths = [max(_cells(x[i]) for x in lines) for i in range(len(head))]
        text = [
            "  ".join(
                x + " " * (w - _cells(x)) if i == 0 else " " * (w - _cells(x)) + x
                for i, (x, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
            for row in lines
        ]
        text.insert(1, "  ".join("-" * w for w in widths))
        return "\n".join(text)


class _Sum:
    """An exact running sum of floats (Shewchuk's partials, as ``math.fsum`` keeps them): the same
    result whatever order the values come in, in a few floats of memory."""

    __slots__ = ("partials",)

    def __init__(self) -> None:
        self.partials: list[float] = []

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def exact(self) -> Fraction:
        return sum((Fraction(p) for p in self.partials), Fraction(0))

    def value(self) -> float:
        return math.fsum(self.partials)


class _Moments:
    """Count, sum and sum of squares of a stream of values, exactly: :func:`mean_ci` of the
    stream without keeping it."""

    __slots__ = ("n", "s1", "s2")

    def __init__(self) -> None:
        self.n = 0
        self.s1 = _Sum()
        self.s2 = _Sum()

    def add(self, x: float) -> None:
        self.n += 1
        self.s1.add(x)
        self.s2.add(x * x)  # x * x rounded: as (x - m) ** 2 is in mean_ci

    def mean_ci(self) -> tuple[float, float, float]:
        n = self.n
        if n == 0:
            return (math.nan, math.nan, math.nan)
        m = self.s1.value() / n
        if n < 2:
            return (m, m, m)
        fm = Fraction(m)
        ss = self.s2.exact() - 2 * fm * self.s1.exact() + n * fm * fm  # sum of (x - m)^2
        var = max(float(ss), 0.0) / (n - 1)
        h = Z95 * math.sqrt(var / n)
        return (m, m - h, m + h)


class _Tally:
    """The rows of a job, summed up deal by deal as the outcomes come in (in any order)."""

    def __init__(self, job: SimJob) -> None:
        self.job = job
        n = len(job.specs)
        self.hands = [0] * n
        self.decisions = [0] * n
        self.seconds = [0.0] * n
        self.win = [_Moments() for _ in range(n)]
        self.points = [_Moments() for _ in range(n)]
        self.net = [_Moments() for _ in range(n)]
        self.played = 0

    def add(self, outcomes: Iterable[DealOutcome]) -> None:
        """Outcomes of whole deals (every seating of each deal: what one chunk returns)."""
        per_deal: dict[int, list[DealOutcome]] = {}
        for o in outcomes:
            per_deal.setdefault(o.index, []).append(o)
        for index in sorted(per_deal):
            self._deal(sorted(per_deal[index], key=lambda o: o.seating))

    def _deal(self, outs: list[DealOutcome]) -> None:
        self.played += len(outs)
        for pos in range(len(self.hands)):
            mine: list[tuple[float, float, float]] = []
            for o in outs:
                seats = [s for s, p in enumerate(o.seating) if p == pos]
                if not seats:
                    continue
                self.hands[pos] += 1
                s = seats[0]
                others = [o.points[t] for t in range(len(o.points)) if t != s]
                net = o.points[s] - (math.fsum(others) / len(others) if others else 0.0)
                mine.append((o.win[s], o.points[s], net))
                # Table games: the hand's decisions of every seat (engine time included).
                self.decisions[pos] += o.decisions
                self.seconds[pos] += o.seconds
            if mine:
                k = len(mine)
                self.win[pos].add(math.fsum(x[0] for x in mine) / k)
                self.points[pos].add(math.fsum(x[1] for x in mine) / k)
                self.net[pos].add(math.fsum(x[2] for x in mine) / k)

    def rows(self) -> list[SimRow]:
        solo = self.job.solo
        return [
            SimRow(
                agent=str(spec),
                position=pos,
                hands=self.hands[pos],
                win=self.win[pos].mean_ci(),
                points=self.points[pos].mean_ci(),
                net=None if solo else self.net[pos].mean_ci(),
                decisions_per_second=self.decisions[pos] / self.seconds[pos] if self.seconds[pos] > 0 else 0.0,
            )
            for pos, spec in enumerate(self.job.specs)
        ]


def summarise(job: SimJob, outcomes: Iterable[DealOutcome]) -> list[SimRow]:
    """The rows of ``job`` from its outcomes (intervals clustered by deal)."""
    tally = _Tally(job)
    tally.add(outcomes)
    return tally.rows()

"""Many hands between computer players, on every core: ``ginrummy simulate``.

A job names a variant, the agents, a number of deals and a master seed.  Deal ``i`` is dealt from
a seed derived from the master seed and ``i`` alone (:func:`deal_seed`), and every agent is seeded
from the master seed and its place in the list, so a job gives the same results whatever the
number of workers and whatever order the workers finish in.

* Two-player games (classic, Oklahoma, Hollywood) play each deal twice, seats swapped (mirrored
  deals); three-player gin plays each deal three times, the seats rotated.  Statistics are
  clustered by deal: the confidence intervals come from per-deal averages.
* The solitaires play each deal once per agent (the same deals for every agent).  With
  ``exact=True`` a solitaire hand is scored by its exact expectation over the joker's place: the
  deal is played with the joker moved to the bottom, and since the joker's place is independent of
  the play before it, the outcome for every place follows from that one line of play (see
  ``docs/strength.md``); the win rate is then the chance of winning the hand (gin with
  ``scoring=none``, else scoring any points) and the points the expected net points.

With ``games=True`` each "deal" is a whole game to the target (mirrored or rotated the same way,
hand ``k`` of a game dealt from the same seed in every seating); a game's points are the final
totals (with the end-of-game bonuses).

A solitaire hand is won when the player scores (gin, or a knock the Joker does not undercut; gin
with ``scoring=none``); its points are the player's minus the Joker's.  A table hand is won by the
seat that scores; its points are that seat's.

>>> res = simulate(SimJob("solitaire", ("greedy",), hands=4, seed=1, options={"scoring": "none"}), workers=1)
>>> res.rows[0].agent, res.rows[0].hands
('greedy', 4)
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .agents import Agent, make_agent
from .cards import JOKER, Card
from .engine import State
from .errors import GinRummyError
from .melds import min_deadwood
from .options import SolitaireOptions
from .variants import find_variant, seats_of, solo_variants, variant_names

__all__ = [
    "AgentSpec",
    "DealOutcome",
    "SimJob",
    "SimResult",
    "SimRow",
    "SoloLine",
    "agent_seed",
    "deal_seed",
    "have_ray",
    "mean_ci",
    "parse_agent",
    "play_deal",
    "progress_printer",
    "simulate",
    "solo_line",
    "summarise",
    "worker_cap",
]

Z95 = 1.959963984540054


# --- seeds ---------------------------------------------------------------------------------------
def _derive(*parts: object) -> int:
    digest = hashlib.sha256(("ginrummy-sim/1:" + ":".join(str(p) for p in parts)).encode()).digest()
    return int.from_bytes(digest, "big")


def deal_seed(seed: int, index: int, attempt: int = 0) -> int:
    """The deal seed of deal ``index`` (``attempt`` > 0: a redeal after the joker was dealt)."""
    return _derive("deal", seed, index, attempt)


def agent_seed(seed: int, position: int) -> int:
    """The seed of the agent at ``position`` in the job's list (a 63-bit integer)."""
    return _derive("agent", seed, position) >> 193


# --- agents --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgentSpec:
    """An agent name with keyword options, written ``planner`` or ``planner:rollouts=32:time_budget=0.05``."""

    name: str
    kwargs: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.kwargs)])

    def make(self, variant: str, seed: int | None) -> Agent:
        return make_agent(self.name, variant, seed=seed, **dict(self.kwargs))


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent(text: str) -> AgentSpec:
    """Read ``name`` or ``name:key=value:key=value``."""
    parts = [p.strip() for p in str(text).split(":")]
    if not parts[0]:
        raise GinRummyError(f"not an agent: {text!r} (expected e.g. 'greedy' or 'planner:rollouts=32')")
    kwargs = []
    for p in parts[1:]:
        key, eq, val = p.partition("=")
        if not eq or not key:
            raise GinRummyError(f"agent option {p!r} in {text!r} must look like key=value")
        kwargs.append((key.strip(), _value(val.strip())))
    return AgentSpec(parts[0], tuple(kwargs))


# --- a job and its outcomes ----------------------------------------------------------------------
@dataclass(frozen=True)
class SimJob:
    """What to simulate.  ``hands`` is the number of deals."""

    variant: str
    agents: tuple[str | AgentSpec, ...]
    hands: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    exact: bool = False
    games: bool = False  # whole games to the target (hands = number of games), not single hands
    records: bool = False  # keep each game's record (RECORD.md) in its outcome

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        return tuple(a if isinstance(a, AgentSpec) else parse_agent(a) for a in self.agents)

    @property
    def solo(self) -> bool:
        """Is the job's variant a solitaire (one player against the Joker)?"""
        return self.variant in solo_variants()

    def seatings(self) -> list[tuple[int, ...]]:
        """For one deal: each seating as the agent position at each seat (the agents rotate
        round the table, one seating a seat)."""
        n = len(self.agents)
        if self.solo:
            return [(i,) for i in range(n)]
        k = seats_of(self.variant)
        return [tuple((r + s) % k for s in range(k)) for r in range(k)]

    def check(self) -> None:
        if self.variant not in variant_names():
            raise GinRummyError(f"unknown variant {self.variant!r}; choose one of {', '.join(variant_names())}")
        n = len(self.agents)
        if self.solo:
            if n < 1:
                raise GinRummyError("name at least one agent")
        elif n != seats_of(self.variant):
            raise GinRummyError(f"{self.variant} needs {seats_of(self.variant)} agents (one a seat), got {n}")
        if self.hands < 1:
            raise GinRummyError(f"the number of hands must be at least 1, got {self.hands}")
        if self.exact and not self.solo:
            raise GinRummyError("exact scoring (the joker averaged out) applies to the solitaires only")
        if self.exact and self.games:
            raise GinRummyError("exact scoring applies to single hands, not whole games")
        if self.exact and self.records:
            raise GinRummyError("exact scoring plays no single game to record: drop --exact to write records")
        State.new(self.variant, dict(self.options))  # validates the options
        for spec in self.specs:
            spec.make(self.variant, 0)  # validates the agent names and options


@dataclass(frozen=True)
class DealOutcome:
    """One hand: who sat where, what each seat scored, who won (solitaires: seat 0 is the player).

    ``win`` and ``points`` are per seat; with exact solitaire scoring they are expectations.
    """

    index: int
    seating: tuple[int, ...]
    points: tuple[float, ...]
    win: tuple[float, ...]
    result: str
    decisions: int
    seconds: float
    record: dict[str, Any] | None = None  # the game's record (RECORD.md), when the job keeps them


# --- solitaire lines -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SoloLine:
    """One solitaire deal played with the joker taken out (moved to the bottom).

    ``deadwood[k]`` is the deadwood held after ``k`` draws; ``end`` is (draws, event, deadwood)
    when the player went out (gin, big-gin, knock), else None.
    """

    deadwood: tuple[int, ...]
    end: tuple[int, str, int] | None
    decisions: int
    slots: int  # places the joker may take: the real cards of the deck, plus one

    def outcome(self, rules: Any, above: int) -> tuple[float, float]:
        """(points, win) with ``above`` real cards above the joker, for a :class:`SoloRules`."""
        if self.end is not None and self.end[0] <= above:
            k, event, dead = self.end
            win = 1.0 if event in ("gin", "big-gin") else 0.0
            return float(_points(rules, event, above - k, dead)), win
        return float(_points(rules, "joker", 0, self.deadwood[above])), 0.0

    def win_rate(self, rules: Any) -> float:
        """The chance that the player wins the hand over every place of the joker: gin with
        ``scoring=none``, else scoring any points."""
        wins = 0.0
        for j in range(self.slots):
            p, g = self.outcome(rules, j)
            wins += g if rules.scoring == "none" else float(p > 0)
        return wins / self.slots

    def expected(self, rules: Any) -> tuple[float, float]:
        """(expected points, chance of gin) over every place of the joker."""
        n = self.slots
        pts = 0.0
        wins = 0.0
        for j in range(n):
            p, w = self.outcome(rules, j)
            pts += p
            wins += w
        return pts / n, wins / n


def _points(rules: Any, event: str, counted: int, deadwood: int) -> int:
    if rules.scoring == "none":
        return 0
    return int(rules.end_value(event, counted, deadwood))


def _points_rules(variant: str, options: Mapping[str, Any]) -> Any:
    from .agents.solitaire import SoloRules

    r = SoloRules.of(variant, options)
    if r.objective != "points" and r.scoring != "none":  # pragma: no cover - of() gives points here
        r = SoloRules.of(variant, options, "points")
    return r


def solo_line(variant: str, options: Mapping[str, Any], agent: Agent, deck: Sequence[int]) -> SoloLine:
    """Play ``agent`` on a solitaire deck (top first; the joker's place is ignored: it is moved to
    the bottom) and return the line of play."""
    st = State.new(variant, dict(options), undo=False)
    dealt = find_variant(variant).dealt
    cards = [int(c) for c in deck]
    if JOKER in cards[:dealt]:
        raise GinRummyError("the joker is in the deal: no line to play")
    real = [c for c in cards if c != JOKER]
    st.deal([Card(c) for c in [*real, JOKER]])
    dw: list[int] = []
    if dealt == 10:  # a ten-card hand: its deadwood before the first draw (eleven dealt: discard first)
        dw.append(min_deadwood(sum(1 << c for c in real[:dealt])))
    end: tuple[int, str, int] | None = None
    decisions = 0
    while not st.is_hand_over:
        obs = st.observation(0)
        legal = st.legal_actions()
        act = agent.act(obs, legal)
        decisions += 1
        hand = st.hands[0]
        drawn = hand.bit_count() + len(st.out_of_play) - dealt
        if act.kind in ("gin", "knock"):
            kept = hand if act.card is None else hand & ~(1 << int(act.card))
            event = "big-gin" if act.kind == "gin" and act.card is None and hand.bit_count() == 11 else act.kind
            end = (drawn, event, min_deadwood(kept))
        elif act.kind == "discard" and act.card is not None:
            dw.append(min_deadwood(hand & ~(1 << int(act.card))))
        st.apply(act)
    return SoloLine(tuple(dw), end, decisions, 53 - dealt)


# --- playing one deal ----------------------------------------------------------------------------
_AGENTS: dict[tuple[str, str, int, int], Agent] = {}


def _agent(job: SimJob, position: int) -> Agent:
    spec = job.specs[position]
    key = (str(spec), job.variant, job.seed, position)
    ag = _AGENTS.get(key)
    if ag is None:
        ag = spec.make(job.variant, agent_seed(job.seed, position))
        _AGENTS[key] = ag
    return ag


def _deck(job: SimJob, index: int, *, redeal: bool = True) -> tuple[list[int], int]:
    """The deck of deal ``index`` and its seed; with ``redeal``, redealt while a solitaire deal
    holds the joker (rule 3.2's default; exact scoring always plays a joker-free deal)."""
    probe = State.new(job.variant, dict(job.options))
    attempt = 0
    while True:
        seed = deal_seed(job.seed, index, attempt)
        deck = [int(c) for c in probe.deck_for_seed(seed)]
        if not redeal or find_variant(job.variant).joker != "in_pack" or JOKER not in deck[:10]:
            return deck, seed
        attempt += 1


def _players(job: SimJob, seating: tuple[int, ...]) -> list[str] | None:
    """Records name each seat after its agent (the solitaires: the agent and the Joker)."""
    if not job.records:
        return None
    names = [str(job.specs[p]) for p in seating]
    return [*names, "Joker"] if job.solo else names


def _joker_dealt_loses(job: SimJob) -> bool:
    """Rule 3.2 'lose': in the solitaire whose Joker may be dealt, a dealt Joker loses the hand."""
    if find_variant(job.variant).joker != "in_pack":
        return False
    opts = State.new(job.variant, dict(job.options)).options
    return isinstance(opts, SolitaireOptions) and opts.joker_in_deal == "lose"


MAX_HANDS = 1000
"""A game that has not ended after this many hands is stopped (a safeguard; it never happens with
the shipped agents)."""


def play_game(job: SimJob, index: int, seating: tuple[int, ...]) -> DealOutcome:
    """Game ``index`` to the target; hand ``k`` of every game ``index`` is dealt from the same seed
    whatever the seating (mirrored games share their deals hand by hand)."""
    t0 = time.perf_counter()
    st = State.new(job.variant, dict(job.options), players=_players(job, seating), undo=False)
    agents = [_agent(job, p) for p in seating]
    decisions = 0
    hands = 0
    while not st.is_terminal and hands < MAX_HANDS:
        st.deal(seed=_derive("game", job.seed, index, hands))
        hands += 1
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            st.apply(agents[seat].act(st.observation(seat), st.legal_actions()))
            decisions += 1
    finals = st.final_totals()
    if job.solo:
        points: tuple[float, ...] = (float(finals[0] - finals[1]),)
        wins: tuple[float, ...] = (1.0 if st.winner == 0 else 0.0,)
    else:
        points = tuple(float(x) for x in finals)
        wins = tuple(1.0 if st.winner == s else 0.0 for s in range(st.num_seats))
    record = st.to_record() if job.records else None
    return DealOutcome(index, seating, points, wins, f"{hands} hands", decisions, time.perf_counter() - t0, record)


def play_deal(job: SimJob, index: int) -> list[DealOutcome]:
    """Every seating of deal (or game) ``index``."""
    if job.games:
        return [play_game(job, index, seating) for seating in job.seatings()]
    deck, seed = _deck(job, index)
    lose = _joker_dealt_loses(job)
    if lose and not job.exact:
        deck, seed = _deck(job, index, redeal=False)  # rule 3.2 'lose': a dealt joker loses the hand
    out = []
    for seating in job.seatings():
        t0 = time.perf_counter()
        if job.solo and job.exact:
            agent = _agent(job, seating[0])
            line = solo_line(job.variant, job.options, agent, deck)
            rules = _points_rules(job.variant, job.options)
            pts, _gin = line.expected(rules)
            win = line.win_rate(rules)
            if lose:
                # The joker is in the ten dealt with chance 10/53; the hand is then lost holding the
                # first nine real cards (rule 3.2), whatever the player would have done.
                nine = min_deadwood(sum(1 << c for c in deck[:9]))
                p = 10 / 53
                pts = (1 - p) * pts + p * _points(rules, "joker", 0, nine)
                win = (1 - p) * win
            out.append(DealOutcome(index, seating, (pts,), (win,), "exact", line.decisions, time.perf_counter() - t0))
            continue
        st = State.new(job.variant, dict(job.options), players=_players(job, seating), undo=False)
        st.deal(seed=seed)
        agents = [_agent(job, p) for p in seating]
        decisions = 0
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            act = agents[seat].act(st.observation(seat), st.legal_actions())
            st.apply(act)
            decisions += 1
        res = st.hand_result
        assert res is not None
        record = st.to_record() if job.records else None
        if job.solo:
            net = float(res.points[0] - res.points[1])
            won = 1.0 if res.winner == 0 and res.result != "joker" else 0.0
            out.append(
                DealOutcome(index, seating, (net,), (won,), res.result, decisions, time.perf_counter() - t0, record)
            )
        else:
            wins = tuple(1.0 if res.winner == s else 0.0 for s in range(st.num_seats))
            out.append(
                DealOutcome(
                    index,
                    seating,
                    tuple(float(p) for p in res.points),
                    wins,
                    res.result,
                    decisions,
                    time.perf_counter() - t0,
                    record,
                )
            )
    return out


def _play_chunk(job: SimJob, indices: Sequence[int]) -> list[DealOutcome]:
    out: list[DealOutcome] = []
    for i in indices:
        out.extend(play_deal(job, i))
    return out


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
        """A plain-text table of the rows."""
        solo = self.job.solo
        win_head = "win rate"
        pts_head = "net points/hand" if solo else "points/hand"
        if self.job.games:
            win_head = "game win rate"
            pts_head = "net points/game" if solo else "points/game"
        head = ["agent", "games" if self.job.games else "hands", win_head, "95% CI", pts_head, "95% CI"]
        if not solo:
            head += ["net/game" if self.job.games else "net/hand", "95% CI"]
        head.append("decisions/s")
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
        widths = [max(len(x[i]) for x in lines) for i in range(len(head))]
        text = [
            "  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths, strict=True)))
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
        raise GinRummyError(f"unknown backend {backend!r}; choose process or ray")
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
    finished, _ = wait(pending, return_when=FIRST_COMPLETED)
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
        ready, _ = ray.wait(list(pending), num_returns=1)
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
            print(f"{label}: {done}/{total} deals", file=stream, flush=True)

    return plain, lambda: None

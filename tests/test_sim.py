"""The simulator and ``ginrummy simulate``."""

from __future__ import annotations

import json
import os
import random

import pytest

from ginrummy.cli import main
from ginrummy.errors import GinRummyError
from ginrummy.sim import (
    SimJob,
    SimRow,
    _Moments,
    deal_seed,
    have_ray,
    mean_ci,
    parse_agent,
    simulate,
    summarise,
    worker_cap,
)


def _key(result: object) -> list[tuple[object, ...]]:
    return [(o.index, o.seating, o.points, o.win, o.result, o.decisions) for o in result.outcomes]  # type: ignore[attr-defined]


def test_reproducible_with_one_and_two_workers() -> None:
    job = SimJob("solitaire", ("greedy", "random", "planner:rollouts=4"), hands=6, seed=12, options={"scoring": "none"})
    one = simulate(job, workers=1, keep_outcomes=True)
    two = simulate(job, workers=2, keep_outcomes=True)
    assert _key(one) == _key(two)
    assert [r.to_json()["win_rate"] for r in one.rows] == [r.to_json()["win_rate"] for r in two.rows]
    again = simulate(
        SimJob(job.variant, job.agents, job.hands, seed=13, options=job.options), workers=1, keep_outcomes=True
    )
    assert _key(again) != _key(one)


def test_mirrored_two_player_deals() -> None:
    job = SimJob("classic", ("greedy", "random"), hands=3, seed=1)
    res = simulate(job, workers=2, keep_outcomes=True)
    assert len(res.outcomes) == 6
    for i in range(3):
        seatings = sorted(o.seating for o in res.outcomes if o.index == i)
        assert seatings == [(0, 1), (1, 0)]
    greedy, rnd = res.rows
    assert greedy.hands == rnd.hands == 6
    assert greedy.net is not None and rnd.net is not None
    assert greedy.net[0] == pytest.approx(-rnd.net[0])


def test_exact_solitaire_scoring_and_job_checks() -> None:
    res = simulate(SimJob("gin-solitaire", ("greedy",), hands=3, seed=2, exact=True), workers=1, keep_outcomes=True)
    assert 0.0 <= res.rows[0].win[0] <= 1.0
    assert all(o.result == "exact" for o in res.outcomes)
    with pytest.raises(GinRummyError):
        SimJob("classic", ("greedy",), hands=2).check()
    with pytest.raises(GinRummyError):
        SimJob("classic", ("greedy", "greedy"), hands=2, exact=True).check()
    with pytest.raises(GinRummyError):
        SimJob("solitaire", ("nobody",), hands=2).check()


def test_whole_games() -> None:
    job = SimJob("classic", ("greedy", "random"), hands=2, seed=4, games=True)
    res = simulate(job, workers=1, keep_outcomes=True)
    assert len(res.outcomes) == 4
    for o in res.outcomes:
        assert sum(o.win) == 1.0 and max(o.points) >= 100  # a finished game to 100, with its bonuses
    assert res.to_json()["games"] is True
    with pytest.raises(GinRummyError):
        SimJob("solitaire", ("greedy",), hands=2, games=True, exact=True).check()


def test_seeds_and_helpers() -> None:
    assert deal_seed(1, 2) == deal_seed(1, 2) != deal_seed(1, 3)
    spec = parse_agent("planner:rollouts=16:time_budget=0.05:objective=win")
    assert spec.name == "planner" and dict(spec.kwargs) == {"rollouts": 16, "time_budget": 0.05, "objective": "win"}
    assert str(spec) == "planner:rollouts=16:time_budget=0.05:objective=win"
    with pytest.raises(GinRummyError):
        parse_agent("planner:rollouts")
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and lo < 2.0 < hi


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--variant", "solitaire", "--agents", "greedy,planner:rollouts=4", "--hands", "3"]
    rc = main([*argv, "--workers", "1", "--json", "--options", "scoring=basic", "--seed", "5"])
    assert rc == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["variant"] == "solitaire" and data["options"] == {"scoring": "basic"}
    assert [r["agent"] for r in data["rows"]] == ["greedy", "planner:rollouts=4"]
    assert all(r["hands"] == 3 for r in data["rows"])
    assert "deals" in out.err  # plain progress lines when stderr is not a terminal


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "classic", "--hands", "2", "--workers", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "mirrored deals" in text and "greedy (#1)" in text
    assert main(["simulate", "--variant", "nowhere", "--hands", "2"]) == 2
    assert main(["simulate", "--variant", "classic", "--agents", "greedy", "--hands", "2"]) == 2
    assert main(["simulate", "--variant", "solitaire", "--options", "scoring=sometimes", "--hands", "2"]) == 2
    capsys.readouterr()


@pytest.mark.skipif(have_ray(), reason="Ray is installed")
def test_cli_ray_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--backend", "ray", "--hands", "2"]) == 2
    assert "pip install 'ginrummy[ray]'" in capsys.readouterr().err


def test_rows_are_summed_up_as_deals_come_in() -> None:
    """The result keeps no outcomes unless asked (memory stays flat over a long run), and its rows
    are those of the outcomes summed up at the end, with any number of workers."""
    job = SimJob("classic", ("greedy", "random"), hands=12, seed=3)
    lean = simulate(job, workers=2)
    full = simulate(job, workers=1, keep_outcomes=True)
    assert lean.outcomes == [] and lean.hands_played == len(full.outcomes) == 24

    def figures(rows: list[SimRow]) -> list[tuple[object, ...]]:  # all but the timing
        return [(r.agent, r.position, r.hands, r.win, r.points, r.net) for r in rows]

    assert figures(lean.rows) == figures(full.rows) == figures(summarise(job, full.outcomes))
    assert lean.to_json()["hands_played"] == 24


def test_streamed_moments_match_mean_ci() -> None:
    rng = random.Random(5)
    for n in (0, 1, 2, 3, 50, 1000):
        values = [rng.choice((0.0, 1.0, 0.5, -31.0, 25.0, rng.random() * 40 - 20)) for _ in range(n)]
        moments = _Moments()
        for v in reversed(values):
            moments.add(v)
        got, want = moments.mean_ci(), mean_ci(values)
        if n == 0:
            assert all(x != x for x in got)  # nan
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
        shuffled = _Moments()
        for v in rng.sample(values, n):
            shuffled.add(v)
        assert shuffled.mean_ci() == got or n == 0  # the same figures in any order


def test_workers_capped_to_the_cores_and_the_job() -> None:
    cores = len(os.sched_getaffinity(0))
    assert worker_cap(None, 10_000) == cores
    assert worker_cap(64, 10_000) == cores
    assert worker_cap(8, 1) == 1
    assert worker_cap(1, 100) == 1
    res = simulate(SimJob("solitaire", ("greedy",), hands=1, seed=1), workers=16)
    assert res.workers == 1

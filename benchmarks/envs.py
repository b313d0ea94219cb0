"""Environment steps a second: ginrummy's PettingZoo environment side by side with PettingZoo's
own ``gin_rummy_v4`` (RLCard inside), both driven by random legal actions from the action mask.

    python benchmarks/envs.py [--seconds 20] [--rounds 5] [--variant classic]

PettingZoo 1.27 dropped ``gin_rummy_v4``: the comparison needs ``pettingzoo==1.26.1``, ``rlcard``
and ``pygame`` (imported by that module), best in a venv of its own, e.g.

    python -m venv /tmp/benchenv
    /tmp/benchenv/bin/pip install -e . 'pettingzoo==1.26.1' rlcard pygame
    /tmp/benchenv/bin/python benchmarks/envs.py

Without them only ginrummy's environment is measured, and the script says what to install.
The two environments are run in alternating rounds (the same share of the time each) so that a
busy machine slows both alike; the ratio reported is the median of the rounds' ratios.  A step is
one action applied (the ``step(None)`` calls that retire finished agents are not counted); an
episode is one hand in both.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

INSTALL = "pip install 'pettingzoo==1.26.1' rlcard pygame  (in a separate venv: PettingZoo 1.27 dropped gin_rummy_v4)"


def run_for(env: Any, seconds: float, rng: Any, np: Any) -> tuple[int, int, float]:
    """Play random legal actions for about ``seconds``; (steps, episodes, elapsed seconds)."""
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=int(rng.integers(2**31)))
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        episodes += 1
    return steps, episodes, time.perf_counter() - start


def load_pettingzoo_gin() -> tuple[dict[str, Callable[[], Any]] | None, str]:
    try:
        import pettingzoo
    except ImportError:
        return None, f"pettingzoo is not installed: {INSTALL}"
    try:
        from pettingzoo.classic import gin_rummy_v4
    except ImportError as exc:
        return None, f"gin_rummy_v4 cannot be imported ({exc}): {INSTALL}"
    except Exception as exc:  # PettingZoo >= 1.27 raises its own error for removed environments
        return None, f"pettingzoo {pettingzoo.__version__} has no gin_rummy_v4 ({type(exc).__name__}: {exc}): {INSTALL}"
    return {"env": gin_rummy_v4.env, "raw_env": gin_rummy_v4.raw_env}, f"pettingzoo {pettingzoo.__version__}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=20.0, help="total time for each environment (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--variant", default="classic", help="ginrummy variant (default classic)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import numpy as np

        from ginrummy.envs import make_aec
    except ImportError as exc:
        print(f"ginrummy.envs is not available ({exc}): pip install 'ginrummy[rl]'")
        return 1
    import ginrummy

    theirs, note = load_pettingzoo_gin()
    print(f"python {sys.version.split()[0]}, ginrummy {ginrummy.__version__}, numpy {np.__version__}; {note}")
    if theirs is None:
        print("measuring ginrummy only")
    envs: dict[str, Any] = {f"ginrummy {args.variant}": make_aec(args.variant)}
    if theirs is not None:
        import rlcard  # type: ignore[import-untyped, unused-ignore]

        for name, ctor in theirs.items():
            envs[f"pettingzoo gin_rummy_v4.{name} (rlcard {rlcard.__version__})"] = ctor()
    per_round = args.seconds / max(args.rounds, 1)
    rates: dict[str, list[float]] = {name: [] for name in envs}
    totals: dict[str, list[float]] = {name: [0.0, 0.0, 0.0] for name in envs}
    rng = np.random.default_rng(args.seed)
    for env in envs.values():  # warm up
        run_for(env, 0.5, rng, np)
    for r in range(args.rounds):
        for name, env in envs.items():
            steps, episodes, elapsed = run_for(env, per_round, rng, np)
            rates[name].append(steps / elapsed)
            t = totals[name]
            t[0] += steps
            t[1] += episodes
            t[2] += elapsed
        print(f"round {r + 1}: " + ", ".join(f"{rates[n][-1]:,.0f}" for n in envs), flush=True)
    print()
    print(f"{'environment':64} {'steps/s':>9} {'hands/s':>8} {'steps/hand':>10}")
    for name in envs:
        n_steps, n_episodes, seconds = totals[name]
        print(f"{name:64} {n_steps / seconds:9,.0f} {n_episodes / seconds:8,.1f} {n_steps / max(n_episodes, 1):10.1f}")
    ours = next(iter(envs))
    for name in list(envs)[1:]:
        ratios = [a / b for a, b in zip(rates[ours], rates[name], strict=True)]
        print(
            f"ratio ginrummy / {name.split(' (')[0]}: {statistics.median(ratios):.2f}x "
            f"(rounds {min(ratios):.2f}-{max(ratios):.2f}; target >= 5x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

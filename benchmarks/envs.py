"""Environment steps a second: ginrummy's PettingZoo environment side by side with PettingZoo's
own ``gin_rummy_v4`` (RLCard inside), both driven by random legal actions from the action mask.

    python benchmarks/envs.py [--hands 50] [--rounds 7] [--variant classic]

PettingZoo 1.27 dropped ``gin_rummy_v4``: the comparison needs ``pettingzoo==1.26.1``, ``rlcard``
and ``pygame`` (imported by that module), best in a venv of its own, e.g.

    python -m venv /tmp/benchenv
    /tmp/benchenv/bin/pip install -e . 'pettingzoo==1.26.1' rlcard pygame
    /tmp/benchenv/bin/python benchmarks/envs.py

Without them only ginrummy's environment is measured, and the script says what to install.
The environments are timed in the same alternating rounds (``benchmarks/rounds.py``): one run of
``--hands`` hands each a round, CPU time; steps a second and the ratios are the median of the
rounds with their range, beside the machine's load.  A step is
one action applied (the ``step(None)`` calls that retire finished agents are not counted); an
episode is one hand in both.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate, fmt_ratio

INSTALL = "pip install 'pettingzoo==1.26.1' rlcard pygame  (in a separate venv: PettingZoo 1.27 dropped gin_rummy_v4)"


def episodes_runner(env: Any, episodes: int, rng: Any, np: Any) -> Callable[[], int]:
    """A run: ``episodes`` hands of random legal actions; returns the steps taken."""

    def run() -> int:
        steps = 0
        for _ in range(episodes):
            env.reset(seed=int(rng.integers(2**31)))
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


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
    parser.add_argument("--hands", type=int, default=50, help="hands (episodes) a run (default 50)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every round")
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
    rng = np.random.default_rng(args.seed)
    cases = [Case(name, episodes_runner(env, args.hands, rng, np), None) for name, env in envs.items()]
    show = (lambda m: print("  " + m, flush=True)) if args.verbose else None
    rr = alternate(cases, rounds=args.rounds, clock=args.clock, progress=show)
    print(rr.describe())
    print(f"{'environment':64} {'steps/s: median (range)':>36} {'hands/s':>8}")
    for c in cases:
        hands_s = args.hands * len(c.seconds) / sum(c.seconds)
        print(f"{c.name:64} {fmt_rate(c):>36} {hands_s:8,.1f}")
    ours = cases[0].name
    for c in cases[1:]:
        r = rr.ratio(ours, c.name)
        print(f"ratio ginrummy / {c.name.split(' (')[0]}: {fmt_ratio(r)}; target >= 8x median, >= 5x every round")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

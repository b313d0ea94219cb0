"""Steps a second: a vectorised environment against one single environment of the same variant, in
one process, both driven by random legal actions from the action mask: the solitaires'
``SolitaireVectorEnv`` against one ``SolitaireEnv`` (Gymnasium), the table games'
``TableVectorEnv`` against one ``GinRummyAEC`` (PettingZoo, driven by ``agent_iter``/``last``).

    python benchmarks/vector_env.py [--variant solitaire] [--num-envs 1024] [--steps 20000] [--rounds 7]

A step is one action applied in one game (the vector environment's ``step`` counts ``num_envs``).
Each side runs ``--steps`` steps a round in the same alternating rounds (``benchmarks/rounds.py``:
CPU time, the same number of timed runs each side, the median of the rounds with its range, the
machine's load beside).  The random actions are drawn the same way on both sides (a uniform key a
legal action, the largest wins), so the policy costs alike.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate, fmt_ratio


def single_runner(env: Any, steps: int, np: Any, rng: Any) -> Callable[[], int]:
    obs, _ = env.reset(seed=int(rng.integers(2**31)))
    state = {"obs": obs}

    def run() -> int:
        obs = state["obs"]
        for _ in range(steps):
            keys = rng.random(213) * obs["action_mask"]
            obs, _r, term, _t, _i = env.step(int(keys.argmax()))
            if term:
                obs, _ = env.reset()
        state["obs"] = obs
        return steps

    return run


def aec_runner(env: Any, steps: int, np: Any, rng: Any) -> Callable[[], int]:
    env.reset(seed=int(rng.integers(2**31)))

    def run() -> int:
        done = 0
        while done < steps:
            for _agent in env.agent_iter():
                obs, _r, term, trunc, _i = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                keys = rng.random(213) * obs["action_mask"]
                env.step(int(keys.argmax()))
                done += 1
                if done >= steps:
                    break
            else:
                env.reset()
        return done

    return run


def vector_runner(venv: Any, steps: int, np: Any, rng: Any) -> Callable[[], int]:
    obs, _ = venv.reset(seed=int(rng.integers(2**31)))
    state = {"obs": obs}
    n = venv.num_envs
    calls = max(1, steps // n)

    def run() -> int:
        obs = state["obs"]
        for _ in range(calls):
            keys = rng.random((n, 213)) * obs["action_mask"]
            obs, _r, _term, _t, _i = venv.step(keys.argmax(axis=1))
        state["obs"] = obs
        return calls * n

    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument(
        "--variant",
        default="solitaire",
        choices=("solitaire", "gin-solitaire", "classic", "oklahoma", "hollywood", "three"),
    )
    ap.add_argument("--num-envs", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=20_000, help="game steps a run, each side (default 20000)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    import numpy as np

    import ginrummy
    from ginrummy.envs import make_aec, make_gym
    from ginrummy.envs.table_vector import TableVectorEnv
    from ginrummy.envs.vector import SolitaireVectorEnv

    print(f"python {sys.version.split()[0]}, ginrummy {ginrummy.__version__}, numpy {np.__version__}")
    rng = np.random.default_rng(args.seed)
    venv: Any
    if "solitaire" in args.variant:
        single = Case(f"SolitaireEnv {args.variant}", single_runner(make_gym(args.variant), args.steps, np, rng), None)
        venv = SolitaireVectorEnv(args.num_envs, args.variant)
    else:
        single = Case(f"GinRummyAEC {args.variant}", aec_runner(make_aec(args.variant), args.steps, np, rng), None)
        venv = TableVectorEnv(args.num_envs, args.variant)
    name = f"{type(venv).__name__} {args.variant} x{args.num_envs}"
    vector = Case(name, vector_runner(venv, args.steps, np, rng), None)
    show = (lambda m: print("  " + m, flush=True)) if args.verbose else None
    rr = alternate([single, vector], rounds=args.rounds, clock=args.clock, progress=show)
    print(rr.describe())
    for c in (single, vector):
        print(f"{c.name:44} {fmt_rate(c)}")
    print(f"ratio vector / single: {fmt_ratio(rr.ratio(vector.name, single.name))}; target >= 10x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

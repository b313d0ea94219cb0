"""Random-play hands a second: every ginrummy variant, and side by side in the same rounds
OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy`` (the anchors for ``classic``).

    python benchmarks/play.py [--hands 100] [--rounds 7] [--variants classic,oklahoma]

Anchors: ``pip install open_spiel rlcard``.  Each run plays ``--hands`` whole hands with uniformly
random legal actions (chance outcomes drawn uniformly in OpenSpiel; RLCard's ``env.run`` with two
random agents, a tenth as many hands: it is that much slower).  Every engine is timed in the same
alternating rounds (``benchmarks/rounds.py``), one run each a round, CPU time; hands a second and
the ratios are the median of the rounds with their range, beside the machine's load.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate, fmt_ratio

from ginrummy.engine import State
from ginrummy.options import VARIANTS

TARGETS = {"openspiel": 6.0, "rlcard": 10.0}  # classic against each anchor (issue 16: 6x OpenSpiel)


def ours(variant: str, hands: int, undo: bool = True) -> Callable[[], int]:
    rng = random.Random(1)
    seed = [0]

    def run() -> int:
        for _ in range(hands):
            seed[0] += 1
            s = State.new(variant, undo=undo)
            s.deal(seed=seed[0])
            while not s.is_hand_over:
                s.apply(rng.choice(s.legal_actions()))
        return hands

    return run


def openspiel(hands: int) -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)

    def run() -> int:
        for _ in range(hands):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.choice(s.chance_outcomes())[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
        return hands

    return run


def rlcard_env(hands: int) -> Callable[[], int] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run() -> int:
        for _ in range(hands):
            env.run(is_training=False)
        return hands

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100, help="hands a run (default 100; RLCard a tenth)")
    ap.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    ap.add_argument("--variants", default=",".join(VARIANTS), help="ginrummy variants (default all)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every round")
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    if "classic" not in variants:
        variants.insert(0, "classic")
    print(
        f"ginrummy random-play benchmark, {datetime.date.today()}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )
    cases = [Case(f"ginrummy {v}", ours(v, args.hands), None) for v in variants]
    # The engine keeps an undo stack by default; simulations turn it off (State.new(..., undo=False)).
    cases.insert(1, Case("ginrummy classic, undo=False", ours("classic", args.hands, undo=False), None))
    anchors: dict[str, str] = {}
    for key, name, factory, n in (
        ("openspiel", "OpenSpiel gin_rummy", openspiel, args.hands),
        ("rlcard", "RLCard gin-rummy", rlcard_env, max(1, args.hands // 10)),
    ):
        fn = factory(n)
        if fn is None:
            print(f"{name}: not installed (pip install open_spiel rlcard)")
        else:
            cases.append(Case(name, fn, None))
            anchors[key] = name
    show = (lambda m: print("  " + m, flush=True)) if args.verbose else None
    rr = alternate(cases, rounds=args.rounds, clock=args.clock, progress=show)
    print(rr.describe())
    print(f"{'engine':<30}{'hands/s: median (range)':>40}")
    for c in cases:
        print(f"{c.name:<30}{fmt_rate(c):>40}")
    for key, name in anchors.items():
        for ours_name in ("ginrummy classic", "ginrummy classic, undo=False"):
            r = rr.ratio(ours_name, name)
            verdict = "met" if r[0] >= TARGETS[key] else "NOT met"
            print(f"{ours_name[9:]} vs {name}: {fmt_ratio(r)} (target {TARGETS[key]:g}x: {verdict})")


if __name__ == "__main__":
    main()

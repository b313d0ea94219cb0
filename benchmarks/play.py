"""Random-play hands a second: every ginrummy variant, and side by side in the same run
OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy`` (the anchors for ``classic``).

    python benchmarks/play.py [--seconds 5]

Anchors: ``pip install open_spiel rlcard``.  Each measurement plays whole hands with uniformly
random legal actions (chance outcomes drawn uniformly in OpenSpiel) for a fixed wall-clock time.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable

from ginrummy.engine import State
from ginrummy.options import VARIANTS


def rate(play_one: Callable[[int], None], seconds: float) -> float:
    play_one(0)  # warm-up
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        n += 1
        play_one(n)
    return n / (time.perf_counter() - start)


def ours(variant: str) -> Callable[[int], None]:
    rng = random.Random(1)

    def play(i: int) -> None:
        s = State.new(variant)
        s.deal(seed=i)
        while not s.is_hand_over:
            s.apply(rng.choice(s.legal_actions()))

    return play


def openspiel() -> Callable[[int], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)

    def play(i: int) -> None:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))

    return play


def rlcard_env() -> Callable[[int], None] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play(i: int) -> None:
        env.run(is_training=False)

    return play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = ap.parse_args()
    print(f"ginrummy random-play benchmark on {platform.python_implementation()} {platform.python_version()}")
    rates = {v: rate(ours(v), args.seconds) for v in VARIANTS}
    anchors = {}
    for name, factory in (("OpenSpiel gin_rummy", openspiel), ("RLCard gin-rummy", rlcard_env)):
        fn = factory()
        if fn is None:
            print(f"{name}: not installed (pip install open_spiel rlcard)")
        else:
            anchors[name] = rate(fn, args.seconds)
    print(f"{'engine':<24}{'hands/s':>10}")
    for v, r in rates.items():
        print(f"ginrummy {v:<15}{r:>10.0f}")
    for name, r in anchors.items():
        print(f"{name:<24}{r:>10.0f}")
    targets = {"OpenSpiel gin_rummy": 2.0, "RLCard gin-rummy": 10.0}
    for name, r in anchors.items():
        ratio = rates["classic"] / r
        verdict = "met" if ratio >= targets[name] else "NOT met"
        print(f"classic vs {name}: {ratio:.1f}x (target {targets[name]:.0f}x: {verdict})")


if __name__ == "__main__":
    main()

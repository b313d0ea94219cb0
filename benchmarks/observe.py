"""The observer's cost: a seat's observation dict, its masks and the RL arrays, per call, and the
share of the observation in expert-against-greedy play.

    python benchmarks/observe.py [--deals 40] [--rounds 7]

The states are every decision of ``--deals`` classic hands of ``expert`` against ``greedy`` (the
simulator's agents), of random three-player hands and of random solitaire hands, cloned.  Each run
builds every state's observation, masks or arrays once, with the observer's arrangement cache
emptied first (in play a hand is rarely seen twice).  The three are timed in alternating rounds
(``benchmarks/rounds.py``), CPU time, median and range beside the machine's load.  The share is
measured in the same way on whole hands: the time of ``State.observation`` calls (counted by a
wrapper around it) over the time of the hands.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate

from ginrummy.agents import make_agent
from ginrummy.engine import State
from ginrummy.observe import observer


def corpus(variant: str, deals: int) -> list[tuple[State, int]]:
    out: list[tuple[State, int]] = []
    for d in range(deals):
        st = State.new(variant, undo=False)
        agents = None
        if variant == "classic":
            agents = [make_agent("expert", variant, seed=d), make_agent("greedy", variant, seed=d)]
        rng = random.Random(d)
        st.deal(seed=d)
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            out.append((st.clone(), seat))
            legal = st.legal_actions()
            st.apply(agents[seat].act(st.observation(seat), legal) if agents else rng.choice(legal))
        out.append((st.clone(), 0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    states = corpus("classic", args.deals) + corpus("three", args.deals // 4) + corpus("solitaire", args.deals // 4)

    def each(build: str) -> Callable[[], int]:
        def run() -> int:
            observer._melds.cache_clear()
            for st, seat in states:
                if build == "observation":
                    st.observation(seat)
                elif build == "masks":
                    st.observation_masks(seat)
                else:
                    observer.Observer(st, seat).arrays()
            return len(states)

        return run

    r = alternate([Case(b, each(b), None) for b in ("observation", "masks", "arrays")], rounds=args.rounds, runs=3)
    print(f"{len(states)} states; {r.describe()}")
    for c in r.cases.values():
        print(f"  {c.name:<12} {fmt_rate(c)}  ({1e6 / c.rate():.1f} us a call)")

    spent = [0.0]
    real = State.observation

    def timed(self: State, seat: int) -> object:
        t0 = time.process_time()
        try:
            return real(self, seat)
        finally:
            spent[0] += time.process_time() - t0

    def hands() -> int:
        for d in range(12):
            st = State.new("classic", undo=False)
            agents = [make_agent("expert", "classic", seed=d), make_agent("greedy", "classic", seed=d)]
            st.deal(seed=1000 + d)
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                st.apply(agents[seat].act(st.observation(seat), st.legal_actions()))
        return 12

    State.observation = timed  # type: ignore[assignment,method-assign]  # counts the calls' time
    try:
        hands()  # warm-up, not counted
        spent[0] = 0.0
        observer._melds.cache_clear()
        r2 = alternate([Case("expert-vs-greedy", hands, None)], rounds=args.rounds, runs=1, warmup=False)
    finally:
        State.observation = real  # type: ignore[method-assign]  # put back
    total = sum(r2.cases["expert-vs-greedy"].seconds)
    print(f"expert against greedy: {fmt_rate(r2.cases['expert-vs-greedy'])} hands; {r2.describe()}")
    print(f"  the observation's share of that time: {spent[0] / total:.1%}")


if __name__ == "__main__":
    main()

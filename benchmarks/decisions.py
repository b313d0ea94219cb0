"""A fingerprint of every decision the table games' computer players make on seeded games: the
check that a speed change changed no decision.

    python benchmarks/decisions.py [--games 6] [--show]

For every table variant (and classic with the EAAI scoring too: no box or game bonus, where the
expert values its choices by the chance of winning the game), each level from ``beginner`` to
``expert`` plays ``--games`` whole seeded games against ``greedy`` (the expert also against itself
and, in ``three``, the seats filled in turn).  Every decision of every agent goes into a SHA-256:
the seat, the legal actions, the action chosen, the agent's explanation and its value for every
action (``repr`` of the float: bit for bit).  One line a variant and one for all; run it before
and after a change and compare.  ``--show`` prints the number of decisions too; ``--act`` also
checks at every decision that ``Agent.act`` (the simulator's path, which may skip the reasons)
plays ``decide``'s action (the digests are the same with or without it).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from ginrummy.agents import make_agent
from ginrummy.agents.base import Agent
from ginrummy.engine import State
from ginrummy.variants import table_variants

LEVELS = ("beginner", "casual", "intermediate", "advanced", "expert")
EAAI = {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}
MAX_HANDS = 40


def tables() -> list[tuple[str, str, dict[str, object]]]:
    out: list[tuple[str, str, dict[str, object]]] = [(v, v, {}) for v in table_variants()]
    out.append(("classic-eaai", "classic", dict(EAAI)))
    return out


def pairings(variant: str) -> list[tuple[str, ...]]:
    n = 3 if variant == "three" else 2
    out: list[tuple[str, ...]] = []
    for level in LEVELS:
        out.append((level,) + ("greedy",) * (n - 1))
    out.append(("expert",) * n)
    return out


def play(
    variant: str, options: dict[str, object], names: tuple[str, ...], game: int, h: hashlib._Hash, act: bool = False
) -> int:
    agents: list[Agent] = [make_agent(a, variant, seed=game * 10 + i) for i, a in enumerate(names)]
    st = State.new(variant, options, undo=False)
    decisions = 0
    hands = 0
    while not st.is_terminal and hands < MAX_HANDS:
        st.deal(seed=1000 * game + hands)
        hands += 1
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            legal = st.legal_actions()
            dec = agents[seat].decide(st.observation(seat), legal)
            if act and agents[seat].act(st.observation(seat), legal) != dec.action:
                raise SystemExit(f"{variant} {names} game {game}: act differs from decide at decision {decisions}")
            values = ",".join(f"{k}={v!r}" for k, v in sorted(dec.values.items()))
            legal_text = " ".join(str(a.id) for a in legal)
            h.update(f"{seat}|{legal_text}|{dec.action.id}|{dec.explanation}|{values}\n".encode())
            st.apply(dec.action)
            decisions += 1
    h.update(f"end {st.final_totals()}\n".encode())
    return decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=6, help="games a pairing (default 6)")
    ap.add_argument("--show", action="store_true", help="print the decisions counted and the time")
    ap.add_argument("--act", action="store_true", help="check that act plays decide's action at every decision")
    args = ap.parse_args(argv)
    total = hashlib.sha256()
    for label, variant, options in tables():
        h = hashlib.sha256()
        n = 0
        t0 = time.process_time()
        for names in pairings(variant):
            for g in range(args.games):
                h.update(f"{names} game {g}\n".encode())
                n += play(variant, options, names, g, h, args.act)
        digest = h.hexdigest()
        total.update(digest.encode())
        extra = f"  {n} decisions, {time.process_time() - t0:.1f} s" if args.show else ""
        print(f"{label:14} {digest}{extra}", flush=True)
    print(f"{'all':14} {total.hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

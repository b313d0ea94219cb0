"""Imitation learning from the expert's games: records -> arrays -> a small policy -> how it plays.

    pip install -e '.[rl]'
    python examples/imitation.py [--deals 1500] [--eval-deals 300] [--epochs 30] [--workers 2]

1. ``ginrummy.sim`` plays ``--deals`` mirrored classic deals between two ``expert`` players and
   keeps every game's record (what ``ginrummy simulate --records FILE`` writes; ``--records FILE``
   saves them here too).
2. :func:`ginrummy.datasets.decisions` turns the records into (observation, legal mask, action,
   outcome) rows; the games are split nine to one into training and held-out games.
3. A small network (the 280 observation floats -> 256 ReLU units -> 213 action logits, numpy only)
   is trained by cross-entropy on the expert's choices, illegal actions masked out.
4. Reported: its agreement with the expert on the held-out decisions (overall, on the draw/take
   decisions and on the discards), then its strength: it plays ``--eval-deals`` fresh mirrored
   deals against the expert and against the ``greedy`` player (each deal twice, seats swapped),
   as its points minus the opponent's a hand with a 95% interval over deal pairs.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import numpy as np

from ginrummy.agents import make_agent
from ginrummy.datasets import Decisions, decisions
from ginrummy.engine import State
from ginrummy.envs.encoding import encode_state
from ginrummy.sim import SimJob, deal_seed, simulate


class Policy:
    """A one-hidden-layer network over the observation; the legal action with the largest logit."""

    def __init__(self, inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0, math.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = rng.normal(0, math.sqrt(1 / hidden), (hidden, actions)).astype(np.float32)
        self.b2 = np.zeros(actions, np.float32)
        self.params = [self.w1, self.b1, self.w2, self.b2]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def logits(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.maximum(x @ self.w1 + self.b1, 0)
        return h, h @ self.w2 + self.b2

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        _, z = self.logits(obs)
        return np.where(mask > 0, z, -np.inf).argmax(axis=-1)

    def train_step(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray, lr: float) -> float:
        h, z = self.logits(x)
        z = np.where(mask > 0, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
        dz = p
        dz[np.arange(n), y] -= 1
        dz /= n
        dh = (dz @ self.w2.T) * (h > 0)
        grads = [x.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0)]
        self.t += 1
        for i, (param, g) in enumerate(zip(self.params, grads, strict=True)):  # Adam
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mh = self.m[i] / (1 - 0.9**self.t)
            vh = self.v[i] / (1 - 0.999**self.t)
            param -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return loss


def agreement(policy: Policy, data: Decisions) -> dict[str, float]:
    chosen = policy.act(data.observations, data.masks)
    same = chosen == data.actions
    drawing = data.actions < 3  # draw, take, pass
    return {
        "all": float(same.mean()),
        "draw/take/pass": float(same[drawing].mean()),
        "discard/knock/gin": float(same[~drawing].mean()),
    }


def play(policy: Policy, opponent: str, deals: int, seed: int) -> tuple[float, float, float]:
    """Policy v. ``opponent`` on mirrored classic deals: (mean margin a hand, 95% half-width, wins)."""
    other = make_agent(opponent, "classic", seed=seed)
    pairs: list[float] = []
    wins = 0
    for k in range(deals):
        margins = []
        for me in (0, 1):
            st = State.new("classic")
            st.deal(seed=deal_seed(seed, k))
            while not st.is_hand_over:
                seat = st.current_player
                assert seat is not None
                if seat == me:
                    enc = encode_state(st, seat)
                    st.apply(int(policy.act(enc["observation"][None], enc["action_mask"][None])[0]))
                else:
                    st.apply(other.act(st.observation(seat), st.legal_actions()))
            res = st.hand_result
            assert res is not None
            margins.append(float(res.points[me] - res.points[1 - me]))
            wins += res.winner == me and any(res.points)
        pairs.append(statistics.fmean(margins))
    m = statistics.fmean(pairs)
    return m, 1.96 * statistics.stdev(pairs) / math.sqrt(len(pairs)), wins / (2 * deals)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--deals", type=int, default=1500, help="mirrored expert-v-expert deals to learn from")
    ap.add_argument("--eval-deals", type=int, default=300, help="fresh mirrored deals against each opponent")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--records", help="also save the expert's games here (JSON lines)")
    args = ap.parse_args(argv)
    t0 = time.time()
    result = simulate(
        SimJob("classic", ("expert", "expert"), args.deals, args.seed, records=True), workers=args.workers
    )
    records = [o.record for o in result.outcomes if o.record is not None]
    if args.records:
        import json

        with open(args.records, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
    data = decisions(records)
    print(f"{len(records)} expert games, {len(data)} decisions ({time.time() - t0:.0f} s)")
    held_out = data.games % 10 == 0
    train, test = data.subset(~held_out), data.subset(held_out)
    rng = np.random.default_rng(args.seed)
    policy = Policy(train.observations.shape[1], args.hidden, train.masks.shape[1], rng)
    n = len(train)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(n)
        losses = []
        for s in range(0, n, args.batch):
            b = order[s : s + args.batch]
            losses.append(policy.train_step(train.observations[b], train.masks[b], train.actions[b], args.lr))
        if epoch % 5 == 0 or epoch == args.epochs:
            agree = agreement(policy, test)["all"]
            print(f"  epoch {epoch}: loss {statistics.fmean(losses):.3f}, held-out agreement {agree:.1%}")
    print(f"trained on {len(train)} decisions, tested on {len(test)} held-out ones ({time.time() - t0:.0f} s)")
    for what, value in agreement(policy, test).items():
        print(f"agreement with the expert, {what}: {value:.1%}")
    eval_seed = args.seed + 10_000  # deals never seen in training
    for opponent in ("greedy", "expert"):
        m, h, w = play(policy, opponent, args.eval_deals, eval_seed)
        print(
            f"policy v. {opponent} over {args.eval_deals} mirrored deals: {m:+.2f} ± {h:.2f} points a hand, "
            f"won {w:.1%} of the hands ({time.time() - t0:.0f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

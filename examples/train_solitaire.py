"""Train a small policy for Solitaire Gin Rummy (gin wins, the joker loses) with REINFORCE.

No deep-learning framework: the policy is a linear softmax over the legal actions, scored by a
handful of features of each action computed from the observation (the deadwood left after the
discard, whether it goes gin, whether the card sits in a meld, how many partners it has...).  It
starts as the uniform random policy.  The environment's reward is +1 for gin and -1 for the joker;
a random policy almost never wins, so that alone gives REINFORCE nothing to learn from, and the
training adds potential-based shaping on the deadwood the player can keep (which leaves the best
policy unchanged).

    python examples/train_solitaire.py [--episodes 2000] [--eval-deals 300] [--out solitaire_training]

Every ``--eval-every`` episodes the greedy version of the policy plays the same ``--eval-deals``
deals as a random policy; the ``planner`` agent (``ginrummy.agents``; skipped with a message if it
is not available) plays the first ``--planner-deals`` of them on every core, so the win rates
compare on identical deals.  The learning curve goes to ``OUT.csv``, and its plot to ``OUT.png``
when matplotlib is installed.  Needs ``pip install 'ginrummy[rl]'``.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ginrummy.actions import NUM_ACTIONS, Action
from ginrummy.cards import CARDS
from ginrummy.envs import make_gym
from ginrummy.envs.encoding import plane_slice
from ginrummy.melds import best_arrangement, deadwood_after_discards

FEATURES = (
    "gin",  # the action goes gin: the hand is won
    "deadwood_after",  # least deadwood of the ten cards kept / 100
    "card_value",  # the discarded card's value / 10
    "card_in_meld",  # the card is in a meld of the best arrangement of the eleven
    "same_rank_kept",  # cards of the same rank kept / 3
    "suit_neighbours_kept",  # cards of the same suit within two ranks kept / 4
    "same_rank_unseen",  # cards of the same rank still unseen / 3 (the card is live)
    "suit_neighbours_unseen",  # unseen cards of the same suit within two ranks / 4
)
Policy = Callable[[dict[str, npt.NDArray[Any]], Any], int]


_RANK = np.array([[float(a != b and a % 13 == b % 13) for b in range(52)] for a in range(52)])
_NEAR = np.array(
    [[float(a != b and a // 13 == b // 13 and abs(a % 13 - b % 13) <= 2) for b in range(52)] for a in range(52)]
)
_VALUE = np.array([c.value / 10 for c in CARDS])
_CARD_OF = np.full(NUM_ACTIONS, -1)  # action id -> the card it discards (-1: none)
_IS_GIN = np.zeros(NUM_ACTIONS)
for _a in range(NUM_ACTIONS):
    _act = Action.from_id(_a)
    if _act.kind in ("discard", "gin", "knock") and _act.card is not None:
        _CARD_OF[_a] = int(_act.card)
    _IS_GIN[_a] = _act.kind == "gin"


def action_features(obs: dict[str, npt.NDArray[Any]]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The legal action ids and one feature row per action, from the observation alone."""
    vec = obs["observation"].astype(np.float64)
    legal = np.flatnonzero(obs["action_mask"])
    held = vec[plane_slice("hand")]
    unseen = vec[plane_slice("unseen")]
    hand = sum(1 << int(c) for c in np.flatnonzero(held))
    after = np.zeros(52)
    for card, dw in deadwood_after_discards(hand).items():
        after[int(card)] = dw / 100
    in_meld = np.zeros(52)
    for meld in best_arrangement(hand).melds:
        in_meld[[int(c) for c in meld]] = 1.0
    per_card = np.stack(
        [after, _VALUE, in_meld, _RANK @ held / 3, _NEAR @ held / 4, _RANK @ unseen / 3, _NEAR @ unseen / 4], axis=1
    )
    cards = _CARD_OF[legal]
    feats = np.zeros((len(legal), len(FEATURES)))
    feats[:, 0] = _IS_GIN[legal]
    has_card = cards >= 0
    feats[has_card, 1:] = per_card[cards[has_card]]
    return legal, feats


def potential(feats: npt.NDArray[np.float64], scale: float) -> float:
    """Minus the least deadwood the player can keep now (times ``scale``): the shaping potential."""
    return -scale * float(feats[:, 1].min())


def softmax(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    e = np.exp(x - x.max())
    return e / e.sum()  # type: ignore[no-any-return]


def play(env: Any, policy: Policy, seed: int) -> float:
    """One deal played by ``policy``; its reward (+1 win, -1 loss)."""
    obs, _ = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, _ = env.step(policy(obs, env))
        total += reward
    return total


def win_rate(env: Any, policy: Policy, seeds: list[int]) -> float:
    return float(np.mean([play(env, policy, s) > 0 for s in seeds]))


def make_planner(make_agent: Callable[..., Any], seed: int, rollouts: int) -> Any:
    try:
        return make_agent("planner", "solitaire", seed=seed, rollouts=rollouts)
    except TypeError:  # a planner without that setting
        return make_agent("planner", "solitaire", seed=seed)


def _planner_wins(job: tuple[list[int], int, int]) -> list[bool]:
    """Worker: the planner plays ``seeds`` (a separate process per core)."""
    from ginrummy.agents import make_agent

    seeds, seed, rollouts = job
    env = make_gym("solitaire", scoring="none")
    planner = make_planner(make_agent, seed, rollouts)

    def policy(_obs: dict[str, npt.NDArray[Any]], env: Any) -> int:
        return int(planner.act(env.raw_observation(), env.legal_actions()).id)

    return [play(env, policy, s) > 0 for s in seeds]


def planner_win_rate(seeds: list[int], seed: int, rollouts: int, workers: int) -> float:
    jobs = [(seeds[i::workers], seed, rollouts) for i in range(workers)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            wins = [w for chunk in pool.map(_planner_wins, jobs) for w in chunk]
    else:
        wins = _planner_wins(jobs[0])
    return float(np.mean(wins))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--episodes", type=int, default=2000, help="training deals (default 2000)")
    parser.add_argument("--batch", type=int, default=20, help="deals per policy update (default 20)")
    parser.add_argument("--lr", type=float, default=1.0, help="learning rate (default 1)")
    parser.add_argument("--gamma", type=float, default=0.9, help="discount of the shaped return (default 0.9)")
    parser.add_argument("--shaping", type=float, default=2.0, help="weight of the deadwood shaping (default 2)")
    parser.add_argument("--eval-deals", type=int, default=300, help="deals of each evaluation (default 300)")
    parser.add_argument("--eval-every", type=int, default=400, help="episodes between evaluations (default 400)")
    parser.add_argument("--planner-deals", type=int, default=100, help="deals the planner plays (default 100)")
    parser.add_argument("--planner-rollouts", type=int, default=32, help="planner rollouts a decision (default 32)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes for the planner")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="solitaire_training", help="output file stem (default solitaire_training)")
    args = parser.parse_args(argv)

    env = make_gym("solitaire", scoring="none")  # one deal = one game: gin wins, the joker loses
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(len(FEATURES))  # all zero: the uniform random policy
    eval_seeds = [10_000_000 + i for i in range(args.eval_deals)]  # never used in training

    def greedy(obs: dict[str, npt.NDArray[Any]], _env: Any) -> int:
        legal, feats = action_features(obs)
        return int(legal[int(np.argmax(feats @ theta))])

    def random_policy(obs: dict[str, npt.NDArray[Any]], _env: Any) -> int:
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    start = time.perf_counter()
    baselines: dict[str, float] = {"random": win_rate(env, random_policy, eval_seeds)}
    print(f"random policy:  win rate {baselines['random']:.3f} on {args.eval_deals} deals")
    try:
        from ginrummy.agents import make_agent

        make_planner(make_agent, args.seed, args.planner_rollouts)
    except Exception as exc:  # ImportError, or GinRummyError while no planner is registered
        print(f"planner agent not available ({type(exc).__name__}: {exc}): comparison skipped")
    else:
        t0 = time.perf_counter()
        planner_seeds = eval_seeds[: args.planner_deals]
        baselines["planner"] = planner_win_rate(planner_seeds, args.seed, args.planner_rollouts, args.workers)
        print(
            f"planner agent:  win rate {baselines['planner']:.3f} on the first {len(planner_seeds)} of those deals "
            f"({args.planner_rollouts} rollouts a decision, {time.perf_counter() - t0:.0f} s)"
        )

    curve: list[tuple[int, float]] = [(0, baselines["random"])]  # theta = 0 is the random policy
    batch: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], int, float]] = []
    for episode in range(1, args.episodes + 1):
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        trace = []  # (features of the legal actions, probabilities, index chosen, shaped reward)
        done = False
        legal, feats = action_features(obs)
        phi = potential(feats, args.shaping)
        while not done:
            probs = softmax(feats @ theta)
            i = int(rng.choice(len(legal), p=probs))
            obs, r, done, _, _ = env.step(int(legal[i]))
            if not done:
                next_legal, next_feats = action_features(obs)
                next_phi = potential(next_feats, args.shaping)
            else:
                next_phi = 0.0
            # Potential-based shaping (Ng et al. 1999): it leaves the best policy unchanged and
            # credits each discard with the deadwood it saves; the real reward is only +1 or -1.
            trace.append((feats, probs, i, float(r) + args.gamma * next_phi - phi))
            if not done:
                legal, feats, phi = next_legal, next_feats, next_phi
        ret = 0.0
        for feats_t, probs_t, i_t, r_t in reversed(trace):
            ret = r_t + args.gamma * ret
            batch.append((feats_t, probs_t, i_t, ret))
        if episode % args.batch == 0:
            returns = np.array([b[3] for b in batch])
            adv = (returns - returns.mean()) / (returns.std() + 1e-8)
            grad = sum(a * (f[i] - p @ f) for (f, p, i, _), a in zip(batch, adv, strict=True))
            theta += args.lr * grad / len(batch)
            batch = []
        if episode % args.eval_every == 0 or episode == args.episodes:
            rate = win_rate(env, greedy, eval_seeds)
            curve.append((episode, rate))
            print(f"episode {episode:6d}: greedy policy win rate {rate:.3f}  ({time.perf_counter() - start:.0f} s)")

    if "planner" in baselines:
        n = min(args.planner_deals, args.eval_deals)
        sub = win_rate(env, greedy, eval_seeds[:n])
        print(f"on the planner's {n} deals: trained policy {sub:.3f}, planner {baselines['planner']:.3f}")
    print("weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, theta, strict=True)))
    out = Path(args.out)
    path = out.with_suffix(".csv")
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["episodes", "trained_win_rate", *(f"{k}_win_rate" for k in baselines)])
        for ep, rate in curve:
            w.writerow([ep, f"{rate:.4f}", *(f"{v:.4f}" for v in baselines.values())])
    print(f"wrote the learning curve to {path}")
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib for one)")
        return 0
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([e for e, _ in curve], [r for _, r in curve], marker="o", label="trained (greedy)")
    for (name, rate), style in zip(baselines.items(), ("--", ":"), strict=False):
        label = name if name == "random" else f"{name} (first {min(args.planner_deals, args.eval_deals)} deals)"
        ax.axhline(rate, linestyle=style, color="grey" if name == "random" else "black", label=label)
    ax.set_xlabel("training deals")
    ax.set_ylabel(f"win rate on {args.eval_deals} deals")
    ax.set_title("Solitaire Gin Rummy (scoring=none): REINFORCE, linear softmax")
    ax.legend()
    fig.tight_layout()
    path = out.with_suffix(".png")
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

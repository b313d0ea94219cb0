"""OpenSpiel's algorithms on ginrummy's games (``pip install -e '.[openspiel]'``).

Two experiments, each on the games that ``import ginrummy.openspiel`` registers:

``ismcts``
    OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, which
    samples worlds through :meth:`ginrummy.openspiel.GinRummyState.resample_from_infostate`)
    against ginrummy's ``expert`` in ``three`` and ``classic``.  Each deal is played twice with the
    seats swapped: a random order of the 52 cards feeds every chance node (the deal, then each stock
    draw takes the first card of the order still in the stock), so both seatings see the same
    cards.  In ``three`` the two seats that play the first hand swap (the box and the captain; the
    sitter holds no cards).  Reported: IS-MCTS's points minus the expert's a hand, with a 95%
    interval over deal pairs (each pair's mean is one sample), and its share of the hands won.

``solitaire``
    A sampled evaluation (OpenSpiel's ``evaluate_bots``: play the game out, chance sampled) of four
    players of ``ginrummy_solitaire`` with ``scoring="none"`` (gin wins the hand, the joker loses
    it): OpenSpiel's uniform random bot, the greedy rollout policy below as a bot, IS-MCTS (here,
    with no hidden cards at a decision, plain MCTS over the chance nodes), and ginrummy's
    ``planner``.  Reported: the share of hands won with a 95% Wilson interval.

IS-MCTS evaluates a leaf by a rollout (``--rollout``): ``random`` is OpenSpiel's
``RandomRolloutEvaluator``; ``greedy`` (the default: random rollouts rarely end a hand before the
wall, and teach the search little) plays every seat by a one-step rule: take a card that lowers
deadwood, knock or go gin when allowed, otherwise discard a card that leaves the least deadwood.

    python examples/openspiel_algorithms.py ismcts --variant three --pairs 100
    python examples/openspiel_algorithms.py ismcts --variant classic --pairs 100
    python examples/openspiel_algorithms.py solitaire --deals 400

Results of the runs above are in docs/strength.md ("OpenSpiel algorithms on ginrummy games").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import ginrummy.openspiel as gos
from ginrummy.actions import ACTIONS, Action
from ginrummy.agents import make_agent
from ginrummy.melds import best_discards, min_deadwood


# ---------------------------------------------------------------------------- rollouts
def greedy_action(state: Any, rng: random.Random) -> int:
    """The one-step rule of the greedy rollouts, on the engine state of the (sampled) world."""
    eng = state.engine
    legal = state.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    seat = eng.current_player
    hand = eng.hands[seat]
    kinds = {a: ACTIONS[a].kind for a in legal}
    for want in ("gin", "knock"):
        ending = [a for a in legal if kinds[a] == want]
        if ending:
            return int(ending[0])
    if eng.phase in ("upcard", "draw"):
        take = Action.parse("take").id
        if take in legal and eng.pile:
            top = int(eng.pile[-1])
            if best_discards(hand | 1 << top)[0] < min_deadwood(hand):
                return take
        return int(next(a for a in legal if kinds[a] in ("draw", "pass")))
    discards = [a for a in legal if kinds[a] == "discard"]
    if not discards:
        return int(rng.choice(legal))
    _, mask = best_discards(hand)
    good = [a for a in discards if mask >> (a - 3) & 1]
    return int(rng.choice(good or discards))


class GreedyRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Leaf value: the returns of one rollout with :func:`greedy_action` for every seat."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[self._rng.randrange(len(outcomes))][0])
            else:
                s.apply_action(greedy_action(s, self._rng))
        return np.array(s.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


# ---------------------------------------------------------------------------- bots
class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """A ginrummy agent as an OpenSpiel bot: it decides from its seat's observation only."""

    def __init__(self, name: str, variant: str, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.agent = make_agent(name, variant, seed=seed)

    def step(self, state: Any) -> int:
        eng = state.engine
        seat = state.current_player()
        decision = self.agent.decide(eng.observation(seat), eng.legal_actions())
        return Action(decision.action.kind, decision.action.card).id

    def restart_at(self, state: Any) -> None:
        pass


class GreedyBot(pyspiel.Bot):  # type: ignore[misc]
    def __init__(self, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self._rng = random.Random(seed)

    def step(self, state: Any) -> int:
        return greedy_action(state, self._rng)

    def restart_at(self, state: Any) -> None:
        pass


class Stateless(pyspiel.Bot):  # type: ignore[misc]
    """A bot that keeps nothing between moves, so ``evaluate_bots`` may restart it anywhere."""

    def __init__(self, bot: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: Any) -> int:
        return int(self.bot.step(state))

    def restart_at(self, state: Any) -> None:
        pass


def make_ismcts(game: Any, args: argparse.Namespace, seed: int) -> Any:
    if args.rollout == "greedy":
        evaluator = GreedyRolloutEvaluator(seed)
    else:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=args.uct_c,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    rng = random.Random(seed + 1)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))  # seeded worlds
    return bot


# ---------------------------------------------------------------------------- statistics
def mean_interval(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    m = statistics.fmean(xs)
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")


def wilson(wins: int, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# ---------------------------------------------------------------------------- experiments
def play_deal(game: Any, order: list[int], seats: dict[int, Any]) -> Any:
    """One hand: chance nodes take the first card of ``order`` they may; seat -> bot."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            allowed = {a for a, _ in s.chance_outcomes()}
            s.apply_action(next(c for c in order if c in allowed))
        else:
            s.apply_action(seats[s.current_player()].step(s))
    return s


def run_ismcts(args: argparse.Namespace) -> None:
    game = pyspiel.load_game(gos.game_name(args.variant))
    pair_margins: list[float] = []
    won = played = 0
    start = time.time()
    for i in range(args.pairs):
        order = list(range(52))
        random.Random(args.seed * 1_000_003 + i).shuffle(order)
        margins = []
        for mcts_seat in (0, 1):  # the two seats that play the first hand (three: box, captain)
            bot = make_ismcts(game, args, args.seed * 7919 + 2 * i + mcts_seat)
            expert = AgentBot("expert", args.variant, seed=args.seed + i)
            s = play_deal(game, order, {mcts_seat: bot, 1 - mcts_seat: expert})
            res = s.engine.hand_result
            pts = list(res.points) if res is not None else [0, 0, 0]
            margins.append(float(pts[mcts_seat] - pts[1 - mcts_seat]))
            played += 1
            won += bool(res is not None and res.winner == mcts_seat and any(pts))
        pair_margins.append(statistics.fmean(margins))
        if args.progress and (i + 1) % 10 == 0:
            m, h = mean_interval(pair_margins)
            print(f"  {i + 1} pairs: {m:+.2f} ± {h:.2f}  ({time.time() - start:.0f} s)", file=sys.stderr)
    m, h = mean_interval(pair_margins)
    print(
        f"{args.variant}: IS-MCTS ({args.simulations} simulations, {args.rollout} rollouts, uct_c {args.uct_c}) "
        f"v. expert over {args.pairs} deal pairs ({played} hands): {m:+.2f} ± {h:.2f} points a hand; "
        f"IS-MCTS won {won} of {played} hands ({won / played:.1%}); {time.time() - start:.0f} s"
    )


def run_solitaire(args: argparse.Namespace) -> None:
    game = pyspiel.load_game("ginrummy_solitaire", {"scoring": "none"})
    players = {
        "uniform random": lambda k: Stateless(pyspiel.make_uniform_random_bot(0, args.seed + k)),
        "greedy": lambda k: GreedyBot(args.seed + k),
        f"IS-MCTS ({args.simulations} simulations, {args.rollout} rollouts)": lambda k: Stateless(
            make_ismcts(game, args, args.seed + k)
        ),
        "planner": lambda k: AgentBot("planner", "solitaire", seed=args.seed + k),
    }
    for name, make in players.items():
        start = time.time()
        wins = 0
        deals = args.mcts_deals if name.startswith("IS-MCTS") else args.deals
        for k in range(deals):
            rng = np.random.RandomState(args.seed * 1_000_003 + k)
            returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [make(k)], rng)
            wins += returns[0] > 0
        lo, hi = wilson(wins, deals)
        print(
            f"solitaire (scoring none), {name}: won {wins} of {deals} hands "
            f"({wins / deals:.1%}, 95% interval {lo:.1%} to {hi:.1%}); {time.time() - start:.0f} s"
        )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("experiment", choices=["ismcts", "solitaire"])
    ap.add_argument("--variant", default="classic", choices=["classic", "oklahoma", "hollywood", "three"])
    ap.add_argument("--pairs", type=int, default=100, help="ismcts: deals, each played in both seatings")
    ap.add_argument("--deals", type=int, default=400, help="solitaire: hands per player")
    ap.add_argument("--simulations", type=int, default=100, help="IS-MCTS simulations a decision")
    ap.add_argument("--rollout", choices=["greedy", "random"], default="greedy")
    ap.add_argument("--uct-c", type=float, help="UCT exploration (default 40 in points, 1.4 for the solitaire's ±1)")
    ap.add_argument("--mcts-deals", type=int, default=100, help="solitaire: hands for IS-MCTS (slower)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)
    if args.uct_c is None:
        args.uct_c = 40.0 if args.experiment == "ismcts" else 1.4
    if args.experiment == "ismcts":
        run_ismcts(args)
    else:
        run_solitaire(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

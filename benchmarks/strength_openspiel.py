"""ginrummy's ``expert`` against OpenSpiel's simple gin rummy bot, inside OpenSpiel's own engine.

    pip install open_spiel
    python benchmarks/strength_openspiel.py [--deals 10000] [--workers 2] [--seed 1]

Each deal is a random permutation of the 52 cards that feeds every chance node of OpenSpiel's
``gin_rummy`` (the deal, the upcard and each stock draw take the next card of the permutation), so
the same deal is played twice with the seats swapped.  The expert only sees an observation built
from what its seat may know in OpenSpiel's state (its hand, the discard pile, the stock size, the
public history of the hand, the cards the opponent took from the pile), exactly the keys of
``ginrummy.engine.State.observation``.  OpenSpiel's scoring equals ginrummy's defaults (gin 25,
undercut 25, knock limit 10).  Note that OpenSpiel's layoffs only extend a run at its original
ends; the expert lays off whatever OpenSpiel allows that its own best defence would lay off.

Prints the expert's points per hand and share of hands won, with 95% intervals clustered by deal
pair (each pair's mean is one sample).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.actions import Action
from ginrummy.agents import make_agent
from ginrummy.cards import Card, CardSet
from ginrummy.melds import best_arrangement, best_defense, best_discards, deadwood_after_discards, min_deadwood
from ginrummy.options import options_for

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
OPTIONS = options_for("classic").to_dict()


def _setup() -> tuple[Any, Any, list[int], dict[int, int]]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    to_ours = [int(Card.parse(utils.card_string(i))) for i in range(52)]
    to_os = {c: i for i, c in enumerate(to_ours)}
    return game, utils, to_ours, to_os


class Driver:
    """Plays one OpenSpiel hand: seat ``expert_seat`` is ginrummy's expert, the other the simple bot."""

    def __init__(self, game: Any, utils: Any, to_ours: list[int], to_os: dict[int, int], seed: int) -> None:
        import pyspiel

        self.game, self.utils, self.to_ours, self.to_os = game, utils, to_ours, to_os
        self.phase_enum = pyspiel.gin_rummy.Phase
        self.bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
        self.expert = make_agent("expert", "classic", seed=seed)
        self.decisions = 0
        self.expert_time = 0.0

    def card(self, os_card: int) -> str:
        return str(Card(self.to_ours[os_card]))

    def play(self, perm: list[int], expert_seat: int) -> float:
        s = self.game.new_initial_state()
        for b in self.bots:
            b.restart()
        history: list[dict[str, Any]] = []
        known: list[set[int]] = [set(), set()]
        initial_upcard: int | None = None
        plan: list[int] = []
        pos = 0
        while not s.is_terminal():
            if s.is_chance_node():
                legal = {a for a, _ in s.chance_outcomes()}
                while perm[pos] not in legal:
                    pos += 1
                s.apply_action(perm[pos])
                pos += 1
                continue
            p = s.current_player()
            phase = s.current_phase()
            if initial_upcard is None:
                initial_upcard = s.upcard()
            if p != expert_seat:
                action = self.bots[p].step(s)
            elif plan:
                action = plan.pop(0)
                if action not in s.legal_actions():
                    plan.clear()
                    action = self._finish_step(s, p, phase)
            elif phase in (self.phase_enum.FIRST_UPCARD, self.phase_enum.DRAW, self.phase_enum.DISCARD):
                action, plan = self._expert_step(s, p, phase, history, known, initial_upcard)
            else:
                action = self._finish_step(s, p, phase)
            # Keep the public history in ginrummy's notation.
            if phase == self.phase_enum.FIRST_UPCARD and action == PASS:
                history.append({"seat": p, "action": "pass"})
            elif action == DRAW_UPCARD:
                known[p].add(s.upcard())
                history.append({"seat": p, "action": "take"})
            elif action == DRAW_STOCK:
                history.append({"seat": p, "action": "draw"})
            elif phase == self.phase_enum.DISCARD and action < 52:
                known[p].discard(action)
                history.append({"seat": p, "action": f"discard {self.card(action)}"})
            s.apply_action(action)
        return float(s.returns()[expert_seat])

    def _observation(
        self, s: Any, p: int, phase: Any, history: list[dict[str, Any]], known: list[set[int]], initial: int
    ) -> tuple[dict[str, Any], list[Action], list[int]]:
        hand = sorted(self.to_ours[c] for c in s.hands()[p])
        pile = [self.card(c) for c in s.discard_pile()]
        if s.upcard() is not None and s.upcard() >= 0:
            pile.append(self.card(s.upcard()))
        legal_os = s.legal_actions()
        legal: list[Action] = []
        if phase == self.phase_enum.FIRST_UPCARD and DRAW_STOCK in legal_os:
            name = "draw"  # both passed the upcard: the non-dealer must draw from the stock
            legal = [Action("draw")]
        elif phase == self.phase_enum.FIRST_UPCARD:
            name = "upcard"
            legal = [Action("take"), Action("pass")]
        elif phase == self.phase_enum.DRAW:
            name = "draw"
            legal = [Action("draw")] + ([Action("take")] if DRAW_UPCARD in legal_os else [])
            if DRAW_STOCK not in legal_os:
                legal = [Action("take")]
        else:
            name = "discard"
            legal = [Action("discard", Card(self.to_ours[c])) for c in legal_os if c < 52]
            if KNOCK in legal_os:
                mask = sum(1 << c for c in hand)
                allowed = {a.card for a in legal}
                for c, d in deadwood_after_discards(mask).items():
                    if c in allowed and d <= 10:
                        legal.append(Action("gin" if d == 0 else "knock", c))
        opp = 1 - p
        obs = {
            "variant": "classic",
            "seat": p,
            "options": OPTIONS,
            "hand_number": 1,
            "phase": name,
            "current_player": p,
            "to_act": True,
            "legal_actions": [str(a) for a in legal],
            "hand": [str(Card(c)) for c in hand],
            "deadwood": min_deadwood(sum(1 << c for c in hand)),
            "upcard": self.card(initial),
            "discard_pile": pile,
            "stock_size": s.stock_size(),
            "hand_sizes": [len(s.hands()[0]), len(s.hands()[1])],
            "knock_limit": 10,
            "known_cards": {str(opp): [self.card(c) for c in sorted(known[opp])]},
            "history": list(history),
            "totals": [0, 0],
        }
        return obs, legal, legal_os

    def _expert_step(
        self, s: Any, p: int, phase: Any, history: list[dict[str, Any]], known: list[set[int]], initial: int
    ) -> tuple[int, list[int]]:
        obs, legal, _ = self._observation(s, p, phase, history, known, initial)
        t = time.perf_counter()
        act = self.expert.act(obs, legal)
        self.expert_time += time.perf_counter() - t
        self.decisions += 1
        if act.kind == "take":
            return DRAW_UPCARD, []
        if act.kind == "draw":
            return DRAW_STOCK, []
        if act.kind == "pass":
            return PASS, []
        assert act.card is not None
        os_card = self.to_os[int(act.card)]
        if act.kind == "discard":
            return os_card, []
        # Knock or gin: OpenSpiel takes the knock, then the discard, then the melds, then a pass.
        kept = sum(1 << self.to_ours[c] for c in s.hands()[p]) & ~(1 << int(act.card))
        return KNOCK, [os_card, *self._meld_actions(best_arrangement(kept).melds), PASS]

    def _meld_action(self, meld: tuple[Card, ...]) -> int:
        return MELD_BASE + int(self.utils.meld_to_int([self.to_os[int(c)] for c in meld]))

    def _meld_actions(self, melds: tuple[tuple[Card, ...], ...]) -> list[int]:
        """OpenSpiel's melds hold at most five cards: a longer run is declared as 3 + the rest."""
        out = []
        for meld in melds:
            while len(meld) > 5:
                out.append(self._meld_action(meld[:3]))
                meld = meld[3:]
            out.append(self._meld_action(meld))
        return out

    def _finish_step(self, s: Any, p: int, phase: Any) -> int:
        """Knock declarations, layoffs and the wall, done the way the expert's engine would."""
        legal = s.legal_actions()
        hand = sum(1 << self.to_ours[c] for c in s.hands()[p])
        if phase == self.phase_enum.WALL:
            if KNOCK in legal and best_discards(hand)[0] <= 10:
                return KNOCK
            return PASS if PASS in legal else legal[0]
        if phase == self.phase_enum.KNOCK:
            if any(a < 52 for a in legal):
                _, best = best_discards(hand)
                for c in CardSet(best):
                    if self.to_os[int(c)] in legal:
                        return self.to_os[int(c)]
                return min(a for a in legal if a < 52)
            for a in self._meld_actions(best_arrangement(hand).melds):
                if a in legal:
                    return a
            return PASS
        if phase == self.phase_enum.LAYOFF:
            knocker = 1 - p
            knocker_melds = [[self.to_ours[c] for c in self.utils.int_to_meld[m]] for m in s.layed_melds()[knocker]]
            cards_phase = any(a < 52 for a in legal)
            if cards_phase:
                wanted = best_defense(knocker_melds, hand).laid_off
                for c in wanted:
                    if self.to_os[int(c)] in legal:
                        return self.to_os[int(c)]
                return PASS
            for a in self._meld_actions(best_arrangement(hand).melds):
                if a in legal:
                    return a
            return PASS
        return PASS if PASS in legal else legal[0]


def run_chunk(args: tuple[int, int, int]) -> tuple[list[float], float, int]:
    seed, start, count = args
    game, utils, to_ours, to_os = _setup()
    driver = Driver(game, utils, to_ours, to_os, seed)
    pair_means = []
    for i in range(start, start + count):
        perm = list(range(52))
        random.Random(seed * 1_000_003 + i).shuffle(perm)
        a = driver.play(perm, 0)
        b = driver.play(perm, 1)
        pair_means.append((a + b) / 2)
    return pair_means, driver.expert_time, driver.decisions


def interval(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10_000, help="deal pairs (hands played = 2 x deals)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        _setup()
    except ImportError:
        raise SystemExit("OpenSpiel is not installed: pip install open_spiel") from None
    chunk = max(1, args.deals // (args.workers * 8))
    jobs = [(args.seed, s, min(chunk, args.deals - s)) for s in range(0, args.deals, chunk)]
    start = time.perf_counter()
    means: list[float] = []
    t_expert = 0.0
    decisions = 0
    with ProcessPoolExecutor(args.workers) as pool:
        for xs, t, d in pool.map(run_chunk, jobs):
            means.extend(xs)
            t_expert += t
            decisions += d
    wall = time.perf_counter() - start
    m, h = interval(means)
    print(f"expert vs OpenSpiel simple bot: {2 * len(means)} hands ({len(means)} mirrored deal pairs)")
    print(f"expert points per hand: {m:+.2f} ± {h:.2f} (95% interval, clustered by deal pair)")
    print(f"expert decisions: {decisions}, {decisions / t_expert:.0f} a second; wall time {wall:.0f} s")
    print("verdict:", "expert stronger (interval above 0)" if m - h > 0 else "not confirmed")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Meld engine speed: ginrummy against OpenSpiel and RLCard, side by side, on the same hands.

    python benchmarks/deadwood.py [--hands N] [--rlcard-hands M] [--seed S] [--rounds R] [--json OUT]

Installs nothing.  The anchors are expected to be installed already (``pip install open_spiel
rlcard``); a missing one is reported and the rest is still measured.  NumPy (the ``[fast]`` extra)
is needed for the vectorised batch path.

What is measured, all on the same deals from one seed (11 random cards each; the 10-card hands
are their first ten cards):

* 10 cards, one call per hand: ``melds.min_deadwood(mask)`` and ``melds.min_deadwood(list of
  cards)`` against OpenSpiel's
  ``GinRummyUtils(13, 4, 10).min_deadwood(card_ints)`` and RLCard's
  ``melding.get_best_meld_clusters`` + ``utils.get_deadwood_count`` (what RLCard uses).
* 11 cards, exact best discard: ``melds.best_discards`` (mask, list) against eleven OpenSpiel
  ``min_deadwood`` calls on the 10-card sub-hands (OpenSpiel's one call on 11 cards is a
  shortcut that can miss the best discard; it is checked and reported, not used as the anchor),
  and RLCard's own best-discard routine (``GinRummyNoviceRuleAgent._get_best_discards``,
  eleven ``get_meld_clusters`` searches).
* Batches: ``fastmelds.min_deadwood_many(list)`` (list in, list out), ``fastmelds.min_deadwood_batch``
  and ``fastmelds.best_discards_batch`` on a uint64 array, against the per-call anchors.

Anchors get their best case: their card lists are built before the clock starts.  Every case is
timed in the same alternating rounds (``benchmarks/rounds.py``): one run over all its hands per
round, the same number of rounds for every case, CPU time; rates and ratios are the median of the
rounds with their range, and the machine's load is printed beside them.  Every engine's answers
are checked against ours on the same hands; the exit status is 1 if any differ.  With numba
installed (the ``[jit]`` extra) the compiled kernel ``ginrummy.jitmelds`` is measured too.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # run from a checkout too

from rounds import Case, alternate, fmt_rate, fmt_ratio

from ginrummy import fastmelds, melds
from ginrummy.cards import CARDS, RANK_CHARS, SUIT_CHARS, CardSet

# Targets (issues "Core ... Speed" and 16).
TARGET_10_MASK = 2.0  # min_deadwood from a mask, against OpenSpiel's per-call rate
TARGET_10_LIST = 1.0  # min_deadwood from a list of cards, against OpenSpiel's per-call rate
TARGET_11_MASK = 3.0  # best discard from a mask, against OpenSpiel's eleven-calls rate
TARGET_11_LIST = 1.0  # best discard from a list of cards, against OpenSpiel's eleven-calls rate
TARGET_VS_RLCARD = 20.0
TARGET_BATCH_VS_OPENSPIEL = 10.0  # batch, against OpenSpiel's per-call rate
TARGET_JIT = 100.0  # the compiled kernel's batch, against OpenSpiel's per-call rate


def version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


# --- Anchors --------------------------------------------------------------------------------------
class OpenSpielAnchor:
    def __init__(self) -> None:
        import pyspiel

        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        # Map our cards to OpenSpiel's ints through the card names, then check the layout.
        self.card_int = [self.utils.card_strings_to_card_ints([str(c)])[0] for c in CARDS]
        for c in CARDS:
            assert self.utils.card_string(self.card_int[c]) == str(c), c
        suits = "".join(self.utils.card_string(13 * s)[1] for s in range(4))
        shift = suits.index(SUIT_CHARS[0])
        suit_major = all(self.card_int[c] == suits.index(SUIT_CHARS[c // 13]) * 13 + c % 13 for c in CARDS)
        rotated = all(suits.index(SUIT_CHARS[s]) == (s + shift) % 4 for s in range(4))
        self.layout = (
            f"suit-major, suits {suits!r} (ours {SUIT_CHARS!r}), ace low"
            + (f": our card s*13+r is OpenSpiel's ((s+{shift}) % 4)*13+r" if rotated else "")
            if suit_major
            else "NOT suit-major (mapped by name)"
        )

    def cards(self, mask: int) -> list[int]:
        return [self.card_int[c] for c in CardSet(mask)]


class RLCardAnchor:
    def __init__(self) -> None:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from rlcard.games.gin_rummy.utils import melding, utils
            from rlcard.games.gin_rummy.utils.action_event import DiscardAction
            from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self.melding = melding
        self.utils = utils
        self.DiscardAction = DiscardAction
        self.best_discards_fn = GinRummyNoviceRuleAgent._get_best_discards
        # RLCard's card id is rank + 13 * suit with suits S, H, D, C; map through the names.
        self.card = [utils.card_from_text(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13].upper()) for c in CARDS]
        self.layout = "suit-major, suit order 'S','H','D','C', ace low (mapped by name)"

    def cards(self, mask: int) -> list[Any]:
        return [self.card[c] for c in CardSet(mask)]

    def min_deadwood(self, hand: list[Any]) -> int:
        best = self.melding.get_best_meld_clusters(hand)
        return int(self.utils.get_deadwood_count(hand, best[0] if best else []))

    def discard_inputs(self, mask: int) -> tuple[list[Any], dict[str, Any]]:
        hand = self.cards(mask)
        events = [self.DiscardAction(card=c) for c in hand]
        return events, {"obs": [self.utils.encode_cards(hand)]}

    def best_discards(self, events: list[Any], state: dict[str, Any]) -> list[Any]:
        return list(self.best_discards_fn(discard_action_events=events, state=state))


def load(name: str, factory: Callable[[], Any]) -> Any:
    try:
        return factory()
    except ImportError as e:
        print(f"  {name}: not installed ({e}); measuring ginrummy alone for it")
        return None


# --- Main -------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=100_000, help="random hands (default 100000)")
    p.add_argument("--rlcard-hands", type=int, default=1_000, help="hands for RLCard, the slow anchor (a prefix)")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU time (default) or wall clock")
    p.add_argument("-v", "--verbose", action="store_true", help="print every round")
    p.add_argument("--json", type=Path, help="also write the figures to this file")
    args = p.parse_args(argv)
    n = args.hands
    n_rl = min(args.rlcard_hands, n)

    print("Meld engine benchmark")
    print(f"  date {datetime.date.today()}, {cpu_name()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"  load average before the run (1, 5, 15 min): {load_average()}  (other work slows every figure)")
    print(
        f"  numpy {version('numpy')}, open_spiel {version('open_spiel')}, rlcard {version('rlcard')}, "
        f"seed {args.seed}, {n} hands ({n_rl} for RLCard), {args.rounds} alternating rounds"
    )
    os_ = load("OpenSpiel (pip install open_spiel)", OpenSpielAnchor)
    rl = load("RLCard (pip install rlcard)", RLCardAnchor)
    if os_:
        print(f"  OpenSpiel card ints: {os_.layout}")
    if rl:
        print(f"  RLCard cards: {rl.layout}")
    have_np = fastmelds.have_numpy()
    if not have_np:
        print("  numpy: not installed; the vectorised batch path is skipped")
    jit: Any = None
    try:
        from ginrummy import jitmelds

        if jitmelds.available():
            jit = jitmelds
        else:
            print("  numba: not installed; the compiled kernel is skipped (pip install 'ginrummy[jit]')")
    except ImportError:
        print("  ginrummy.jitmelds: not in this version; the compiled kernel is skipped")

    rng = random.Random(args.seed)
    deals = [rng.sample(range(52), 11) for _ in range(n)]
    h10 = [sum(1 << c for c in d[:10]) for d in deals]
    h11 = [sum(1 << c for c in d) for d in deals]
    res: dict[str, Any] = {"hands": n, "rlcard_hands": n_rl, "seed": args.seed, "cores": os.cpu_count()}
    res["load_before"] = load_average()
    checks: list[tuple[str, bool]] = []

    # Warm up: NumPy's import and the vectorised engine's tables are built on first use.
    fastmelds.min_deadwood_many(h10[:1000])
    if have_np:
        fastmelds.best_discards_batch(h11[:1000])
    if jit is not None:
        jit.best_discards_batch(h11[:1000])  # compiles (or loads the cache)
        jit.min_deadwood_batch(h10[:1000])

    # Our answers (reference for every agreement check).
    our10 = [melds.min_deadwood(h) for h in h10]
    our11 = [melds.best_discards(h) for h in h11]

    # Every case below is timed in the same alternating rounds (benchmarks/rounds.py): one run over
    # all its hands per round, the same number of rounds for every case, CPU time.
    cases: list[Case] = []
    md = melds.min_deadwood
    bd = melds.best_discards
    lists10_ours = [list(CardSet(h)) for h in h10]
    lists11_ours = [list(CardSet(h)) for h in h11]
    cases.append(Case("ours_10", lambda: [md(h) for h in h10], n))
    cases.append(Case("ours_10_list", lambda: [md(x) for x in lists10_ours], n))
    cases.append(Case("ours_11", lambda: [bd(h) for h in h11], n))
    cases.append(Case("ours_11_list", lambda: [bd(x) for x in lists11_ours], n))
    checks.append(("min_deadwood(list of cards)", [md(x) for x in lists10_ours] == our10))
    checks.append(("best_discards(list of cards)", [bd(x) for x in lists11_ours] == our11))
    if os_:
        lists10 = [os_.cards(h) for h in h10]
        lists11 = [os_.cards(h) for h in h11]
        osmd = os_.utils.min_deadwood
        subs = [[(c, os_.cards(h & ~(1 << c))) for c in CardSet(h)] for h in h11]

        def os_eleven() -> list[tuple[int, int]]:
            out = []
            for hand in subs:
                best, cards = 1 << 20, 0
                for c, sub in hand:
                    v = osmd(sub)
                    if v < best:
                        best, cards = v, 1 << c
                    elif v == best:
                        cards |= 1 << c
                out.append((best, cards))
            return out

        cases.append(Case("os_10", lambda: [osmd(x) for x in lists10], n))
        cases.append(Case("os_11", os_eleven, n))
        cases.append(Case("os_11_single", lambda: [osmd(x) for x in lists11], n))
    if rl:
        rl10 = [rl.cards(h) for h in h10[:n_rl]]
        rl_in = [rl.discard_inputs(h) for h in h11[:n_rl]]
        cases.append(Case("rl_10", lambda: [rl.min_deadwood(x) for x in rl10], n_rl))
        cases.append(Case("rl_11", lambda: [rl.best_discards(e, s) for e, s in rl_in], n_rl))
    cases.append(Case("many_10", lambda: fastmelds.min_deadwood_many(h10), n))
    if have_np:
        import numpy as np

        a10 = np.array(h10, dtype=np.uint64)
        a11 = np.array(h11, dtype=np.uint64)
        cases.append(Case("batch_10", lambda: fastmelds.min_deadwood_batch(a10), n))
        cases.append(Case("batch_11", lambda: fastmelds.best_discards_batch(a11), n))
        dw, cards = fastmelds.best_discards_batch(a11)
        checks.append(("min_deadwood_batch", fastmelds.min_deadwood_batch(a10).tolist() == our10))
        checks.append(("best_discards_batch", list(zip(dw.tolist(), cards.tolist(), strict=True)) == our11))
    checks.append(("min_deadwood_many", fastmelds.min_deadwood_many(h10) == our10))
    if jit is not None:
        import numpy as np

        j10 = np.array(h10, dtype=np.uint64)
        j11 = np.array(h11, dtype=np.uint64)
        cases.append(Case("jit_10", lambda: jit.min_deadwood_batch(j10), n))
        cases.append(Case("jit_11", lambda: jit.best_discards_batch(j11), n))
        jdw, jcards = jit.best_discards_batch(j11)
        checks.append(("jit min_deadwood_batch", jit.min_deadwood_batch(j10).tolist() == our10))
        checks.append(("jit best_discards_batch", list(zip(jdw.tolist(), jcards.tolist(), strict=True)) == our11))

    print(f"\nTiming {len(cases)} cases in {args.rounds} alternating rounds (one run over all hands each) ...")
    rr = alternate(
        cases, rounds=args.rounds, clock=args.clock, progress=(lambda m: print("  " + m)) if args.verbose else None
    )
    res["method"] = rr.describe()
    res["loads"] = rr.loads
    print(f"  {rr.describe()}")
    names = {
        "ours_10": "ginrummy min_deadwood(mask)",
        "ours_10_list": "ginrummy min_deadwood(list of cards)",
        "os_10": "OpenSpiel min_deadwood(list of ints)",
        "rl_10": "RLCard best meld clusters",
        "ours_11": "ginrummy best_discards(mask)",
        "ours_11_list": "ginrummy best_discards(list of cards)",
        "os_11": "OpenSpiel 11 x min_deadwood (10-card sub-hands)",
        "os_11_single": "(OpenSpiel one call on 11 cards: not exact)",
        "rl_11": "RLCard _get_best_discards",
        "many_10": "fastmelds.min_deadwood_many(list -> list), 10 cards",
        "batch_10": "fastmelds.min_deadwood_batch(uint64 array), 10 cards",
        "batch_11": "fastmelds.best_discards_batch(uint64 array), 11 cards",
        "jit_10": "jitmelds.min_deadwood_batch (numba), 10 cards",
        "jit_11": "jitmelds.best_discards_batch (numba), 11 cards",
    }
    print(f"\n  {'hands a second (median of the rounds, and their range)':<56}")
    for c in cases:
        lo, hi = c.rate_range()
        res[c.name] = c.rate()
        res[c.name + "_range"] = [lo, hi]
        print(f"  {names[c.name]:<56} {fmt_rate(c)}")

    if os_:
        agree = sum(osmd(x) == o for x, o in zip(lists10, our10, strict=True))
        checks.append(("OpenSpiel 10-card", agree == n))
        print(f"\n  OpenSpiel 10-card min_deadwood agrees on {agree}/{n} hands")
        agree = sum(a == b for a, b in zip(os_eleven(), our11, strict=True))
        checks.append(("OpenSpiel eleven calls", agree == n))
        print(f"  OpenSpiel eleven calls: same deadwood and discards on {agree}/{n} hands")
        wrong = sum(osmd(x) != o[0] for x, o in zip(lists11, our11, strict=True))
        gin = int(CardSet.parse("3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h"))
        res["os_11_single_wrong"] = wrong
        res["os_11_single_example"] = osmd(os_.cards(gin))
        print(
            f"  OpenSpiel one call on 11 cards differs on {wrong}/{n} random hands; gives "
            f"{res['os_11_single_example']} for '3s 4s 5s 6c 4d 5d 6d 3h 4h 5h 6h', which is gin after 6c"
        )
    if rl:
        agree = sum(rl.min_deadwood(x) == o for x, o in zip(rl10, our10, strict=False))
        checks.append(("RLCard 10-card", agree == n_rl))
        print(f"  RLCard 10-card deadwood agrees on {agree}/{n_rl} hands")
        agree = 0
        for (e, s), (_, cards) in zip(rl_in, our11, strict=False):
            got = {str(c) for c in rl.best_discards(e, s)}
            agree += got == {f"{RANK_CHARS[c % 13]}{SUIT_CHARS[c // 13].upper()}" for c in CardSet(cards)}
        checks.append(("RLCard best discards", agree == n_rl))
        print(f"  RLCard best discards: same on {agree}/{n_rl} hands")

    # --- Ratios and targets: each the median of the rounds' ratios, with their range
    print("\nRatios (median of the rounds, range) and targets")
    targets: list[tuple[str, bool]] = []

    def ratio(label: str, num: str, den: str, target: float) -> None:
        if num not in rr.cases or den not in rr.cases:
            print(f"  {label:<62} not measured (anchor or extra missing)")
            return
        med, lo, hi = rr.ratio(num, den)
        res[f"ratio_{num}_vs_{den}"] = [med, lo, hi]
        met = med >= target
        targets.append((label, met))
        print(f"  {label:<62} {fmt_ratio((med, lo, hi)):>28}  target >= {target:g}x  {'MET' if met else 'MISSED'}")

    ratio("10-card min_deadwood(mask) / OpenSpiel per call", "ours_10", "os_10", TARGET_10_MASK)
    ratio("10-card min_deadwood(list) / OpenSpiel per call", "ours_10_list", "os_10", TARGET_10_LIST)
    ratio("11-card best_discards(mask) / OpenSpiel eleven calls", "ours_11", "os_11", TARGET_11_MASK)
    ratio("11-card best_discards(list) / OpenSpiel eleven calls", "ours_11_list", "os_11", TARGET_11_LIST)
    ratio("10-card min_deadwood / RLCard", "ours_10", "rl_10", TARGET_VS_RLCARD)
    ratio("11-card best_discards / RLCard", "ours_11", "rl_11", TARGET_VS_RLCARD)
    ratio("batch min_deadwood_many (list) / OpenSpiel per call", "many_10", "os_10", TARGET_BATCH_VS_OPENSPIEL)
    ratio("batch fastmelds.min_deadwood_batch / OpenSpiel per call", "batch_10", "os_10", TARGET_BATCH_VS_OPENSPIEL)
    ratio(
        "batch fastmelds.best_discards_batch / OpenSpiel eleven calls", "batch_11", "os_11", TARGET_BATCH_VS_OPENSPIEL
    )
    ratio("jit min_deadwood_batch / OpenSpiel per call", "jit_10", "os_10", TARGET_JIT)
    ratio("jit best_discards_batch / OpenSpiel eleven calls", "jit_11", "os_11", TARGET_JIT)

    print("\nAgreement checks")
    for label, ok in checks:
        print(f"  {label:<40} {'ok' if ok else 'DIFFERS'}")
    res["load_after"] = load_average()
    print(f"\n  load average after the run: {res['load_after']}")
    met = sum(ok for _, ok in targets)
    print(f"\n{met}/{len(targets)} targets met; {sum(ok for _, ok in checks)}/{len(checks)} agreement checks ok")
    res["targets"] = {label: ok for label, ok in targets}
    res["checks"] = {label: ok for label, ok in checks}
    res["date"] = str(datetime.date.today())
    res["cpu"] = cpu_name()
    if args.json:
        args.json.write_text(json.dumps(res, indent=2) + "\n")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())

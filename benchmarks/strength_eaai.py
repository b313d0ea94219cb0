"""Any ginrummy agent against the EAAI challenge's players, inside Todd Neller's EAAI engine.

    python benchmarks/strength_eaai.py --eaai-dir ../shared/anchors/eaai --pairs 200 --seed 1
    python benchmarks/strength_eaai.py --eaai-dir DIR --agent greedy --opponents marjj --pairs 1000
    python benchmarks/strength_eaai.py --eaai-dir DIR --anchor-only --pairs 200   # MARJJ_v5 against Simple
    python benchmarks/strength_eaai.py --compare a.json b.json   # paired A/B of two --json runs

The engine (``GinRummyGame``, ``Card``, ``GinRummyUtil``, ``GinRummyPlayer``), Neller's
``SimpleGinRummyPlayer`` and the 2021 winner ``MARJJ_v5`` are compiled from ``--eaai-dir`` (read
in place, never copied into the project) into a cache directory, together with ginrummy's own two
Java classes in ``benchmarks/eaai/``: ``PipePlayer``, a ``GinRummyPlayer`` that forwards every
call as a line to this script and reads its answers, and ``EaaiMatch``, which plays the games.
``MARJJ_v5.java`` has no ``package`` line: the cache gets a copy of it with ``package ginrummy;``
prepended (the anchors' README asks for that), and ``SimpleFileGinRummyPlayer``, a class the
engine's demonstration ``main`` names but the folder lacks, is a one-line shim of ours.

**Seeded mirrored games.**  Pair ``i`` is two games to 100 with the seats swapped: before each
game, the engine's own generator (which picks the starting seat and shuffles every deck) and each
player's tie-break generator are seeded from ``(seed, i)``, so both games are dealt the same decks
and the same hand leads.  The agent sees only what its seat may know (its hand, the pile, the
stock size, the public history, the cards the opponent took, the scores): an observation with the
keys of ``ginrummy.engine.State.observation``, under the EAAI rules (knock at 10, gin 25, undercut
25 including ties, no box or game bonus, no big gin, the hand is void at two stock cards, the
face-up card just taken may not be discarded).  When the opponent knocks, the agent's melds are
its best defence (``ginrummy.melds.best_defense``); the engine lays off automatically.

Figures: games won with a 95% interval clustered by deal pair (each pair's share of its two games
is one sample), the agent's net points per hand (its points minus the opponent's, over every hand
played including void ones; per pair, the interval over pairs), and the agent's time per decision
(CPU time of this process in ``decide``, median and 99th percentile; wall time beside it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginrummy.actions import Action
from ginrummy.agents.base import Agent
from ginrummy.cards import Card
from ginrummy.melds import best_arrangement, best_defense, deadwood_after_discards, min_deadwood
from ginrummy.options import options_for
from ginrummy.sim import parse_agent

HERE = Path(__file__).resolve().parent
OWN_JAVA = HERE / "eaai"
ENGINE_FILES = (
    "Card.java",
    "GinRummyUtil.java",
    "GinRummyPlayer.java",
    "GinRummyGame.java",
    "SimpleGinRummyPlayer.java",
)
MARJJ = "MARJJ_v5.java"
OPPONENTS = {"simple": "SimpleGinRummyPlayer", "marjj": "MARJJ_v5"}
Z95 = 1.959963984540054

# The EAAI engine's rules in ginrummy's options: no box or game bonus, a void hand at two cards.
EAAI_OPTIONS: dict[str, Any] = options_for(
    "classic", {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}
).to_dict()


# --- building -------------------------------------------------------------------------------------
def build(eaai_dir: Path, cache: Path | None = None) -> Path:
    """Compile the engine, the two anchors and our bridge into a cache directory (reused while the
    sources are unchanged); returns the class path."""
    if shutil.which("javac") is None:
        raise SystemExit("javac not found: apt-get install default-jdk-headless")
    missing = [f for f in (*ENGINE_FILES, MARJJ) if not (eaai_dir / f).is_file()]
    if missing:
        raise SystemExit(f"{eaai_dir} lacks {', '.join(missing)} (see the anchors' README)")
    own = sorted(OWN_JAVA.glob("*.java"))
    digest = hashlib.sha256()
    for p in [*(eaai_dir / f for f in (*ENGINE_FILES, MARJJ)), *own]:
        digest.update(p.name.encode() + b"\0" + p.read_bytes())
    root = cache or Path(tempfile.gettempdir()) / f"ginrummy-eaai-{os.getuid()}"
    out = root / digest.hexdigest()[:16]
    if (out / "classes" / "ginrummy_bench" / "EaaiMatch.class").is_file():
        return out / "classes"
    src = out / "src"
    src.mkdir(parents=True, exist_ok=True)
    marjj = src / MARJJ
    marjj.write_text("package ginrummy;\n" + (eaai_dir / MARJJ).read_text(encoding="utf-8"), encoding="utf-8")
    files = [str(eaai_dir / f) for f in ENGINE_FILES] + [str(marjj)] + [str(p) for p in own]
    classes = out / "classes"
    cmd = ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(classes), *files]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"javac failed:\n{done.stderr}")
    return classes


# --- the agent's seat -----------------------------------------------------------------------------
def to_ours(text: str) -> int:
    """An EAAI card ("TC", "AH") as ginrummy's card number."""
    return int(Card.parse(text[0] + text[1].lower()))


def to_eaai(card: int) -> str:
    s = str(Card(card))
    return s[0] + s[1].upper()


@dataclass
class Seat:
    """The agent's side of one game: rebuilds what its seat knows from the engine's reports."""

    agent: Agent
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    totals: list[int] = field(default_factory=lambda: [0, 0])
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    hand_number: int = 0
    me: int = 0
    starter: int = 0
    hand: set[int] = field(default_factory=set)
    pile: list[int] = field(default_factory=list)
    first_up: int | None = None
    stock: int = 31
    history: list[dict[str, Any]] = field(default_factory=list)
    opp_known: set[int] = field(default_factory=set)
    draws: int = 0
    took: int | None = None
    intent: str = "discard"
    opp_melds: list[int] | None = None
    knocker: int | None = None
    # Per hand: (1 I went out, 0 they did, -1 void; my points, theirs, stock left, my deadwood, gin 1/0).
    log: list[tuple[int, int, int, int, int, int]] = field(default_factory=list)

    @property
    def opp(self) -> int:
        return 1 - self.me

    def new_game(self) -> None:
        self.totals = [0, 0]
        self.hands_won = [0, 0]
        self.hand_number = 0

    def start(self, me: int, starter: int, cards: list[str]) -> None:
        self.me, self.starter = me, starter
        self.hand = {to_ours(c) for c in cards}
        self.hand_number += 1
        self.pile, self.first_up, self.stock = [], None, 31
        self.history, self.opp_known, self.draws = [], set(), 0
        self.took, self.intent, self.opp_melds, self.knocker = None, "discard", None, None

    def _first_seen(self, card: int) -> None:
        if not self.pile and self.first_up is None:
            self.first_up = card
            self.pile = [card]

    def observation(self, phase: str, legal: list[Action]) -> dict[str, Any]:
        sizes = [0, 0]
        sizes[self.me] = len(self.hand)
        sizes[self.opp] = 10
        mask = sum(1 << c for c in self.hand)
        return {
            "variant": "classic",
            "seat": self.me,
            "options": EAAI_OPTIONS,
            "hand_number": self.hand_number,
            "phase": phase,
            "current_player": self.me,
            "to_act": True,
            "legal_actions": [str(a) for a in legal],
            "totals": list(self.totals),
            "hands_won": list(self.hands_won),
            "game_over": False,
            "dealer": 1 - self.starter,
            "knock_limit": 10,
            "upcard": str(Card(self.first_up)) if self.first_up is not None else None,
            "discard_pile": [str(Card(c)) for c in self.pile],
            "stock_size": self.stock,
            "hand_sizes": sizes,
            "hand": [str(Card(c)) for c in sorted(self.hand)],
            "deadwood": min_deadwood(mask),
            "known_cards": {str(self.opp): [str(Card(c)) for c in sorted(self.opp_known)]},
            "history": list(self.history),
        }

    def decide(self, phase: str, legal: list[Action]) -> Action:
        obs = self.observation(phase, legal)
        c0, w0 = time.process_time(), time.perf_counter()
        action = self.agent.act(obs, legal)
        self.cpu.append(time.process_time() - c0)
        self.wall.append(time.perf_counter() - w0)
        if action not in legal:
            raise RuntimeError(f"{self.agent} chose {action}, not among {legal}")
        return action

    # -- questions ---------------------------------------------------------------------------------
    def face_up(self, text: str) -> str:
        card = to_ours(text)
        self._first_seen(card)
        if self.pile[-1] != card:
            raise RuntimeError(f"the bridge lost track of the pile: offered {text}, tracked {self.pile}")
        initial = self.draws == 0
        if initial:
            if self.me != self.starter and not self.history:
                self.history.append({"seat": self.opp, "action": "pass"})
            action = self.decide("upcard", [Action("take"), Action("pass")])
            if action.kind == "pass":
                self.history.append({"seat": self.me, "action": "pass"})
        else:
            action = self.decide("draw", [Action("draw"), Action("take")])
        if action.kind == "take":
            self.took = card
            return "1"
        return "0"

    def discard(self) -> str:
        mask = sum(1 << c for c in self.hand)
        cards = sorted(c for c in self.hand if c != self.took)
        legal = [Action("discard", Card(c)) for c in cards]
        after = deadwood_after_discards(mask)
        for c in cards:
            d = after[Card(c)]
            if d <= 10:
                legal.append(Action("gin" if d == 0 else "knock", Card(c)))
        action = self.decide("discard", legal)
        self.intent = action.kind
        assert action.card is not None
        return to_eaai(int(action.card))

    def melds(self) -> str:
        mask = sum(1 << c for c in self.hand)
        if self.intent in ("knock", "gin"):
            melds = best_arrangement(mask).melds
        elif self.opp_melds is not None:
            melds = best_defense(self.opp_melds, mask).melds
        else:
            return "-"
        return ";".join(",".join(to_eaai(int(c)) for c in m) for m in melds)

    # -- events ------------------------------------------------------------------------------------
    def drew(self, player: int, text: str) -> None:
        self.draws += 1
        if player == self.me:
            card = to_ours(text)
            if self.took is not None and card == self.took:
                self.pile.pop()
                self.history.append({"seat": self.me, "action": "take"})
            else:
                if self.me == self.starter and self.history == [{"seat": self.me, "action": "pass"}]:
                    self.history.append({"seat": self.opp, "action": "pass"})  # both declined the upcard
                self.took = None
                self.stock -= 1
                self.history.append({"seat": self.me, "action": "draw"})
            self.hand.add(card)
        elif text != "-":
            card = to_ours(text)
            self._first_seen(card)
            self.pile.pop()
            self.opp_known.add(card)
            self.history.append({"seat": self.opp, "action": "take"})
        else:
            self.stock -= 1
            self.history.append({"seat": self.opp, "action": "draw"})

    def discarded(self, player: int, text: str) -> None:
        card = to_ours(text)
        self.pile.append(card)
        kind = self.intent if player == self.me else "discard"
        self.history.append({"seat": player, "action": f"{kind} {Card(card)}"})
        if player == self.me:
            self.hand.discard(card)
            self.took = None
        else:
            self.opp_known.discard(card)

    def scores(self, s0: int, s1: int) -> None:
        mine = (s0, s1)[self.me] - self.totals[self.me]
        theirs = (s0, s1)[self.opp] - self.totals[self.opp]
        dw = min_deadwood(sum(1 << c for c in self.hand))
        if self.knocker is None:
            gin = False
        elif self.knocker == self.me:
            gin = self.intent == "gin"
        else:
            gin = sum(m.bit_count() for m in self.opp_melds or []) == 10
        who = -1 if self.knocker is None else int(self.knocker == self.me)
        self.log.append((who, mine, theirs, self.stock, dw, int(gin)))
        self.totals = [s0, s1]
        if mine > 0 or theirs > 0:
            self.hands_won[self.me if mine > 0 else self.opp] += 1

    def final_melds(self, player: int, text: str) -> None:
        if self.knocker is None:
            self.knocker = player
        if player != self.me:
            self.opp_melds = [sum(1 << to_ours(c) for c in m.split(",")) for m in text.split(";") if m]


# --- running games --------------------------------------------------------------------------------
@dataclass
class Chunk:
    agent: str | None  # an agent spec, or None: the anchor A plays B in Java only
    a: str  # "python", "simple" or "marjj"
    b: str
    start: int
    pairs: int
    seed: int
    classes: str


def run_chunk(job: Chunk) -> dict[str, Any]:
    seat: Seat | None = None
    if job.agent is not None:
        spec = parse_agent(job.agent)
        seat = Seat(spec.make("classic", job.seed))
    cmd = ["java", "-Xss16m", "-cp", job.classes, "ginrummy_bench.EaaiMatch", job.a, job.b, str(job.pairs)]
    cmd += [str(job.start), str(job.seed)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    results: list[list[int]] = []
    try:
        for line in proc.stdout:
            kind, _, rest = line.rstrip("\n").partition(" ")
            args = rest.split(" ") if rest else []
            if kind == "RESULT":
                results.append([int(x) for x in args])
                continue
            if kind == "DONE":
                break
            if seat is None:
                raise RuntimeError(f"unexpected line from the engine: {line!r}")
            answer: str | None = None
            if kind == "N":
                seat.new_game()
            elif kind == "S":
                seat.start(int(args[0]), int(args[1]), args[2:])
            elif kind == "U":
                answer = seat.face_up(args[0])
            elif kind == "D":
                seat.drew(int(args[0]), args[1])
            elif kind == "X":
                answer = seat.discard()
            elif kind == "R":
                seat.discarded(int(args[0]), args[1])
            elif kind == "M":
                answer = seat.melds()
            elif kind == "F":
                seat.final_melds(int(args[0]), args[1] if len(args) > 1 else "")
            elif kind == "C":
                if seat.opp_melds is None and seat.intent == "discard" and seat.stock != 2:
                    raise RuntimeError(f"a void hand with {seat.stock} stock cards tracked (the engine stops at 2)")
                seat.scores(int(args[0]), int(args[1]))
            if answer is not None:
                proc.stdin.write(answer + "\n")
                proc.stdin.flush()
    finally:
        proc.stdin.close()
        rc = proc.wait()
    if rc != 0 or len(results) != 2 * job.pairs:
        raise RuntimeError(f"the engine stopped (exit {rc}) after {len(results)} of {2 * job.pairs} games")
    for pair, game, _, winner, s0, s1, _ in results:
        if max(s0, s1) < 100 or (s0, s1)[winner] < 100:
            raise RuntimeError(f"pair {pair} game {game} ended at {s0}-{s1}: a player forfeited")
    return {
        "results": results,
        "cpu": seat.cpu if seat else [],
        "wall": seat.wall if seat else [],
        "log": seat.log if seat else [],
    }


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = math.fsum(xs) / n
    if n < 2:
        return m, m, m
    h = Z95 * math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1) / n)
    return m, m - h, m + h


def summarise(results: list[list[int]]) -> dict[str, Any]:
    """Per pair: A's share of the two games, A's net points per hand; intervals over pairs."""
    by_pair: dict[int, list[list[int]]] = {}
    for r in results:
        by_pair.setdefault(r[0], []).append(r)
    wins: list[float] = []
    net: list[float] = []
    hands = 0
    per_pair: list[tuple[int, float, float]] = []
    for pair, games in sorted(by_pair.items()):
        won = 0
        points = 0
        n = 0
        for _, _, seat_a, winner, s0, s1, h in games:
            won += winner == seat_a
            points += (s0 - s1) if seat_a == 0 else (s1 - s0)
            n += h
        wins.append(won / len(games))
        net.append(points / max(1, n))
        per_pair.append((pair, wins[-1], net[-1]))
        hands += n
    w, wl, wh = mean_ci(wins)
    p, pl, ph = mean_ci(net)
    return {
        "pairs": len(by_pair),
        "games": len(results),
        "hands": hands,
        "games_won": w,
        "games_won_ci": [wl, wh],
        "net_points_per_hand": p,
        "net_points_per_hand_ci": [pl, ph],
        "per_pair": per_pair,  # (pair, share of its games won, net points a hand): for paired comparisons
    }


def hand_summary(log: list[Any]) -> dict[str, Any]:
    """How the agent's hands ended: (knocker 1 = the agent, 0 = the opponent, -1 = void)."""
    n = len(log) or 1
    out: dict[str, Any] = {"hands": len(log)}
    for name, who in (("agent_out", 1), ("opponent_out", 0)):
        rows = [h for h in log if h[0] == who]
        out[name] = len(rows) / n
        # the knocker's side scored (a win, or a gin) vs the defender scored (an undercut)
        won = [h for h in rows if (h[1] if who == 1 else h[2]) > 0]
        out[name + "_undercut"] = (len(rows) - len(won)) / n
        out[name + "_points"] = sum(h[1] - h[2] for h in rows) / n
        out[name + "_gin"] = sum(h[5] for h in rows) / n
    out["void"] = sum(1 for h in log if h[0] == -1) / n
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def play(agent: str | None, a: str, b: str, pairs: int, seed: int, classes: Path, workers: int) -> dict[str, Any]:
    chunk = max(1, min(50, math.ceil(pairs / max(1, workers))))
    jobs = [Chunk(agent, a, b, s, min(chunk, pairs - s), seed, str(classes)) for s in range(0, pairs, chunk)]
    results: list[list[int]] = []
    cpu: list[float] = []
    wall: list[float] = []
    log: list[Any] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max(1, workers)) as pool:
        for got in pool.map(run_chunk, jobs):
            results.extend(got["results"])
            cpu.extend(got["cpu"])
            wall.extend(got["wall"])
            log.extend(got["log"])
    out = summarise(results)
    out["wall_seconds"] = time.perf_counter() - t0
    if cpu:
        out["decisions"] = len(cpu)
        out["cpu_ms_median"] = 1000 * statistics.median(cpu)
        out["cpu_ms_p99"] = 1000 * percentile(cpu, 0.99)
        out["cpu_ms_max"] = 1000 * max(cpu)
        out["wall_ms_median"] = 1000 * statistics.median(wall)
        out["wall_ms_p99"] = 1000 * percentile(wall, 0.99)
        out["hand_log"] = hand_summary(log)
    return out


def fmt(name: str, opp: str, r: dict[str, Any]) -> str:
    lo, hi = r["games_won_ci"]
    plo, phi = r["net_points_per_hand_ci"]
    won = f"{100 * r['games_won']:.1f}% ({100 * lo:.1f}..{100 * hi:.1f})"
    row = f"| {name} | {OPPONENTS.get(opp, opp)} | {r['games']:,} | {won} "
    row += f"| {r['net_points_per_hand']:+.2f} ({plo:+.2f}..{phi:+.2f}) | {r['hands'] / r['games']:.1f} "
    if "cpu_ms_median" in r:
        cpu = f"{r['cpu_ms_median']:.2f} / {r['cpu_ms_p99']:.2f}"
        row += f"| {cpu} ({r['wall_ms_median']:.2f} / {r['wall_ms_p99']:.2f}) |"
    else:
        row += "| (Java) |"
    return row


def compare(a_path: Path, b_path: Path) -> None:
    """Paired A/B: two ``--json`` reports of the same seed, opponent by opponent, deal pair by
    deal pair (each pair's difference is one sample)."""
    a_rows = {r["opponent"]: r for r in json.loads(a_path.read_text())["rows"]}
    b_rows = {r["opponent"]: r for r in json.loads(b_path.read_text())["rows"]}
    for opp in a_rows.keys() & b_rows.keys():
        ra, rb = a_rows[opp], b_rows[opp]
        pa = {int(p): (w, n) for p, w, n in ra["per_pair"]}
        pb = {int(p): (w, n) for p, w, n in rb["per_pair"]}
        common = sorted(pa.keys() & pb.keys())
        if not common:
            raise SystemExit(f"no common deal pairs against {opp}: were both run with the same seed?")
        dw, dwl, dwh = mean_ci([pa[i][0] - pb[i][0] for i in common])
        dn, dnl, dnh = mean_ci([pa[i][1] - pb[i][1] for i in common])
        print(f"{ra['agent']} minus {rb['agent']} against {OPPONENTS[opp]}, {len(common)} deal pairs:")
        print(f"  games won {100 * dw:+.1f} points of percentage (95% CI {100 * dwl:+.1f}..{100 * dwh:+.1f})")
        print(f"  net points a hand {dn:+.2f} (95% CI {dnl:+.2f}..{dnh:+.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eaai-dir", type=Path, help="the anchors folder (e.g. ../shared/anchors/eaai)")
    ap.add_argument("--agent", default="expert", help="a ginrummy agent spec (e.g. expert, greedy, expert:u_took=0)")
    ap.add_argument("--opponents", default="simple,marjj", help="comma list of simple, marjj")
    ap.add_argument("--pairs", type=int, default=200, help="mirrored pairs of games per opponent")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--anchor-only", action="store_true", help="play MARJJ_v5 against Simple only (Java)")
    ap.add_argument("--cache", type=Path, default=None, help="where to compile (default: the temp dir)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument(
        "--compare", nargs=2, type=Path, metavar="JSON", help="paired A/B of two --json reports; plays nothing"
    )
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    if args.eaai_dir is None:
        raise SystemExit("--eaai-dir is required: the folder of the EAAI sources (e.g. ../shared/anchors/eaai)")
    eaai_dir = args.eaai_dir.resolve()
    classes = build(eaai_dir, args.cache)
    rows: list[str] = []
    report: dict[str, Any] = {"seed": args.seed, "pairs": args.pairs, "rows": []}
    if args.anchor_only:
        r = play(None, "marjj", "simple", args.pairs, args.seed, classes, args.workers)
        rows.append(fmt("MARJJ_v5", "simple", r))
        report["rows"].append({"agent": "MARJJ_v5", "opponent": "simple", **r})
    else:
        for opp in filter(None, (o.strip() for o in args.opponents.split(","))):
            if opp not in OPPONENTS:
                raise SystemExit(f"unknown opponent {opp!r}: choose from {', '.join(OPPONENTS)}")
            r = play(args.agent, "python", opp, args.pairs, args.seed, classes, args.workers)
            rows.append(fmt(args.agent, opp, r))
            report["rows"].append({"agent": args.agent, "opponent": opp, **r})
            print(rows[-1], f"  [{r['wall_seconds']:.0f} s]", file=sys.stderr, flush=True)
    head = "| agent | opponent | games | games won (95% CI) | net points a hand (95% CI) | hands a game "
    print(head + "| decision ms: CPU median / p99 (wall) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(row)
    print(f"seed {args.seed}; load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

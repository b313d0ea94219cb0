"""Fuzzing ``ginrummy replay`` and ``ginrummy verify`` with mutated records (issue 12, item 5).

Valid records of every variant are mutated in the ways that once crashed the commands (deep
nesting, integers over 4,300 digits, odd option values, a hand or the options that is not an
object, a numeric deck, lone surrogates, invalid UTF-8, control characters, truncation, random
type swaps ...).  Each mutated record goes through ``cli.main`` in-process, its output written
through a strict UTF-8 stream as on a real terminal, and a few through real processes: the
command must exit 0, 1 or 2, never print a traceback, and an error must be exactly one line.

Everything is seeded (``random.Random``), so a failure reproduces.  Run this file as a script to
throw more records and count the crashes: ``python tests/test_cli_fuzz.py --count 20000``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginrummy.cards import format_cards
from ginrummy.engine import State
from ginrummy.fair import commitment
from ginrummy.options import VARIANTS

SEED = 20261203
COUNT = 300  # mutated records in the suite (each through replay and verify)
SUBPROCESS_COUNT = 2  # of those, run as real processes too


# ---------------------------------------------------------------------------- valid records
def _play(variant: str, rng: random.Random, hands: int, *, options: dict[str, Any] | None = None) -> State:
    players = ["Ann", "Bob", "Cy"][: 3 if variant == "three" else 2]
    if variant in ("solitaire", "gin-solitaire"):
        players = ["Ann", "Joker"]
    state = State.new(variant, options or {}, players)
    while not state.is_terminal and state.hand_number < hands:
        seed = rng.getrandbits(64)
        state.deal(seed=seed, commitment=commitment(state.hand_number + 1, seed))
        steps = 0
        while not state.is_hand_over and steps < 200:
            legal = state.legal_actions()
            enders = [a for a in legal if a.kind in ("gin", "knock")]
            state.apply(rng.choice(enders) if enders and rng.random() < 0.5 else rng.choice(legal))
            steps += 1
    return state


def base_records(rng: random.Random) -> list[dict[str, Any]]:
    """Valid records: every variant, seeds with commitments, some with the deck beside the seed,
    one dealt from explicit decks, one stopped inside a hand."""
    out: list[dict[str, Any]] = []
    for variant in VARIANTS:
        state = _play(variant, rng, 2)
        rec = state.to_record()
        out.append(rec)
        with_deck = json.loads(json.dumps(rec))
        for hand, log in zip(with_deck["hands"], state.logs, strict=True):
            hand["deck"] = [str(c) for c in log.deck]
        out.append(with_deck)
    explicit = _play("classic", rng, 1)
    rec = explicit.to_record()
    for hand, log in zip(rec["hands"], explicit.logs, strict=True):
        del hand["seed"], hand["commitment"]
        hand["deck"] = format_cards(log.deck).split()
    out.append(rec)
    out.append(_play("solitaire", rng, 1, options={"end_before_first_draw": True}).to_record())
    partial = _play("oklahoma", rng, 1).to_record()
    partial["hands"][-1]["actions"] = partial["hands"][-1]["actions"][:3]
    out.append(partial)
    return out


# ---------------------------------------------------------------------------- mutations
def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = root
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return root


MARK = "\u0000MARK\u0000"  # replaced in the JSON text by raw text that json.dumps cannot make

ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    -(10**30),
    "",
    " ",
    "--5",
    "²",
    "٣",
    "1e3",
    "nan",
    "true",
    "\x1b[31mred\x1b[0m",
    "a\nb",
    "\u202eevil",
    "x" * 5000,
    [],
    {},
    [1, 2],
    {"a": 1},
    [[[]]],
    "classic",
    "ginrummy-record/1",
]

RAW_VALUES = [
    "1" + "0" * 5000,  # an integer over 4,300 digits
    "-" + "9" * 4400,
    "1e400",
    "-1e400",
    "NaN",
    "Infinity",
    '"\\ud800"',  # a lone surrogate
    '"a\\udfffb"',
    '"\\u0000"',
    "[" * 100_000 + "]" * 100_000,  # deep nesting
    "[" * 3000 + "]" * 3000,
    '{"a":' * 5000 + "1" + "}" * 5000,
    "[" * 900 + "]" * 900,
]

CARD_SPELLINGS: list[Callable[[str], str]] = [
    str.lower,
    str.upper,
    lambda c: " " + c + " ",
    lambda c: c.replace("T", "10"),
    lambda c: c[:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}.get(c[-1], c[-1]),
    lambda c: c[:-1] + c[-1].upper(),
]


def _json(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False)


def mutate(base: dict[str, Any], rng: random.Random) -> bytes:
    """One mutated record, as the bytes of a file."""
    rec: Any = json.loads(json.dumps(base))
    kind = rng.randrange(16)
    paths = _paths(rec)
    if kind == 0:  # any value replaced by an odd one
        rec = _set(rec, rng.choice(paths), rng.choice(ODD_VALUES))
    elif kind == 1:  # any value replaced by raw text: huge integers, surrogates, deep nesting
        rec = _set(rec, rng.choice(paths), MARK)
        return (
            _json(rec)
            .replace(json.dumps(MARK, ensure_ascii=False), rng.choice(RAW_VALUES), 1)
            .encode("utf-8", "surrogatepass")
        )
    elif kind == 2:  # an odd option value (or preset)
        name = rng.choice(["preset", "game_target", "knock_limit", "scoring", "big_gin", "next_dealer", "jokers"])
        rec.setdefault("options", {})
        if isinstance(rec["options"], dict):
            rec["options"][name] = rng.choice(ODD_VALUES)
    elif kind == 3:  # the options, a hand or the hands not of their type
        where = rng.choice(["options", "hand", "hands", "players", "variant", "format"])
        value = rng.choice(ODD_VALUES)
        if where == "hand" and rec["hands"]:
            rec["hands"][rng.randrange(len(rec["hands"]))] = value
        elif where != "hand":
            rec[where] = value
    elif kind == 4 and rec["hands"]:  # the deck: numeric, respelled, damaged
        hand = rng.choice(rec["hands"])
        deck = hand.get("deck") or []
        choice = rng.randrange(6)
        if choice == 0:
            hand["deck"] = rng.choice([5, 52, [1, 2, 3], list(range(53)), "As Kd", None])
        elif choice == 1 and deck:
            spell = rng.choice(CARD_SPELLINGS)
            hand["deck"] = [spell(c) for c in deck]
        elif choice == 2 and deck:
            spell = rng.choice(CARD_SPELLINGS)
            i = rng.randrange(len(deck))
            deck[i] = spell(deck[i])
        elif choice == 3 and len(deck) > 1:
            i, j = rng.sample(range(len(deck)), 2)
            deck[i], deck[j] = deck[j], deck[i]
        elif choice == 4 and deck:
            del deck[rng.randrange(len(deck))]
        elif deck:
            deck.append(rng.choice(deck))
    elif kind == 5 and rec["hands"]:  # the seed
        hand = rng.choice(rec["hands"])
        hand["seed"] = rng.choice([-1, 1 << 256, 2.5, "5", True, None, [], hand.get("seed", 0) + 1])
    elif kind == 6 and rec["hands"]:  # an action edited
        hand = rng.choice(rec["hands"])
        actions = hand.get("actions") or []
        if actions:
            i = rng.randrange(len(actions))
            text = actions[i]
            op = rng.randrange(5)
            if op == 0 and text:
                j = rng.randrange(len(text))
                text = text[:j] + rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 |♥\x00\x1b") + text[j + 1 :]
            elif op == 1:
                text = text + rng.choice([" | 7c7d7s", " junk", "|", " | TcTcTc"])
            elif op == 2:
                del actions[i]
                text = None
            elif op == 3:
                actions.insert(i, rng.choice(["draw", "take", "pass", "gin", "knock", "layoff 7h"]))
                text = None
            else:
                text = text.upper()
            if text is not None:
                actions[i] = text
    elif kind == 7:  # names: control characters, surrogate-free oddities, wrong counts
        rec["players"] = rng.choice(
            [
                ["\x1b[2J\x1b[31mAnn", "Bob\r\n"],
                ["A" * 300, "B"],
                ["Ann"],
                ["Ann", "Bob", "Cy", "Di"],
                ["\u202eAnn", "\u200bBob"],
                ["\x07\x08", "\t"],
                [1, 2],
            ]
        )
    elif kind == 8:  # a lone surrogate in a name, a commitment, an action or a card (raw JSON)
        text = _json(rec)
        spots = [i for i, ch in enumerate(text) if ch == '"']
        if spots:
            i = rng.choice(spots[1::2] or spots)
            text = text[:i] + rng.choice(["\\ud800", "\\udc00", "\\ud83d"]) + text[i:]
        return text.encode()
    elif kind == 9:  # invalid UTF-8
        data = bytearray(_json(rec).encode("utf-8", "surrogatepass"))
        for _ in range(rng.randint(1, 3)):
            data.insert(rng.randrange(len(data) + 1), rng.choice([0xFF, 0xC3, 0x80, 0xED, 0xF5]))
        return bytes(data)
    elif kind == 10:  # truncated
        data = _json(rec).encode("utf-8", "surrogatepass")
        return data[: rng.randrange(len(data))]
    elif kind == 11:  # a key deleted, or an unknown key added
        path = rng.choice([p for p in paths if p and isinstance(p[-1], str)] or [()])
        if path:
            node = rec
            for key in path[:-1]:
                node = node[key]
            del node[path[-1]]
        else:
            rec["extra"] = 1
    elif kind == 12:  # what export writes: a list of records, or one record a line
        n = rng.randint(1, 3)
        if rng.random() < 0.5:
            return _json([rec] * n).encode("utf-8", "surrogatepass")
        return "".join(_json(rec) + "\n" for _ in range(n)).encode("utf-8", "surrogatepass")
    elif kind == 13 and rec["hands"]:  # a commitment altered
        hand = rng.choice(rec["hands"])
        hand["commitment"] = rng.choice(["0" * 64, "", 5, None, "\x1b[31m", (hand.get("commitment") or "x").upper()])
    elif kind == 14:  # a random byte flipped
        data = bytearray(_json(rec).encode("utf-8", "surrogatepass"))
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    else:  # several mutations at once
        data = mutate(rec, rng)
        try:
            again = json.loads(data)
        except (ValueError, RecursionError):
            return data
        try:
            return mutate(again, rng)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError):  # the first mutation broke the shape
            return data
    return _json(rec).encode("utf-8", "surrogatepass")


def cases(count: int, seed: int = SEED) -> Iterator[bytes]:
    rng = random.Random(seed)
    bases = base_records(rng)
    for _ in range(count):
        yield mutate(rng.choice(bases), rng)


# ---------------------------------------------------------------------------- running a command
@dataclass
class Outcome:
    code: int
    out: str
    err: str
    crash: str | None  # why this counts as a crash, else None


def _judge(code: int, out: str, err: str, exc: BaseException | None = None) -> str | None:
    if exc is not None:
        return f"{type(exc).__name__}: {exc!s:.200}"
    if "Traceback" in out or "Traceback" in err:
        return "a traceback was printed"
    if code not in (0, 1, 2):
        return f"exit status {code}: {err.strip()[:200]}"
    if code != 0 and len(err.splitlines()) != 1 and not (code == 1 and not err and out):
        # an error is one line on stderr; verify's verdict "does not verify" is on stdout
        return f"exit status {code} with {len(err.splitlines())} error lines: {err[:200]!r}"
    return None


@contextmanager
def _streams(stdin: bytes) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """Standard streams as on a UTF-8 terminal: strict encoding, so text that cannot be written fails."""
    old = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    wrappers = (
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="strict"),
        io.TextIOWrapper(out, encoding="utf-8", errors="strict", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="strict", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = wrappers
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
        for w in wrappers:
            with suppress(ValueError, UnicodeError):
                w.flush()
            w.detach()


def run_in_process(command: str, data: bytes, path: Path, *, stdin: bool) -> Outcome:
    from ginrummy.cli import main

    path.write_bytes(data)
    code, exc = 0, None
    with _streams(data if stdin else b"") as (out, err):
        try:
            code = main([command, "-" if stdin else str(path)])
        except SystemExit as e:  # argparse
            code = e.code if isinstance(e.code, int) else 1
        except BaseException as e:
            exc = e
    o, e_ = out.getvalue().decode("utf-8", "replace"), err.getvalue().decode("utf-8", "replace")
    return Outcome(code, o, e_, _judge(code, o, e_, exc))


def run_subprocess(command: str, data: bytes, *, stdin: bool, path: Path) -> Outcome:
    path.write_bytes(data)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
    args = [sys.executable, "-m", "ginrummy.cli", command, "-" if stdin else str(path)]
    proc = subprocess.run(args, input=data if stdin else b"", capture_output=True, env=env, timeout=120)
    o, e = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    return Outcome(proc.returncode, o, e, _judge(proc.returncode, o, e))


# ---------------------------------------------------------------------------- the tests
def test_mutated_records_never_crash_replay_or_verify(tmp_path: Path) -> None:
    crashes: list[str] = []
    exits: dict[int, int] = {}
    for n, data in enumerate(cases(COUNT)):
        for command in ("replay", "verify"):
            result = run_in_process(command, data, tmp_path / "r.json", stdin=n % 5 == 0)
            exits[result.code] = exits.get(result.code, 0) + 1
            if result.crash:
                crashes.append(f"case {n} {command}: {result.crash}")
    assert not crashes, f"{len(crashes)} of {2 * COUNT} runs crashed:\n" + "\n".join(crashes[:20])
    assert exits.get(0, 0) > 0 and exits.get(1, 0) > 0  # valid and invalid records were both thrown


def test_mutated_records_in_real_processes(tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    chosen = [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"variant": "classic", "players": ["\\ud800", "B"], "hands": []}',
        b'{"variant": "classic", "players": ["\xff\xfe", "B"], "hands": []}',
        *(data for data in cases(SUBPROCESS_COUNT, SEED + 2)),
    ]
    for data in chosen:
        for command in ("replay", "verify"):
            result = run_subprocess(command, data, stdin=rng.random() < 0.5, path=tmp_path / "r.json")
            assert result.crash is None, (command, data[:80], result.crash, result.err[-500:])


# ---------------------------------------------------------------------------- as a script
def _script() -> int:
    parser = argparse.ArgumentParser(description="throw mutated records at replay and verify; count crashes")
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--show", type=int, default=10, help="crashes to print")
    args = parser.parse_args()
    t0 = time.perf_counter()
    crashed = {"replay": 0, "verify": 0}
    kinds: dict[str, int] = {}
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, data in enumerate(cases(args.count, args.seed)):
            for command in ("replay", "verify"):
                result = run_in_process(command, data, Path(tmp) / "r.json", stdin=n % 5 == 0)
                if result.crash:
                    crashed[command] += 1
                    kind = result.crash.split(":")[0]
                    kinds[kind] = kinds.get(kind, 0) + 1
                    if shown < args.show:
                        shown += 1
                        print(f"case {n} {command}: {result.crash}", file=sys.__stderr__)
    print(
        f"{args.count} mutated records (seed {args.seed}): replay crashed on {crashed['replay']}, "
        f"verify on {crashed['verify']}; {time.perf_counter() - t0:.1f} s"
    )
    for kind, k in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {k:6}  {kind}")
    return 0


if __name__ == "__main__":
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    raise SystemExit(_script())

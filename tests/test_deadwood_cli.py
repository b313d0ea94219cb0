"""``ginrummy deadwood``: the batch path's output is the reference's (``analyse`` + ``json.dumps``)
on every line, bad lines are reported as their line's error object and the run goes on."""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.cards import CARDS, RANK_CHARS, SUIT_SYMBOLS, CardSet
from ginrummy.commands import deadwood
from ginrummy.melds import best_arrangement

SRC = Path(deadwood.__file__).resolve().parents[2]


def batch(data: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *, json_out: bool = True):
    """Run the batch path on ``data`` as standard input: (status, stdout lines, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    status = deadwood.run(argparse.Namespace(cards=["-"], json=json_out, unicode=False))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def reference(tokens: list[str]) -> str:
    return json.dumps(deadwood.analyse(tokens))


def spell(card: int, rng: random.Random) -> str:
    """One of the spellings ``Card.parse`` takes."""
    rank, suit = RANK_CHARS[card % 13], "cdhs"[card // 13]
    rank = rng.choice([rank, rank.lower()] + (["10"] if rank == "T" else []))
    suit = rng.choice([suit, suit.upper(), SUIT_SYMBOLS[card // 13]])
    return rank + suit


def test_fast_path_matches_the_reference_on_random_hands(monkeypatch, capsys) -> None:
    rng = random.Random(16)
    lines, expected = [], []
    for i in range(6000):
        n = rng.choice((0, 1, 3, 7, 9, 10, 10, 10, 10, 11))
        cards = rng.sample(range(52), n)
        if i % 5 == 0:  # sets are the slow part: deal many hands with three or four of a rank
            r = rng.randrange(13)
            extra = [r + 13 * s for s in rng.sample(range(4), rng.choice((3, 4)))]
            cards = list(dict.fromkeys(extra + cards))[: max(n, 4)]
        tokens = [spell(c, rng) if i % 3 == 0 else str(CARDS[c]) for c in cards]
        sep = ", " if i % 7 == 0 else " "
        lines.append(sep.join(tokens))
        if tokens:
            expected.append(reference(tokens))
    status, out, err = batch(("\n".join(lines) + "\n").encode(), monkeypatch, capsys)
    assert status == 0 and err == ""
    assert out == expected


def test_ties_between_ways_of_using_sets_follow_best_arrangement(monkeypatch, capsys) -> None:
    # Hands where the sets compete with runs, and four of a kind, in every suit position.
    hands = [
        "7c 7d 7h 8h 9h 2s 3s 4s Kd Qc",
        "7c 7d 7h 7s 8h 9h 8s 9s Kd Qc",
        "3c 3d 3h 3s 4c 5c 4s 5s 2d 2h",
        "Ac Ad Ah 2c 3c 2h 3h Kc Ks Kh",
        "5c 5d 5h 5s 6d 7d 6h 7h 4d 4h",
        "9c 9d 9h Tc Jc Td Jd Th Jh 2s",
        "Qc Qd Qh Ks Kd Kh Kc Js Jd Jh",
    ]
    rng = random.Random(3)
    for _ in range(3000):  # random hands of two or three candidate ranks
        ranks = rng.sample(range(13), rng.choice((2, 3)))
        cards = {r + 13 * s for r in ranks for s in rng.sample(range(4), rng.choice((3, 4)))}
        cards |= set(rng.sample(range(52), 10))
        hands.append(" ".join(str(CARDS[c]) for c in sorted(cards)[:10]))
    status, out, _ = batch(("\n".join(hands) + "\n").encode(), monkeypatch, capsys)
    assert status == 0
    for line, text in zip(out, hands, strict=True):
        got = json.loads(line)
        arr = best_arrangement(CardSet.parse(text))
        assert got["melds"] == [[str(c) for c in m] for m in arr.melds], text
        assert got["deadwood"] == arr.deadwood
        assert line == reference(text.split())


def test_bad_lines_are_their_own_error_and_the_rest_runs(monkeypatch, capsys) -> None:
    data = b"As 2s 3s\nAs As\n\nZz 2c\n" + b"As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs\n" + b"Kd, Qd ,Jd\n"
    status, out, err = batch(data, monkeypatch, capsys)
    assert status == 2
    objs = [json.loads(x) for x in out]
    assert objs[0]["melds"] == [["As", "2s", "3s"]]
    assert objs[1] == {"line": 2, "error": "duplicate card 'As'"}
    assert objs[2]["line"] == 4 and "not a card: 'Zz'" in objs[2]["error"]
    assert objs[3] == {"line": 5, "error": "a hand has at most 11 cards, got 12"}
    assert objs[4]["melds"] == [["Jd", "Qd", "Kd"]] and objs[4]["deadwood"] == 0
    assert len(objs) == 5
    assert "line 2: duplicate card 'As'" in err and "line 5:" in err


def test_line_numbers_go_on_across_read_chunks(monkeypatch, capsys) -> None:
    good = "As 2s 3s 4d 5d 6d 8c 8h 8s 2h\n" * 5000  # more than one 64 KiB read
    status, out, _ = batch((good + "Xx\n" + good).encode(), monkeypatch, capsys)
    assert status == 2
    assert json.loads(out[5000]) == {"line": 5001, "error": json.loads(out[5000])["error"]}
    assert len(out) == 10001 and out[0] == out[-1] == reference(good.split("\n")[0].split())


def test_text_output_unchanged(monkeypatch, capsys) -> None:
    status, out, _ = batch(b"7c 7d 7h 8h 9h 2s 3s 4s Kd Qc\nbad\n", monkeypatch, capsys, json_out=False)
    assert status == 2
    text = "\n".join(out)
    assert "meld:      7h 8h 9h" in text and "deadwood:  34" in text and "not a card: 'bad'" in text


def test_invalid_utf8_is_that_lines_error() -> None:
    """Issue 12 item 5: under PYTHONIOENCODING=utf-8, a line of bad bytes is reported as that
    line's error object and the lines after it are still analysed."""
    data = b"As 2s 3s\n7\xff\xfe 8h\nKd Qd Jd\n"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(SRC)}
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "deadwood", "--json", "-"],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    out = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert out[0]["deadwood"] == 0 and out[2]["deadwood"] == 0
    assert out[1] == {"line": 2, "error": "not valid utf-8 text (byte 2 of the line)"}
    assert b"Traceback" not in proc.stderr and b"line 2: not valid utf-8 text" in proc.stderr

"""Provably fair deals: commitments, the documented shuffle, and `ginrummy verify`."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path

from ginrummy.cards import ShuffleStream, shuffled
from ginrummy.cli import main
from ginrummy.engine import State
from ginrummy.fair import commitment, verify_record
from ginrummy.session import Session


def played_record(variant: str = "classic", hands: int = 3) -> dict:
    solo = variant in ("solitaire", "gin-solitaire")
    seats = ["human", "joker"] if solo else ["human"] * (3 if variant == "three" else 2)
    s = Session.new(variant, seats=seats, deal_seed=5)
    rng = random.Random(1)
    for _ in range(hands):
        if s.state.is_terminal:
            break
        s.start_hand()
        while not s.state.is_hand_over:
            s.state.apply(rng.choice(s.state.legal_actions()))
    return s.state.to_record()


def test_commitment_is_sha256_of_documented_text() -> None:
    expected = hashlib.sha256(b"ginrummy-deal/1:3:12345").hexdigest()
    assert commitment(3, 12345) == expected


def test_shuffle_is_the_documented_algorithm() -> None:
    # An independent re-implementation of ginrummy-shuffle/1 from its documentation.
    seed = 987654321
    words: list[int] = []
    for block in range(40):
        d = hashlib.sha256(seed.to_bytes(32, "big") + block.to_bytes(8, "big")).digest()
        words += [int.from_bytes(d[i : i + 8], "big") for i in range(0, 32, 8)]
    it = iter(words)

    def below(n: int) -> int:
        limit = 2**64 - 2**64 % n
        while True:
            w = next(it)
            if w < limit:
                return w % n

    deck = list(range(52))
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert [int(c) for c in shuffled(seed)] == deck
    assert ShuffleStream(seed).below(10) == next(iter([w % 10 for w in words[:1] if w < 2**64 - 2**64 % 10]))


def test_honest_record_verifies() -> None:
    for variant in ("classic", "solitaire", "gin-solitaire", "three"):
        rec = played_record(variant)
        assert all(h.get("commitment") for h in rec["hands"])
        checks = verify_record(rec)
        assert checks and all(c.ok for c in checks), checks


def test_tampered_seed_is_caught() -> None:
    rec = played_record()
    bad = copy.deepcopy(rec)
    bad["hands"][1]["seed"] += 1
    checks = verify_record(bad)
    assert [c.hand for c in checks if not c.ok][:1] == [2]


def test_tampered_deck_is_caught() -> None:
    rec = played_record("solitaire", hands=1)
    bad = copy.deepcopy(rec)
    st = State.new("solitaire", rec["options"])
    deck = [str(c) for c in st.deck_for_seed(rec["hands"][0]["seed"])]
    deck[3], deck[4] = deck[4], deck[3]
    bad["hands"][0]["deck"] = deck
    checks = verify_record(bad)
    assert not checks[0].ok and "card 4" in checks[0].message


def test_deck_alongside_seed_is_accepted_when_it_matches() -> None:
    rec = played_record("solitaire", hands=1)
    st = State.new("solitaire", rec["options"])
    rec["hands"][0]["deck"] = [str(c) for c in st.deck_for_seed(rec["hands"][0]["seed"])]
    assert all(c.ok for c in verify_record(rec))


def test_verify_cli(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    rec = played_record()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    assert main(["verify", str(good)]) == 0
    assert "all 3 hands verify: each seed matches its commitment" in capsys.readouterr().out
    rec["hands"][0]["commitment"] = "0" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    assert main(["verify", str(bad), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["hands"][0]["ok"] is False

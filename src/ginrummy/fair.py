"""Provably fair deals: commit to a hand's seed before the deal, reveal it after.

The commitment of hand ``n`` (1-based) dealt from ``seed`` is the SHA-256 hex digest of the ASCII
text ``ginrummy-deal/1:<n>:<seed in decimal>``.  Shown before the deal, it binds the dealer to a
seed it cannot change; revealed after the hand, the seed lets anyone rebuild the exact deck with
the documented shuffle (:class:`ginrummy.cards.ShuffleStream`, ``ginrummy-shuffle/1``).

>>> commitment(1, 42)[:16]
'03869d4ab010f8eb'
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import new_seed
from .errors import GinRummyError, RecordError

__all__ = ["COMMITMENT_VERSION", "HandCheck", "commitment", "fresh_commitment", "verify_record"]

COMMITMENT_VERSION = "ginrummy-deal/1"


def commitment(hand_number: int, seed: int) -> str:
    """The public commitment to ``seed`` for hand ``hand_number``."""
    return hashlib.sha256(f"{COMMITMENT_VERSION}:{hand_number}:{seed}".encode("ascii")).hexdigest()


def fresh_commitment(hand_number: int) -> tuple[int, str]:
    """A new secret seed (``secrets``) and its commitment, for the next real deal."""
    seed = new_seed()
    return seed, commitment(hand_number, seed)


@dataclass(frozen=True)
class HandCheck:
    """The verdict on one hand of a record."""

    hand: int  # 1-based
    ok: bool
    message: str


def verify_record(record: Mapping[str, Any]) -> list[HandCheck]:
    """Check every hand of a record: the seed hashes to the commitment, the deck it shuffles to is
    the deck written in the record (when one is), and the actions replay on it.

    A hand dealt from an explicit deck without a seed cannot be verified and is reported so.
    """
    from .engine import State
    from .record import replay

    if not isinstance(record, Mapping) or not isinstance(record.get("hands"), list):
        raise RecordError("record: a record is an object with a list of hands")
    checks: list[HandCheck] = []
    variant = record.get("variant")
    try:
        probe = State.new(str(variant), record.get("options") or {})
    except GinRummyError as exc:
        raise RecordError(f"record: {exc}") from None
    for i, hand in enumerate(record["hands"], 1):
        if not isinstance(hand, Mapping):
            checks.append(HandCheck(i, False, "not a hand object"))
            continue
        seed, commit, deck = hand.get("seed"), hand.get("commitment"), hand.get("deck")
        if seed is None:
            checks.append(HandCheck(i, False, "dealt from an explicit deck with no seed: cannot be verified"))
            continue
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 256:
            checks.append(HandCheck(i, False, f"the seed {seed!r} is not a 256-bit integer"))
            continue
        if commit is None:
            checks.append(HandCheck(i, False, "no commitment was recorded before the deal"))
            continue
        if commitment(i, seed) != commit:
            checks.append(HandCheck(i, False, f"the seed does not hash to the commitment {commit}"))
            continue
        if deck is not None:
            played = [str(c) for c in probe.deck_for_seed(seed)]
            if [str(c).strip() for c in deck] != played:
                where = next((k for k, (a, b) in enumerate(zip(deck, played, strict=False)) if a != b), len(played))
                checks.append(
                    HandCheck(i, False, f"the deck played differs from the seed's shuffle at card {where + 1}")
                )
                continue
        checks.append(HandCheck(i, True, "the seed matches the commitment and deals the deck played"))
    # The actions must replay on the decks the seeds deal (an altered seed or action shows here).
    clean = {k: v for k, v in record.items()}
    clean["hands"] = [{k: v for k, v in h.items() if k != "deck" or "seed" not in h} for h in record["hands"]]
    try:
        replay(clean)
    except RecordError as exc:
        checks.append(HandCheck(0, False, f"the record does not replay: {exc}"))
    return checks

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

from .cards import new_seed

__all__ = ["COMMITMENT_VERSION", "commitment", "fresh_commitment"]

COMMITMENT_VERSION = "ginrummy-deal/1"


def commitment(hand_number: int, seed: int) -> str:
    """The public commitment to ``seed`` for hand ``hand_number``."""
    return hashlib.sha256(f"{COMMITMENT_VERSION}:{hand_number}:{seed}".encode("ascii")).hexdigest()


def fresh_commitment(hand_number: int) -> tuple[int, str]:
    """A new secret seed (``secrets``) and its commitment, for the next real deal."""
    seed = new_seed()
    return seed, commitment(hand_number, seed)

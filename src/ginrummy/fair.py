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
from dataclasses import dataclass, replace
from typing import Any

from .cards import new_seed
from .errors import RecordError

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
    """The verdict on one hand of a record: ``ok`` only if every check below passed.

    ``fair``: the seed hashes to the commitment and deals the deck played (when the record keeps
    one); ``replays``: the hand's actions replay on that deal.  ``said`` says what was checked: a
    catalog message with its values (:mod:`ginrummy.agents.reasons`), worded for each reader
    (:meth:`words`); ``message`` is its English (``verify --json``: data).
    """

    hand: int  # 1-based
    ok: bool
    said: Any
    fair: bool = False
    replays: bool = False

    def words(self) -> str:
        """What was checked, in the current language."""
        from .words import reason_text

        return reason_text(self.said)

    @property
    def message(self) -> str:
        """What was checked, in English."""
        from .i18n import using

        with using("en"):
            return self.words()


def verify_record(record: Mapping[str, Any]) -> list[HandCheck]:
    """Check every hand of a record: the seed hashes to the commitment, the deck it shuffles to is
    the deck written in the record (when one is; compared card by card, whatever the spelling), and
    the hand's actions replay on it.  One verdict a hand, in order.

    A hand dealt from an explicit deck without a seed cannot be verified and is reported so.  A
    record whose fields are not valid (:func:`ginrummy.record.check`) raises :class:`RecordError`.
    """
    from .agents.reasons import N_, ngettext
    from .record import check, new_state, play_hand

    checked = check(record)
    state = new_state(checked)
    checks: list[HandCheck] = []
    stuck: Any = None  # why the play could not be followed past an earlier hand
    for hand in checked.hands:
        fair, verdict = _fairness(state, hand)
        if stuck is not None:
            said = N_("{verdict}; its play was not replayed ({why})", verdict=verdict, why=stuck)
            checks.append(HandCheck(hand.number, False, said, fair))
            continue
        try:
            play_hand(state, replace(hand, deck=None) if hand.seed is not None else hand)
        except RecordError as exc:  # (its text is worded in the language in effect now)
            stuck = N_("hand {number} does not replay", number=hand.number)
            said = N_("{verdict}; the play does not replay: {error}", verdict=verdict, error=str(exc))
            checks.append(HandCheck(hand.number, False, said, fair))
            continue
        n = len(hand.actions)
        if state.is_hand_over:
            played = (
                ngettext("its {n} action replays", "its {n} actions replay", n, n=n) if n else N_("it has no actions")
            )
        else:
            played = (
                ngettext(
                    "its {n} action replays (the hand is unfinished)",
                    "its {n} actions replay (the hand is unfinished)",
                    n,
                    n=n,
                )
                if n
                else N_("it has no actions (the hand is unfinished)")
            )
        checks.append(
            HandCheck(hand.number, fair, N_("{verdict}; {played}", verdict=verdict, played=played), fair, True)
        )
    return checks


def _fairness(state: Any, hand: Any) -> tuple[bool, Any]:
    """Whether a hand's deal is provably the committed one, and a sentence saying what was found
    (a catalog message with its values)."""
    from .agents.reasons import N_

    if hand.seed is None:
        return False, N_("dealt from an explicit deck with no seed: its fairness cannot be verified")
    if hand.commitment is None:
        return False, N_("no commitment was recorded before the deal")
    if commitment(hand.number, hand.seed) != hand.commitment.strip().lower():
        return False, N_("the seed does not hash to the commitment {commitment}", commitment=_short(hand.commitment))
    if hand.deck is not None:
        dealt = state.deck_for_seed(hand.seed)
        if hand.deck != dealt:
            where = next((k for k, (a, b) in enumerate(zip(hand.deck, dealt, strict=False)) if a != b), len(dealt))
            return False, N_(
                "the seed matches the commitment, but the deck played differs from its shuffle at card {number}",
                number=where + 1,
            )
        return True, N_("the seed matches the commitment and deals the deck played")
    return True, N_("the seed matches the commitment")


def _short(text: str) -> str:
    text = text if len(text) <= 70 else text[:64] + "..."
    return repr(text) if not text.isprintable() else text

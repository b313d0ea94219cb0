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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .cards import new_seed
from .errors import RecordError
from .i18n import _, ngettext, using

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
    one); ``replays``: the hand's actions replay on that deal.  ``message`` says what was checked,
    in English (``verify --json``: data); ``words`` says it in the language in effect when the
    record was verified (``verify``'s text).
    """

    hand: int  # 1-based
    ok: bool
    message: str
    fair: bool = False
    replays: bool = False
    words: str = ""


# A verdict is worded when it is made, in English and in the language in effect (the library's way
# with its errors); it is kept as a function that words it until then, its parts inside it.
Saying = Callable[[], str]


def _check(hand: int, ok: bool, said: Saying, fair: bool = False, replays: bool = False) -> HandCheck:
    with using("en"):
        english = said()
    return HandCheck(hand, ok, english, fair, replays, said())


def verify_record(record: Mapping[str, Any]) -> list[HandCheck]:
    """Check every hand of a record: the seed hashes to the commitment, the deck it shuffles to is
    the deck written in the record (when one is; compared card by card, whatever the spelling), and
    the hand's actions replay on it.  One verdict a hand, in order.

    A hand dealt from an explicit deck without a seed cannot be verified and is reported so.  A
    record whose fields are not valid (:func:`ginrummy.record.check`) raises :class:`RecordError`.
    """
    from .record import check, new_state, play_hand

    checked = check(record)
    state = new_state(checked)
    checks: list[HandCheck] = []
    stuck: Saying | None = None  # why the play could not be followed past an earlier hand
    for hand in checked.hands:
        fair, verdict = _fairness(state, hand)
        if stuck is not None:
            checks.append(_check(hand.number, False, _not_replayed(verdict, stuck), fair))
            continue
        try:
            play_hand(state, replace(hand, deck=None) if hand.seed is not None else hand)
        except RecordError as exc:  # (its text is worded in the language in effect)
            stuck = _stuck(hand.number)
            checks.append(_check(hand.number, False, _does_not_replay(verdict, str(exc)), fair))
            continue
        said = _played(verdict, len(hand.actions), state.is_hand_over)
        checks.append(_check(hand.number, fair, said, fair, True))
    return checks


def _stuck(number: int) -> Saying:
    return lambda: _("hand {number} does not replay").format(number=number)


def _not_replayed(verdict: Saying, why: Saying) -> Saying:
    return lambda: _("{verdict}; its play was not replayed ({why})").format(verdict=verdict(), why=why())


def _does_not_replay(verdict: Saying, error: str) -> Saying:
    return lambda: _("{verdict}; the play does not replay: {error}").format(verdict=verdict(), error=error)


def _played(verdict: Saying, n: int, over: bool) -> Saying:
    """The verdict on the deal, and that the hand's actions replay."""

    def played() -> str:
        if not n:
            return _("it has no actions") if over else _("it has no actions (the hand is unfinished)")
        if over:
            return ngettext("its {n} action replays", "its {n} actions replay", n).format(n=n)
        return ngettext(
            "its {n} action replays (the hand is unfinished)", "its {n} actions replay (the hand is unfinished)", n
        ).format(n=n)

    return lambda: _("{verdict}; {played}").format(verdict=verdict(), played=played())


def _fairness(state: Any, hand: Any) -> tuple[bool, Saying]:
    """Whether a hand's deal is provably the committed one, and a sentence saying what was found."""
    if hand.seed is None:
        return False, lambda: _("dealt from an explicit deck with no seed: its fairness cannot be verified")
    if hand.commitment is None:
        return False, lambda: _("no commitment was recorded before the deal")
    if commitment(hand.number, hand.seed) != hand.commitment.strip().lower():
        short = _short(hand.commitment)
        return False, lambda: _("the seed does not hash to the commitment {commitment}").format(commitment=short)
    if hand.deck is not None:
        dealt = state.deck_for_seed(hand.seed)
        if hand.deck != dealt:
            where = next((k for k, (a, b) in enumerate(zip(hand.deck, dealt, strict=False)) if a != b), len(dealt))
            return False, lambda: _(
                "the seed matches the commitment, but the deck played differs from its shuffle at card {number}"
            ).format(number=where + 1)
        return True, lambda: _("the seed matches the commitment and deals the deck played")
    return True, lambda: _("the seed matches the commitment")


def _short(text: str) -> str:
    text = text if len(text) <= 70 else text[:64] + "..."
    return repr(text) if not text.isprintable() else text

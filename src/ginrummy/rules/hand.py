"""What the variants' rules read and change: a hand's phases and results, and the game in play.

:class:`Match` declares the fields of a game (the current hand and the score sheet) that a
variant's rules (:mod:`ginrummy.rules.base`) read and change; :class:`ginrummy.engine.State` is a
``Match`` with the public API on top (apply, undo, clone, observations, records).  The values of
:class:`Phase` and :class:`ResultKind` equal the strings of records and the web protocol.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..actions import Action
from ..cards import Card
from ..options import Options
from ..scoring import HollywoodSheet
from ..variants import Variant

__all__ = ["Cut", "HandLog", "HandResult", "Match", "Phase", "ResultKind"]


class Phase(StrEnum):
    """Where a hand stands; each value equals today's string (records and the wire are unchanged)."""

    DEAL = "deal"  # waiting for the next deal (a chance node)
    UPCARD = "upcard"  # rule 1.4: take or pass the first upcard
    DRAW = "draw"  # draw from the stock or take the discard
    DISCARD = "discard"  # holding 11: discard, knock or gin
    OPENING = "opening"  # solitaire with end_before_first_draw: declare the dealt ten, or draw
    OVER = "over"  # the game is over


# Module constants for the hot paths (an enum member read through its class costs about 0.2 us).
PH_DEAL = Phase.DEAL
PH_UPCARD = Phase.UPCARD
PH_DRAW = Phase.DRAW
PH_DISCARD = Phase.DISCARD
PH_OPENING = Phase.OPENING
PH_OVER = Phase.OVER


class ResultKind(StrEnum):
    """How a hand ended; each value equals the record's ``result`` string (RECORD.md)."""

    GIN = "gin"
    BIG_GIN = "big-gin"
    KNOCK = "knock"
    UNDERCUT = "undercut"
    JOKER = "joker"  # solitaire: the joker came first
    DRAW = "draw"  # the wall: a void hand
    REDEAL = "redeal"  # solitaire: the joker was dealt


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what each seat scored (points are in seat order)."""

    result: ResultKind  # gin, big-gin, knock, undercut, joker, draw (the wall), redeal
    points: tuple[int, ...]
    deadwood: tuple[int, ...]
    winner: int | None = None  # the seat that scored, if any
    knocker: int | None = None
    counted: int | None = None  # solitaire: cards turned before the joker
    knocker_melds: tuple[tuple[Card, ...], ...] = ()
    knocker_unmatched: tuple[Card, ...] = ()
    defender_melds: tuple[tuple[Card, ...], ...] = ()
    laid_off: tuple[Card, ...] = ()
    defender_unmatched: tuple[Card, ...] = ()
    counted_cards: tuple[Card, ...] = ()
    explanation: tuple[str, ...] = ()
    doubled: bool = False  # Oklahoma: the spades double applied (rule 1b.3)
    defender: int | None = None
    """The seat that defended the knock or gin (in the solitaires the Joker, seat 1); None when
    nobody knocked.  Not in :meth:`to_json` (the web protocol and records are unchanged)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", ResultKind(self.result))

    def to_json(self) -> dict[str, Any]:
        def cs(cards: Iterable[Card]) -> list[str]:
            return [str(c) for c in cards]

        out: dict[str, Any] = {
            "result": str(self.result),
            "deadwood": list(self.deadwood),
            "points": list(self.points),
            "winner": self.winner,
            "knocker": self.knocker,
        }
        if self.counted is not None:
            out["counted"] = self.counted
            out["counted_cards"] = cs(self.counted_cards)
        if self.knocker is not None:
            out["knocker_melds"] = [cs(m) for m in self.knocker_melds]
            out["knocker_unmatched"] = cs(self.knocker_unmatched)
            out["defender_melds"] = [cs(m) for m in self.defender_melds]
            out["laid_off"] = cs(self.laid_off)
            out["defender_unmatched"] = cs(self.defender_unmatched)
        out["explanation"] = list(self.explanation)
        if self.doubled:
            out["doubled"] = True
        return out


@dataclass(frozen=True)
class Cut:
    """The cut before the first deal: for the first dealer (rule 1.2, the lower card deals) or the
    roles of three-player Gin (rule 2.1, highest in the box, then captain, then sitter)."""

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    """Each round of cutting as (seat, card) pairs: the first has every seat, re-cuts the tied ones."""
    order: tuple[int, ...]
    """The seats from the highest cut to the lowest, ties resolved."""
    dealer: int
    """The seat that deals the first hand (in ``three`` the box)."""
    roles: tuple[int, int, int] | None = None
    """``three``: the first hand's (box, captain, sitter)."""


@dataclass
class HandLog:
    """One hand of the record: its deck (or seed), the actions and who took each."""

    deck: list[Card]
    seed: int | None
    actions: list[Action] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)  # who took each action
    commitment: str | None = None
    public: list[dict[str, Any]] = field(default_factory=list, repr=False)  # observe.py's cache


class Match:
    """The fields of a game in play that a variant's rules read and change (no methods but
    :meth:`reset_hand`).  The rules change the lists in place and replace the other values; the
    totals, hands won, Hollywood sheet and cards out of play are replaced, not changed, so that
    the engine's undo snapshots keep the ones before."""

    # The game
    variant: str
    facts: Variant
    """The variant's fixed facts (ginrummy.variants)."""
    options: Options
    players: list[str]
    num_seats: int
    logs: list[HandLog]
    results: list[HandResult]
    # The score sheet
    totals: list[int]
    hands_won: list[int]
    hollywood: HollywoodSheet | None
    dealer: int
    """Two-player games: the seat that deals the next hand."""
    roles: tuple[int, int, int]
    """Three-player gin: the next hand's (box, captain, sitter)."""
    game_over: bool
    winner: int | None
    # The hand in play
    phase: Phase
    hands: list[int]
    """Each seat's cards as a mask."""
    stock: list[Card]
    """The stock, its top at the END of the list."""
    pile: list[Card]
    """The discard pile, top at the end (solitaire: unused)."""
    out_of_play: list[Card]
    """Gin solitaire's face-down discards; solitaire: the discards under the joker."""
    current: int | None
    taken: Card | None
    """The card taken from the discard pile this turn."""
    upcard: Card | None
    passes: int
    must_draw: bool
    """Rule 1.4.3: after both refuse the upcard, the non-dealer draws from the stock."""
    opening: bool
    """Gin solitaire: the opening discard is next."""
    draws: int
    """Solitaires: cards drawn from the deck this hand (the joker included)."""
    known: list[int]
    """Cards a seat is known (publicly) to hold, as masks."""
    hand_result: HandResult | None
    hand_dealer: int
    hand_nondealer: int
    knock_limit: int
    _knock_melds: tuple[tuple[Card, ...], ...]
    _last_knocker: int | None

    def reset_hand(self) -> None:
        """Clear the hand fields: between hands (the deal comes next) or at the end of the game."""
        self.phase = PH_OVER if self.game_over else PH_DEAL
        self.hands = [0] * self.num_seats
        self.stock = []
        self.pile = []
        self.out_of_play = []
        self.current = None
        self.taken = None
        self.upcard = None
        self.passes = 0
        self.must_draw = False
        self.opening = False
        self.draws = 0
        self.known = [0] * self.num_seats
        self.hand_result = None
        self._knock_melds = ()
        self._last_knocker = None

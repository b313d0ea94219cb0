"""The observation's contract: what the observer reads (:class:`ObservedState`, a Protocol the
engine's ``State`` satisfies), and what it makes (:class:`Observation`, a ``TypedDict``, and
:class:`MaskObservation`, the same knowledge as card masks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, NotRequired, Protocol, TypedDict

from ..actions import Action
from ..cards import Card
from ..options import Options
from ..scoring import HollywoodSheet
from ..variants import Variant

__all__ = ["HistoryEntry", "MaskObservation", "Observation", "ObservedState", "Roles"]


# ---------------------------------------------------------------------- what the observer reads
class _Log(Protocol):
    """One hand's log, as the observer reads it."""

    @property
    def actions(self) -> list[Action]: ...
    @property
    def seats(self) -> list[int | None]: ...
    @property
    def commitment(self) -> str | None: ...
    @property
    def public(self) -> list[dict[str, Any]]:
        """The public history built so far (the observer's cache, appended to as actions come)."""
        ...


class _Result(Protocol):
    """A finished hand, as the observer reads it."""

    @property
    def knocker(self) -> int | None: ...
    @property
    def knocker_melds(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def knocker_unmatched(self) -> tuple[Card, ...]: ...
    @property
    def defender_melds(self) -> tuple[tuple[Card, ...], ...]: ...
    @property
    def defender_unmatched(self) -> tuple[Card, ...]: ...
    @property
    def laid_off(self) -> tuple[Card, ...]: ...
    @property
    def counted_cards(self) -> tuple[Card, ...]: ...
    def to_json(self) -> dict[str, Any]: ...


class ObservedState(Protocol):
    """What an :class:`Observer` reads of a game (:class:`ginrummy.engine.State` is one).

    Only the observer reads the private fields (``hands``, ``known``, ``stock``); everything it
    hands out goes through the seat's knowledge."""

    @property
    def variant(self) -> str: ...
    @property
    def facts(self) -> Variant: ...
    @property
    def options(self) -> Options: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def num_seats(self) -> int: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def totals(self) -> list[int]: ...
    @property
    def hands_won(self) -> list[int]: ...
    @property
    def game_over(self) -> bool: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def hollywood(self) -> HollywoodSheet | None: ...
    @property
    def logs(self) -> Sequence[_Log]: ...
    @property
    def hand_result(self) -> _Result | None: ...
    @property
    def is_hand_over(self) -> bool: ...
    @property
    def active_seats(self) -> tuple[int, ...]: ...
    @property
    def hand_dealer(self) -> int: ...
    @property
    def hand_nondealer(self) -> int: ...
    @property
    def roles(self) -> tuple[int, int, int]: ...
    @property
    def knock_limit(self) -> int: ...
    @property
    def upcard(self) -> Card | None: ...
    @property
    def taken(self) -> Card | None: ...
    @property
    def pile(self) -> list[Card]: ...
    @property
    def out_of_play(self) -> list[Card]: ...
    @property
    def stock(self) -> list[Card]: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def known(self) -> list[int]: ...
    @property
    def draws(self) -> int: ...
    def legal_actions(self) -> list[Action]: ...
    def legal_action_ids(self) -> tuple[int, ...]: ...
    def boxes(self) -> list[int]: ...
    def final_totals(self) -> list[int]: ...


# ---------------------------------------------------------------------- the observation
class Roles(TypedDict):
    """Three-player Gin's roles as seats (rule 2.1)."""

    box: int
    captain: int
    sitter: int


class HistoryEntry(TypedDict):
    """One action of the hand as every seat saw it."""

    seat: int | None
    action: str
    """The action's text; a stock draw is ``draw`` without its card."""


class Observation(TypedDict):
    """What one seat may know, JSON-ready (card texts like ``"7h"``, action texts like
    ``"discard 7h"``).  The keys without ``NotRequired`` are always there; the others only where
    the variant or the moment has them (before the first deal only the first group is there)."""

    variant: str
    """The variant's name (:mod:`ginrummy.variants`)."""
    seat: int
    """The seat this observation belongs to."""
    players: list[str]
    """Every seat's name, in seat order."""
    options: dict[str, Any]
    """The game's options (:meth:`ginrummy.options.Options.to_dict`)."""
    hand_number: int
    """1-based number of the current (or last) hand; 0 before the first deal."""
    phase: str
    """``deal``, ``upcard``, ``draw``, ``discard``, ``opening`` or ``over``."""
    current_player: int | None
    """The seat to act, or None (between hands)."""
    to_act: bool
    """Whether this seat is to act."""
    legal_actions: list[str]
    """This seat's legal actions when it is to act, else empty."""
    totals: list[int]
    """Each seat's running total."""
    hands_won: list[int]
    """Hands each seat has won."""
    game_over: bool
    winner: int | None
    """The seat that won the game, once it is over."""
    boxes: NotRequired[list[int]]
    """Oklahoma with ``spades_double_boxes``: boxes per seat (a spade-upcard hand counts two)."""
    final_totals: NotRequired[list[int]]
    """Once the game is over: each seat's total with the game's bonuses."""
    hollywood: NotRequired[dict[str, Any]]
    """Hollywood: the three games' score sheet."""
    commitment: NotRequired[str]
    """Fair deals: the hash committing to this hand's seed."""
    # -- during and after a hand
    hand: NotRequired[list[str]]
    """This seat's cards (empty for three's sitter and the solitaires' Joker)."""
    melds: NotRequired[list[list[str]]]
    """The best arrangement of this seat's cards: its melds (only when it holds cards)."""
    deadwood: NotRequired[int]
    """The deadwood of that arrangement (only when it holds cards)."""
    knock_limit: NotRequired[int]
    """The hand's knock limit (Oklahoma: set by the upcard)."""
    result: NotRequired[dict[str, Any]]
    """Once the hand is over: how it ended (:meth:`ginrummy.engine.HandResult.to_json`)."""
    # -- table games
    dealer: NotRequired[int]
    """The hand's dealer (three: the box)."""
    upcard: NotRequired[str | None]
    """The first upcard while it is on offer."""
    discard_pile: NotRequired[list[str]]
    """The face-up discard pile, bottom first."""
    stock_size: NotRequired[int]
    hand_sizes: NotRequired[list[int]]
    """Cards each seat holds."""
    taken: NotRequired[str | None]
    """The card taken from the discard pile this turn."""
    roles: NotRequired[Roles]
    """Three: this hand's roles."""
    next_roles: NotRequired[Roles]
    """Three: the next hand's roles."""
    captain_hand: NotRequired[list[str]]
    """Three, the sitter only: the captain's hand (rule 2.2)."""
    known_cards: NotRequired[dict[str, list[str]]]
    """Per other seat in the hand (seat number as text): the cards it is publicly known to hold
    (taken from the discard pile, not yet discarded)."""
    history: NotRequired[list[HistoryEntry]]
    """This hand's actions as every seat saw them."""
    # -- solitaires
    discards: NotRequired[list[str]]
    """The player's discards (solitaire: under the joker; gin solitaire: out of play face down)."""
    unseen: NotRequired[list[str]]
    """The player's seat only: the cards it has not seen."""
    deck_size: NotRequired[int]
    cards_above_joker_max: NotRequired[int]
    """Most cards that can lie above the joker (0 once the hand is over)."""
    joker_next_chance: NotRequired[float | None]
    """The chance that the next card drawn is the joker; None once the hand is over."""
    draws: NotRequired[int]
    """Cards drawn this hand."""
    # -- added by the session (:meth:`ginrummy.session.Session.observation`)
    next_commitment: NotRequired[str | None]
    """Fair deals, between hands: the hash committing to the next hand's seed."""
    revealed_seed: NotRequired[str]
    """Fair deals, once the hand is over: its seed, so anyone may check the deal."""
    seat_kinds: NotRequired[list[str]]
    """Who sits in each seat (``human`` or a computer player's name)."""


class MaskObservation(NamedTuple):
    """The numeric core of :class:`Observation`: what one seat may know, as card masks (bit ``i``
    is ``Card(i)``) and numbers, for encoders on hot paths (the RL environments).  Made by the same
    :class:`Observer` from the same knowledge; it holds nothing the observation does not."""

    seat: int
    hand_number: int
    phase: str
    to_act: bool
    legal: tuple[int, ...]  # legal action ids when to act, else ()
    own: int  # this seat's cards
    held: int  # the cards it sees held on its side: its own, or (the sitter in three) the captain's
    top: int  # the top of the discard pile (solitaires: the last discard) as a card index, or -1
    pile: int  # table games: the face-up discard pile; solitaires: the player's discards
    known: int  # cards an opponent is publicly known to hold (taken from the pile, not yet discarded)
    unseen: int  # cards this seat has not seen (0 for the Joker's seat, which gets no complement)
    stock_size: int
    knock_limit: int  # the hand's (before the first deal: the option, 10 where there is none)
    deadwood: int | None  # of the seat's own cards, None when it holds none
    dealer: int | None  # table games: the dealer of the hand (three: the box)
    roles: tuple[int, int, int] | None  # three: (box, captain, sitter) of the hand
    totals: tuple[int, ...]
    target: int  # the points that end the game (Hollywood: each of its three games)
    above_joker_max: int  # solitaires: most cards that can lie above the joker
    joker_next_chance: float | None  # solitaires: 1 / (above_joker_max + 1) while the hand runs
    draws: int  # solitaires: cards drawn this hand

"""The engine: one :class:`State` plays every variant, hand after hand, to the end of the game.

>>> s = State.new("classic", players=["Ann", "Bob"])
>>> s.deal(seed=7)
>>> s.current_player, [str(a) for a in s.legal_actions()]
(1, ['take', 'pass'])
>>> s.apply("pass"); s.apply("pass"); s.apply("draw")
>>> len(s.hand(1)), str(s.phase)
(11, 'discard')

A state is a whole game (a match of hands to the target).  Between hands it waits for a deal
(:attr:`State.needs_deal`): the caller deals from a seed (real play uses a fresh ``secrets``
seed) or an explicit deck.  Decisions go through :meth:`State.apply`; an illegal one raises
:class:`IllegalAction` naming the legal ones and leaves the state untouched.  Each seat gets an
:meth:`State.observation` holding only what that seat may know.  Rule numbers in comments refer
to docs/rules.md.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .actions import (
    ACTIONS,
    BIG_GIN,
    DISCARD,
    DRAW,
    GIN,
    KNOCK,
    KNOCK_NO_DISCARD,
    NUM_ACTIONS,
    PASS,
    TAKE,
    Action,
    action_id,
)
from .cards import JOKER, Card, CardSet, ShuffleStream, format_cards, full_pack, new_seed, shuffled
from .errors import IllegalAction, OptionError, RecordError
from .melds import (
    Arrangement,
    all_melds,
    best_arrangement,
    best_defense,
    best_discard_deadwood,
    deadwood_after_each,
    is_meld,
    lay_off_all,
    min_deadwood,
)
from .observe import MaskObservation, observe, observe_masks
from .options import (
    GinSolitaireOptions,
    Options,
    SolitaireOptions,
    TableOptions,
    ThreeOptions,
    options_for,
    show,
)
from .scoring import (
    HollywoodSheet,
    game_final_parts,
    oklahoma_knock_limit,
    solitaire_points,
    table_hand_points,
    three_rotation,
)
from .variants import VARIANTS, Variant, find_variant, solo_variants, table_variants

__all__ = ["RECORD_FORMAT", "SEATS", "Cut", "HandResult", "Phase", "ResultKind", "State"]

RECORD_FORMAT = "ginrummy-record/1"
SEATS = {v.name: v.seats for v in VARIANTS}  # read from the registry (ginrummy.variants)
TABLE = table_variants()
SOLO = solo_variants()


def _verb(name: str, verb: str) -> str:
    """``knocks`` after a name, ``knock`` after "You" (the default name of a person's seat)."""
    if name != "You":
        return verb
    return "go" if verb == "goes" else verb[:-1]


class _SuitDiscards(dict[int, tuple[Action, ...]]):
    """Key ``s << 13 | x`` (suit ``s``, 13-bit pattern ``x``) -> the discard actions of those cards,
    in card order (so four lookups list a hand's discards by action id).  Filled on first use."""

    def __missing__(self, key: int) -> tuple[Action, ...]:
        s, x = key >> 13, key & 0x1FFF
        v = tuple(DISCARD[13 * s + r] for r in range(13) if x >> r & 1)
        self[key] = v
        return v


_SUIT_DISCARDS = _SuitDiscards()


class Phase(StrEnum):
    """Where a hand stands; each value equals today's string (records and the wire are unchanged)."""

    DEAL = "deal"  # waiting for the next deal (a chance node)
    UPCARD = "upcard"  # rule 1.4: take or pass the first upcard
    DRAW = "draw"  # draw from the stock or take the discard
    DISCARD = "discard"  # holding 11: discard, knock or gin
    OPENING = "opening"  # solitaire with end_before_first_draw: declare the dealt ten, or draw
    OVER = "over"  # the game is over


# Module constants for the hot paths (an enum member read through its class costs about 0.2 us).
_DEAL = Phase.DEAL
_UPCARD = Phase.UPCARD
_DRAW = Phase.DRAW
_DISCARD = Phase.DISCARD
_OPENING = Phase.OPENING
_OVER = Phase.OVER


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
class _HandLog:
    deck: list[Card]
    seed: int | None
    actions: list[Action] = field(default_factory=list)
    seats: list[int | None] = field(default_factory=list)  # who took each action
    commitment: str | None = None
    public: list[dict[str, Any]] = field(default_factory=list, repr=False)  # observe.py's cache


# The undo stack (push/pop, python-chess style).  A snapshot keeps the fields one step may change:
# the lists the engine changes in place (hands, known cards, stock, pile) copied as tuples, the
# other values by reference: the engine replaces them instead of changing them (the totals, the
# cards out of play and the Hollywood sheet are copied before they change, see _finish).  The
# game's record is kept as lengths: a step only appends to it (a layoff also replaces the hand's
# result).  Plain tuples keep the garbage collector's work small on long games.
_VALUES = (
    *("hollywood", "dealer", "roles", "game_over", "winner", "phase", "current", "taken", "upcard"),
    *("passes", "must_draw", "opening", "draws", "hand_result", "_knock_melds", "_last_knocker"),
    *("hand_dealer", "hand_nondealer", "knock_limit", "_saved", "totals", "hands_won", "out_of_play"),
)
_ABSENT: Any = object()  # a field not made yet (before the first deal)
_get_values = operator.itemgetter(*_VALUES)
# (values, hands, known, stock, pile, len(logs), len(logs[-1].actions), len(results), results[-1])
_Snapshot = tuple[
    tuple[Any, ...], tuple[int, ...], tuple[int, ...], tuple[Card, ...], tuple[Card, ...], int, int, int, Any
]
# The stack is a persistent linked list, (top, rest) or None, so a clone shares it for free.
_Stack = tuple[_Snapshot, "_Stack"] | None


class State:
    """A game of any variant: the current hand, the score sheet and the record so far."""

    # ------------------------------------------------------------------ construction
    def __init__(self, variant: str, options: Options, players: Sequence[str]) -> None:
        self.variant = variant
        # The variant's fixed facts (ginrummy.variants): ask them, never compare self.variant.
        self.facts: Variant = find_variant(variant)
        self.options = options
        self.players = list(players)
        self.num_seats = self.facts.seats
        self.logs: list[_HandLog] = []
        self.results: list[HandResult] = []
        self.totals = [0] * self.num_seats
        self.hands_won = [0] * self.num_seats
        self.hollywood = HollywoodSheet(options.hollywood_target) if self.facts.three_games else None  # type: ignore[union-attr]
        # Table games: the seat that deals the next hand; three: (box, captain, sitter).  The first
        # hand's come from the options (RECORD.md: seat 0 deals first unless the cut said otherwise).
        self.dealer = options.first_dealer if isinstance(options, TableOptions) else 0
        self.roles: tuple[int, int, int] = (0, 1, 2)
        if isinstance(options, ThreeOptions):
            box, captain = options.first_box, options.first_captain
            self.roles = (box, captain, 3 - box - captain)
        self.game_over = False
        self.winner: int | None = None
        self._history: _Stack = None  # push/pop undo stack
        self.undo_enabled = True  # False: keep no undo stack (State.new(..., undo=False))
        # The score sheet before the last hand's result (a layoff takes the result back).
        self._saved: tuple[Any, ...] = ()
        self._reset_hand()

    @classmethod
    def new(
        cls,
        variant: str,
        options: Mapping[str, Any] | Options | None = None,
        players: Sequence[str] | None = None,
        *,
        undo: bool = True,
    ) -> State:
        """A new game of ``variant`` waiting for its first deal.  Options are validated.  With
        ``undo=False`` no undo stack is kept (for simulations: a step costs about 2 us less)."""
        opts = options_for(variant, options)  # OptionError for a bad variant or option
        n = SEATS[variant]
        if players is None:
            players = ["You", "Joker"] if find_variant(variant).solo else [f"Player {i + 1}" for i in range(n)]
        if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
            raise OptionError(f"players must be a list of {n} names, got {show(players)}")
        players = list(players)
        if not all(isinstance(p, str) for p in players):
            raise OptionError(f"players must be a list of {n} names (strings), got {show(players)}")
        if len(players) != n:
            raise OptionError(f"{variant} has {n} seats, got {len(players)} player names")
        state = cls(variant, opts, players)
        state.undo_enabled = bool(undo)
        return state

    def _reset_hand(self) -> None:
        self.phase = _OVER if self.game_over else _DEAL
        self.hands: list[int] = [0] * self.num_seats  # masks
        self.stock: list[Card] = []  # top is the END of the list
        self.pile: list[Card] = []  # discard pile, top at the end (solitaire: unused)
        self.out_of_play: list[Card] = []  # gin-solitaire face-down discards; solitaire: under the joker
        self.current: int | None = None
        self.taken: Card | None = None  # card taken from the discard pile this turn
        self.upcard: Card | None = None
        self.passes = 0
        self.must_draw = False  # rule 1.4.3: after both refuse, the non-dealer draws from the stock
        self.opening = False  # gin-solitaire opening discard
        self.draws = 0  # solitaires: cards drawn from the deck this hand (the joker included)
        self.known: list[int] = [0] * self.num_seats  # cards a seat is known (publicly) to hold
        self.hand_result: HandResult | None = None
        self._knock_melds: tuple[tuple[Card, ...], ...] = ()
        self._last_knocker: int | None = None
        self._legal: list[Action] | None = None
        self._legal_ids: tuple[list[Action], tuple[int, ...]] | None = None  # (the _legal they are of, ids)

    # ------------------------------------------------------------------ dealing
    @property
    def needs_deal(self) -> bool:
        """True between hands: the next step is :meth:`deal` (a chance node)."""
        return self.phase == _DEAL

    @property
    def hand_number(self) -> int:
        """1-based number of the current (or last) hand."""
        return len(self.logs)

    def cut(self, cards: Sequence[Card | str] | None = None, *, seed: int | None = None) -> Cut:
        """Cut for the first deal (rule 1.2: the lower card deals) or for the roles of ``three``
        (rule 2.1: highest in the box, middle captain, lowest sitter; K high, A low).  Tied players
        re-cut among themselves for the places they contend for, or with ``cut_ties=suit_order``
        the suits break ties (clubs low, spades high).

        The cut cards come from ``cards`` (used in order: one a seat, then one a tied seat per
        re-cut) or from ``seed`` (each round a fresh pack shuffled by ``ginrummy-shuffle/1``; with
        neither, a fresh ``secrets`` seed).  Only before the first deal, and not in the solitaires.
        The result is kept in the options (``first_dealer``; ``first_box``, ``first_captain``), so the record says
        who dealt first; the cut itself is not undone by :meth:`undo`."""
        if self.facts.solo:
            raise IllegalAction(f"there is no cut in {self.variant}")
        if self.logs:
            raise IllegalAction("the cut comes before the first deal")
        if cards is not None and seed is not None:
            raise IllegalAction("cut with cards or a seed, not both")
        if cards is not None:
            if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
                raise IllegalAction(f"cut cards must be a list of cards, got {show(cards)}")
            given = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
            if any(c.is_joker for c in given):
                raise IllegalAction("the joker is not in the pack that is cut")
            supply = iter(given)

            def draw(k: int) -> list[Card]:
                got = [c for _, c in zip(range(k), supply, strict=False)]
                if len(got) < k:
                    raise IllegalAction(f"the cut needs more cards than the {len(given)} given (ties re-cut)")
                return got
        else:
            stream = ShuffleStream(new_seed() if seed is None else seed)

            def draw(k: int) -> list[Card]:
                return stream.shuffle(full_pack())[:k]

        suit_order = isinstance(self.options, ThreeOptions) and self.options.cut_ties == "suit_order"
        rounds: list[tuple[tuple[int, Card], ...]] = []

        def ranked(seats: list[int]) -> list[int]:
            """``seats`` from the highest cut to the lowest; tied seats re-cut among themselves."""
            if len(rounds) > 200:
                raise IllegalAction("the cut kept tying")  # pragma: no cover - about 0.06**200
            got = draw(len(seats))
            rounds.append(tuple(zip(seats, got, strict=True)))

            def key(c: Card) -> tuple[int, ...]:
                return (c.rank, int(c.suit)) if suit_order else (c.rank,)

            by = sorted(zip(seats, got, strict=True), key=lambda sc: key(sc[1]), reverse=True)
            out: list[int] = []
            i = 0
            while i < len(by):
                tied = [seat for seat, c in by if key(c) == key(by[i][1])]
                out += ranked(tied) if len(tied) > 1 else tied
                i += len(tied)
            return out

        order = tuple(ranked(list(range(self.num_seats))))
        if isinstance(self.options, ThreeOptions):
            box, captain, sitter = order
            self.roles = (box, captain, sitter)
            self.options = self._with_options(first_box=box, first_captain=captain)
            return Cut(tuple(rounds), order, box, self.roles)
        assert isinstance(self.options, TableOptions)
        self.dealer = order[-1]  # rule 1.2: the lower card deals
        self.options = self._with_options(first_dealer=self.dealer)
        return Cut(tuple(rounds), order, self.dealer)

    def _with_options(self, **values: object) -> Options:
        return options_for(self.variant, {**self.options.to_dict(only_changed=True, variant=self.variant), **values})

    def deck_for_seed(self, seed: int) -> list[Card]:
        """The deck (top first) that ``seed`` deals in this variant (``ginrummy-shuffle/1``)."""
        if self.facts.joker == "after_deal":
            stream = ShuffleStream(seed)
            first = stream.shuffle(full_pack())
            rest = stream.shuffle([*first[11:], JOKER])  # rule 4.1: the joker goes into the other 41
            return first[:11] + rest
        return shuffled(seed, joker=self.facts.joker == "in_pack")

    def deal(
        self, deck: Sequence[Card | str] | None = None, *, seed: int | None = None, commitment: str | None = None
    ) -> None:
        """Deal the next hand from an explicit ``deck`` (top first) or a ``seed``; with neither, a
        fresh ``secrets``-quality seed."""
        if self.phase != _DEAL:
            raise IllegalAction(
                "the hand in play is not over: nothing to deal" if not self.game_over else "the game is over"
            )
        if deck is not None and seed is not None:
            raise IllegalAction("deal from a deck or a seed, not both")
        if deck is None:
            if seed is None:
                seed = new_seed()
            cards = self.deck_for_seed(seed)
        else:
            cards = self._check_deck(deck)
        self._push()
        self.logs.append(_HandLog(list(cards), seed, commitment=commitment))
        self._start_hand(cards)

    def _check_deck(self, deck: Sequence[Card | str]) -> list[Card]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise RecordError(f"a deck is a list of cards, top first, got {show(deck)}")
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
        want = full_pack(joker=self.facts.solo)
        if sorted(cards) != want:
            seen: set[int] = set()
            for c in cards:
                if c in seen:
                    raise RecordError(f"the deck holds {c} twice")
                seen.add(c)
            missing = [str(c) for c in want if c not in seen]
            extra = [str(c) for c in cards if c not in want]
            raise RecordError(
                f"a {self.variant} deck has {len(want)} cards, got {len(cards)}"
                + (f"; missing {' '.join(missing)}" if missing else "")
                + (f"; not allowed {' '.join(extra)}" if extra else "")
            )
        if self.facts.joker == "after_deal" and JOKER in cards[:11]:
            raise RecordError("a gin-solitaire deck may not have the joker in its top eleven cards (rule 4.1)")
        return cards

    def _start_hand(self, deck: list[Card]) -> None:
        self._reset_hand()
        if not self.facts.solo:
            self._start_table(deck)
        elif self.facts.joker == "in_pack":
            self._start_solitaire(deck)
        else:
            self._start_gin_solitaire(deck)

    def _start_table(self, deck: list[Card]) -> None:
        # RECORD.md / rule 1.3: one card at a time, non-dealer first, then the upcard.
        if self.facts.roles:
            dealer, nondealer = self.roles[0], self.roles[1]  # rule 2.3: the box deals, the captain plays
        else:
            dealer, nondealer = self.dealer, 1 - self.dealer
        self.hand_dealer, self.hand_nondealer = dealer, nondealer
        self.hands[nondealer] = sum(1 << c for c in deck[0:20:2])
        self.hands[dealer] = sum(1 << c for c in deck[1:20:2])
        self.upcard = deck[20]
        self.pile = [deck[20]]
        self.stock = deck[:20:-1]  # reversed: top at the end
        self.phase = _UPCARD
        self.current = nondealer
        self.knock_limit = self._table_knock_limit()

    def _table_knock_limit(self) -> int:
        opts = self.options
        assert isinstance(opts, (TableOptions, ThreeOptions)) and self.upcard is not None
        if self.facts.upcard_sets_limit:
            assert isinstance(opts, TableOptions)
            return oklahoma_knock_limit(self.upcard, opts.oklahoma_ace)  # rule 1b.1
        return opts.knock_limit

    def _start_solitaire(self, deck: list[Card]) -> None:
        opts = self.options
        assert isinstance(opts, SolitaireOptions)
        self.hand_dealer = self.hand_nondealer = 0
        self.knock_limit = opts.knock_limit
        dealt = deck[:10]
        self.stock = deck[:9:-1]
        if JOKER in dealt:  # rule 3.2
            real = [c for c in dealt if c != JOKER]
            self.hands[0] = sum(1 << c for c in real)
            if opts.joker_in_deal == "redeal":
                redeal = HandResult(ResultKind.REDEAL, (0, 0), (0, 0), explanation=("The joker was dealt: redeal.",))
                self._finish(redeal)
            else:
                d = min_deadwood(self.hands[0])
                _, p, j = solitaire_points("joker", counted=0, deadwood=d, scoring=opts.scoring, **self._bonuses())
                self._finish(
                    HandResult(
                        ResultKind.JOKER,
                        (p, j),
                        (d, 0),
                        winner=1 if j or opts.scoring == "none" else None,
                        explanation=(f"The joker was dealt: the hand is lost; the Joker scores {j}.",),
                    )
                )
            return
        self.hands[0] = sum(1 << c for c in dealt)
        self.current = 0
        if opts.end_before_first_draw:
            self.phase = _OPENING
        else:
            self._solo_draw()

    def _start_gin_solitaire(self, deck: list[Card]) -> None:
        opts = self.options
        assert isinstance(opts, GinSolitaireOptions)
        self.hand_dealer = self.hand_nondealer = 0
        self.knock_limit = opts.knock_limit
        self.hands[0] = sum(1 << c for c in deck[:11])
        self.stock = deck[:10:-1]
        self.current = 0
        self.phase = _DISCARD
        self.opening = True  # rule 4.2: the opening discard

    def _bonuses(self) -> dict[str, Any]:
        o = self.options
        return {
            "gin_bonus": o.gin_bonus,
            "big_gin_bonus": o.big_gin_bonus,
            "undercut_bonus": o.undercut_bonus,
            "undercut_on_tie": o.undercut_on_tie,
        }

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None between hands and when the game is over."""
        return self.current if self.phase not in (_DEAL, _OVER) else None

    @property
    def is_terminal(self) -> bool:
        """True when the game (the whole match) is over."""
        return self.game_over

    @property
    def is_hand_over(self) -> bool:
        return self.phase in (_DEAL, _OVER)

    def hand(self, seat: int) -> CardSet:
        """A seat's cards (not an observation: front ends must use :meth:`observation`)."""
        return CardSet(self.hands[seat])

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that hold cards this hand."""
        if self.facts.solo:
            return (0,)
        if self.facts.roles:
            if self.logs:  # the hand in play, or just over: the roles have already rotated for the next one
                return (self.hand_dealer, self.hand_nondealer)
            return (self.roles[0], self.roles[1])
        return (0, 1)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act, in a fixed order (by action id)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The integer ids of :meth:`legal_actions`, in the same order (cached with them)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        cached = self._legal_ids
        if cached is None or cached[0] is not self._legal:
            cached = self._legal_ids = (self._legal, tuple(map(action_id, self._legal)))
        return cached[1]

    def _compute_legal(self) -> list[Action]:
        ph = self.phase
        if ph == _UPCARD:
            return [TAKE, PASS]
        if ph == _DRAW:
            if self.must_draw or not self.pile:
                return [DRAW]
            return [DRAW, TAKE]
        if ph == _OPENING:
            d = min_deadwood(self.hands[0])
            if d == 0:
                return [DRAW, BIG_GIN]  # `gin` without a discard: declare the dealt ten (rule 3.4 option)
            if self._may_knock(d):
                return [DRAW, KNOCK_NO_DISCARD]
            return [DRAW]
        if ph != _DISCARD:
            return []
        assert self.current is not None
        hand = self.hands[self.current]
        movable = hand
        if self.taken is not None and not self._discard_taken_allowed():
            movable &= ~(1 << int(self.taken))  # rule 1.5: not the card just taken from the discard pile
        sd = _SUIT_DISCARDS
        out = [*sd[movable & 0x1FFF], *sd[0x2000 | movable >> 13 & 0x1FFF]]
        out += [*sd[0x4000 | movable >> 26 & 0x1FFF], *sd[0x6000 | movable >> 39]]
        if self._may_end():
            if best_discard_deadwood(hand) <= self.knock_limit:
                knocks = []
                gins = []
                for c, d in deadwood_after_each(hand):  # every discard's deadwood in one pass
                    if not movable >> c & 1:
                        continue
                    if d == 0:
                        gins.append(GIN[c])
                    elif self._may_knock(d):
                        knocks.append(KNOCK[c])
                out += knocks
                out += gins
            if self._big_gin_allowed() and min_deadwood(hand) == 0:
                out.append(BIG_GIN)
        return out

    def declarable_arrangements(self, action: Action | str | int) -> list[Arrangement]:
        """Rule 0.8, for ``knocker_arrangement=choose``: the arrangements the seat to act may
        declare with ``action`` (a legal knock or gin named without melds): every choice of
        disjoint melds of the cards kept whose deadwood the action allows (none for gin; for a
        knock, within the limit, and none, which is gin), least deadwood first, then by melds.
        A front end offers them to a person; ``knock 7h | 3h4h5h KcKdKs`` plays the one chosen.
        Raises :class:`IllegalAction` when ``action`` is not such an action."""
        act = self._coerce(action)
        legal = self.legal_actions()
        if act.kind not in ("knock", "gin") or act.melds is not None:
            raise IllegalAction(f"{act} is not a knock or gin to declare melds for")
        if act not in legal and self._knock_as_gin(act, legal) is None:
            self._illegal(act, legal)
        assert self.current is not None
        kept = self.hands[self.current] & ~(1 << act.card if act.card is not None else 0)
        melds = [(sum(1 << c for c in m), m) for m in all_melds(kept)]
        out: list[Arrangement] = []

        def walk(i: int, used: int, chosen: list[tuple[Card, ...]]) -> None:
            if i == len(melds):
                dead = CardSet(kept & ~used).value
                if dead == 0 or (act.kind == "knock" and self._may_knock(dead)):
                    out.append(Arrangement(tuple(chosen), tuple(CardSet(kept & ~used))))
                return
            walk(i + 1, used, chosen)
            mask, meld = melds[i]
            if not mask & used:
                walk(i + 1, used | mask, [*chosen, meld])

        walk(0, 0, [])
        out.sort(key=lambda a: (a.deadwood, a.melds))
        return out

    def _discard_taken_allowed(self) -> bool:
        return bool(getattr(self.options, "discard_drawn_upcard_allowed", False))

    def _may_end(self) -> bool:
        if self.facts.joker == "after_deal" and self.opening:
            assert isinstance(self.options, GinSolitaireOptions)
            return self.options.end_after_opening_discard
        return True

    def _may_knock(self, d: int) -> bool:
        """Knocking (not gin) with deadwood d (rules 0.7, 3.5, 3.6)."""
        if isinstance(self.options, SolitaireOptions) and self.options.scoring != "knock":
            return False
        return 0 < d <= self.knock_limit

    def _big_gin_allowed(self) -> bool:
        if not self.options.big_gin:
            return False
        return not (self.facts.joker == "after_deal" and self.opening)  # rule 4.3: never with the dealt 11

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action | str | int) -> None:
        """Apply one action of the seat to act.  An illegal action raises :class:`IllegalAction`
        naming the legal ones, and changes nothing."""
        act = self._coerce(action)
        if act.kind == "layoff":
            self._apply_layoff(act)
            return
        if self._legal is None:
            self._legal = self._compute_legal()
        legal = self._legal
        if act.melds is not None:
            act = self._check_declared(act, legal)
        else:
            act = ACTIONS[action_id(act)]  # interned: the membership test below is by identity
            for x in legal:
                if x is act:
                    break
            else:
                gin = self._knock_as_gin(act, legal)
                if gin is None:
                    self._illegal(act, legal)
                else:
                    act = gin
        self._push()
        self.logs[-1].actions.append(act)
        self.logs[-1].seats.append(self.current)
        self._legal = None
        self._do(act)

    def _coerce(self, action: Action | str | int) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return Action.parse(action)
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            return ACTIONS[action]
        if isinstance(action, int) and not isinstance(action, bool):
            return Action.from_id(action)
        raise IllegalAction(f"not an action: {action!r}")

    def _illegal(self, act: Action, legal: list[Action]) -> None:
        if self.phase == _DEAL:
            raise IllegalAction(f"{act} is not legal: the hand is over and the next one is not dealt yet")
        if self.phase == _OVER:
            raise IllegalAction(f"{act} is not legal: the game is over")
        why = ""
        if act.card is not None and self.current is not None and not self.hands[self.current] >> act.card & 1:
            why = f" ({act.card} is not in the hand)"
        elif act.card is not None and act.card == self.taken and act.kind in ("discard", "knock", "gin"):
            why = f" ({act.card} was just taken from the discard pile)"
        elif act.kind == "knock" and self.phase == _DISCARD:
            why = f" (knocking needs deadwood of at most {self.knock_limit} after the discard)"
        raise IllegalAction(f"{act} is not legal{why}; legal: {', '.join(map(str, legal))}")

    def _knock_as_gin(self, act: Action, legal: list[Action]) -> Action | None:
        """Rule 0.7: knocking with deadwood 0 is gin.  ``knock 7h`` whose kept ten are all melded is
        ``gin 7h`` (and ``knock`` with the dealt ten of the solitaire opening is ``gin``); None when
        ``act`` is not such a knock."""
        if act.kind != "knock":
            return None
        if act.card is not None:
            gin = GIN[act.card]
        elif self.phase == _OPENING:
            gin = BIG_GIN
        else:
            return None
        return gin if gin in legal else None

    def _check_declared(self, act: Action, legal: list[Action]) -> Action:
        """Rule 0.8: a declared arrangement must be real melds from the kept ten, within the limit.
        Returns the action to play: a knock whose declared melds leave deadwood 0 is gin (rule 0.7)."""
        assert act.melds is not None
        c = act.card
        if act.kind == "knock" and c is None:
            may_end = KNOCK_NO_DISCARD in legal or (self.phase == _OPENING and BIG_GIN in legal)
        elif c is None:
            may_end = BIG_GIN in legal
        elif act.kind == "gin":
            may_end = GIN[c] in legal
        else:
            may_end = KNOCK[c] in legal or GIN[c] in legal
        if not may_end or self.current is None:
            self._illegal(act, legal)
        assert self.current is not None
        kept = self.hands[self.current] & ~(1 << c if c is not None else 0)
        used = 0
        for meld in act.melds:
            m = sum(1 << x for x in meld)  # each card once: Action checked it when it was built
            if not is_meld(m):
                raise IllegalAction(f"{format_cards(meld)} is not a meld")
            if m & ~kept:
                raise IllegalAction(f"{format_cards(meld)} is not in the hand kept after the discard")
            if m & used:
                raise IllegalAction(f"{format_cards(meld)} shares a card with another declared meld")
            used |= m
        dead = CardSet(kept & ~used).value
        if dead == 0:
            return act if act.kind == "gin" else Action("gin", c, act.melds)
        if act.kind == "gin":
            raise IllegalAction(f"gin must meld every card; the declared melds leave {dead}")
        if not self._may_knock(dead):
            raise IllegalAction(f"the declared melds leave deadwood {dead}; knocking needs 1 to {self.knock_limit}")
        return act

    def _do(self, act: Action) -> None:
        seat = self.current
        assert seat is not None
        k = act.kind
        if self.facts.solo:
            self._do_solo(seat, act)
            return
        if k == "pass":
            self.passes += 1
            if self.passes == 1:
                self.current = self.hand_dealer  # rule 1.4.2
            else:
                self.current = self.hand_nondealer  # rule 1.4.3
                self.phase = _DRAW
                self.must_draw = True
            return
        if k == "take":
            card = self.pile.pop()
            self.hands[seat] |= 1 << card
            self.known[seat] |= 1 << card
            self.taken = card
            self.phase = _DISCARD
            return
        if k == "draw":
            card = self.stock.pop()
            self.hands[seat] |= 1 << card
            self.taken = None
            self.must_draw = False
            self.phase = _DISCARD
            return
        if act.card is not None:
            self.hands[seat] &= ~(1 << act.card)
            self.known[seat] &= ~(1 << act.card)
            self.pile.append(act.card)
        self.taken = None
        if k == "discard":
            assert isinstance(self.options, (TableOptions, ThreeOptions))
            if len(self.stock) <= self.options.wall_cards:  # rule 1.9: the wall
                self._finish(
                    HandResult(
                        ResultKind.DRAW,
                        (0,) * self.num_seats,
                        (0,) * self.num_seats,
                        explanation=(f"Only {len(self.stock)} stock cards left: the hand is void.",),
                    )
                )
                return
            self.current = self.hand_nondealer if seat == self.hand_dealer else self.hand_dealer
            self.phase = _DRAW
            return
        self._showdown(seat, act)

    # ------------------------------------------------------------------ showdowns
    def _showdown(self, knocker: int, act: Action, laid: Sequence[Card] | None = None) -> None:
        """Rules 1.7-1.8 (two and three players)."""
        opts = self.options
        assert isinstance(opts, (TableOptions, ThreeOptions))
        defender = self.hand_nondealer if knocker == self.hand_dealer else self.hand_dealer
        big = act.kind == "gin" and act.card is None
        if act.melds is not None:
            kmelds = tuple(act.melds)
            used = sum(1 << c for m in kmelds for c in m)
            kun = tuple(CardSet(self.hands[knocker] & ~used))
        else:
            arr = best_arrangement(self.hands[knocker])
            kmelds, kun = arr.melds, arr.unmatched
        self._knock_melds = kmelds
        dk = sum(c.value for c in kun)
        gin = act.kind == "gin"
        if laid is None:
            defense = best_defense(kmelds, self.hands[defender], layoffs=opts.layoffs and not gin)
            dmelds, dlaid, dun = defense.melds, defense.laid_off, defense.unmatched
        else:
            rest = self.hands[defender] & ~sum(1 << c for c in laid)
            arr = best_arrangement(rest)
            dmelds, dlaid, dun = arr.melds, tuple(laid), arr.unmatched
        dd = sum(c.value for c in dun)
        result, kp, dp = table_hand_points(
            knocker_deadwood=dk, defender_deadwood=dd, gin=gin, big_gin=big, **self._bonuses()
        )
        mult = 1
        oklahoma = self.facts.upcard_sets_limit and isinstance(opts, TableOptions) and opts.spades_double
        if oklahoma and self.upcard is not None and self.upcard.suit == 3:
            mult = 2  # rule 1b.3: a spade upcard doubles the hand
        points = [0] * self.num_seats
        points[knocker] = kp * mult
        points[defender] = dp * mult
        deadwood = [0] * self.num_seats
        deadwood[knocker], deadwood[defender] = dk, dd
        winner = knocker if kp else defender if dp else None
        kn, dn = self.players[knocker], self.players[defender]
        lines = [
            f"{kn} {_verb(kn, 'goes')} {'big gin' if big else 'gin' if gin else ''}".rstrip()
            if gin
            else f"{kn} {_verb(kn, 'knocks')}",
            f"{dn} {_verb(dn, 'spreads')} "
            + (" ".join(format_cards(m) for m in dmelds) or "no melds")
            + (f", {_verb(dn, 'lays')} off {format_cards(dlaid)}" if dlaid else "")
            + f", deadwood {format_cards(dun) or '-'} = {dd}",
        ]
        lines[0] += (
            ": " + " ".join(format_cards(m) for m in kmelds) + (f", deadwood {format_cards(kun)} = {dk}" if kun else "")
        )
        if result == "undercut":
            lines.append(f"Undercut: {dn} {_verb(dn, 'scores')} {dk} - {dd} + {opts.undercut_bonus} bonus = {dp}")
        elif result == "knock" and kp:
            lines.append(f"{kn} {_verb(kn, 'scores')} {dd} - {dk} = {kp}")
        elif result == "knock":
            lines.append("Equal counts: nobody scores")
        else:
            bonus = opts.big_gin_bonus if big else opts.gin_bonus
            lines.append(f"{kn} {_verb(kn, 'scores')} {dd} + {bonus} {'big gin' if big else 'gin'} bonus = {kp}")
        if mult == 2 and (kp or dp):
            lines.append(f"Spades double (the upcard was {self.upcard}): {max(kp, dp) * 2}")
        self._finish(
            HandResult(
                ResultKind(result),
                tuple(points),
                tuple(deadwood),
                winner=winner,
                knocker=knocker,
                defender=defender,
                knocker_melds=kmelds,
                knocker_unmatched=kun,
                defender_melds=dmelds,
                laid_off=dlaid,
                defender_unmatched=dun,
                explanation=tuple(lines),
                doubled=mult == 2,
            )
        )

    def layoff_options(self) -> list[Card]:
        """After a knock: the defender's cards that can be laid off now, given those already laid
        off explicitly (``layoff`` actions; without them the engine lays off optimally)."""
        melds, laid, defender = self._layoff_context()
        if melds is None:
            return []
        laid_mask = sum(1 << c for c in laid)
        rest = self.hands[defender] & ~laid_mask
        knocked = [sum(1 << c for c in m) for m in self._knock_melds]
        # Rule 0.9.3: the cards laid off so far and this one must share the knocker's melds so
        # that each stays a meld (7h may go on 4h5h6h beside 7c7d7s, and then 8h after it).
        return [c for c in CardSet(rest) if lay_off_all(knocked, laid_mask | 1 << c) is not None]

    def _layoff_context(self) -> tuple[list[int] | None, list[Card], int]:
        r = self.hand_result
        if r is None or r.result not in ("knock", "undercut") or r.knocker is None or not self.logs:
            return None, [], 0
        if not getattr(self.options, "layoffs", False):
            return None, [], 0
        acts = self.logs[-1].actions
        i = len(acts) - 1
        while i >= 0 and acts[i].kind == "layoff":
            i -= 1
        if i < 0 or acts[i].kind != "knock":
            return None, [], 0
        laid = [a.card for a in acts[i + 1 :] if a.card is not None]
        melds = lay_off_all([sum(1 << c for c in m) for m in self._knock_melds], sum(1 << c for c in laid))
        defender = self.hand_nondealer if r.knocker == self.hand_dealer else self.hand_dealer
        return melds, laid, defender

    def _apply_layoff(self, act: Action) -> None:
        """Explicit layoffs (RECORD.md): right after a knock the defender's chosen cards replace the
        engine's automatic choice."""
        assert act.card is not None
        options = self.layoff_options()
        if act.card not in options:
            raise IllegalAction(
                f"{act} is not legal; "
                + (f"cards that can be laid off: {format_cards(options)}" if options else "no layoff is possible now")
            )
        _, laid, defender = self._layoff_context()
        knock = next(a for a in reversed(self.logs[-1].actions) if a.kind == "knock")
        self._push()
        self._undo_finish()
        self.logs[-1].actions.append(act)
        self.logs[-1].seats.append(defender)
        self._showdown(self._knocker_of_last(), knock, [*laid, act.card])

    def _knocker_of_last(self) -> int:
        assert self._last_knocker is not None
        return self._last_knocker

    def _do_solo(self, seat: int, act: Action) -> None:
        k = act.kind
        if k == "draw":  # only in the opening of solitaire with end_before_first_draw
            self._solo_draw()
            return
        if act.card is not None:
            self.hands[0] &= ~(1 << act.card)
            if self.facts.joker == "in_pack":
                self.stock.insert(0, act.card)  # rule 3.3: to the bottom of the deck
            self.out_of_play = [*self.out_of_play, act.card]  # copy on write, for the undo stack
        self.opening = False
        if k == "discard":
            self._solo_draw()
            return
        event = "big-gin" if k == "gin" and act.card is None and self.phase == _DISCARD else k
        self._solo_end(event, act.melds)

    def _solo_draw(self) -> None:
        card = self.stock.pop()
        self.draws += 1
        if card == JOKER:
            self.stock.append(card)
            self._solo_end("joker")
            return
        self.hands[0] |= 1 << card
        self.phase = _DISCARD

    def _solo_end(self, event: str, declared: tuple[tuple[Card, ...], ...] | None = None) -> None:
        """Rules 3.5-3.8 and 4.3-4.6: count down to the joker and score."""
        opts = self.options
        assert isinstance(opts, (SolitaireOptions, GinSolitaireOptions))
        scoring = opts.scoring if isinstance(opts, SolitaireOptions) else "knock"
        if declared is not None:  # rule 0.8: a declared arrangement's deadwood is the one scored
            used = sum(1 << c for m in declared for c in m)
            arr = Arrangement(tuple(declared), tuple(CardSet(self.hands[0] & ~used)))
        else:
            arr = best_arrangement(self.hands[0])
        d = arr.deadwood
        counted_cards: tuple[Card, ...] = ()
        counted = None
        if event != "joker":
            pos = len(self.stock) - 1 - self.stock.index(JOKER)  # cards above the joker
            counted_cards = tuple(reversed(self.stock[len(self.stock) - pos :]))
            counted = pos + (1 if opts.count_includes_joker else 0)
        result, p, j = solitaire_points(event, counted=counted or 0, deadwood=d, scoring=scoring, **self._bonuses())
        if scoring == "none":
            winner: int | None = 1 if event == "joker" else 0
        else:
            winner = 0 if p else 1 if j else None
        lines = []
        if event == "joker":
            lines.append(f"The joker came first. Deadwood {format_cards(arr.unmatched) or '-'} = {d}.")
            lines.append("The hand is lost." if scoring == "none" else f"The Joker scores {j}.")
        else:
            name = {"gin": "Gin", "big-gin": "Big gin", "knock": "Knock"}[event]
            lines.append(f"{name}: " + str(arr) + f". {counted} cards turned before the joker.")
            if scoring == "none":
                lines.append("You win the hand.")
            elif scoring == "basic":
                lines.append(f"You score the count: {p}.")
            elif event == "gin":
                lines.append(f"You score {counted} + {opts.gin_bonus} gin bonus = {p}.")
            elif event == "big-gin":
                lines.append(f"You score {counted} + {opts.big_gin_bonus} big gin bonus = {p}.")
            elif p:
                lines.append(f"You score {counted} - {d} = {p}.")
            elif j:
                lines.append(f"Undercut: the Joker scores {d} - {counted} + {opts.undercut_bonus} bonus = {j}.")
            else:
                lines.append("Equal counts: nobody scores.")
        self._finish(
            HandResult(
                ResultKind(result),
                (p, j),
                (d, 0),
                winner=winner,
                knocker=0 if event != "joker" else None,
                defender=1 if event != "joker" else None,
                counted=counted,
                knocker_melds=arr.melds if event != "joker" else (),
                knocker_unmatched=arr.unmatched if event != "joker" else (),
                counted_cards=counted_cards,
                explanation=tuple(lines),
            )
        )

    # ------------------------------------------------------------------ the score sheet
    def _finish(self, result: HandResult) -> None:
        """End the hand: score it into the game, decide the next dealer or roles, maybe end the game."""
        before = self.hollywood
        self.hollywood = copy.deepcopy(before)  # copy on write: snapshots keep the one before
        self._saved = (
            tuple(self.totals),
            tuple(self.hands_won),
            before,
            self.dealer,
            self.roles,
            self.game_over,
            self.winner,
        )
        self._last_knocker = result.knocker
        self.hand_result = result
        self.results.append(result)
        self.current = None
        self._legal = None
        v = self.facts
        scorer = result.winner if any(result.points) else None
        if scorer is not None:
            self.totals = list(self.totals)  # copy on write (the undo stack keeps the one before)
            self.hands_won = list(self.hands_won)
            self.totals[scorer] += result.points[scorer]
            self.hands_won[scorer] += 1
        if not v.solo and not v.roles:  # the two-player table games
            assert isinstance(self.options, TableOptions)
            if v.three_games and scorer is not None:
                assert self.hollywood is not None
                self.hollywood.enter(scorer, result.points[scorer])
            nd = self.options.next_dealer
            if result.result == "draw" or scorer is None:
                pass  # rule 1.2: after a void hand the same dealer deals again
            elif nd == "winner":
                self.dealer = scorer
            elif nd == "loser":
                self.dealer = 1 - scorer
            else:
                self.dealer = 1 - self.dealer
            if v.three_games:
                assert self.hollywood is not None
                self.game_over = self.hollywood.over  # rule 1c.4
            else:
                self.game_over = max(self.totals) >= self.options.game_target
        elif v.roles:
            outcome = "void" if scorer is None else "box" if scorer == self.roles[0] else "team"
            self.roles = three_rotation(self.roles, outcome)  # rule 2.6
            assert isinstance(self.options, ThreeOptions)
            self.game_over = max(self.totals) >= self.options.game_target
        else:
            opts = self.options
            if isinstance(opts, SolitaireOptions) and opts.scoring == "none":
                self.game_over = result.result != "redeal"  # one hand decides it (rule 3.5)
                self.winner = result.winner if self.game_over else None
            else:
                assert isinstance(opts, (SolitaireOptions, GinSolitaireOptions))
                self.game_over = max(self.totals) >= opts.game_target  # rules 3.10, 4.7
        if self.game_over and self.winner is None:
            if v.three_games:
                assert self.hollywood is not None
                finals = self.final_totals()
                self.winner = max(range(2), key=lambda i: finals[i]) if finals[0] != finals[1] else None
            else:
                self.winner = max(range(self.num_seats), key=lambda i: self.totals[i])
        self.phase = _OVER if self.game_over else _DEAL

    def _undo_finish(self) -> None:
        totals, won, hollywood, self.dealer, self.roles, self.game_over, self.winner = self._saved
        self.totals, self.hands_won, self.hollywood = list(totals), list(won), copy.deepcopy(hollywood)
        self.results.pop()
        self.hand_result = None

    def boxes(self) -> list[int]:
        """Each seat's boxes (lines) for the end-of-game box bonus: one a hand won, two for a hand
        won on a spade upcard in Oklahoma with ``spades_double_boxes`` (rule 1b.3)."""
        boxes = list(self.hands_won)
        o = self.options
        if isinstance(o, TableOptions) and o.spades_double_boxes:
            for r in self.results:
                if r.doubled and r.winner is not None:  # a winner is a seat that scored
                    boxes[r.winner] += 1
        return boxes

    def final_totals(self) -> list[int]:
        """Each seat's total with the end-of-game bonuses once the game is over (rules 1.10, 1c.3,
        2.7); before that, and in variants without bonuses, the running hand points."""
        if not self.game_over:
            return list(self.totals)
        return [sum(points for _, points in seat) for seat in self.final_parts()]

    def final_parts(self) -> list[list[tuple[str, int]]]:
        """:meth:`final_totals` line by line: for each seat, ``(what, points)`` pairs that add up to
        its final total (the hand points and each bonus; Hollywood's three games one by one)."""
        o = self.options
        if not self.game_over:
            return [[("points of the hands", t)] for t in self.totals]
        f = self.facts
        two_player_one_game = not (f.solo or f.roles or f.three_games)  # rule 1.10
        bonuses = two_player_one_game or (isinstance(o, ThreeOptions) and o.end_bonuses)
        if bonuses:
            assert isinstance(o, (TableOptions, ThreeOptions))
            return game_final_parts(
                self.totals, self.boxes(), game_bonus=o.game_bonus, box_bonus=o.box_bonus, shutout=o.shutout
            )
        if self.facts.three_games:
            assert self.hollywood is not None and isinstance(o, TableOptions)
            out: list[list[tuple[str, int]]] = [[], []]
            for g in range(3):
                parts = self.hollywood.settle_parts(
                    g, game_bonus=o.game_bonus, box_bonus=o.box_bonus, shutout=o.shutout
                )
                for i, seat in enumerate(parts):
                    out[i].extend((f"game {g + 1}: {what}", points) for what, points in seat)
            return out
        return [[("points of the hands", t)] for t in self.totals]

    # ------------------------------------------------------------------ copying and undo
    def clone(self) -> State:
        """An independent copy (cheap: lists of ints are copied, cards are shared)."""
        new = copy.copy(self)
        new.hands = list(self.hands)
        new.stock = list(self.stock)
        new.pile = list(self.pile)
        new.out_of_play = list(self.out_of_play)
        new.known = list(self.known)
        new.totals = list(self.totals)
        new.hands_won = list(self.hands_won)
        new.results = list(self.results)
        new.logs = [_HandLog(lg.deck, lg.seed, list(lg.actions), list(lg.seats), lg.commitment) for lg in self.logs]
        new.hollywood = copy.deepcopy(self.hollywood)
        return new

    def _push(self) -> None:
        """Push the state as it is now on the undo stack (called once an action is known legal)."""
        if not self.undo_enabled:
            return
        d = self.__dict__
        try:
            values = _get_values(d)
        except KeyError:  # before the first deal
            values = tuple(d.get(name, _ABSENT) for name in _VALUES)
        logs, results = self.logs, self.results
        top: _Snapshot = (
            values,
            tuple(self.hands),
            tuple(self.known),
            tuple(self.stock),
            tuple(self.pile),
            len(logs),
            len(logs[-1].actions) if logs else 0,
            len(results),
            results[-1] if results else None,
        )
        self._history = (top, self._history)

    def undo(self) -> None:
        """Take back the last deal, action or layoff: the state is exactly as it was before it
        (a snapshot popped from the undo stack; nothing is replayed)."""
        if self._history is None:
            raise IllegalAction("nothing to undo" if self.undo_enabled else "this game keeps no undo stack")
        (values, hands, known, stock, pile, n_logs, n_actions, n_results, last), self._history = self._history
        d = self.__dict__
        for name, value in zip(_VALUES, values, strict=True):
            if value is _ABSENT:
                d.pop(name, None)
            else:
                d[name] = value
        self.hands, self.known, self.stock, self.pile = list(hands), list(known), list(stock), list(pile)
        self._legal = self._legal_ids = None
        del self.logs[n_logs:]
        if self.logs:
            log = self.logs[-1]
            del log.actions[n_actions:], log.seats[n_actions:], log.public[n_actions:]
        del self.results[n_results:]
        if last is not None:
            self.results[-1] = last

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict[str, Any]:
        """The game record (RECORD.md), finished or not."""
        return self._record(every_draw=False)

    def _record(self, *, every_draw: bool) -> dict[str, Any]:
        # RECORD.md: the solitaire draw is automatic and not written -- the opening's too
        # (end_before_first_draw), unless nothing follows it yet or a big gin does (a bare `gin`
        # would read as the opening's declaration); the record reader supplies it.
        hands = []
        for lg in self.logs:
            h: dict[str, Any] = {}
            if lg.seed is not None:
                h["seed"] = lg.seed
            else:
                h["deck"] = [str(c) for c in lg.deck]
            if lg.commitment is not None:
                h["commitment"] = lg.commitment
            acts = lg.actions
            solo_opening = self.facts.joker == "in_pack" and len(acts) > 1 and acts[0].kind == "draw"
            if not every_draw and solo_opening and acts[1].card is not None:
                acts = acts[1:]
            h["actions"] = [str(a) for a in acts]
            hands.append(h)
        return {
            "format": RECORD_FORMAT,
            "variant": self.variant,
            "options": self.options.to_dict(only_changed=True, variant=self.variant),
            "players": list(self.players),
            "hands": hands,
        }

    # ------------------------------------------------------------------ observations
    def _seat(self, seat: object) -> int:
        """``seat`` as a seat number (any integer type but bool), or IllegalAction naming it."""
        try:
            n = operator.index(seat)  # type: ignore[arg-type]  # any object: TypeError if not an index
        except TypeError:
            n = -1
        if isinstance(seat, bool) or not 0 <= n < self.num_seats:
            raise IllegalAction(f"no seat {show(seat)} in {self.variant} (seats 0..{self.num_seats - 1})")
        return n

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-ready data: never another hand's hidden cards nor the
        order of the stock (a security boundary for every front end)."""
        return observe(self, self._seat(seat))

    def observation_masks(self, seat: int) -> MaskObservation:
        """:meth:`observation` as card masks and numbers, for encoders on hot paths (the RL
        environments): the same knowledge under the same rules, see :class:`ginrummy.observe.MaskObservation`."""
        return observe_masks(self, self._seat(seat))

    def __repr__(self) -> str:
        return f"<State {self.variant} hand {self.hand_number} phase {self.phase} totals {self.totals}>"

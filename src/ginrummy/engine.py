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

The rules are the variant's (:mod:`ginrummy.rules`): a state holds the game's data (it is a
:class:`~ginrummy.rules.hand.Match`), checks and records each action, keeps the undo stack and
asks its variant's rules object for everything else; it tests no variant.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import ACTIONS, BIG_GIN, GIN, KNOCK, KNOCK_NO_DISCARD, NUM_ACTIONS, Action, action_id
from .cards import Card, CardSet, format_cards, new_seed
from .errors import IllegalAction, OptionError, RecordError
from .i18n import _, ngettext
from .melds import Arrangement, all_melds, is_meld
from .observe import MaskObservation, Observation, observe, observe_masks
from .options import Options, options_for, show
from .rules import Cut, HandLog, HandResult, Match, Phase, ResultKind, Rules, rules_for
from .rules.cut import cut_order
from .rules.hand import PH_DEAL, PH_DISCARD, PH_OPENING, PH_OVER
from .scoring import FinalPart
from .variants import VARIANTS, find_variant, solo_variants, table_variants

__all__ = ["RECORD_FORMAT", "SEATS", "Cut", "HandResult", "Phase", "ResultKind", "State"]

RECORD_FORMAT = "ginrummy-record/1"
SEATS = {v.name: v.seats for v in VARIANTS}  # read from the registry (ginrummy.variants)
TABLE = table_variants()
SOLO = solo_variants()

# Module constants for the hot paths (an enum member read through its class costs about 0.2 us).
_DEAL, _DISCARD, _OPENING, _OVER = PH_DEAL, PH_DISCARD, PH_OPENING, PH_OVER


# The undo stack (push/pop, python-chess style).  A snapshot keeps the fields one step may change:
# the lists the engine changes in place (hands, known cards, stock, pile) copied as tuples, the
# other values by reference: the engine and the rules replace them instead of changing them (the
# totals, the cards out of play and the Hollywood sheet are copied before they change, see
# Rules.settle).  The
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


class State(Match):
    """A game of any variant: the current hand, the score sheet and the record so far."""

    # ------------------------------------------------------------------ construction
    def __init__(self, variant: str, options: Options, players: Sequence[str]) -> None:
        self.variant = variant
        # The variant's fixed facts (ginrummy.variants): ask them, never compare self.variant.
        self.facts = find_variant(variant)
        self._set_options(options)
        self.players = list(players)
        self.num_seats = self.facts.seats
        self.logs: list[HandLog] = []
        self.results: list[HandResult] = []
        self.totals = [0] * self.num_seats
        self.hands_won = [0] * self.num_seats
        # The rules set the dealer of the next hand (table games), the roles (box, captain, sitter)
        # or Hollywood's sheet: the first hand's come from the options (RECORD.md: seat 0 deals
        # first unless the cut said otherwise).
        self._rules.new_game(self)
        self.game_over = False
        self.winner: int | None = None
        self._history: _Stack = None  # push/pop undo stack
        self.undo_enabled = True  # False: keep no undo stack (State.new(..., undo=False))
        # The score sheet before the last hand's result (a layoff takes the result back).
        self._saved: tuple[Any, ...] = ()
        self._reset_hand()

    def _set_options(self, options: Options) -> None:
        """The game's options and its variant's rules made from them (their hot methods bound once)."""
        self.options = options
        self._rules: Rules = rules_for(self.variant)(options)
        self._play = self._rules.play
        self._legal_of = self._rules.legal

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
            players = rules_for(variant).default_players()
        if isinstance(players, (str, bytes)) or not isinstance(players, Iterable):
            raise OptionError(_("players must be a list of {n} names, got {value}").format(n=n, value=show(players)))
        players = list(players)
        if not all(isinstance(p, str) for p in players):
            raise OptionError(
                _("players must be a list of {n} names (strings), got {value}").format(n=n, value=show(players))
            )
        if len(players) != n:
            raise OptionError(
                ngettext(
                    "{variant} has {seats} seats, got {n} player name",
                    "{variant} has {seats} seats, got {n} player names",
                    len(players),
                ).format(variant=variant, seats=n, n=len(players))
            )
        state = cls(variant, opts, players)
        state.undo_enabled = bool(undo)
        return state

    def _reset_hand(self) -> None:
        self.reset_hand()
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
        if not self._rules.cuts:
            raise IllegalAction(_("there is no cut in {variant}").format(variant=self.variant))
        if self.logs:
            raise IllegalAction(_("the cut comes before the first deal"))
        if cards is not None and seed is not None:
            raise IllegalAction(_("cut with cards or a seed, not both"))
        order, rounds = cut_order(self.num_seats, cards, seed, suit_order=self._rules.cut_ties_by_suit())
        result, values = self._rules.after_cut(self, order, rounds)
        self._set_options(self._with_options(**values))
        return result

    def _with_options(self, **values: object) -> Options:
        return options_for(self.variant, {**self.options.to_dict(only_changed=True, variant=self.variant), **values})

    def deck_for_seed(self, seed: int) -> list[Card]:
        """The deck (top first) that ``seed`` deals in this variant (``ginrummy-shuffle/1``)."""
        return self._rules.deck(seed)

    def deal(
        self, deck: Sequence[Card | str] | None = None, *, seed: int | None = None, commitment: str | None = None
    ) -> None:
        """Deal the next hand from an explicit ``deck`` (top first) or a ``seed``; with neither, a
        fresh ``secrets``-quality seed."""
        if self.phase != _DEAL:
            raise IllegalAction(
                _("the hand in play is not over: nothing to deal") if not self.game_over else _("the game is over")
            )
        if deck is not None and seed is not None:
            raise IllegalAction(_("deal from a deck or a seed, not both"))
        if deck is None:
            if seed is None:
                seed = new_seed()
            cards = self.deck_for_seed(seed)
        else:
            cards = self._check_deck(deck)
        self._push()
        self.logs.append(HandLog(list(cards), seed, commitment=commitment))
        self._start_hand(cards)

    def _deck_size_error(self, size: int, got: int, missing: list[str], extra: list[str]) -> str:
        """A deck of the wrong cards, in one sentence: its size, and what is missing or not allowed."""
        values = {
            "variant": self.variant,
            "size": size,
            "n": got,
            "missing": " ".join(missing),
            "extra": " ".join(extra),
        }
        if missing and extra:
            message = ngettext(
                "a {variant} deck has {size} cards, got {n}; missing {missing}; not allowed {extra}",
                "a {variant} deck has {size} cards, got {n}; missing {missing}; not allowed {extra}",
                got,
            )
        elif missing:
            message = ngettext(
                "a {variant} deck has {size} cards, got {n}; missing {missing}",
                "a {variant} deck has {size} cards, got {n}; missing {missing}",
                got,
            )
        elif extra:
            message = ngettext(
                "a {variant} deck has {size} cards, got {n}; not allowed {extra}",
                "a {variant} deck has {size} cards, got {n}; not allowed {extra}",
                got,
            )
        else:
            message = ngettext(
                "a {variant} deck has {size} cards, got {n}", "a {variant} deck has {size} cards, got {n}", got
            )
        return message.format(**values)

    def _check_deck(self, deck: Sequence[Card | str]) -> list[Card]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise RecordError(_("a deck is a list of cards, top first, got {value}").format(value=show(deck)))
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
        want = self._rules.pack()
        if sorted(cards) != want:
            seen: set[int] = set()
            for c in cards:
                if c in seen:
                    raise RecordError(_("the deck holds {card} twice").format(card=c))
                seen.add(c)
            missing = [str(c) for c in want if c not in seen]
            extra = [str(c) for c in cards if c not in want]
            raise RecordError(self._deck_size_error(len(want), len(cards), missing, extra))
        self._rules.check_deck(cards)
        return cards

    def _start_hand(self, deck: list[Card]) -> None:
        self._reset_hand()
        result = self._rules.start(self, deck)
        if result is not None:
            self._finish(result)

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
        return self._rules.active_seats(self)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act, in a fixed order (by action id)."""
        if self._legal is None:
            self._legal = self._legal_of(self)
        return list(self._legal)

    def legal_action_ids(self) -> tuple[int, ...]:
        """The integer ids of :meth:`legal_actions`, in the same order (cached with them)."""
        if self._legal is None:
            self._legal = self._legal_of(self)
        cached = self._legal_ids
        if cached is None or cached[0] is not self._legal:
            cached = self._legal_ids = (self._legal, tuple(map(action_id, self._legal)))
        return cached[1]

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
            raise IllegalAction(_("{action} is not a knock or gin to declare melds for").format(action=act))
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
        return self._rules.discard_taken_allowed

    def _may_end(self) -> bool:
        return self._rules.may_end(self)

    def _may_knock(self, d: int) -> bool:
        """Knocking (not gin) with deadwood d (rules 0.7, 3.5, 3.6)."""
        return self._rules.may_knock(self, d)

    def _big_gin_allowed(self) -> bool:
        return self._rules.big_gin_allowed(self)

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action | str | int) -> None:
        """Apply one action of the seat to act.  An illegal action raises :class:`IllegalAction`
        naming the legal ones, and changes nothing."""
        # The hot path of every simulation: locals, no calls that can be skipped.
        act = action if type(action) is Action else self._coerce(action)
        if act.kind == "layoff":
            self._apply_layoff(act)
            return
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_of(self)
        if act.melds is not None:
            act = self._check_declared(act, legal)
        else:
            act = ACTIONS[act._id]  # interned: the membership test below is by identity
            for x in legal:
                if x is act:
                    break
            else:
                gin = self._knock_as_gin(act, legal)
                if gin is None:
                    self._illegal(act, legal)
                else:
                    act = gin
        if self.undo_enabled:
            self._push()
        log = self.logs[-1]  # a legal action means a hand was dealt
        log.actions.append(act)
        log.seats.append(self.current)
        self._legal = None
        result = self._play(self, act)
        if result is not None:
            self._finish(result)

    def _coerce(self, action: Action | str | int) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return Action.parse(action)
        if type(action) is int and 0 <= action < NUM_ACTIONS:
            return ACTIONS[action]
        if isinstance(action, int) and not isinstance(action, bool):
            return Action.from_id(action)
        raise IllegalAction(_("not an action: {text}").format(text=repr(action)))

    def _illegal(self, act: Action, legal: list[Action]) -> None:
        if self.phase == _DEAL:
            raise IllegalAction(
                _("{action} is not legal: the hand is over and the next one is not dealt yet").format(action=act)
            )
        if self.phase == _OVER:
            raise IllegalAction(_("{action} is not legal: the game is over").format(action=act))
        values: dict[str, object] = {"action": act, "card": act.card, "legal": ", ".join(map(str, legal))}
        if act.card is not None and self.current is not None and not self.hands[self.current] >> act.card & 1:
            message = _("{action} is not legal ({card} is not in the hand); legal: {legal}")
        elif act.card is not None and act.card == self.taken and act.kind in ("discard", "knock", "gin"):
            message = _("{action} is not legal ({card} was just taken from the discard pile); legal: {legal}")
        elif act.kind == "knock" and self.phase == _DISCARD:
            values["limit"] = self.knock_limit
            message = _(
                "{action} is not legal (knocking needs deadwood of at most {limit} after the discard); legal: {legal}"
            )
        else:
            message = _("{action} is not legal; legal: {legal}")
        raise IllegalAction(message.format(**values))

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
                raise IllegalAction(_("{meld} is not a meld").format(meld=format_cards(meld)))
            if m & ~kept:
                raise IllegalAction(
                    _("{meld} is not in the hand kept after the discard").format(meld=format_cards(meld))
                )
            if m & used:
                raise IllegalAction(
                    _("{meld} shares a card with another declared meld").format(meld=format_cards(meld))
                )
            used |= m
        dead = CardSet(kept & ~used).value
        if dead == 0:
            return act if act.kind == "gin" else Action("gin", c, act.melds)
        if act.kind == "gin":
            raise IllegalAction(
                _("gin must meld every card; the declared melds leave {deadwood}").format(deadwood=dead)
            )
        if not self._may_knock(dead):
            raise IllegalAction(
                _("the declared melds leave deadwood {deadwood}; knocking needs 1 to {limit}").format(
                    deadwood=dead, limit=self.knock_limit
                )
            )
        return act

    # ------------------------------------------------------------------ layoffs
    def layoff_options(self) -> list[Card]:
        """After a knock: the defender's cards that can be laid off now, given those already laid
        off explicitly (``layoff`` actions; without them the engine lays off optimally)."""
        return self._rules.layoff_options(self)

    def _apply_layoff(self, act: Action) -> None:
        """Explicit layoffs (RECORD.md): right after a knock the defender's chosen cards replace the
        engine's automatic choice."""
        defender, knock, laid = self._rules.lay_off(self, act)  # IllegalAction: nothing changed
        knocker = self._last_knocker
        assert knocker is not None
        self._push()
        self._undo_finish()
        self.logs[-1].actions.append(act)
        self.logs[-1].seats.append(defender)
        self._finish(self._rules.showdown(self, knocker, knock, laid))

    # ------------------------------------------------------------------ the score sheet
    def _finish(self, result: HandResult) -> None:
        """End the hand: file its result and let the rules settle it (the totals, the next dealer
        or roles, maybe the end of the game)."""
        self._saved = (
            tuple(self.totals),
            tuple(self.hands_won),
            self.hollywood,
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
        self._rules.settle(self, result)
        self.phase = _OVER if self.game_over else _DEAL

    def _undo_finish(self) -> None:
        totals, won, hollywood, self.dealer, self.roles, self.game_over, self.winner = self._saved
        self.totals, self.hands_won, self.hollywood = list(totals), list(won), copy.deepcopy(hollywood)
        self.results.pop()
        self.hand_result = None

    def boxes(self) -> list[int]:
        """Each seat's boxes (lines) for the end-of-game box bonus: one a hand won, two for a hand
        won on a spade upcard in Oklahoma with ``spades_double_boxes`` (rule 1b.3)."""
        return self._rules.boxes(self)

    def final_totals(self) -> list[int]:
        """Each seat's total with the end-of-game bonuses once the game is over (rules 1.10, 1c.3,
        2.7); before that, and in variants without bonuses, the running hand points."""
        if not self.game_over:
            return list(self.totals)
        return [sum(part.points for part in seat) for seat in self.final_parts()]

    def final_parts(self) -> list[list[FinalPart]]:
        """:meth:`final_totals` line by line: for each seat, the parts (:class:`~ginrummy.scoring.FinalPart`)
        that add up to its final total (the hand points and each bonus; Hollywood's three games one by one)."""
        if not self.game_over:
            return [[FinalPart("hands", t)] for t in self.totals]
        return self._rules.final_parts(self)

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
        new.logs = [HandLog(lg.deck, lg.seed, list(lg.actions), list(lg.seats), lg.commitment) for lg in self.logs]
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
            raise IllegalAction(_("nothing to undo") if self.undo_enabled else _("this game keeps no undo stack"))
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
        # The actions as the variant's record writes them (RECORD.md: the solitaire's automatic
        # draws are not written), or every action with ``every_draw``.
        hands = []
        for lg in self.logs:
            h: dict[str, Any] = {}
            if lg.seed is not None:
                h["seed"] = lg.seed
            else:
                h["deck"] = [str(c) for c in lg.deck]
            if lg.commitment is not None:
                h["commitment"] = lg.commitment
            acts = lg.actions if every_draw else self._rules.recorded_actions(lg.actions)
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
            raise IllegalAction(
                _("no seat {seat} in {variant} (seats 0..{last})").format(
                    seat=show(seat), variant=self.variant, last=self.num_seats - 1
                )
            )
        return n

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know, as JSON-ready data: never another hand's hidden cards nor the
        order of the stock (a security boundary for every front end)."""
        return observe(self, self._seat(seat))

    def observation_masks(self, seat: int) -> MaskObservation:
        """:meth:`observation` as card masks and numbers, for encoders on hot paths (the RL
        environments): the same knowledge under the same rules, see :class:`ginrummy.observe.MaskObservation`."""
        return observe_masks(self, self._seat(seat))

    def __repr__(self) -> str:
        return f"<State {self.variant} hand {self.hand_number} phase {self.phase} totals {self.totals}>"

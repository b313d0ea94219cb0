"""The variant plug-in: :class:`Rules`, one subclass a variant, holding that variant's rules.

A variant's rules object is made once per game from its options (:func:`ginrummy.rules.rules_for`)
and never changes; the engine (:class:`ginrummy.engine.State`) asks it for every rule and branches
on no variant.  Its methods read and change a :class:`~ginrummy.rules.hand.Match` (the game in
play) and report the end of a hand by returning its :class:`~ginrummy.rules.hand.HandResult`; the
engine then files the result and asks :meth:`Rules.settle` for the score sheet.

The table games share :class:`ginrummy.rules.table.TableGame`, the solitaires
:class:`ginrummy.rules.solo.SoloGame`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..actions import BIG_GIN, DISCARD, GIN, KNOCK, Action
from ..cards import Card, full_pack, shuffled
from ..errors import IllegalAction
from ..i18n import _
from ..melds import best_discard_deadwood, deadwood_after_each, min_deadwood
from ..options import Options
from ..scoring import FinalPart
from ..variants import Variant, find_variant
from .hand import Cut, HandResult, Match

__all__ = ["Rules"]


# Per suit ``s``, indexed by its 13-bit pattern ``x``: the discard actions of those cards, in
# card order (so four lookups list a hand's discards by action id).  Filled on first use (at most
# 4 x 8,192 tuples); plain lists, the fastest lookup there is.
_SUIT_DISCARDS: tuple[list[tuple[Action, ...] | None], ...] = tuple([None] * 8192 for _suit in range(4))
_SD0, _SD1, _SD2, _SD3 = _SUIT_DISCARDS


def _suit_discards(s: int, x: int) -> tuple[Action, ...]:
    v = tuple(DISCARD[13 * s + r] for r in range(13) if x >> r & 1)
    _SUIT_DISCARDS[s][x] = v
    return v


class Rules:
    """One variant's rules.  A subclass names its variant (:attr:`name`); an instance holds the
    game's options and never changes (copies and deep copies of it are itself)."""

    name: ClassVar[str]
    """The variant these rules play (a key of the registry)."""
    facts: ClassVar[Variant]
    """The variant's fixed facts, from :mod:`ginrummy.variants`."""
    cuts: ClassVar[bool] = False
    """Players cut before the first deal (for the dealer, or the roles)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" in cls.__dict__:
            cls.facts = find_variant(cls.name)

    def __init__(self, options: Options) -> None:
        self.options = options
        self.bonuses: dict[str, Any] = {
            "gin_bonus": options.gin_bonus,
            "big_gin_bonus": options.big_gin_bonus,
            "undercut_bonus": options.undercut_bonus,
            "undercut_on_tie": options.undercut_on_tie,
        }
        """The scoring bonuses, as the keyword arguments of :mod:`ginrummy.scoring`'s functions."""
        self.discard_taken_allowed = bool(getattr(options, "discard_drawn_upcard_allowed", False))
        """Rule 1.5: a card taken from the discard pile may be discarded at once."""
        self._ends_always = type(self).may_end is Rules.may_end
        """:meth:`may_end` is always true (not overridden): the hot path skips the call."""

    def __copy__(self) -> Rules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options

    def __hash__(self) -> int:
        return hash((type(self), self.options))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} rules>"

    # ------------------------------------------------------------------ the game
    @classmethod
    def default_players(cls) -> list[str]:
        """The names of the seats when a new game is given none."""
        return [f"Player {i + 1}" for i in range(cls.facts.seats)]

    def new_game(self, m: Match) -> None:
        """Set up the score sheet of a new game (dealer or roles, a Hollywood sheet)."""
        m.hollywood = None
        m.dealer = 0
        m.roles = (0, 1, 2)

    def active_seats(self, m: Match) -> tuple[int, ...]:
        """The seats that hold cards this hand."""
        return (0, 1)

    # ------------------------------------------------------------------ the cut
    def cut_ties_by_suit(self) -> bool:
        """Whether tied cuts are broken by suit (clubs low) instead of re-cut."""
        return False

    def after_cut(self, m: Match, order: tuple[int, ...], rounds: tuple[Any, ...]) -> tuple[Cut, dict[str, int]]:
        """The cut's result for ``order`` (seats from the highest cut to the lowest) and the option
        values that record it; sets the dealer or roles of ``m``.  Raises if there is no cut."""
        raise IllegalAction(_("there is no cut in {variant}").format(variant=m.variant))

    # ------------------------------------------------------------------ dealing
    def deck(self, seed: int) -> list[Card]:
        """The deck (top first) that ``seed`` deals (``ginrummy-shuffle/1``)."""
        return shuffled(seed, joker=False)

    def pack(self) -> list[Card]:
        """The cards of an explicit deck, in card order."""
        return full_pack()

    def check_deck(self, cards: list[Card]) -> None:
        """Refuse (:class:`RecordError`) an explicit deck of the right cards that the variant
        cannot deal; every order of the pack is a deal here."""

    def start(self, m: Match, deck: list[Card]) -> HandResult | None:
        """Deal a hand from ``deck`` (the hand fields are reset); a result if it ends at once."""
        raise NotImplementedError

    # ------------------------------------------------------------------ legal actions
    def legal(self, m: Match) -> list[Action]:
        """The legal actions of the seat to act, by action id."""
        raise NotImplementedError

    def may_end(self, m: Match) -> bool:
        """Whether the seat to act may knock or go gin at all now."""
        return True

    def may_knock(self, m: Match, deadwood: int) -> bool:
        """Knocking (not gin) with this deadwood (rules 0.7, 3.5, 3.6)."""
        return 0 < deadwood <= m.knock_limit

    def big_gin_allowed(self, m: Match) -> bool:
        """Whether going out with all eleven cards melded is allowed now."""
        return bool(self.options.big_gin)

    def discard_legal(self, m: Match) -> list[Action]:
        """Holding eleven: the discards, then the knocks and gins, then big gin (by action id)."""
        # The hot path of every simulation (about half of all steps).
        seat = m.current
        assert seat is not None
        hand = m.hands[seat]
        taken = m.taken
        # Rule 1.5: not the card just taken from the discard pile (unless the options allow it).
        movable = hand if taken is None or self.discard_taken_allowed else hand & ~(1 << taken)
        x = movable & 0x1FFF
        a = _SD0[x]
        if a is None:
            a = _suit_discards(0, x)
        x = movable >> 13 & 0x1FFF
        b = _SD1[x]
        if b is None:
            b = _suit_discards(1, x)
        x = movable >> 26 & 0x1FFF
        c = _SD2[x]
        if c is None:
            c = _suit_discards(2, x)
        x = movable >> 39
        d = _SD3[x]
        if d is None:
            d = _suit_discards(3, x)
        out = [*a, *b, *c, *d]
        if self._ends_always or self.may_end(m):
            best = best_discard_deadwood(hand)
            if best <= m.knock_limit:
                knocks = []
                gins = []
                may_knock = self.may_knock
                for card, dead in deadwood_after_each(hand):  # every discard's deadwood in one pass
                    if not movable >> card & 1:
                        continue
                    if dead == 0:
                        gins.append(GIN[card])
                    elif may_knock(m, dead):
                        knocks.append(KNOCK[card])
                out += knocks
                out += gins
            # All eleven melded means some discard leaves gin (a meld of four or more is among
            # them), so big gin needs best == 0: the full search only then.
            if best == 0 and self.big_gin_allowed(m) and min_deadwood(hand) == 0:
                out.append(BIG_GIN)
        return out

    # ------------------------------------------------------------------ playing
    def play(self, m: Match, act: Action) -> HandResult | None:
        """Play a legal action of the seat to act (recorded already); the result if the hand ends."""
        raise NotImplementedError

    def layoff_options(self, m: Match) -> list[Card]:
        """After a knock: the defender's cards that can be laid off now (none in this variant)."""
        return []

    def lay_off(self, m: Match, act: Action) -> tuple[int, Action, list[Card]]:
        """Check an explicit ``layoff`` (RECORD.md): (the defender, the knock, the cards laid off so
        far with this one), changing nothing; :class:`IllegalAction` if it is not legal."""
        raise IllegalAction(_("{action} is not legal; no layoff is possible now").format(action=act))

    def showdown(self, m: Match, knocker: int, act: Action, laid: Sequence[Card] | None = None) -> HandResult:
        """The showdown of a knock or gin, with the defender's explicit layoffs ``laid`` (only the
        variants whose :meth:`lay_off` accepts a layoff have one)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the score sheet
    def settle(self, m: Match, result: HandResult) -> None:
        """Score a hand's result into the game: totals, the next dealer or roles, the game's end
        and winner (``m.totals`` and ``m.hands_won`` are replaced, never changed in place)."""
        scorer = result.winner if any(result.points) else None
        if scorer is not None:
            m.totals = list(m.totals)  # copy on write (the undo stack keeps the one before)
            m.hands_won = list(m.hands_won)
            m.totals[scorer] += result.points[scorer]
            m.hands_won[scorer] += 1
        self.next_hand(m, result, scorer)
        if m.game_over and m.winner is None:
            m.winner = self.game_winner(m)

    def next_hand(self, m: Match, result: HandResult, scorer: int | None) -> None:
        """After the totals: the next dealer or roles, and whether the game is over."""
        m.game_over = max(m.totals) >= int(self.options.game_target)

    def game_winner(self, m: Match) -> int | None:
        """The winner of a game just over: the highest total."""
        return max(range(m.num_seats), key=lambda i: m.totals[i])

    def boxes(self, m: Match) -> list[int]:
        """Each seat's boxes (lines) for the end-of-game box bonus: one a hand won."""
        return list(m.hands_won)

    def final_parts(self, m: Match) -> list[list[FinalPart]]:
        """Each seat's final total line by line once the game is over (the hand points here)."""
        return [[FinalPart("hands", t)] for t in m.totals]

    # ------------------------------------------------------------------ records
    def recorded_actions(self, actions: list[Action]) -> list[Action]:
        """The actions of a hand as its record writes them."""
        return actions

"""The solitaires against the Joker (rule book sections 3 and 4): :class:`SoloGame` draws for the
player, takes discards out of play, counts down to the joker and scores the ending;
:class:`Solitaire` (the joker in a 53-card pack) and :class:`GinSolitaire` (eleven dealt, the
joker among the other 41) change the deal and the openings.
"""

from __future__ import annotations

from typing import Any

from ..actions import BIG_GIN, DRAW, KNOCK_NO_DISCARD, Action
from ..cards import JOKER, Card, CardSet, ShuffleStream, format_cards, full_pack, shuffled
from ..errors import RecordError
from ..i18n import _
from ..melds import Arrangement, best_arrangement, min_deadwood
from ..options import GinSolitaireOptions, SolitaireOptions
from ..scoring import solitaire_points
from .base import Rules
from .hand import PH_DISCARD, PH_OPENING, HandResult, Match, ResultKind

__all__ = ["GinSolitaire", "Solitaire", "SoloGame"]

_NAMES = {"gin": "Gin", "big-gin": "Big gin", "knock": "Knock"}


class SoloGame(Rules):
    """One player against the Joker (seat 1): the draw is automatic, a discard leaves the game."""

    options: SolitaireOptions | GinSolitaireOptions
    discards_to_bottom = False
    """A discard goes to the bottom of the deck (and so may be counted down to the joker)."""

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.scoring: str = getattr(options, "scoring", "knock")
        """``knock`` (the full rules), ``basic`` (the count is the score) or ``none`` (gin wins)."""

    @classmethod
    def default_players(cls) -> list[str]:
        return ["You", "Joker"]

    def active_seats(self, m: Match) -> tuple[int, ...]:
        return (0,)

    def pack(self) -> list[Card]:
        return full_pack(joker=True)

    # ------------------------------------------------------------------ legal actions
    def legal(self, m: Match) -> list[Action]:
        ph = m.phase
        if ph == PH_OPENING:
            d = min_deadwood(m.hands[0])
            if d == 0:
                return [DRAW, BIG_GIN]  # `gin` without a discard: declare the dealt ten (rule 3.4 option)
            if self.may_knock(m, d):
                return [DRAW, KNOCK_NO_DISCARD]
            return [DRAW]
        if ph != PH_DISCARD:
            return []
        return self.discard_legal(m)

    # ------------------------------------------------------------------ playing
    def play(self, m: Match, act: Action) -> HandResult | None:
        k = act.kind
        if k == "draw":  # only in the opening of solitaire with end_before_first_draw
            return self.draw(m)
        if act.card is not None:
            m.hands[0] &= ~(1 << act.card)
            if self.discards_to_bottom:
                m.stock.insert(0, act.card)  # rule 3.3: to the bottom of the deck
            m.out_of_play = [*m.out_of_play, act.card]  # copy on write, for the undo stack
        m.opening = False
        if k == "discard":
            return self.draw(m)
        event = "big-gin" if k == "gin" and act.card is None and m.phase == PH_DISCARD else k
        return self.end(m, event, act.melds)

    def draw(self, m: Match) -> HandResult | None:
        """The automatic draw; the end of the hand if it is the joker."""
        card = m.stock.pop()
        m.draws += 1
        if card == JOKER:
            m.stock.append(card)
            return self.end(m, "joker")
        m.hands[0] |= 1 << card
        m.phase = PH_DISCARD
        return None

    def end(self, m: Match, event: str, declared: tuple[tuple[Card, ...], ...] | None = None) -> HandResult:
        """Rules 3.5-3.8 and 4.3-4.6: count down to the joker and score."""
        opts = self.options
        scoring = self.scoring
        if declared is not None:  # rule 0.8: a declared arrangement's deadwood is the one scored
            used = sum(1 << c for meld in declared for c in meld)
            arr = Arrangement(tuple(declared), tuple(CardSet(m.hands[0] & ~used)))
        else:
            arr = best_arrangement(m.hands[0])
        d = arr.deadwood
        counted_cards: tuple[Card, ...] = ()
        counted = None
        if event != "joker":
            pos = len(m.stock) - 1 - m.stock.index(JOKER)  # cards above the joker
            counted_cards = tuple(reversed(m.stock[len(m.stock) - pos :]))
            counted = pos + (1 if opts.count_includes_joker else 0)
        result, p, j = solitaire_points(event, counted=counted or 0, deadwood=d, scoring=scoring, **self.bonuses)
        if scoring == "none":
            winner: int | None = 1 if event == "joker" else 0
        else:
            winner = 0 if p else 1 if j else None
        lines = []
        if event == "joker":
            lines.append(f"The joker came first. Deadwood {format_cards(arr.unmatched) or '-'} = {d}.")
            lines.append("The hand is lost." if scoring == "none" else f"The Joker scores {j}.")
        else:
            lines.append(f"{_NAMES[event]}: " + str(arr) + f". {counted} cards turned before the joker.")
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
        return HandResult(
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


class Solitaire(SoloGame):
    """Solitaire Gin Rummy (section 3): the joker shuffled into a 53-card pack, ten dealt."""

    name = "solitaire"
    options: SolitaireOptions
    discards_to_bottom = True

    def deck(self, seed: int) -> list[Card]:
        return shuffled(seed, joker=True)

    def start(self, m: Match, deck: list[Card]) -> HandResult | None:
        opts = self.options
        m.hand_dealer = m.hand_nondealer = 0
        m.knock_limit = opts.knock_limit
        dealt = deck[:10]
        m.stock = deck[:9:-1]
        if JOKER in dealt:  # rule 3.2
            real = [c for c in dealt if c != JOKER]
            m.hands[0] = sum(1 << c for c in real)
            if opts.joker_in_deal == "redeal":
                return HandResult(ResultKind.REDEAL, (0, 0), (0, 0), explanation=("The joker was dealt: redeal.",))
            d = min_deadwood(m.hands[0])
            _kind, p, j = solitaire_points("joker", counted=0, deadwood=d, scoring=opts.scoring, **self.bonuses)
            return HandResult(
                ResultKind.JOKER,
                (p, j),
                (d, 0),
                winner=1 if j or opts.scoring == "none" else None,
                explanation=(f"The joker was dealt: the hand is lost; the Joker scores {j}.",),
            )
        m.hands[0] = sum(1 << c for c in dealt)
        m.current = 0
        if opts.end_before_first_draw:
            m.phase = PH_OPENING
            return None
        return self.draw(m)

    def may_knock(self, m: Match, deadwood: int) -> bool:
        return self.scoring == "knock" and 0 < deadwood <= m.knock_limit  # rules 3.5, 3.6

    def next_hand(self, m: Match, result: HandResult, scorer: int | None) -> None:
        if self.scoring == "none":
            m.game_over = result.result != "redeal"  # one hand decides it (rule 3.5)
            m.winner = result.winner if m.game_over else None
        else:
            m.game_over = max(m.totals) >= self.options.game_target  # rule 3.10

    def recorded_actions(self, actions: list[Action]) -> list[Action]:
        # RECORD.md: the solitaire draw is automatic and not written -- the opening's too
        # (end_before_first_draw), unless nothing follows it yet or a big gin does (a bare `gin`
        # would read as the opening's declaration); the record reader supplies it.
        if len(actions) > 1 and actions[0].kind == "draw" and actions[1].card is not None:
            return actions[1:]
        return actions


class GinSolitaire(SoloGame):
    """Gin Solitaire (section 4): eleven dealt, the joker among the other 41, an opening discard."""

    name = "gin-solitaire"
    options: GinSolitaireOptions

    def deck(self, seed: int) -> list[Card]:
        stream = ShuffleStream(seed)
        first = stream.shuffle(full_pack())
        rest = stream.shuffle([*first[11:], JOKER])  # rule 4.1: the joker goes into the other 41
        return first[:11] + rest

    def check_deck(self, cards: list[Card]) -> None:
        if JOKER in cards[:11]:
            raise RecordError(
                _("a {variant} deck may not have the joker in its top eleven cards (rule 4.1)").format(
                    variant="gin-solitaire"
                )
            )

    def start(self, m: Match, deck: list[Card]) -> HandResult | None:
        m.hand_dealer = m.hand_nondealer = 0
        m.knock_limit = self.options.knock_limit
        m.hands[0] = sum(1 << c for c in deck[:11])
        m.stock = deck[:10:-1]
        m.current = 0
        m.phase = PH_DISCARD
        m.opening = True  # rule 4.2: the opening discard
        return None

    def may_end(self, m: Match) -> bool:
        return self.options.end_after_opening_discard if m.opening else True

    def big_gin_allowed(self, m: Match) -> bool:
        return self.options.big_gin and not m.opening  # rule 4.3: never with the dealt 11

"""The table games (rule book sections 1, 1b, 1c, 2): :class:`TableGame` plays the upcard, draw
or take, discard, knock or gin, the wall, the showdown and the layoffs; :class:`Classic`,
:class:`Oklahoma`, :class:`Hollywood` and :class:`Three` change only what their sections change.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ..actions import DRAW, PASS, TAKE, Action
from ..cards import Card, CardSet, format_cards
from ..errors import IllegalAction
from ..i18n import _
from ..melds import best_arrangement, best_defense, lay_off_all
from ..options import TableOptions, ThreeOptions
from ..scoring import (
    FinalPart,
    HollywoodSheet,
    game_final_parts,
    oklahoma_knock_limit,
    table_hand_points,
    three_rotation,
)
from .base import Rules
from .hand import PH_DISCARD, PH_DRAW, PH_UPCARD, Cut, HandResult, Match, ResultKind

__all__ = ["Classic", "Hollywood", "Oklahoma", "TableGame", "Three"]


def _verb(name: str, verb: str) -> str:
    """``knocks`` after a name, ``knock`` after "You" (the default name of a person's seat)."""
    if name != "You":
        return verb
    return "go" if verb == "goes" else verb[:-1]


class TableGame(Rules):
    """Two or three players at a table (rule book section 1): the two-player game as it is."""

    options: TableOptions | ThreeOptions
    cuts = True

    def __init__(self, options: Any) -> None:
        super().__init__(options)
        self.wall_cards: int = options.wall_cards

    # ------------------------------------------------------------------ the game
    def new_game(self, m: Match) -> None:
        super().new_game(m)
        m.dealer = self.options.first_dealer if isinstance(self.options, TableOptions) else 0

    def after_cut(self, m: Match, order: tuple[int, ...], rounds: tuple[Any, ...]) -> tuple[Cut, dict[str, int]]:
        m.dealer = order[-1]  # rule 1.2: the lower card deals
        return Cut(rounds, order, m.dealer), {"first_dealer": m.dealer}

    # ------------------------------------------------------------------ dealing
    def deal_seats(self, m: Match) -> tuple[int, int]:
        """(dealer, non-dealer) of the hand about to be dealt."""
        return m.dealer, 1 - m.dealer

    def knock_limit_for(self, upcard: Card) -> int:
        """The most deadwood a knock may leave this hand."""
        return self.options.knock_limit

    def start(self, m: Match, deck: list[Card]) -> HandResult | None:
        # RECORD.md / rule 1.3: one card at a time, non-dealer first, then the upcard.
        dealer, nondealer = self.deal_seats(m)
        m.hand_dealer, m.hand_nondealer = dealer, nondealer
        m.hands[nondealer] = sum(1 << c for c in deck[0:20:2])
        m.hands[dealer] = sum(1 << c for c in deck[1:20:2])
        m.upcard = deck[20]
        m.pile = [deck[20]]
        m.stock = deck[:20:-1]  # reversed: top at the end
        m.phase = PH_UPCARD
        m.current = nondealer
        m.knock_limit = self.knock_limit_for(deck[20])
        return None

    # ------------------------------------------------------------------ legal actions
    def legal(self, m: Match) -> list[Action]:
        ph = m.phase
        if ph == PH_DISCARD:  # the common phases first
            return self.discard_legal(m)
        if ph == PH_DRAW:
            if m.must_draw or not m.pile:
                return [DRAW]
            return [DRAW, TAKE]
        if ph == PH_UPCARD:
            return [TAKE, PASS]
        return []

    # ------------------------------------------------------------------ playing
    def play(self, m: Match, act: Action) -> HandResult | None:
        # The hot path of every simulation: the common kinds first (draw or take, then discard).
        seat = m.current
        assert seat is not None
        k = act.kind
        if k == "draw":
            card = m.stock.pop()
            m.hands[seat] |= 1 << card
            m.taken = None
            m.must_draw = False
            m.phase = PH_DISCARD
            return None
        if k == "discard":
            dis = act.card
            assert dis is not None
            bit = 1 << dis
            m.hands[seat] &= ~bit
            m.known[seat] &= ~bit
            m.pile.append(dis)
            m.taken = None
            if len(m.stock) <= self.wall_cards:  # rule 1.9: the wall
                return HandResult(
                    ResultKind.DRAW,
                    (0,) * m.num_seats,
                    (0,) * m.num_seats,
                    explanation=(f"Only {len(m.stock)} stock cards left: the hand is void.",),
                )
            m.current = m.hand_nondealer if seat == m.hand_dealer else m.hand_dealer
            m.phase = PH_DRAW
            return None
        if k == "take":
            card = m.pile.pop()
            m.hands[seat] |= 1 << card
            m.known[seat] |= 1 << card
            m.taken = card
            m.phase = PH_DISCARD
            return None
        if k == "pass":
            m.passes += 1
            if m.passes == 1:
                m.current = m.hand_dealer  # rule 1.4.2
            else:
                m.current = m.hand_nondealer  # rule 1.4.3
                m.phase = PH_DRAW
                m.must_draw = True
            return None
        if act.card is not None:  # a knock or gin with a discard
            m.hands[seat] &= ~(1 << act.card)
            m.known[seat] &= ~(1 << act.card)
            m.pile.append(act.card)
        m.taken = None
        return self.showdown(m, seat, act)

    def doubles(self, m: Match) -> bool:
        """Whether this hand's points count double."""
        return False

    def showdown(self, m: Match, knocker: int, act: Action, laid: Sequence[Card] | None = None) -> HandResult:
        """Rules 1.7-1.8 (two and three players)."""
        opts = self.options
        defender = m.hand_nondealer if knocker == m.hand_dealer else m.hand_dealer
        big = act.kind == "gin" and act.card is None
        if act.melds is not None:
            kmelds = tuple(act.melds)
            used = sum(1 << c for meld in kmelds for c in meld)
            kun = tuple(CardSet(m.hands[knocker] & ~used))
        else:
            arr = best_arrangement(m.hands[knocker])
            kmelds, kun = arr.melds, arr.unmatched
        m._knock_melds = kmelds
        dk = sum(c.value for c in kun)
        gin = act.kind == "gin"
        if laid is None:
            defense = best_defense(kmelds, m.hands[defender], layoffs=opts.layoffs and not gin)
            dmelds, dlaid, dun = defense.melds, defense.laid_off, defense.unmatched
        else:
            rest = m.hands[defender] & ~sum(1 << c for c in laid)
            arr = best_arrangement(rest)
            dmelds, dlaid, dun = arr.melds, tuple(laid), arr.unmatched
        dd = sum(c.value for c in dun)
        result, kp, dp = table_hand_points(
            knocker_deadwood=dk, defender_deadwood=dd, gin=gin, big_gin=big, **self.bonuses
        )
        mult = 2 if self.doubles(m) else 1  # rule 1b.3: a spade upcard doubles the hand
        points = [0] * m.num_seats
        points[knocker] = kp * mult
        points[defender] = dp * mult
        deadwood = [0] * m.num_seats
        deadwood[knocker], deadwood[defender] = dk, dd
        winner = knocker if kp else defender if dp else None
        kn, dn = m.players[knocker], m.players[defender]
        lines = [
            f"{kn} {_verb(kn, 'goes')} {'big gin' if big else 'gin' if gin else ''}".rstrip()
            if gin
            else f"{kn} {_verb(kn, 'knocks')}",
            f"{dn} {_verb(dn, 'spreads')} "
            + (" ".join(format_cards(meld) for meld in dmelds) or "no melds")
            + (f", {_verb(dn, 'lays')} off {format_cards(dlaid)}" if dlaid else "")
            + f", deadwood {format_cards(dun) or '-'} = {dd}",
        ]
        lines[0] += (
            ": "
            + " ".join(format_cards(meld) for meld in kmelds)
            + (f", deadwood {format_cards(kun)} = {dk}" if kun else "")
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
            lines.append(f"Spades double (the upcard was {m.upcard}): {max(kp, dp) * 2}")
        return HandResult(
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

    # ------------------------------------------------------------------ explicit layoffs
    def layoff_options(self, m: Match) -> list[Card]:
        melds, laid, defender = self._layoff_context(m)
        if melds is None:
            return []
        laid_mask = sum(1 << c for c in laid)
        rest = m.hands[defender] & ~laid_mask
        knocked = [sum(1 << c for c in meld) for meld in m._knock_melds]
        # Rule 0.9.3: the cards laid off so far and this one must share the knocker's melds so
        # that each stays a meld (7h may go on 4h5h6h beside 7c7d7s, and then 8h after it).
        return [c for c in CardSet(rest) if lay_off_all(knocked, laid_mask | 1 << c) is not None]

    def _layoff_context(self, m: Match) -> tuple[list[int] | None, list[Card], int]:
        r = m.hand_result
        if r is None or r.result not in ("knock", "undercut") or r.knocker is None or not m.logs:
            return None, [], 0
        if not self.options.layoffs:
            return None, [], 0
        acts = m.logs[-1].actions
        i = len(acts) - 1
        while i >= 0 and acts[i].kind == "layoff":
            i -= 1
        if i < 0 or acts[i].kind != "knock":
            return None, [], 0
        laid = [a.card for a in acts[i + 1 :] if a.card is not None]
        melds = lay_off_all([sum(1 << c for c in meld) for meld in m._knock_melds], sum(1 << c for c in laid))
        defender = m.hand_nondealer if r.knocker == m.hand_dealer else m.hand_dealer
        return melds, laid, defender

    def lay_off(self, m: Match, act: Action) -> tuple[int, Action, list[Card]]:
        assert act.card is not None
        options = self.layoff_options(m)
        if act.card not in options:
            raise IllegalAction(
                _("{action} is not legal; cards that can be laid off: {cards}").format(
                    action=act, cards=format_cards(options)
                )
                if options
                else _("{action} is not legal; no layoff is possible now").format(action=act)
            )
        _melds, laid, defender = self._layoff_context(m)
        knock = next(a for a in reversed(m.logs[-1].actions) if a.kind == "knock")
        return defender, knock, [*laid, act.card]

    # ------------------------------------------------------------------ the score sheet
    def rotate_dealer(self, m: Match, result: HandResult, scorer: int | None) -> None:
        """Rule 1.2: the next hand's dealer (the same one after a void hand)."""
        nd = self.options.next_dealer  # type: ignore[union-attr]  # the two-player games' option
        if result.result == "draw" or scorer is None:
            pass  # rule 1.2: after a void hand the same dealer deals again
        elif nd == "winner":
            m.dealer = scorer
        elif nd == "loser":
            m.dealer = 1 - scorer
        else:
            m.dealer = 1 - m.dealer

    def next_hand(self, m: Match, result: HandResult, scorer: int | None) -> None:
        self.rotate_dealer(m, result, scorer)
        m.game_over = max(m.totals) >= self.options.game_target

    def final_parts(self, m: Match) -> list[list[FinalPart]]:
        o = self.options
        return game_final_parts(
            m.totals, self.boxes(m), game_bonus=o.game_bonus, box_bonus=o.box_bonus, shutout=o.shutout
        )


class Classic(TableGame):
    """Classic two-player Gin Rummy (rule book section 1)."""

    name = "classic"


class Oklahoma(TableGame):
    """Oklahoma Gin (1b): the upcard sets the knock limit; a spade upcard may double the hand."""

    name = "oklahoma"
    options: TableOptions

    def knock_limit_for(self, upcard: Card) -> int:
        return oklahoma_knock_limit(upcard, self.options.oklahoma_ace)  # rule 1b.1

    def doubles(self, m: Match) -> bool:
        return self.options.spades_double and m.upcard is not None and m.upcard.suit == 3

    def boxes(self, m: Match) -> list[int]:
        """One box a hand won, two for a hand won on a spade upcard with ``spades_double_boxes``."""
        boxes = list(m.hands_won)
        if self.options.spades_double_boxes:
            for r in m.results:
                if r.doubled and r.winner is not None:  # a winner is a seat that scored
                    boxes[r.winner] += 1
        return boxes


class Hollywood(TableGame):
    """Hollywood Gin (1c): three games scored at once on one sheet."""

    name = "hollywood"
    options: TableOptions

    def new_game(self, m: Match) -> None:
        super().new_game(m)
        m.hollywood = HollywoodSheet(self.options.hollywood_target)

    def next_hand(self, m: Match, result: HandResult, scorer: int | None) -> None:
        m.hollywood = copy.deepcopy(m.hollywood)  # copy on write: snapshots keep the one before
        assert m.hollywood is not None
        if scorer is not None:
            m.hollywood.enter(scorer, result.points[scorer])
        self.rotate_dealer(m, result, scorer)
        m.game_over = m.hollywood.over  # rule 1c.4

    def game_winner(self, m: Match) -> int | None:
        finals = [sum(part.points for part in seat) for seat in self.final_parts(m)]
        return max(range(2), key=lambda i: finals[i]) if finals[0] != finals[1] else None

    def final_parts(self, m: Match) -> list[list[FinalPart]]:
        """Rule 1c.3: each of the three games settled with the bonuses, one by one."""
        assert m.hollywood is not None
        o = self.options
        out: list[list[FinalPart]] = [[], []]
        for g in range(3):
            parts = m.hollywood.settle_parts(g, game_bonus=o.game_bonus, box_bonus=o.box_bonus, shutout=o.shutout)
            for i, seat in enumerate(parts):
                out[i].extend(seat)
        return out


class Three(TableGame):
    """Three-player Gin (section 2): the box plays the captain, the sitter watches; roles rotate."""

    name = "three"
    options: ThreeOptions

    def new_game(self, m: Match) -> None:
        super().new_game(m)
        box, captain = self.options.first_box, self.options.first_captain
        m.roles = (box, captain, 3 - box - captain)

    def active_seats(self, m: Match) -> tuple[int, ...]:
        if m.logs:  # the hand in play, or just over: the roles have already rotated for the next one
            return (m.hand_dealer, m.hand_nondealer)
        return (m.roles[0], m.roles[1])

    def cut_ties_by_suit(self) -> bool:
        return self.options.cut_ties == "suit_order"

    def after_cut(self, m: Match, order: tuple[int, ...], rounds: tuple[Any, ...]) -> tuple[Cut, dict[str, int]]:
        box, captain, sitter = order  # rule 2.1: highest in the box, then captain, then sitter
        m.roles = (box, captain, sitter)
        return Cut(rounds, order, box, m.roles), {"first_box": box, "first_captain": captain}

    def deal_seats(self, m: Match) -> tuple[int, int]:
        return m.roles[0], m.roles[1]  # rule 2.3: the box deals, the captain plays

    def next_hand(self, m: Match, result: HandResult, scorer: int | None) -> None:
        outcome = "void" if scorer is None else "box" if scorer == m.roles[0] else "team"
        m.roles = three_rotation(m.roles, outcome)  # rule 2.6
        m.game_over = max(m.totals) >= self.options.game_target

    def final_parts(self, m: Match) -> list[list[FinalPart]]:
        if self.options.end_bonuses:
            return super().final_parts(m)
        return [[FinalPart("hands", t)] for t in m.totals]

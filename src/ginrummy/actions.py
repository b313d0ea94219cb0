"""Actions: small immutable values with a string form (the record notation) and an integer id.

>>> a = Action.parse("knock 7h | 3h4h5h KcKdKs")
>>> a.kind, str(a.card), str(a)
('knock', '7h', 'knock 7h | 3h4h5h KcKdKs')
>>> Action.from_id(Action.parse("discard As").id)
Action('discard As')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Final

from .cards import CARDS, Card
from .errors import CardError, IllegalAction
from .i18n import _

__all__ = ["ACTIONS", "KINDS", "NUM_ACTIONS", "Action", "action_id"]

KINDS: Final = ("draw", "take", "pass", "discard", "knock", "gin", "layoff")
_CARD_KINDS: Final = ("discard", "knock", "gin", "layoff")
_CARD_TOKEN = re.compile(r"(10|[A2-9TJQK])([cdhs♣♦♥♠])", re.IGNORECASE)

# Integer ids, a fixed space for learning agents:
# 0 draw, 1 take, 2 pass, 3+c discard c, 55+c knock c, 107+c gin c, 159 gin (no discard),
# 160 knock (no discard), 161+c layoff c.
_BASE: Final = {"discard": 3, "knock": 55, "gin": 107, "layoff": 161}
NUM_ACTIONS: Final = 213

Meld = tuple[Card, ...]


def _real_card(card: object) -> Card:
    """``card`` as a :class:`Card` if it is one of the 52 real cards (an int 0..51 is accepted)."""
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return CARDS[card]
    raise IllegalAction(
        _("not a card to play: {card} (a real card such as {example})").format(
            card=repr(card), example="Card.parse('7h')"
        )
    )


def _check_melds(melds: object) -> tuple[Meld, ...]:
    """Declared melds as sorted tuples of real cards, each card named once (rule 0.8)."""
    if isinstance(melds, (str, bytes)) or not hasattr(melds, "__iter__"):
        raise IllegalAction(_("declared melds must be groups of cards, got {value}").format(value=repr(melds)))
    out: list[Meld] = []
    seen = 0
    for meld in melds:
        if isinstance(meld, (str, bytes)) or not hasattr(meld, "__iter__"):
            raise IllegalAction(_("a declared meld must be a group of cards, got {value}").format(value=repr(meld)))
        cards = tuple(sorted(_real_card(c) for c in meld))
        if not cards:
            raise IllegalAction(_("a declared meld is empty"))
        mask = 0
        for c in cards:
            if mask >> c & 1:
                raise IllegalAction(
                    _("{card} is named twice in the declared meld {meld}").format(card=c, meld="".join(map(str, cards)))
                )
            mask |= 1 << c
        if mask & seen:
            shared = CARDS[(mask & seen).bit_length() - 1]
            raise IllegalAction(
                _("{meld} shares a card ({card}) with another declared meld").format(
                    meld="".join(map(str, cards)), card=shared
                )
            )
        seen |= mask
        out.append(cards)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``card`` is the card discarded (or laid off); ``melds`` optionally fixes the
    arrangement a knocker spreads (rule 0.8)."""

    kind: str
    card: Card | None = None
    melds: tuple[Meld, ...] | None = None
    _id: int = field(default=-1, init=False, repr=False, compare=False)  # the integer id, -1 with melds

    def __post_init__(self) -> None:
        # An Action may be built by hand with any values: check each one, so that a bad one is
        # refused here and never reaches a state (issue 12: actions are atomic).
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise IllegalAction(
                _("unknown action {action}; actions are {actions}").format(
                    action=repr(self.kind), actions=", ".join(KINDS)
                )
            )
        if self.card is not None:
            object.__setattr__(self, "card", _real_card(self.card))
        if self.melds is not None:
            object.__setattr__(self, "melds", _check_melds(self.melds))
        if self.kind in ("discard", "layoff") and self.card is None:
            raise IllegalAction(
                _("{action} needs a card, e.g. {example}").format(action=self.kind, example=f"'{self.kind} 7h'")
            )
        if self.kind in ("draw", "take", "pass") and (self.card is not None or self.melds is not None):
            raise IllegalAction(_("{action} takes no card").format(action=self.kind))
        if self.melds is not None and self.kind not in ("knock", "gin"):
            raise IllegalAction(_("only {knock} and {gin} may name melds").format(knock="knock", gin="gin"))
        if self.melds is None:
            object.__setattr__(self, "_id", self._compute_id())

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the record notation: ``draw``, ``take``, ``pass``, ``discard 7h``, ``knock 7h``,
        ``knock 7h | 3h4h5h KcKdKs``, ``gin 7h``, ``gin``, ``layoff 8h``."""
        if not isinstance(text, str):
            raise IllegalAction(_("not an action: {text}").format(text=repr(text)))
        head, bar, melds_text = text.partition("|")
        words = head.split()
        if not words:
            raise IllegalAction(
                _("not an action: {text} (expected e.g. {example} or {other})").format(
                    text=repr(text), example="'draw'", other="'discard 7h'"
                )
            )
        kind = words[0].lower()
        if kind not in KINDS or len(words) > 2:
            raise IllegalAction(
                _("not an action: {text}; actions are {actions}").format(text=repr(text), actions=", ".join(KINDS))
            )
        try:
            card = Card.parse(words[1]) if len(words) == 2 else None
        except CardError as exc:
            raise IllegalAction(_("{error} in action {text}").format(error=exc, text=repr(text))) from None
        if card is not None and card.is_joker:
            raise IllegalAction(_("the joker cannot be played: {text}").format(text=repr(text)))
        melds = None
        if bar:
            melds = tuple(_parse_meld(tok, text) for tok in melds_text.split())
        return cls(kind, card, melds)

    @property
    def id(self) -> int:
        """The integer id 0..212 (see the table above); an action naming melds has none."""
        if self._id < 0:
            raise IllegalAction(_("an action naming melds has no integer id"))
        return self._id

    def _compute_id(self) -> int:
        if self.kind == "draw":
            return 0
        if self.kind == "take":
            return 1
        if self.kind == "pass":
            return 2
        if self.card is None:
            return 159 if self.kind == "gin" else 160
        return _BASE[self.kind] + int(self.card)

    @classmethod
    def from_id(cls, action_id: int) -> Action:
        if not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise IllegalAction(
                _("action id must be 0..{last}, got {value}").format(last=NUM_ACTIONS - 1, value=repr(action_id))
            )
        if action_id < 3:
            return cls(("draw", "take", "pass")[action_id])
        if action_id == 159:
            return cls("gin")
        if action_id == 160:
            return cls("knock")
        for kind in ("layoff", "gin", "knock", "discard"):
            if action_id >= _BASE[kind]:
                return cls(kind, CARDS[action_id - _BASE[kind]])
        raise AssertionError(action_id)  # pragma: no cover

    def __str__(self) -> str:
        s = self.kind if self.card is None else f"{self.kind} {self.card}"
        if self.melds is not None:
            s += " | " + " ".join("".join(str(c) for c in m) for m in self.melds)
        return s

    def __repr__(self) -> str:
        return f"Action('{self}')"


# Interned actions without melds, by id: the engine hands these out, so building legal-action lists
# allocates nothing and membership tests hit the identity fast path.
ACTIONS: Final[tuple[Action, ...]] = tuple(Action.from_id(i) for i in range(NUM_ACTIONS))
DRAW, TAKE, PASS = ACTIONS[0], ACTIONS[1], ACTIONS[2]
BIG_GIN, KNOCK_NO_DISCARD = ACTIONS[159], ACTIONS[160]
action_id: Final = attrgetter("_id")
"""``action_id(action) == action.id`` for an action without melds, at the cost of an attribute read."""
DISCARD: Final = ACTIONS[3:55]
KNOCK: Final = ACTIONS[55:107]
GIN: Final = ACTIONS[107:159]
LAYOFF: Final = ACTIONS[161:213]


def _parse_meld(token: str, text: str) -> Meld:
    cards = []
    pos = 0
    for m in _CARD_TOKEN.finditer(token):
        if m.start() != pos:
            break
        cards.append(Card.parse(m.group(0)))
        pos = m.end()
    if pos != len(token) or not cards:
        raise IllegalAction(
            _("not a meld: {token} in action {text} (write melds like {example})").format(
                token=repr(token), text=repr(text), example="3h4h5h"
            )
        )
    return tuple(sorted(cards))

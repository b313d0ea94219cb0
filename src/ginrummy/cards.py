"""Cards, card sets and decks.

A card is a small immutable value: an ``int`` from 0 to 51, suit-major (clubs 0-12, diamonds
13-25, hearts 26-38, spades 39-51; ace low inside a suit), or 52 for the joker.  Being an int keeps
it fast to hash, compare and pack into a 52-bit :class:`CardSet` mask, while ``str()`` gives the
record notation:

>>> c = Card.parse("10h")
>>> c, str(c), c.rank, c.suit.letter, c.value
(Card('Th'), 'Th', 10, 'h', 10)
>>> Card.parse("q♠").unicode()
'Q♠'
>>> Card.parse("Qd").spoken()
'Queen of diamonds'
>>> str(CardSet.parse("As 2s 3s"))
'As 2s 3s'

Decks come from an explicit order, from a seed (the documented, versioned shuffle
``ginrummy-shuffle/1`` below, reproducible anywhere), or from ``secrets``-quality randomness.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
import struct
from collections.abc import Iterable, Iterator
from typing import Final

from .errors import CardError
from .i18n import NP_, _, pgettext

__all__ = [
    "CARDS",
    "JOKER",
    "SHUFFLE_VERSION",
    "Card",
    "CardSet",
    "ShuffleStream",
    "Suit",
    "format_cards",
    "full_pack",
    "new_seed",
    "parse_cards",
    "shuffled",
]

RANK_CHARS: Final = "A23456789TJQK"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
# Alternative suit spellings accepted on input (the white variants and emoji-style presentation).
_SUIT_ALIASES: Final = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}  # fmt: skip


class Suit(enum.IntEnum):
    """The four suits in the engine's order (clubs, diamonds, hearts, spades)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


# The words of a card's spoken name (Card.spoken), marked for translation.
_R, _S = "rank, in a card's name", "suit, in a card's name"
_RANK_NAMES: Final = {
    "A": NP_("rank, in a card's name", "Ace"),
    "J": NP_("rank, in a card's name", "Jack"),
    "Q": NP_("rank, in a card's name", "Queen"),
    "K": NP_("rank, in a card's name", "King"),
}
_SUIT_NAMES: Final = (
    NP_("suit, in a card's name", "clubs"),
    NP_("suit, in a card's name", "diamonds"),
    NP_("suit, in a card's name", "hearts"),
    NP_("suit, in a card's name", "spades"),
)

_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


class Card(int):
    """An immutable playing card (0-51) or the joker (52).

    ``Card(n)`` checks the range; :meth:`parse` reads ``As``, ``Td``, ``10d``, ``7♥``, ``JK``
    in any case.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not isinstance(index, int) or not 0 <= index <= 52:
            raise CardError(_("card index must be 0..52, got {value}").format(value=repr(index)))
        return _CARDS[index] if _CARDS else super().__new__(cls, index)

    @classmethod
    def _make(cls, index: int) -> Card:
        return super().__new__(cls, index)

    @classmethod
    def from_rank_suit(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (1 = ace ... 13 = king) and ``suit`` (0-3)."""
        if not 1 <= rank <= 13 or not 0 <= suit <= 3:
            raise CardError(_("no card of rank {rank} and suit {suit}").format(rank=repr(rank), suit=repr(suit)))
        return _CARDS[suit * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card; raise :class:`CardError` naming the text if it is not a card."""
        if not isinstance(text, str):
            raise CardError(_("not a card: {text}").format(text=repr(text)))
        t = text.strip()
        if t.upper() in ("JK", "JOKER"):
            return _CARDS[52]
        if len(t) < 2:
            raise CardError(
                _("not a card: {text} (expected rank A23456789TJQK and suit cdhs, e.g. 'Th')").format(text=repr(text))
            )
        rank_text, suit_text = t[:-1].upper(), t[-1].lower()
        rank = 10 if rank_text == "10" else RANK_CHARS.find(rank_text) + 1 if len(rank_text) == 1 else 0
        suit = _SUIT_ALIASES.get(suit_text)
        if rank <= 0 or suit is None:
            raise CardError(
                _("not a card: {text} (expected rank A23456789TJQK and suit cdhs, e.g. 'Th')").format(text=repr(text))
            )
        return _CARDS[suit * 13 + rank - 1]

    @property
    def is_joker(self) -> bool:
        return self == 52

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king); 0 for the joker."""
        return 0 if self == 52 else self % 13 + 1

    @property
    def suit(self) -> Suit:
        if self == 52:
            raise CardError(_("the joker has no suit"))
        return Suit(self // 13)

    @property
    def value(self) -> int:
        """Deadwood points: ace 1, pips face value, court cards 10, joker 0 (rule 0.3)."""
        return 0 if self == 52 else _VALUES[self % 13]

    @property
    def bit(self) -> int:
        return 1 << int(self)

    def __str__(self) -> str:
        if self == 52:
            return "JK"
        return RANK_CHARS[self % 13] + SUIT_CHARS[self // 13]

    def unicode(self) -> str:
        """``A♠`` style; the joker is ``JK``. Parses back with :meth:`parse`."""
        if self == 52:
            return "JK"
        return RANK_CHARS[self % 13] + SUIT_SYMBOLS[self // 13]

    def spoken(self) -> str:
        """The card's name in words, in the current language, for screen readers and players:
        ``Queen of diamonds``, ``7 of hearts``, ``Joker``."""
        if self == 52:
            return pgettext("card's name", "Joker")
        rank = RANK_CHARS[self % 13]
        rank_word = pgettext(_R, _RANK_NAMES[rank]) if rank in _RANK_NAMES else str(self.rank)
        suit_word = pgettext(_S, _SUIT_NAMES[self // 13])
        return pgettext("card's name", "{rank} of {suit}").format(rank=rank_word, suit=suit_word)

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: tuple[Card, ...] = ()
_CARDS = tuple(Card._make(i) for i in range(53))
CARDS: Final[tuple[Card, ...]] = _CARDS[:52]
"""The 52 real cards in engine order."""
JOKER: Final[Card] = _CARDS[52]
FULL_MASK: Final = (1 << 52) - 1


def parse_cards(text: str | Iterable[str], *, allow_joker: bool = False, unique: bool = True) -> list[Card]:
    """Parse a whitespace- or comma-separated list of cards (or an iterable of card strings).

    Raises :class:`CardError` naming the first bad token, a duplicate, or a joker where none may be.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    out: list[Card] = []
    seen = 0
    for tok in tokens:
        card = tok if isinstance(tok, Card) else Card.parse(tok)
        if card == 52 and not allow_joker:
            raise CardError(_("the joker {text} cannot be in a hand").format(text=repr(tok)))
        if unique and seen >> card & 1:
            raise CardError(_("duplicate card {text}").format(text=repr(tok)))
        seen |= 1 << card
        out.append(card)
    return out


def format_cards(cards: Iterable[int], *, unicode: bool = False) -> str:
    return " ".join(_CARDS[c].unicode() if unicode else str(_CARDS[c]) for c in cards)


class CardSet(int):
    """An immutable set of real cards as a 52-bit mask (bit ``i`` = card ``i``).

    >>> s = CardSet.parse("Kd 2c")
    >>> list(s), len(s), Card.parse("2c") in s
    ([Card('2c'), Card('Kd')], 2, True)
    """

    __slots__ = ()

    def __new__(cls, mask: int = 0) -> CardSet:
        if not isinstance(mask, int) or mask < 0 or mask > FULL_MASK:
            raise CardError(_("not a 52-bit card mask: {value}").format(value=repr(mask)))
        return super().__new__(cls, mask)

    @classmethod
    def of(cls, cards: Iterable[int]) -> CardSet:
        m = 0
        for c in cards:
            if not 0 <= c < 52:
                raise CardError(_("not a real card: {value}").format(value=repr(c)))
            m |= 1 << c
        return cls(m)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return cls.of(parse_cards(text))

    def __iter__(self) -> Iterator[Card]:
        m = int(self)
        while m:
            low = m & -m
            yield _CARDS[low.bit_length() - 1]
            m ^= low

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(int(self) >> card & 1)

    # Set operators return a CardSet (the other operand: a CardSet, a mask or a Card's bit).
    def __or__(self, other: int) -> CardSet:
        """Union."""
        return CardSet(int(self) | int(other))

    __add__ = __or__  # ``a + b`` is the union too, never the sum of two masks

    def __and__(self, other: int) -> CardSet:
        """Intersection."""
        return CardSet(int(self) & int(other))

    __rand__ = __and__

    def __sub__(self, other: int) -> CardSet:
        """The cards of this set that are not in ``other``."""
        return CardSet(int(self) & ~int(other))

    def __xor__(self, other: int) -> CardSet:
        """The cards in exactly one of the two sets."""
        return CardSet(int(self) ^ int(other))

    def __invert__(self) -> CardSet:
        """The other cards of the pack."""
        return CardSet(FULL_MASK & ~int(self))

    @property
    def value(self) -> int:
        """Sum of the cards' deadwood values."""
        return sum(c.value for c in self)

    def __str__(self) -> str:
        return format_cards(self)

    def unicode(self) -> str:
        return format_cards(self, unicode=True)

    def __repr__(self) -> str:
        return f"CardSet.parse('{self}')"


def full_pack(*, joker: bool = False) -> list[Card]:
    """The pack in engine order (clubs A-K, diamonds, hearts, spades), then the joker if asked."""
    return list(_CARDS if joker else CARDS)


# --- The shuffle -------------------------------------------------------------------------------
SHUFFLE_VERSION: Final = "ginrummy-shuffle/1"
_TWO64: Final = 1 << 64
_LIMITS: Final = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(64))  # below(n)'s bound, n < 64
_BLOCK_WORDS: Final = struct.Struct(">4Q").unpack  # a block's four big-endian 64-bit words


class ShuffleStream:
    """The documented random stream behind seeded deals (``ginrummy-shuffle/1``).

    The seed is an integer 0 <= seed < 2**256, taken as 32 big-endian bytes ``S``.  Block ``k``
    (k = 0, 1, ...) is ``SHA-256(S || k as 8 big-endian bytes)``; the blocks are read as a stream
    of 64-bit big-endian words.  ``below(n)`` takes words until one is under the largest multiple
    of ``n`` that fits in 64 bits and returns it modulo ``n`` (no bias).  ``shuffle`` is
    Fisher-Yates from the last position down: for i = len-1 ... 1, swap position i with
    ``below(i + 1)``.  Anyone can re-implement this in a few lines to check a deal.
    """

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 256:
            raise CardError(
                _("a deal seed must be an integer from 0 to 2**256-1, got {value}").format(value=repr(seed))
            )
        self._seed = seed.to_bytes(32, "big")
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def _refill(self) -> None:
        """The next block's four words, kept last word first (they are popped from the end)."""
        digest = hashlib.sha256(self._seed + self._block.to_bytes(8, "big")).digest()
        self._block += 1
        self._words = list(_BLOCK_WORDS(digest)[::-1])

    def below(self, n: int) -> int:
        limit = _TWO64 - _TWO64 % n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def shuffle(self, items: list[Card]) -> list[Card]:
        """Shuffle ``items`` in place and return it (:meth:`below` for each position, inlined:
        the seeded deal's hot path)."""
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < 64 else _TWO64 - _TWO64 % n
            while True:
                if not self._words:
                    self._refill()
                w = self._words.pop()
                if w < limit:
                    break
            j = w % n
            items[i], items[j] = items[j], items[i]
        return items


def shuffled(seed: int, *, joker: bool = False) -> list[Card]:
    """The pack (engine order, joker last if asked) shuffled by ``ginrummy-shuffle/1``, top first.

    >>> format_cards(shuffled(42)[:5])
    'Jc Jd 8d 3c Qc'
    """
    return ShuffleStream(seed).shuffle(full_pack(joker=joker))


def new_seed() -> int:
    """A fresh 256-bit deal seed from the operating system's secure random source."""
    return secrets.randbits(256)

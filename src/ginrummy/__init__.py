"""ginrummy: the Gin Rummy family (classic, Oklahoma, Hollywood, three-player, and two solitaires)."""

from .cards import CARDS, JOKER, Card, CardSet, Suit, parse_cards
from .errors import CardError, GinRummyError, IllegalAction, OptionError, RecordError, StoreError
from .melds import Arrangement, best_arrangement, best_defense, best_discards, min_deadwood

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "JOKER",
    "Arrangement",
    "Card",
    "CardError",
    "CardSet",
    "GinRummyError",
    "IllegalAction",
    "OptionError",
    "RecordError",
    "StoreError",
    "Suit",
    "best_arrangement",
    "best_defense",
    "best_discards",
    "min_deadwood",
    "parse_cards",
]

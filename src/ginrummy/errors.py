"""One exception family for everything ginrummy rejects.

Every message names the bad value and, where it helps, what would have been valid.
"""

from __future__ import annotations


class GinRummyError(Exception):
    """Base class of every error ginrummy raises on purpose."""


class CardError(GinRummyError, ValueError):
    """A string that is not a card, a duplicate card, or a joker where none may be."""


class OptionError(GinRummyError, ValueError):
    """An unknown variant option or a bad option value."""


class IllegalAction(GinRummyError, ValueError):
    """An action that is not legal in the current state; the state is left untouched."""


class RecordError(GinRummyError, ValueError):
    """A game record that cannot be read or replayed."""


class StoreError(GinRummyError):
    """A saved-games database that cannot be used (corrupt, foreign or unwritable)."""

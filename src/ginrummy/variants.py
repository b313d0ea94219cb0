"""The registry of variants: each variant's fixed facts, in one place (rule book sections 1-4).

Code outside the rules asks the registry instead of testing a variant's name:

>>> v = find_variant("three")
>>> v.seats, v.solo, v.roles, v.default_target
(3, False, True, 100)
>>> [v.name for v in VARIANTS if v.solo]
['solitaire', 'gin-solitaire']
>>> find_variant("oklahoma").default_target
150
>>> find_variant("canasta")
Traceback (most recent call last):
...
ginrummy.errors.OptionError: unknown variant 'canasta'; choose one of classic, oklahoma, ...gin-solitaire

The rules themselves (deal, legal actions, scoring, settlement) are each variant's class in
:mod:`ginrummy.rules`, which holds its variant's facts from here; this module holds only the
facts that front ends, environments and tools need, so that they read them instead of restating
them.  It imports nothing above :mod:`ginrummy.options`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .errors import OptionError
from .i18n import N_, _
from .options import GinSolitaireOptions, SolitaireOptions, TableOptions, ThreeOptions, options_for, show

__all__ = ["VARIANTS", "Variant", "find_variant", "seats_of", "solo_variants", "table_variants", "variant_names"]


@dataclass(frozen=True)
class Variant:
    """One variant's fixed facts.  Compare variants by these facts, never by :attr:`name`."""

    name: str
    """The name used everywhere: options, records, the command line, the web protocol."""
    title: str
    """A one-line English title for menus and headings (marked for translation: shown through
    ``words.variant_title``)."""
    short_title: str
    """The title in two or three words, for buttons and tight headings."""
    seats: int
    """Seats of a new :class:`~ginrummy.engine.State` (a solitaire has two: the player and the Joker)."""
    solo: bool
    """One person plays against the Joker (the stock), not against other players."""
    table: bool
    """Offered as a table for several people at once (the web's shared tables)."""
    options_class: type[TableOptions | ThreeOptions | SolitaireOptions | GinSolitaireOptions]
    """The frozen options class of :func:`ginrummy.options.options_for` for this variant."""
    target_option: str = "game_target"
    """The option that holds the points that end the game (Hollywood: each of its three games)."""
    roles: bool = False
    """Box, captain and sitter rotate each hand (three-player Gin, rule book section 2)."""
    upcard_sets_limit: bool = False
    """The first upcard sets the knock limit, and a spade upcard may double (Oklahoma, 1b)."""
    three_games: bool = False
    """Scored as three games at once on one sheet (Hollywood, 1c)."""
    joker: Literal["none", "in_pack", "after_deal"] = "none"
    """Where the Joker is: none; shuffled into a 53-card pack (solitaire, rule 3.1); or shuffled
    into the 41 cards left after eleven are dealt (Gin Solitaire, rule 4.1)."""
    dealt: int = 10
    """Cards dealt to each hand (Gin Solitaire deals eleven, rule 4.1)."""
    rule_sections: tuple[str, ...] = ("0", "1")
    """The numbered sections of the rule book (docs/rules.md) that are this variant's rules, besides
    its options table (section 5): what the apps show as its rules."""

    @property
    def default_target(self) -> int:
        """The default points that end the game, read from the options' defaults."""
        return int(getattr(options_for(self.name), self.target_option))

    def target(self, options: object) -> int:
        """The points that end the game under ``options`` (an options object of this variant)."""
        return int(getattr(options, self.target_option))

    def __str__(self) -> str:
        return self.name


VARIANTS: Final[tuple[Variant, ...]] = (
    Variant("classic", N_("Classic Gin Rummy (two players)"), N_("Classic gin"), 2, False, True, TableOptions),
    Variant(
        "oklahoma",
        N_("Oklahoma Gin (the upcard sets the knock limit)"),
        N_("Oklahoma gin"),
        2,
        False,
        False,
        TableOptions,
        upcard_sets_limit=True,
        rule_sections=("0", "1", "1b"),
    ),
    Variant(
        "hollywood",
        N_("Hollywood Gin (three games scored at once)"),
        N_("Hollywood gin"),
        2,
        False,
        False,
        TableOptions,
        target_option="hollywood_target",
        three_games=True,
        rule_sections=("0", "1", "1c"),
    ),
    Variant(
        "three",
        N_("Three-player Gin (box, captain and sitter)"),
        N_("Three-player gin"),
        3,
        False,
        True,
        ThreeOptions,
        roles=True,
        rule_sections=("0", "1", "2"),
    ),
    Variant(
        "solitaire",
        N_("Solitaire Gin Rummy against the Joker (Games Magazine)"),
        N_("Solitaire gin"),
        2,
        True,
        False,
        SolitaireOptions,
        joker="in_pack",
        rule_sections=("0", "3"),
    ),
    Variant(
        "gin-solitaire",
        N_("Gin Solitaire against the Joker (eleven dealt)"),
        N_("Gin Solitaire"),
        2,
        True,
        False,
        GinSolitaireOptions,
        joker="after_deal",
        dealt=11,
        rule_sections=("0", "3", "4"),
    ),
)
"""Every variant, in the order menus and help list them."""

_BY_NAME: Final[dict[str, Variant]] = {v.name: v for v in VARIANTS}


def find_variant(name: object) -> Variant:
    """The variant called ``name``; an unknown name raises :class:`OptionError` naming the known ones."""
    if not isinstance(name, str) or name not in _BY_NAME:
        raise OptionError(
            _("unknown variant {variant}; choose one of {variants}").format(
                variant=show(name), variants=", ".join(_BY_NAME)
            )
        )
    return _BY_NAME[name]


def variant_names() -> tuple[str, ...]:
    """The names of every variant, in registry order."""
    return tuple(_BY_NAME)


def solo_variants() -> tuple[str, ...]:
    """The names of the solitaires (one person against the Joker)."""
    return tuple(v.name for v in VARIANTS if v.solo)


def table_variants() -> tuple[str, ...]:
    """The names of the games played by several players (not solo)."""
    return tuple(v.name for v in VARIANTS if not v.solo)


def seats_of(name: str) -> int:
    """Seats of a new state of variant ``name`` (raises :class:`OptionError` for an unknown name)."""
    return find_variant(name).seats

"""Each variant's options: typed, documented, validated (rule book section 5).

>>> opts = options_for("oklahoma", {"spades_double": False})
>>> opts.game_target, opts.spades_double
(150, False)
>>> options_for("classic", {"gin_bonus": "lots"})
Traceback (most recent call last):
...
ginrummy.errors.OptionError: option gin_bonus of classic must be an integer, got 'lots'
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args, get_type_hints

from .errors import OptionError
from .i18n import _, ngettext

__all__ = [
    "PRESETS",
    "VARIANTS",
    "GinSolitaireOptions",
    "Options",
    "SolitaireOptions",
    "TableOptions",
    "ThreeOptions",
    "option_help",
    "options_for",
    "show",
]

VARIANTS: tuple[str, ...] = ("classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class _Base:
    def to_dict(self, *, only_changed: bool = False, variant: str | None = None) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if only_changed and variant is not None:
            default = options_for(variant)
            out = {k: v for k, v in out.items() if getattr(default, k) != v}
        return out


@dataclass(frozen=True)
class TableOptions(_Base):
    """Two-player Gin Rummy: ``classic``, ``oklahoma`` and ``hollywood`` (rule book section 1)."""

    knock_limit: int = field(default=10, metadata=_doc("most deadwood a knock may leave (Oklahoma: the upcard)"))
    gin_bonus: int = field(default=25, metadata=_doc("bonus for going gin (classic preset: 20)"))
    undercut_bonus: int = field(default=25, metadata=_doc("bonus to the defender on an undercut (classic: 10)"))
    undercut_on_tie: bool = field(default=True, metadata=_doc("equal deadwood counts as an undercut"))
    big_gin: bool = field(default=False, metadata=_doc("allow going out with all 11 cards melded"))
    big_gin_bonus: int = field(default=31, metadata=_doc("bonus for big gin"))
    layoffs: bool = field(default=True, metadata=_doc("the defender may lay off on the knocker's melds"))
    next_dealer: Literal["winner", "loser", "alternate"] = field(
        default="winner", metadata=_doc("who deals the next hand")
    )
    wall_cards: int = field(default=2, metadata=_doc("the hand is void when this many stock cards remain"))
    game_target: int = field(default=100, metadata=_doc("points that end the game (Oklahoma: 150)"))
    game_bonus: int = field(default=100, metadata=_doc("bonus to the game's winner"))
    box_bonus: int = field(default=25, metadata=_doc("bonus per hand won, at the end of the game (classic: 20)"))
    shutout: Literal["double_game_bonus", "double_total", "none"] = field(
        default="double_game_bonus", metadata=_doc("what a shutout (loser never scored) is worth")
    )
    discard_drawn_upcard_allowed: bool = field(
        default=False, metadata=_doc("a card taken from the discard pile may be discarded at once")
    )
    oklahoma_ace: Literal["gin_only", "one"] = field(
        default="gin_only", metadata=_doc("Oklahoma: an ace upcard means gin only, or a knock limit of 1")
    )
    spades_double: bool = field(default=False, metadata=_doc("Oklahoma: a spade upcard doubles the hand's score"))
    spades_double_boxes: bool = field(
        default=False, metadata=_doc("Oklahoma: a hand won on a doubled (spade) upcard counts two boxes")
    )
    hollywood_target: int = field(default=100, metadata=_doc("Hollywood: points that close each of the three games"))
    knocker_arrangement: Literal["auto", "choose"] = field(
        default="auto",
        metadata=_doc("front ends: auto spreads an optimal arrangement; choose lets a person declare one"),
    )
    first_dealer: int = field(default=0, metadata=_doc("the seat that deals the first hand (set by State.cut)"))


@dataclass(frozen=True)
class ThreeOptions(_Base):
    """Three-player Gin: box, captain and sitter (rule book section 2)."""

    knock_limit: int = field(default=10, metadata=_doc("most deadwood a knock may leave"))
    gin_bonus: int = field(default=25, metadata=_doc("bonus for going gin (some sources: 20)"))
    undercut_bonus: int = field(default=10, metadata=_doc("bonus on an undercut"))
    undercut_on_tie: bool = field(default=True, metadata=_doc("equal deadwood counts as an undercut"))
    big_gin: bool = field(default=False, metadata=_doc("allow going out with all 11 cards melded"))
    big_gin_bonus: int = field(default=31, metadata=_doc("bonus for big gin"))
    layoffs: bool = field(default=True, metadata=_doc("the defender may lay off on the knocker's melds"))
    wall_cards: int = field(default=2, metadata=_doc("the hand is void when this many stock cards remain"))
    game_target: int = field(default=100, metadata=_doc("points that win the game"))
    discard_drawn_upcard_allowed: bool = field(
        default=False, metadata=_doc("a card taken from the discard pile may be discarded at once")
    )
    cut_ties: Literal["recut", "suit_order"] = field(
        default="recut", metadata=_doc("how tied cuts for roles resolve (State.cut)")
    )
    end_bonuses: bool = field(default=False, metadata=_doc("apply the two-player game, box and shutout bonuses"))
    game_bonus: int = field(default=100, metadata=_doc("with end_bonuses: bonus to the winner"))
    box_bonus: int = field(default=25, metadata=_doc("with end_bonuses: bonus per hand won"))
    shutout: Literal["double_game_bonus", "double_total", "none"] = field(
        default="double_game_bonus", metadata=_doc("with end_bonuses: what a shutout is worth")
    )
    knocker_arrangement: Literal["auto", "choose"] = field(
        default="auto",
        metadata=_doc("front ends: auto spreads an optimal arrangement; choose lets a person declare one"),
    )
    first_box: int = field(default=0, metadata=_doc("the seat in the box for the first hand (set by State.cut)"))
    first_captain: int = field(default=1, metadata=_doc("the first hand's captain; the third seat sits (State.cut)"))


@dataclass(frozen=True)
class SolitaireOptions(_Base):
    """Solitaire Gin Rummy against the Joker, Games Magazine 1998 (rule book section 3)."""

    scoring: Literal["knock", "basic", "none"] = field(
        default="knock", metadata=_doc("none: gin wins, joker loses; basic: count to the joker; knock: full rules")
    )
    knock_limit: int = field(default=10, metadata=_doc("most deadwood a knock may leave (knock scoring)"))
    gin_bonus: int = field(default=25, metadata=_doc("bonus for gin (knock scoring)"))
    undercut_bonus: int = field(default=25, metadata=_doc("the Joker's bonus on an undercut"))
    undercut_on_tie: bool = field(default=False, metadata=_doc("equal counts are an undercut (source: nobody scores)"))
    big_gin: bool = field(default=False, metadata=_doc("allow going out with all 11 cards melded"))
    big_gin_bonus: int = field(default=31, metadata=_doc("bonus for big gin"))
    joker_in_deal: Literal["redeal", "lose"] = field(
        default="redeal", metadata=_doc("a joker dealt in the ten: redeal, or the hand is lost")
    )
    count_includes_joker: bool = field(default=False, metadata=_doc("the joker itself counts when counting down"))
    end_before_first_draw: bool = field(default=False, metadata=_doc("the dealt ten may be declared before drawing"))
    game_target: int = field(default=100, metadata=_doc("points that end the game"))


@dataclass(frozen=True)
class GinSolitaireOptions(_Base):
    """Gin Solitaire: eleven dealt, face-down discards (rule book section 4)."""

    knock_limit: int = field(default=10, metadata=_doc("most deadwood that may end the round"))
    gin_bonus: int = field(default=25, metadata=_doc("bonus for gin"))
    undercut_bonus: int = field(default=25, metadata=_doc("the Joker's bonus on an undercut"))
    undercut_on_tie: bool = field(default=False, metadata=_doc("equal counts are an undercut"))
    big_gin: bool = field(default=True, metadata=_doc("allow going out with all 11 cards melded after a draw"))
    big_gin_bonus: int = field(default=31, metadata=_doc("bonus for big gin (alternative: 25)"))
    count_includes_joker: bool = field(default=False, metadata=_doc("the joker itself counts when counting down"))
    end_after_opening_discard: bool = field(
        default=False, metadata=_doc("the round may end right after the opening discard")
    )
    game_target: int = field(default=100, metadata=_doc("points that end the game"))


Options = TableOptions | ThreeOptions | SolitaireOptions | GinSolitaireOptions

_CLASSES: dict[str, type[_Base]] = {
    "classic": TableOptions,
    "oklahoma": TableOptions,
    "hollywood": TableOptions,
    "three": ThreeOptions,
    "solitaire": SolitaireOptions,
    "gin-solitaire": GinSolitaireOptions,
}
# Defaults that differ by variant (rule book 1b.3, 1b.4).
_VARIANT_DEFAULTS: dict[str, dict[str, Any]] = {"oklahoma": {"spades_double": True, "game_target": 150}}

# The two-player games share one options class; these names mean nothing in the variant named,
# so they are refused there like any unknown option (rules 1b.1, 1c.1, 1c.4).
_NOT_IN: dict[str, frozenset[str]] = {
    "classic": frozenset({"oklahoma_ace", "spades_double", "spades_double_boxes", "hollywood_target"}),
    "oklahoma": frozenset({"knock_limit", "hollywood_target"}),
    "hollywood": frozenset({"oklahoma_ace", "spades_double", "spades_double_boxes", "game_target"}),
}

PRESETS: dict[str, dict[str, Any]] = {
    "modern": {},
    "classic": {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20},
}
"""Rule 1.11: named sets of option values for the two-player games (``preset`` option)."""

_RANGES: dict[str, tuple[int, int]] = {
    "knock_limit": (0, 99),
    "gin_bonus": (0, 1000),
    "undercut_bonus": (0, 1000),
    "big_gin_bonus": (0, 1000),
    "wall_cards": (0, 20),
    "first_dealer": (0, 1),
    "first_box": (0, 2),
    "first_captain": (0, 2),
    "game_target": (1, 100000),
    "game_bonus": (0, 100000),
    "box_bonus": (0, 10000),
    "hollywood_target": (1, 100000),
}


def options_for(variant: str, given: Mapping[str, Any] | Options | None = None) -> Options:
    """The validated options of ``variant``: defaults, then ``given`` (a mapping or an options
    object).  Anything wrong (an unknown variant or name, a bad value, ``given`` not a mapping)
    raises :class:`OptionError`, one line naming the option; never a bare ValueError or TypeError."""
    if not isinstance(variant, str) or variant not in _CLASSES:
        raise OptionError(
            _("unknown variant {variant}; choose one of {variants}").format(
                variant=show(variant), variants=", ".join(VARIANTS)
            )
        )
    cls = _CLASSES[variant]
    if isinstance(given, _Base):
        if not isinstance(given, cls):
            raise OptionError(
                _("{kind} are not options of {variant}").format(kind=type(given).__name__, variant=variant)
            )
        given = {k: v for k, v in dataclasses.asdict(given).items() if k not in _NOT_IN.get(variant, frozenset())}
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise OptionError(
            _("the options of {variant} must be a mapping of names to values, got {value}").format(
                variant=variant, value=show(given)
            )
        )
    values: dict[str, Any] = dict(_VARIANT_DEFAULTS.get(variant, {}))
    given = dict(given)
    preset = given.pop("preset", None)
    if preset is not None:
        if variant not in ("classic", "oklahoma", "hollywood") or not isinstance(preset, str) or preset not in PRESETS:
            raise OptionError(
                _("unknown preset {preset} for {variant}; choose one of {presets}").format(
                    preset=show(preset), variant=variant, presets=", ".join(PRESETS)
                )
            )
        values.update(PRESETS[preset])
    hints = _hints(cls)
    names = set(hints) - _NOT_IN.get(variant, frozenset())
    for name, value in given.items():
        if not isinstance(name, str) or name not in names:
            raise OptionError(
                _("unknown option {option} for {variant}; options are {options}").format(
                    option=show(name), variant=variant, options=", ".join(sorted(names))
                )
            )
        values[name] = _check(variant, name, hints[name], value)
    if cls is ThreeOptions and values.get("first_box", 0) == values.get("first_captain", 1):
        raise OptionError(
            _("options {first_box} and {first_captain} of {variant} must name two different seats").format(
                first_box="first_box", first_captain="first_captain", variant="three"
            )
        )
    return cls(**values)  # type: ignore[return-value]


def show(value: object, limit: int = 40) -> str:
    """A short, one-line, always printable ``repr`` of a value a user gave (for error messages):
    long texts are cut, huge integers are described, and nothing this does can raise."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        n = int(value.bit_length() * 0.30103) + 1
        return ngettext("an integer of about {n} digit", "an integer of about {n} digits", n).format(n=n)
    try:
        text = repr(value)
    except Exception:  # a repr that fails (too deep, or broken): name the type instead
        return _("a {kind}").format(kind=type(value).__name__)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_INT_TEXT = re.compile(r"\s*[+-]?[0-9]+\s*")


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The fields' resolved types, computed once per class (get_type_hints is slow)."""
    if cls not in _HINTS:
        names = {f.name for f in fields(cls)}
        _HINTS[cls] = {name: hint for name, hint in get_type_hints(cls).items() if name in names}
    return _HINTS[cls]


def _check(variant: str, name: str, hint: Any, value: Any) -> Any:
    choices = get_args(hint)
    if choices and all(isinstance(c, str) for c in choices):
        if not isinstance(value, str) or value not in choices:
            raise OptionError(
                _("option {option} of {variant} must be one of {choices}, got {value}").format(
                    option=name, variant=variant, choices=", ".join(choices), value=show(value)
                )
            )
        return value
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on", "off", "1", "0"):
            return value.lower() in ("true", "yes", "on", "1")
        raise OptionError(
            _("option {option} of {variant} must be true or false, got {value}").format(
                option=name, variant=variant, value=show(value)
            )
        )
    if hint is int:
        lo, hi = _RANGES.get(name, (0, 1000))
        if isinstance(value, str) and _INT_TEXT.fullmatch(value):
            digits = value.strip().lstrip("+-").lstrip("0")
            if len(digits) > 12:  # far out of every range: no need to read it (nor to hit int's limits)
                raise OptionError(_range_error(variant, name, lo, hi, value))
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise OptionError(
                _("option {option} of {variant} must be an integer, got {value}").format(
                    option=name, variant=variant, value=show(value)
                )
            )
        if not lo <= value <= hi:
            raise OptionError(_range_error(variant, name, lo, hi, value))
        return int(value)
    raise OptionError(
        _("option {option} of {variant} cannot be set").format(option=name, variant=variant)
    )  # pragma: no cover


def _range_error(variant: str, name: str, lo: int, hi: int, value: object) -> str:
    return _("option {option} of {variant} must be from {low} to {high}, got {value}").format(
        option=name, variant=variant, low=lo, high=hi, value=show(value)
    )


def option_help(variant: str) -> list[tuple[str, Any, str, tuple[Any, ...]]]:
    """(name, default, one-line explanation, allowed values or ()) for each option of ``variant``."""
    default = options_for(variant)
    hints = get_type_hints(type(default))
    out = []
    for f in fields(default):
        if f.name in _NOT_IN.get(variant, frozenset()):
            continue
        hint = hints[f.name]
        allowed: tuple[Any, ...] = get_args(hint) if get_args(hint) else ((True, False) if hint is bool else ())
        out.append((f.name, getattr(default, f.name), str(f.metadata.get("doc", "")), allowed))
    return out

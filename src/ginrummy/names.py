"""Players' names: one place that decides what a name may be, for every front end.

A name is shown to other people (the browser's seats, the terminal's score sheet, records), so it
must read as what it is:

- normalised to NFC (a name typed with combining accents equals the same name typed composed),
  surrounding spaces removed and runs of white space made one space;
- no control, format (right-to-left overrides, zero-width and other invisible characters),
  surrogate, private-use, unassigned or line/paragraph-separator characters;
- from 1 to :data:`MAX_NAME_LENGTH` characters;
- not the app's own marker ``(you)``, and at one table distinct from the other seats' names
  (compared case-blind and after NFKC, so ``Ann`` and ``ＡＮＮ`` are the same name).

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("Ann\\u202eeve")
Traceback (most recent call last):
...
ginrummy.names.BadName: a name may not contain U+202E (an invisible or formatting character)
>>> distinct_name("ann", ["Ann", "Bob"], seat=1)
Traceback (most recent call last):
...
ginrummy.names.BadName: the name 'ann' is taken at this table: choose another
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .errors import GinRummyError
from .i18n import N_, _, ngettext

__all__ = ["MAX_NAME_LENGTH", "BadName", "clean_name", "distinct_name", "name_key", "safe_display_name"]

MAX_NAME_LENGTH = 24

# Unicode general categories a name may not contain: control, format (bidi overrides, zero-width
# joiners, soft hyphens...), surrogates, private use, unassigned, line and paragraph separators.
_REFUSED = {"Cc": N_("a control character"), "Cf": N_("an invisible or formatting character")}
_REFUSED.update(
    {"Cs": N_("a lone surrogate"), "Co": N_("a private-use character"), "Cn": N_("an unassigned character")}
)
_REFUSED.update({"Zl": N_("a line separator"), "Zp": N_("a paragraph separator")})
# Characters that draw nothing although Unicode files them as letters or marks.
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}
_YOU = re.compile(r"\(\s*you\s*\)", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


class BadName(GinRummyError, ValueError):
    """A name that may not be used; the message says why in one line."""


def clean_name(text: str, *, max_length: int = MAX_NAME_LENGTH) -> str:
    """``text`` as a name (normalised), or :class:`BadName` saying what is wrong with it."""
    if not isinstance(text, str):
        raise BadName(_("a name must be text"))
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:  # before normalising: NFC would keep it, encoders choke on it
            raise BadName(
                _("a name may not contain {code} ({what})").format(code=f"U+{ord(ch):04X}", what=_("a lone surrogate"))
            )
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()
    if not name:
        raise BadName(_("a name must have at least one visible character"))
    for ch in name:
        category = unicodedata.category(ch)
        what = _REFUSED.get(category) or (N_("an invisible character") if ch in _INVISIBLE else None)
        if what is not None:
            raise BadName(_("a name may not contain {code} ({what})").format(code=f"U+{ord(ch):04X}", what=_(what)))
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise BadName(_("a name must have at least one visible character"))
    if unicodedata.category(name[0]).startswith("M"):
        raise BadName(_("a name may not begin with a combining mark"))
    if len(name) > max_length:
        raise BadName(
            ngettext(
                "a name may have at most {most} characters, this one has {n}",
                "a name may have at most {most} characters, this one has {n}",
                len(name),
            ).format(most=max_length, n=len(name))
        )
    if _YOU.search(name):
        raise BadName(_("a name may not contain {mark}: the app marks your own seat with it").format(mark="'(you)'"))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded, spaces removed."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


def distinct_name(name: str, names: Sequence[str], seat: int) -> str:
    """``name`` (already clean) for ``seat`` if no other seat of ``names`` has the same name."""
    key = name_key(name)
    for i, other in enumerate(names):
        if i != seat and name_key(other) == key:
            raise BadName(_("the name {name} is taken at this table: choose another").format(name=repr(name)))
    return name


def safe_display_name(text: object, fallback: str = "Player") -> str:
    """A stored name made safe to show and to encode (names saved before these rules, or edited by
    hand): refused characters become U+FFFD, the length is cut.  Never raises."""
    if not isinstance(text, str):
        return fallback
    try:
        return clean_name(text)
    except BadName:
        pass
    chars = []
    for ch in text:
        bad = 0xD800 <= ord(ch) <= 0xDFFF or unicodedata.category(ch) in _REFUSED or ch in _INVISIBLE
        chars.append("\ufffd" if bad else ch)
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", "".join(chars))).strip()
    name = _YOU.sub("(…)", name)[:MAX_NAME_LENGTH]
    return name or fallback

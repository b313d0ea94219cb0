"""The computer players' reasons and the hints' explanations, kept as data until someone reads them.

An agent does not word its reasons: it returns a :class:`Message` (a catalog message, the English
``msgid``, with its named values: cards in notation, numbers already formatted, other messages)
or a :class:`Joined` list of them, and :func:`ginrummy.words.reason_text` words it for one viewer
in that viewer's language.  The move log, saved games and the web's worker processes keep and
carry reasons as such (:func:`to_json`, :func:`from_json`), so every viewer at a table reads the
same reason in their own language and a resumed game words its old reasons in today's language.
A plain string (the reasons of a game saved before reasons were data, or of an agent that words
its own) is shown as it is.

The messages are marked for Babel's extraction by the names it looks for (``babel.cfg``):
:func:`N_` for a message, :func:`NP_` for one in a context, :func:`ngettext` for one that counts;
:func:`message` is :func:`N_` for a message chosen at run time (already marked elsewhere).  A move
named in a reason is :func:`move` (``Discard 7h`` in English, in each reader's words).

>>> r = N_("Take {card}: {note}.", card="7h", note=N_("deadwood {deadwood}", deadwood=4))
>>> from_json(to_json(r)) == r
True
>>> to_json(r)["values"]["note"]
{'msg': 'deadwood {deadwood}', 'values': {'deadwood': 4}}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from ..actions import Action

__all__ = [
    "NP_",
    "N_",
    "Joined",
    "Message",
    "Reason",
    "Value",
    "from_json",
    "joined",
    "message",
    "move",
    "move_in_sentence",
    "ngettext",
    "to_json",
]

MAX_DEPTH = 8
"""How deep a reason read back from a save may nest (the agents' go three deep)."""


@dataclass(frozen=True)
class Message:
    """A sentence not yet worded: the catalog message ``text`` (its English msgid; with ``plural``,
    the two English forms of a message counting ``count`` things) and its named ``values``."""

    text: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str | None = None
    count: int = 1
    context: str | None = None  # pgettext's context


@dataclass(frozen=True)
class Joined:
    """Reasons listed one after the other: ``separator`` and ``end`` are catalog messages too
    (``"; "``, ``"."``), so that a language may list clauses its own way."""

    separator: str
    parts: tuple[Value, ...]
    end: str = ""


Reason: TypeAlias = Message | Joined
Value: TypeAlias = "str | int | Message | Joined"
"""A value in a message: text that is not translated (card notation, a number formatted as it is
shown), a number, or another reason."""


def _value(v: object) -> Value:
    if type(v) is int or isinstance(v, (Message, Joined)):
        return v
    return str(v)  # a Card (an int too): its notation; text as it is


def message(text: str, /, **values: object) -> Message:
    """The message ``text`` with its named values (a card is kept as its notation)."""
    # (Plain text and numbers as they are without a call: the decisions' hot path.)
    return Message(
        text,
        tuple([(k, v if (t := type(v)) is str or t is int else _value(v)) for k, v in values.items()]),  # type: ignore[misc]
    )


N_ = message
"""Marks ``text`` for the catalogs (as :func:`ginrummy.i18n.N_` does) and keeps it with its values."""


def NP_(context: str, text: str, /, **values: object) -> Message:
    """The message ``text`` in ``context`` (looked up with pgettext when worded)."""
    return Message(text, tuple((k, _value(v)) for k, v in values.items()), context=context)


# The moves' names in the reader's words, in two contexts (at the head of a reason, inside a
# sentence): for each kind, its message with a card and without one (None: that form is the
# notation).  Literal texts, so that Babel's extractor finds each with its context.
_MOVES_AT_HEAD: dict[str, tuple[Message | None, Message | None]] = {
    "draw": (None, NP_("a move, at the head of a reason", "Draw")),
    "take": (None, NP_("a move, at the head of a reason", "Take")),
    "pass": (None, NP_("a move, at the head of a reason", "Pass")),
    "discard": (NP_("a move, at the head of a reason", "Discard {card}"), None),
    "knock": (NP_("a move, at the head of a reason", "Knock {card}"), NP_("a move, at the head of a reason", "Knock")),
    "gin": (NP_("a move, at the head of a reason", "Gin {card}"), NP_("a move, at the head of a reason", "Gin")),
    "layoff": (NP_("a move, at the head of a reason", "Lay off {card}"), None),
}
_MOVES_IN_SENTENCE: dict[str, tuple[Message | None, Message | None]] = {
    "draw": (None, NP_("a move, inside a sentence", "draw")),
    "take": (None, NP_("a move, inside a sentence", "take")),
    "pass": (None, NP_("a move, inside a sentence", "pass")),
    "discard": (NP_("a move, inside a sentence", "discard {card}"), None),
    "knock": (NP_("a move, inside a sentence", "knock {card}"), NP_("a move, inside a sentence", "knock")),
    "gin": (NP_("a move, inside a sentence", "gin {card}"), NP_("a move, inside a sentence", "gin")),
    "layoff": (NP_("a move, inside a sentence", "layoff {card}"), None),
}


def _named(action: Action, names: Mapping[str, tuple[Message | None, Message | None]]) -> Message | None:
    """``action``'s message in ``names`` (its card as the value ``card``), or None."""
    with_card, without = names.get(action.kind, (None, None))
    if action.card is None:
        return without
    if with_card is None:
        return None
    return Message(with_card.text, (("card", str(action.card)),), context=with_card.context)


def move(action: Action) -> Value:
    """``action`` named at the head of a reason (``Discard 7h``, ``Knock 7h``, ``Draw``), in the
    reader's words; a kind with no name here is its notation, capitalised."""
    named = _named(action, _MOVES_AT_HEAD)
    if named is not None:
        return named
    text = str(action)
    return f"{text[:1].upper()}{text[1:]}"


def move_in_sentence(action: Action) -> Value:
    """``action`` named inside a sentence (``played discard 7h``: in English its notation), in the
    reader's words; a kind with no name here is its notation."""
    named = _named(action, _MOVES_IN_SENTENCE)
    return named if named is not None else str(action)


def ngettext(singular: str, plural: str, count: int, /, **values: object) -> Message:
    """A message that counts ``count`` things (its form is chosen when it is worded)."""
    return Message(singular, tuple((k, _value(v)) for k, v in values.items()), plural, int(count))


def joined(separator: str, parts: Iterable[object], end: str = "") -> Joined:
    """``parts`` listed with the catalog's ``separator`` and ``end`` (``joined(N_("; "), clauses, N_("."))``)."""
    return Joined(separator, tuple(_value(p) for p in parts), end)


# --------------------------------------------------------------------------------------- as JSON
def to_json(reason: Value | None) -> Any:
    """``reason`` as JSON: a message ``{"msg", "values"}`` (with ``"plural"`` and ``"n"`` when it
    counts), a list ``{"join", "parts", "end"}``; text and numbers as they are."""
    if isinstance(reason, Message):
        out: dict[str, Any] = {"msg": reason.text, "values": {k: to_json(v) for k, v in reason.values}}
        if reason.plural is not None:
            out["plural"], out["n"] = reason.plural, reason.count
        if reason.context is not None:
            out["ctx"] = reason.context
        return out
    if isinstance(reason, Joined):
        return {"join": reason.separator, "parts": [to_json(p) for p in reason.parts], "end": reason.end}
    return reason


def from_json(data: Any, depth: int = 0) -> Value:
    """A reason back from :func:`to_json`; a plain string (an old save's words) stays a string.
    Raises ValueError on anything else (a damaged save)."""
    if isinstance(data, str) or type(data) is int:
        return data
    if not isinstance(data, Mapping) or depth >= MAX_DEPTH:
        raise ValueError("not a reason")
    if "msg" in data:
        text, values, plural, n = data["msg"], data.get("values", {}), data.get("plural"), data.get("n", 1)
        context = data.get("ctx")
        if not isinstance(text, str) or not isinstance(values, Mapping) or not all(isinstance(k, str) for k in values):
            raise ValueError("not a reason")
        if context is not None and not isinstance(context, str):
            raise ValueError("not a reason")
        if plural is not None and (not isinstance(plural, str) or not isinstance(n, int) or isinstance(n, bool)):
            raise ValueError("not a reason")
        items = tuple((k, from_json(v, depth + 1)) for k, v in values.items())
        return Message(text, items, plural, n if plural is not None else 1, context)
    if "join" in data:
        sep, parts, end = data["join"], data.get("parts"), data.get("end", "")
        if not isinstance(sep, str) or not isinstance(end, str) or not isinstance(parts, list):
            raise ValueError("not a reason")
        return Joined(sep, tuple(from_json(p, depth + 1) for p in parts), end)
    raise ValueError("not a reason")

"""The browser app's message protocol: validation of what clients send, by hand.

Every client message is one JSON object of at most :data:`MAX_MESSAGE_BYTES` bytes with a
``type`` and the fields that type allows (see :data:`SCHEMAS`; docs/web.md lists them).  A
message that is not valid raises :class:`ProtocolError` with a code and a sentence naming the
field and what would be valid; the server answers with an ``error`` message and changes nothing.

>>> validate('{"type": "act", "action": "discard 7h", "seq": 3}')
{'type': 'act', 'action': 'discard 7h', 'seq': 3}
>>> validate('{"type": "act"}')
Traceback (most recent call last):
...
ginrummy.web.protocol.ProtocolError: act: the field 'action' is required
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, _
from ..names import BadName, clean_name
from ..variants import VARIANTS, Variant, variant_names

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "SCHEMAS",
    "TABLE_VARIANTS",
    "VARIANT_FACTS",
    "ProtocolError",
    "RateLimiter",
    "dumps",
    "readable",
    "validate",
    "variant_facts",
]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096
TABLE_VARIANTS = tuple(v.name for v in VARIANTS if v.table)  # tables for several people

# The words for the discard pile of a game with a Joker, by where the Joker is (rule book 3.1, 4.1).
_PILE_LABELS = {
    "none": N_("Discard pile"),
    "in_pack": N_("Discard (under the joker)"),
    "after_deal": N_("Discard (face down)"),
}


def _facts(v: Variant) -> dict[str, Any]:
    return {"title": v.short_title, "long_title": v.title, "solo": v.solo, "pile_label": _PILE_LABELS[v.joker]}


# What the page shows of each variant: its title, whether it is a solitaire, and the words for the
# discard pile, read from the registry.  The page tests no variant name; it reads these (``variant_facts``).
VARIANT_FACTS: dict[str, dict[str, Any]] = {v.name: _facts(v) for v in VARIANTS}


def variant_facts(variant: str) -> dict[str, Any]:
    """The facts of ``variant`` the page needs (a copy), its words in the current language; an
    unknown variant gets its name as title."""
    base = VARIANT_FACTS.get(variant)
    if base is None:
        return {
            "variant": variant,
            "pile_label": _("Discard pile"),
            "title": variant,
            "long_title": variant,
            "solo": False,
        }
    words = {k: _(base[k]) for k in ("title", "long_title", "pile_label")}
    return {"variant": variant, **base, **words}


_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_AGENT = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


class ProtocolError(Exception):
    """A message the server will not act on.  ``code`` is machine-readable, ``str()`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Field:
    """One field of a message: its check and whether it must be present."""

    check: Callable[[str, Any], Any]
    required: bool = False


def _string(max_len: int, pattern: re.Pattern[str] | None = None, what: str = "") -> Callable[[str, Any], Any]:
    def check(name: str, value: Any) -> Any:
        if not isinstance(value, str):
            raise ProtocolError("bad_message", _not_a("string", name, value))
        if len(value) > max_len:
            raise ProtocolError("bad_message", _too_long(name, max_len))
        if pattern is not None and not pattern.match(value):
            raise ProtocolError(
                "bad_message",
                _("the field {field} is not {what}: {value}").format(
                    field=repr(name), what=_(what) if what else _("valid"), value=repr(value[:40])
                ),
            )
        return value

    return check


def _text(max_len: int) -> Callable[[str, Any], Any]:
    """Free text shown to people: no control characters."""
    base = _string(max_len)

    def check(name: str, value: Any) -> Any:
        value = base(name, value)
        if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in value):
            raise ProtocolError("bad_message", _("the field {field} holds control characters").format(field=repr(name)))
        return value.strip()

    return check


def _name(name: str, value: Any) -> Any:
    """A player's name, by the rules of :mod:`ginrummy.names` (normalised, visible, short)."""
    if not isinstance(value, str):
        raise ProtocolError("bad_message", _not_a("string", name, value))
    if len(value) > 200:
        raise ProtocolError("bad_message", _too_long(name, 200))
    try:
        return clean_name(value)
    except BadName as exc:
        raise ProtocolError("bad_name", str(exc)) from None


def _one_of(choices: tuple[str, ...]) -> Callable[[str, Any], Any]:
    def check(name: str, value: Any) -> Any:
        if value not in choices:
            raise ProtocolError(
                "bad_message",
                _("the field {field} must be one of {choices}, got {value}").format(
                    field=repr(name), choices=", ".join(choices), value=_short(value)
                ),
            )
        return value

    return check


def _int(lo: int, hi: int) -> Callable[[str, Any], Any]:
    def check(name: str, value: Any) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProtocolError("bad_message", _not_a("integer", name, value))
        if not lo <= value <= hi:
            raise ProtocolError(
                "bad_message",
                _("the field {field} must be from {low} to {high}, got {value}").format(
                    field=repr(name), low=lo, high=hi, value=value
                ),
            )
        return value

    return check


def _bool(name: str, value: Any) -> Any:
    if not isinstance(value, bool):
        raise ProtocolError("bad_message", _not_a("boolean", name, value))
    return value


def _options(name: str, value: Any) -> Any:
    """Variant options: names and plain values only (the engine checks them against the variant)."""
    if not isinstance(value, dict):
        raise ProtocolError("bad_message", _not_a("object", name, value))
    if len(value) > 32:
        raise ProtocolError(
            "bad_message", _("the field {field} has more than {n} entries").format(field=repr(name), n=32)
        )
    for key, v in value.items():
        if not _OPTION_NAME.match(key):
            raise ProtocolError(
                "bad_message", _("{field}: {key} is not an option name").format(field=name, key=repr(key[:40]))
            )
        if not isinstance(v, (bool, int, str)) or (isinstance(v, str) and len(v) > 40):
            raise ProtocolError(
                "bad_message",
                _("{field}: the option {key} must be a number, true/false or a word").format(field=name, key=repr(key)),
            )
    return value


def _seat_kinds(name: str, value: Any) -> Any:
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise ProtocolError(
            "bad_message", _("the field {field} must be a list of 1 or 2 seat kinds").format(field=repr(name))
        )
    for v in value:
        if not isinstance(v, str) or not (v == "person" or _AGENT.match(v)):
            raise ProtocolError(
                "bad_message",
                _("{field}: each seat is 'person' or a computer player's name, got {value}").format(
                    field=name, value=_short(v)
                ),
            )
    return value


_SEQ = Field(_int(0, 2**31 - 1))
_NAME = Field(_name)
_SEAT = Field(_int(1, 2), True)

SCHEMAS: dict[str, dict[str, Field]] = {
    # attach to a seat you hold (after a reload or a dropped connection)
    "hello": {
        "game": Field(_string(64, _ID, N_("a game id")), True),
        "token": Field(_string(128, _TOKEN, N_("a seat token")), True),
    },
    # a game against computer players (any variant)
    "new": {
        "variant": Field(_one_of(variant_names()), True),
        "opponent": Field(_string(32, _AGENT, N_("a computer player's name"))),
        "options": Field(_options),
        "name": _NAME,
        "watch": Field(_bool),  # computer players in every seat; the person watches (no history)
    },
    # a table for several people; "seats" are the other seats in order: "person" or a computer
    "create_table": {
        "variant": Field(_one_of(TABLE_VARIANTS), True),
        "seats": Field(_seat_kinds, True),
        "options": Field(_options),
        "hints": Field(_bool),
        "name": _NAME,
    },
    "join": {
        "invite": Field(_string(64, _ID, N_("an invitation code")), True),
        "seat": Field(_int(0, 2)),
        "name": _NAME,
    },
    # take up a game saved by the terminal app (only from this computer)
    "resume": {"game": Field(_string(64, _ID, N_("a game id")), True)},
    "act": {"action": Field(_text(80), True)},
    # knocker_arrangement=choose: the melds that may be spread with a knock or gin ("knock 7h")
    "arrangements": {"action": Field(_text(80), True)},
    "deal": {},  # ready for the next hand; it is dealt when every person is ready
    "hint": {},
    "undo": {},  # against the computer: take back your last decision of the hand
    "replay": {},  # a finished game: every position, step by step, for the replay viewer
    "suggest": {"action": Field(_text(80), True), "text": Field(_text(200))},
    # the creator of a table: a new invitation link for a seat (the old one stops working; a seat
    # whose person has been away long enough is opened again)
    "reissue": {"seat": _SEAT},
    # the creator of a table: a computer player takes an open seat, or one whose person is away
    "seat_computer": {"seat": _SEAT, "agent": Field(_string(32, _AGENT, N_("a computer player's name")))},
    "ping": {},
}
for _schema in SCHEMAS.values():
    _schema["seq"] = _SEQ


def validate(raw: str | bytes) -> dict[str, Any]:
    """Parse and check one client message; raise :class:`ProtocolError` if it is not valid."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too_large",
            _("a message may have at most {limit} bytes, this one has {size}").format(
                limit=MAX_MESSAGE_BYTES, size=size
            ),
        )
    try:
        msg = json.loads(raw)
    except RecursionError:
        raise ProtocolError("bad_message", _("a message may not nest lists or objects that deeply")) from None
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("bad_json", _("a message must be one JSON object")) from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", _("a message must be a JSON object, got {kind}").format(kind=_kind(msg)))
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError(
            "bad_message",
            _("unknown message type {type}; types are {types}").format(
                type=_short(kind), types=", ".join(sorted(SCHEMAS))
            ),
        )
    schema = SCHEMAS[kind]
    out: dict[str, Any] = {"type": kind}
    for name in msg:
        if name != "type" and name not in schema:
            raise ProtocolError(
                "bad_message",
                _("{type}: unknown field {field} (fields: {fields})").format(
                    type=kind, field=repr(name[:40]), fields=", ".join(sorted(schema))
                ),
            )
    for name, spec in schema.items():
        if name not in msg:
            if spec.required:
                raise ProtocolError(
                    "bad_message", _("{type}: the field {field} is required").format(type=kind, field=repr(name))
                )
            continue
        try:
            out[name] = spec.check(name, msg[name])
        except ProtocolError as exc:
            # TRANSLATORS: {type} is the request's type (act, new...: protocol words, untranslated)
            raise ProtocolError(exc.code, _("{type}: {error}").format(type=kind, error=exc.message)) from None
    return out


def readable(raw: str | bytes) -> tuple[str | None, int | None]:
    """The type and ``seq`` of a message that was refused (too many messages, not valid), as far
    as they can be read, so that the ``error`` reply can carry them: a client waiting for the reply
    to its request gets it.  (None for what cannot be read; never an error.)"""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        return None, None
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None, None
    if not isinstance(msg, dict):
        return None, None
    kind, seq = msg.get("type"), msg.get("seq")
    kind = kind if isinstance(kind, str) and kind in SCHEMAS else None
    try:
        seq = _SEQ.check("seq", seq)
    except ProtocolError:
        seq = None
    return kind, seq


# What a value that is not of the right kind was, and what a field must be (the field's kind is a
# word of the protocol's: string, integer, boolean, object)
_KINDS = {
    dict: N_("an object"),
    list: N_("a list"),
    str: N_("a string"),
    bool: N_("true/false"),
    type(None): N_("null"),
}
_MUST_BE = {
    "string": N_("the field {field} must be a string, got {kind}"),
    "integer": N_("the field {field} must be an integer, got {kind}"),
    "boolean": N_("the field {field} must be true or false, got {kind}"),
    "object": N_("the field {field} must be an object, got {kind}"),
}


def _not_a(what: str, name: str, value: Any) -> str:
    return _(_MUST_BE[what]).format(field=repr(name), kind=_kind(value))


def _too_long(name: str, limit: int) -> str:
    return _("the field {field} is longer than {limit} characters").format(field=repr(name), limit=limit)


def _kind(value: Any) -> str:
    """What ``value`` is, in words for people (``an object``, ``a number``)."""
    words = _KINDS.get(type(value))
    if words is not None:
        return _(words)
    return _("a number") if isinstance(value, (int, float)) else type(value).__name__


def _short(value: Any) -> str:
    if isinstance(value, (list, dict)):
        return _kind(value)  # a nested value is not echoed (it could be deep or long)
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class RateLimiter:
    """A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def dumps(msg: dict[str, Any]) -> str:
    """A message as compact JSON text, as it goes on the wire."""
    return json.dumps(msg, separators=(",", ":"))

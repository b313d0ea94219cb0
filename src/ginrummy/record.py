"""Game records (RECORD.md): read, validate, replay, summarise, write atomically.

>>> from ginrummy.engine import State
>>> s = State.new("solitaire")
>>> s.deal(seed=3)
>>> s.apply(s.legal_actions()[0])
>>> again = replay(s.to_record())
>>> again.to_record() == s.to_record()
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from .actions import Action
from .cards import Card
from .errors import GinRummyError, RecordError, json_reason, system_reason, utf8_reason
from .i18n import _, ngettext
from .variants import variant_names

if TYPE_CHECKING:
    from .engine import State

__all__ = [
    "MAX_BYTES",
    "CheckedHand",
    "CheckedRecord",
    "check",
    "decode",
    "dumps",
    "load",
    "load_records",
    "loads",
    "new_state",
    "parse_records",
    "play_hand",
    "read_limited",
    "replay",
    "save",
    "summary",
]

_DRAW = Action("draw")
_KEYS = {"format", "variant", "options", "players", "hands"}
_HAND_KEYS = {"deck", "seed", "actions", "commitment"}

MAX_BYTES = 64 * 1024 * 1024
"""The most a record file (or a file of records) may hold: a bound on what ``load`` reads."""
_MAX_DIGITS = 100  # a seed is below 2**256 (78 digits); no number in a record needs more


# ---------------------------------------------------------------------------- reading text
def read_limited(source: str | os.PathLike[str] | IO[bytes] | IO[str], *, limit: int | None = None) -> bytes:
    """The bytes of a file (or a binary stream such as standard input), at most ``limit``: a larger
    one (``/dev/zero``, a stray disk image) raises :class:`RecordError` without reading it all."""
    name = _("standard input") if not isinstance(source, (str, os.PathLike)) else os.fspath(source)
    limit = MAX_BYTES if limit is None else limit
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as f:
                data = f.read(limit + 1)
        else:
            got = source.read(limit + 1)
            data = got.encode("utf-8", "surrogateescape") if isinstance(got, str) else got
    except OSError as exc:
        raise RecordError(
            _("record: cannot read {name}: {reason}").format(name=name, reason=system_reason(exc))
        ) from None
    if len(data) > limit:
        if limit >= 1024 * 1024:
            mib = limit // (1024 * 1024)
            message = _("record: {name} is larger than {mib} MiB, too large for a record").format(name=name, mib=mib)
        else:
            message = ngettext(
                "record: {name} is larger than {n} byte, too large for a record",
                "record: {name} is larger than {n} bytes, too large for a record",
                limit,
            ).format(name=name, n=limit)
        raise RecordError(message)
    return data


def decode(data: bytes) -> str:
    """UTF-8 text (a byte-order mark allowed); invalid UTF-8 raises :class:`RecordError` naming the byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RecordError(
            _("record: not UTF-8 text (byte {byte}, line {line}: {reason})").format(
                byte=exc.start + 1, line=line, reason=utf8_reason(exc.reason)
            )
        ) from None


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _MAX_DIGITS:
        raise RecordError(
            _("record: a number of {digits} digits (at most {most} are read)").format(digits=digits, most=_MAX_DIGITS)
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise RecordError(_("record: the number {number} is out of range").format(number=repr(text[:20])))
    return value


def _no_constant(text: str) -> Any:
    raise RecordError(_("record: not JSON ({text} is not a JSON value)").format(text=text))


def _json(text: str) -> Any:
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(
            _("record: not JSON ({reason} at line {line} column {column})").format(
                reason=json_reason(exc.msg), line=exc.lineno, column=exc.colno
            )
        ) from None
    except RecursionError:
        raise RecordError(_("record: not a record (its JSON is nested too deeply)")) from None


def _check_text(data: Any) -> None:
    """Every string in ``data`` must be Unicode text that can be written out: a lone surrogate
    (``"\\ud800"`` in JSON) raises :class:`RecordError` naming the field.  Iterative: any depth."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            _text(node, where)
        elif isinstance(node, dict):
            for key, value in node.items():
                field = _name(_text(key, where))
                stack.append((value, field if not where else f"{where}.{field}"))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))


def _text(value: str, where: str) -> str:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        if not where:
            raise RecordError(_("record: not valid Unicode text (a lone surrogate)")) from None
        raise RecordError(_("{field}: not valid Unicode text (a lone surrogate)").format(field=where)) from None
    return value


def loads(text: str) -> dict[str, Any]:
    """One record from JSON text (not validated beyond being a JSON object of valid text)."""
    data = _json(text)
    if not isinstance(data, dict):
        raise RecordError(_("record: a record is a JSON object"))
    _check_text(data)
    return data


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """One record from a file (at most :data:`MAX_BYTES`)."""
    return loads(decode(read_limited(path)))


def parse_records(text: str) -> list[dict[str, Any]]:
    """The records in a text, in every form ``ginrummy export`` writes: one record (a JSON object),
    a JSON list of records, or one record a line (JSON lines)."""
    try:
        data = _json(text)
    except RecordError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2 or not lines[0].lstrip().startswith("{"):
            raise
        out = []
        for n, line in enumerate(lines, 1):
            try:
                out.append(loads(line))
            except RecordError as exc:
                raise RecordError(_("line {n}: {error}").format(n=n, error=exc)) from None
        return out
    if isinstance(data, dict):
        _check_text(data)
        return [data]
    if isinstance(data, list) and data:
        for i, item in enumerate(data):
            if not isinstance(item, dict):
                raise RecordError(
                    _("records[{i}]: a record is a JSON object, got {value}").format(i=i, value=_show(item))
                )
        _check_text(data)
        return data
    if isinstance(data, list):
        raise RecordError(_("record: an empty list, no records (ginrummy export of no finished games)"))
    raise RecordError(_("record: a record is a JSON object (or a list of them, as ginrummy export writes)"))


def load_records(source: str | os.PathLike[str] | IO[bytes] | IO[str]) -> list[dict[str, Any]]:
    """The records of a file or binary stream (see :func:`parse_records`), at most :data:`MAX_BYTES`."""
    return parse_records(decode(read_limited(source)))


def dumps(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def save(record: Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Write a record atomically (a temporary file in the same folder, fsync, rename)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(record))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------------------- validation
def _show(value: Any) -> str:
    """A short, one-line, printable description of a value found in a record."""
    if isinstance(value, str):
        text = repr(value[:40] + ("..." if len(value) > 40 else ""))
        return text
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        text = str(value)
        if len(text) <= 40:
            return text
        n = len(text.lstrip("-"))
        return ngettext("an integer of {n} digit", "an integer of {n} digits", n).format(n=n)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return _("a list") if value else _("an empty list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__


def _name(key: str) -> str:
    """A field name as written in a message: plain if it is short and printable, else quoted."""
    return key if key.isprintable() and 0 < len(key) <= 40 else _show(key)


def _where(number: int) -> str:
    """Where hand ``number`` (1-based) is in a record, for messages: ``hands[0] (hand 1)``."""
    return _("hands[{i}] (hand {number})").format(i=number - 1, number=number)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class CheckedHand:
    """One hand of a record, its fields checked and read: ``deck`` as cards, whatever the spelling."""

    number: int  # 1-based
    seed: int | None
    deck: list[Card] | None
    commitment: str | None
    actions: list[str]

    @property
    def where(self) -> str:
        return _where(self.number)


@dataclass(frozen=True)
class CheckedRecord:
    """A record whose fields have the types RECORD.md gives them (the game itself is checked by
    replaying it: :func:`new_state`, :func:`play_hand`)."""

    variant: str
    options: dict[str, Any]
    players: list[str] | None
    hands: list[CheckedHand]


def check(record: Any) -> CheckedRecord:
    """Check every field of a record for its type and form; raise :class:`RecordError` with one
    line naming the field.  The one place where a record's fields are read."""
    if not isinstance(record, Mapping):
        raise RecordError(_("record: a record is a JSON object"))
    _check_text(record)
    fmt = record.get("format", "ginrummy-record/1")
    if fmt != "ginrummy-record/1":
        raise RecordError(
            _("format: unsupported record format {format} (expected {expected})").format(
                format=_show(fmt), expected="'ginrummy-record/1'"
            )
        )
    unknown = [str(k) for k in record if k not in _KEYS]
    if unknown:
        raise RecordError(
            ngettext(
                # TRANSLATORS: the English says field(s) in both forms (tests and scripts read it); count the fields.
                "record: unknown field(s) {fields}",
                "record: unknown field(s) {fields}",
                len(unknown),
            ).format(fields=", ".join(_name(k) for k in sorted(unknown)))
        )
    if "variant" not in record:
        raise RecordError(_("variant: missing; expected one of {variants}").format(variants=", ".join(variant_names())))
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in variant_names():
        raise RecordError(
            _("variant: unknown variant {variant}; expected one of {variants}").format(
                variant=_show(variant), variants=", ".join(variant_names())
            )
        )
    options = record.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError(
            _("options: must be an object of option names and values, got {value}").format(value=_show(options))
        )
    for name, value in options.items():
        if not isinstance(value, (str, int, float, bool)):
            raise RecordError(
                _("options.{option}: must be a string, a number or true/false, got {value}").format(
                    option=_name(name), value=_show(value)
                )
            )
    players = record.get("players")
    if players is not None:
        if not isinstance(players, list):
            raise RecordError(_("players: must be a list of names, got {value}").format(value=_show(players)))
        for i, p in enumerate(players):
            if not isinstance(p, str):
                raise RecordError(
                    _("players: must be a list of names; players[{i}] is {value}").format(i=i, value=_show(p))
                )
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError(_("hands: must be a list of hands, got {value}").format(value=_show(hands)))
    checked = [_check_hand(i, hand) for i, hand in enumerate(hands, 1)]
    return CheckedRecord(variant, dict(options), None if players is None else list(players), checked)


def _check_hand(number: int, hand: Any) -> CheckedHand:
    where = _where(number)
    if not isinstance(hand, Mapping):
        raise RecordError(
            _("{where}: a hand is an object with deck or seed, and actions; got {value}").format(
                where=where, value=_show(hand)
            )
        )
    extra = [str(k) for k in hand if k not in _HAND_KEYS]
    if extra:
        raise RecordError(
            ngettext("{where}: unknown field(s) {fields}", "{where}: unknown field(s) {fields}", len(extra)).format(
                where=where, fields=", ".join(_name(k) for k in sorted(extra))
            )
        )
    if "deck" not in hand and "seed" not in hand:
        raise RecordError(_("{where}: give a deck or a seed").format(where=where))
    seed: Any = hand.get("seed")
    if "seed" in hand and (not _is_int(seed) or not 0 <= seed < 1 << 256):
        raise RecordError(
            _("{where}.seed: seed must be an integer from 0 to 2**256-1, got {value}").format(
                where=where, value=_show(seed)
            )
        )
    deck: list[Card] | None = None
    if "deck" in hand:
        raw = hand["deck"]
        if not isinstance(raw, list):
            raise RecordError(
                _("{where}.deck: deck must be a list of card strings, got {value}").format(
                    where=where, value=_show(raw)
                )
            )
        deck = []
        for i, text in enumerate(raw):
            if not isinstance(text, str):
                raise RecordError(
                    _("{where}.deck: deck must be a list of card strings; deck[{i}] is {value}").format(
                        where=where, i=i, value=_show(text)
                    )
                )
            try:
                deck.append(Card.parse(text))
            except GinRummyError:
                raise RecordError(
                    _("{where}.deck: not a card: {text} (expected rank A23456789TJQK and suit cdhs, e.g. 'Th')").format(
                        where=where, text=_show(text)
                    )
                ) from None
    commitment = hand.get("commitment")
    if commitment is not None and not isinstance(commitment, str):
        raise RecordError(
            _("{where}.commitment: must be a string, got {value}").format(where=where, value=_show(commitment))
        )
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(
            _("{where}.actions: must be a list of action strings, got {value}").format(
                where=where, value=_show(actions)
            )
        )
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError(
                _("{where}.actions[{i}] (action {number}, {text}): not an action string").format(
                    where=where, i=i, number=i + 1, text=_show(text)
                )
            )
    return CheckedHand(number, seed if "seed" in hand else None, deck, commitment, list(actions))


# ---------------------------------------------------------------------------- replaying
def new_state(checked: CheckedRecord) -> State:
    """The game a checked record starts: its variant, options and players, before any deal."""
    from .engine import State
    from .options import options_for

    try:
        options_for(checked.variant, checked.options)
    except GinRummyError as exc:
        raise RecordError(_("options: {error}").format(error=exc)) from None
    try:
        return State.new(checked.variant, checked.options, checked.players)
    except GinRummyError as exc:
        raise RecordError(_("players: {error}").format(error=exc)) from None


def play_hand(state: State, hand: CheckedHand) -> None:
    """Deal ``hand`` and apply its actions to ``state``; raise :class:`RecordError` naming the hand,
    the field and the action at fault."""
    where = hand.where
    if state.is_terminal:
        raise RecordError(_("{where}: the game was already over").format(where=where))
    if not state.needs_deal:
        raise RecordError(_("{where}: the previous hand is not finished").format(where=where))
    try:
        if hand.seed is not None:
            if hand.deck is not None and hand.deck != state.deck_for_seed(hand.seed):
                # Both: the deck as played, kept for verification; it must be the seed's shuffle (as cards).
                raise RecordError(
                    _("{where}.deck: the deck is not the one its seed deals (see ginrummy verify)").format(where=where)
                )
            state.deal(seed=hand.seed, commitment=hand.commitment)
        else:
            assert hand.deck is not None
            try:
                state.deal(hand.deck, commitment=hand.commitment)
            except GinRummyError as exc:
                raise RecordError(_("{where}.deck: {error}").format(where=where, error=exc)) from None
    except RecordError:
        raise
    except GinRummyError as exc:
        raise RecordError(_("{where}.seed: {error}").format(where=where, error=exc)) from None
    for a_i, text in enumerate(hand.actions, 1):
        try:
            action = Action.parse(text)
            if state.phase == "opening" and action.card is not None:
                state.apply(_DRAW)  # RECORD.md: the solitaire opening's draw is not written
            state.apply(action)
        except GinRummyError as exc:
            raise RecordError(
                _("{where}.actions[{i}] (action {number}, {text}): {error}").format(
                    where=where, i=a_i - 1, number=a_i, text=_show(text), error=exc
                )
            ) from None


def replay_hands(checked: CheckedRecord) -> Iterator[tuple[CheckedHand, State]]:
    """Replay a checked record hand by hand, yielding each hand and the state after it."""
    state = new_state(checked)
    for hand in checked.hands:
        play_hand(state, hand)
        yield hand, state


def replay(record: Mapping[str, Any]) -> State:
    """The :class:`~ginrummy.engine.State` a record describes, replayed action by action.

    A record that ends inside a hand gives the saved game at that point.  Any fault raises
    :class:`RecordError` naming the field, the hand and action number, and what was wrong.
    """
    checked = check(record)
    state = new_state(checked)
    for hand in checked.hands:
        play_hand(state, hand)
    return state


def summary(state: Any, *, complete: bool | None = None) -> dict[str, Any]:
    """The replay summary of RECORD.md for a replayed state."""
    hands = []
    for res in state.results:
        h: dict[str, Any] = {"result": res.result, "deadwood": list(res.deadwood), "points": list(res.points)}
        if res.counted is not None:
            h["counted"] = res.counted
        hands.append(h)
    if not state.is_hand_over:
        hands.append({"result": "unfinished", "deadwood": [0] * state.num_seats, "points": [0] * state.num_seats})
    out: dict[str, Any] = {
        "variant": state.variant,
        "complete": state.is_hand_over if complete is None else complete,
        "hands": hands,
        "totals": list(state.totals),
        "game_over": state.game_over,
        "winner": state.winner,
    }
    if state.game_over and state.final_totals() != list(state.totals):
        out["final"] = state.final_totals()
    if state.hollywood is not None:
        out["hollywood"] = state.hollywood.to_json()
    return out

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
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .actions import Action
from .errors import GinRummyError, RecordError
from .options import VARIANTS

if TYPE_CHECKING:
    from .engine import State

__all__ = ["dumps", "load", "loads", "replay", "save", "summary"]

_KEYS = {"format", "variant", "options", "players", "hands"}
_HAND_KEYS = {"deck", "seed", "actions", "commitment"}


def loads(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if not isinstance(data, dict):
        raise RecordError("record: a record is a JSON object")
    return data


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"record: cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"record: {path} is not UTF-8 text") from None
    return loads(text)


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


def replay(record: Mapping[str, Any]) -> State:
    """The :class:`~ginrummy.engine.State` a record describes, replayed action by action.

    A record that ends inside a hand gives the saved game at that point.  Any fault raises
    :class:`RecordError` naming the field, the hand and action number, and what was wrong.
    """
    from .engine import State

    if not isinstance(record, Mapping):
        raise RecordError("record: a record is a JSON object")
    fmt = record.get("format", "ginrummy-record/1")
    if fmt != "ginrummy-record/1":
        raise RecordError(f"format: unsupported record format {fmt!r} (expected 'ginrummy-record/1')")
    unknown = set(record) - _KEYS
    if unknown:
        raise RecordError(f"record: unknown field(s) {', '.join(sorted(unknown))}")
    variant = record.get("variant")
    if variant not in VARIANTS:
        raise RecordError(f"variant: unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    options = record.get("options", {}) or {}
    if not isinstance(options, Mapping):
        raise RecordError("options: must be an object of option names and values")
    players = record.get("players")
    if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
        raise RecordError("players: must be a list of names")
    try:
        state = State.new(str(variant), options, players)
    except GinRummyError as exc:
        field = "players" if "player names" in str(exc) else "options"
        raise RecordError(f"{field}: {exc}") from None
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError("hands: must be a list of hands")
    for h_i, hand in enumerate(hands, 1):
        where = f"hands[{h_i - 1}] (hand {h_i})"
        if not isinstance(hand, Mapping):
            raise RecordError(f"{where}: a hand is an object with deck or seed, and actions")
        extra = set(hand) - _HAND_KEYS
        if extra:
            raise RecordError(f"{where}: unknown field(s) {', '.join(sorted(extra))}")
        if state.is_terminal:
            raise RecordError(f"{where}: the game was already over")
        if not state.needs_deal:
            raise RecordError(f"{where}: the previous hand is not finished")
        has_deck, has_seed = "deck" in hand, "seed" in hand
        if not has_deck and not has_seed:
            raise RecordError(f"{where}: give a deck or a seed")
        if has_deck and has_seed:
            # Both: the deck as played, kept for verification; it must be the seed's shuffle.
            try:
                dealt = [str(c) for c in state.deck_for_seed(hand["seed"])]
            except GinRummyError as exc:
                raise RecordError(f"{where}.seed: {exc}") from None
            if not isinstance(hand["deck"], list) or [str(c) for c in hand["deck"]] != dealt:
                raise RecordError(f"{where}.deck: the deck is not the one its seed deals (see ginrummy verify)")
            has_deck = False
        commitment = hand.get("commitment")
        if commitment is not None and not isinstance(commitment, str):
            raise RecordError(f"{where}.commitment: must be a string")
        try:
            if has_seed:
                seed = hand["seed"]
                if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 256:
                    raise RecordError(f"seed must be an integer from 0 to 2**256-1, got {seed!r}")
                state.deal(seed=seed, commitment=commitment)
            else:
                deck = hand["deck"]
                if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
                    raise RecordError("deck must be a list of card strings")
                state.deal(deck, commitment=commitment)
        except GinRummyError as exc:
            field = "seed" if has_seed else "deck"
            raise RecordError(f"{where}.{field}: {_bare(exc)}") from None
        actions = hand.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"{where}.actions: must be a list of action strings")
        for a_i, text in enumerate(actions, 1):
            try:
                if not isinstance(text, str):
                    raise RecordError(f"not an action string: {text!r}")
                state.apply(Action.parse(text))
            except GinRummyError as exc:
                raise RecordError(f"{where}.actions[{a_i - 1}] (action {a_i}, {text!r}): {_bare(exc)}") from None
    return state


def _bare(exc: Exception) -> str:
    return str(exc)


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

"""Reading stored values back: each check names the first damaged value (:class:`_BadValue`), so one
bad row is skipped and reported, never hiding the others."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

_log = logging.getLogger("ginrummy.store")


class _BadValue(ValueError):
    """A value in a row that is not what ginrummy wrote (damaged JSON, a wrong type)."""


def _report(problems: list[str] | None, text: str) -> None:
    if problems is None:
        _log.warning("%s", text)
    else:
        problems.append(text)


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise _BadValue(f"{name} is not text")
    return value


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadValue(f"{name} is not an integer")
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _BadValue(f"{name} is not a number")
    return float(value)


def _json(value: Any, name: str) -> Any:
    if not isinstance(value, (str, bytes)):
        raise _BadValue(f"{name} is not JSON text")
    try:
        return json.loads(value)
    except (ValueError, RecursionError) as exc:
        raise _BadValue(f"{name} is not valid JSON ({exc})") from None


def _json_list(value: Any, name: str, kind: type) -> list[Any]:
    data = _json(value, name)
    if not isinstance(data, list) or not all(isinstance(x, kind) and not isinstance(x, bool) for x in data):
        raise _BadValue(f"{name} is not a list of {kind.__name__}")
    return data


def _json_object(value: Any, name: str) -> dict[str, Any]:
    data = _json(value, name)
    if not isinstance(data, dict):
        raise _BadValue(f"{name} is not a JSON object")
    return data


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _when(value: Any, name: str) -> str:
    """A stored time as ISO 8601; :class:`_BadValue` if it is not one."""
    try:
        return _iso(_number(value, name))
    except (OverflowError, ValueError, OSError):
        raise _BadValue(f"{name} is not a time") from None

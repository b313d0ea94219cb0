"""Reading stored values back: each check names the first damaged value (:class:`_BadValue`), so one
bad row is skipped and reported, never hiding the others."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from ..errors import json_reason
from ..i18n import _

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
        raise _BadValue(_("{name} is not text").format(name=name))
    return value


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadValue(_("{name} is not an integer").format(name=name))
    return value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _BadValue(_("{name} is not a number").format(name=name))
    return float(value)


def _json(value: Any, name: str) -> Any:
    if not isinstance(value, (str, bytes)):
        raise _BadValue(_("{name} is not JSON text").format(name=name))
    try:
        return json.loads(value)
    except (ValueError, RecursionError) as exc:
        error = json_reason(exc.msg) if isinstance(exc, json.JSONDecodeError) else exc
        raise _BadValue(_("{name} is not valid JSON ({error})").format(name=name, error=error)) from None


def _json_list(value: Any, name: str, kind: type) -> list[Any]:
    data = _json(value, name)
    if not isinstance(data, list) or not all(isinstance(x, kind) and not isinstance(x, bool) for x in data):
        raise _BadValue(_("{name} is not a list of {kind}").format(name=name, kind=kind.__name__))
    return data


def _json_object(value: Any, name: str) -> dict[str, Any]:
    data = _json(value, name)
    if not isinstance(data, dict):
        raise _BadValue(_("{name} is not a JSON object").format(name=name))
    return data


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _when(value: Any, name: str) -> str:
    """A stored time as ISO 8601; :class:`_BadValue` if it is not one."""
    try:
        return _iso(_number(value, name))
    except (OverflowError, ValueError, OSError):
        raise _BadValue(_("{name} is not a time").format(name=name)) from None

"""The terminal app's remembered settings: the last variant, your name, the opponents' levels and
the rules options of each variant, and the display.  They live in ``terminal-settings.json`` in
the data directory, beside the saved games (so each ``--data-dir`` keeps its own); playing without
saving remembers nothing.

Settings are a convenience: a missing or damaged file reads as no settings, every value is checked
before it is used (an option that is no longer valid is dropped), and the file is replaced whole
(written beside it, then renamed), so a failed write leaves the old settings as they were.  A
damaged file (not a JSON object) is never overwritten: saving says so in one line instead.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import GinRummyError, system_reason
from ..i18n import _
from ..options import options_for
from ..store import Store
from ..variants import variant_names

__all__ = ["FILE", "Settings", "load_settings", "save_settings"]

FILE = "terminal-settings.json"
DISPLAY = ("four_colour", "large", "high_contrast")

Settings = dict[str, Any]


def _path(store: Store | None) -> Path | None:
    return None if store is None else Path(store.data_dir) / FILE


def load_settings(store: Store | None) -> Settings:
    """The remembered settings, checked: ``variant``, ``name``, ``levels`` (variant -> the
    opponents' levels), ``options`` (variant -> the options that differ from the defaults), and the
    display switches.  Anything missing or not valid is left out."""
    path = _path(store)
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, Mapping):
        return {}
    out: Settings = {}
    if data.get("variant") in variant_names():
        out["variant"] = data["variant"]
    name = data.get("name")
    if isinstance(name, str) and name.strip() and len(name) <= 20:
        out["name"] = name
    levels = data.get("levels")
    if isinstance(levels, Mapping):
        out["levels"] = {
            v: list(ls)
            for v, ls in levels.items()
            if v in variant_names() and isinstance(ls, list) and all(isinstance(x, str) for x in ls)
        }
    options = data.get("options")
    if isinstance(options, Mapping):
        out["options"] = {}
        for v, given in options.items():
            if v not in variant_names() or not isinstance(given, Mapping):
                continue
            try:
                options_for(v, dict(given))
            except GinRummyError:
                continue  # no longer valid (the rules changed): the defaults then
            out["options"][v] = dict(given)
    for key in DISPLAY:
        if isinstance(data.get(key), bool):
            out[key] = data[key]
    return out


def save_settings(store: Store | None, **changes: Any) -> str | None:
    """Remember ``changes`` (merged into the saved settings; ``levels`` and ``options`` by variant).
    Returns None, or one line saying why they could not be written (the old file is kept)."""
    path = _path(store)
    if path is None:
        return None
    try:  # a damaged file is not overwritten: it may hold settings a person wants back
        damaged = not isinstance(json.loads(path.read_text(encoding="utf-8")), Mapping)
    except FileNotFoundError:
        damaged = False
    except (OSError, ValueError):
        damaged = True
    if damaged:
        return _("your settings could not be remembered ({error})").format(
            error=f"{path.name} is damaged and was left as it was"
        )
    settings = load_settings(store)
    for key, value in changes.items():
        if key in ("levels", "options") and isinstance(value, Mapping):
            settings.setdefault(key, {}).update(value)
        else:
            settings[key] = value
    temporary = path.with_name(f".{FILE}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(settings, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # the rename failed: the old settings stay as they were
            temporary.unlink(missing_ok=True)
        return _("your settings could not be remembered ({error})").format(error=system_reason(exc))
    return None

"""The Textual terminal app: ``ginrummy`` or ``ginrummy play``.  See :class:`GinRummyApp`."""

from __future__ import annotations

from typing import Any

__all__ = ["GinRummyApp"]


def __getattr__(name: str) -> Any:  # import Textual only when the app is wanted
    if name == "GinRummyApp":
        from .app import GinRummyApp

        return GinRummyApp
    raise AttributeError(name)

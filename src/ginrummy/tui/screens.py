"""The screens of the terminal app, one module each (this module names them all in one place):
:mod:`~ginrummy.tui.start`, :mod:`~ginrummy.tui.game`, :mod:`~ginrummy.tui.stats` and the small
ones in :mod:`~ginrummy.tui.dialogs`."""

from __future__ import annotations

from .common import VARIANT_TITLES
from .dialogs import ConfirmScreen, HelpScreen, StoreErrorScreen
from .game import GameScreen
from .start import StartScreen
from .stats import StatsScreen

__all__ = [
    "VARIANT_TITLES",
    "ConfirmScreen",
    "GameScreen",
    "HelpScreen",
    "StartScreen",
    "StatsScreen",
    "StoreErrorScreen",
]

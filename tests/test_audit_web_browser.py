"""The browser page's remembered settings (localStorage) when they are damaged: the lobby opens
and a game starts as if nothing had been remembered, with no script error (principle: a corrupt
settings file changes nothing and breaks nothing).  Seeded server, waits for conditions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from test_web_app_phone import DESKTOP, Phone, serve
from test_web_browser import (
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")


DAMAGED: list[dict[str, Any]] = [  # what an older page or an edit may have left
    {"ginrummy.settings": {"variant": "classic", "opponents": None, "options": None}},
    {"ginrummy.settings": {"variant": "classic", "opponents": [1], "options": "x", "name": 5}},
    {"ginrummy.seats": 5, "ginrummy.prefs": {"sort": 7, "four": "x"}},
    {"ginrummy.seats": "abc", "ginrummy.current": 12},
]


@pytest.mark.parametrize("stored", DAMAGED)
def test_damaged_remembered_settings_start_a_game(browser: Any, tmp_path: Path, stored: dict[str, Any]) -> None:
    server, base = serve(tmp_path, seed=3)
    script = "".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(json.dumps(v))});" for k, v in stored.items())
    p = Phone(browser, base, DESKTOP, touch=False, init_script=script)
    try:
        p.goto("/")
        p.page.wait_for_function("() => document.querySelectorAll('#new-opponent option').length > 0")
        p.page.click("#new-options-box summary")
        p.page.wait_for_function("() => document.querySelectorAll('#new-options [data-opt]').length > 0")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        p.deal()
        p.page.wait_for_function("() => document.querySelectorAll('#hand .card').length >= 10")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()

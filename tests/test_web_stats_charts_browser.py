"""The statistics page's running-average chart per opponent and level, in a real browser: the
chart follows the opponent chosen above it (the charts of /api/stats, statwords.chart_choices, as
in the terminal).  Debian's chromium through Playwright, phone and desktop; seeded games; every
wait is for a condition.  Screenshots go to $GINRUMMY_SCREENSHOTS (else a temporary directory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pseudo_audit import shown
from test_stats_charts import history
from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import (
    axe_problems,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

from ginrummy.statwords import chart_choices  # noqa: E402

DOTS = "() => document.querySelectorAll('#chart-classic-box svg .dot').length"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_chart_follows_the_opponent_chosen(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    data = tmp_path / "data"
    store = history(data)
    charts = chart_choices(store.stats()["classic"])
    store.close()
    server, base = serve(data, seed=3)
    p = Phone(browser, base, size, touch=size == PHONE)
    try:
        p.goto("/stats")
        p.page.wait_for_selector("#chart-classic")
        options = p.page.locator("#chart-classic option").all_inner_texts()
        assert options == [c["label"] for c in charts]
        assert p.page.evaluate(DOTS) == len(charts[0]["values"]) == 6  # every game
        assert p.page.get_attribute("#chart-classic-box", "data-chart") == ""
        p.page.select_option("#chart-classic", "1")  # against the beginner: three games
        p.page.wait_for_function(f"() => ({DOTS})() === 3")
        assert p.page.get_attribute("#chart-classic-box", "data-chart") == "beginner"
        label = shown("page aria-label", p.page.get_attribute("#chart-classic-box svg", "aria-label") or "")
        assert "against beginner (level)" in label
        p.page.locator("#chart-classic").scroll_into_view_if_needed()
        p.shot("stats-chart-opponent")
        p.page.select_option("#chart-classic", "2")  # against the expert: two
        p.page.wait_for_function(f"() => ({DOTS})() === 2")
        assert p.page.get_attribute("#chart-classic-box", "data-chart") == "expert"
        assert axe_problems(p.page) == []
        assert p.page.evaluate("document.documentElement.scrollWidth") <= size[0]
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()

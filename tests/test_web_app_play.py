"""The browser app's play against the computer, in a real browser: the cut for the first deal,
the melds a knocker chooses to spread (``knocker_arrangement=choose``), undo, levels, remembered
settings, reordering by touch, the replay of a finished game and watching the computer play.

Playwright drives Debian's chromium (headless, ``--no-sandbox``) against seeded servers
(``create_app(deal_seed=...)``; the seeds were chosen so that the situation tested comes up); every
wait is for a condition.  Screenshots go to $GINRUMMY_SCREENSHOTS (else a temporary directory).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import CHROMIUM, HAND_OVER, LAUNCH_ARGS, SHOTS

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    import os

    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def set_option(page: Any, name: str, value: str) -> None:
    """Choose an option of the game in the lobby's Options (opened first)."""
    if not page.locator("#new-options-box").evaluate("d => d.open"):
        page.click("#new-options-box summary")
    page.select_option(f"#opt-{name}", value)


def test_the_cut_decides_who_deals_first(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=1)
    p = Phone(browser, base, DESKTOP, touch=False)
    try:
        p.start("classic")
        cut = p.page.locator("#cut")
        cut.wait_for()
        seats = cut.locator(".group[data-seat]")
        assert seats.count() >= 2  # each player cut a card (ties cut again)
        outcome = p.page.inner_text("#cut-outcome")
        assert "The lower card deals" in outcome
        # the cut's dealer is the dealer of the first hand (the badge beside the seat)
        you_deal = "you deal" in outcome
        p.deal()
        p.page.wait_for_function("() => !document.getElementById('cut')")
        badges = p.page.inner_text("#you-badges")
        assert ("dealer" in badges) == you_deal
        p.shot("cut-dealt")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_the_cut_for_the_roles_of_three(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=2)
    p = Phone(browser, base, PHONE)
    try:
        p.start("three")
        p.page.locator("#cut").wait_for()
        outcome = p.page.inner_text("#cut-outcome")
        assert "is in the box" in outcome and "captains" in outcome and "sits out" in outcome
        p.shot("cut-three")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_the_knocker_chooses_the_melds_to_spread(browser: Any, tmp_path: Path) -> None:
    # seed 1: the first knock of the first hand (after eight actions) may spread two arrangements
    server, base = serve(tmp_path, seed=1)
    p = Phone(browser, base, DESKTOP, touch=False)
    rng = random.Random(1)
    try:
        p.goto("/")
        p.page.select_option("#new-variant", "classic")
        set_option(p.page, "knocker_arrangement", "choose")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        p.deal()
        chosen = None
        for _ in range(40):
            phase = p.wait_turn()
            if phase in ("deal", "over"):
                break
            if phase == "discard":
                card = p.best_discard()
                p.card(card).click()
                if p.page.locator("#act-knock, #act-gin").count():
                    p.page.locator("#act-knock, #act-gin").first.click()
                    p.page.locator(".arrangement").first.wait_for()
                    choices = p.page.eval_on_selector_all(".arrangement", "bs => bs.map(b => b.dataset.action)")
                    assert len(choices) >= 2, choices
                    assert all(" | " in c for c in choices)
                    p.page.locator("#actions").scroll_into_view_if_needed()
                    p.shot("choose-melds")
                    chosen = choices[-1]  # not the least deadwood: the player's own choice
                    before = p.states()
                    p.page.click(f'.arrangement[data-action="{chosen}"]')
                    p.wait_states_after(before)
                    continue
            p.take_turn(rng)
        assert chosen is not None, "no knock came up"
        p.page.wait_for_function(HAND_OVER)
        melds = chosen.split(" | ")[1].split()
        spread = p.page.eval_on_selector_all(
            "#result .spread:first-of-type .group:not(.laid)",
            "gs => gs.map(g => Array.from(g.querySelectorAll('[data-card]')).map(c => c.dataset.card).join(''))",
        )
        assert sorted(spread) == sorted(melds), (spread, melds)
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_undo_against_the_computer_on_a_phone(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=1)
    p = Phone(browser, base, PHONE)
    rng = random.Random(1)
    try:
        p.start("classic")
        p.deal()
        assert p.page.locator("#undo").count() == 0  # nothing of yours to take back yet
        held = None
        for _ in range(20):
            phase = p.wait_turn()
            assert phase not in ("deal", "over")
            if held is not None:
                break
            if phase == "discard":
                held = sorted(p.hand())
            p.tap_turn(rng)
        assert held is not None
        p.shot("undo-before")
        before = p.states()
        p.press("#undo")
        p.wait_states_after(before)
        p.page.wait_for_function("() => document.getElementById('view-game').dataset.phase === 'discard'")
        assert sorted(p.hand()) == held  # back to your previous decision: the discard
        assert "Takebacks this game: 1" in p.page.inner_text("#takebacks")
        assert p.fits() == []
        p.shot("undo-after")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()

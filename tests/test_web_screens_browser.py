"""Every variant's screens on a phone (390x844) and a desktop (1280x800): a hand of each variant
played by touch on the phone, with the turn, the end of the hand and the lobby shown at both sizes.

On the phone a whole turn fits the screen without scrolling in every variant (the hand, the
actions, the stock and the pile inside the screen; nothing wider than it); at the end of the hand
the result is on the page and every other hand is face up. The same page is resized to the
desktop for the second screenshot of each moment, so a hand is played once per variant.

The screenshots (``variant-<name>-<moment>-<w>x<h>.png``) go to $GINRUMMY_SCREENSHOTS (else a
temporary directory); ``docs/screens.md`` shows them. Seeded server, a browser asking for reduced
motion (the screens are taken when nothing moves), every wait for a condition.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import (
    HAND_OVER,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

VARIANTS = ["classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire"]


def both_sizes(p: Phone, name: str, turn: bool = False) -> None:
    """A screenshot at the phone's size and one at the desktop's, then back to the phone; a turn
    fits the desktop's screen too."""
    p.shot(name)
    p.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    p.size = DESKTOP
    wide = p.page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= DESKTOP[0], f"{name}: the page is {wide} px wide at {DESKTOP[0]}"
    if turn:
        assert p.fits() == [], (name, p.fits())
    p.shot(name)
    p.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    p.size = PHONE
    p.page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hand_of_every_variant_at_both_sizes(browser: Any, tmp_path: Path, variant: str) -> None:
    server, base = serve(tmp_path, 61)
    try:
        p = Phone(browser, base, PHONE, motion="reduce")  # the moments shown are still: no glide waited for
        p.goto("/")
        p.page.wait_for_selector("#new-opponent option", state="attached")
        p.page.select_option("#new-variant", variant)
        if variant == "solitaire":
            p.page.click("#new-options-box summary")
            p.page.select_option("#opt-scoring", "none")  # one hand: gin or the joker
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        both_sizes(p, f"variant-{variant}-start")
        rng = random.Random(5)
        shown = False
        for _deal in range(6):  # a solitaire deal with the joker among the cards is dealt again
            p.deal()
            for _turn in range(90):
                phase = p.wait_turn()
                if phase in ("deal", "over"):
                    break
                assert p.fits() == [], (variant, phase, p.fits())
                if not shown and phase == "discard":
                    both_sizes(p, f"variant-{variant}-turn", turn=True)
                    shown = True
                p.tap_turn(rng)
            p.page.wait_for_function(HAND_OVER)
            if shown:
                break
        assert shown, f"{variant}: no turn to discard in six deals"
        assert p.page.locator("#result").is_visible()
        assert p.page.locator("#opponents .backs").count() == 0  # every other hand face up
        both_sizes(p, f"variant-{variant}-hand-over")
        assert p.errors == []
        p.close()
    finally:
        server.stop()

"""The page on a phone (390x844) in the languages whose texts run longest (issue 18): Latvian's long
words, Korean's wide letters and the pseudo-locale ``xx`` (every text two characters longer). In
every variant, at each of the player's turns of a hand played by touch, and in the discard with a
card chosen (the widest set of actions: discard, knock, gin), every button of the actions and the
undo button are wholly inside the screen, none covers another, none cuts off its label and none is
smaller than a finger's target (24 px square, WCAG 2.2's minimum); the turn fits the screen
without scrolling (``Phone.fits``).  Each discard with a card chosen is checked at the desktop's
size (1280x800) too, the same page resized.

Seeded servers (``create_app(deal_seed=...)``) and a browser asking for reduced motion (the
layout is checked when nothing moves; the glides have their own test); every wait is for a
condition. A screenshot of the first discard checked, ``phone-<lang>-<variant>-390x844.png``, goes
to $GINRUMMY_SCREENSHOTS (else a temporary directory).
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

LANGS = ["lv", "ko", "xx"]
VARIANTS = ["solitaire", "gin-solitaire", "classic", "three"]
SEEDS = {"solitaire": 71, "gin-solitaire": 72, "classic": 73, "three": 74}

# Every button the player can see in the actions (the undo button is one of them), with its box
# and whether its label is wider or taller than the button shows.
BUTTONS = """() => {
  const out = [];
  for (const n of document.querySelectorAll('#actions button')) {
    if (!n.checkVisibility()) continue;
    const r = n.getBoundingClientRect();
    out.push({
      name: n.id || n.dataset.action || n.textContent,
      box: [r.left, r.top, r.right, r.bottom],
      clipped: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,
    });
  }
  return {width: window.innerWidth, height: window.innerHeight, buttons: out};
}"""


def problems(p: Phone, undone: list[int]) -> list[str]:
    """What keeps a button of the actions from the player: outside the screen, under another, or
    its label cut off; and what of the turn is not on the screen.  Counts the checks in which the
    undo button was there (offered once the player has a decision to take back) in ``undone``."""
    seen = p.page.evaluate(BUTTONS)
    w, h = seen["width"], seen["height"]
    out = list(p.fits())
    buttons = seen["buttons"]
    for b in buttons:
        left, top, right, bottom = b["box"]
        if left < -0.5 or top < -0.5 or right > w + 0.5 or bottom > h + 0.5:
            out.append(f"{b['name']} at {[round(x) for x in b['box']]}, outside {w}x{h}")
        if b["clipped"]:
            out.append(f"{b['name']}: its label is cut off")
        if right - left < 24 or bottom - top < 24:  # WCAG 2.2's smallest target, 24 px square
            out.append(f"{b['name']}: {round(right - left)}x{round(bottom - top)} px, too small to tap")
    for i, a in enumerate(buttons):
        for b in buttons[i + 1 :]:
            across = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
            down = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
            if across > 0.5 and down > 0.5:
                out.append(f"{a['name']} and {b['name']} overlap")
    if any(b["name"] == "undo" for b in buttons):
        undone.append(1)
    return out


def at_desktop(p: Phone) -> None:
    p.page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    p.size = DESKTOP
    p.page.wait_for_function(f"() => window.innerWidth === {DESKTOP[0]}")
    p.settled()


def at_phone(p: Phone) -> None:
    p.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    p.size = PHONE
    p.page.wait_for_function(f"() => window.innerWidth === {PHONE[0]}")
    p.page.evaluate("() => window.scrollTo(0, 0)")
    p.settled()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_action_is_on_a_phone_screen(browser: Any, tmp_path: Path, lang: str, variant: str) -> None:
    server, base = serve(tmp_path, SEEDS[variant])
    try:
        # reduced motion: the layout is checked with nothing moving anyway, and no glide is waited for
        p = Phone(browser, base, PHONE, motion="reduce")
        p.goto(f"/?lang={lang}")
        p.page.wait_for_selector("#new-opponent option", state="attached")
        assert p.page.evaluate("() => document.documentElement.lang") == ("en" if lang == "xx" else lang)
        p.page.select_option("#new-variant", variant)
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        rng = random.Random(5)
        turns = discards = 0
        undone: list[int] = []
        shot = False
        for _deal in range(4):  # a solitaire deal with the joker among the cards is dealt again
            p.deal()
            for _turn in range(90):
                phase = p.wait_turn()
                if phase in ("deal", "over"):
                    break
                p.settled()
                assert problems(p, undone) == [], (lang, variant, phase)
                turns += 1
                if phase != "discard":
                    p.tap_turn(rng)  # the upcard passed, the stock drawn
                    continue
                # a card chosen: the actions offer to discard it, and to knock or go gin with it
                before = p.states()
                card = p.best_discard()
                chosen = f'#hand .card[data-card="{card}"]'
                p.press(chosen)
                p.page.wait_for_selector(f'{chosen}[aria-pressed="true"]')
                p.settled()
                assert problems(p, undone) == [], (lang, variant, card)
                at_desktop(p)
                assert problems(p, []) == [], (lang, variant, card, DESKTOP)
                at_phone(p)
                discards += 1
                if not shot:
                    p.shot(f"phone-{lang}-{variant}")
                    shot = True
                if p.page.locator("#act-gin, #act-knock").count():
                    p.press("#act-gin" if p.page.locator("#act-gin").count() else "#act-knock")
                elif p.page.locator("#act-discard").count() == 0:
                    p.discard_turn()  # the card just taken: the helpers pick another
                    continue
                else:
                    p.press(chosen)  # a second tap discards it
                p.wait_states_after(before)
            p.page.wait_for_function(HAND_OVER)
            if discards >= 5:
                break
        assert discards >= 5, f"{variant} in {lang}: {discards} discards checked in {turns} turns"
        assert len(undone) >= discards, f"the undo button in {len(undone)} of {turns + discards} checks"
        assert p.errors == []
        p.close()
    finally:
        server.stop()

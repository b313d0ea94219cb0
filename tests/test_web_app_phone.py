"""The browser app on a phone and on a desktop: a whole turn fits the screen without scrolling,
navigation stays where the player put it, the showdown shows every hand face up, the page keeps
the keyboard focus, the hand can be reordered (and stays so after a reload), hints and options
are in words, and the wide tables fit.

Playwright drives Debian's chromium (headless, ``--no-sandbox``) against a seeded server
(``create_app(deal_seed=...)``) on a loopback port; every wait is for a condition.  Screenshots
go to $GINRUMMY_SCREENSHOTS (else a temporary directory).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pseudo_audit import shown
from test_web_browser import (  # the same server, browser and page helpers
    HAND_OVER,
    SHOTS,
    TIMEOUT,
    Page,
    Server,
    _history,
    axe_problems,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

PHONE = (390, 844)
PHONE_LANDSCAPE = (844, 390)
DESKTOP = (1280, 800)


def serve(tmp_path: Path, seed: int, history: bool = False) -> tuple[Server, str]:
    """A fresh server, so that its first game is dealt from ``seed`` (the seeds of its games follow
    from the server's seed and the number of games it made)."""
    if history:
        _history(tmp_path)
    server = Server(tmp_path, deal_seed=seed)
    return server, server.url


class Phone(Page):
    """A page on a touch screen of the given size."""

    def __init__(
        self,
        browser: Any,
        base_url: str,
        size: tuple[int, int],
        touch: bool = True,
        motion: str = "no-preference",
        init_script: str | None = None,
    ) -> None:
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            has_touch=touch,
            is_mobile=touch,
            device_scale_factor=1,
            reduced_motion=motion,
        )
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.base = base_url
        self.size = size
        self.touch = touch

    def press(self, selector: str) -> None:
        """Tap (on a touch screen) or click the middle of what the player sees, where it is now:
        a finger does not scroll the page first (Playwright's tap would)."""
        loc = self.page.locator(selector)
        loc.wait_for(state="visible")
        self.settled()
        box = loc.bounding_box()
        assert box is not None, selector
        if box["y"] < 0 or box["y"] + box["height"] > self.size[1]:
            loc.scroll_into_view_if_needed()  # the lobby's forms may be longer than a screen
            box = loc.bounding_box()
            assert box is not None, selector
        x, y = box["x"] + min(box["width"] / 2, 20), box["y"] + box["height"] / 2
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def settled(self) -> None:
        """Wait until no card is gliding (the animations of draw, discard, spread and layoff)."""
        self.page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")

    def still(self, *selectors: str) -> None:
        """Wait until the elements of ``selectors`` are on the page, nothing glides, and their boxes
        stood in the same place two animation frames running (a card that is about to glide in, or
        a hand that a late state re-flows, would move under a finger placed from its old box)."""
        self.page.wait_for_function(
            """(sels) => {
                const els = sels.map((s) => document.querySelector(s));
                if (els.some((e) => !e)) return false;
                const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
                const key = els.map((e) => box(e).join(",")).join(";");
                const same = window.__stillKey === key;
                window.__stillKey = key;
                return same && document.getAnimations().every((a) => a.playState !== "running");
            }""",
            arg=list(selectors),
            polling="raf",
        )

    def start(self, variant: str, opponent: str | None = None) -> None:
        self.goto("/")
        self.page.select_option("#new-variant", variant)
        if opponent:
            self.page.wait_for_function("() => document.querySelectorAll('#new-opponent option').length > 0")
            self.page.select_option("#new-opponent", opponent)
        self.press("#new-start")
        self.page.wait_for_selector("#deal")

    def deal(self) -> None:
        before = self.states()
        self.press("#deal")
        self.wait_states_after(before)

    def fits(self) -> list[str]:
        """What of a turn is outside the screen (or needs scrolling): nothing, on every screen."""
        return list(
            self.page.evaluate(
                """() => {
              const out = [];
              const W = window.innerWidth, H = window.innerHeight;
              if (window.scrollY !== 0) out.push('scrolled ' + window.scrollY);
              if (document.documentElement.scrollWidth > W) out.push('page wider than the screen');
              const need = ['#status', '#hand', '#actions', '#stock', '#pile'];
              for (const sel of need) for (const n of document.querySelectorAll(sel)) {
                const r = n.getBoundingClientRect();
                if (r.height === 0) continue;
                const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
                if (r.top < 0 || r.bottom > H + 0.5 || r.left < 0 || r.right > W + 0.5) out.push(`${sel} at ${at}`);
              }
              for (const n of document.querySelectorAll('#hand .card, #actions button')) {
                const r = n.getBoundingClientRect();
                if (r.bottom > H + 0.5 || r.right > W + 0.5) out.push(`${n.dataset.card || n.id} off the screen`);
              }
              return out;
            }"""
            )
        )

    def tap_turn(self, rng: random.Random) -> None:
        """One turn by touch: the stock (or pass), then the best discard tapped twice."""
        phase = self.attr("phase")
        before = self.states()
        if phase == "upcard":
            self.press("#act-pass")
            self.wait_states_after(before)
        elif phase == "draw":
            self.press("#stock")
            self.wait_states_after(before)
        else:
            card = self.best_discard()
            sel = f'#hand .card[data-card="{card}"]'
            self.press(sel)
            ending = self.page.locator("#act-gin, #act-knock")
            if ending.count():
                self.press("#act-gin" if self.page.locator("#act-gin").count() else "#act-knock")
            elif self.page.locator("#act-discard").count() == 0:
                self.discard_turn()  # the card just taken: the helpers pick another
                return
            else:
                self.press(sel)
            self.wait_states_after(before)

    def shot(self, name: str) -> None:
        self.settled()
        w, h = self.size
        self.page.screenshot(path=str(SHOTS / f"{name}-{w}x{h}.png"))


# ------------------------------------------------------------------------------------ tests
# The phone upright and the desktop: every variant's hand in test_web_screens_browser.py.
@pytest.mark.parametrize("size", [PHONE_LANDSCAPE], ids=["landscape"])
def test_a_whole_hand_by_touch_fits_the_screen(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    server, base = serve(tmp_path, 41)
    try:
        p = Phone(browser, base, size)
        p.start("classic", "greedy")
        assert p.fits() == []
        p.deal()
        rng = random.Random(3)
        turns = 0
        shot = False
        while turns < 80:
            phase = p.wait_turn()
            if phase in ("deal", "over"):
                break
            assert p.fits() == [], (phase, p.fits())
            if phase == "discard" and not shot:
                p.shot("turn")
                shot = True
            p.tap_turn(rng)
            turns += 1
        p.page.wait_for_function(HAND_OVER)
        # the showdown: both hands face up, with melds, layoffs and deadwood
        assert p.page.locator("#result").is_visible()
        faceup = p.page.locator("#opponents .faceup .card")
        assert faceup.count() >= 1, p.page.inner_text("#result")
        assert p.page.locator("#opponents .backs").count() == 0
        assert p.page.locator("#deal").is_visible()
        p.shot("showdown")
        assert p.errors == []
        p.close()
    finally:
        server.stop()


def test_navigation_stays_where_the_player_put_it(browser: Any, tmp_path: Path) -> None:
    """Ann leaves the game for the statistics, then for the lobby; Bob's moves reach her page,
    which stays where she put it until she comes back."""
    server, base = serve(tmp_path, 43, history=True)
    try:
        a = Phone(browser, base, DESKTOP, touch=False)
        b = Phone(browser, base, PHONE)
        a.goto("/")
        a.page.wait_for_selector("#table-seat-2 option", state="attached")
        a.page.select_option("#table-seat-2", "person")
        a.page.click("#table-create")
        link = a.page.input_value("#invite-link-1")
        b.page.goto(link)
        b.page.fill("#join-name", "Bob")
        b.press("#join-go")
        b.page.wait_for_selector("#deal")
        a.page.wait_for_function("() => !document.getElementById('deal').disabled")
        a.page.click("#deal")
        b.press("#deal")
        for page in (a, b):
            page.page.wait_for_function("() => document.getElementById('view-game').dataset.hand === '1'")
        rng = random.Random(5)
        for target, shown in (("#nav-stats", "#view-stats"), ("#leave", "#view-lobby")):
            while a.attr("to-act") == "true":  # Ann plays until it is Bob's turn
                a.take_turn(rng)
            b.wait_turn()
            a.page.click(target)
            a.page.wait_for_selector(shown, state="visible")
            before = a.states()
            b.tap_turn(rng)  # Bob moves: Ann's page gets the new state...
            a.wait_states_after(before)
            assert a.page.locator(shown).is_visible()  # ...and stays where she put it
            assert not a.page.locator("#view-game").is_visible()
            a.page.click("#nav-play")
            a.page.wait_for_selector("#view-game", state="visible")
            if a.attr("phase") in ("deal", "over"):
                break
        assert a.errors == [] and b.errors == []
        a.close()
        b.close()
    finally:
        server.stop()


def test_focus_log_hints_and_reordering(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, 47)
    try:
        p = Phone(browser, base, DESKTOP, touch=False)
        p.start("classic", "greedy")
        p.page.keyboard.press("n")
        p.wait_states_after(0)
        p.page.locator("#hand .card").first.focus()  # a keyboard player's focus is in the game
        rng = random.Random(2)
        moves = 0
        while moves < 14:
            phase = p.wait_turn()
            if phase in ("deal", "over"):
                break
            if phase == "discard" and moves >= 2 and p.page.locator("#hint-box").is_hidden():
                before_hint = p.page.locator("#hint-box")
                p.page.keyboard.press("h")
                before_hint.wait_for(state="visible")
                text = shown("page", p.page.inner_text("#hint-box"))
                assert text.startswith("Hint: You "), text  # in words ("You discard 7♥h")
                p.page.click("#hint-box summary")
                assert "The figures: points" in shown("page", p.page.inner_text("#hint-box"))
                p.shot("hint")
            p.take_turn(rng, "keys")
            moves += 1
            # the keyboard focus stays in the game after every action
            p.page.wait_for_function("() => document.activeElement && document.activeElement !== document.body")
            assert p.page.evaluate("() => document.getElementById('view-game').contains(document.activeElement)")
        # the move log: the newest move in view, numbers of two digits not clipped
        log = p.page.locator("#log")
        assert log.locator("li").count() >= 10
        assert p.page.evaluate(
            "() => { const l = document.getElementById('log');"
            " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; }"
        )
        assert p.page.evaluate("() => parseFloat(getComputedStyle(document.getElementById('log')).paddingLeft)") >= 32
        # reorder the hand: Shift+arrow moves a card, the order survives a reload
        if p.attr("phase") not in ("deal", "over"):
            order = p.hand()
            p.card(order[0]).focus()
            p.page.keyboard.press("Shift+ArrowRight")
            moved = [order[1], order[0], *order[2:]]
            p.page.wait_for_function(
                "() => Array.from(document.querySelectorAll('#hand .card')).map(e => e.dataset.card).join()"
                f" === '{','.join(moved)}'"
            )
            p.page.reload()
            p.page.wait_for_function("() => +document.getElementById('view-game').dataset.states > 0")
            assert p.hand()[:2] == moved[:2]
        assert p.errors == []
        p.close()
    finally:
        server.stop()


def test_wide_things_fit_a_phone(browser: Any, tmp_path: Path) -> None:
    """The three-player score sheet, the statistics page and the options, at phone size."""
    server, base = serve(tmp_path, 53, history=True)
    try:
        p = Phone(browser, base, PHONE)
        p.goto("/")
        p.page.select_option("#new-variant", "classic")
        p.page.click("#new-options-box summary")
        labels = p.page.locator("#new-options label").all_inner_texts()
        assert labels and all("_" not in t for t in labels), labels
        choices = p.page.locator("#new-options select option").all_inner_texts()
        assert choices and all("_" not in t for t in choices), choices
        p.shot("lobby-options")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        # three players: the sheet fits its panel
        p.press("#home-link")
        p.page.select_option("#new-variant", "three")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        p.deal()
        for size in (PHONE, DESKTOP):
            p.page.set_viewport_size({"width": size[0], "height": size[1]})
            over = p.page.evaluate(
                "() => { const t = document.getElementById('sheet-table');"
                " return t.scrollWidth - t.parentElement.clientWidth; }"
            )
            assert over <= 0
            assert p.page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        p.page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        p.press("#nav-stats")
        p.page.wait_for_selector("svg.chart")
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
        p.shot("statistics")
        assert axe_problems(p.page) == []
        assert p.errors == []
        p.close()
    finally:
        server.stop()


def test_a_solitaire_redeal_shows_the_joker(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, 2)  # its first game (seed 1002): the joker is among the ten dealt
    try:
        p = Phone(browser, base, PHONE)
        p.start("solitaire")
        p.deal()
        p.page.wait_for_selector("#dealt-joker")
        assert p.page.locator("#dealt-joker .joker-card").count() == 1
        assert "redeal" in p.page.inner_text("#result").lower()
        p.shot("solitaire-redeal")
        assert p.errors == []
        p.close()
    finally:
        server.stop()


def test_a_browser_solitaire_gets_its_accuracy(browser: Any, tmp_path: Path) -> None:
    """The terminal's analysis (ginrummy.finish) runs on a finished browser solitaire: the page
    shows the accuracy and the statistics count it."""
    server, base = serve(tmp_path, 11)
    try:
        p = Phone(browser, base, PHONE)
        p.goto("/")
        p.page.select_option("#new-variant", "solitaire")
        p.page.click("#new-options-box summary")
        p.page.select_option("#opt-scoring", "none")  # gin wins, the joker loses: a short game
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        for _hand in range(10):
            if p.attr("game-over") == "true":
                break
            p.deal()
            for _turn in range(60):
                if p.attr("phase") != "discard":
                    break
                p.discard_turn()
        assert p.attr("game-over") == "true"
        p.page.wait_for_selector("#accuracy")
        shown = float(p.page.inner_text("#accuracy").rstrip("%"))
        assert 0 <= shown <= 100
        p.shot("solitaire-accuracy")
        stats = p.page.evaluate("() => fetch('/api/stats').then(r => r.json())")
        accuracy = stats["variants"]["solitaire"]["accuracy"]
        assert accuracy is not None and round(accuracy * 100) == round(shown)
        assert p.errors == []
        p.close()
    finally:
        server.stop()


def test_the_final_total_shows_every_bonus_on_its_own_line(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, 17)
    try:
        p = Phone(browser, base, DESKTOP, touch=False)
        p.goto("/")
        p.page.select_option("#new-variant", "classic")
        p.page.wait_for_function("() => document.querySelectorAll('#new-opponent option').length > 0")
        p.page.select_option("#new-opponent", "greedy")
        p.page.click("#new-options-box summary")
        p.page.fill("#opt-game_target", "1")  # the first hand anyone scores ends the game
        p.page.click("#new-start")
        p.page.wait_for_selector("#deal")
        rng = random.Random(8)
        for _hand in range(6):
            if p.attr("game-over") == "true":
                break
            p.deal()
            for _turn in range(80):
                if p.wait_turn() in ("deal", "over"):
                    break
                p.take_turn(rng)
        assert p.attr("game-over") == "true"
        parts = p.page.locator("#final-parts")
        parts.wait_for(state="visible")
        text = parts.inner_text()
        assert "points of the hands" in text and "game bonus" in text and "box bonus" in text
        assert text.count("Final total") == 2
        p.shot("final-total")
        assert p.errors == []
        p.close()
    finally:
        server.stop()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_rules_are_one_key_away(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    server, base = serve(tmp_path, 19)
    try:
        p = Phone(browser, base, size, touch=False)
        p.start("oklahoma", "greedy")
        p.page.keyboard.press("r")
        dialog = p.page.locator("#rules-dialog")
        dialog.wait_for(state="visible")
        p.page.wait_for_selector('#rules-body section[data-section="5:oklahoma"] table')
        text = p.page.inner_text("#rules-body")
        assert "1b. Oklahoma Gin" in text and "initial upcard" in text
        assert "3. Solitaire" not in text  # only the sections of this variant
        assert shown("page title", p.page.title()).startswith("Oklahoma")
        assert "Rules: Oklahoma gin" in shown("page", p.page.inner_text("#rules-title"))
        p.shot("rules")
        assert axe_problems(p.page) == []
        p.page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        assert p.errors == []
        p.close()
    finally:
        server.stop()


COUNT_ANIMATIONS = """
window.__glides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__glides += 1; return animate.apply(this, args); };
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_glide_unless_reduced_motion_is_asked(browser: Any, tmp_path: Path, motion: str) -> None:
    """Draw and discard animate (the Web Animations API) unless the player's system asks for
    reduced motion; the discard history unfolds the pile; a card dragged onto another moves there."""
    server, base = serve(tmp_path, 23)
    try:
        p = Phone(browser, base, DESKTOP, touch=False, motion=motion, init_script=COUNT_ANIMATIONS)
        p.start("classic", "greedy")
        p.deal()
        rng = random.Random(4)
        for _ in range(6):
            if p.wait_turn() in ("deal", "over"):
                break
            p.take_turn(rng)
        glides = p.page.evaluate("() => window.__glides")
        if motion == "reduce":
            assert glides == 0
        else:
            assert glides > 0
        if p.attr("phase") not in ("deal", "over"):
            p.page.click("#discard-history summary")
            pile = p.page.locator("#discard-history li")
            pile.first.wait_for(state="visible")
            assert pile.count() >= 1
            order = p.hand()
            p.page.drag_and_drop(f'#hand .card[data-card="{order[0]}"]', f'#hand .card[data-card="{order[3]}"]')
            p.page.wait_for_function(f"() => document.querySelectorAll('#hand .card')[3].dataset.card === '{order[0]}'")
        assert p.errors == []
        p.close()
    finally:
        server.stop()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_screen_at_both_sizes(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    """The lobby, a game in play (with a hint, and with every display switch), the statistics, the
    keys and the rules: a screenshot of each, no serious axe violation, nothing wider than the screen."""
    server, base = serve(tmp_path, 29, history=True)
    try:
        p = Phone(browser, base, size, touch=False)
        p.goto("/")
        p.page.wait_for_selector("#new-opponent option", state="attached")
        problems = axe_problems(p.page)
        p.shot("screen-lobby")
        p.start("three", "greedy")
        p.deal()
        p.wait_turn()
        if p.page.locator("#hint").count():
            p.page.click("#hint")
            p.page.wait_for_selector("#hint-box:not([hidden])")
        problems += axe_problems(p.page)
        p.shot("screen-three")
        if size == PHONE:
            p.page.click("#nav-display")
        for pref in ("#pref-four", "#pref-contrast"):
            p.page.click(pref)
        problems += axe_problems(p.page)
        p.shot("screen-three-contrast")
        for pref in ("#pref-four", "#pref-contrast"):
            p.page.click(pref)
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        p.page.click("#nav-stats")
        p.page.wait_for_selector("svg.chart")
        problems += axe_problems(p.page)
        p.shot("screen-statistics")
        p.page.keyboard.press("?")
        p.page.locator("#help").wait_for(state="visible")
        p.shot("screen-keys")
        p.page.keyboard.press("Escape")
        p.page.keyboard.press("r")
        p.page.wait_for_selector("#rules-body section")
        p.shot("screen-rules")
        assert problems == [], "\n".join(problems)
        assert p.errors == []
        p.close()
    finally:
        server.stop()

"""The browser app's play against the computer, in a real browser: the cut for the first deal,
the melds a knocker chooses to spread (``knocker_arrangement=choose``), undo, levels, remembered
settings, reordering by touch, the replay of a finished game and watching the computer play.

Playwright drives Debian's chromium (headless, ``--no-sandbox``) against seeded servers
(``create_app(deal_seed=...)``; the seeds were chosen so that the situation tested comes up); every
wait is for a condition.  Screenshots go to $GINRUMMY_SCREENSHOTS (else a temporary directory).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pseudo_audit import shown
from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import (
    HAND_OVER,
    axe_problems,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")


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
        assert "in the box" in outcome and "captain" in outcome and "sit" in outcome
        assert "You is" not in outcome
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
                card = p.best_discard()  # (never the card just taken: this player only draws)
                p.card(card).click()
                if p.page.locator("#act-knock, #act-gin").count():
                    p.page.locator("#act-knock, #act-gin").first.click()
                    p.page.locator(".arrangement").first.wait_for()
                    choices = p.page.eval_on_selector_all(".arrangement", "bs => bs.map(b => b.dataset.action)")
                    assert len(choices) >= 2, choices
                    assert all(" | " in c for c in choices)
                    p.page.locator("#actions").scroll_into_view_if_needed()
                    p.shot("choose-melds")
                    assert axe_problems(p.page) == []
                    chosen = choices[-1]  # not the least deadwood: the player's own choice
                    before = p.states()
                    p.page.click(f'.arrangement[data-action="{chosen}"]')
                    p.wait_states_after(before)
                    continue
                before = p.states()
                p.card(card).click()  # a second click on the chosen card discards it
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
        assert axe_problems(p.page) == []
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_levels_and_remembered_settings(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=3)
    p = Phone(browser, base, DESKTOP, touch=False)
    try:
        p.goto("/")
        p.page.select_option("#new-variant", "oklahoma")
        p.page.wait_for_function("() => document.querySelectorAll('#new-opponent optgroup').length === 2")
        levels = p.page.eval_on_selector_all(
            "#new-opponent optgroup[label*='Levels'] option", "os => os.map(o => o.value)"
        )
        assert levels == ["beginner", "casual", "intermediate", "advanced", "expert"]  # weakest first
        p.page.select_option("#new-opponent", "casual")
        assert shown("page", p.page.inner_text("#new-opponent-about")).startswith("Casual: ")
        p.page.fill("#new-name", "Ann")
        p.page.click("#new-options-box summary")
        p.page.fill("#opt-gin_bonus", "30")
        p.shot("lobby-levels")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        assert "computer: casual" in shown("page", p.page.inner_text("#opponents"))
        # another visit: the lobby is as the player left it
        p.page.goto(base + "/")
        p.page.click("#home-link")
        p.page.wait_for_function("() => document.getElementById('new-variant').value === 'oklahoma'")
        p.page.wait_for_function("() => document.getElementById('new-opponent').value === 'casual'")
        assert p.page.input_value("#new-name") == "Ann"
        assert p.page.input_value("#opt-gin_bonus") == "30"
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_watching_the_computer_play_is_kept_in_no_history(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=4)
    p = Phone(browser, base, PHONE)
    try:
        p.goto("/")
        p.page.select_option("#new-variant", "solitaire")
        p.page.check("#new-watch")
        p.page.wait_for_function("() => !document.getElementById('new-opponent').hidden")
        p.page.select_option("#new-opponent", "greedy")
        set_option(p.page, "scoring", "none")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        for _ in range(30):
            if p.attr("game-over") == "true":
                break
            p.deal()
            p.page.wait_for_function(HAND_OVER)
            assert "you are watching" in p.page.inner_text("#hand-title")
            # the person never acts: no action of the player's own is offered
            assert p.page.locator("#actions button:not(#deal):not(#new-game):not(#replay-game)").count() == 0
        assert p.attr("game-over") == "true"
        p.shot("watched-over")
        stats = p.page.evaluate("async () => (await fetch('/api/stats')).json()")
        assert stats["variants"] == {}  # watched games are nobody's: filed in no history
        saved = p.page.evaluate("async () => (await fetch('/api/saved')).json()")
        assert saved["games"] == []
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float], steps: int = 8) -> None:
    """A finger's drag, as the touch screen reports it (Chrome DevTools' touch events)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for k in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + min(box["width"] / 2, 12), box["y"] + box["height"] / 2


def drag_by_touch(p: Phone, what: str, onto: str) -> None:
    """A finger drags ``what`` onto ``onto`` once both stand still on the page."""
    p.still(what, onto)
    touch_drag(p.page, centre(p.page, what), centre(p.page, onto))


def discard_by_touch(p: Phone) -> None:
    """In the discard phase, a finger drags the best discard onto the pile: it is discarded."""
    p.settled()
    card = p.best_discard()
    before = p.states()
    drag_by_touch(p, f'#hand .card[data-card="{card}"]', "#pile")
    p.wait_states_after(before)
    p.page.wait_for_function(f"() => !document.querySelector('#hand .card[data-card=\"{card}\"]')")


def test_reordering_the_hand_by_touch_on_a_phone(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=5)
    p = Phone(browser, base, PHONE)
    try:
        p.start("classic")
        p.deal()
        p.page.wait_for_function("() => document.querySelectorAll('#hand .card').length >= 10")
        p.settled()
        order = p.hand()
        moved, onto = order[0], order[4]
        drag_by_touch(p, f'#hand .card[data-card="{moved}"]', f'#hand .card[data-card="{onto}"]')
        p.page.wait_for_function(f"() => document.querySelectorAll('#hand .card')[4].dataset.card === '{moved}'")
        new = p.hand()
        assert new == [*order[1:5], moved, *order[5:]][: len(new)] or new.index(moved) == 4
        assert p.fits() == []
        p.shot("touch-reordered")
        p.page.reload()
        p.page.wait_for_function(f"() => document.querySelectorAll('#hand .card')[4]?.dataset.card === '{moved}'")
        # a finger drags the card to discard onto the pile
        rng = random.Random(5)
        while p.wait_turn() in ("upcard", "draw"):
            p.tap_turn(rng)
        assert p.attr("phase") == "discard"
        discard_by_touch(p)
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


# The hand's cards glide back slowly where they were dropped (the page's own glide is 0.12 s): a
# drop must be judged by what is under the finger, not by the dragged card on its way back.
# (added to the page's own style sheet: its content security policy refuses a <style> element)
SLOW_GLIDE = """window.addEventListener('load', () => {
  const sheet = [...document.styleSheets].find((s) => s.href && s.href.includes('style.css'));
  sheet.insertRule('.hand .card:not(.dragging) { transition: transform 5s linear !important; }', sheet.cssRules.length);
  document.documentElement.dataset.slowGlide = 'yes';
});"""


def test_a_card_dropped_by_touch_is_judged_by_what_is_under_the_finger(browser: Any, tmp_path: Path) -> None:
    """A finger drops a card on the pile while the card glides back to the hand (slowed down here:
    under load the page's short glide had the same effect, and the drop did nothing): it is
    discarded; dropped on another card of the hand, it takes that card's place."""
    server, base = serve(tmp_path, seed=5)
    p = Phone(browser, base, PHONE, init_script=SLOW_GLIDE)
    try:
        p.start("classic")
        p.page.wait_for_function("() => document.documentElement.dataset.slowGlide === 'yes'")
        p.deal()
        rng = random.Random(5)
        while p.wait_turn() in ("upcard", "draw"):
            p.tap_turn(rng)
        assert p.attr("phase") == "discard"
        p.settled()
        order = p.hand()
        moved, onto = order[0], order[4]
        drag_by_touch(p, f'#hand .card[data-card="{moved}"]', f'#hand .card[data-card="{onto}"]')
        p.page.wait_for_function(f"() => document.querySelectorAll('#hand .card')[4].dataset.card === '{moved}'")
        discard_by_touch(p)
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


# The first finished game of two players in the lobby's list (its button's label read as an English
# run shows it: without the pseudo-locale's markers).
TWO_PLAYERS = """() => {
  const named = (b) => (b.getAttribute('aria-label') || '').replace(/[\\u27e6\\u27e7]/g, '');
  const button = [...document.querySelectorAll('[data-replay]')].find((b) => named(b).includes('Player 1 v Player 2'));
  return button ? button.dataset.replay : null;
}"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_replay_viewer_steps_through_a_finished_game(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    server, base = serve(tmp_path, seed=6, history=True)  # a few finished games in the history
    p = Phone(browser, base, size, touch=size == PHONE)
    try:
        p.goto("/")
        game = p.page.wait_for_function(TWO_PLAYERS).json_value()  # a two-player game
        classic = f'[data-replay="{game}"]'
        p.press(classic)
        p.page.wait_for_selector("#view-replay:not([hidden])")
        assert shown("page", p.page.inner_text("#replay-move")) == "The game begins."
        assert p.page.is_disabled("#replay-back")
        p.press("#replay-next")
        p.page.wait_for_function(
            "() => document.getElementById('replay-move').textContent"
            ".replace(/[\\u27e6\\u27e7]/g, '').startsWith('Hand 1')"
        )
        assert p.page.locator("#replay-board .replay-seat").count() == 2  # both hands face up
        p.press("#replay-next")
        p.page.wait_for_function(
            "() => document.getElementById('replay-pos').textContent"
            ".replace(/[\\u27e6\\u27e7]/g, '').startsWith('Step 2 ')"
        )
        p.shot("replay-step")
        p.page.keyboard.press("End")
        p.page.locator("#replay-final").wait_for()
        assert p.page.is_disabled("#replay-next")
        p.shot("replay-end")
        assert axe_problems(p.page) == []
        p.page.keyboard.press("ArrowLeft")
        p.page.wait_for_function("() => !document.getElementById('replay-final')")
        p.page.keyboard.press("Home")
        p.page.wait_for_function(
            "() => document.getElementById('replay-move').textContent"
            ".replace(/[\\u27e6\\u27e7]/g, '') === 'The game begins.'"
        )
        assert p.page.evaluate("document.documentElement.scrollWidth") <= size[0]
        p.press("#replay-close")
        p.page.wait_for_selector("#view-lobby:not([hidden])")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_replay_this_game_at_the_end_of_a_game(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=4)
    p = Phone(browser, base, PHONE)
    try:
        p.goto("/")
        p.page.select_option("#new-variant", "solitaire")
        p.page.check("#new-watch")
        p.page.select_option("#new-opponent", "greedy")
        set_option(p.page, "scoring", "none")
        p.press("#new-start")
        p.page.wait_for_selector("#deal")
        for _ in range(30):
            if p.attr("game-over") == "true":
                break
            p.deal()
            p.page.wait_for_function(HAND_OVER)
        p.press("#replay-game")
        p.page.wait_for_selector("#view-replay:not([hidden])")
        steps = int(p.page.get_attribute("#replay-slider", "max") or 0)
        assert steps > 2
        p.page.keyboard.press("End")
        p.page.locator("#replay-final").wait_for()
        p.press("#replay-close")
        p.page.wait_for_selector("#view-game:not([hidden])")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_the_defender_chooses_the_layoffs(browser: Any, tmp_path: Path) -> None:
    # seed 15: the computer knocks in the first hand; the engine lays off 5d for you, and 4h could go instead
    server, base = serve(tmp_path, seed=15)
    p = Phone(browser, base, DESKTOP, touch=False)
    try:
        p.start("classic")
        p.deal()
        for _ in range(60):
            phase = p.wait_turn()
            if phase in ("deal", "over"):
                break
            before = p.states()
            if phase == "upcard":
                p.page.click("#act-pass")
            elif phase == "draw":
                p.page.click("#stock")
            else:  # never knock: discard the best card (chosen, then chosen again)
                card = p.best_discard()
                p.card(card).click()
                p.card(card).click()
            p.wait_states_after(before)
        p.page.wait_for_function(HAND_OVER)
        p.page.locator("#layoff-choice").wait_for()
        offered = p.page.eval_on_selector_all("#layoff-choice button", "bs => bs.map(b => b.dataset.action)")
        assert offered == ["layoff 5d", "layoff 4h"] or sorted(offered) == ["layoff 4h", "layoff 5d"], offered
        laid = p.page.eval_on_selector_all("#result .laid [data-card]", "cs => cs.map(c => c.dataset.card)")
        assert laid == ["5d"]  # the engine's choice
        p.shot("layoff-choice")
        before = p.states()
        p.page.click("#layoff-4h")
        p.wait_states_after(before)
        laid = p.page.eval_on_selector_all("#result .laid [data-card]", "cs => cs.map(c => c.dataset.card)")
        assert laid == ["4h"]  # the player's own choice replaced it
        assert "You lay off 4♥" in p.page.inner_text("#log")  # in the move log's words
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()

"""The browser app in a real browser: Playwright for Python driving Debian's chromium against a
uvicorn server on a free loopback port.  Hands are played by clicking, dragging and with the
keyboard; two browser contexts share one table; axe-core checks the pages' accessibility.

Screenshots go to $GINRUMMY_SCREENSHOTS (else a temporary directory).  Skipped when /usr/bin/chromium is absent.
"""

from __future__ import annotations

import os
import random
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pseudo_audit import shown

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium at /usr/bin/chromium"),
]
sync_api = pytest.importorskip("playwright.sync_api")

from ginrummy.cards import Card, CardSet  # noqa: E402
from ginrummy.melds import deadwood_after_discards  # noqa: E402
from ginrummy.session import Session  # noqa: E402
from ginrummy.store import Store, new_game_id  # noqa: E402

# Screenshots: into $GINRUMMY_SCREENSHOTS when set (CI keeps them as artifacts), else a temporary directory.
SHOTS = Path(os.environ.get("GINRUMMY_SCREENSHOTS") or tempfile.gettempdir() + "/ginrummy-screenshots")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT = 20_000  # ms
HAND_OVER = "() => ['deal', 'over'].includes(document.getElementById('view-game').dataset.phase)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _history(data_dir: Path) -> None:
    """A few finished games so that the statistics page has charts to draw."""
    store = Store(data_dir)
    rng = random.Random(4)
    for i in range(4):
        # a person's games against the computer (computer-only games are in nobody's history)
        s = Session.new("classic", {"game_target": 25}, seats=["human", "greedy"], deal_seed=100 + i)
        while not s.state.game_over:
            if s.state.needs_deal:
                s.start_hand()
            elif s.human_to_act() == 0:
                s.act(0, rng.choice(s.state.legal_actions()))
            else:
                s.run_computers()
        store.save_game(new_game_id() + str(i), s)
    for i in range(3):
        # the person's own games (a game only computers played is in nobody's history): random moves
        s = Session.new("solitaire", {"scoring": "none"}, seats=["human", "joker"], deal_seed=200 + i)
        while not s.state.game_over:
            if s.state.needs_deal:
                s.start_hand()
            else:
                s.act(0, rng.choice(s.state.legal_actions()))
        store.finish_game(new_game_id() + f"s{i}", s, analysis={"accuracy": rng.uniform(0.6, 0.95)})


class Server:
    """uvicorn serving the app in a thread on a loopback port."""

    def __init__(self, data_dir: Path, port: int = 0, **options: Any) -> None:
        import uvicorn

        from ginrummy.web import create_app

        options.setdefault("deal_seed", 31)  # every deal of these tests is seeded
        app = create_app(data_dir, computer_delay=0.02, **options)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", timeout_graceful_shutdown=2
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        # port 0: the system's free port, taken by the server itself (no race with other test
        # processes between choosing a port and binding it)
        self.port = int(self.server.servers[0].sockets[0].getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        if self.thread.is_alive():  # never leave a serving thread behind (it would run into the interpreter's exit)
            raise AssertionError("the test server did not stop")


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    """A server for each test: the server seeds each game by the number it made before, so a server
    shared by the module's tests would deal each test differently depending on how pytest-xdist
    shared them out (once a deal in which the person sat the first hand of three out)."""
    _history(tmp_path)
    server = Server(tmp_path)
    yield server.url
    server.stop()


@pytest.fixture(scope="module", name="browser")
def chromium_browser() -> Iterator[Any]:
    """Debian's chromium, headless, one a test module (the other browser test modules import this)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("needs Debian's chromium at /usr/bin/chromium")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


class Page:
    """A page of the app with the helpers a player needs."""

    def __init__(self, browser: Any, base_url: str, width: int = 1280, height: int = 900) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.base = base_url

    def goto(self, path: str = "/") -> None:
        self.page.goto(self.base + path)

    def attr(self, name: str) -> str:
        return self.page.get_attribute("#view-game", f"data-{name}") or ""

    def states(self) -> int:
        return int(self.attr("states") or 0)

    def wait_states_after(self, before: int) -> None:
        self.page.wait_for_function(
            f"() => +(document.getElementById('view-game').dataset.states || 0) > {before}", timeout=TIMEOUT
        )

    def deal(self) -> None:
        """Deal (the button), and wait until the page shows the hand dealt: until then its phase is
        still ``deal``, which :meth:`wait_turn` would take for the hand's end."""
        self.page.click("#deal")
        self.page.wait_for_function(
            "() => document.getElementById('view-game').dataset.phase !== 'deal'", timeout=TIMEOUT
        )

    def wait_turn(self) -> str:
        """Wait until this player must act or the hand is over; return the phase."""
        self.page.wait_for_function(
            """() => { const g = document.getElementById('view-game');
                       return g.dataset.toAct === 'true' || ['deal', 'over'].includes(g.dataset.phase); }""",
            timeout=TIMEOUT,
        )
        return self.attr("phase")

    def hand(self) -> list[str]:
        return self.page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)")

    def best_discard(self) -> str:
        cards = self.hand()
        mask = int(CardSet.of(Card.parse(c) for c in cards))
        after = {str(c): d for c, d in deadwood_after_discards(mask).items()}
        # a card just taken from the pile may not be discarded: the page shows it as not discardable
        return min(cards, key=lambda c: (after[c], c))

    def card(self, card: str) -> Any:
        return self.page.locator(f'#hand .card[data-card="{card}"]')

    def discard_turn(self, how: str = "click") -> None:
        """Choose the best discard; knock or go gin with it when the page offers that."""
        before = self.states()
        card = self.best_discard()
        if how == "keys":
            index = self.hand().index(card)
            self.page.locator("#hand .card").first.focus()
            self.page.keyboard.press("1234567890-"[index])
        else:
            self.card(card).click()
        ending = self.page.locator("#act-gin, #act-knock")
        if ending.count():
            ending.first.click()
        elif self.page.locator("#act-discard").count() == 0:
            # it was just taken from the discard pile: discard the next best card instead
            others = [c for c in self.hand() if c != card]
            mask = int(CardSet.of(Card.parse(c) for c in self.hand()))
            after = {str(c): d for c, d in deadwood_after_discards(mask).items()}
            other = min(others, key=lambda c: (after[c], c))
            self.card(other).click()
            self.card(other).click()
        elif how == "keys":
            self.page.keyboard.press("x")
        elif how == "drag":
            self.page.drag_and_drop(f'#hand .card[data-card="{card}"]', "#pile")
        else:
            self.card(card).click()  # a second click on the chosen card discards it
        self.wait_states_after(before)

    def take_turn(self, rng: random.Random, how: str = "click") -> None:
        phase = self.attr("phase")
        before = self.states()
        if phase == "upcard":
            if how == "keys":
                self.page.keyboard.press("p")
            else:
                self.page.click("#act-pass")
            self.wait_states_after(before)
        elif phase == "draw":
            if how == "keys":
                self.page.keyboard.press("d")
            else:
                self.page.click("#stock")
            self.wait_states_after(before)
        else:
            self.discard_turn(how)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()


def axe_problems(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


# ------------------------------------------------------------------------------------ tests
def test_solitaire_hand_played_by_clicking(browser: Any, base_url: str) -> None:
    p = Page(browser, base_url)
    p.goto("/")
    p.page.select_option("#new-variant", "solitaire")
    p.page.click("#new-start")
    p.page.wait_for_selector("#deal")
    commitment = p.page.inner_text("#next-commitment")
    for _attempt in range(6):  # the joker dealt among the ten means a redeal (rule 3.2)
        before = p.states()
        p.page.click("#deal")
        p.wait_states_after(before)
        if p.attr("phase") == "discard":
            break
    assert p.page.inner_text("#commitment") in (commitment, p.page.inner_text("#commitment"))
    chance = p.page.inner_text("#joker-chance")
    assert chance.endswith("%") and 0 < float(chance[:-1]) < 100
    assert "0 to" in p.page.inner_text("#joker-above")
    p.shot("solitaire-in-play")
    turns = 0
    while p.attr("phase") == "discard" and turns < 60:
        p.discard_turn("drag" if turns == 1 else "click")
        turns += 1
    assert p.attr("phase") in ("deal", "over")
    result = p.page.locator("#result")
    assert result.is_visible()
    assert p.page.locator("#result .explain li").count() >= 1
    p.page.wait_for_function("() => document.getElementById('verify').textContent.includes('Verified')")
    p.shot("solitaire-hand-over")
    assert p.errors == []
    p.close()


def test_classic_hand_against_the_computer_with_keys_and_a_reload(browser: Any, base_url: str) -> None:
    rng = random.Random(7)
    p = Page(browser, base_url)
    p.goto("/")
    p.page.select_option("#new-variant", "classic")
    p.page.wait_for_function("() => document.querySelectorAll('#new-opponent option').length > 0")
    p.page.select_option("#new-opponent", "greedy")
    p.page.fill("#new-name", "Ann")
    p.page.click("#new-start")
    p.page.wait_for_selector("#deal")
    before = p.states()
    p.page.keyboard.press("n")  # deal with the keyboard
    p.wait_states_after(before)
    turns = 0
    reloaded = False
    # Deals are secret and random: the computer may end a hand before the fifth turn of ours, so
    # deal again (a few times at most) until the reload has happened in the middle of a hand.
    for _ in range(5):
        in_hand = 0
        while in_hand < 80:
            phase = p.wait_turn()
            if phase in ("deal", "over"):
                break
            if turns >= 4 and not reloaded:
                hand = sorted(p.hand())
                p.page.reload()  # the page keeps only the game id and the seat token
                p.page.wait_for_function("() => document.getElementById('view-game').dataset.states > 0")
                p.wait_turn()
                assert sorted(p.hand()) == hand
                reloaded = True
            if turns == 2:
                p.shot("classic-in-play")
            p.take_turn(rng, "keys" if turns % 2 else "click")
            turns += 1
            in_hand += 1
        if reloaded or phase == "over":
            break
        before = p.states()
        p.page.keyboard.press("n")
        p.wait_states_after(before)
    assert reloaded and p.attr("phase") in ("deal", "over")
    assert p.page.locator("#result").is_visible()
    assert "Ann" in p.page.inner_text("#sheet-table")
    p.shot("classic-hand-over")
    assert p.errors == []
    p.close()


def test_two_people_play_one_classic_table(browser: Any, base_url: str) -> None:
    rng = random.Random(9)
    a = Page(browser, base_url)
    b = Page(browser, base_url)
    a.goto("/")
    a.page.wait_for_selector("#table-seat-2 option", state="attached")
    a.page.select_option("#table-seat-2", "person")
    a.page.fill("#table-name", "Ann")
    a.page.click("#table-create")
    link = a.page.input_value("#invite-link-1")
    assert "/join/" in link
    a.shot("table-waiting")
    b.page.goto(link)
    b.page.fill("#join-name", "Bob")
    b.page.click("#join-go")
    b.page.wait_for_selector("#deal")
    a.page.wait_for_function("() => !document.getElementById('deal').disabled")
    for page in (a, b):
        page.page.click("#deal")
    for page in (a, b):
        page.page.wait_for_function("() => document.getElementById('view-game').dataset.hand === '1'")
    assert "Bob" in a.page.inner_text("#opponents") and "Ann" in b.page.inner_text("#opponents")
    turns = 0
    deadline = time.time() + 60
    while turns < 120:
        if a.attr("phase") in ("deal", "over") and b.attr("phase") in ("deal", "over"):
            break
        mover = a if a.attr("to-act") == "true" else b if b.attr("to-act") == "true" else None
        if mover is None:
            assert time.time() < deadline, (a.page.inner_text("#status"), b.page.inner_text("#status"))
            time.sleep(0.05)
            continue
        if turns == 3:
            a.shot("table-ann")
            b.shot("table-bob")
        mover.take_turn(rng)
        turns += 1
    for page in (a, b):
        page.page.wait_for_function(
            "() => ['deal', 'over'].includes(document.getElementById('view-game').dataset.phase)"
        )
        assert page.page.locator("#result").is_visible()
    assert a.page.inner_text("#result .explain") == b.page.inner_text("#result .explain")
    a.shot("table-hand-over")
    # opening the invitation again in a browser that has a seat there returns to that seat
    a.page.goto(link)
    a.page.wait_for_function(HAND_OVER)
    assert "Bob" in a.page.inner_text("#opponents") and a.page.url.endswith("/")
    assert a.errors == [] and b.errors == []
    a.close()
    b.close()


def test_accessibility_and_display_preferences(browser: Any, base_url: str) -> None:
    p = Page(browser, base_url)
    p.goto("/")
    p.page.wait_for_selector("#new-opponent option", state="attached")
    problems = axe_problems(p.page)
    p.page.select_option("#new-variant", "three")
    p.page.click("#new-start")
    p.deal()
    assert p.wait_turn() not in ("deal", "over"), "the seeded deal should give the person cards and a turn"
    problems += axe_problems(p.page)
    for pref in ("#pref-four", "#pref-large", "#pref-contrast"):
        p.page.click(pref)
        assert p.page.get_attribute(pref, "aria-pressed") == "true"
    body = p.page.get_attribute("body", "class") or ""
    assert {"four-colour", "large", "contrast"} <= set(body.split())
    problems += axe_problems(p.page)
    p.shot("three-contrast-large-four-colour")
    # suits are symbols and letters: colour is never the only cue
    first = p.page.locator("#hand .card").first
    text = first.inner_text()
    card = first.get_attribute("data-card") or ""
    # the rank and the suit letter in text, the suit's shape drawn from the package's card sprite
    assert card[0].replace("T", "10") in text and card[1] in text.lower()
    hrefs = first.locator("use").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert hrefs and all(h.endswith(f"#suit-{card[1]}") for h in hrefs)
    assert shown("page aria-label", first.get_attribute("aria-label") or "").split(" of ")[1].split(",")[0] in (
        "clubs",
        "diamonds",
        "hearts",
        "spades",
    )
    # four colours: clubs and diamonds differ from spades and hearts
    colours = p.page.evaluate(
        """() => { const c = {}; for (const s of 'cdhs') { const e = document.createElement('span');
           e.className = 'card suit-' + s; document.body.append(e); c[s] = getComputedStyle(e).color; e.remove(); }
           return c; }"""
    )
    assert len(set(colours.values())) == 4, colours
    p.page.click("#nav-stats")
    p.page.wait_for_selector("svg.chart")
    problems += axe_problems(p.page)
    p.shot("statistics")
    p.page.keyboard.press("?")
    assert p.page.locator("#help").is_visible()
    problems += axe_problems(p.page)
    p.page.keyboard.press("Escape")
    for pref in ("#pref-four", "#pref-large", "#pref-contrast"):
        p.page.click(pref)
    p.page.click("#nav-stats")
    p.page.wait_for_selector("svg.chart")
    problems += axe_problems(p.page)
    assert problems == [], "\n".join(problems)
    assert p.errors == []
    p.close()


def test_the_page_reconnects_to_its_seat_after_a_server_restart(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path)
    port = server.port
    p = Page(browser, server.url)
    try:
        p.goto("/")
        p.page.select_option("#new-variant", "gin-solitaire")
        p.page.click("#new-start")
        p.deal()
        p.wait_turn()
        p.discard_turn()  # the opening discard (it cannot end the hand)
        p.wait_turn()
        hand, states = sorted(p.hand()), p.states()
        server.stop()  # the connection drops; the page keeps trying
        p.page.wait_for_function("() => document.getElementById('conn').textContent.includes('reconnecting')")
        server = Server(tmp_path, port)  # the same data directory, as after a restart
        p.wait_states_after(states)
        assert sorted(p.hand()) == hand
        assert p.page.inner_text("#conn") == ""
        if p.attr("phase") == "discard":  # (unless the joker came at once)
            p.discard_turn()  # and play goes on
    finally:
        p.close()
        server.stop()


def test_each_friend_gets_their_own_link(browser: Any, base_url: str) -> None:
    """Three: one link per open seat, so one invitee cannot sit as box and sitter; the creator
    replaces a link and the old one opens nothing."""
    a, b, c = Page(browser, base_url), Page(browser, base_url), Page(browser, base_url)
    try:
        a.goto("/")
        a.page.select_option("#table-variant", "three")
        a.page.wait_for_selector("#table-seat-3 option", state="attached")
        a.page.select_option("#table-seat-2", "person")
        a.page.select_option("#table-seat-3", "person")
        a.page.fill("#table-name", "Ann")
        a.page.click("#table-create")
        link1, link2 = a.page.input_value("#invite-link-1"), a.page.input_value("#invite-link-2")
        assert link1 != link2 and "/join/" in link1 and "/join/" in link2
        a.shot("table-three-links")
        b.page.goto(link1)
        b.page.fill("#join-name", "Bea")
        b.page.click("#join-go")
        b.page.wait_for_selector("#deal")
        a.page.wait_for_selector("#invite-link-1", state="detached")  # used: only seat 3's link is left
        assert b.page.locator("#invite-box").is_hidden()  # only the creator sees the links
        # the same link again, in another browser: it opens nothing
        c.page.goto(link1)
        c.page.fill("#join-name", "Cy")
        c.page.click("#join-go")
        c.page.wait_for_function("() => document.getElementById('flash').textContent.includes('invitation')")
        # the creator replaces seat 3's link: the old one stops working, the new one works
        a.page.click("#invite-new-2")
        a.page.wait_for_function(f"() => document.getElementById('invite-link-2').value !== {link2!r}")
        new2 = a.page.input_value("#invite-link-2")
        c.page.goto(link2)
        c.page.fill("#join-name", "Cy")
        c.page.click("#join-go")
        c.page.wait_for_function("() => document.getElementById('flash').textContent.includes('invitation')")
        c.page.goto(new2)
        c.page.fill("#join-name", "ANN")  # the creator's name in capitals: names at a table differ
        c.page.click("#join-go")
        c.page.wait_for_function("() => document.getElementById('flash').textContent.includes('is taken')")
        c.page.fill("#join-name", "Cy\u202e")  # a right-to-left override
        c.page.click("#join-go")
        c.page.wait_for_function("() => document.getElementById('flash').textContent.includes('U+202E')")
        c.page.fill("#join-name", "Cy")
        c.page.click("#join-go")
        c.page.wait_for_selector("#deal")
        a.page.wait_for_selector("#invite-box", state="hidden")
        a.page.wait_for_function("() => document.getElementById('opponents').textContent.includes('Cy')")
        assert a.errors == [] and b.errors == []
    finally:
        for p in (a, b, c):
            p.close()


def test_a_friend_who_left_is_replaced_by_a_computer(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path, replace_after=0.3)
    base = server.url
    a, b = Page(browser, base), Page(browser, base)
    try:
        a.goto("/")
        a.page.wait_for_selector("#table-seat-2 option", state="attached")
        a.page.select_option("#table-seat-2", "person")
        a.page.fill("#table-name", "Ann")
        a.page.click("#table-create")
        b.page.goto(a.page.input_value("#invite-link-1"))
        b.page.fill("#join-name", "Bob")
        b.page.click("#join-go")
        b.page.wait_for_selector("#deal")
        a.page.wait_for_function("() => document.getElementById('opponents').textContent.includes('Bob')")
        b.close()  # Bob leaves for good
        a.page.click("#invite-computer-1")  # offered once Bob has been away replace_after seconds
        a.page.wait_for_selector("#invite-box", state="hidden")
        a.page.click("#deal")
        a.page.wait_for_function("() => document.getElementById('view-game').dataset.hand === '1'")
        rng = random.Random(6)
        for _ in range(120):
            if a.wait_turn() in ("deal", "over"):
                break
            a.take_turn(rng)
        assert a.attr("phase") in ("deal", "over") and a.page.locator("#result").is_visible()
        a.shot("table-computer-took-the-seat")
        assert a.errors == []
    finally:
        a.close()
        server.stop()


def test_the_owner_deletes_a_saved_game(browser: Any, tmp_path: Path) -> None:
    store = Store(tmp_path)
    session = Session.new("classic", seats=["human", "greedy"], players=["Ann", "Computer"], deal_seed=8)
    session.start_hand()
    store.save_game("20250101-000000-delete", session)
    server = Server(tmp_path)
    p = Page(browser, server.url)
    try:
        p.goto("/")
        button = p.page.locator('[data-delete="20250101-000000-delete"]')
        button.click()
        assert shown("page", button.inner_text()) == "Really delete?"  # a second click is needed
        button.click()
        p.page.wait_for_function("() => document.getElementById('flash').textContent.includes('deleted')")
        button.wait_for(state="detached")
        assert Store(tmp_path).saved_games() == []
        assert p.errors == []
    finally:
        p.close()
        server.stop()


def test_invitation_links_show_the_network_address(browser: Any, tmp_path: Path) -> None:
    """Served on every interface and opened on this computer (127.0.0.1), the page puts the
    network address in the links (here a documentation address, 192.0.2.10: only shown, never
    contacted)."""
    port = _free_port()
    server = Server(tmp_path, port, any_address=True, invite_base=f"http://192.0.2.10:{port}")
    p = Page(browser, f"http://127.0.0.1:{port}")
    try:
        p.goto("/")
        p.page.wait_for_selector("#table-seat-2 option", state="attached")
        p.page.select_option("#table-seat-2", "person")
        p.page.click("#table-create")
        link = p.page.input_value("#invite-link-1")
        assert link.startswith(f"http://192.0.2.10:{port}/join/"), link
        assert p.errors == []
    finally:
        p.close()
        server.stop()

"""The browser page in Korean and Latvian (issue 18), in a real browser: the page follows the
browser's language (``Accept-Language``), ``?lang=`` and the language chosen in Display
(remembered); under the ``xx`` pseudo-locale every text it shows came from the catalogs.

Playwright drives Debian's chromium (headless, ``--no-sandbox``) against seeded servers
(``create_app(deal_seed=...)``); every wait is for a condition.  Screenshots at phone and desktop
size in each language go to $GINRUMMY_SCREENSHOTS (else a temporary directory):
``i18n-<lang>-<where>-<width>x<height>.png``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from ginrummy.web.messages import page_messages
from pseudo_audit import shown
from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import (
    SHOTS,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

BROWSER_LOCALES = {"ko": "ko-KR", "lv": "lv-LV"}

# What a sighted player reads in an element: the text of each smallest block (a paragraph, a list
# item, a button, a label...) holding visible text, one string each (a sentence with a card drawn
# inside it is one string).
VISIBLE_TEXTS = """(selector) => {
  const out = [];
  const seen = new Set();
  const BLOCK = 'li, p, button, td, th, h1, h2, h3, h4, summary, label, a, .badge, .label, .lbl, div';
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const parent = node.parentElement;
      if (!node.nodeValue.trim() || !parent || !parent.checkVisibility()) continue;
      if (parent.closest('.visually-hidden, script, style, [translate=no]')) continue;
      const block = parent.closest(BLOCK) || parent;
      if (seen.has(block)) continue;
      seen.add(block);
      const text = block.innerText.trim();
      if (text) out.push(text);
    }
    for (const select of root.querySelectorAll('select')) {  // every choice of the lists shown
      if (!select.checkVisibility() || select.closest('[translate=no]')) continue;
      for (const option of select.options) out.push(option.text.trim());
    }
  }
  return out;
}"""
CARD = re.compile(r"\b(10|[A2-9TJQK])[cdhs]\b")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
# what may stand outside the markers: cards (7♥, the suit letter beside it, 7h), numbers, hashes
ALLOWED = re.compile(r"^[(]?(?:(?:10|[A2-9TJQK])?[♣♦♥♠]?[cdhsCDHS]?|[0-9a-f]{64}|[\d\s·%.,:;()+−\-–/…]*)[),.:;]?$")


class Speaker(Phone):
    """A page in a browser whose language is ``locale`` (its Accept-Language), at ``size``."""

    def __init__(self, browser: Any, base_url: str, size: tuple[int, int], locale: str) -> None:
        super().__init__(browser, base_url, size, touch=size == PHONE)
        self.context.close()
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]},
            has_touch=self.touch,
            is_mobile=self.touch,
            device_scale_factor=1,
            locale=locale,
            reduced_motion="reduce",  # the texts are read when nothing moves: no glide waited for
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def texts(self, selector: str = "body") -> list[str]:
        return list(self.page.evaluate(VISIBLE_TEXTS, selector))

    def open_lobby(self, path: str = "/") -> None:
        self.goto(path)
        self.page.wait_for_function("() => document.querySelectorAll('#new-variant option').length > 0")

    def play_first_moves(self, variant: str, turns: int, rng: random.Random) -> None:
        """A new game of ``variant``: the cut, the deal, then ``turns`` of the player's turns."""
        self.page.select_option("#new-variant", variant)
        self.press("#new-start")
        self.page.wait_for_selector("#deal")
        self.deal()
        for _turn in range(turns):
            if self.wait_turn() in ("deal", "over"):
                break
            self.tap_turn(rng) if self.touch else self.take_turn(rng)
        self.wait_turn()


def bare(texts: list[str]) -> list[str]:
    """The texts with something outside the pseudo-locale's markers besides cards and numbers."""
    out = []
    for text in texts:
        rest = text
        while MARKED.search(rest):
            rest = MARKED.sub(" ", rest)  # innermost first: a name inside a sentence
        rest = CARD.sub(" ", rest)
        if any(not ALLOWED.match(part) for part in rest.split()):
            out.append(text)
    return out


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_pseudo_locale_shows_no_text_outside_the_catalogs(
    browser: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    server, base = serve(tmp_path, seed=31, history=True)
    p = Speaker(browser, base, size, "en-US")
    try:
        p.open_lobby("/?lang=xx")
        p.page.click("#new-options-box summary")  # the options, their explanations and values
        p.page.wait_for_selector("#new-options select")
        assert bare(p.texts()) == []  # the lobby, with the saved and finished games
        p.press("#nav-stats")
        p.page.wait_for_selector("#view-stats .stat-figures")
        assert bare(p.texts("#view-stats")) == []
        p.open_lobby("/?lang=xx")
        p.page.select_option("#new-variant", "classic")
        p.press("#new-start")
        p.page.wait_for_selector("#cut-outcome")
        assert bare(p.texts()) == []  # the cut and the first deal's commitment
        p.deal()
        rng = random.Random(1)
        for _turn in range(60):  # the first hand to its end (seeded), looking at every turn
            if p.wait_turn() in ("deal", "over"):
                break
            assert bare(p.texts()) == [], (p.attr("phase"), bare(p.texts()))
            p.tap_turn(rng) if p.touch else p.take_turn(rng)
        assert p.attr("phase") in ("deal", "over")
        p.page.wait_for_selector("#result .explain li")
        assert bare(p.texts()) == []  # the result, its explanation, the score sheet, the revealed seed
        assert p.page.locator("#log li").count() > 0  # the server's move log, worded in xx too
        assert all("⟦" in t for t in p.texts("#log li"))
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_bare_finds_english_outside_the_markers() -> None:
    assert bare(["⟦Deal hand 2⟧", "7♥", "h", "⟦{⟦Expert⟧}: discards 7h⟧", "31", "⟦Knock limit 10⟧"]) == []
    assert bare(["Stock", "⟦Hint⟧ Discard", "Expert: ⟦draws⟧"]) == ["Stock", "⟦Hint⟧ Discard", "Expert: ⟦draws⟧"]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ko", "lv"])
def test_the_page_speaks_the_browsers_language(browser: Any, tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    messages = page_messages(lang)
    untranslated = {english for english, said in messages.items() if english != said and len(english) > 2}
    server, base = serve(tmp_path, seed=31)
    p = Speaker(browser, base, size, BROWSER_LOCALES[lang])
    try:
        p.open_lobby()
        assert p.page.get_attribute("html", "lang") == lang
        assert p.page.inner_text("#new-start") == messages["Start a game"]
        assert not untranslated & set(p.texts())
        w, h = size
        p.shot(f"i18n-{lang}-lobby")
        p.play_first_moves("classic", 3, random.Random(lang))
        texts = p.texts()
        assert not untranslated & set(texts), untranslated & set(texts)
        assert p.page.inner_text("#sheet-title") == messages["Score sheet"]
        status = p.page.inner_text("#status")
        assert status and status not in messages  # a sentence of the catalog with its values filled in
        if lang == "ko":  # Korean: no English word may be left (cards, SHA-256 and hashes aside)
            words = [m for t in texts for m in re.findall(r"[A-Za-z]{3,}", CARD.sub(" ", t)) if m != "SHA"]
            assert [w_ for w_ in words if not re.fullmatch(r"[0-9a-f]+", w_)] == []
        p.shot(f"i18n-{lang}-game")
        # the rules in the page's language
        p.press("#nav-rules")
        p.page.wait_for_function("() => document.querySelectorAll('dialog[open] h3, dialog[open] h4').length > 0")
        heading = p.page.locator("dialog[open] h3, dialog[open] h4").first.inner_text()
        assert heading.startswith("0.") and heading != "0. Common definitions (all variants)"
        p.shot(f"i18n-{lang}-rules")
        assert (SHOTS / f"i18n-{lang}-rules-{w}x{h}.png").exists()
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()


def test_the_language_chosen_in_display_is_remembered(browser: Any, tmp_path: Path) -> None:
    server, base = serve(tmp_path, seed=31)
    p = Speaker(browser, base, DESKTOP, "en-US")
    try:
        p.open_lobby()
        assert p.page.get_attribute("html", "lang") == "en"
        assert shown("page", p.page.inner_text("#new-start")) == "Start a game"  # (the pseudo-locale's, in that run)
        if p.page.locator("#nav-display").is_visible():  # a narrow screen: Display opens the settings
            p.page.click("#nav-display")
        with p.page.expect_navigation():
            p.page.select_option("#pref-lang", "lv")
        p.page.wait_for_function("() => document.documentElement.lang === 'lv'")
        assert p.page.inner_text("#new-start") == page_messages("lv")["Start a game"]
        p.open_lobby()  # a new visit: the setting holds over the browser's English
        p.page.wait_for_function("() => document.documentElement.lang === 'lv'")
        p.open_lobby("/?lang=ko")  # ?lang= wins for this visit
        p.page.wait_for_function("() => document.documentElement.lang === 'ko'")
        assert p.page.inner_text("#new-start") == page_messages("ko")["Start a game"]
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()
